// Misuse of the package's JavaScript classes (LeaderElection, ShardedElection, MemoryStore)
// gets a coded error in the caller's words, as misuse of the wasm classes does
// (docs/conventions.md): a listener for an event the class never emits, a member applied to
// an object the class did not make, options of the wrong shape or beyond what a JS timer runs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { LeaderElection, MemoryStore, ShardedElection } from "tenure";

const coded = (code, cls, pattern) => (err) => {
  assert.ok(err instanceof cls, `${err?.name}: ${err?.message}`);
  assert.equal(err.code, code, err.message);
  if (pattern) assert.match(err.message, pattern);
  return true;
};

test("a listener for an event the class never emits is refused with ERR_EVENT_NAME, naming the events", () => {
  // A typo such as "electd" was accepted, and the listener was never called.
  const election = new LeaderElection({ store: new MemoryStore(), key: "k" });
  for (const method of ["on", "once", "off"]) {
    assert.throws(() => election[method]("electd", () => {}), coded("ERR_EVENT_NAME", TypeError, new RegExp(`^LeaderElection\\.${method}: "electd" is not an event of LeaderElection; its events are "elected", "lost", "held", "error"$`)));
  }
  assert.throws(() => election.on(Symbol("x"), () => {}), coded("ERR_EVENT_NAME", TypeError, /Symbol\(x\) is not an event/));
  const shards = new ShardedElection({ store: new MemoryStore(), keys: ["a"] });
  assert.throws(() => shards.on("held", () => {}), coded("ERR_EVENT_NAME", TypeError, /its events are "elected", "lost", "error"$/));
  // The events it does emit still take listeners, and removing one works.
  const listener = () => {};
  assert.equal(election.on("elected", listener).off("elected", listener), election);
  assert.equal(shards.once("lost", listener), shards);
});

test("a member applied to an object the class did not make throws ERR_THIS_TYPE, not a private-member TypeError", async () => {
  const own = (cls, member) => coded("ERR_THIS_TYPE", TypeError, new RegExp(`^${cls.name}\\.${member}: \`this\` is not a ${cls.name}`));
  for (const self of [{}, undefined, Object.create(LeaderElection.prototype), new MemoryStore()]) {
    assert.throws(() => LeaderElection.prototype.assertLeadership.call(self), own(LeaderElection, "assertLeadership"));
    assert.throws(() => Object.getOwnPropertyDescriptor(LeaderElection.prototype, "isLeader").get.call(self), own(LeaderElection, "isLeader"));
  }
  // An async member rejects rather than throws, as it would for any other failure.
  const release = LeaderElection.prototype.release.call({});
  assert.ok(release instanceof Promise);
  await assert.rejects(release, own(LeaderElection, "release"));
  await assert.rejects(MemoryStore.prototype.send.call({}, { type: "Acquire" }), own(MemoryStore, "send"));
  await assert.rejects(LeaderElection.prototype.campaign.call({}), own(LeaderElection, "campaign"));
  await assert.rejects(ShardedElection.prototype.close.call({}), own(ShardedElection, "close"));
  assert.throws(() => Object.getOwnPropertyDescriptor(ShardedElection.prototype, "leading").get.call({}), own(ShardedElection, "leading"));
  // Instances still work.
  const store = new MemoryStore();
  const election = new LeaderElection({ store, key: "k" });
  assert.equal((await election.campaign()).leader, true);
  assert.equal(typeof election.assertLeadership(), "bigint");
  await election.close();
});

test("MemoryStore refuses an array as options and a latency longer than a JS timer runs", () => {
  assert.throws(() => new MemoryStore([]), coded("ERR_OBJECT_TYPE", TypeError, /MemoryStore options must be an object such as \{ latencyMs: \[1, 5\] \}, got an array/));
  // setTimeout fires at once for more than 2^31 - 1 ms (with a TimeoutOverflowWarning), so
  // 1e12 ms answered in about 20 ms.
  for (const latencyMs of [1e12, 2 ** 31, [0, 2 ** 31], Infinity]) {
    assert.throws(() => new MemoryStore({ latencyMs }), coded("ERR_MILLIS_RANGE", RangeError, /from 0 to 2147483647 \(about 24.8 days, the longest timer JavaScript runs\)/));
  }
  assert.doesNotThrow(() => new MemoryStore({ latencyMs: [0, 2 ** 31 - 1] }).close());
});

test("MemoryStore.send names its request's fields when given another", async () => {
  const store = new MemoryStore();
  await assert.rejects(store.send({ type: "Acquire", id: 1n, key: "k", holder: "a", session: "s", ttl_ms: 1000 }),
    coded("ERR_UNKNOWN_KEY", TypeError, /^MemoryStore\.send: an Acquire request has no field "id"; its fields are type, key, holder, session, ttl_ms$/));
  await assert.rejects(store.send({ type: "Renew", key: "k", holder: "a", session: "s", token: 1n, ttl_ms: 1000, extra: 1 }),
    coded("ERR_UNKNOWN_KEY", TypeError, /^MemoryStore\.send: a Renew request has no field "extra"/));
  await store.close();
});

test("ShardedElection refuses `key` and names its own options for a typo", () => {
  const store = new MemoryStore();
  assert.throws(() => new ShardedElection({ store, keys: ["a"], key: "x" }), coded("ERR_UNKNOWN_KEY", TypeError, /ShardedElection options has "key": it takes "keys"/));
  assert.throws(() => new ShardedElection({ store, keys: ["a"], maxLeadng: 2 }), (err) => {
    coded("ERR_UNKNOWN_KEY", TypeError, /^ShardedElection options has an unknown key "maxLeadng"; known: keys, maxLeading, probeIntervalMs, group, store, nodeId/)(err);
    assert.doesNotMatch(err.message, /\bkey,/);
    return true;
  });
});
