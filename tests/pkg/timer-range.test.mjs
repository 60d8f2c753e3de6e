// Every duration option stops at the longest wait a JavaScript timer keeps, 2^31 - 1 ms
// (about 24.8 days). The story: a new user passed `ttlMs: 1e15` (a unit slip) and the election
// took it; past 2^31 - 1 ms Node's setTimeout fires at once (TimeoutOverflowWarning), so the
// timers built on it ran early, and the first store to notice was RedisStore, refusing the
// request's `ttl_ms` in its own words, far from the option that caused it. Now each option is
// refused where it is written, naming it, its value and the range in ms; the store adapters'
// own ms options are refused at construction too (tests/stores/etcd.test.mjs for EtcdStore).
import assert from "node:assert/strict";
import { test } from "node:test";
import { LeaderElection, MemoryStore, ShardedElection } from "tenure";
import { RedisStore } from "tenure/redis";

const LONGEST = 2 ** 31 - 1;
const RANGE = /from 0 to 2147483647 \(about 24\.8 days, the longest timer JavaScript runs\)/;
/** A node-redis-like client that must never be reached: the option is refused before any call. */
const client = { sendCommand: async () => assert.fail("the store was asked") };

test("LeaderElection refuses a ttlMs past the longest timer, naming options.ttlMs, before the store sees it", () => {
  for (const ttlMs of [LONGEST + 1, 1e15]) {
    assert.throws(() => new LeaderElection({ store: new RedisStore({ client }), key: "k", ttlMs }), (err) => {
      assert.ok(err instanceof RangeError);
      assert.equal(err.code, "ERR_MILLIS_RANGE");
      assert.match(err.message, /^options\.ttlMs must be a number of ms /);
      assert.match(err.message, RANGE);
      assert.match(err.message, new RegExp(`got ${ttlMs}$`));
      assert.doesNotMatch(err.message, /RedisStore|ttl_ms/);
      return true;
    });
  }
  const election = new LeaderElection({ store: new MemoryStore(), key: "k", ttlMs: LONGEST });
  assert.equal(election.config.ttl_ms, LONGEST, "the longest timer itself is a valid ttl");
});

test("every other duration option of LeaderElection and ShardedElection stops there too", async () => {
  const store = new MemoryStore();
  for (const name of ["safetyMarginMs", "maxRoundTripMs", "retryIntervalMs", "retryJitterMs", "requestTimeoutMs", "renewIntervalMs", "closeTimeoutMs"]) {
    assert.throws(() => new LeaderElection({ store, key: "k", [name]: LONGEST + 1 }), (err) => {
      assert.equal(err.code, "ERR_MILLIS_RANGE", `${name}: ${err.message}`);
      assert.match(err.message, new RegExp(`^options\\.${name} must be a number of ms `));
      assert.match(err.message, RANGE);
      return true;
    });
  }
  assert.throws(() => new ShardedElection({ store, keys: ["a"], probeIntervalMs: 1e15 }), (err) => {
    assert.equal(err.code, "ERR_MILLIS_RANGE");
    assert.match(err.message, /^options\.probeIntervalMs must be a number of ms from 1 to 2147483647 \(.*about 24\.8 days the longest\), got 1000000000000000$/);
    return true;
  });
  // close({ timeoutMs }) bounds the wait for leader work with a timer: past the longest one it
  // would fire at once and abort the work. Refused, and the work goes on.
  const election = new LeaderElection({ store, key: "close-bound", ttlMs: 1000 });
  assert.equal((await election.campaign()).leader, true);
  let aborted = false;
  let finish;
  const work = election.withLeadership(({ signal }) => new Promise((resolve) => {
    finish = resolve;
    signal.addEventListener("abort", () => (aborted = true));
  }));
  await assert.rejects(election.close({ timeoutMs: 1e12 }), (err) => {
    assert.equal(err.code, "ERR_MILLIS_RANGE");
    assert.match(err.message, /^close: options\.timeoutMs must be a number of ms from 0 to 2147483647 .*got 1000000000000$/);
    return true;
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(aborted, false, "the work in flight was not aborted");
  finish("done");
  assert.equal(await work, "done");
  await election.close();
  await store.close();
});

test("MemoryStore latencyMs is whole ms up to the longest timer", async () => {
  for (const latencyMs of [0.5, [1, 2.5], LONGEST + 1, [0, 1e15]]) {
    assert.throws(() => new MemoryStore({ latencyMs }), (err) => {
      assert.ok(err instanceof RangeError);
      assert.equal(err.code, "ERR_MILLIS_RANGE");
      assert.match(err.message, /^MemoryStore latencyMs must be a whole number of ms from 0 to 2147483647 \(about 24\.8 days/);
      return true;
    });
  }
  const store = new MemoryStore({ latencyMs: [0, 2] });
  const reply = await store.send({ type: "Acquire", key: "k", holder: "a", session: "s", ttl_ms: 1000 });
  assert.equal(reply.type, "Granted");
  await store.close();
});

test("a store adapter words a request's ttl_ms range in ms, without 2^31 notation", async () => {
  const store = new RedisStore({ client });
  await assert.rejects(store.send({ type: "Acquire", key: "k", holder: "a", session: "s", ttl_ms: LONGEST + 1 }), (err) => {
    assert.equal(err.code, "ERR_STORE_REQUEST");
    assert.match(err.message, /^RedisStore\.send: request\.ttl_ms must be a number of ms above 0 and at most 2147483647 \(about 24\.8 days\), got 2147483648$/);
    return true;
  });
});
