// Options read in JS (LeaderElection, ShardedElection, MemoryStore, the store adapters, the
// testing kit) treat a throwing getter or Proxy trap as the wasm bindings do: the caller's
// exception comes back unchanged, coded ERR_INPUT_THREW when it is an uncoded Error
// (pkg/README.md, "Errors"); the kit's own refusals keep their codes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { LeaderElection, MemoryStore, ShardedElection } from "tenure";
import { EtcdStore } from "tenure/etcd";
import { PostgresFencedTable, PostgresStore } from "tenure/postgres";
import { RedisFencedResource, RedisStore } from "tenure/redis";
import { checkStoreContract, runDifferential } from "tenure/testing";

const redis = { sendCommand: async () => assert.fail("the client was called") };
const pg = { query: async () => assert.fail("the client was called") };
const etcd = { kv: {}, leaseClient: {} };

/** A Proxy over `target` whose `ownKeys` trap throws `thrown`. */
const keysThrow = (target, thrown) => new Proxy(target, { ownKeys: () => { throw thrown; } });
/** `target` with a getter for `key` that throws `thrown`. */
const getterThrows = (target, key, thrown) => Object.defineProperty({ ...target }, key, { enumerable: true, get: () => { throw thrown; } });

const SYNC = [
  ["LeaderElection", (o) => new LeaderElection(o), { store: new MemoryStore(), key: "k" }, "ttlMs"],
  ["ShardedElection", (o) => new ShardedElection(o), { store: new MemoryStore(), keys: ["a"] }, "maxLeading"],
  ["MemoryStore", (o) => new MemoryStore(o), {}, "latencyMs"],
  ["RedisStore", (o) => new RedisStore(o), { client: redis }, "prefix"],
  ["RedisFencedResource", (o) => new RedisFencedResource(o), { client: redis, key: "r" }, "prefix"],
  ["PostgresStore", (o) => new PostgresStore(o), { client: pg }, "table"],
  ["PostgresFencedTable", (o) => new PostgresFencedTable(o), { client: pg, key: "r" }, "table"],
  ["EtcdStore", (o) => new EtcdStore(o), { client: etcd }, "timeoutMs"],
];

test("a throwing ownKeys trap or getter in options comes back as thrown, coded ERR_INPUT_THREW", () => {
  for (const [name, make, valid, key] of SYNC) {
    assert.doesNotThrow(() => make(valid), `${name}: the valid options are taken`);
    for (const [how, options] of [
      ["ownKeys trap", (e) => keysThrow(valid, e)],
      ["getter", (e) => getterThrows(valid, key, e)],
    ]) {
      const mine = new Error("mine");
      assert.throws(() => make(options(mine)), (err) => err === mine && err.code === "ERR_INPUT_THREW", `${name}, ${how}`);
      const coded = Object.assign(new Error("coded"), { code: "MY_CODE" });
      assert.throws(() => make(options(coded)), (err) => err === coded && err.code === "MY_CODE", `${name}, ${how}: a code of the caller's own is kept`);
      const frozen = Object.freeze(new Error("frozen"));
      assert.throws(() => make(options(frozen)), (err) => err === frozen && err.code === undefined, `${name}, ${how}: a frozen error is rethrown as is`);
      assert.throws(() => make(options(42)), (err) => err === 42, `${name}, ${how}: a non-Error is rethrown as is`);
      const trap = () => { throw new Error("trap"); };
      const nasty = new Proxy(new Error("nasty"), { getPrototypeOf: trap, getOwnPropertyDescriptor: trap, defineProperty: trap, get: trap });
      assert.throws(() => make(options(nasty)), (err) => err === nasty, `${name}, ${how}: a thrown Proxy whose traps throw is rethrown as is`);
    }
  }
});

test("options are read once: a getter runs once and the kit's own refusals keep their codes", () => {
  let reads = 0;
  const store = new MemoryStore();
  const counted = Object.defineProperty({ store }, "key", { enumerable: true, get: () => (reads++, "k") });
  new RedisStore(Object.defineProperty({ client: redis }, "prefix", { enumerable: true, get: () => (reads++, "p:") }));
  assert.equal(reads, 1, "RedisStore read its prefix getter once");
  reads = 0;
  new LeaderElection(counted).close();
  assert.ok(reads >= 1);
  assert.throws(() => new MemoryStore({ latencyMs: new Array(2 ** 31) }), { code: "ERR_MILLIS_RANGE" }, "a huge latency list is refused, not copied");
  assert.throws(() => new RedisStore({ client: redis, prefx: "p" }), { code: "ERR_UNKNOWN_KEY" });
  assert.throws(() => new LeaderElection({ store, key: "k", ttl: 5 }), { code: "ERR_UNKNOWN_KEY" });
});

test("MemoryStore keeps its own copy of the latency range", async () => {
  const range = [0, 0];
  const memory = new MemoryStore({ latencyMs: range });
  range[0] = range[1] = 60_000;
  const started = performance.now();
  const reply = await memory.send({ type: "Acquire", key: "k", holder: "a", session: "s", ttl_ms: 1000 });
  assert.equal(reply.type, "Granted");
  assert.ok(performance.now() - started < 5_000, "the answer came without the caller's later 60 s latency");
});

test("the testing kit's options: a throwing trap is ERR_INPUT_THREW, a non-object ERR_OBJECT_TYPE", async () => {
  const makeStore = () => new MemoryStore();
  for (const [name, run] of [["checkStoreContract", checkStoreContract], ["runDifferential", runDifferential]]) {
    const mine = new Error("mine");
    await assert.rejects(run(makeStore, keysThrow({}, mine)), (err) => err === mine && err.code === "ERR_INPUT_THREW", name);
    await assert.rejects(run(makeStore, null), { code: "ERR_OBJECT_TYPE" }, name);
    await assert.rejects(run(makeStore, { nope: 1 }), { code: "ERR_UNKNOWN_KEY" }, name);
  }
});

/** A `Proxy.revocable` proxy, revoked: every read of it throws the engine's TypeError. */
const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

// `new LeaderElection(revokedProxy)` threw ERR_INPUT_THREW with the engine's words ("Cannot
// perform 'IsArray' on a proxy that has been revoked"), where the README's table promises
// ERR_REVOKED_PROXY, which `new LeaseCandidate(revokedProxy)` gives. Every options reader in
// JS (the elections, MemoryStore, the store adapters, close(), the testing kit) now says so,
// with the engine's error as `cause`; so do options.store and an adapter's options.client.
test("a revoked Proxy as options is ERR_REVOKED_PROXY, the engine's error its cause", async () => {
  const isRevoked = (where) => (err) =>
    err instanceof TypeError && err.code === "ERR_REVOKED_PROXY" && /is a revoked Proxy and cannot be read/.test(err.message) && err.message.startsWith(where) && err.cause instanceof TypeError;
  const where = { LeaderElection: "options", ShardedElection: "ShardedElection options", MemoryStore: "MemoryStore options" };
  for (const [name, make] of SYNC) assert.throws(() => make(revoked()), isRevoked(where[name] ?? `new ${name}(options): options`), name);
  assert.throws(() => new LeaderElection({ store: revoked(), key: "k" }), isRevoked("options.store"));
  assert.throws(() => new ShardedElection({ store: revoked(), keys: ["a"] }), isRevoked("options.store"));
  assert.throws(() => new RedisStore({ client: revoked() }), isRevoked("new RedisStore(options): options.client"));
  assert.throws(() => new PostgresStore({ client: revoked() }), isRevoked("new PostgresStore(options): options.client"));
  const e = new LeaderElection({ store: new MemoryStore(), key: "k" });
  await assert.rejects(e.close(revoked()), isRevoked("close: options"));
  await e.close();
  for (const [name, run] of [["checkStoreContract", checkStoreContract], ["runDifferential", runDifferential]]) {
    await assert.rejects(run(() => new MemoryStore(), revoked()), isRevoked(`${name}: options`), name);
  }
});

// `new LeaderElection(new Map())` was ERR_STORE_TYPE ("options.store must be an object with a
// send(request) method ..., got undefined"): a Map passed the typeof check and its missing
// `store` was blamed. Options are a plain object ({...} or Object.create(null)), as the
// README's ERR_OBJECT_TYPE row says: a Map, Date or class instance is ERR_OBJECT_TYPE, named.
test("options that are not a plain object (a Map, a Date, a class instance) are ERR_OBJECT_TYPE, named", async () => {
  const store = new MemoryStore();
  class Opts {
    store = store;
    key = "k";
  }
  for (const [value, words] of [[new Map([["store", store], ["key", "k"]]), "a Map"], [new Date(0), "a Date"], [new Opts(), "an Opts"]]) {
    const got = new RegExp(`got ${words} \\(not a plain object\\)$`);
    assert.throws(() => new LeaderElection(value), { name: "TypeError", code: "ERR_OBJECT_TYPE", message: got });
    assert.throws(() => new ShardedElection(value), { code: "ERR_OBJECT_TYPE", message: got });
    assert.throws(() => new MemoryStore(value), { code: "ERR_OBJECT_TYPE", message: got });
    assert.throws(() => new RedisStore(value), { code: "ERR_STORE_OPTIONS", message: got }, "an adapter's options keep their code family");
  }
  const e = new LeaderElection({ store, key: "k" });
  await assert.rejects(e.close(new Map()), { code: "ERR_OBJECT_TYPE", message: /got a Map/ });
  // Still taken: a null-prototype object, and a Proxy of a plain one.
  const bare = Object.assign(Object.create(null), { store, key: "n" });
  await new LeaderElection(bare).close();
  await new LeaderElection(new Proxy({ store, key: "p" }, {})).close();
  await e.close();
});
