// Which node-redis client objects RedisStore and RedisFencedResource take (docs/stores.md,
// "Clients"), against real redis-servers this file starts.
//
// The story: pkg/README.md said cluster clients (`createCluster`) are not supported, but the
// constructors took one, since it has a `sendCommand` and an `isOpen`. A cluster client's
// sendCommand is `(firstKey, isReadonly, args)`, so every request the store then sent failed,
// far from the constructor. Now a cluster client (v4 and v5, connected to a real one-node
// cluster or not) is refused at construction with ERR_STORE_OPTIONS saying why and what to pass
// instead. v5's createClientPool was unknown ground: its sendCommand is the client's
// `(args)`, and every request is one script on one connection, so a pool passes the contract
// and the differential run like a client, and the README says so.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createClientPool, createCluster, createSentinel } from "redis";
import { createCluster as createClusterV4 } from "redis4";
import { RedisFencedResource, RedisStore } from "tenure/redis";
import { checkStoreContract, runDifferential } from "tenure/testing";
import { closeAfter, freshKey, redisClient, sleep, startRedis, useServer } from "./helpers.mjs";

const redis = useServer(startRedis);
const cluster = useServer(() => startRedis({ cluster: true }));

/** Gives the one-node cluster every slot and waits until it says cluster_state:ok. */
async function clusterReady(server) {
  const admin = await redisClient(server);
  await admin.sendCommand(["CLUSTER", "ADDSLOTSRANGE", "0", "16383"]);
  for (let i = 0; i < 100; i++) {
    if (String(await admin.sendCommand(["CLUSTER", "INFO"])).includes("cluster_state:ok")) return;
    await sleep(50);
  }
  assert.fail("the one-node cluster never reached cluster_state:ok");
}

const refusedAsCluster = (err) => {
  assert.ok(err instanceof TypeError, String(err));
  assert.equal(err.code, "ERR_STORE_OPTIONS");
  assert.match(err.message, /^new Redis(Store|FencedResource)\(options\): options\.client is a node-redis cluster client \(createCluster\), which is not supported: its sendCommand takes the slot's key first, so every request would fail\. Pass a createClient\(\) client of a standalone Redis server/);
  return true;
};

const constructors = [(client) => new RedisStore({ client }), (client) => new RedisFencedResource({ client, key: "k" })];

test("redis_cluster_clients_are_refused_at_construction_saying_why", async () => {
  await clusterReady(cluster());
  const url = cluster().url;
  // Connected to a real cluster: what a user would pass.
  for (const [version, create] of [["v5", createCluster], ["v4", createClusterV4]]) {
    const client = create({ rootNodes: [{ url }] });
    client.on("error", () => {});
    await client.connect();
    closeAfter(() => client.quit());
    assert.equal(client.isOpen, true, `${version}: connected`);
    assert.equal(String(await client.sendCommand("k", false, ["PING"])), "PONG", `${version}: the cluster answers through its own sendCommand`);
    for (const make of constructors) assert.throws(() => make(client), refusedAsCluster, `${version} connected`);
    // Not connected yet: refused as a cluster, not sent off to call connect().
    const idle = create({ rootNodes: [{ url }] });
    for (const make of constructors) assert.throws(() => make(idle), refusedAsCluster, `${version} not connected`);
  }
  // v5's Sentinel client has the same flaw (sendCommand(isReadonly, args)): refused alike.
  const sentinel = createSentinel({ name: "mymaster", sentinelRootNodes: [{ host: "127.0.0.1", port: cluster().port }] });
  for (const make of constructors) {
    assert.throws(() => make(sentinel), { code: "ERR_STORE_OPTIONS", message: /options\.client is a node-redis Sentinel client \(createSentinel\), which is not supported: its sendCommand takes isReadonly first/ });
  }
});

test("a_v5_client_pool_keeps_the_store_contract_and_fences_writes", { timeout: 60_000 }, async (t) => {
  // minimum = maximum: node-redis 5.9's pool.close() leaves its idle-cleanup timer armed, which
  // then destroys a closed client and throws "The client is closed" from the timer (uncaught);
  // with no connections above the minimum that timer is never armed.
  const pool = createClientPool({ url: redis().url, disableOfflineQueue: true }, { minimum: 3, maximum: 3 });
  pool.on("error", () => {});
  // Not connected: refused as a client is, with the same advice.
  assert.throws(() => new RedisStore({ client: pool }), { code: "ERR_STORE_OPTIONS", message: /options\.client is not connected \(its isOpen is false\): call `await client\.connect\(\)` first/ });
  await pool.connect();
  closeAfter(() => pool.close());
  const store = new RedisStore({ client: pool });
  await store.migrate();
  const contract = await checkStoreContract(() => store, { ttlMs: 300, t, closeStores: false });
  assert.ok(contract.ok, contract.text);
  const diff = await runDifferential(() => store, { steps: 60, ttlMs: 150, closeStores: false });
  assert.equal(diff.counts.breach, 0, JSON.stringify(diff.differences.filter((d) => d.kind === "breach")));
  // Concurrent acquires over several pooled connections: exactly one grant.
  const key = freshKey("pool");
  const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => store.send({ type: "Acquire", key, holder: `h${i}`, session: `s${i}`, ttl_ms: 5_000 })));
  assert.equal(replies.filter((r) => r.type === "Granted").length, 1);
  const resource = new RedisFencedResource({ client: pool, key: freshKey("pool-fenced") });
  assert.deepEqual(await resource.write(2n, "from 2"), { accepted: true, token: 2n });
  assert.deepEqual(await resource.write(1n, "late"), { accepted: false, reason: "stale fencing token", presented: 1n, required: 2n });
  // The pool is still the caller's: the store never closed it.
  assert.equal(pool.isOpen, true);
});
