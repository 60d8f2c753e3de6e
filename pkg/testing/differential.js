// runDifferential: random Acquire/Renew/Release sequences by three holders, sent to the store
// under test and to the reference LeaseStore on the kit's clock, each difference classified:
//   numbering - the store numbers its tokens otherwise (still strictly increasing);
//   clock     - a boundary or granularity effect: the answers differ within the clock
//               tolerance of an expiry, or the store rounded the ttl (etcd: whole seconds);
//   reason    - both refused, naming the cause differently (or a spent Release answered
//               Released by one and Rejected by the other: both harmless);
//   breach    - anything else: a real breach of the contract. Only breaches fail the run.
// Operations are timed to stay clear of the reference's expiry instants, so a store whose
// clock has millisecond resolution sees few clock differences, and after one the run waits
// until every lease has lapsed on both sides before it goes on.
import { LeaseStore } from "../dist/tenure.js";
import { MonotonicClock } from "../election/clock.js";
import { machineCaps } from "../election/protocol.js";
import { Random, freshSeed, randomId } from "../election/random.js";
import { Unreadable, closeWithin, describeExchange, exchange, makeWithin, notAStore, sleep, ttlTooLong } from "./exchange.js";
import { misuse } from "../election/errors.js";
import { DEFAULT_CLOSE_TIMEOUT_MS, DEFAULT_MAKE_STORE_TIMEOUT_MS, MAX_RESOLUTION_MS, MAX_STEPS, MAX_TTL_MS, boolean, describe, integer, keyPrefix, millis, numbering, readKitOptions, seed, timerMillis } from "./options.js";

/** Every option, with its check (pkg/testing/options.js); the defaults are below. */
const SPEC = {
  steps: integer(1, MAX_STEPS, "requests"),
  ttlMs: millis(0, MAX_TTL_MS / 2, { above: true, micros: true, why: " (half an hour: a fifth of the requests ask twice it)" }),
  seed,
  clockResolutionMs: millis(0, MAX_RESOLUTION_MS),
  numbering,
  requestTimeoutMs: timerMillis,
  closeTimeoutMs: timerMillis,
  makeStoreTimeoutMs: timerMillis,
  keyPrefix,
  closeStores: boolean,
};
const NAMES = ["A", "B", "C"];

export async function runDifferential(makeStore, options = {}) {
  if (typeof makeStore !== "function") throw misuse(TypeError, "ERR_FUNCTION_TYPE", `runDifferential(makeStore): makeStore must be a function returning a store, got ${describe(makeStore)}`);
  // Read once, as a plain copy (a getter or Proxy trap that throws is coded ERR_INPUT_THREW),
  // and every value checked before the store is made.
  const {
    steps = 100,
    ttlMs = 200,
    seed = freshSeed(),
    clockResolutionMs = 1,
    numbering = "consecutive",
    requestTimeoutMs = 2000,
    closeTimeoutMs = DEFAULT_CLOSE_TIMEOUT_MS,
    makeStoreTimeoutMs = DEFAULT_MAKE_STORE_TIMEOUT_MS,
    keyPrefix = `tenure-differential-${randomId().slice(0, 8)}`,
    closeStores = true,
  } = readKitOptions("runDifferential", options, SPEC);
  const key = `${keyPrefix}:key`;
  const counts = { numbering: 0, clock: 0, reason: 0, breach: 0 };
  // Bounded by makeStoreTimeoutMs: a factory that throws, rejects or never settles is the
  // report's makeStoreFailure, not a crash or a hang (a store it hands over late is closed).
  const making = await makeWithin(makeStore, makeStoreTimeoutMs, (late) => {
    if (closeStores) closeWithin(late, closeTimeoutMs).catch(() => {});
  });
  if (making.failure !== undefined) return { ok: false, seed, steps, counts, differences: [], closeFailures: [], makeStoreFailure: making.failure };
  const { store } = making;
  // Not a store (no send method): the factory's failure, not a breach at every step.
  const notStore = notAStore(makeStore, store);
  if (notStore !== undefined) {
    const failure = closeStores ? await closeWithin(store, closeTimeoutMs) : undefined;
    return { ok: false, seed, steps, counts, differences: [], closeFailures: failure === undefined ? [] : [failure], makeStoreFailure: notStore };
  }
  const ref = new LeaseStore();
  const rng = new Random(seed);
  const clock = new MonotonicClock();
  const tol = clockResolutionMs + 3;
  const sessions = Object.fromEntries(NAMES.map((n) => [n, `${n}-${randomId()}`]));
  const refId = Object.fromEntries(NAMES.map((n, i) => [n, BigInt(i + 1)]));
  const pairs = Object.fromEntries(NAMES.map((n) => [n, []])); // { store, ref } tokens granted
  const toStore = new Map(); // reference token -> the store's token for the same grant
  let storeMax;
  let longestTtl = ttlMs;
  let rttMs = 0;
  let leaseSlack = 0;
  const differences = [];
  const closeFailures = [];
  const note = (step, kind, text, request, storeReply, refReply) => {
    counts[kind]++;
    if (differences.length < 200) differences.push({ step, kind, note: text, request, store: storeReply, reference: refReply });
  };

  try {
    for (let step = 1; step <= steps; step++) {
      // Stay clear of the reference lease's expiry instant.
      // The store set its expiry somewhere between the send and the answer of the request
      // that last granted or renewed (`leaseSlack` later than the reference's).
      const lease = ref.lease(key);
      if (lease !== undefined && !lease.released) {
        const now = clock.now();
        const gap = lease.expires_at_ms - now;
        if (gap > -(tol + leaseSlack) && gap < tol + rttMs) await sleep(gap + leaseSlack + tol + 1);
      }
      const name = NAMES[rng.int(NAMES.length)];
      const roll = rng.next();
      let type = roll < 0.45 ? "Acquire" : roll < 0.8 ? "Renew" : "Release";
      const mine = pairs[name];
      let pair = mine[mine.length - 1];
      if (pair !== undefined && mine.length > 1 && rng.next() < 0.15) pair = mine[rng.int(mine.length - 1)];
      if (pair === undefined) type = "Acquire";
      const ttl = rng.next() < 0.2 ? ttlMs * 2 : ttlMs;
      const base = { key, holder: name, session: sessions[name] };
      const req = type === "Acquire" ? { type, ...base, ttl_ms: ttl } : type === "Renew" ? { type, ...base, token: pair.store, ttl_ms: ttl } : { type, ...base, token: pair.store };
      const prior = ref.lease(key);
      const sent = clock.now();
      let got;
      const saw = [];
      try {
        got = await exchange(store, req, { who: name, saw, timeoutMs: requestTimeoutMs });
      } catch (err) {
        if (!(err instanceof Unreadable)) throw err;
        note(step, "breach", err.message, req, undefined, undefined);
        continue;
      }
      const replied = clock.now();
      rttMs = Math.max(rttMs * 0.9, replied - sent);
      // The reference at the send time, with the ttl the store recorded (it is believed, up to
      // twice the ttl asked plus the clock's resolution: past that it is a breach, and the
      // reference and the waits keep the ttl asked).
      const tooLong = ttlTooLong(name, req, got, clockResolutionMs);
      const refTtl = (got.type === "Granted" || got.type === "Renewed") && tooLong === undefined ? got.ttl_ms : ttl;
      const refReq = { type, id: BigInt(step), key, holder: refId[name] };
      if (machineCaps().session) refReq.session = refId[name]; // one session per holder
      if (type !== "Acquire") refReq.token = pair.ref;
      if (type !== "Release") refReq.ttl_ms = refTtl;
      const want = ref.handle(sent, refReq);
      if (tooLong !== undefined) note(step, "breach", tooLong, req, got, want);
      else if ((got.type === "Granted" || got.type === "Renewed") && got.ttl_ms !== ttl) {
        longestTtl = Math.max(longestTtl, got.ttl_ms);
        note(step, "clock", `the store recorded ttl_ms ${got.ttl_ms} for ${ttl} asked`, req, got, want);
      }
      const near = prior !== undefined && !prior.released && prior.expires_at_ms + leaseSlack >= sent - tol && prior.expires_at_ms <= replied + tol;
      if ((want.type === "Granted" || want.type === "Renewed") && got.type === want.type) leaseSlack = replied - sent;
      if (got.type !== want.type) {
        // A Release answered Released by one and Rejected by the other: if the store released
        // a lease it should have kept, the next Acquire shows it as a breach.
        if (type === "Release" && ["Released", "Rejected"].includes(got.type) && ["Released", "Rejected"].includes(want.type)) {
          note(step, "reason", `Release answered ${got.type}, the reference ${want.type}`, req, got, want);
        } else if (near) {
          note(step, "clock", `${describeExchange(name, req, got)}, the reference ${want.type}, within ${tol} ms of an expiry`, req, got, want);
          await sleep(longestTtl * 2 + 2 * tol); // let every lease lapse on both sides
        } else {
          note(step, "breach", `${describeExchange(name, req, got)}; the reference store answered ${want.type}${want.reason ? ` (${want.reason})` : ""}`, req, got, want);
          await sleep(longestTtl * 2 + 2 * tol);
        }
        continue;
      }
      switch (got.type) {
        case "Granted": {
          const known = toStore.get(want.token);
          if (known !== undefined) {
            if (got.token !== known) note(step, "breach", `a re-grant of the same lease answered token #${got.token}, it was #${known}`, req, got, want);
          } else {
            if (storeMax !== undefined && got.token <= storeMax) {
              note(step, near ? "clock" : "breach", `a new grant got token #${got.token}, not greater than #${storeMax} issued before`, req, got, want);
            } else if (storeMax !== undefined && numbering === "consecutive" && got.token !== storeMax + 1n) {
              note(step, "numbering", `a new grant got token #${got.token} after #${storeMax} (not +1)`, req, got, want);
            }
            toStore.set(want.token, got.token);
            if (storeMax === undefined || got.token > storeMax) storeMax = got.token;
            pairs[name].push({ store: got.token, ref: want.token });
            if (pairs[name].length > 8) pairs[name].shift();
          }
          break;
        }
        case "Renewed":
          if (got.token !== req.token) note(step, "breach", `Renew #${req.token} answered Renewed #${got.token}: a renewal changed the token`, req, got, want);
          break;
        case "Held": {
          const holder = NAMES.find((n) => refId[n] === want.holder);
          if (got.holder !== undefined && got.holder !== holder) note(step, "breach", `Held names ${JSON.stringify(got.holder)}; the lease is ${holder}'s`, req, got, want);
          break;
        }
        case "Rejected":
          if (got.reason !== want.reason) note(step, "reason", `Rejected ${got.reason}, the reference ${want.reason}`, req, got, want);
          break;
        default:
          break;
      }
      await sleep(rng.next() * ttlMs * 0.4);
    }
  } finally {
    ref.free();
    // Bounded by closeTimeoutMs: a close() that never settles is a failure, not a hang (one
    // that rejects has nothing more to teach).
    if (closeStores && store !== null && (typeof store === "object" || typeof store === "function")) {
      const failure = await closeWithin(store, closeTimeoutMs);
      if (failure !== undefined) closeFailures.push(failure);
    }
  }
  return { ok: counts.breach === 0 && closeFailures.length === 0, seed, steps, counts, differences, closeFailures, makeStoreFailure: undefined };
}
