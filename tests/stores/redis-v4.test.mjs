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
