// ShardedElection's misuses found by a new user's trial:
// - A key under "<group>/member/" (`keys: ["shards/member/0", ...]`) was accepted, though the
//   member slots are the leases "<group>/member/<i>": the shard's election and the member claim
//   contended for one lease, and the member count read a shard's leader as a process. Such a
//   key is refused with ERR_RESERVED_KEY, naming it and the way out (another key or group).
// - start() after close() did nothing, silently: the caller believed it contended. It now
//   throws ERR_CLOSED, a LeadershipExpiredError, as LeaderElection's campaign() rejects after
//   its close().
import assert from "node:assert/strict";
import { test } from "node:test";
import { LeaderElection, LeadershipExpiredError, MemoryStore, ShardedElection } from "tenure";

test("a key under the member slots' prefix is refused, naming it and the group", () => {
  const store = new MemoryStore();
  assert.throws(
    () => new ShardedElection({ store, keys: ["orders", "shards/member/0"] }),
    (err) =>
      err instanceof RangeError &&
      err.code === "ERR_RESERVED_KEY" &&
      err.message.includes('options.keys[1] "shards/member/0"') &&
      err.message.includes('"shards/member/"') &&
      err.message.includes("options.group"),
  );
  assert.throws(() => new ShardedElection({ store, keys: ["jobs/member/x"], group: "jobs" }), { code: "ERR_RESERVED_KEY", message: /options\.keys\[0\] "jobs\/member\/x" is under "jobs\/member\/"/ });
  // The same names are ordinary keys under another group.
  const other = new ShardedElection({ store, keys: ["shards/member/0"], group: "jobs" });
  return other.close();
});

test("start() after close() throws ERR_CLOSED, as LeaderElection's campaign() rejects", async () => {
  const store = new MemoryStore();
  const single = new LeaderElection({ store, key: "k", ttlMs: 500 });
  await single.close();
  const campaignErr = await single.campaign().then(() => assert.fail("campaign() after close() resolved"), (err) => err);
  assert.equal(campaignErr.code, "ERR_CLOSED");
  assert.ok(campaignErr instanceof LeadershipExpiredError);

  const sharded = new ShardedElection({ store, keys: ["a", "b"], ttlMs: 500 });
  sharded.on("error", () => {});
  sharded.start();
  sharded.start(); // a second start() before close() does nothing
  const closing = sharded.close();
  assert.throws(() => sharded.start(), (err) => err instanceof LeadershipExpiredError && err.code === "ERR_CLOSED" && /ShardedElection\.start: this ShardedElection was closed/.test(err.message), "while closing");
  await closing;
  assert.throws(() => sharded.start(), (err) => err instanceof LeadershipExpiredError && err.code === campaignErr.code && err.reason === "Closed");
  assert.deepEqual(sharded.leading, []);
});

// A review found probeIntervalMs checked only after every key's LeaderElection was built: a
// refused `new ShardedElection` had already made a wasm machine per key and registered the
// leader_election_* metrics on `registry`, where they stayed (nothing was returned to close).
// Every option is now checked before anything is made; the registry is the observable.
test("a refused construction makes nothing: the registry stays empty", async () => {
  const { Registry } = await import("prom-client");
  const store = new MemoryStore();
  const refusals = [
    [{ probeIntervalMs: -1 }, "ERR_MILLIS_RANGE", RangeError, /^options\.probeIntervalMs must be a number of ms from 1 to 2147483647 \(1 ms is the shortest timer JavaScript runs, about 24\.8 days the longest\), got -1$/],
    // 0.1 µs was taken: scans back to back (a timer below 1 ms runs at 1 ms anyway).
    [{ probeIntervalMs: 0.0001 }, "ERR_MILLIS_RANGE", RangeError, /got 0\.0001$/],
    [{ probeIntervalMs: 0.999 }, "ERR_MILLIS_RANGE", RangeError, /got 0\.999$/],
    [{ probeIntervalMs: 2 ** 31 }, "ERR_MILLIS_RANGE", RangeError, /got 2147483648$/],
    [{ probeIntervalMs: NaN }, "ERR_MILLIS_RANGE", RangeError, /got NaN$/],
    [{ probeIntervalMs: "500" }, "ERR_MILLIS_TYPE", TypeError, /^options\.probeIntervalMs must be a number of ms from 1 to .* got the string "500"$/],
    [{ keys: ["a", "b".repeat(70_000)] }, "ERR_TOO_LARGE", RangeError, /^options\.keys\[1\] has 70000 UTF-16 code units; a lease key has at most 65536$/],
    [{ group: "g".repeat(65_530) }, "ERR_TOO_LARGE", RangeError, /^options\.group has 65530 UTF-16 code units/],
    // The slots are "<group>/member/<16 hex digits>/<i>": 65520 + 26 units is over the limit.
    [{ group: "g".repeat(65_520) }, "ERR_TOO_LARGE", RangeError, /^options\.group has 65520 UTF-16 code units: its member slots \("g{20}\.\.\.\/member\/<key set hash>\/<i>", 65546 here\)/],
    [{ ttlMs: 1000, safetyMarginMs: 2000 }, "ERR_CONFIG", RangeError, /safetyMarginMs 2000/],
  ];
  for (const [options, code, Class, message] of refusals) {
    const registry = new Registry();
    assert.throws(
      () => new ShardedElection({ store, keys: ["a", "b", "c"], registry, ...options }),
      (err) => err instanceof Class && err.code === code && message.test(err.message),
      `${JSON.stringify(options).slice(0, 80)}: ${code}`,
    );
    assert.deepEqual(registry.getMetricsAsArray().map((m) => m.name), [], `${JSON.stringify(options).slice(0, 80)} left metrics on the registry`);
  }
  // The same options, valid, do register: the observable sees a construction.
  const registry = new Registry();
  const ok = new ShardedElection({ store, keys: ["a", "b", "c"], registry, probeIntervalMs: 1 }); // the shortest
  assert.ok(registry.getMetricsAsArray().length > 0);
  await ok.close();
  assert.deepEqual(store.keys(), [], "no request reached the store");
});

test("options.keys is measured before it is read: a sparse or huge list is refused at once, a hole or a non-string by its index", async () => {
  // new Array(2 ** 32 - 1) ran for minutes (every() and new Set walk each hole), a hole in
  // ["a", , "b"] failed inside a check with no code, and new Array(3) was "a key twice".
  const store = new MemoryStore();
  const refused = (keys, code, cls, message) => {
    const t = performance.now();
    assert.throws(() => new ShardedElection({ store, keys }), (err) => {
      assert.ok(err instanceof cls, `${err}`);
      assert.equal(err.code, code);
      assert.match(err.message, message);
      return true;
    });
    assert.ok(performance.now() - t < 1000, "refused before the elements are walked");
  };
  refused(new Array(2 ** 32 - 1), "ERR_TOO_LARGE", RangeError, /^options\.keys has 4294967295 elements; a ShardedElection takes at most 10000 keys/);
  refused(Array.from({ length: 10_001 }, (_, i) => `k${i}`), "ERR_TOO_LARGE", RangeError, /^options\.keys has 10001 elements/);
  refused(["a", , "b"], "ERR_ARRAY_TYPE", TypeError, /^options\.keys\[1\] is a hole \(a sparse array\)/);
  refused(new Array(3), "ERR_ARRAY_TYPE", TypeError, /^options\.keys\[0\] is a hole/);
  refused(["a", 3], "ERR_STRING_TYPE", TypeError, /^options\.keys\[1\] must be a non-empty string, got number$/);
  refused(["a", ""], "ERR_STRING_TYPE", TypeError, /^options\.keys\[1\] must be a non-empty string, got the string ""$/);
  refused([], "ERR_ARRAY_TYPE", TypeError, /^options\.keys must be a non-empty array of key strings, got an empty array$/);
  const most = new ShardedElection({ store, keys: Array.from({ length: 10_000 }, (_, i) => `k${i}`) });
  await most.close();
  await store.close();
});

// The member scans ask each slot as the holder "tenure/member-scan" and never count a holder
// of that name: a process given it as its nodeId was accepted, then never counted, and its
// slot claims stopped at a "scan" holding them. It is refused, before anything is made.
test("the member scans' holder name is refused as a nodeId", async () => {
  const store = new MemoryStore();
  assert.throws(
    () => new ShardedElection({ store, keys: ["a", "b"], nodeId: "tenure/member-scan" }),
    (err) =>
      err instanceof RangeError &&
      err.code === "ERR_RESERVED_NODE_ID" &&
      /^ShardedElection: options\.nodeId "tenure\/member-scan" is reserved: the member scans ask the slots under that holder name/.test(err.message),
  );
  // Only that name: a similar one is an ordinary nodeId.
  const near = new ShardedElection({ store, keys: ["a", "b"], nodeId: "tenure/member-scan2" });
  assert.equal(near.nodeId, "tenure/member-scan2");
  await near.close();
});

// election(Symbol()) threw the engine's own TypeError, with no code, from putting the key into
// the message. Anything but a string is now ERR_STRING_TYPE, saying what was given; a string
// that is not a key stays ERR_UNKNOWN_SHARD.
test("election(key) refuses a non-string with a code, saying what it got", async () => {
  const node = new ShardedElection({ store: new MemoryStore(), keys: ["a", "b"] });
  const refused = (key, got) =>
    assert.throws(() => node.election(key), (err) => {
      assert.ok(err instanceof TypeError, `${err}`);
      assert.equal(err.code, "ERR_STRING_TYPE");
      assert.equal(err.message, `ShardedElection.election: key must be a string, one of this ShardedElection's keys, got ${got}`);
      return true;
    });
  refused(Symbol("a"), "Symbol(a)");
  refused(Symbol(), "Symbol()");
  refused(0, "0");
  refused(undefined, "undefined");
  refused(["a"], "an array");
  refused({ toString: () => "a" }, "an object (Object)");
  assert.throws(() => node.election("c"), { name: "RangeError", code: "ERR_UNKNOWN_SHARD", message: '"c" is not one of this ShardedElection\'s keys' });
  assert.throws(() => node.election('say "hi"'), { code: "ERR_UNKNOWN_SHARD", message: '"say \\"hi\\"" is not one of this ShardedElection\'s keys' });
  assert.equal(node.election("b").key, "b");
  await node.close();
});

// A registry with an open election of one of the keys under the same nodeId refused that key's
// election only once the keys before it were made: the refusal closed them, but their series
// stayed on the registry until each close() settled (some 5-50 ms). The series are now checked
// for every key before any is made.
test("a key whose series the registry already has is refused before any key's series is there", async () => {
  const { Registry } = await import("prom-client");
  const registry = new Registry();
  const store = new MemoryStore();
  const other = new LeaderElection({ store, key: "b", nodeId: "w", registry });
  const series = async () => (await registry.metrics()).split("\n").filter((l) => l.startsWith("leader_election_is_leader{"));
  assert.throws(() => new ShardedElection({ store, keys: ["a", "b", "c"], nodeId: "w", registry }), {
    code: "ERR_METRIC_EXISTS",
    message: /^options\.registry already has the leader_election_\* series of an election of key "b" on node "w"/,
  });
  assert.deepEqual(await series(), ['leader_election_is_leader{key="b",node="w"} 0'], "only the other election's series, at once");
  // Another nodeId is another series: accepted beside it.
  const beside = new ShardedElection({ store, keys: ["a", "b", "c"], nodeId: "v", registry });
  assert.equal((await series()).length, 4);
  await Promise.all([beside.close(), other.close()]);
  assert.deepEqual(await series(), []);
});
