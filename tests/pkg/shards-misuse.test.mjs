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
