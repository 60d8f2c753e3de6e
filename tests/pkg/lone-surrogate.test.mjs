// Lease keys and node ids with a lone UTF-16 surrogate are refused where they enter. The
// story: in MemoryStore, Acquire "a\uD800" by a was Granted and Acquire "a\uDBFF" by b was
// Held, naming a: a lone surrogate has no UTF-8 form, so the wasm LeaseStore (Rust strings),
// Redis, PostgreSQL and etcd each keep U+FFFD in its place, and two different keys were one
// lease (one counter, one holder). A surrogate pair ("\u{1F600}") is well-formed and works.
// The adapters' checks on real servers: tests/stores/{redis,postgres,etcd}.test.mjs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { LeaderElection, LeaseCandidate, LeaseStore, MemoryStore, ShardedElection } from "tenure";

const words = (name, shown, unit, index) =>
  new RegExp(
    `^${name} ${shown.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")} is not well-formed Unicode: it has a lone UTF-16 surrogate, ` +
      `\\\\u${unit} at index ${index}, which UTF-8 cannot encode \\(it would be stored as U\\+FFFD, so different strings would name the same thing\\); ` +
      "pass a well-formed string \\(String\\.prototype\\.isWellFormed\\(\\)\\)$",
  );

test("LeaderElection refuses a key or nodeId with a lone surrogate, naming the option", () => {
  const store = new MemoryStore();
  assert.throws(() => new LeaderElection({ store, key: "a\uD800" }), (err) => {
    assert.ok(err instanceof TypeError);
    assert.equal(err.code, "ERR_STRING_TYPE");
    assert.match(err.message, words("options.key", '"a\\ud800"', "D800", 1));
    return true;
  });
  assert.throws(() => new LeaderElection({ store, key: "\uDC00b" }), { code: "ERR_STRING_TYPE", message: /\\uDC00 at index 0/ });
  assert.throws(() => new LeaderElection({ store, key: "k", nodeId: "node-\uDBFF" }), (err) => {
    assert.ok(err instanceof TypeError);
    assert.equal(err.code, "ERR_NODE_ID_TYPE");
    assert.match(err.message, words("options.nodeId", '"node-\\udbff"', "DBFF", 5));
    return true;
  });
  // A surrogate pair is one well-formed character.
  const election = new LeaderElection({ store, key: "emoji-\u{1F600}", nodeId: "n\u{1F600}" });
  assert.equal(election.key, "emoji-\u{1F600}");
});

test("ShardedElection names the key of its list that has a lone surrogate", () => {
  const store = new MemoryStore();
  assert.throws(() => new ShardedElection({ store, keys: ["a", "b\uD83D"] }), (err) => {
    assert.equal(err.code, "ERR_STRING_TYPE");
    assert.match(err.message, words("options.keys\\[1\\]", '"b\\ud83d"', "D83D", 1));
    return true;
  });
  assert.throws(() => new ShardedElection({ store, keys: ["a"], group: "g\uDE00" }), { code: "ERR_STRING_TYPE", message: /^options\.group "g\\ude00" is not well-formed Unicode/ });
});

test("MemoryStore.send refuses a key, holder or session with a lone surrogate: two keys never share a lease", async () => {
  const store = new MemoryStore();
  for (const field of ["key", "holder", "session"]) {
    const request = { type: "Acquire", key: "k", holder: "a", session: "s", ttl_ms: 1000, [field]: "x\uD800" };
    await assert.rejects(store.send(request), (err) => {
      assert.ok(err instanceof TypeError);
      assert.equal(err.code, "ERR_STRING_TYPE");
      assert.match(err.message, words(`MemoryStore\\.send: request\\.${field}`, '"x\\ud800"', "D800", 1));
      return true;
    });
  }
  assert.deepEqual(store.keys(), [], "nothing was stored");
  // Two keys that differ only in a character outside the BMP are two leases.
  const a = await store.send({ type: "Acquire", key: "a\u{1F600}", holder: "a", session: "s", ttl_ms: 1000 });
  const b = await store.send({ type: "Acquire", key: "a\u{1F601}", holder: "b", session: "s", ttl_ms: 1000 });
  assert.deepEqual([a.type, b.type], ["Granted", "Granted"], "two well-formed keys are two leases");
  await store.close();
});

test("LeaseCandidate and LeaseStore, used directly, refuse a lone surrogate in a key: the wasm module never reads it as U+FFFD", () => {
  const rust = (name, index) =>
    new RegExp(
      `^${name.replace(/[.[\]]/g, "\\$&")} is not well-formed Unicode: a lone UTF-16 surrogate at index ${index} has no UTF-8 form; ` +
        "pass a well-formed string \\(String\\.prototype\\.isWellFormed\\(\\)\\)$",
    );
  assert.throws(() => new LeaseCandidate({ holder: 1n, key: "a\uD800", seed: 1n }), (err) => {
    assert.ok(err instanceof TypeError);
    assert.equal(err.code, "ERR_STRING_TYPE");
    assert.match(err.message, rust("config.key", 1));
    return true;
  });
  const store = new LeaseStore();
  const acquire = (key, holder) => ({ type: "Acquire", id: 1n, key, holder, session: 1n, ttl_ms: 1000 });
  assert.throws(() => store.handle(0, acquire("\u{1F600}x\uDBFF", 1n)), (err) => {
    assert.ok(err instanceof TypeError);
    assert.equal(err.code, "ERR_STRING_TYPE");
    assert.match(err.message, rust("request.key", 3));
    return true;
  });
  assert.equal(store.holder("x\uFFFD", 0), undefined, "nothing was granted under U+FFFD");
  // Twice through the same store, so the fast path (a cached key) is crossed too.
  assert.equal(store.handle(0, acquire("a\u{1F600}", 1n)).type, "Granted");
  assert.throws(() => store.handle(0, acquire("a\uD83D", 2n)), { code: "ERR_STRING_TYPE" });
  assert.equal(store.handle(0, acquire("a\u{1F601}", 2n)).type, "Granted", "two well-formed keys are two leases");
  // A key that really holds U+FFFD is well-formed and is taken.
  assert.equal(store.handle(0, acquire("a\uFFFD", 3n)).type, "Granted");
  store.free();
});
