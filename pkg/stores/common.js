// What the store adapters (tenure/redis, tenure/postgres, tenure/etcd) share: reading a store
// request strictly, fencing-result shapes, token checks and error wrapping. Plain JS, no wasm:
// the adapters load without the machines.
import { MAX_LEASE_STRING, notPlainObject, notWellFormed, readingInput, refuseRevokedProxy, withArticle } from "../guard.js";

const U64_MAX = 2n ** 64n - 1n;
const REQUEST_KEYS = {
  Acquire: ["type", "key", "holder", "session", "ttl_ms"],
  Renew: ["type", "key", "holder", "session", "token", "ttl_ms"],
  Release: ["type", "key", "holder", "session", "token"],
};

function fail(Kind, code, message) {
  const err = new Kind(message);
  err.code = code;
  return err;
}

/** A TypeError/RangeError with a `code`, for misuse of an adapter. */
export function usageError(Kind, code, message) {
  return fail(Kind, code, message);
}


/**
 * Reads a store request strictly (the shape `LeaderElection` sends, design rule 9): throws a
 * TypeError/RangeError with code `ERR_STORE_REQUEST` naming the field otherwise. Returns a plain
 * copy, each field read once: a getter is not asked again between the check and the use. A
 * revoked Proxy is refused with `ERR_REVOKED_PROXY`, and a getter or trap that throws while
 * the request is read passes its error on with `ERR_INPUT_THREW`.
 */
export function readRequest(store, request) {
  const bad = (Kind, what) => fail(Kind, "ERR_STORE_REQUEST", `${store}.send: ${what}`);
  refuseRevokedProxy(request, `${store}.send: the request`);
  if (request === null || typeof request !== "object" || readingInput(() => Array.isArray(request))) {
    throw bad(TypeError, `the request must be an object, got ${describe(request)}`);
  }
  request = readingInput(() => ({ ...request }));
  const keys = REQUEST_KEYS[request.type];
  if (!keys) throw bad(TypeError, `request.type must be "Acquire", "Renew" or "Release", got ${describe(request.type)}`);
  for (const key of Object.keys(request)) {
    if (!keys.includes(key)) throw bad(TypeError, `${withArticle(request.type)} request has no field "${key}"`);
  }
  for (const field of ["key", "holder", "session"]) {
    if (typeof request[field] !== "string") throw bad(TypeError, `request.${field} must be a string, got ${describe(request[field])}`);
  }
  // A lease needs a key and an owner: a LeaderElection's nodeId and session are never empty
  // (MemoryStore refuses the same).
  for (const field of ["key", "holder", "session"]) {
    if (request[field] === "") throw bad(RangeError, `request.${field} must not be empty`);
  }
  for (const field of ["key", "holder", "session"]) {
    // The lease key limit LeaderElection and the wasm LeaseStore hold to (pkg/README.md, "Limits").
    if (request[field].length > MAX_LEASE_STRING) {
      throw bad(RangeError, `request.${field} has ${request[field].length} UTF-16 code units; at most ${MAX_LEASE_STRING} are accepted`);
    }
  }
  for (const field of ["key", "holder", "session"]) {
    const why = notWellFormed(request[field]);
    if (why) throw bad(RangeError, `request.${field} ${describe(request[field])} ${why}`);
  }
  if (keys.includes("ttl_ms")) {
    const ttl = request.ttl_ms;
    if (typeof ttl !== "number") throw bad(TypeError, `request.ttl_ms must be a number, got ${describe(ttl)}`);
    if (!Number.isFinite(ttl) || ttl <= 0 || ttl > MAX_TIMER_MS) {
      throw bad(RangeError, `request.ttl_ms must be a number of ms above 0 and at most ${MAX_TIMER_MS} (about 24.8 days), got ${ttl}`);
    }
  }
  if (keys.includes("token")) {
    const token = request.token;
    if (typeof token !== "bigint") throw bad(TypeError, `request.token must be a bigint, got ${describe(token)}`);
    if (token < 0n || token > U64_MAX) throw bad(RangeError, `request.token must be a bigint from 0n to 2n ** 64n - 1n, got ${token}n`);
  }
  return request;
}

/** Checks a token given to a fenced resource: the same codes as the wasm FencedResource. */
export function readToken(where, token) {
  if (typeof token !== "bigint") {
    throw fail(TypeError, "ERR_TOKEN_TYPE", `${where}: the fencing token must be a bigint, got ${describe(token)}`);
  }
  if (token < 0n || token > U64_MAX) {
    throw fail(RangeError, "ERR_TOKEN_RANGE", `${where}: the fencing token must be a bigint from 0n to 2n ** 64n - 1n, got ${token}n`);
  }
  return token;
}

/** The fencing results, the same shapes as the wasm FencedResource's (design rule 1). */
export function fenceResult(accepted, presented, required) {
  return accepted
    ? { accepted: true, token: presented }
    : { accepted: false, reason: "stale fencing token", presented, required };
}

/**
 * A failure of the store (the client threw or rejected, or the server answered something the
 * adapter cannot read): an Error with code `ERR_STORE`, the request and the original `cause`.
 * LeaderElection reports it as an `error` event; the machine's deadline decides leadership.
 * The message shows the key shortened to 60 characters (`describe`): a key may be 65,536
 * characters, and during an outage these errors come several times a second. The whole key
 * is `err.request.key`.
 */
export function storeError(store, request, cause, what = undefined) {
  const detail = what ?? (cause instanceof Error ? cause.message : String(cause));
  const verb = request?.type ?? "request";
  const key = typeof request?.key === "string" ? ` on key ${describe(request.key)}` : "";
  const err = new Error(`${store}: ${verb}${key} failed: ${detail}`, cause === undefined ? undefined : { cause });
  err.code = "ERR_STORE";
  err.request = request;
  return err;
}

/**
 * Checks that `options` is an object with a `client` that has the given members, and no key
 * outside `known` (a typo such as `keyPrefix` for `prefix` fails loudly: ERR_UNKNOWN_KEY).
 * Returns a plain copy of `options`, read once (a getter runs once; a getter or Proxy trap that
 * throws reaches the caller coded ERR_INPUT_THREW), for the adapter to read its other options from.
 */
export function readOptions(store, options, clientMethods, clientDescription, known) {
  return readingInput(() => readOptionsOf(store, options, clientMethods, clientDescription, known));
}

function readOptionsOf(store, options, clientMethods, clientDescription, known) {
  refuseRevokedProxy(options, `new ${store}(options): options`);
  if (options === null || typeof options !== "object") {
    throw fail(TypeError, "ERR_STORE_OPTIONS", `new ${store}(options): options must be an object with a \`client\`, got ${describe(options)}`);
  }
  // A Map or class instance would be read as an object without a `client`: say what it is.
  const notPlain = notPlainObject(options);
  if (notPlain !== undefined) throw fail(TypeError, "ERR_STORE_OPTIONS", `new ${store}(options): options must be a plain object with a \`client\`, got ${notPlain}`);
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw fail(TypeError, "ERR_UNKNOWN_KEY", `new ${store}(options): unknown option "${key}"; known: ${known.join(", ")}`);
    }
  }
  const copy = { ...options };
  const { client } = copy;
  refuseRevokedProxy(client, `new ${store}(options): options.client`);
  const missing = clientMethods.filter((m) => typeof client?.[m] !== "function" && typeof client?.[m] !== "object");
  if (client === null || typeof client !== "object" || missing.length > 0) {
    throw fail(
      TypeError,
      "ERR_STORE_OPTIONS",
      `new ${store}(options): options.client must be ${clientDescription}, got ${describe(client)}` +
        (client && typeof client === "object" ? ` (it has no ${missing.join(", ")})` : ""),
    );
  }
  return copy;
}

/**
 * Refuses a string option with a lone UTF-16 surrogate (a key, a prefix): stored as UTF-8 it
 * would become U+FFFD, so two different options would name the same keys.
 */
export function checkWellFormed(store, name, value) {
  const why = notWellFormed(value);
  if (why) throw fail(TypeError, "ERR_STORE_OPTIONS", `new ${store}(options): options.${name} ${describe(value)} ${why}`);
}

/** Checks an optional string option (a key prefix, a table name). */
export function readStringOption(store, options, name, fallback, pattern, patternText) {
  const value = options[name] ?? fallback;
  if (typeof value !== "string" || (pattern && !pattern.test(value))) {
    throw fail(TypeError, "ERR_STORE_OPTIONS", `new ${store}(options): options.${name} must be ${patternText ?? "a string"}, got ${describe(value)}`);
  }
  checkWellFormed(store, name, value);
  return value;
}

/** The longest delay a JavaScript timer keeps (2^31 - 1 ms, about 24.8 days); a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Checks an optional number-of-ms option: a whole number of ms from 1 to MAX_TIMER_MS. Past
 * that, Node's setTimeout fires at once and gRPC refuses the deadline ("Deadline is too far in
 * the future", thrown later, far from the option); a fraction is finer than a timer's 1 ms.
 */
export function readMsOption(store, options, name, fallback) {
  const value = options[name] ?? fallback;
  const range = `a whole number of ms from 1 to ${MAX_TIMER_MS} (about 24.8 days, the longest timer JavaScript runs)`;
  if (typeof value !== "number") {
    throw fail(TypeError, "ERR_STORE_OPTIONS", `new ${store}(options): options.${name} must be ${range}, got ${describe(value)}`);
  }
  if (!Number.isInteger(value) || value < 1 || value > MAX_TIMER_MS) {
    throw fail(RangeError, "ERR_STORE_OPTIONS", `new ${store}(options): options.${name} must be ${range}, got ${value}`);
  }
  return value;
}

/** A short description of a value for error messages. */
export function describe(value) {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value);
  if (typeof value === "function") return "a function";
  if (typeof value === "object") return Array.isArray(value) ? "an array" : `an object (${value.constructor?.name ?? "no prototype"})`;
  return `${typeof value} ${String(value)}`;
}
