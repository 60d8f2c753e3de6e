// Bad input to the driver layer gets a clear, coded error and loses nothing (conventions:
// errors speak the caller's words): LeaderElection options, MemoryStore options and
// requests, event listeners, and the defaults that make a short config valid.
import assert from "node:assert/strict";
import { test } from "node:test";
import { LeaderElection, MemoryStore, ShardedElection } from "tenure";
import { FAST, wait } from "./helpers/election.mjs";

const store = new MemoryStore();

test("leader_election_options_are_checked_with_codes", () => {
  assert.throws(() => new LeaderElection(), { code: "ERR_OBJECT_TYPE" });
  assert.throws(() => new LeaderElection({ key: "k" }), { code: "ERR_STORE_TYPE", message: /send\(request\)/ });
  assert.throws(() => new LeaderElection({ store: { send: 1 }, key: "k" }), { code: "ERR_STORE_TYPE" });
  assert.throws(() => new LeaderElection({ store }), { code: "ERR_STRING_TYPE", message: /options\.key/ });
  assert.throws(() => new LeaderElection({ store, key: "" }), { code: "ERR_STRING_TYPE" });
  assert.throws(() => new LeaderElection({ store, key: "k", ttl_ms: 100 }), { code: "ERR_UNKNOWN_KEY", message: /camelCased: "ttlMs"/ });
  assert.throws(() => new LeaderElection({ store, key: "k", lockKey: "x" }), { code: "ERR_UNKNOWN_KEY" });
  assert.throws(() => new LeaderElection({ store, key: "k", nodeId: 5 }), { code: "ERR_NODE_ID_TYPE" });
  assert.throws(() => new LeaderElection({ store, key: "k", nodeId: -1n }), { code: "ERR_NODE_ID_RANGE" });
  assert.throws(() => new LeaderElection({ store, key: "k", ttlMs: "10s" }), { code: "ERR_MILLIS_TYPE" });
  assert.throws(() => new LeaderElection({ store, key: "k", ttlMs: -5 }), { code: "ERR_MILLIS_RANGE" });
  assert.throws(() => new LeaderElection({ store, key: "k", ttlMs: 1000, safetyMarginMs: 1000 }), { code: "ERR_CONFIG" });
  assert.throws(() => new LeaderElection({ store, key: "k", ttlMs: 1000, renewIntervalMs: 950 }), { code: "ERR_CONFIG" });
});

// `new LeaderElection([])` was ERR_STORE_TYPE ("options.store must be an object with a
// send(request) method"): an array passed the `typeof options === "object"` check, and its
// missing `store` was blamed. The README's table promises ERR_OBJECT_TYPE for an array where
// an object belongs, as MemoryStore and close() already refuse one.
test("an array as the options is ERR_OBJECT_TYPE naming the array; an array as the store is ERR_STORE_TYPE", () => {
  for (const make of [() => new LeaderElection([]), () => new LeaderElection([{ store, key: "k" }])]) {
    assert.throws(make, (err) => err instanceof TypeError && err.code === "ERR_OBJECT_TYPE" && /^options must be an object with at least \{ store, key \}, got an array$/.test(err.message), "LeaderElection");
  }
  assert.throws(() => new ShardedElection([]), (err) => err instanceof TypeError && err.code === "ERR_OBJECT_TYPE" && /^ShardedElection options must be an object with \{ store, keys \}, got an array$/.test(err.message));
  // `store` is the one option with its own code: an array there is not a store.
  assert.throws(() => new LeaderElection({ store: [], key: "k" }), (err) => err.code === "ERR_STORE_TYPE" && /got an array$/.test(err.message));
});

test("defaults_scale_with_ttl_and_match_the_machine_at_ten_seconds", () => {
  const ten = new LeaderElection({ store, key: "k" });
  const c = ten.config;
  assert.deepEqual(
    [c.ttl_ms, c.safety_margin_ms, c.max_round_trip_ms, c.retry_interval_ms, c.retry_jitter_ms, c.request_timeout_ms],
    [10000, 1000, 1000, 1000, 500, 1000],
  );
  const short = new LeaderElection({ store, key: "k", ttlMs: 333.333 });
  assert.equal(short.config.safety_margin_ms, 33.333);
  assert.match(ten.nodeId, /^[0-9a-f-]{36}$/, "a random UUID when omitted");
  const big = new LeaderElection({ store, key: "k", nodeId: 7n });
  assert.equal(big.nodeId, "7");
  assert.notEqual(big.session, new LeaderElection({ store, key: "k", nodeId: 7n }).session);
});

test("listeners_and_calls_are_checked", async () => {
  const e = new LeaderElection({ store, key: "calls", nodeId: "n", ...FAST });
  assert.throws(() => e.on("elected", "nope"), { code: "ERR_LISTENER_TYPE" });
  await assert.rejects(e.withLeadership("nope"), { code: "ERR_FUNCTION_TYPE" });
  let count = 0;
  const once = () => count++;
  e.once("elected", once);
  const off = () => assert.fail("removed listener called");
  e.on("elected", off);
  e.off("elected", off);
  await e.campaign();
  assert.throws(() => e.reportFenced({ presented: 1 }), (err) => err instanceof TypeError && typeof err.code === "string");
  assert.throws(() => e.reportFenced({ presented: 1n, required: 2n, extra: 1 }), { code: "ERR_UNKNOWN_KEY" });
  assert.equal(e.isLeader, true, "a refused call changed nothing");
  await e.release();
  await e.campaign();
  assert.equal(count, 1, "once() fired once");
  await e.close();
});

test("memory_store_options_and_requests_are_checked_and_it_keeps_working", async () => {
  assert.throws(() => new MemoryStore({ latency: 5 }), { code: "ERR_UNKNOWN_KEY" });
  assert.throws(() => new MemoryStore({ latencyMs: [5, 1] }), { code: "ERR_MILLIS_RANGE" });
  // A list of any length but two is refused (three values were taken as the first two).
  assert.throws(() => new MemoryStore({ latencyMs: [1, 2, 3] }), { name: "RangeError", code: "ERR_MILLIS_RANGE", message: /got \[1, 2, 3\]$/ });
  assert.throws(() => new MemoryStore({ latencyMs: [] }), { name: "RangeError", code: "ERR_MILLIS_RANGE" });
  assert.throws(() => new MemoryStore({ latencyMs: -1 }), { code: "ERR_MILLIS_RANGE" });
  assert.throws(() => new MemoryStore({ lossRate: 2 }), { code: "ERR_RATE_RANGE" });
  // The value as written: NaN is not "null", and a bigint is named rather than crashing the message.
  assert.throws(() => new MemoryStore({ latencyMs: NaN }), { code: "ERR_MILLIS_RANGE", message: /got NaN$/ });
  // A value of the wrong type is a TypeError (_TYPE), one out of range a RangeError (_RANGE).
  assert.throws(() => new MemoryStore({ latencyMs: [1, 5n] }), { name: "TypeError", code: "ERR_MILLIS_TYPE", message: /got \[1, 5n\]$/ });
  assert.throws(() => new MemoryStore({ latencyMs: "5" }), { name: "TypeError", code: "ERR_MILLIS_TYPE", message: /got "5"$/ });
  assert.throws(() => new MemoryStore({ lossRate: 1n }), { name: "TypeError", code: "ERR_RATE_TYPE", message: /got 1n$/ });
  assert.throws(() => new MemoryStore({ lossRate: "0.5" }), { name: "TypeError", code: "ERR_RATE_TYPE", message: /from 0 to 1, got "0.5"$/ });
  assert.throws(() => new MemoryStore({ lossRate: NaN }), { name: "RangeError", code: "ERR_RATE_RANGE", message: /got NaN$/ });
  // A seed is read as the testing kit reads one: the value given and the bigint to write.
  assert.throws(() => new MemoryStore({ seed: 1 }), { name: "TypeError", code: "ERR_SEED_TYPE", message: "MemoryStore seed must be a bigint from 0n to 2n ** 64n - 1n, got 1 (write 1n)" });
  assert.throws(() => new MemoryStore({ seed: -1 }), { code: "ERR_SEED_TYPE", message: /got -1 \(a seed is 0n or more\)$/ });
  assert.throws(() => new MemoryStore({ seed: NaN }), { code: "ERR_SEED_TYPE", message: /from 0n to 2n \*\* 64n - 1n, got the number NaN, not a whole number$/ });
  assert.throws(() => new MemoryStore({ seed: -1n }), { name: "RangeError", code: "ERR_SEED_RANGE", message: /got -1n$/ });
  assert.throws(() => new MemoryStore({ seed: 2n ** 64n }), { code: "ERR_SEED_RANGE", message: /got 18446744073709551616n$/ });
  assert.equal(new MemoryStore({ seed: 2n ** 64n - 1n }).seed, 2n ** 64n - 1n);
  const s = new MemoryStore();
  await assert.rejects(s.send(null), { code: "ERR_OBJECT_TYPE" });
  await assert.rejects(s.send({ type: "Steal", key: "k" }), { code: "ERR_VARIANT" });
  await assert.rejects(s.send({ type: "Acquire", key: "k", holder: "a", session: "s", ttl: 5 }), { code: "ERR_UNKNOWN_KEY" });
  await assert.rejects(s.send({ type: "Acquire", key: "k", holder: 1n, session: "s", ttl_ms: 5 }), { code: "ERR_STRING_TYPE" });
  await assert.rejects(s.send({ type: "Renew", key: "k", holder: "a", session: "s", token: 1, ttl_ms: 5 }), { code: "ERR_TOKEN_TYPE" });
  await assert.rejects(s.send({ type: "Acquire", key: "k", holder: "a", session: "s", ttl_ms: 0.0001 }), { code: "ERR_MILLIS_PRECISION" });
  const granted = await s.send({ type: "Acquire", key: "k", holder: "a", session: "s", ttl_ms: 500 });
  assert.deepEqual(granted, { type: "Granted", token: 1n, ttl_ms: 500 });
  const held = await s.send({ type: "Acquire", key: "k", holder: "b", session: "t", ttl_ms: 500 });
  assert.deepEqual(Object.keys(held), ["type", "holder", "remaining_ms"]);
  assert.equal(held.holder, "a");
  assert.ok(held.remaining_ms > 0 && held.remaining_ms <= 500);
  assert.equal(s.holder("k").session, "s");
  s.setAvailable(false);
  assert.equal(await s.send({ type: "Renew", key: "k", holder: "a", session: "s", token: 1n, ttl_ms: 500 }), undefined);
  s.setAvailable(true);
  assert.deepEqual(await s.send({ type: "Renew", key: "k", holder: "a", session: "s", token: 1n, ttl_ms: 500 }), { type: "Renewed", token: 1n, ttl_ms: 500 });
  await s.close();
  await assert.rejects(s.send({ type: "Acquire", key: "k", holder: "a", session: "s", ttl_ms: 5 }), { code: "ERR_CLOSED" });
});

test("memory_store_latency_and_loss_are_seeded", async () => {
  const run = async (seed) => {
    const s = new MemoryStore({ latencyMs: [2, 6], lossRate: 0.3, seed });
    const out = [];
    for (let i = 0; i < 20; i++) out.push((await s.send({ type: "Acquire", key: `k${i}`, holder: "a", session: "s", ttl_ms: 50 }))?.type ?? "lost");
    return out;
  };
  const a = await run(42n);
  assert.deepEqual(await run(42n), a, "the same seed loses the same requests");
  assert.ok(a.includes("lost") && a.includes("Granted"), a.join());
  const slow = new MemoryStore({ latencyMs: 20 });
  const t = performance.now();
  await slow.send({ type: "Acquire", key: "k", holder: "a", session: "s", ttl_ms: 50 });
  assert.ok(performance.now() - t >= 39, "two legs of 20 ms");
  const gone = new MemoryStore({ lossRate: 1 });
  assert.equal(await gone.send({ type: "Acquire", key: "k", holder: "a", session: "s", ttl_ms: 50 }), undefined);
});

test("memory_store_outage_demotes_every_leader_and_recovers", async () => {
  const s = new MemoryStore();
  const e = new LeaderElection({ store: s, key: "k", nodeId: "n", ...FAST });
  const codes = new Set();
  e.on("error", (err) => codes.add(err.code));
  await e.campaign();
  s.setAvailable(false);
  await wait(FAST.ttlMs);
  assert.equal(e.isLeader, false);
  assert.ok(codes.has("ERR_STORE_NO_ANSWER"));
  s.setAvailable(true);
  await wait(FAST.ttlMs);
  assert.equal(e.isLeader, true);
  await e.close();
});

test("an ERR_CONFIG says which values were defaults, and a ttlMs of 0 is refused as itself", () => {
  // A trial found "safetyMarginMs 0 must be above 0 and below ttlMs 0" for { ttlMs: 0 } (a
  // margin the caller never set), and no "(the default)" though the README promises it.
  const store = new MemoryStore();
  assert.throws(() => new LeaderElection({ store, key: "k", ttlMs: 0 }), {
    code: "ERR_MILLIS_RANGE",
    message: "options.ttlMs must be at least 10 ms (its timers, each a tenth of it by default, need the 1 ms a JavaScript timer resolves), got 0",
  });
  // A trial's { ttlMs: 1 } was accepted, then elected and lost some 375 times a second.
  for (const ttlMs of [1, 9.999]) assert.throws(() => new LeaderElection({ store, key: "k", ttlMs }), { code: "ERR_MILLIS_RANGE", message: new RegExp(`at least 10 ms .*got ${ttlMs}$`) });
  new LeaderElection({ store, key: "k", ttlMs: 10 }).close();
  assert.throws(() => new LeaderElection({ store, key: "k", renewIntervalMs: 50_000 }), {
    code: "ERR_CONFIG",
    message: /^invalid lease config: renewIntervalMs 50000 \+ maxRoundTripMs 1000 \(the default: 10% of ttlMs\) must be at most ttlMs 10000 \(the default\) - safetyMarginMs 1000 \(the default: 10% of ttlMs\):/,
  });
  // Values the caller gave carry no note.
  assert.throws(() => new LeaderElection({ store, key: "k", ttlMs: 1000, safetyMarginMs: 2000 }), {
    code: "ERR_CONFIG",
    message: /^invalid lease config: safetyMarginMs 2000 must be above 0 and below ttlMs 1000: /,
  });
});

// A nodeId is every store request's holder, and the stores refuse a holder over 65536 UTF-16
// code units (RedisStore: "request.holder has ... code units"): such an election was accepted
// and then had every request rejected, forever. It is refused at construction, with the code
// and limit an over-long key gets, naming nodeId; and an empty one shows the value as key's does.
test("an_over_long_or_empty_node_id_is_refused_at_construction_like_a_key", async () => {
  const tooLong = "n".repeat(200_000);
  assert.throws(() => new LeaderElection({ store, key: "n".repeat(200_000) }), { name: "RangeError", code: "ERR_TOO_LARGE" });
  assert.throws(() => new LeaderElection({ store, key: "k", nodeId: tooLong }), {
    name: "RangeError",
    code: "ERR_TOO_LARGE",
    message: /^options\.nodeId has 200000 UTF-16 code units; at most 65536 are accepted/,
  });
  assert.throws(() => new LeaderElection({ store, key: "k", nodeId: "n".repeat(65_537) }), { code: "ERR_TOO_LARGE", message: /options\.nodeId has 65537/ });
  assert.throws(() => new ShardedElection({ store, keys: ["a"], nodeId: tooLong }), { code: "ERR_TOO_LARGE", message: /options\.nodeId/ });
  const atLimit = new LeaderElection({ store, key: "k", nodeId: "n".repeat(65_536) });
  assert.equal(atLimit.nodeId.length, 65_536);
  await atLimit.close();

  assert.throws(() => new LeaderElection({ store, key: "" }), { message: /got ""$/ });
  assert.throws(() => new LeaderElection({ store, key: "k", nodeId: "" }), {
    name: "TypeError",
    code: "ERR_NODE_ID_TYPE",
    message: 'options.nodeId must be a non-empty string or a bigint, got ""',
  });
  assert.throws(() => new LeaderElection({ store, key: "k", nodeId: 5 }), { message: /got number$/ });
});

test("close_timeouts_take_whole_microseconds_as_every_ms_option_does", async () => {
  const words = (name, v) => `${name} must be a whole number of microseconds (a multiple of 0.001 ms), got ${v}; round it, e.g. Math.round(ms * 1000) / 1000`;
  assert.throws(() => new LeaderElection({ store: new MemoryStore(), key: "k", closeTimeoutMs: 0.0004 }), (e) => e instanceof RangeError && e.code === "ERR_MILLIS_PRECISION" && e.message === words("options.closeTimeoutMs", 0.0004));
  const e = new LeaderElection({ store: new MemoryStore(), key: "k", closeTimeoutMs: 0.1 + 0.2 });
  await assert.rejects(e.close({ timeoutMs: 1.0004 }), (err) => err.code === "ERR_MILLIS_PRECISION" && err.message === words("close: options.timeoutMs", 1.0004));
  await e.close({ timeoutMs: 1.005 });
});

test("a knob given as null takes its default, as typed; a required option given as null says null", async () => {
  // The declarations said `number`/`boolean`/`bigint` of knobs the runtime reads null as
  // absent (only renewIntervalMs said `| null`), and a null key, nodeId or listener was
  // refused as "got object".
  const { LeaderElection, MemoryStore } = await import("tenure");
  const store = new MemoryStore();
  const knobs = ["ttlMs", "safetyMarginMs", "maxRoundTripMs", "retryIntervalMs", "requestTimeoutMs", "retryJitterMs", "renewIntervalMs", "maxDriftPpm", "fencing", "closeTimeoutMs"];
  const base = new LeaderElection({ store, key: "k", nodeId: "a", seed: 1n });
  for (const knob of knobs) {
    const e = new LeaderElection({ store, key: "k", nodeId: "a", seed: 1n, [knob]: null });
    assert.deepEqual(e.config, base.config, knob);
    await e.close();
  }
  await base.close();
  assert.throws(() => new LeaderElection({ store, key: null }), /options\.key must be a non-empty string \(the lease's name\), got null$/);
  assert.throws(() => new LeaderElection({ store, key: "k", nodeId: null }), /options\.nodeId must be a non-empty string or a bigint, got null$/);
  const e = new LeaderElection({ store, key: "k" });
  assert.throws(() => e.on("elected", null), /must be a function, got null$/);
  await assert.rejects(e.withLeadership(null), /fn must be a function, got null$/);
  await e.close();
  const { readFileSync } = await import("node:fs");
  const dts = readFileSync(new URL("../../pkg/election/index.d.ts", import.meta.url), "utf8");
  const tuning = dts.match(/export interface ElectionTuning \{([\s\S]*?)\n\}/)[1];
  for (const [, key, type] of tuning.matchAll(/^\s*(\w+)\?: ([^;]+);$/gm)) assert.match(type, /\| null$/, `${key}: ${type}`);
});

// { ttlMs: 1000, retryJitterMs: 2147483647 } was accepted: the machine draws any jitter it is
// given, so an attempt could wait up to 24.8 days while the key stayed unled. The jitter is
// now at most the longer of ttlMs and retryIntervalMs, refused beyond it naming the bound.
test("a_retry_jitter_longer_than_the_ttl_and_the_retry_interval_is_refused_naming_the_bound", async () => {
  const store = new MemoryStore();
  const refused = (options, bound) =>
    assert.throws(() => new LeaderElection({ store, key: "k", ...options }), (err) =>
      err instanceof RangeError &&
      err.code === "ERR_MILLIS_RANGE" &&
      err.message.startsWith(`options.retryJitterMs must be at most ${bound}`) &&
      err.message.endsWith(`got ${options.retryJitterMs}`));
  refused({ ttlMs: 1000, retryJitterMs: 2147483647 }, "ttlMs 1000 ms (");
  refused({ ttlMs: 1000, retryJitterMs: 1000.001 }, "ttlMs 1000 ms (");
  refused({ retryJitterMs: 10_001 }, "ttlMs 10000 ms (the default) (");
  refused({ ttlMs: 1000, retryIntervalMs: 5000, retryJitterMs: 5001 }, "retryIntervalMs 5000 ms, which is longer than ttlMs 1000 ms (");
  assert.throws(() => new ShardedElection({ store, keys: ["a"], ttlMs: 1000, retryJitterMs: 1001 }), { code: "ERR_MILLIS_RANGE", message: /^options\.retryJitterMs must be at most ttlMs 1000 ms/ });
  // Up to the bound is taken as given; the default (ttl/20) and 0 too.
  for (const options of [{ ttlMs: 1000, retryJitterMs: 1000 }, { ttlMs: 1000, retryIntervalMs: 5000, retryJitterMs: 5000 }, { ttlMs: 1000, retryJitterMs: 0 }, { ttlMs: 1000 }]) {
    const e = new LeaderElection({ store, key: "k", ...options });
    assert.equal(e.config.retry_jitter_ms, options.retryJitterMs ?? 50, JSON.stringify(options));
    await e.close();
  }
});

test("null_tuning_options_take_the_ttl_scaled_defaults_as_undefined_does", async () => {
  const store = new MemoryStore();
  const knobs = ["safetyMarginMs", "maxRoundTripMs", "retryIntervalMs", "requestTimeoutMs", "retryJitterMs"];
  for (const ttlMs of [200, 60_000]) {
    const absent = new LeaderElection({ store, key: "k", ttlMs, nodeId: "n" });
    const nulls = new LeaderElection({ store, key: "k2", ttlMs, nodeId: "n", ...Object.fromEntries(knobs.map((k) => [k, null])) });
    for (const k of ["safety_margin_ms", "max_round_trip_ms", "retry_interval_ms", "request_timeout_ms", "retry_jitter_ms"]) {
      assert.equal(nulls.config[k], absent.config[k], `ttlMs ${ttlMs}: ${k}`);
    }
    // A tenth of the ttl (the jitter a twentieth), not the machine's fixed 1000 ms.
    assert.equal(nulls.config.safety_margin_ms, ttlMs / 10);
    assert.equal(nulls.config.retry_jitter_ms, ttlMs / 20);
    await absent.close();
    await nulls.close();
  }
});
