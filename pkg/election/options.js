// LeaderElection's options: the machine's knobs under their camelCased names, with defaults
// that scale with `ttlMs` (each ttl/10, jitter ttl/20: exactly the machine's defaults at its
// default ttl of 10 s), so `{ ttlMs: 2000 }` alone is a valid config (design rule 5).
import { MAX_LEASE_STRING, notPlainObject, notWellFormed, readingInput, refuseRevokedProxy } from "../guard.js";
import { misuse } from "./errors.js";
import { randomId } from "./random.js";

/** camelCase option -> the machine's snake_case config key. */
const MACHINE_KNOBS = {
  ttlMs: "ttl_ms",
  safetyMarginMs: "safety_margin_ms",
  renewIntervalMs: "renew_interval_ms",
  maxRoundTripMs: "max_round_trip_ms",
  maxDriftPpm: "max_drift_ppm",
  retryIntervalMs: "retry_interval_ms",
  retryJitterMs: "retry_jitter_ms",
  requestTimeoutMs: "request_timeout_ms",
  fencing: "fencing",
  seed: "seed",
};

const DRIVER_KEYS = ["store", "key", "nodeId", "registry", "closeTimeoutMs"];

/** Every option LeaderElection takes (ShardedElection passes all but `key` on to each key's). */
export const ELECTION_KEYS = [...DRIVER_KEYS, ...Object.keys(MACHINE_KNOBS)];

/** Share of the ttl each scaled default takes. */
const SCALED = { safetyMarginMs: 0.1, maxRoundTripMs: 0.1, retryIntervalMs: 0.1, requestTimeoutMs: 0.1, retryJitterMs: 0.05 };

const DEFAULT_TTL_MS = 10_000;
/** The shortest `ttlMs` a LeaderElection takes, ms. */
const MIN_TTL_MS = 10;

const micros = (ms) => Math.round(ms * 1000) / 1000;

/** The longest delay a JavaScript timer keeps (2^31 - 1 ms); a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/** The allowed range of a duration option, in the caller's unit. */
export const MS_RANGE = `from 0 to ${MAX_TIMER_MS} (about 24.8 days, the longest timer JavaScript runs)`;

/**
 * Checks `options` and returns `{ store, key, nodeId, registry, closeTimeoutMs, machine }`
 * where `machine` is the LeaseCandidate config (holder and key filled in by the caller).
 */
export function readOptions(options, allowed = []) {
  return readingInput(() => readOptionsOf(options, allowed));
}

function readOptionsOf(options, allowed) {
  // An array, a Map or a class instance is an object to `typeof`, but never options: refused as
  // the README's table says (and as the bindings refuse a config), before a key is read.
  refuseRevokedProxy(options, "options");
  const notPlain = notPlainObject(options);
  if (notPlain !== undefined) {
    throw misuse(TypeError, "ERR_OBJECT_TYPE", `options must be an object with at least { store, key }, got ${notPlain}`);
  }
  const known = [...ELECTION_KEYS, ...allowed];
  for (const k of Object.keys(options)) {
    if (!known.includes(k)) {
      const snake = Object.entries(MACHINE_KNOBS).find(([, s]) => s === k);
      const hint = snake ? ` (options are camelCased: "${snake[0]}")` : "";
      throw misuse(TypeError, "ERR_UNKNOWN_KEY", `options has an unknown key "${k}"${hint}; known: ${known.join(", ")}`);
    }
  }
  const { store } = options;
  refuseRevokedProxy(store, "options.store");
  if (typeof store !== "object" || store === null || typeof store.send !== "function") {
    throw misuse(TypeError, "ERR_STORE_TYPE", `options.store must be an object with a send(request) method (see "The store contract" in the README), got ${store === null ? "null" : Array.isArray(store) ? "an array" : typeof store === "object" ? "an object without one" : typeof store}`);
  }
  const key = options.key;
  if (typeof key !== "string" || key.length === 0) {
    throw misuse(TypeError, "ERR_STRING_TYPE", `options.key must be a non-empty string (the lease's name), got ${typeof key === "string" ? '""' : key === null ? "null" : typeof key}`);
  }
  const keyWhy = notWellFormed(key);
  if (keyWhy) throw misuse(TypeError, "ERR_STRING_TYPE", `options.key ${quoted(key)} ${keyWhy}`);
  let nodeId = options.nodeId;
  if (nodeId === undefined) nodeId = randomId();
  else if (typeof nodeId === "bigint") {
    if (nodeId < 0n || nodeId >= 1n << 64n) throw misuse(RangeError, "ERR_NODE_ID_RANGE", `options.nodeId ${nodeId}n is not from 0n to 2n ** 64n - 1n`);
  } else if (typeof nodeId !== "string" || nodeId.length === 0) {
    throw misuse(TypeError, "ERR_NODE_ID_TYPE", `options.nodeId must be a non-empty string or a bigint, got ${typeof nodeId === "string" ? '""' : nodeId === null ? "null" : typeof nodeId}`);
  } else if (nodeId.length > MAX_LEASE_STRING) {
    // The id is every store request's holder: the stores refuse a longer one, so an election
    // accepted here would have every request rejected, forever. Refused as options.key is.
    throw misuse(RangeError, "ERR_TOO_LARGE", `options.nodeId has ${nodeId.length} UTF-16 code units; at most ${MAX_LEASE_STRING} are accepted (it is the holder of every store request)`);
  } else if (notWellFormed(nodeId)) {
    throw misuse(TypeError, "ERR_NODE_ID_TYPE", `options.nodeId ${quoted(nodeId)} ${notWellFormed(nodeId)}`);
  }
  const machine = {};
  // The values the caller did not give, with where they came from, for the machine's
  // ERR_CONFIG words (inOptionWords): "safetyMarginMs 0 (the default: 10% of ttlMs)".
  const defaults = {};
  const ttl = options.ttlMs ?? DEFAULT_TTL_MS;
  if (options.ttlMs === undefined) defaults.ttlMs = "the default";
  checkMillis("ttlMs", ttl);
  // A lease shorter than 10 ms cannot be held from a JavaScript host: the timers it derives
  // (each a tenth of it) fall under the 1 ms that JavaScript timers resolve, and a trial's
  // { ttlMs: 1 } was elected and lost some 375 times a second.
  if (ttl < MIN_TTL_MS) throw misuse(RangeError, "ERR_MILLIS_RANGE", `options.ttlMs must be at least ${MIN_TTL_MS} ms (its timers, each a tenth of it by default, need the 1 ms a JavaScript timer resolves), got ${ttl}`);
  for (const [camel, snake] of Object.entries(MACHINE_KNOBS)) {
    let v = options[camel];
    // null is "the default" as undefined is (the types and README say so): the machine would
    // read null as its own fixed default (1000 ms), not the one scaled to this ttl.
    if ((v === undefined || v === null) && camel in SCALED) {
      v = micros(ttl * SCALED[camel]);
      defaults[camel] = `the default: ${SCALED[camel] * 100}% of ttlMs`;
    }
    if (v === undefined) continue;
    if (camel.endsWith("Ms") && v !== null) checkMillis(camel, v);
    machine[snake] = v;
  }
  machine.ttl_ms = ttl;
  checkJitter(machine, defaults);
  const closeTimeoutMs = options.closeTimeoutMs ?? ttl;
  checkMillis("closeTimeoutMs", closeTimeoutMs);
  return { store, key, nodeId, registry: options.registry, closeTimeoutMs, machine, defaults };
}

/**
 * The retry jitter spreads the contenders' attempts so that they do not all ask at once; a
 * spread of one lease (or of one retry interval, when that is longer) already does it. More
 * only postpones a takeover: with a 1 s lease and a jitter of 2147483647 ms a node could wait
 * 24.8 days for its next attempt while the key stays unled. The machine sets no bound (it
 * draws any jitter it is given), so the options do.
 */
function checkJitter(machine, defaults) {
  const { ttl_ms: ttl, retry_interval_ms: interval, retry_jitter_ms: jitter } = machine;
  if (jitter === undefined || jitter === null || jitter <= Math.max(ttl, interval ?? 0)) return;
  const ttlText = `ttlMs ${ttl} ms${defaults.ttlMs === undefined ? "" : ` (${defaults.ttlMs})`}`;
  const intervalText = interval > ttl ? `retryIntervalMs ${interval} ms, which is longer than ${ttlText}` : ttlText;
  throw misuse(
    RangeError,
    "ERR_MILLIS_RANGE",
    `options.retryJitterMs must be at most ${intervalText} (the bound is the longer of ttlMs and retryIntervalMs: a wider spread of retries only delays the takeover of a key nobody leads), got ${jitter}`,
  );
}

// Every duration is bounded by what a timer can wait: past 2^31 - 1 ms Node's setTimeout fires
// at once, so a ttl of 1e15 ms would renew in a busy loop and a close() bound would abort the
// work at once. Refused here, in the option's own name, before a store sees the ttl.
/** A string as the caller would write it, lone surrogates escaped ("a\ud800"), cut at 60 characters. */
export function quoted(text) {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}...` : text);
}

function checkMillis(name, v) {
  if (typeof v !== "number") throw misuse(TypeError, "ERR_MILLIS_TYPE", `options.${name} must be a number of ms, got ${v === null ? "null" : typeof v}`);
  if (!Number.isFinite(v) || v < 0 || v > MAX_TIMER_MS) throw misuse(RangeError, "ERR_MILLIS_RANGE", `options.${name} must be a number of ms ${MS_RANGE}, got ${v}`);
  checkMicros(`options.${name}`, v);
}

/**
 * Refuses a time finer than a microsecond, by the machines' rule for every `..._ms` input
 * (float noise around a whole microsecond, such as 1.005 or 0.1 + 0.2, is accepted), with
 * their code and words. `v` is finite, 0 or more and at most MAX_TIMER_MS.
 */
function checkMicros(name, v) {
  const scaled = v * 1000;
  const noise = Math.abs(scaled - Math.round(scaled));
  if (noise > Math.max(Math.round(scaled) * 8 * Number.EPSILON, 1e-3)) {
    throw misuse(RangeError, "ERR_MILLIS_PRECISION", `${name} must be a whole number of microseconds (a multiple of 0.001 ms), got ${v}; round it, e.g. Math.round(ms * 1000) / 1000`);
  }
}

/**
 * A machine error about the config `readOptions` built, reworded in the options' own names:
 * `config.ttl_ms` -> `options.ttlMs`, `safety_margin_ms 2000` -> `safetyMarginMs 2000` (the
 * caller wrote camelCase; docs/conventions.md, "errors in the caller's words"). The error keeps
 * its class and `code`; anything else is returned as it is.
 */
export function inOptionWords(err, defaults = {}) {
  if (!(err instanceof Error) || typeof err.code !== "string" || typeof err.message !== "string") return err;
  let message = err.message.replace(/\bconfig\.key\b/g, "options.key");
  for (const [camel, snake] of Object.entries(MACHINE_KNOBS)) {
    message = message.replace(new RegExp(`\\bconfig\\.${snake}\\b`, "g"), `options.${camel}`);
    if (camel !== snake) message = message.replace(new RegExp(`\\b${snake}\\b`, "g"), camel);
  }
  // The first "name value" of each value the caller did not give says so.
  for (const [camel, whence] of Object.entries(defaults)) {
    message = message.replace(new RegExp(`\\b${camel} (\\d+(?:\\.\\d+)?)(?! \\()`), `${camel} $1 (${whence})`);
  }
  if (message !== err.message) err.message = message;
  return err;
}

/**
 * `close(options)`'s `timeoutMs`, or `fallback` when it is not given. A bad value is refused
 * (a NaN bound would abort the work in flight at once), before anything closes.
 */
export function readCloseTimeout(where, options, fallback) {
  return readingInput(() => readCloseTimeoutOf(where, options, fallback));
}

function readCloseTimeoutOf(where, options, fallback) {
  if (options === undefined) return fallback;
  refuseRevokedProxy(options, `${where}: options`);
  const notPlain = notPlainObject(options);
  if (notPlain !== undefined) {
    throw misuse(TypeError, "ERR_OBJECT_TYPE", `${where}: options must be an object such as { timeoutMs: 5000 }, got ${notPlain}`);
  }
  for (const k of Object.keys(options)) {
    if (k !== "timeoutMs") throw misuse(TypeError, "ERR_UNKNOWN_KEY", `${where}: options has an unknown key "${k}"; known: timeoutMs`);
  }
  const v = options.timeoutMs;
  if (v === undefined) return fallback;
  if (typeof v !== "number") throw misuse(TypeError, "ERR_MILLIS_TYPE", `${where}: options.timeoutMs must be a number of ms, got ${v === null ? "null" : typeof v}`);
  if (!Number.isFinite(v) || v < 0 || v > MAX_TIMER_MS) throw misuse(RangeError, "ERR_MILLIS_RANGE", `${where}: options.timeoutMs must be a number of ms ${MS_RANGE}, got ${v}`);
  checkMicros(`${where}: options.timeoutMs`, v);
  return v;
}

