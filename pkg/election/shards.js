// ShardedElection: leadership per partition. One LeaderElection per key (the unit), and a
// policy that spreads the keys over the live processes, each aiming for its fair share
//   share = min(maxLeading, ceil(keys / live)) for the first (keys mod live) members in
//   member-slot order, min(maxLeading, floor(keys / live)) for the others.
//
// Membership lives in the same store, as leases: each process holds one member slot, the
// lease "<group>/member/<set>/<i>" for the lowest free i < keys (a LeaderElection of its own,
// so a process that stops renewing drops out after one ttl). <set> is a hash of the sorted key
// list (keySetHash): processes over the same keys, given in any order, share slots, and two
// services over different key sets on one store and group never count each other (with slots
// "<group>/member/<i>" they did: each one's share shrank and keys went unled). Every probe
// interval a process counts the live members by asking each slot with an Acquire under the
// holder name "tenure/member-scan": a Held answer names a member; a slot found free is
// released at once.
// That is one Acquire per slot per probe interval: cheap for tens of keys, worth a longer
// probeIntervalMs for thousands.
//
// - Below its share, a process contends for every key it does not lead.
// - At its share, it stops contending.
// - Above it (a process joined), it releases its whole excess at once, the keys it won last,
//   and leaves each alone for a probe interval so a process below its share takes it.
// The shares of M members who count alike add up to N exactly (ceil for everyone left a process
// at none: 20 keys over 6 settled at 4, 4, 4, 4, 4 and 0). So M stable processes over N keys
// settle at ceil(N / M) or floor(N / M) each, and when one
// crashes its slot lapses, the survivors' share grows, and they take its keys over as its
// leases expire.
import { MAX_LEASE_STRING, describe, guardThis, notPlainObject, notWellFormed, readingInput, refuseRevokedProxy } from "../guard.js";
import { Emitter, ListenerErrors } from "./emitter.js";
import { LeaderElection } from "./election.js";
import { ElectionMetrics } from "./metrics.js";
import { StoreError, closedError, misuse } from "./errors.js";
import { ELECTION_KEYS, MAX_TIMER_MS, quoted, readCloseTimeout, readOptions } from "./options.js";
import { randomId } from "./random.js";

/** The holder name member scans use: never counted as a member, never a clash. */
const SCANNER = "tenure/member-scan";

export class ShardedElection {
  #elections = new Map();
  #order = new Map(); // key -> the time it was won
  #resting = new Map(); // key -> until when it is left alone
  #events = new Emitter("ShardedElection", ["elected", "lost", "error"], (err, event, payload) => this.#onListenerError(err, event, payload));
  #listenerErrors = new ListenerErrors("ShardedElection");
  #warned = new Set();
  #store;
  #slots; // "<group>/member/<set>/": the prefix of this key set's member slots
  #tuning;
  #maxLeading;
  #probeMs;
  #live;
  #rank; // this process's place among the live members, by lowest member slot (undefined: not a member)
  #memberIndex; // the member slot this process holds (meaningful while #member leads)
  #member;
  #nextScan = 0;
  #scanning = false;
  // Each member slot's holder as last answered (absent: free, or never answered), so a slot
  // whose request goes unanswered keeps its last reading instead of voiding the whole count.
  #slotHolders = new Map();
  #requestMs;
  #claiming = false;
  #timer;
  #started = false;
  #closing;
  #nodeId;
  #session = randomId();

  constructor(options) {
    refuseRevokedProxy(options, "ShardedElection options");
    const notPlain = readingInput(() => notPlainObject(options));
    if (notPlain !== undefined) {
      throw misuse(TypeError, "ERR_OBJECT_TYPE", `ShardedElection options must be an object with { store, keys }, got ${notPlain}`);
    }
    // Read once, as a plain copy: a getter or Proxy trap that throws is coded ERR_INPUT_THREW.
    const copy = readingInput(() => ({ ...options }));
    checkShardKeys(copy);
    const { keys, maxLeading = Infinity, probeIntervalMs, group = "shards", ...rest } = copy;
    checkKeyList(keys);
    keys.forEach((k, i) => {
      const why = notWellFormed(k);
      if (why) throw misuse(TypeError, "ERR_STRING_TYPE", `options.keys[${i}] ${quoted(k)} ${why}`);
    });
    if (new Set(keys).size !== keys.length) {
      const first = new Map();
      for (const [i, key] of keys.entries()) {
        if (first.has(key)) throw misuse(RangeError, "ERR_DUPLICATE_KEY", `options.keys has the key ${quoted(key)} twice, at ${first.get(key)} and ${i}; each key may appear once`);
        first.set(key, i);
      }
    }
    if (typeof maxLeading !== "number") {
      throw misuse(TypeError, "ERR_INTEGER_TYPE", `options.maxLeading must be an integer >= 1 or Infinity, got ${typeof maxLeading === "string" ? quoted(maxLeading) : maxLeading === null ? "null" : typeof maxLeading}`);
    }
    if (!(maxLeading === Infinity || (Number.isInteger(maxLeading) && maxLeading >= 1))) {
      throw misuse(RangeError, "ERR_INTEGER_RANGE", `options.maxLeading must be an integer >= 1 or Infinity, got ${String(maxLeading)}`);
    }
    if (typeof group !== "string" || group.length === 0) throw misuse(TypeError, "ERR_STRING_TYPE", "options.group must be a non-empty string");
    if (notWellFormed(group)) throw misuse(TypeError, "ERR_STRING_TYPE", `options.group ${quoted(group)} ${notWellFormed(group)}`);
    checkNotSlots(keys, group);
    // Everything is checked before anything is made: a refusal after the first key's
    // LeaderElection would leave its wasm machine and its metrics (on `registry`, for good)
    // behind, with nothing the caller could close.
    checkProbeInterval(probeIntervalMs);
    const nodeId = rest.nodeId ?? randomId();
    this.#tuning = { ...rest, nodeId };
    const ttlMs = readOptions({ ...this.#tuning, key: keys[0] }).machine.ttl_ms;
    if (nodeId === SCANNER) {
      throw misuse(
        RangeError,
        "ERR_RESERVED_NODE_ID",
        `ShardedElection: options.nodeId ${quoted(nodeId)} is reserved: the member scans ask the slots under that holder name, so a process of that name would never be counted as a member (and would clash with the scans); pass another nodeId`,
      );
    }
    checkKeyLengths(keys, group);
    const node = typeof nodeId === "bigint" ? nodeId.toString() : nodeId; // its series' label, as LeaderElection's
    ElectionMetrics.refuseTaken(rest.registry, keys.map((key) => ({ key, node })));
    try {
      for (const key of keys) {
        const e = new LeaderElection({ ...this.#tuning, key });
        e.on("elected", (p) => this.#onElected(p));
        e.on("lost", (p) => this.#onLost(p));
        e.on("error", (err) => this.#emitError(err));
        this.#elections.set(key, e);
      }
    } catch (err) {
      // The machine's own config rules (ERR_CONFIG) refuse the first key, before anything of
      // it exists; a later key failing is a gap in the checks above: undo what was made.
      for (const e of this.#elections.values()) e.close().catch(() => {});
      this.#elections.clear();
      throw err;
    }
    this.#store = rest.store;
    this.#slots = `${group}/member/${keySetHash(keys)}/`;
    this.#nodeId = this.#elections.get(keys[0]).nodeId;
    this.#maxLeading = maxLeading;
    this.#probeMs = probeIntervalMs ?? ttlMs;
    this.#requestMs = this.#elections.get(keys[0]).config.request_timeout_ms;
  }

  /** This process's node id (the same for every key). */
  get nodeId() {
    return this.#nodeId;
  }

  /** The keys this process leads now, in the order given. */
  get leading() {
    const keys = [];
    for (const [key, e] of this.#elections) if (e.isLeader) keys.push(key);
    return keys;
  }

  /** Live processes last counted (this one included), `undefined` before the first count. */
  get members() {
    return this.#live;
  }

  /**
   * The share this process aims for: min(maxLeading, q), q being ceil(keys / live) for the first
   * (keys mod live) members in member-slot order and floor(keys / live) for the others (ceil
   * while this process holds no member slot); 0 before the first count.
   */
  get share() {
    if (this.#live === undefined) return 0;
    const n = this.#elections.size;
    const live = this.#live;
    const q = this.#rank === undefined ? Math.ceil(n / live) : Math.floor(n / live) + (this.#rank < n % live ? 1 : 0);
    return Math.min(this.#maxLeading, q);
  }

  /** The LeaderElection of one key (for withLeadership, assertLeadership, fencingToken). */
  election(key) {
    if (typeof key !== "string") {
      // Not put into the message as it is: a Symbol threw an uncoded TypeError there.
      refuseRevokedProxy(key, "ShardedElection.election: key");
      const got = readingInput(() => describe(key));
      throw misuse(TypeError, "ERR_STRING_TYPE", `ShardedElection.election: key must be a string, one of this ShardedElection's keys, got ${got}`);
    }
    const e = this.#elections.get(key);
    if (e === undefined) throw misuse(RangeError, "ERR_UNKNOWN_SHARD", `${quoted(key)} is not one of this ShardedElection's keys`);
    return e;
  }

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

  /**
   * Joins (takes a member slot) and starts contending for the keys; a second call does
   * nothing. After close() it throws ERR_CLOSED, as LeaderElection's campaign() rejects: a
   * closed ShardedElection never contends again (make a new one).
   */
  start() {
    if (this.#closing !== undefined) throw closedError("ShardedElection.start", "this ShardedElection was closed; make a new one to contend again");
    if (this.#started) return;
    this.#started = true;
    this.#tick();
  }

  /** Closes every key's election (each waits for its work, then releases), then leaves. */
  close(options) {
    if (this.#closing === undefined) {
      try {
        readCloseTimeout("ShardedElection.close", options, undefined);
      } catch (err) {
        return Promise.reject(err); // refused: nothing closed
      }
    }
    this.#closing ??= (async () => {
      clearTimeout(this.#timer);
      await Promise.all([...this.#elections.values()].map((e) => e.close(options)));
      await this.#member?.close();
    })();
    return this.#closing;
  }

  /** One metrics snapshot per key. */
  metrics() {
    return [...this.#elections.values()].map((e) => e.metrics());
  }

  #slot(i) {
    return `${this.#slots}${i}`;
  }

  #tick() {
    if (this.#closing !== undefined) return;
    const now = performance.now();
    if (this.#member === undefined || !this.#member.isLeader) this.#claim();
    if (now >= this.#nextScan) this.#scan(now);
    this.#balance(now);
    this.#timer = setTimeout(() => this.#tick(), Math.max(5, this.#probeMs / 8));
    this.#timer.unref?.();
  }

  #balance(now) {
    if (this.#live === undefined) return; // not counted yet
    const share = this.share; // may be 0: more members than keys
    const leading = this.leading;
    if (leading.length > share) {
      // The whole excess in one tick, the keys won last first: one key a tick took a joining
      // process some ten minutes to get its 250 of 500 keys at the default ttl. (Sorted only
      // when above the share, a tick or so per join; a sort every tick was O(n log n).)
      const byLatest = leading.sort((a, b) => (this.#order.get(b) ?? 0) - (this.#order.get(a) ?? 0));
      for (const key of byLatest.slice(0, leading.length - share)) {
        this.#resting.set(key, now + this.#probeMs);
        this.#elections.get(key).release().catch(() => {});
      }
    }
    const contend = leading.length < share; // above it, the excess was just released: at the share
    for (const [key, e] of this.#elections) {
      if (e.state === "Leader") continue;
      const resting = (this.#resting.get(key) ?? 0) > now;
      if (contend && !resting) {
        if (e.state !== "Campaigning") e.campaign().catch(() => {});
      } else if (e.state === "Campaigning") {
        e.release().catch(() => {});
      }
    }
  }

  /**
   * Takes the lowest free member slot (keeps trying each tick until one is held). A slot whose
   * request fails is passed over, so a lossy store does not hold a joining process back; the
   * round's failures are one `error` event, the first named with a count of the rest (with the
   * store down, one event per slot per tick was some 1,000 a second over 1,000 keys).
   */
  async #claim() {
    if (this.#claiming) return;
    this.#claiming = true;
    const failures = [];
    const failed = (err) => failures.push(err);
    try {
      await this.#member?.close();
      this.#member = undefined;
      for (let i = 0; i < this.#elections.size && this.#closing === undefined; i++) {
        // Not on `registry`: a member slot is this process's membership, not a key it leads
        // (metrics() leaves it out too), so its is_leader would over-count sum(is_leader).
        const e = new LeaderElection({ ...this.#tuning, registry: undefined, key: this.#slot(i) });
        e.on("error", failed);
        const result = await e.campaign();
        if (result.leader) {
          e.off("error", failed); // its renewals' failures are reported one by one, as a key's
          e.on("error", (err) => this.#emitError(err));
          if (this.#closing !== undefined) await e.close(); // closed meanwhile: leave at once
          else {
            this.#member = e;
            this.#memberIndex = i;
          }
          return;
        }
        await e.close();
        if (result.holder === SCANNER) return; // a scan holds it for a moment: retry next tick
      }
    } catch {
      // Tried again on the next tick.
    } finally {
      this.#claiming = false;
      if (failures.length > 0 && this.#closing === undefined) this.#emitError(summary(failures));
    }
  }

  /**
   * Counts the live members: the distinct holders of the member slots, and this process. Each
   * request waits at most requestTimeoutMs (a store that never answers once froze the count for
   * good, and a survivor never took a closed member's keys over); a slot whose request goes
   * unanswered or fails keeps its last reading, so a lossy store (one lost reply in a round
   * voided it, and a lone process counted no one and led nothing) still gets counted.
   */
  async #scan(now) {
    if (this.#scanning) return;
    this.#scanning = true;
    this.#nextScan = now + this.#probeMs;
    const who = { holder: SCANNER, session: this.#session };
    try {
      for (let i = 0; i < this.#elections.size && this.#closing === undefined; i++) {
        const key = this.#slot(i);
        if (this.#member?.key === key) {
          this.#slotHolders.delete(i);
          continue;
        }
        const reply = await this.#ask({ type: "Acquire", key, ...who, ttl_ms: Math.max(1, Math.round(this.#probeMs / 10)) });
        if (reply?.type === "Held") {
          // Held by a scan (another process's, this instant): no member holds it. Kept as the
          // last reading, a departed member whose slot two processes' scans kept meeting on was
          // counted for good, and the keys its share left went unled.
          if (reply.holder === SCANNER) this.#slotHolders.delete(i);
          else this.#slotHolders.set(i, reply.holder ?? `${key}?`);
        } else if (reply?.type === "Granted") {
          this.#slotHolders.delete(i);
          await this.#ask({ type: "Release", key, ...who, token: reply.token });
        }
      }
      this.#count();
    } finally {
      this.#scanning = false;
    }
  }

  /**
   * The live members from the last readings: each holder once, at its lowest member slot, and
   * this process (at its own slot while it holds one). Its rank is how many members hold a
   * lower slot: every process that reads the same slots ranks the members alike, so their
   * shares add up to the key count.
   */
  #count() {
    const lowest = new Map(); // holder -> its lowest slot
    const hold = (holder, i) => {
      const seen = lowest.get(holder);
      if (seen === undefined || i < seen) lowest.set(holder, i);
    };
    for (const [i, holder] of this.#slotHolders) hold(holder, i);
    const own = this.#member?.isLeader ? this.#memberIndex : undefined;
    if (own !== undefined) hold(this.#nodeId, own);
    this.#live = new Set([this.#nodeId, ...lowest.keys()]).size;
    if (own === undefined) {
      this.#rank = undefined;
      return;
    }
    const mine = lowest.get(this.#nodeId);
    let rank = 0;
    for (const i of lowest.values()) if (i < mine) rank++;
    this.#rank = rank;
  }

  /** One scan request: its answer, or undefined if it failed or took over requestTimeoutMs. */
  async #ask(request) {
    let timer;
    const late = new Promise((resolve) => {
      timer = setTimeout(resolve, this.#requestMs);
      timer.unref?.();
    });
    try {
      return await Promise.race([Promise.resolve().then(() => this.#store.send(request)), late]);
    } catch {
      return undefined; // the store's failures show on the elections' error events
    } finally {
      clearTimeout(timer);
    }
  }

  #onElected(p) {
    this.#order.set(p.key, performance.now());
    this.#events.emit("elected", p);
  }

  #onLost(p) {
    this.#events.emit("lost", p);
  }

  /** As LeaderElection: an `elected`/`lost` listener's throw is an `error` event (ERR_LISTENER); an `error` listener's is printed once. */
  #onListenerError(err, event, payload) {
    if (event === "error") {
      this.#listenerErrors.threw(err);
      return;
    }
    const text = err instanceof Error ? err.message : String(err);
    this.#emitError(new StoreError(`a "${event}" listener threw: ${text}`, { code: "ERR_LISTENER", key: payload?.key, cause: err }));
  }

  #emitError(err) {
    if (this.#events.emit("error", err)) return;
    // Each key's election has this as its listener, so the warning is given here.
    if (this.#warned.has(err.code)) return;
    this.#warned.add(err.code);
    console.warn(`tenure ShardedElection: ${err.message} [${err.code}] (add an "error" listener; printed once)`);
  }

  // A member applied to an object this class did not make throws ERR_THIS_TYPE.
  static {
    guardThis(ShardedElection, (o) => #elections in o, ["close"]);
  }
}

/** One claim round's failures as one StoreError: the first, with a count of the rest. */
function summary([first, ...rest]) {
  if (rest.length === 0) return first;
  const more = `${rest.length} more member-slot request${rest.length === 1 ? "" : "s"} of this claim round failed too`;
  const { code, key, request, reply } = first;
  return new StoreError(`${first.message} (${more})`, { code, key, request, reply, cause: first.cause });
}

/**
 * Refuses `keys` unless it is a dense, non-empty array of at most MAX_SHARD_KEYS non-empty
 * strings, measured before any element is read: `every` and `new Set` walk the holes of a
 * sparse array one by one (`new Array(2 ** 32 - 1)` ran for minutes), and a hole read as
 * `undefined` then failed inside a check with no code.
 */
function checkKeyList(keys) {
  if (!Array.isArray(keys) || keys.length === 0) {
    throw misuse(TypeError, "ERR_ARRAY_TYPE", `options.keys must be a non-empty array of key strings, got ${Array.isArray(keys) ? "an empty array" : describeValue(keys)}`);
  }
  if (keys.length > MAX_SHARD_KEYS) {
    throw misuse(
      RangeError,
      "ERR_TOO_LARGE",
      `options.keys has ${keys.length} elements; a ShardedElection takes at most ${MAX_SHARD_KEYS} keys (each key is a LeaderElection with its own lease, timers and store requests)`,
    );
  }
  for (let i = 0; i < keys.length; i++) {
    if (!(i in keys)) throw misuse(TypeError, "ERR_ARRAY_TYPE", `options.keys[${i}] is a hole (a sparse array): every element must be a key string`);
    const k = keys[i];
    if (typeof k !== "string" || k.length === 0) {
      throw misuse(TypeError, "ERR_STRING_TYPE", `options.keys[${i}] must be a non-empty string, got ${describeValue(k)}`);
    }
  }
}

/**
 * Refuses a key under "<group>/member/": that is where the member slots of every key set of
 * the group live (the leases "<group>/member/<set>/<i>"), so such a key could be contended as
 * a shard and as a member slot at once, and a member count would be wrong.
 */
function checkNotSlots(keys, group) {
  const prefix = `${group}/member/`;
  const i = keys.findIndex((k) => k.startsWith(prefix));
  if (i < 0) return;
  throw misuse(
    RangeError,
    "ERR_RESERVED_KEY",
    `ShardedElection: options.keys[${i}] ${JSON.stringify(keys[i])} is under ${JSON.stringify(prefix)}, where the ShardedElections of group ${JSON.stringify(group)} keep their member slots (the leases "${group}/member/<key set hash>/<i>"); rename the key, or pass another options.group`,
  );
}

/**
 * `probeIntervalMs`, when given: a timer's delay, so from 1 ms (a shorter timer runs at 1 ms in
 * Node, and 0.0001 was taken as scans back to back) to MAX_TIMER_MS.
 */
function checkProbeInterval(v) {
  if (v === undefined) return;
  const range = `from 1 to ${MAX_TIMER_MS} (1 ms is the shortest timer JavaScript runs, about 24.8 days the longest)`;
  if (typeof v !== "number") throw misuse(TypeError, "ERR_MILLIS_TYPE", `options.probeIntervalMs must be a number of ms ${range}, got ${describeValue(v)}`);
  if (!(v >= 1 && v <= MAX_TIMER_MS)) throw misuse(RangeError, "ERR_MILLIS_RANGE", `options.probeIntervalMs must be a number of ms ${range}, got ${v}`);
}

/** Each key, and the last member slot's name, within a lease key's limit (the machine would refuse it only once built). */
function checkKeyLengths(keys, group) {
  const i = keys.findIndex((k) => k.length > MAX_LEASE_STRING);
  if (i >= 0) throw misuse(RangeError, "ERR_TOO_LARGE", `options.keys[${i}] has ${keys[i].length} UTF-16 code units; a lease key has at most ${MAX_LEASE_STRING}`);
  const slot = `${group}/member/${"0".repeat(HASH_DIGITS)}/${keys.length - 1}`;
  if (slot.length > MAX_LEASE_STRING) throw misuse(RangeError, "ERR_TOO_LARGE", `options.group has ${group.length} UTF-16 code units: its member slots ("${group.slice(0, 20)}.../member/<key set hash>/<i>", ${slot.length} here) would pass a lease key's ${MAX_LEASE_STRING}`);
}

/** Hex digits of keySetHash. */
const HASH_DIGITS = 16;

/**
 * The key set's name in its member slots: 64-bit FNV-1a, in 16 hex digits, over the keys sorted
 * (by UTF-16 code units, as Array.prototype.sort does), each as its UTF-8 byte count (4 bytes,
 * big-endian) then its UTF-8 bytes. The same set in any order hashes alike; the length prefix
 * keeps ["ab", "c"] and ["a", "bc"] apart. Every process of a rolling upgrade must compute the
 * same name, so this is fixed for good (a test pins it). About 25 ms for 10,000 keys.
 */
function keySetHash(keys) {
  const utf8 = new TextEncoder();
  let hash = 0xcbf29ce484222325n;
  const add = (byte) => {
    hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  };
  for (const key of [...keys].sort()) {
    const bytes = utf8.encode(key);
    for (const shift of [24, 16, 8, 0]) add((bytes.length >>> shift) & 0xff);
    for (const byte of bytes) add(byte);
  }
  return hash.toString(16).padStart(HASH_DIGITS, "0");
}

/** A value for a message: `the string "5"`, `5n`, `null`. */
function describeValue(v) {
  if (typeof v === "string") return `the string ${quoted(v)}`;
  if (typeof v === "bigint") return `${v}n`;
  if (v === null) return "null";
  return typeof v;
}

/** ShardedElection's own options, beside every LeaderElection option but `key`. */
const SHARD_KEYS = ["keys", "maxLeading", "probeIntervalMs", "group"];
/** The most keys one ShardedElection spreads (each is a LeaderElection of its own). */
const MAX_SHARD_KEYS = 10_000;

/** Refuses `key` (one lease's name: ShardedElection spreads `keys`) and unknown options, naming its own. */
function checkShardKeys(options) {
  const known = [...SHARD_KEYS, ...ELECTION_KEYS.filter((k) => k !== "key")];
  for (const k of Object.keys(options)) {
    if (k === "key") {
      throw misuse(TypeError, "ERR_UNKNOWN_KEY", 'ShardedElection options has "key": it takes "keys", the list of keys to spread over the processes (a LeaderElection takes one key)');
    }
    if (!known.includes(k)) throw misuse(TypeError, "ERR_UNKNOWN_KEY", `ShardedElection options has an unknown key "${k}"; known: ${known.join(", ")}`);
  }
}
