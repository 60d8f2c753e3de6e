// One request/answer exchange with a store under test, for the conformance kit: sends with a
// timeout, reads the answer with the driver's own reader (so the kit and LeaderElection agree
// on what a readable answer is), and records a one-line account of what it saw.
import { readReply } from "../election/protocol.js";
import { describe } from "./options.js";

export class Unreadable extends Error {}

/** Waits `ms` (a real timer: the kit's waits keep the process alive). */
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

const show = (v) => (typeof v === "bigint" ? `#${v}` : typeof v === "number" ? `${v}` : JSON.stringify(v));

/** One line: `A/1 Renew #3 -> Renewed #3 ttl_ms 300`. */
export function describeExchange(who, req, reply) {
  const args = [];
  if (req.token !== undefined) args.push(show(req.token));
  if (req.ttl_ms !== undefined) args.push(`ttl_ms ${req.ttl_ms}`);
  const asked = `${who} ${req.type}${args.length ? " " + args.join(" ") : ""}`;
  if (reply === undefined) return `${asked} -> (no answer)`;
  if (typeof reply !== "object" || reply === null) return `${asked} -> ${String(reply)}`;
  const parts = Object.entries(reply)
    .filter(([k]) => k !== "type")
    .map(([k, v]) => (k === "token" ? show(v) : `${k} ${show(v)}`));
  return `${asked} -> ${reply.type}${parts.length ? " " + parts.join(" ") : ""}`;
}

/**
 * Sends `req` and returns the answer as read (`Unreadable` is thrown for no answer, a
 * timeout, a rejection or a wrong shape). Contract checks are the caller's: an answer that
 * is readable but breaks a rule (a renewal that changed the token) is returned as is.
 */
export async function exchange(store, req, { who, saw, timeoutMs }) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Unreadable(`${who} ${req.type}: no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  let reply;
  try {
    reply = await Promise.race([Promise.resolve().then(() => store.send(req)), timeout]);
  } catch (err) {
    if (err instanceof Unreadable) {
      saw.push(err.message);
      throw err;
    }
    const text = `${who} ${req.type}: the store failed: ${err instanceof Error ? err.message : String(err)}`;
    saw.push(text);
    throw new Unreadable(text, { cause: err });
  } finally {
    clearTimeout(timer);
  }
  saw.push(describeExchange(who, req, reply));
  if (reply === undefined) throw new Unreadable(`${who} ${req.type}: the store gave no answer`);
  const read = readReply(req, reply);
  if (!read.ok && read.code !== "ERR_STORE_CONTRACT") throw new Unreadable(read.message);
  return read.ok ? read.reply : reply;
}

/** A store's name for reports: its class (`RedisStore`), or "the store" for a plain object. */
export function storeName(store) {
  const name = store?.constructor?.name;
  return typeof name === "string" && name !== "" && name !== "Object" ? name : "the store";
}

/**
 * Calls `store.close()` (if it has one) and waits at most `timeoutMs` for it to settle. Returns
 * `undefined` when it settled (a rejection included: the store has answered every request
 * already), or the failure `{ store, code: "ERR_STORE_CLOSE_TIMEOUT", error }` when it did not,
 * so a close that never settles is reported instead of hanging the run.
 */
export async function closeWithin(store, timeoutMs, label = storeName(store)) {
  if (typeof store?.close !== "function") return undefined;
  let closing;
  try {
    closing = Promise.resolve(store.close()).then(
      () => undefined,
      () => undefined,
    );
  } catch {
    closing = Promise.resolve(); // close() threw: it settled, badly
  }
  if ((await within(closing, timeoutMs)).settled) return undefined;
  return {
    store: label,
    code: "ERR_STORE_CLOSE_TIMEOUT",
    error: `${label}: close() did not settle within ${timeoutMs} ms (options.closeTimeoutMs): a store whose close() never ends hangs the process that shuts it down`,
  };
}

/**
 * Waits for `promise` (which must not reject) at most `timeoutMs`: `{ settled: true, value }`,
 * or `{ settled: false }` once the time is up. The timer is cleared either way.
 */
async function within(promise, timeoutMs) {
  let timer;
  const expired = Symbol("expired");
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(expired), timeoutMs);
  });
  try {
    const value = await Promise.race([promise, timeout]);
    return value === expired ? { settled: false } : { settled: true, value };
  } finally {
    clearTimeout(timer);
  }
}

/** `makeStore` as reports name it: `makeStore (makeRedis)`, or `makeStore` for an anonymous function. */
export function factoryName(makeStore) {
  const name = makeStore.name;
  return typeof name === "string" && name !== "" && name !== "makeStore" ? `makeStore (${name})` : "makeStore";
}

/**
 * Calls `makeStore()` and waits at most `timeoutMs` for its store. Resolves `{ store }`, or
 * `{ failure: { store, code, error } }` when it threw or rejected (`ERR_MAKE_STORE_FAILED`,
 * with `cause`) or did not settle in time (`ERR_MAKE_STORE_TIMEOUT`): the run reports it
 * rather than crash or hang. A store that arrives after the timeout is handed to `late` (the
 * run closes it, as it would have).
 */
export async function makeWithin(makeStore, timeoutMs, late = () => {}) {
  const who = factoryName(makeStore);
  let making;
  let how = "rejected";
  try {
    making = Promise.resolve(makeStore());
  } catch (err) {
    how = "threw";
    making = Promise.reject(err);
  }
  const settled = making.then(
    (store) => ({ store }),
    (err) => ({
      failure: {
        store: who,
        code: "ERR_MAKE_STORE_FAILED",
        error: `${who} ${how}: ${err instanceof Error ? err.message : String(err)} (no store to test, no request sent)`,
        cause: err,
      },
    }),
  );
  const outcome = await within(settled, timeoutMs);
  if (outcome.settled) return outcome.value;
  settled.then((o) => o.store !== undefined && late(o.store));
  return {
    failure: {
      store: who,
      code: "ERR_MAKE_STORE_TIMEOUT",
      error: `${who} did not settle within ${timeoutMs} ms (options.makeStoreTimeoutMs): no store to test; a factory that waits for a server that never answers would hang the run`,
    },
  };
}

/**
 * The longest `ttl_ms` the kit believes of a store asked for `askedMs`: twice it, plus the
 * store clock's resolution. A store may round the ttl up (etcd: whole seconds, at least its
 * minimum lease), and the kit waits on what it reports; past this bound the report is taken
 * for a breach, not waited on (a store reporting 1000 times its ttl made a check wait minutes
 * and then fail another rule).
 */
export function longestBelievedTtl(askedMs, resolutionMs) {
  return 2 * askedMs + resolutionMs;
}

/** Why a Granted/Renewed `reply` to `req` reports a ttl longer than the kit believes, or undefined. */
export function ttlTooLong(who, req, reply, resolutionMs) {
  if ((reply?.type !== "Granted" && reply?.type !== "Renewed") || typeof reply.ttl_ms !== "number") return undefined;
  const bound = longestBelievedTtl(req.ttl_ms, resolutionMs);
  if (!(reply.ttl_ms > bound)) return undefined;
  return (
    `${who} ${req.type} asked for ttl_ms ${req.ttl_ms} and the store reported ttl_ms ${reply.ttl_ms}, more than ${bound} ` +
    `(twice the ttl asked plus clockResolutionMs ${resolutionMs}): a store reports the ttl it recorded, rounded up at most to its clock ` +
    "(a store whose shortest lease is longer needs a larger options.ttlMs); the kit does not wait on it"
  );
}

/**
 * `{ store, code: "ERR_MAKE_STORE_TYPE", error }` when what `makeStore` handed over is not a
 * store (no `send(request)` method), else undefined: the run reports it as the factory's
 * failure instead of sending it requests and calling each one a breach.
 */
export function notAStore(makeStore, store) {
  let send;
  try {
    send = store?.send;
  } catch (err) {
    send = err; // a throwing getter or a revoked Proxy: not a store either
  }
  if (typeof send === "function") return undefined;
  const who = factoryName(makeStore);
  const isObject = store !== null && (typeof store === "object" || typeof store === "function");
  return {
    store: who,
    code: "ERR_MAKE_STORE_TYPE",
    error: `${who} handed over ${describe(store)}${isObject ? " without a send(request) method" : ""}: not a store (see "The store contract"), no request sent`,
  };
}
