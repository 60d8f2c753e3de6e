// checkStoreContract: runs every case of cases.js against fresh stores from `makeStore`, all
// at once on distinct keys, and reports each as pass/fail with the exchanges it saw.
import { Breach, CASES } from "./cases.js";
import { Unreadable, closeWithin, exchange, makeWithin, notAStore, sleep, storeName, ttlTooLong } from "./exchange.js";
import { randomId } from "../election/random.js";
import { misuse } from "../election/errors.js";
import { DEFAULT_CLOSE_TIMEOUT_MS, DEFAULT_MAKE_STORE_TIMEOUT_MS, MAX_RESOLUTION_MS, MAX_TTL_MS, boolean, describe, keyPrefix, millis, numbering, readKitOptions, timerMillis } from "./options.js";

/** Every option, with its check (pkg/testing/options.js); the defaults are below. */
const SPEC = {
  ttlMs: millis(0, MAX_TTL_MS, { above: true, micros: true, why: " (an hour: each case waits out the ttl)" }),
  numbering,
  clockResolutionMs: millis(0, MAX_RESOLUTION_MS),
  requestTimeoutMs: timerMillis,
  closeTimeoutMs: timerMillis,
  makeStoreTimeoutMs: timerMillis,
  keyPrefix,
  t: subtestHost,
  only: caseNames,
  closeStores: boolean,
};

/**
 * @param {() => object | Promise<object>} makeStore a fresh store, or the same one each time
 *   (keys are unique per case and run); each store is closed once, after every case.
 * @param {object} [options]
 */
export async function checkStoreContract(makeStore, options = {}) {
  if (typeof makeStore !== "function") throw misuse(TypeError, "ERR_FUNCTION_TYPE", `checkStoreContract(makeStore): makeStore must be a function returning a store, got ${describe(makeStore)}`);
  // Read once, as a plain copy (a getter or Proxy trap that throws is coded ERR_INPUT_THREW),
  // and every value checked before a store is made.
  const {
    ttlMs = 300,
    numbering = "consecutive",
    clockResolutionMs = 1,
    requestTimeoutMs = 2000,
    closeTimeoutMs = DEFAULT_CLOSE_TIMEOUT_MS,
    makeStoreTimeoutMs = DEFAULT_MAKE_STORE_TIMEOUT_MS,
    keyPrefix = `tenure-contract-${randomId().slice(0, 8)}`,
    t,
    only,
    closeStores = true,
  } = readKitOptions("checkStoreContract", options, SPEC);
  const cases = only === undefined ? CASES : CASES.filter((c) => only.includes(c.name));
  const made = new Map(); // store -> the first case that made it
  // A store makeStore hands over after makeStoreTimeoutMs is no case's: closed on arrival.
  const late = (store) => {
    if (closeStores && !made.has(store)) closeWithin(store, closeTimeoutMs).catch(() => {});
  };
  const results = await Promise.all(
    cases.map((kase) =>
      runCase(kase, makeStore, made, { ttlMs, numbering, resolutionMs: clockResolutionMs, timeoutMs: requestTimeoutMs, makeTimeoutMs: makeStoreTimeoutMs, late, key: `${keyPrefix}:${kase.name}` }),
    ),
  );
  // Each store once, after every case (makeStore may hand out one shared store), each close
  // bounded by closeTimeoutMs: a close() that never settles is a failure, not a hang. A close
  // that rejects has still answered every case.
  const stores = closeStores ? [...made].filter(([store]) => store !== null && (typeof store === "object" || typeof store === "function")) : [];
  const label = (store, kase) => (made.size === 1 ? storeName(store) : `${storeName(store)} (made for ${kase})`);
  const closeFailures = (await Promise.all(stores.map(([store, kase]) => closeWithin(store, closeTimeoutMs, label(store, kase))))).filter((f) => f !== undefined);
  const failed = results.filter((r) => !r.ok).map((r) => r.name);
  const text = [
    ...results.map((r) => `${r.ok ? "ok  " : "FAIL"} ${r.name}${r.ok ? "" : `${r.code === undefined ? "" : ` [${r.code}]`}: ${r.error}\n       saw: ${r.saw.join("\n            ")}`}`),
    ...closeFailures.map((f) => `FAIL close [${f.code}]: ${f.error}`),
  ].join("\n");
  const report = { ok: failed.length === 0 && closeFailures.length === 0, cases: results, failed, closeFailures, text };
  if (t !== undefined) {
    for (const r of results) {
      await t.test(r.name, () => {
        if (!r.ok) throw Object.assign(new Error(`${r.rule}\n${r.error}\nsaw:\n  ${r.saw.join("\n  ")}`), r.code === undefined ? {} : { code: r.code });
      });
    }
    if (stores.length > 0) {
      await t.test("stores_close_within_closeTimeoutMs", () => {
        if (closeFailures.length > 0) throw Object.assign(new Error(closeFailures.map((f) => f.error).join("\n")), { code: closeFailures[0].code });
      });
    }
  }
  return report;
}

async function runCase(kase, makeStore, made, o) {
  const saw = [];
  const started = performance.now();
  let store;
  let error;
  let code;
  try {
    const making = await makeWithin(makeStore, o.makeTimeoutMs, o.late);
    if (making.failure !== undefined) {
      code = making.failure.code;
      throw new Unreadable(making.failure.error);
    }
    store = making.store;
    if (!made.has(store)) made.set(store, kase.name);
    const notStore = notAStore(makeStore, store);
    if (notStore !== undefined) {
      code = notStore.code;
      throw new Unreadable(notStore.error);
    }
    const sessions = new Map();
    const c = {
      ttlMs: o.ttlMs,
      numbering: o.numbering,
      resolutionMs: o.resolutionMs,
      expect(ok, message) {
        if (!ok) throw new Breach(message);
      },
      sleep: (ms) => sleep(ms),
      /** Sleeps until the lease `granted` is surely over on the store's clock. */
      pastExpiry: (granted) => sleep(granted.ttl_ms + Math.max(o.ttlMs * 0.3, 3 * o.resolutionMs, 30)),
      as(holder, n = 1) {
        const name = n === 1 ? holder : `${holder}/${n}`;
        let session = sessions.get(name);
        if (session === undefined) sessions.set(name, (session = `${name}-${randomId()}`));
        const base = { key: o.key, holder, session };
        const send = async (req) => {
          const reply = await exchange(store, req, { who: name, saw, timeoutMs: o.timeoutMs });
          // The cases wait on the ttl the store reports: one far above the ttl asked fails
          // here, named, rather than stall the case and fail it for another rule.
          const tooLong = ttlTooLong(name, req, reply, o.resolutionMs);
          if (tooLong !== undefined) throw new Breach(tooLong);
          return reply;
        };
        return {
          name,
          acquire: (ttl = o.ttlMs) => send({ type: "Acquire", ...base, ttl_ms: ttl }),
          renew: (token, ttl = o.ttlMs) => send({ type: "Renew", ...base, token, ttl_ms: ttl }),
          release: (token) => send({ type: "Release", ...base, token }),
        };
      },
    };
    await kase.run(c);
  } catch (err) {
    error = err instanceof Breach || err instanceof Unreadable ? err.message : `the case threw: ${err?.stack ?? err}`;
  }
  return { name: kase.name, rule: kase.rule, ok: error === undefined, code, error, saw, ms: Math.round(performance.now() - started) };
}

/** `options.t`: a node:test context, or anything with a `test(name, fn)` method. */
function subtestHost(where, v) {
  if (typeof v !== "object" || v === null || typeof v.test !== "function") {
    throw misuse(TypeError, "ERR_OBJECT_TYPE", `${where} must be a node:test context (the test's \`t\`, with a test(name, fn) method), got ${describe(v)}`);
  }
  return v;
}

/** `options.only`: a non-empty list of the case names in `contractCases` (a misspelt one would run nothing and pass). */
function caseNames(where, v) {
  const names = CASES.map((c) => c.name);
  if (!Array.isArray(v) || v.length === 0) throw misuse(TypeError, "ERR_ARRAY_TYPE", `${where} must be a non-empty array of case names (contractCases lists them), got ${Array.isArray(v) ? "an empty array" : describe(v)}`);
  const list = [...v];
  list.forEach((name, i) => {
    if (!names.includes(name)) throw misuse(TypeError, "ERR_VARIANT", `${where}[${i}] ${describe(name)} is not a case of checkStoreContract; the cases are ${names.join(", ")}`);
  });
  return list;
}
