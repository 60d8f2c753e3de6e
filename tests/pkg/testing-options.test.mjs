// The options of tenure/testing's checkStoreContract and runDifferential are checked as
// LeaderElection's are (docs/conventions.md, "errors in the caller's words"). A new user's
// trial found them barely read: `only: ["frist_grant"]` ran no case and passed, `steps: -1` and
// `steps: NaN` ran no step and passed, `ttlMs: -1` failed every case as "the store failed",
// `seed: 1.5` threw the engine's uncoded "Cannot convert 1.5 to a BigInt", and `seed: -1n`
// ran and reported a seed no run can replay. Each is now refused before a store is made, with a
// code, the option as written, the value and what is allowed.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { MemoryStore } from "tenure";
import { checkStoreContract, contractCases, runDifferential } from "tenure/testing";

const RUST_ISMS = readFileSync(new URL("../words/rust-isms.txt", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "" && !line.startsWith("#"))
  .map((line) => JSON.parse(line));

/** makeStore that must not be called: every refusal comes before a store is made. */
const never = () => assert.fail("makeStore was called for options that should be refused");

async function refused(run, options, code, words) {
  let err;
  try {
    await run(never, options);
  } catch (e) {
    err = e;
  }
  const label = `${run.name}(${JSON.stringify(options, (k, v) => (typeof v === "bigint" ? `${v}n` : Number.isNaN(v) ? "NaN" : v))})`;
  assert.ok(err instanceof Error, `${label}: nothing thrown`);
  assert.equal(err.code, code, `${label}: ${err.message}`);
  for (const w of words) assert.ok(err.message.includes(w), `${label}: "${err.message}" does not say "${w}"`);
  for (const bad of RUST_ISMS) assert.ok(!err.message.includes(bad), `${label}: "${err.message}" contains "${bad}"`);
  return err;
}

test("checkStoreContract refuses each bad option naming it, the value and the range", async () => {
  const c = checkStoreContract;
  await refused(c, { only: ["frist_grant_issues_a_token"] }, "ERR_VARIANT", ["options.only[0]", '"frist_grant_issues_a_token"', contractCases[0].name]);
  await refused(c, { only: [] }, "ERR_ARRAY_TYPE", ["options.only", "non-empty", "an empty array"]);
  await refused(c, { only: "first_grant_issues_a_token" }, "ERR_ARRAY_TYPE", ["options.only", 'the string "first_grant_issues_a_token"']);
  await refused(c, { ttlMs: -1 }, "ERR_MILLIS_RANGE", ["options.ttlMs", "above 0 and at most 3600000 ms", "got -1"]);
  await refused(c, { ttlMs: Number.NaN }, "ERR_MILLIS_RANGE", ["options.ttlMs", "got NaN"]);
  await refused(c, { ttlMs: "300" }, "ERR_MILLIS_TYPE", ["options.ttlMs", 'the string "300"']);
  await refused(c, { ttlMs: 300.0004 }, "ERR_MILLIS_PRECISION", ["options.ttlMs", "300.0004 ms", "1 microsecond"]);
  await refused(c, { requestTimeoutMs: 0 }, "ERR_MILLIS_RANGE", ["options.requestTimeoutMs", "above 0", "2147483647 ms"]);
  await refused(c, { requestTimeoutMs: 2 ** 31 }, "ERR_MILLIS_RANGE", ["options.requestTimeoutMs", "the longest timer JavaScript runs"]);
  await refused(c, { clockResolutionMs: -1 }, "ERR_MILLIS_RANGE", ["options.clockResolutionMs", "from 0 to 60000 ms"]);
  await refused(c, { numbering: "strict" }, "ERR_VARIANT", ["options.numbering", '"consecutive" or "increasing"', '"strict"']);
  await refused(c, { keyPrefix: "" }, "ERR_STRING_TYPE", ["options.keyPrefix", "non-empty"]);
  await refused(c, { closeStores: "no" }, "ERR_BOOLEAN_TYPE", ["options.closeStores", "true or false"]);
  await refused(c, { t: {} }, "ERR_OBJECT_TYPE", ["options.t", "node:test context"]);
  await refused(c, [], "ERR_OBJECT_TYPE", ["options must be an object", "an array"]);
  await refused(c, { ttl_ms: 300 }, "ERR_UNKNOWN_KEY", ['"ttl_ms"', 'did you mean "ttlMs"', "known: ttlMs, numbering"]);
  await refused(c, { requestTimoutMs: 300 }, "ERR_UNKNOWN_KEY", ['did you mean "requestTimeoutMs"']);
  const far = await refused(c, { x: 1 }, "ERR_UNKNOWN_KEY", ['"x"', "known:"]);
  assert.doesNotMatch(far.message, /did you mean/, "no guess for a key like no option (not even the one-letter t)");
});

test("runDifferential refuses each bad option naming it, the value and the range", async () => {
  const d = runDifferential;
  await refused(d, { steps: -1 }, "ERR_INTEGER_RANGE", ["options.steps", "from 1 to 1000000", "got -1"]);
  await refused(d, { steps: Number.NaN }, "ERR_INTEGER_RANGE", ["options.steps", "got NaN"]);
  await refused(d, { steps: 0 }, "ERR_INTEGER_RANGE", ["options.steps"]);
  await refused(d, { steps: 2.5 }, "ERR_INTEGER_RANGE", ["options.steps", "whole number"]);
  await refused(d, { steps: "40" }, "ERR_INTEGER_TYPE", ["options.steps", 'the string "40"']);
  await refused(d, { seed: 1.5 }, "ERR_SEED_TYPE", ["options.seed", "from 0n to 2n ** 64n - 1n", "1.5, not a whole number"]);
  await refused(d, { seed: 2 ** 60 }, "ERR_SEED_TYPE", ["options.seed", "1152921504606846976", "2 ** 53"]);
  await refused(d, { seed: 7 }, "ERR_SEED_TYPE", ["write 7n"]);
  await refused(d, { seed: -1n }, "ERR_SEED_RANGE", ["options.seed", "got -1n"]);
  await refused(d, { seed: 2n ** 64n }, "ERR_SEED_RANGE", ["options.seed"]);
  await refused(d, { ttlMs: -5 }, "ERR_MILLIS_RANGE", ["options.ttlMs", "got -5"]);
  await refused(d, { ttlMs: 1_800_001 }, "ERR_MILLIS_RANGE", ["options.ttlMs", "1800000 ms", "twice"]);
  await refused(d, { numbering: "x" }, "ERR_VARIANT", ["options.numbering"]);
  await refused(d, { stpes: 5 }, "ERR_UNKNOWN_KEY", ['"stpes"', 'did you mean "steps"', "known: steps, ttlMs, seed"]);
  await refused(d, { only: ["first_grant_issues_a_token"] }, "ERR_UNKNOWN_KEY", ['"only"']);
  await assert.rejects(runDifferential(5, {}), { code: "ERR_FUNCTION_TYPE", message: /runDifferential\(makeStore\): makeStore must be a function/ });
});

test("good options still run: a bigint seed replays, one named case runs", async () => {
  const a = await runDifferential(() => new MemoryStore(), { steps: 5, ttlMs: 100, seed: 42n });
  assert.equal(a.seed, 42n);
  assert.equal(a.steps, 5);
  const report = await checkStoreContract(() => new MemoryStore(), { ttlMs: 100, only: ["first_grant_issues_a_token"], closeStores: true });
  assert.deepEqual(report.cases.map((c) => c.name), ["first_grant_issues_a_token"]);
  assert.ok(report.ok, report.text);
});

// A store whose close() never settles hung checkStoreContract and runDifferential forever
// (the trial's adapter awaited a client's quit() that waited for a reply that never came).
// Each close is now bounded by options.closeTimeoutMs (5000 ms by default) and a close that
// does not settle in time is a coded failure naming the store. Without the bound these tests
// would hang: the timeout makes that a failure.
class HangingStore {
  #inner = new MemoryStore();
  send(request) {
    return this.#inner.send(request);
  }
  close() {
    return new Promise(() => {});
  }
}

test("a store whose close() never settles fails the contract check, named, instead of hanging", { timeout: 20_000 }, async () => {
  const started = performance.now();
  const report = await checkStoreContract(() => new HangingStore(), { ttlMs: 100, only: ["first_grant_issues_a_token", "held_while_another_holds"], closeTimeoutMs: 50 });
  assert.ok(performance.now() - started < 10_000);
  assert.equal(report.ok, false);
  assert.deepEqual(report.failed, [], "every case passed: only the close failed");
  assert.equal(report.closeFailures.length, 2, "two cases, two fresh stores");
  const [first] = report.closeFailures;
  assert.equal(first.code, "ERR_STORE_CLOSE_TIMEOUT");
  assert.equal(first.store, "HangingStore (made for first_grant_issues_a_token)");
  assert.match(first.error, /HangingStore \(made for first_grant_issues_a_token\): close\(\) did not settle within 50 ms \(options\.closeTimeoutMs\)/);
  assert.match(report.text, /FAIL close \[ERR_STORE_CLOSE_TIMEOUT\]: HangingStore/);
  const shared = new HangingStore();
  const one = await checkStoreContract(() => shared, { ttlMs: 100, only: ["first_grant_issues_a_token"], closeTimeoutMs: 50 });
  assert.deepEqual(one.closeFailures.map((f) => f.store), ["HangingStore"]);
  const left = await checkStoreContract(() => shared, { ttlMs: 100, only: ["first_grant_issues_a_token"], closeStores: false });
  assert.ok(left.ok, "closeStores: false never calls close()");
  assert.deepEqual(left.closeFailures, []);
});

test("a store whose close() never settles fails the differential run instead of hanging", { timeout: 20_000 }, async () => {
  const plain = { inner: new MemoryStore(), send(r) { return this.inner.send(r); }, close: () => new Promise(() => {}) };
  const diff = await runDifferential(() => plain, { steps: 3, ttlMs: 100, closeTimeoutMs: 50 });
  assert.equal(diff.counts.breach, 0);
  assert.equal(diff.ok, false);
  assert.deepEqual(diff.closeFailures.map((f) => [f.store, f.code]), [["the store", "ERR_STORE_CLOSE_TIMEOUT"]]);
  await refused(runDifferential, { closeTimeoutMs: 0 }, "ERR_MILLIS_RANGE", ["options.closeTimeoutMs", "above 0"]);
  await refused(checkStoreContract, { closeTimeoutMs: "5s" }, "ERR_MILLIS_TYPE", ["options.closeTimeoutMs", 'the string "5s"']);
});

test("a store that closes in time reports no close failure", async () => {
  const report = await checkStoreContract(() => new MemoryStore(), { ttlMs: 100, only: ["first_grant_issues_a_token"] });
  assert.deepEqual(report.closeFailures, []);
  const diff = await runDifferential(() => new MemoryStore(), { steps: 2, ttlMs: 100 });
  assert.deepEqual(diff.closeFailures, []);
  assert.ok(diff.ok);
});

// A review found makeStore unbounded: a factory that threw crashed runDifferential (its
// exception escaped as the run's rejection, after no report), one that rejected did the same,
// and one that never settled (a client waiting for a server that never answers) hung either
// function forever. makeStore() is now bounded by options.makeStoreTimeoutMs (10000 ms by
// default), and each of the three is a coded failure naming the factory. Without the bound
// these tests would hang: the test's timeout makes that a failure.
test("a makeStore that throws, rejects or never settles is a coded failure naming it", { timeout: 20_000 }, async () => {
  const throws = function makeBroken() {
    throw new Error("no REDIS_URL");
  };
  const hangs = function makeStuck() {
    return new Promise(() => {});
  };
  const started = performance.now();
  const only = ["first_grant_issues_a_token"];
  const cases = [
    [throws, "ERR_MAKE_STORE_FAILED", /^makeStore \(makeBroken\) threw: no REDIS_URL \(no store to test, no request sent\)$/],
    [async () => Promise.reject(new Error("ECONNREFUSED")), "ERR_MAKE_STORE_FAILED", /^makeStore rejected: ECONNREFUSED/],
    [hangs, "ERR_MAKE_STORE_TIMEOUT", /^makeStore \(makeStuck\) did not settle within 50 ms \(options\.makeStoreTimeoutMs\)/],
  ];
  for (const [factory, code, words] of cases) {
    const report = await checkStoreContract(factory, { ttlMs: 100, only, makeStoreTimeoutMs: 50 });
    assert.equal(report.ok, false);
    assert.deepEqual(report.failed, only);
    assert.equal(report.cases[0].code, code);
    assert.match(report.cases[0].error, words);
    assert.match(report.text, new RegExp(`FAIL first_grant_issues_a_token \\[${code}\\]: makeStore`));
    const diff = await runDifferential(factory, { steps: 3, ttlMs: 100, makeStoreTimeoutMs: 50 });
    assert.equal(diff.ok, false);
    assert.equal(diff.makeStoreFailure.code, code);
    assert.match(diff.makeStoreFailure.error, words);
    assert.equal(diff.makeStoreFailure.store, factory.name === "makeBroken" || factory.name === "makeStuck" ? `makeStore (${factory.name})` : "makeStore");
  }
  assert.ok(performance.now() - started < 10_000, "bounded by makeStoreTimeoutMs, not by the default");
  // A good factory: no failure, and the field says so.
  const fine = await runDifferential(() => new MemoryStore(), { steps: 2, ttlMs: 100 });
  assert.equal(fine.makeStoreFailure, undefined);
  await refused(runDifferential, { makeStoreTimeoutMs: 0 }, "ERR_MILLIS_RANGE", ["options.makeStoreTimeoutMs", "above 0", "2147483647 ms"]);
  await refused(checkStoreContract, { makeStoreTimeoutMs: "10s" }, "ERR_MILLIS_TYPE", ["options.makeStoreTimeoutMs", 'the string "10s"']);
});

// A makeStore that handed over something other than a store (`{}`: a forgotten `return
// store`, a client instead of the adapter) ran every differential step as "the store failed:
// store.send is not a function", each a breach, and failed each contract case without a code.
// Both now report the factory's failure, ERR_MAKE_STORE_TYPE, naming what it handed over.
test("a makeStore that hands over a non-store is ERR_MAKE_STORE_TYPE in both runs, not breaches", { timeout: 20_000 }, async () => {
  const only = ["first_grant_issues_a_token", "held_while_another_holds"];
  const cases = [
    [function makeEmpty() {
      return {};
    }, "makeStore (makeEmpty) handed over an object (Object) without a send(request) method"],
    [async () => ({ sendCommand() {} }), "makeStore handed over an object (Object) without a send(request) method"],
    [() => undefined, "makeStore handed over undefined"],
    [() => 5, "makeStore handed over 5"],
  ];
  for (const [factory, words] of cases) {
    const error = `${words}: not a store (see "The store contract"), no request sent`;
    const diff = await runDifferential(factory, { steps: 5, ttlMs: 100 });
    assert.equal(diff.ok, false);
    assert.deepEqual(diff.makeStoreFailure, { store: words.split(" handed")[0], code: "ERR_MAKE_STORE_TYPE", error });
    assert.deepEqual(diff.counts, { numbering: 0, clock: 0, reason: 0, breach: 0 }, "no step ran");
    const report = await checkStoreContract(factory, { ttlMs: 100, only });
    assert.deepEqual(report.failed, only);
    for (const c of report.cases) {
      assert.equal(c.code, "ERR_MAKE_STORE_TYPE");
      assert.equal(c.error, error);
      assert.deepEqual(c.saw, [], "no request sent");
    }
  }
  // Whatever it handed over is still closed once, as a store would be (unless closeStores: false).
  let closed = 0;
  const half = { close: async () => void closed++ };
  await runDifferential(() => half, { steps: 2, ttlMs: 100 });
  await checkStoreContract(() => half, { ttlMs: 100, only });
  assert.equal(closed, 2);
});

test("a store makeStore hands over after makeStoreTimeoutMs is closed when it arrives", { timeout: 20_000 }, async () => {
  let closed = 0;
  const slow = () => new Promise((resolve) => setTimeout(() => resolve({ send: () => Promise.resolve(undefined), close: async () => void closed++ }), 150));
  const diff = await runDifferential(slow, { steps: 2, ttlMs: 100, makeStoreTimeoutMs: 50 });
  assert.equal(diff.makeStoreFailure.code, "ERR_MAKE_STORE_TIMEOUT");
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(closed, 1);
  const kept = await runDifferential(slow, { steps: 2, ttlMs: 100, makeStoreTimeoutMs: 50, closeStores: false });
  assert.equal(kept.makeStoreFailure.code, "ERR_MAKE_STORE_TIMEOUT");
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(closed, 1, "closeStores: false leaves it to you");
});

// A review asked that every *Ms option of the kit stop at 2147483647 ms (past it setTimeout
// fires at once) or at its documented tighter limit, in LeaderElection's words for the same
// bound ("about 24.8 days, the longest timer JavaScript runs"); the kit said "setTimeout's
// longest delay", so one limit read two ways. Each option at its limit runs; one past it is
// refused in the shared words.
test("every *Ms option stops at the longest timer or its tighter limit, in LeaderElection's words", { timeout: 20_000 }, async () => {
  const { LeaderElection } = await import("tenure");
  const timer = "at most 2147483647 ms (about 24.8 days, the longest timer JavaScript runs)";
  let election;
  try {
    new LeaderElection({ store: new MemoryStore(), key: "k", requestTimeoutMs: 2 ** 31 });
  } catch (err) {
    election = err.message;
  }
  assert.match(election, /2147483647 \(about 24\.8 days, the longest timer JavaScript runs\)/);
  const limits = {
    checkStoreContract: { ttlMs: [3_600_000, "at most 3600000 ms (an hour"], clockResolutionMs: [60_000, "to 60000 ms"], requestTimeoutMs: [2 ** 31 - 1, timer], closeTimeoutMs: [2 ** 31 - 1, timer], makeStoreTimeoutMs: [2 ** 31 - 1, timer] },
    runDifferential: { ttlMs: [1_800_000, "at most 1800000 ms (half an hour"], clockResolutionMs: [60_000, "to 60000 ms"], requestTimeoutMs: [2 ** 31 - 1, timer], closeTimeoutMs: [2 ** 31 - 1, timer], makeStoreTimeoutMs: [2 ** 31 - 1, timer] },
  };
  for (const run of [checkStoreContract, runDifferential]) {
    const spec = limits[run.name];
    // Every option whose name ends in Ms is listed above: a new one must say its limit here.
    const known = (await run(never, { nope: 1 }).catch((err) => err.message)).split("known: ")[1].split(", ");
    assert.deepEqual(known.filter((k) => k.endsWith("Ms")).sort(), Object.keys(spec).sort(), `${run.name}: the *Ms options`);
    for (const [name, [max, words]] of Object.entries(spec)) {
      await refused(run, { [name]: max + 1 }, "ERR_MILLIS_RANGE", [`${run.name}: options.${name} must be a number of ms`, words, `got ${max + 1}`]);
      await refused(run, { [name]: Infinity }, "ERR_MILLIS_RANGE", [`options.${name}`, "got Infinity"]);
    }
    // At the limit each timer option runs (no TimeoutOverflowWarning, no early timeout).
    const atLimit = { requestTimeoutMs: 2 ** 31 - 1, closeTimeoutMs: 2 ** 31 - 1, makeStoreTimeoutMs: 2 ** 31 - 1, ttlMs: 100 };
    const report = run === checkStoreContract ? await run(() => new MemoryStore(), { ...atLimit, only: ["first_grant_issues_a_token"] }) : await run(() => new MemoryStore(), { ...atLimit, steps: 2 });
    assert.ok(report.ok, `${run.name} at the timer limit`);
  }
});
