// The options of checkStoreContract and runDifferential, checked the way LeaderElection checks
// its own (pkg/election/options.js): read once as a plain copy, unknown keys refused with the
// known ones listed, and every value's type and range checked before any store is made, each
// error naming the option as written (`options.steps`), the value given and what is allowed,
// with the unit. A bad value is the caller's, so it is refused here, never blamed on the store
// (a ttl of -1 ms would otherwise fail every case as "the store failed").
import { describe, readingInput, refuseRevokedProxy } from "../guard.js";
import { misuse } from "../election/errors.js";
import { MAX_TIMER_MS } from "../election/options.js";
import { seedOption } from "../election/random.js";

export { describe };
/** A bigint seed from 0n to 2n ** 64n - 1n (one reader with MemoryStore's: pkg/election/random.js). */
export const seed = seedOption;

// setTimeout's longest delay: a longer one fires at once (Node warns, browsers say nothing).
// One bound and one wording with LeaderElection's (pkg/election/options.js, MS_RANGE).
export { MAX_TIMER_MS };
/** The longest ttl the kit asks: each case waits it out, and a fifth of runDifferential's requests ask twice it. */
export const MAX_TTL_MS = 3_600_000;
/** The longest clock resolution: a minute (etcd counts whole seconds: 1000). */
export const MAX_RESOLUTION_MS = 60_000;
/** The most steps runDifferential takes. */
export const MAX_STEPS = 1_000_000;
/** A key prefix leaves room for the suffix the kit adds within a lease key's 65536 code units. */
export const MAX_PREFIX = 65_000;
/** How long each store's close() may take before the report says it hung, ms. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;
/** How long makeStore() may take to hand over its store (a client may connect first), ms. */
export const DEFAULT_MAKE_STORE_TIMEOUT_MS = 10_000;

/**
 * Checks `options` of the kit's function `fn` ("checkStoreContract" or "runDifferential")
 * against `spec` ({ name: check(where, value) }, where each check returns the value to use or
 * throws) and returns a plain copy with every given option checked.
 */
export function readKitOptions(fn, options, spec) {
  if (options === undefined) return {};
  refuseRevokedProxy(options, `${fn}: options`);
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw misuse(TypeError, "ERR_OBJECT_TYPE", `${fn}: options must be an object, got ${describe(options)}`);
  }
  const copy = readingInput(() => {
    const known = Object.keys(spec);
    for (const k of Object.keys(options)) {
      if (!known.includes(k)) throw misuse(TypeError, "ERR_UNKNOWN_KEY", `${fn}: options has an unknown key ${JSON.stringify(k)}${hint(k, known)}; known: ${known.join(", ")}`);
    }
    return { ...options };
  });
  const out = {};
  for (const [k, check] of Object.entries(spec)) {
    if (copy[k] !== undefined) out[k] = check(`${fn}: options.${k}`, copy[k]);
  }
  return out;
}

/** ` (did you mean "ttlMs"?)` for a snake_cased or near-miss key, else "". */
function hint(k, known) {
  const camel = k.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
  const near = known.find((n) => n === camel || n.toLowerCase() === k.toLowerCase() || (n.length > 3 && distance(n.toLowerCase(), k.toLowerCase()) <= 2));
  return near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`;
}

function distance(a, b) {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/**
 * A number of ms from `min` to `max` (`above` true: strictly above `min`), in whole
 * microseconds when `micros` (a time sent to the store in a request).
 */
export function millis(min, max, { above = false, micros = false, why = "" } = {}) {
  const range = `${above ? `above ${min}` : `from ${min}`} ${above ? "and at most" : "to"} ${max} ms${why}`;
  return (where, v) => {
    if (typeof v !== "number") throw misuse(TypeError, "ERR_MILLIS_TYPE", `${where} must be a number of ms ${range}, got ${describe(v)}`);
    if (!Number.isFinite(v) || (above ? v <= min : v < min) || v > max) throw misuse(RangeError, "ERR_MILLIS_RANGE", `${where} must be a number of ms ${range}, got ${describe(v)}`);
    if (micros && Math.abs(v * 1000 - Math.round(v * 1000)) > 1e-3) {
      throw misuse(RangeError, "ERR_MILLIS_PRECISION", `${where} ${v} ms is finer than 1 microsecond (0.001 ms), the resolution of times`);
    }
    return v;
  };
}

/** A timer's delay (requestTimeoutMs, closeTimeoutMs, makeStoreTimeoutMs): above 0 and at most MAX_TIMER_MS. */
export const timerMillis = millis(0, MAX_TIMER_MS, { above: true, why: " (about 24.8 days, the longest timer JavaScript runs)" });

/** A whole number from `min` to `max`. */
export function integer(min, max, noun) {
  return (where, v) => {
    const want = `a whole number of ${noun} from ${min} to ${max}`;
    if (typeof v !== "number") throw misuse(TypeError, "ERR_INTEGER_TYPE", `${where} must be ${want}, got ${describe(v)}`);
    if (!Number.isInteger(v) || v < min || v > max) throw misuse(RangeError, "ERR_INTEGER_RANGE", `${where} must be ${want}, got ${describe(v)}`);
    return v;
  };
}

export function numbering(where, v) {
  if (v !== "consecutive" && v !== "increasing") throw misuse(TypeError, "ERR_VARIANT", `${where} must be "consecutive" or "increasing", got ${describe(v)}`);
  return v;
}

export function boolean(where, v) {
  if (typeof v !== "boolean") throw misuse(TypeError, "ERR_BOOLEAN_TYPE", `${where} must be true or false, got ${describe(v)}`);
  return v;
}

export function keyPrefix(where, v) {
  if (typeof v !== "string" || v.length === 0) throw misuse(TypeError, "ERR_STRING_TYPE", `${where} must be a non-empty string, got ${v === "" ? "the empty string" : describe(v)}`);
  if (v.length > MAX_PREFIX) throw misuse(RangeError, "ERR_TOO_LARGE", `${where} has ${v.length} UTF-16 code units; at most ${MAX_PREFIX} (the keys built from it must fit a lease key's 65536)`);
  return v;
}
