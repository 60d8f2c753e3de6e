// node-redis v4 (the peer range is v4 or v5): the same adapter keeps the store contract and
// fences through a v4 client (dev dependency `redis4`, an alias of redis@4.7.0).
import assert from "node:assert/strict";
import { test } from "node:test";
import { createClient } from "redis4";
import { RedisFencedResource, RedisStore } from "tenure/redis";
import { checkStoreContract } from "tenure/testing";
import { closeAfter, freshKey, startRedis, useServer } from "./helpers.mjs";

const redis = useServer(startRedis);

test("redis_v4_client_keeps_the_store_contract_and_fences", async (t) => {
  const client = createClient({ url: redis().url, disableOfflineQueue: true });
  client.on("error", () => {});
  await client.connect();
  closeAfter(() => client.quit());
  const report = await checkStoreContract(() => new RedisStore({ client }), { ttlMs: 300, t });
  assert.ok(report.ok, report.text);
  const resource = new RedisFencedResource({ client, key: freshKey("v4") });
  assert.deepEqual(await resource.write(5n, "a"), { accepted: true, token: 5n });
  assert.deepEqual(await resource.write(4n, "b"), { accepted: false, reason: "stale fencing token", presented: 4n, required: 5n });
  assert.deepEqual(await resource.read(), { highestToken: 5n, value: "a" });
});

// The story: a v4 client made with `legacyMode: true` (the callback API older libraries need)
// was taken, and its callback sendCommand answered undefined: every request failed as an
// unreadable reply while the script still ran on Redis (a lease granted that nobody knew of),
// and a NOSCRIPT went to the client's 'error' event. Its promise API is `client.v4`, which the store now uses; unconnected, it is
// refused like any client.
test("redis_v4_legacy_mode_client_works_through_its_promise_api", async () => {
  const client = createClient({ url: redis().url, disableOfflineQueue: true, legacyMode: true });
  client.on("error", () => {});
  assert.throws(() => new RedisStore({ client }), { code: "ERR_STORE_OPTIONS", message: /^new RedisStore\(options\): options\.client is not connected/ });
  await client.connect();
  closeAfter(() => client.v4.quit());
  const store = new RedisStore({ client });
  const key = freshKey("legacy");
  const a = { key, holder: "a", session: "s" };
  const granted = await store.send({ type: "Acquire", ...a, ttl_ms: 1_000 });
  assert.deepEqual(granted, { type: "Granted", token: 1n, ttl_ms: 1_000 });
  const held = await store.send({ type: "Acquire", key, holder: "b", session: "s", ttl_ms: 1_000 });
  assert.equal(held.type, "Held");
  assert.equal(held.holder, "a");
  assert.deepEqual(await store.send({ type: "Renew", ...a, token: 1n, ttl_ms: 1_000 }), { type: "Renewed", token: 1n, ttl_ms: 1_000 });
  assert.deepEqual(await store.send({ type: "Release", ...a, token: 1n }), { type: "Released" });
  const resource = new RedisFencedResource({ client, key });
  assert.deepEqual(await resource.write(2n, "v"), { accepted: true, token: 2n });
  assert.deepEqual(await resource.read(), { highestToken: 2n, value: "v" });
});
