// RedisStore and RedisFencedResource against a real redis-server the test starts: the
// contract's cases one request at a time, races between concurrent requests, Redis's own
// expiry at whole milliseconds, and failures surfacing as rejected promises (design rule 9).
import assert from "node:assert/strict";
import { test } from "node:test";
import { createClient } from "redis";
import { RedisFencedResource, RedisStore } from "tenure/redis";
import { checkStoreContract, runDifferential } from "tenure/testing";
import { assertLoneSurrogatesRefused, freshKey, redisClient, show, sleep, startRedis, useServer } from "./helpers.mjs";

const redis = useServer(startRedis);
const lease = (key, holder, session = `${holder}-session`) => ({ key, holder, session });

test("redis_tokens_grow_by_one_only_on_a_new_grant", async () => {
  const store = new RedisStore({ client: await redisClient(redis()) });
  await store.migrate();
  const key = freshKey();
  const a = lease(key, "a");
  assert.deepEqual(await store.send({ type: "Acquire", ...a, ttl_ms: 5_000 }), { type: "Granted", token: 1n, ttl_ms: 5_000 });
  // the holder asks again (its reply was lost): same token, extended
  assert.deepEqual(await store.send({ type: "Acquire", ...a, ttl_ms: 5_000 }), { type: "Granted", token: 1n, ttl_ms: 5_000 });
  const held = await store.send({ type: "Acquire", ...lease(key, "b"), ttl_ms: 5_000 });
  assert.equal(held.type, "Held");
  assert.equal(held.holder, "a");
  assert.ok(held.remaining_ms > 4_000 && held.remaining_ms <= 5_000, `remaining ${held.remaining_ms}`);
  // refused acquires and renewals moved nothing: the next grant is 2
  assert.deepEqual(await store.send({ type: "Renew", ...a, token: 1n, ttl_ms: 5_000 }), { type: "Renewed", token: 1n, ttl_ms: 5_000 });
  assert.deepEqual(await store.send({ type: "Release", ...a, token: 1n }), { type: "Released" });
  assert.deepEqual(await store.send({ type: "Release", ...a, token: 1n }), { type: "Released" }, "releasing twice is harmless");
  assert.deepEqual(await store.send({ type: "Acquire", ...lease(key, "b"), ttl_ms: 5_000 }), { type: "Granted", token: 2n, ttl_ms: 5_000 });
  // same holder, new session (a restarted process with the same nodeId): kept out (design rule 8)
  const clash = await store.send({ type: "Acquire", ...lease(key, "b", "other"), ttl_ms: 5_000 });
  assert.equal(clash.type, "Held");
  assert.equal(clash.holder, "b");
});

test("redis_renew_and_release_check_holder_session_and_token", async () => {
  const store = new RedisStore({ client: await redisClient(redis()) });
  const key = freshKey();
  const a = lease(key, "a");
  await store.send({ type: "Acquire", ...a, ttl_ms: 5_000 });
  const rejected = (reason) => ({ type: "Rejected", reason });
  assert.deepEqual(await store.send({ type: "Renew", ...lease(key, "b"), token: 1n, ttl_ms: 5_000 }), rejected("NotHolder"));
  assert.deepEqual(await store.send({ type: "Renew", ...lease(key, "a", "x"), token: 1n, ttl_ms: 5_000 }), rejected("NotHolder"));
  assert.deepEqual(await store.send({ type: "Renew", ...a, token: 2n, ttl_ms: 5_000 }), rejected("TokenMismatch"));
  assert.deepEqual(await store.send({ type: "Renew", ...a, token: 2n ** 64n - 1n, ttl_ms: 5_000 }), rejected("TokenMismatch"));
  assert.deepEqual(await store.send({ type: "Release", ...lease(key, "b"), token: 1n }), rejected("NotHolder"));
  assert.deepEqual(await store.send({ type: "Release", ...a, token: 7n }), rejected("TokenMismatch"));
  assert.deepEqual(await store.send({ type: "Renew", ...lease(freshKey(), "a"), token: 1n, ttl_ms: 5_000 }), rejected("NotHolder"));
  // the lease is still a's, untouched by the refusals
  assert.deepEqual(await store.send({ type: "Renew", ...a, token: 1n, ttl_ms: 5_000 }), { type: "Renewed", token: 1n, ttl_ms: 5_000 });
});

test("redis_expiry_is_redis_clock_at_whole_milliseconds", async () => {
  const client = await redisClient(redis());
  const store = new RedisStore({ client });
  const key = freshKey();
  const a = lease(key, "a");
  // a fractional ttl is rounded up to Redis's whole ms and reported back as granted
  assert.deepEqual(await store.send({ type: "Acquire", ...a, ttl_ms: 150.25 }), { type: "Granted", token: 1n, ttl_ms: 151 });
  const pttl = Number(await client.sendCommand(["PTTL", `tenure:{${key}}:live`]));
  assert.ok(pttl > 100 && pttl <= 151, `PTTL ${pttl}`);
  await sleep(250);
  assert.deepEqual(await store.send({ type: "Renew", ...a, token: 1n, ttl_ms: 150 }), { type: "Rejected", reason: "Expired" });
  // the same holder after expiry is a new grant: a new token
  assert.deepEqual(await store.send({ type: "Acquire", ...a, ttl_ms: 150 }), { type: "Granted", token: 2n, ttl_ms: 150 });
  // a renewal extends to now + ttl on Redis's clock
  await sleep(100);
  assert.equal((await store.send({ type: "Renew", ...a, token: 2n, ttl_ms: 300 })).type, "Renewed");
  await sleep(200);
  assert.equal((await store.send({ type: "Acquire", ...lease(key, "b"), ttl_ms: 150 })).type, "Held", "renewed at +100 for 300 ms: valid at +300");
});

test("redis_concurrent_acquires_grant_exactly_one", async () => {
  const client = await redisClient(redis());
  const store = new RedisStore({ client });
  const key = freshKey();
  for (let round = 1; round <= 5; round++) {
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.send({ type: "Acquire", ...lease(key, `h${i}`), ttl_ms: 5_000 })),
    );
    const granted = replies.filter((r) => r.type === "Granted");
    assert.equal(granted.length, 1, show(replies));
    assert.equal(granted[0].token, BigInt(round), "no token skipped by the refused acquires");
    const winner = replies.indexOf(granted[0]);
    assert.equal((await store.send({ type: "Release", ...lease(key, `h${winner}`), token: BigInt(round) })).type, "Released");
  }
});

test("redis_tokens_exhausted_at_the_counter_limit", async () => {
  const client = await redisClient(redis());
  const store = new RedisStore({ client });
  const key = freshKey();
  await client.sendCommand(["HSET", `tenure:{${key}}:lease`, "token", String(2n ** 63n - 2n)]);
  assert.deepEqual(await store.send({ type: "Acquire", ...lease(key, "a"), ttl_ms: 100 }), {
    type: "Granted",
    token: 2n ** 63n - 1n,
    ttl_ms: 100,
  });
  await sleep(150);
  assert.deepEqual(await store.send({ type: "Acquire", ...lease(key, "b"), ttl_ms: 100 }), { type: "Rejected", reason: "TokensExhausted" });
});

test("redis_bad_requests_reject_with_a_code_and_reach_no_server", async () => {
  const store = new RedisStore({ client: await redisClient(redis()) });
  const key = freshKey();
  const cases = [
    [undefined, TypeError],
    [{ type: "Steal", key, holder: "a", session: "s" }, TypeError],
    [{ type: "Acquire", key, holder: "a", session: "s", ttl: 100 }, TypeError],
    [{ type: "Acquire", key, holder: 1, session: "s", ttl_ms: 100 }, TypeError],
    [{ type: "Acquire", key, holder: "a", session: "s", ttl_ms: -1 }, RangeError],
    [{ type: "Acquire", key, holder: "a", session: "s", ttl_ms: Number.NaN }, RangeError],
    [{ type: "Renew", key, holder: "a", session: "s", token: 1, ttl_ms: 100 }, TypeError],
    [{ type: "Release", key, holder: "a", session: "s", token: -1n }, RangeError],
    [{ type: "Acquire", key: "", holder: "a", session: "s", ttl_ms: 100 }, RangeError],
    // Past the lease key limit LeaderElection and LeaseStore hold to (65536 UTF-16 code units).
    [{ type: "Acquire", key: "k".repeat(70_000), holder: "a", session: "s", ttl_ms: 100 }, RangeError],
    [{ type: "Acquire", key, holder: "h".repeat(65_537), session: "s", ttl_ms: 100 }, RangeError],
  ];
  for (const [request, Kind] of cases) {
    await assert.rejects(store.send(request), (err) => err instanceof Kind && err.code === "ERR_STORE_REQUEST", show(request));
  }
  assert.equal((await store.send({ type: "Acquire", key, holder: "a", session: "s", ttl_ms: 100 })).token, 1n, "nothing reached Redis");
  assert.throws(() => new RedisStore({}), { code: "ERR_STORE_OPTIONS" });
  assert.throws(() => new RedisStore({ client: {} }), { code: "ERR_STORE_OPTIONS" });
});

// The story: "k\uD800" and "k\uDBFF" were one lease on Redis (node-redis writes UTF-8, where
// both become "k\uFFFD"): the second acquire was Held by the first holder.
test("redis_lone_surrogates_in_keys_prefixes_and_values_are_refused", async () => {
  const client = await redisClient(redis());
  await assertLoneSurrogatesRefused(new RedisStore({ client }), "RedisStore");
  assert.throws(() => new RedisStore({ client, prefix: "t\uDC00:" }), (err) => {
    assert.equal(err.code, "ERR_STORE_OPTIONS");
    assert.match(err.message, /^new RedisStore\(options\): options\.prefix "t\\udc00:" is not well-formed Unicode: it has a lone UTF-16 surrogate, \\uDC00 at index 1/);
    return true;
  });
  assert.throws(() => new RedisFencedResource({ client, key: "r\uD800" }), { code: "ERR_STORE_OPTIONS", message: /options\.key "r\\ud800" is not well-formed Unicode/ });
  const resource = new RedisFencedResource({ client, key: freshKey("lone-value") });
  await assert.rejects(resource.write(1n, "v\uD800"), (err) => {
    assert.ok(err instanceof TypeError);
    assert.equal(err.code, "ERR_VALUE_TYPE");
    assert.match(err.message, /^RedisFencedResource\.write: the value "v\\ud800" is not well-formed Unicode/);
    return true;
  });
  assert.deepEqual(await resource.read(), { highestToken: 0n, value: undefined }, "nothing was written");
  assert.deepEqual(await resource.write(1n, "v\u{1F600}"), { accepted: true, token: 1n });
  assert.equal((await resource.read()).value, "v\u{1F600}", "a surrogate pair round-trips");
});

// The story: a client passed before `await client.connect()` was taken, and every request then
// failed with node-redis's "The client is closed", far from the constructor; v5's callback
// wrapper client.legacy() was taken too, and its sendCommand answered undefined, never a reply.
// The store does not own the connection (README: "pass your own connected client"), so both
// are refused at construction, in words that say what to do.
test("redis_store_refuses_an_unconnected_or_closed_client_and_the_callback_wrapper", async () => {
  const fresh = createClient({ url: redis().url, disableOfflineQueue: true });
  fresh.on("error", () => {});
  for (const make of [(client) => new RedisStore({ client }), (client) => new RedisFencedResource({ client, key: "k" })]) {
    assert.throws(() => make(fresh), (err) => {
      assert.ok(err instanceof TypeError);
      assert.equal(err.code, "ERR_STORE_OPTIONS");
      assert.match(err.message, /^new Redis(Store|FencedResource)\(options\): options\.client is not connected \(its isOpen is false\): call `await client\.connect\(\)` first/);
      return true;
    });
    assert.throws(() => make(fresh.legacy()), (err) => {
      assert.equal(err.code, "ERR_STORE_OPTIONS");
      assert.match(err.message, /options\.client is node-redis's callback API \(client\.legacy\(\)\), which answers no promise: pass the client itself/);
      return true;
    });
  }
  await fresh.connect();
  const store = new RedisStore({ client: fresh });
  const key = freshKey("connected");
  assert.equal((await store.send({ type: "Acquire", ...lease(key, "a"), ttl_ms: 1_000 })).type, "Granted", "connected: it works");
  await fresh.quit();
  assert.throws(() => new RedisStore({ client: fresh }), { code: "ERR_STORE_OPTIONS", message: /is not connected \(its isOpen is false\)/ }, "closed again");
});

test("redis_failures_reject_with_err_store_and_the_cause", async () => {
  const server = await startRedis();
  const client = await redisClient(server);
  const store = new RedisStore({ client });
  const key = freshKey();
  // another type at the key: Redis refuses the script, the adapter does not pretend
  await client.sendCommand(["SET", `tenure:{${key}}:lease`, "not a hash"]);
  await assert.rejects(store.send({ type: "Acquire", ...lease(key, "a"), ttl_ms: 100 }), (err) => {
    assert.equal(err.code, "ERR_STORE");
    assert.match(err.message, /RedisStore: Acquire on key .* failed: .*WRONGTYPE/);
    assert.equal(err.request.type, "Acquire");
    assert.ok(err.cause);
    return true;
  });
  await server.stop();
  await assert.rejects(store.send({ type: "Acquire", ...lease(freshKey(), "a"), ttl_ms: 100 }), { code: "ERR_STORE" });
});

// The story: storeError put the whole key in the message, so a 65,536-character key made
// 65 KB messages, several a second while the store was down. The message shows the key cut
// to 60 characters, as every other value in the adapters' messages; err.request keeps it whole.
test("redis_store_errors_show_a_long_key_shortened_and_keep_it_whole_on_the_request", async () => {
  const client = await redisClient(redis());
  const store = new RedisStore({ client });
  const key = `${freshKey("long")}-${"k".repeat(65_536 - 40)}`.slice(0, 65_536);
  await client.sendCommand(["SET", `tenure:{${key}}:lease`, "not a hash"]);
  await assert.rejects(store.send({ type: "Acquire", ...lease(key, "a"), ttl_ms: 1_000 }), (err) => {
    assert.equal(err.code, "ERR_STORE");
    assert.ok(err.message.startsWith(`RedisStore: Acquire on key "${key.slice(0, 60)}..." failed: `), err.message.slice(0, 200));
    assert.ok(err.message.length < 500, `${err.message.length} characters`);
    assert.equal(err.request.key, key, "the whole key is on the error's request");
    return true;
  });
  await client.sendCommand(["DEL", `tenure:{${key}}:lease`]);
});

// The story: RedisFencedResource.prototype.write.call({}, 1n, "x") rejected with the engine's
// uncoded "Receiver must be an instance of class RedisFencedResource", where the README
// documents ERR_THIS_TYPE for a member applied to an object its class did not make.
test("redis_adapter_methods_on_a_foreign_this_reject_with_err_this_type", async () => {
  const client = await redisClient(redis());
  const store = new RedisStore({ client });
  const fenced = new RedisFencedResource({ client, key: freshKey("this") });
  const args = { send: [{ type: "Acquire", ...lease("k", "a"), ttl_ms: 1_000 }], write: [1n, "x"], establish: [1n], check: [1n] };
  for (const [cls, other] of [[RedisStore, fenced], [RedisFencedResource, store]]) {
    const members = Object.getOwnPropertyNames(cls.prototype).filter((m) => m !== "constructor");
    assert.ok(members.length >= 2, members.join());
    for (const member of members) {
      for (const self of [{}, undefined, Object.create(cls.prototype), other]) {
        const answer = cls.prototype[member].call(self, ...(args[member] ?? []));
        assert.ok(answer instanceof Promise, `${cls.name}.${member} answers a promise`);
        await assert.rejects(answer, (err) => {
          assert.ok(err instanceof TypeError, String(err));
          assert.equal(err.code, "ERR_THIS_TYPE", err.message);
          assert.ok(err.message.startsWith(`${cls.name}.${member}: \`this\` is not a ${cls.name}`), err.message);
          return true;
        });
      }
    }
  }
  // instances still work
  await store.migrate();
  const granted = await store.send({ type: "Acquire", ...lease(freshKey("this"), "a"), ttl_ms: 1_000 });
  assert.equal(granted.type, "Granted", show(granted));
  assert.deepEqual(await fenced.write(granted.token, "x"), { accepted: true, token: granted.token });
  assert.deepEqual(await fenced.read(), { highestToken: granted.token, value: "x" });
});

test("redis_fenced_resource_accepts_tokens_at_or_above_the_highest", async () => {
  const client = await redisClient(redis());
  const resource = new RedisFencedResource({ client, key: freshKey("orders") });
  await resource.migrate();
  assert.deepEqual(await resource.read(), { highestToken: 0n, value: undefined });
  assert.deepEqual(await resource.write(33n, "from leader 1"), { accepted: true, token: 33n });
  assert.deepEqual(await resource.write(33n, "again from leader 1"), { accepted: true, token: 33n });
  assert.deepEqual(await resource.establish(34n), { accepted: true, token: 34n });
  const stale = { accepted: false, reason: "stale fencing token", presented: 33n, required: 34n };
  assert.deepEqual(await resource.write(33n, "late, from leader 1"), stale);
  assert.deepEqual(await resource.check(33n), stale);
  assert.deepEqual(await resource.check(34n), { accepted: true, token: 34n });
  assert.deepEqual(await resource.read(), { highestToken: 34n, value: "again from leader 1" });
  // every u64 digit counts (no Lua doubles): 2^64 - 2 is below 2^64 - 1
  assert.equal((await resource.establish(2n ** 64n - 1n)).accepted, true);
  assert.deepEqual(await resource.write(2n ** 64n - 2n, "x"), {
    accepted: false,
    reason: "stale fencing token",
    presented: 2n ** 64n - 2n,
    required: 2n ** 64n - 1n,
  });
  await assert.rejects(resource.write(5, "x"), { code: "ERR_TOKEN_TYPE" });
  await assert.rejects(resource.write(2n ** 64n, "x"), { code: "ERR_TOKEN_RANGE" });
  await assert.rejects(resource.write(40n, { not: "a string" }), { code: "ERR_VALUE_TYPE" });
});

test("redis_fenced_resource_under_concurrent_writers_never_goes_back", async () => {
  const client = await redisClient(redis());
  const resource = new RedisFencedResource({ client, key: freshKey("race") });
  const tokens = Array.from({ length: 200 }, (_, i) => BigInt(1 + ((i * 7919) % 50)));
  const results = await Promise.all(tokens.map((t) => resource.write(t, `w${t}`)));
  // Redis runs scripts one at a time, in the order they arrive on the connection: replay it.
  let highest = 0n;
  results.forEach((result, i) => {
    if (tokens[i] >= highest) {
      assert.deepEqual(result, { accepted: true, token: tokens[i] });
      highest = tokens[i];
    } else {
      assert.deepEqual(result, { accepted: false, reason: "stale fencing token", presented: tokens[i], required: highest });
    }
  });
  assert.equal((await resource.read()).highestToken, highest);
});

test("redis_store_keeps_the_store_contract", async (t) => {
  const client = await redisClient(redis());
  // Redis expires at whole milliseconds: clockResolutionMs 1
  const report = await checkStoreContract(() => new RedisStore({ client }), { ttlMs: 300, clockResolutionMs: 1, t });
  assert.ok(report.ok, report.text);
});

test("redis_store_differential_against_lease_store_finds_no_breach", async () => {
  const client = await redisClient(redis());
  const diff = await runDifferential(() => new RedisStore({ client }), {
    steps: 120,
    ttlMs: 150,
    // The store's clock is 1 ms (Redis) or 1 us (PostgreSQL), but on a shared two-core machine
    // a request can reach the server several ms after the kit read its clock: 10 ms of
    // tolerance around each expiry, so scheduling delays count as clock, not as breaches.
    clockResolutionMs: 10,
  });
  assert.ok(diff.ok, `seed ${diff.seed}n: ${show(diff.counts)}\n${show(diff.differences.filter((d) => d.kind === "breach"))}`);
  // Redis numbers exactly +1: a numbering difference may only follow a clock difference (a
  // lease that one side saw expire a moment before the other shifts every later token).
  const firstClock = diff.differences.find((d) => d.kind === "clock")?.step ?? Infinity;
  const firstNumbering = diff.differences.find((d) => d.kind === "numbering")?.step ?? Infinity;
  assert.ok(firstNumbering > firstClock || firstNumbering === Infinity, `seed ${diff.seed}n: ${show(diff.differences)}`);
});

test("adapter_options_are_read_strictly", () => {
  const client = { sendCommand: async () => [] };
  assert.throws(() => new RedisStore({ client, keyPrefix: "x" }), { code: "ERR_UNKNOWN_KEY", message: /unknown option "keyPrefix"; known: client, prefix/ });
  assert.throws(() => new RedisFencedResource({ client, key: "k", ttl: 1 }), { code: "ERR_UNKNOWN_KEY" });
  assert.throws(() => new RedisStore({ client, prefix: 5 }), { code: "ERR_STORE_OPTIONS" });
  assert.throws(() => new RedisFencedResource({ client, key: "" }), { code: "ERR_STORE_OPTIONS" });
});
