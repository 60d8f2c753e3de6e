// MemoryStore: the in-memory store, LeaderElection's embedded default, over the wasm
// LeaseStore (design rules 2-3: tokens +1 per new grant, expiry on the store's own clock with
// the ttl recorded at the grant). The store protocol's holder and session strings are
// interned to LeaseStore's u64 holder and session ids, so a lease belongs to one session and
// another session under the same holder is Held out, named (design rule 8). (With a
// LeaseStore that predates sessions, each (holder, session) pair is interned as one holder.)
// Options add what a network does: one-way latency, loss, and an outage switch, all seeded.
import { LeaseStore } from "../dist/tenure.js";
import { MonotonicClock } from "./clock.js";
import { guardThis, notPlainObject, notWellFormed, readingInput, refuseRevokedProxy } from "../guard.js";
import { misuse } from "./errors.js";
import { machineCaps } from "./protocol.js";
import { Random, freshSeed, seedOption } from "./random.js";

const KNOWN = ["latencyMs", "lossRate", "seed"];

/** A value as the caller would write it in JS: `NaN`, `5n`, `"5"`, `[1, NaN]` (JSON.stringify would say `null` for NaN and throw for a bigint). */
function shown(v) {
  if (Array.isArray(v)) return `[${v.slice(0, 4).map(shown).join(", ")}${v.length > 4 ? ", ..." : ""}]`;
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "number" || typeof v === "boolean" || v == null) return String(v);
  return typeof v;
}
const TYPES = ["Acquire", "Renew", "Release"];
const FIELDS = {
  Acquire: ["type", "key", "holder", "session", "ttl_ms"],
  Renew: ["type", "key", "holder", "session", "token", "ttl_ms"],
  Release: ["type", "key", "holder", "session", "token"],
};

/** Interned identities kept before pruning those that hold no lease. */
const INTERN_LIMIT = 4096;
/** The longest delay `setTimeout` keeps (2^31 - 1 ms); a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class MemoryStore {
  #store = new LeaseStore();
  #clock = new MonotonicClock();
  #holders = new Interned();
  #sessions = new Interned();
  #pairs = new Interned(); // "holder\0session", for a LeaseStore without sessions
  #withSessions = machineCaps().session;
  #pruneAt = INTERN_LIMIT;
  #requestId = 0n;
  #latency;
  #loss;
  #random;
  #seed;
  #closed = false;

  /**
   * @param {{ latencyMs?: number | [number, number], lossRate?: number, seed?: bigint }} [options]
   *   `latencyMs`: the one-way delay of each leg (request, then reply), fixed or drawn from
   *   [min, max]; `lossRate`: the chance in [0, 1] that a request or its reply is lost (the
   *   promise resolves `undefined`, the protocol's "no answer"); `seed`: the PRNG's seed.
   */
  constructor(options = {}) {
    const { latency, loss, seed } = readingInput(() => readStoreOptions(options));
    this.#latency = latency;
    this.#loss = loss;
    this.#seed = seed ?? freshSeed();
    this.#random = new Random(this.#seed);
  }

  /** The PRNG seed (pass it back to replay the same latency and loss draws). */
  get seed() {
    return this.#seed;
  }

  /** The store's clock (ms): its own monotonic `performance.now()`, whole microseconds. */
  get now() {
    return this.#clock.now();
  }

  /** Whether the store answers (false during an outage: requests go unanswered). */
  get available() {
    this.#open("available");
    return this.#store.available;
  }

  /** An outage switch: `false` and every request is lost, changing nothing, until `true`. */
  setAvailable(up) {
    this.#open("setAvailable");
    this.#store.setAvailable(up);
  }

  /**
   * Handles one store-protocol request; resolves with the reply, or `undefined` when it or its
   * reply was lost or the store is down. A malformed request rejects with a coded TypeError
   * or RangeError and changes nothing.
   */
  send(request) {
    if (this.#closed) return Promise.reject(misuse(Error, "ERR_CLOSED", "MemoryStore.send after close()"));
    let checked;
    try {
      checked = this.#check(request);
    } catch (err) {
      return Promise.reject(err);
    }
    const [min, max] = this.#latency;
    const leg = () => (max === 0 ? 0 : min + this.#random.next() * (max - min));
    const lost = this.#loss > 0 && this.#random.next() < this.#loss;
    const lostRequest = lost && this.#random.next() < 0.5;
    const there = leg();
    const back = leg();
    if (there === 0 && back === 0) {
      try {
        const reply = lostRequest ? undefined : this.#handle(checked);
        return Promise.resolve(lost ? undefined : reply);
      } catch (err) {
        return Promise.reject(err); // a value LeaseStore refused: the request changed nothing
      }
    }
    return new Promise((resolve, reject) => {
      later(there, () => {
        let reply;
        try {
          reply = lostRequest || this.#closed ? undefined : this.#handle(checked);
        } catch (err) {
          reject(err);
          return;
        }
        later(back, () => resolve(lost ? undefined : reply));
      });
    });
  }

  /** The valid lease of `key` now: `{ holder, session, token, expires_at_ms }`, or undefined. */
  holder(key) {
    this.#open("holder");
    const h = this.#store.holder(key, this.#clock.now());
    if (h === undefined) return undefined;
    const { holder, session } = this.#who(h.holder, this.#store.lease(key)?.session);
    return { holder, session, token: h.token, expires_at_ms: h.expires_at_ms };
  }

  /** The strings behind LeaseStore's ids. */
  #who(holderId, sessionId) {
    if (!this.#withSessions) {
      const [holder, session] = this.#pairs.name(holderId)?.split("\u0000") ?? [];
      return { holder, session };
    }
    return { holder: this.#holders.name(holderId), session: this.#sessions.name(sessionId) };
  }

  /** The last token issued for `key`, `undefined` before its first grant. */
  lastToken(key) {
    this.#open("lastToken");
    return this.#store.lastToken(key);
  }

  /** Every key seen, in order. */
  keys() {
    this.#open("keys");
    return this.#store.keys();
  }

  /** Refuses a read after close(), which freed the store's state. */
  #open(call) {
    if (this.#closed) throw misuse(Error, "ERR_CLOSED", `MemoryStore.${call} after close(): a closed store keeps no leases`);
  }

  /** Stops answering (later sends reject with ERR_CLOSED) and frees the wasm store. */
  async close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#store.free();
  }

  #check(request) {
    if (typeof request !== "object" || request === null) throw misuse(TypeError, "ERR_OBJECT_TYPE", `request must be an object, got ${request === null ? "null" : typeof request}`);
    if (!TYPES.includes(request.type)) throw misuse(TypeError, "ERR_VARIANT", `request.type must be one of ${TYPES.join(", ")}, got ${String(request.type)}`);
    const fields = FIELDS[request.type];
    for (const k of Object.keys(request)) {
      if (!fields.includes(k)) throw misuse(TypeError, "ERR_UNKNOWN_KEY", `MemoryStore.send: ${request.type === "Acquire" ? "an" : "a"} ${request.type} request has no field "${k}"; its fields are ${fields.join(", ")}`);
    }
    for (const k of ["key", "holder", "session"]) {
      if (typeof request[k] !== "string") throw misuse(TypeError, "ERR_STRING_TYPE", `request.${k} must be a string, got ${request[k] === null ? "null" : typeof request[k]}`);
      const why = notWellFormed(request[k]);
      if (why) throw misuse(TypeError, "ERR_STRING_TYPE", `MemoryStore.send: request.${k} ${shown(request[k])} ${why}`);
    }
    // What the Redis, PostgreSQL and etcd adapters refuse too (pkg/stores/common.js): a lease
    // needs a key and an owner (a LeaderElection's nodeId and session are never empty; an empty
    // holder would read as "no holder named" in a Held), and a lease of 0 ms or less would be
    // over before it is granted.
    for (const k of ["key", "holder", "session"]) {
      if (request[k] === "") throw misuse(RangeError, "ERR_STORE_REQUEST", `MemoryStore.send: request.${k} must not be empty`);
    }
    if (typeof request.ttl_ms === "number" && !(request.ttl_ms > 0)) {
      throw misuse(RangeError, "ERR_STORE_REQUEST", `MemoryStore.send: request.ttl_ms must be a number of ms above 0, got ${request.ttl_ms}`);
    }
    return { ...request };
  }

  #handle(request) {
    const { type, key, holder, session } = request;
    if (this.#holders.size + this.#sessions.size + this.#pairs.size >= this.#pruneAt) this.#prune();
    const req = { type, id: ++this.#requestId, key };
    if (this.#withSessions) {
      req.holder = this.#holders.id(holder);
      req.session = this.#sessions.id(session);
    } else {
      req.holder = this.#pairs.id(`${holder}\u0000${session}`);
    }
    if (type !== "Acquire") req.token = request.token;
    if (type !== "Release") req.ttl_ms = request.ttl_ms;
    const res = this.#store.handle(this.#clock.now(), req);
    if (res === undefined) return undefined;
    switch (res.type) {
      case "Granted":
      case "Renewed":
        return { type: res.type, token: res.token, ttl_ms: res.ttl_ms };
      case "Held": {
        const out = { type: "Held" };
        const name = res.holder === undefined || res.holder === null ? undefined : this.#who(res.holder, undefined).holder;
        if (name !== undefined) out.holder = name;
        if (typeof res.remaining_ms === "number") out.remaining_ms = res.remaining_ms;
        return out;
      }
      case "Released":
        return { type: "Released" };
      default:
        return { type: "Rejected", reason: res.reason };
    }
  }

  /** Forgets ids that no key's last lease uses: a new id serves them just as well. */
  #prune() {
    const holders = new Set();
    const sessions = new Set();
    for (const key of this.#store.keys()) {
      const lease = this.#store.lease(key);
      if (lease === undefined || lease.released) continue;
      holders.add(lease.holder);
      sessions.add(lease.session);
    }
    this.#holders.keepOnly(holders);
    this.#sessions.keepOnly(sessions);
    this.#pairs.keepOnly(holders);
    // Ids still in use are kept; the next prune waits until as many again are added.
    this.#pruneAt = Math.max(INTERN_LIMIT, 2 * (this.#holders.size + this.#sessions.size + this.#pairs.size));
  }

  // A member applied to an object this class did not make throws ERR_THIS_TYPE.
  static {
    guardThis(MemoryStore, (o) => #store in o, ["send"]);
  }
}

/** Strings <-> u64 ids, handed out from 1. */
class Interned {
  #ids = new Map();
  #names = new Map();
  #next = 1n;

  get size() {
    return this.#ids.size;
  }

  id(name) {
    let id = this.#ids.get(name);
    if (id === undefined) {
      id = this.#next++;
      this.#ids.set(name, id);
      this.#names.set(id, name);
    }
    return id;
  }

  name(id) {
    return this.#names.get(id);
  }

  keepOnly(ids) {
    for (const [name, id] of this.#ids) {
      if (!ids.has(id)) {
        this.#ids.delete(name);
        this.#names.delete(id);
      }
    }
  }
}

function later(ms, fn) {
  setTimeout(fn, ms);
}

/**
 * MemoryStore's options, checked and read once: `{ latency: [min, max], loss, seed }`. The
 * latency range is copied, so changing the caller's array later changes nothing.
 */
function readStoreOptions(options) {
  refuseRevokedProxy(options, "MemoryStore options");
  if (notPlainObject(options) !== undefined) {
    const got = typeof options === "object" && options !== null ? notPlainObject(options) : shown(options);
    throw misuse(TypeError, "ERR_OBJECT_TYPE", `MemoryStore options must be an object such as { latencyMs: [1, 5] }, got ${got}`);
  }
  for (const k of Object.keys(options)) {
    if (!KNOWN.includes(k)) throw misuse(TypeError, "ERR_UNKNOWN_KEY", `MemoryStore options has an unknown key "${k}"; known: ${KNOWN.join(", ")}`);
  }
  const { latencyMs = 0, lossRate = 0, seed } = options;
  // A two-element list is copied by index (a huge or sparse array is refused, not spread).
  const pair = !Array.isArray(latencyMs) || latencyMs.length === 2;
  const range = Array.isArray(latencyMs) ? [latencyMs[0], latencyMs[1]] : [latencyMs, latencyMs];
  // Whole ms: a timer's resolution is 1 ms, so a fraction would be rounded (convention: times
  // finer than their resolution are refused, never rounded).
  // Wrong-typed values (a string, a bigint) are a TypeError; a list of the wrong length or a number out of range a RangeError.
  const typed = !pair || range.every((v) => typeof v === "number");
  if (!pair || !typed || !range.every((v) => Number.isInteger(v) && v >= 0 && v <= MAX_TIMER_MS) || range[0] > range[1]) {
    const [Class, code] = typed ? [RangeError, "ERR_MILLIS_RANGE"] : [TypeError, "ERR_MILLIS_TYPE"];
    throw misuse(Class, code, `MemoryStore latencyMs must be a whole number of ms from 0 to ${MAX_TIMER_MS} (about 24.8 days, the longest timer JavaScript runs) or [min, max] of them, min <= max, got ${shown(latencyMs)}`);
  }
  if (typeof lossRate !== "number") {
    throw misuse(TypeError, "ERR_RATE_TYPE", `MemoryStore lossRate must be a number from 0 to 1, got ${shown(lossRate)}`);
  }
  if (!(lossRate >= 0 && lossRate <= 1)) {
    throw misuse(RangeError, "ERR_RATE_RANGE", `MemoryStore lossRate must be a number from 0 to 1, got ${shown(lossRate)}`);
  }
  return { latency: range, loss: lossRate, seed: seed === undefined ? undefined : seedOption("MemoryStore seed", seed) };
}
