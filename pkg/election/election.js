// LeaderElection: the driver that runs one LeaseCandidate against a store (design rule 10).
// It owns the clock (monotonic, whole microseconds) and one timer re-armed from the machine's
// pollTimeout() and the in-flight requests' timeouts after every input; it pairs each store
// answer with its request, reads it strictly, and turns every failure into an `error` event.
// The machine's deadline, not the store's errors, decides when leadership ends.
import { LeaseCandidate } from "../dist/tenure.js";
import { guardThis } from "../guard.js";
import { MonotonicClock, OneTimer } from "./clock.js";
import { Emitter, ListenerErrors } from "./emitter.js";
import { LeadershipExpiredError, StoreError, closedError, misuse } from "./errors.js";
import { ElectionMetrics } from "./metrics.js";
import { inOptionWords, quoted, readCloseTimeout, readOptions } from "./options.js";
import { machineCaps, machineHolder, readReply, toMachineResponse, toStoreRequest } from "./protocol.js";
import { randomId } from "./random.js";

export class LeaderElection {
  #m;
  #store;
  #key;
  // The key as messages quote it: at most 60 characters (a key may have 65,536, and during an
  // outage errors come several times a second); the whole key is each error's `key`.
  #keyText;
  #own;
  #clock = new MonotonicClock();
  #timer = new OneTimer(() => this.#onTimer());
  #events = new Emitter("LeaderElection", ["elected", "lost", "held", "error"], (err, event) => this.#onListenerError(err, event));
  #inflight = new Map();
  #seq = 0;
  #requestTimeoutMs;
  #closeTimeoutMs;
  #waiters = [];
  #work = new Set();
  #closing;
  #freed = false;
  #warned = new Set();
  #metrics;
  #caps = machineCaps();
  #pumping = false;
  #releasing = 0;
  #listenerErrors;
  #config; // the machine's config, kept when close() frees the machine
  #highestToken = 0n; // the highest token this election has led under
  // Another node the store said holds the key since this election last became leader: a grant
  // of #highestToken after that is no re-grant of its own lease (docs/design.md, "The
  // JavaScript face").
  #heldByOther;

  /**
   * @param {import("../index.js").LeaderElectionOptions} options
   */
  constructor(options) {
    const o = readOptions(options);
    this.#store = o.store;
    this.#key = o.key;
    this.#keyText = quoted(o.key);
    const holder = typeof o.nodeId === "bigint" ? o.nodeId.toString() : o.nodeId;
    this.#own = { holder, session: randomId(), machineHolder: machineHolder(o.nodeId) };
    try {
      this.#m = new LeaseCandidate({ ...o.machine, key: o.key, holder: this.#own.machineHolder });
    } catch (err) {
      throw inOptionWords(err, o.defaults); // the machine names its snake_case keys; the caller wrote camelCase
    }
    shapeOutputs(); // the module is loaded: this election's machine was just made
    this.#requestTimeoutMs = this.#m.config.request_timeout_ms;
    this.#closeTimeoutMs = o.closeTimeoutMs;
    try {
      this.#metrics = new ElectionMetrics({ key: o.key, node: holder }, o.registry, {
        now: () => this.#clock.now(),
        deadline: () => (this.#freed || this.#m.state !== "Leader" ? undefined : this.#m.leaseDeadline),
      });
    } catch (err) {
      this.#m.free(); // refused: nothing of this election is left behind
      throw err;
    }
  }

  // ----- identity and state -----

  /** The lease's key. */
  get key() {
    return this.#key;
  }

  /** This node's id as the store sees it (a bigint nodeId as its decimal string). */
  get nodeId() {
    return this.#own.holder;
  }

  /** The session this instance drew: the lease belongs to (nodeId, session) (design rule 8). */
  get session() {
    return this.#own.session;
  }

  /** The machine's role: "Follower", "Campaigning", "Leader" or "Stopped". */
  get state() {
    return this.#freed ? "Stopped" : this.#m.state;
  }

  /** Whether this node leads now: `Leader` and before the local deadline (rule 4). */
  get isLeader() {
    if (this.#freed || this.#m.state !== "Leader") return false;
    return this.#clock.now() < this.#m.leaseDeadline;
  }

  /** The fencing token while `isLeader`, else `undefined`. */
  get fencingToken() {
    return this.isLeader ? this.#m.token : undefined;
  }

  /** The local deadline (ms on this process's `performance.now()` clock) while leader. */
  get leaseDeadlineMs() {
    return this.#freed ? undefined : this.#m.leaseDeadline;
  }

  /** The machine's effective config (snake_case, as LeaseCandidate reports it). */
  get config() {
    // After close() the machine is freed; its config is the copy kept then (a fresh object each
    // time, as the machine's getter gives).
    return this.#freed ? { ...this.#config } : this.#m.config;
  }

  // ----- events -----

  on(event, listener) {
    this.#events.on(event, listener);
    return this;
  }

  once(event, listener) {
    this.#events.once(event, listener);
    return this;
  }

  off(event, listener) {
    this.#events.off(event, listener);
    return this;
  }

  // ----- commands -----

  /**
   * Starts contending (goes on in the background until release()/close()). Resolves with
   * `{ leader: true, token }` once elected, or `{ leader: false, holder }` when the first
   * attempt ends without a grant (held by `holder`, if the store said; refused), or
   * `{ leader: false, holder: undefined, error }` when it failed (`error`: the StoreError,
   * such as ERR_STORE_TIMEOUT, also emitted as "error"). Contending goes on in every case.
   */
  campaign() {
    if (this.#closing !== undefined) return Promise.reject(closedError("campaign"));
    const now = this.#clock.now();
    if (this.#m.state === "Leader" && now < this.#m.leaseDeadline) return Promise.resolve({ leader: true, token: this.#m.token });
    const result = new Promise((resolve) => this.#waiters.push(resolve));
    this.#input(() => this.#m.campaign(now));
    this.#arm();
    return result;
  }

  /**
   * The fencing token to present with a leader action, or throws LeadershipExpiredError
   * (`ERR_LEADERSHIP_EXPIRED` with `deadlineMs` once the local deadline passed;
   * `ERR_NOT_LEADER` when not leading; `ERR_CLOSED` after `close()`).
   */
  assertLeadership() {
    // Closed: not "not the leader, campaign() again", since campaign() is refused now too.
    if (this.#freed) throw closedError("assertLeadership", "the election was closed: it leads no more and cannot contend again (make a new LeaderElection)");
    const now = this.#clock.now();
    const check = this.#m.assertLeadership(now);
    if (check.leader) return check.token;
    this.#pump(); // a deadline just found passed queued SteppedDown
    if (check.reason === "DeadlinePassed") {
      throw new LeadershipExpiredError(`leadership of ${this.#keyText} expired at ${check.deadline_ms} ms (now ${check.now_ms} ms): refusing to act`, {
        code: "ERR_LEADERSHIP_EXPIRED",
        key: this.#key,
        state: this.#m.state,
        reason: "DeadlinePassed",
        deadlineMs: check.deadline_ms,
        nowMs: check.now_ms,
      });
    }
    throw notLeader(this.#key, check.state);
  }

  /**
   * Runs `fn({ token, signal })` only while leader: asserts first (rejects with
   * LeadershipExpiredError otherwise), aborts `signal` the moment leadership ends for any
   * reason (local deadline, lost, fenced, released), and returns `fn`'s result.
   */
  async withLeadership(fn) {
    if (typeof fn !== "function") throw misuse(TypeError, "ERR_FUNCTION_TYPE", `withLeadership(fn): fn must be a function, got ${fn === null ? "null" : typeof fn}`);
    if (this.#closing !== undefined) throw closedError("withLeadership");
    const token = this.assertLeadership();
    const controller = new AbortController();
    const entry = { controller, token, done: undefined };
    let finish;
    entry.done = new Promise((resolve) => (finish = resolve));
    this.#work.add(entry);
    this.#arm();
    try {
      return await fn({ token, signal: controller.signal });
    } finally {
      this.#work.delete(entry);
      finish();
      // The timer was kept alive for this work's signal: with the work done, it is unref'd
      // again (if nothing else awaits it), so a script whose work ended can exit.
      if (!this.#freed) this.#arm();
    }
  }

  /**
   * The protected resource refused this leader's token ("stale fencing token"): pass the
   * rejection it returned ({ presented, required }); a leader under `presented` steps down
   * now (`lost` with reason "Fenced"). Anything else is ignored. A rejection whose `required`
   * is not above its `presented` is one no fenced resource makes (it accepts every token at or
   * above the highest it has seen): refused with RangeError ERR_TOKEN_RANGE, leadership kept.
   */
  reportFenced(rejection) {
    if (this.#freed) return;
    refuseImpossibleRejection(rejection);
    const now = this.#clock.now();
    this.#input(() => this.#m.reportFenced(now, rejection));
  }

  /**
   * Graceful hand-over: a leader steps down (`lost`, reason "Released") and asks the store to
   * release; a campaigning node stops contending. Resolves once the store answered the
   * Release or it timed out (request_timeout_ms). campaign() may be called again later.
   */
  async release() {
    if (this.#freed) return;
    const before = this.#seq;
    const now = this.#clock.now();
    this.#input(() => this.#m.release(now));
    const releases = [...this.#inflight.values()].filter((r) => r.seq > before && r.mreq.type === "Release");
    if (releases.length === 0) return;
    this.#releasing++;
    this.#arm();
    try {
      await Promise.all(releases.map((r) => r.settled));
    } finally {
      this.#releasing--;
    }
  }

  /**
   * The sources' shutdown(): stops contending, waits for withLeadership work in flight to
   * settle (at most `timeoutMs`, default the closeTimeoutMs option, itself ttlMs by default;
   * past it the work's signals are aborted), then releases and stops every timer. Later
   * calls return the same promise. The store is not closed: it may serve other elections.
   */
  close(options) {
    if (this.#closing !== undefined) return this.#closing;
    let timeoutMs;
    try {
      timeoutMs = readCloseTimeout("close", options, this.#closeTimeoutMs);
    } catch (err) {
      return Promise.reject(err); // refused: nothing closed, the election goes on
    }
    // #closing is set before the body runs: the body emits `lost` (its release) before its
    // first await, and a listener's campaign() or withLeadership() then must see "closing".
    let settle;
    this.#closing = new Promise((resolve, reject) => (settle = { resolve, reject }));
    (async () => {
      if (this.#m.state === "Campaigning") this.#input(() => this.#m.release(this.#clock.now()));
      if (this.#work.size > 0) {
        const drained = Promise.all([...this.#work].map((w) => w.done));
        let timer;
        const timedOut = new Promise((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
          timer.unref?.();
        });
        await Promise.race([drained, timedOut]);
        clearTimeout(timer);
        for (const w of this.#work) w.controller.abort(closedError("withLeadership", "close() timed out waiting for this work"));
      }
      await this.release();
      this.#timer.clear();
      for (const resolve of this.#waiters.splice(0)) resolve({ leader: false, holder: undefined });
      this.#metrics.unregister();
      this.#config = this.#m.config;
      this.#freed = true;
      this.#m.free();
    })().then(settle.resolve, settle.reject);
    return this.#closing;
  }

  /** A snapshot of this election's counters and gauges (the names of the Prometheus metrics). */
  metrics() {
    return this.#metrics.snapshot();
  }

  // ----- the pump -----

  /** Runs one machine input, then drains outputs and re-arms the timer. */
  #input(call) {
    try {
      call();
    } finally {
      this.#pump();
    }
  }

  #pump() {
    if (this.#freed) return;
    if (this.#pumping) return; // an outer drain picks up what a listener added
    this.#pumping = true;
    const emits = [];
    try {
      for (let out = this.#m.pollOutput(); out !== undefined; out = this.#m.pollOutput()) {
        if (out.type === "Send") this.#dispatch(out.request);
        else this.#onEvent(out.event, emits);
      }
      this.#arm();
    } finally {
      this.#pumping = false;
    }
    for (const [event, payload] of emits) this.#emit(event, payload);
    // A listener may have made new input; drain it too.
    if (emits.length > 0) this.#pump();
  }

  #arm() {
    // The deadline as this input left it, for the metrics' time as leader (a step-down found
    // late, after a blocked loop, still ends that time at the deadline).
    this.#metrics.leaseUntil(this.#m.leaseDeadline); // undefined unless Leader
    let at = this.#m.pollTimeout();
    for (const r of this.#inflight.values()) if (at === undefined || r.deadline < at) at = r.deadline;
    // Kept alive while someone awaits what the timer settles: a campaign(), work whose signal
    // waits for the deadline, a release() waiting for its answer or timeout.
    const awaited = this.#waiters.length > 0 || this.#work.size > 0 || this.#releasing > 0;
    this.#timer.arm(at, this.#clock.now(), awaited);
  }

  #onTimer() {
    if (this.#freed) return;
    const now = this.#clock.now();
    for (const r of [...this.#inflight.values()]) {
      if (r.deadline <= now) this.#fail(r, "ERR_STORE_TIMEOUT", `the store did not answer ${r.req.type} within ${this.#requestTimeoutMs} ms (requestTimeoutMs)`);
    }
    this.#input(() => this.#m.handleTimeout(now));
  }

  #onEvent(event, emits) {
    const now = this.#clock.now();
    if (event.type === "Elected") {
      if (event.token > this.#highestToken) this.#highestToken = event.token;
      this.#heldByOther = undefined;
      this.#metrics.elected(event.token, now);
      for (const resolve of this.#waiters.splice(0)) resolve({ leader: true, token: event.token });
      emits.push(["elected", { key: this.#key, token: event.token }]);
    } else if (event.type === "SteppedDown") {
      this.#metrics.lost(event.reason, now);
      const reason = new LeadershipExpiredError(`leadership of ${this.#keyText} under token ${event.token}n ended: ${event.reason}`, {
        code: "ERR_LEADERSHIP_EXPIRED",
        key: this.#key,
        state: this.#m.state,
        reason: event.reason,
        token: event.token,
      });
      for (const w of this.#work) if (w.token === event.token) w.controller.abort(reason);
      emits.push(["lost", { key: this.#key, token: event.token, reason: event.reason }]);
    } else if (event.type === "HolderClash") {
      emits.push(["error", this.#clash(event)]);
    }
  }

  // ----- store requests -----

  #dispatch(mreq) {
    const req = toStoreRequest(mreq, this.#own);
    const now = this.#clock.now();
    let settle;
    const r = { seq: ++this.#seq, mreq, req, sentAt: now, deadline: now + this.#requestTimeoutMs, done: false, settled: new Promise((s) => (settle = s)) };
    r.settle = settle;
    this.#inflight.set(r.seq, r);
    let answer;
    try {
      answer = this.#store.send(req);
    } catch (err) {
      queueMicrotask(() => this.#fail(r, "ERR_STORE_THREW", `the store's send() threw on ${req.type}: ${message(err)}`, undefined, err));
      return;
    }
    Promise.resolve(answer).then(
      (reply) => this.#onReply(r, reply),
      (err) => this.#fail(r, "ERR_STORE_REJECTED", `the store's send() rejected ${req.type}: ${message(err)}`, undefined, err),
    );
  }

  /** Ends a request without an answer the machine could use, and reports it. */
  #fail(r, code, text, reply, cause) {
    // A send that fails after its request timed out is not news: one request, one error
    // event (an answer that comes late is still read, in #onReply).
    if (!this.#finish(r)) return;
    this.#report(r, true, code, text, reply, cause);
  }

  /** `first`: whether this is the request's first ending (a timeout may come before). */
  #report(r, first, code, text, reply, cause) {
    if (this.#freed) return;
    if (first && r.mreq.type === "Renew") this.#metrics.renewalFailed();
    const err = this.#error(code, text, r.req, reply, cause);
    if (first && r.mreq.type === "Acquire") this.#settleAttempt(undefined, err);
    this.#pump();
  }

  /** Marks `r` answered (or given up); true the first time. */
  #finish(r) {
    if (r.done) return false;
    r.done = true;
    this.#inflight.delete(r.seq);
    r.settle();
    return true;
  }

  #onReply(r, reply) {
    const first = this.#finish(r);
    if (this.#freed) {
      if (reply?.type === "Granted") this.#releaseOrphan(r.req, reply);
      return;
    }
    if (reply === undefined) {
      if (first) this.#report(r, true, "ERR_STORE_NO_ANSWER", `the store gave no answer to ${r.req.type}`);
      return;
    }
    const read = readReply(r.req, reply);
    if (!read.ok) {
      this.#report(r, first, read.code, read.message, reply);
      return;
    }
    const ok = read.reply;
    if (ok.type === "Held" && ok.holder === this.#own.holder && !this.#caps.clashEvent) {
      this.#emit("error", this.#clash({ type: "HolderClash" }, r.req, reply));
    }
    if (first && r.mreq.type === "Renew" && ok.type === "Rejected") this.#metrics.renewalFailed();
    if (ok.type === "Held") this.#emit("held", { key: this.#key, holder: ok.holder });
    if (ok.type === "Held" && ok.holder !== undefined && ok.holder !== this.#own.holder) this.#heldByOther = ok.holder;
    const now = this.#clock.now();
    if (first && ok.type === "Granted" && r.mreq.type === "Acquire" && this.#reissued(ok.token)) {
      // Not given to the machine, which would lead under it: the grant is handed back, and the
      // machine reads the attempt as held (no holder named), so it contends on.
      const failed = this.#reissuedError(ok, r.req, reply);
      this.#releaseOrphan(r.req, ok);
      this.#m.handleResponse(now, toMachineResponse(r.mreq, { type: "Held" }, this.#own));
      this.#settleAttempt(undefined, failed);
      this.#pump();
      return;
    }
    const state = ok.type === "Granted" ? this.#m.state : undefined; // each getter crosses into wasm
    let failed;
    try {
      this.#m.handleResponse(now, toMachineResponse(r.mreq, ok, this.#own));
    } catch (err) {
      failed = this.#error("ERR_STORE_REPLY", `the store's ${ok.type} could not be taken: ${message(err).replaceAll("response.", `${ok.type}.`)}`, r.req, reply, err);
    }
    if (ok.type === "Granted" && (state === "Stopped" || this.#m.state === "Stopped")) this.#releaseOrphan(r.req, ok);
    else if (failed === undefined && first && ok.type === "Granted" && this.#m.state !== "Leader") failed = this.#grantNotTaken(ok, r.req, reply);
    if (failed === undefined && first && ok.type === "Rejected" && ok.reason === "TokensExhausted") {
      failed = this.#error(
        "ERR_TOKENS_EXHAUSTED",
        `the store has no fencing token left to issue for ${this.#keyText} (Rejected: TokensExhausted): no node can lead it until the key's token counter is reset, which also resets fencing`,
        r.req,
        reply,
      );
    }
    if (first && r.mreq.type === "Acquire") this.#settleAttempt(ok.type === "Held" ? ok.holder : undefined, failed);
    this.#pump();
  }

  /**
   * Whether a granted `token` is one a store that lost its state issued again: below a token
   * this election led under, or equal to it after another node held the key (then it cannot be
   * a re-grant of this node's own lease, the one case where the same token comes back).
   */
  #reissued(token) {
    return token < this.#highestToken || (token === this.#highestToken && this.#heldByOther !== undefined);
  }

  #reissuedError(ok, request, reply) {
    const why =
      ok.token < this.#highestToken
        ? `below ${this.#highestToken}n, a token this node already led under`
        : `the token this node led under before "${this.#heldByOther}" held the key, so it is no re-grant of this node's lease`;
    return this.#error(
      "ERR_STORE_CONTRACT",
      `the store granted ${this.#keyText} with token ${ok.token}n, ${why}: fencing needs every new grant's token above the earlier ones (a store that lost its state, such as a restart without persistence, issues them again); the grant was handed back`,
      request,
      reply,
    );
  }

  /**
   * A grant the machine read and did not lead under (design rules 1 and 5): a lease too short to
   * outlast the safety margin, or a token not above one this node already led under (a store
   * that lost its state). Contending goes on; the error says why nothing came of the grant.
   */
  #grantNotTaken(ok, request, reply) {
    const margin = this.#m.config.safety_margin_ms;
    if (ok.ttl_ms <= margin) {
      return this.#error(
        "ERR_STORE_CONTRACT",
        `the store granted ${this.#keyText} for ${ok.ttl_ms} ms, not above the safety margin of ${margin} ms (safetyMarginMs): the lease would end before this node could use it`,
        request,
        reply,
      );
    }
    if (ok.token <= this.#highestToken) {
      return this.#error(
        "ERR_STORE_CONTRACT",
        `the store granted ${this.#keyText} with token ${ok.token}n, not above ${this.#highestToken}n, a token this node already led under: fencing needs every grant's token above the earlier ones (a store that lost its state, such as a restart without persistence, issues them again)`,
        request,
        reply,
      );
    }
    return this.#error("ERR_STORE_CONTRACT", `the store granted ${this.#keyText} with token ${ok.token}n and this node did not take the lease`, request, reply);
  }

  /**
   * An Acquire ended: campaign() callers learn the outcome unless it made us leader. `error`:
   * the StoreError (also emitted as "error") when the attempt failed rather than being
   * answered, so a caller can tell a store that is down from a lease held by someone unnamed.
   */
  #settleAttempt(holder, error) {
    if (this.#m.state === "Leader") return; // resolved by Elected
    const outcome = error === undefined ? { leader: false, holder } : { leader: false, holder, error };
    for (const resolve of this.#waiters.splice(0)) resolve(outcome);
  }

  /** A grant that arrived after this node stopped contending: hand it back at once. */
  #releaseOrphan(req, reply) {
    const release = { type: "Release", key: req.key, holder: req.holder, session: req.session, token: reply.token };
    try {
      Promise.resolve(this.#store.send(release)).catch(() => {});
    } catch {
      // The lease lapses at the store on its own.
    }
  }

  // ----- errors -----

  #clash(event, request, reply) {
    return new StoreError(`another contender holds ${this.#keyText} under this node's id "${this.#own.holder}" (a different session): two processes share one nodeId (design rule 8)`, {
      code: "ERR_HOLDER_CLASH",
      key: this.#key,
      request,
      reply: reply ?? event,
    });
  }

  #error(code, text, request, reply, cause) {
    const err = new StoreError(text, { code, key: this.#key, request, reply, cause });
    this.#emit("error", err);
    return err;
  }

  #emit(event, payload) {
    const heard = this.#events.emit(event, payload);
    if (!heard && event === "error") this.#warnOnce(payload);
  }

  /** Without an `error` listener a failure is printed once per code, never thrown (rule 10). */
  #warnOnce(err) {
    if (this.#warned.has(err.code)) return;
    this.#warned.add(err.code);
    console.warn(`tenure LeaderElection ${this.#keyText}: ${err.message} [${err.code}] (add an "error" listener to handle these; this one is printed once)`);
  }

  #onListenerError(err, event) {
    if (event === "error") {
      this.#listenerErrors ??= new ListenerErrors(`LeaderElection ${this.#keyText}`);
      this.#listenerErrors.threw(err); // printed once, never thrown (emitter.js)
      return;
    }
    this.#emit("error", new StoreError(`a "${event}" listener threw: ${message(err)}`, { code: "ERR_LISTENER", key: this.#key, cause: err }));
  }

  // A member applied to an object this class did not make throws ERR_THIS_TYPE.
  static {
    guardThis(LeaderElection, (o) => #freed in o, ["campaign", "close"]);
  }
}

// Async disposal (`await using election = new LeaderElection(...)`) is close(), where the
// engine has Symbol.asyncDispose.
if (typeof Symbol.asyncDispose === "symbol") {
  Object.defineProperty(LeaderElection.prototype, Symbol.asyncDispose, {
    value() {
      return this.close();
    },
    writable: true,
    configurable: true,
  });
}

let shaped = false;
// The outputs shapeOutputs() made, kept: a GC may drop a shape no live object has, and the
// next output of it would make it anew, as specific as that output (shaping without keeping
// them still crashed).
const shapes = [];

/**
 * Makes every shape of pollOutput()'s outputs once, with a throwaway machine, before the first
 * election runs. Node 20's V8 (11.3) aborts the process ("unreachable code" in
 * Deoptimizer::DoComputeBuiltinContinuation) when optimized code into which it inlined a
 * JS-to-Wasm call returning an object (an externref, as pollOutput does) is deoptimized while
 * that call runs: that V8 cannot rebuild the call's result (later V8s can). pollOutput builds
 * its output in JS imports, so the first output of a new shape generalized a field's type that
 * the optimized #pump relied on, and #pump was deoptimized inside the call: with hundreds of
 * keys, the `event` field of `{ type: "Event", event }` had held only `Elected` events when
 * the first `SteppedDown` came (a second ShardedElection process joined, and keys were
 * released). Made here first, every field is as general as it gets (`event` and `request`
 * have held each variant, `ttl_ms` and `deadline_ms` a fractional ms), so no later output
 * changes one. Anything else that deoptimized #pump during that call would still abort (none
 * is known; `node --no-turbo-inline-js-wasm-calls` rules it out).
 */
function shapeOutputs() {
  if (shaped) return;
  shaped = true;
  let m;
  try {
    const key = "tenure/shapes";
    m = new LeaseCandidate({ key, holder: 1n, seed: 1n, ttl_ms: 1000.5, safety_margin_ms: 100, max_round_trip_ms: 100 });
    let last;
    const drain = () => {
      for (let out = m.pollOutput(); out !== undefined; out = m.pollOutput()) shapes.push((last = out));
    };
    m.campaign(0.25); // Send Acquire
    drain();
    m.handleResponse(0.5, { type: "Granted", id: last.request.id, key, token: 1n, ttl_ms: 1000.5 }); // Elected
    drain();
    m.handleTimeout(m.pollTimeout()); // Send Renew
    drain();
    m.release(400.25); // SteppedDown, Send Release
    drain();
    m.campaign(500.25);
    drain();
    m.handleResponse(500.5, { type: "Held", id: last.request.id, key, holder: 1n, remaining_ms: 1 }); // HolderClash
    drain();
  } catch {
    // A machine that refuses a step shapes less; the election itself is unaffected.
  } finally {
    m?.free();
  }
}

/**
 * A fenced resource refuses `presented` only when it is below `required` (the highest token it
 * has seen), so a rejection with `required <= presented` is impossible: a bug in the caller's
 * resource or a hand-made object. Stepping down on it would end a valid leadership for nothing.
 * Read as own data properties only (no getter or Proxy trap runs twice); anything else about the
 * rejection (its type, missing fields, ranges) is left to the machine's own checks and words.
 */
function refuseImpossibleRejection(rejection) {
  let presented;
  let required;
  try {
    if (typeof rejection !== "object" || rejection === null) return;
    const field = (name) => Object.getOwnPropertyDescriptor(rejection, name);
    // Another `accepted` or `reason` is the machine's ERR_VARIANT, as it was.
    if (field("accepted") !== undefined && field("accepted").value !== false) return;
    if (field("reason") !== undefined && field("reason").value !== "stale fencing token") return;
    presented = Object.getOwnPropertyDescriptor(rejection, "presented")?.value;
    required = Object.getOwnPropertyDescriptor(rejection, "required")?.value;
  } catch {
    return; // a revoked or throwing Proxy: the machine reports it in its words
  }
  const token = (t) => typeof t === "bigint" && t >= 0n && t < 1n << 64n;
  if (!token(presented) || !token(required) || required > presented) return;
  throw misuse(
    RangeError,
    "ERR_TOKEN_RANGE",
    `reportFenced(rejection): rejection.required ${required}n is not above rejection.presented ${presented}n: a fenced resource refuses only a token below the highest it has seen (required), so it would have accepted this one; leadership is kept`,
  );
}

function notLeader(key, state) {
  // The easy mistake: an election nobody started never leads, and should say so.
  const hint = state === "Follower" ? ": campaign() was never called" : state === "Stopped" ? ": released or closed; campaign() again to contend" : "";
  return new LeadershipExpiredError(`not the leader of "${key}" (state ${state})${hint}: refusing to act`, { code: "ERR_NOT_LEADER", key, state, reason: "NotLeading" });
}

function message(err) {
  return err instanceof Error ? err.message : String(err);
}
