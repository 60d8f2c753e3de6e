// EtcdStore against a real etcd the test starts: a lease plus a create-if-absent transaction,
// the token is the key's create revision (strictly increasing, not +1), ttls in whole
// seconds reported as granted, refused acquires' leases revoked (design rule 9).
import assert from "node:assert/strict";
import { test } from "node:test";
import { EtcdStore } from "tenure/etcd";
import { checkStoreContract, runDifferential } from "tenure/testing";
import { assertLoneSurrogatesRefused, etcdClient, freshKey, show, sleep, startEtcd, useServer } from "./helpers.mjs";

const etcd = useServer(startEtcd);
const lease = (key, holder, session = `${holder}-session`) => ({ key, holder, session });
const rejected = (reason) => ({ type: "Rejected", reason });
// Lease ids alive now; other tests' short leases may lapse meanwhile, so compare sets of ids.
const leaseIds = async (client) => new Set((await client.leaseClient.leaseLeases({})).leases.map((l) => String(l.ID)));
const newLeases = async (client, before) => [...(await leaseIds(client))].filter((id) => !before.has(id));

test("etcd_tokens_are_create_revisions_that_only_grow_on_a_new_grant", async () => {
  const client = etcdClient(etcd().hosts);
  const store = new EtcdStore({ client });
  await store.migrate();
  const key = freshKey();
  const a = lease(key, "a");
  const first = await store.send({ type: "Acquire", ...a, ttl_ms: 5_000 });
  assert.equal(first.type, "Granted");
  const created = await client.get(`tenure/${key}`).exec();
  assert.equal(first.token, BigInt(created.kvs[0].create_revision), "the token is the key's create revision");
  assert.deepEqual(await store.send({ type: "Acquire", ...a, ttl_ms: 5_000 }), first, "re-grant: the same token");
  const held = await store.send({ type: "Acquire", ...lease(key, "b"), ttl_ms: 5_000 });
  assert.equal(held.type, "Held");
  assert.equal(held.holder, "a");
  assert.ok(held.remaining_ms >= 3_000 && held.remaining_ms <= 5_000, show(held));
  // unrelated writes move the cluster's revision: tokens are not consecutive
  await client.put("unrelated").value("x");
  for (let i = 0; i < 3; i++) {
    assert.deepEqual(await store.send({ type: "Renew", ...a, token: first.token, ttl_ms: 5_000 }), { type: "Renewed", token: first.token, ttl_ms: 5_000 });
  }
  assert.deepEqual(await store.send({ type: "Release", ...a, token: first.token }), { type: "Released" });
  assert.deepEqual(await store.send({ type: "Release", ...a, token: first.token }), { type: "Released" });
  const second = await store.send({ type: "Acquire", ...a, ttl_ms: 5_000 });
  assert.equal(second.type, "Granted");
  assert.ok(second.token > first.token + 1n, `new grant after release: ${second.token} > ${first.token} (+ the unrelated put)`);
  const clash = await store.send({ type: "Acquire", ...lease(key, "a", "other"), ttl_ms: 5_000 });
  assert.equal(clash.type, "Held", "same holder, another session: kept out (design rule 8)");
});

test("etcd_ttl_rounds_up_to_whole_seconds_and_is_reported_as_granted", async () => {
  const client = etcdClient(etcd().hosts);
  const store = new EtcdStore({ client });
  const key = freshKey();
  assert.deepEqual(await store.send({ type: "Acquire", ...lease(key, "a"), ttl_ms: 1_200 }), {
    type: "Granted",
    token: (await store.send({ type: "Acquire", ...lease(key, "a"), ttl_ms: 1_200 })).token,
    ttl_ms: 2_000,
  });
  const other = freshKey();
  // below etcd's shortest lease (1.5 x election timeout, rounded up: 1 s here) etcd raises it
  const tiny = await store.send({ type: "Acquire", ...lease(other, "a"), ttl_ms: 100 });
  assert.equal(tiny.type, "Granted");
  assert.equal(tiny.ttl_ms, 1_000);
  // a renewal reports the lease's own ttl: etcd cannot change it
  assert.equal((await store.send({ type: "Renew", ...lease(other, "a"), token: tiny.token, ttl_ms: 5_000 })).ttl_ms, 1_000);
});

test("etcd_lease_expiry_ends_the_lease_and_renew_fails", async () => {
  const client = etcdClient(etcd().hosts);
  const store = new EtcdStore({ client });
  const key = freshKey();
  const a = lease(key, "a");
  const granted = await store.send({ type: "Acquire", ...a, ttl_ms: 1_000 });
  assert.equal(granted.ttl_ms, 1_000);
  assert.equal((await store.send({ type: "Acquire", ...lease(key, "b"), ttl_ms: 1_000 })).type, "Held");
  // etcd checks lease expiry twice a second: wait ttl + 0.5 s + slack
  await sleep(1_800);
  assert.deepEqual(await store.send({ type: "Renew", ...a, token: granted.token, ttl_ms: 1_000 }), rejected("Expired"));
  const next = await store.send({ type: "Acquire", ...lease(key, "b"), ttl_ms: 1_000 });
  assert.equal(next.type, "Granted");
  assert.ok(next.token > granted.token);
});

test("etcd_renew_and_release_check_holder_session_and_token", async () => {
  const client = etcdClient(etcd().hosts);
  const store = new EtcdStore({ client });
  const key = freshKey();
  const a = lease(key, "a");
  const { token } = await store.send({ type: "Acquire", ...a, ttl_ms: 5_000 });
  assert.deepEqual(await store.send({ type: "Renew", ...lease(key, "b"), token, ttl_ms: 5_000 }), rejected("NotHolder"));
  assert.deepEqual(await store.send({ type: "Renew", ...lease(key, "a", "x"), token, ttl_ms: 5_000 }), rejected("NotHolder"));
  assert.deepEqual(await store.send({ type: "Renew", ...a, token: token + 1n, ttl_ms: 5_000 }), rejected("TokenMismatch"));
  assert.deepEqual(await store.send({ type: "Release", ...lease(key, "b"), token }), rejected("NotHolder"));
  assert.deepEqual(await store.send({ type: "Release", ...a, token: token + 1n }), rejected("TokenMismatch"));
  assert.deepEqual(await store.send({ type: "Release", ...a, token: 2n ** 64n - 1n }), rejected("TokenMismatch"));
  assert.deepEqual(await store.send({ type: "Renew", ...a, token, ttl_ms: 5_000 }), { type: "Renewed", token, ttl_ms: 5_000 });
});

test("etcd_refused_acquires_leave_no_lease_behind", async () => {
  const client = etcdClient(etcd().hosts);
  const store = new EtcdStore({ client });
  const key = freshKey();
  const before = await leaseIds(client);
  const replies = await Promise.all(
    Array.from({ length: 12 }, (_, i) => store.send({ type: "Acquire", ...lease(key, `h${i}`), ttl_ms: 5_000 })),
  );
  assert.equal(replies.filter((r) => r.type === "Granted").length, 1, show(replies));
  const left = await newLeases(client, before);
  assert.equal(left.length, 1, `only the winner's lease is left: ${left}`);
  const current = await client.get(`tenure/${key}`).exec();
  assert.equal(String(current.kvs[0].lease), left[0], "and it is the one the key is attached to");
  // the winner asking again moves its key onto a fresh lease and revokes the old one
  const winner = replies.findIndex((r) => r.type === "Granted");
  await store.send({ type: "Acquire", ...lease(key, `h${winner}`), ttl_ms: 5_000 });
  const moved = await newLeases(client, before);
  assert.equal(moved.length, 1, `one lease after the re-grant: ${moved}`);
  assert.notEqual(moved[0], left[0], "a fresh one");
  await store.send({ type: "Release", ...lease(key, `h${winner}`), token: replies[winner].token });
  assert.deepEqual(await newLeases(client, before), [], "release revokes the lease");
});

test("etcd_failures_reject_with_err_store", async () => {
  const server = await startEtcd();
  const client = etcdClient(server.hosts);
  const store = new EtcdStore({ client, timeoutMs: 1_000 });
  assert.equal((await store.send({ type: "Acquire", ...lease(freshKey(), "a"), ttl_ms: 1_000 })).type, "Granted");
  await server.stop();
  const started = performance.now();
  await assert.rejects(store.send({ type: "Acquire", ...lease(freshKey(), "a"), ttl_ms: 1_000 }), (err) => {
    assert.equal(err.code, "ERR_STORE");
    assert.match(err.message, /^EtcdStore: Acquire on key .* failed/);
    return true;
  });
  assert.ok(performance.now() - started < 5_000, "bounded by timeoutMs, not hanging");
  assert.throws(() => new EtcdStore({ client: {} }), { code: "ERR_STORE_OPTIONS" });
  assert.throws(() => new EtcdStore({ client, timeoutMs: 0 }), { code: "ERR_STORE_OPTIONS" });
  await assert.rejects(store.send({ type: "Renew", ...lease("k", "a"), token: 1, ttl_ms: 100 }), { code: "ERR_STORE_REQUEST" });
});

// The story: `new EtcdStore({ client, timeoutMs: 1e15 })` was accepted; the first request then
// threw from gRPC ("Deadline is too far in the future"), and the keepalive's setTimeout of
// 1e15 ms fired at once. A timeout is a whole number of ms up to the longest timer (2^31 - 1).
test("etcd_timeout_ms_is_refused_past_the_longest_timer_and_works_at_it", async () => {
  const client = etcdClient(etcd().hosts);
  const range = /^new EtcdStore\(options\): options\.timeoutMs must be a whole number of ms from 1 to 2147483647 \(about 24\.8 days, the longest timer JavaScript runs\), got /;
  for (const [timeoutMs, Kind, shown] of [
    [1e15, RangeError, "1000000000000000"],
    [2 ** 31, RangeError, "2147483648"],
    [1.5, RangeError, "1.5"],
    [Infinity, RangeError, "Infinity"],
    [NaN, RangeError, "NaN"],
    [0, RangeError, "0"],
    ["5000", TypeError, '"5000"'],
  ]) {
    assert.throws(() => new EtcdStore({ client, timeoutMs }), (err) => {
      assert.ok(err instanceof Kind, `${timeoutMs}: ${err}`);
      assert.equal(err.code, "ERR_STORE_OPTIONS");
      assert.match(err.message, range);
      assert.ok(err.message.endsWith(`got ${shown}`), err.message);
      return true;
    });
  }
  // The longest timer itself: every call (the keepalive's timer included) works.
  const store = new EtcdStore({ client, timeoutMs: 2 ** 31 - 1 });
  const a = lease(freshKey(), "a");
  const granted = await store.send({ type: "Acquire", ...a, ttl_ms: 2_000 });
  assert.equal(granted.type, "Granted", show(granted));
  assert.equal((await store.send({ type: "Renew", ...a, token: granted.token, ttl_ms: 2_000 })).type, "Renewed");
  assert.deepEqual(await store.send({ type: "Release", ...a, token: granted.token }), { type: "Released" });
});

test("etcd_lone_surrogates_in_keys_and_prefixes_are_refused", async () => {
  const client = etcdClient(etcd().hosts);
  await assertLoneSurrogatesRefused(new EtcdStore({ client }), "EtcdStore");
  assert.throws(() => new EtcdStore({ client, prefix: "t\uD800/" }), { code: "ERR_STORE_OPTIONS", message: /^new EtcdStore\(options\): options\.prefix "t\\ud800\/" is not well-formed Unicode/ });
});

// The story: `new EtcdStore({ client: etcd.namespace("app1/") })` type-checked, but the store
// called the Namespace's raw kv client, which does not apply the prefix: two apps in different
// namespaces shared one lease, and the key sat outside the namespace.
test("etcd_namespace_clients_keep_their_keys_under_the_namespace", async () => {
  const client = etcdClient(etcd().hosts);
  const app1 = new EtcdStore({ client: client.namespace("app1/") });
  const app2 = new EtcdStore({ client: client.namespace("app2/").namespace("x/") });
  const root = new EtcdStore({ client });
  const key = freshKey("ns");
  const a = lease(key, "app1-node");
  const granted = await app1.send({ type: "Acquire", ...a, ttl_ms: 5_000 });
  assert.equal(granted.type, "Granted", show(granted));
  const inside = await client.get(`app1/tenure/${key}`).exec();
  assert.equal(inside.kvs.length, 1, "the key is under the namespace");
  assert.equal(granted.token, BigInt(inside.kvs[0].create_revision), "the token is the namespaced key's create revision");
  assert.equal((await client.get(`tenure/${key}`).exec()).kvs.length, 0, "nothing outside it");
  assert.deepEqual(await client.namespace("app1/").getAll().prefix("tenure/ns-").keys(), [`tenure/${key}`], "the namespace sees it");
  // other namespaces (nested ones included) and the root are separate leases
  const other = await app2.send({ type: "Acquire", ...lease(key, "app2-node"), ttl_ms: 5_000 });
  assert.equal(other.type, "Granted", show(other));
  assert.equal((await client.get(`app2/x/tenure/${key}`).exec()).kvs.length, 1);
  assert.equal((await root.send({ type: "Acquire", ...lease(key, "root-node"), ttl_ms: 5_000 })).type, "Granted");
  // the compares (renew, re-grant, release) find the namespaced key
  assert.equal((await app1.send({ type: "Acquire", ...lease(key, "other"), ttl_ms: 5_000 })).type, "Held");
  assert.deepEqual(await app1.send({ type: "Acquire", ...a, ttl_ms: 5_000 }), granted, "re-grant: the same token");
  assert.deepEqual(await app1.send({ type: "Renew", ...a, token: granted.token, ttl_ms: 5_000 }), { type: "Renewed", token: granted.token, ttl_ms: 5_000 });
  assert.deepEqual(await app1.send({ type: "Release", ...a, token: other.token }), rejected("TokenMismatch"));
  assert.deepEqual(await app1.send({ type: "Release", ...a, token: granted.token }), { type: "Released" });
  assert.equal((await client.get(`app1/tenure/${key}`).exec()).kvs.length, 0, "release deletes the namespaced key");
  assert.equal((await client.get(`app2/x/tenure/${key}`).exec()).kvs.length, 1, "and leaves the other namespace's");
  assert.throws(() => new EtcdStore({ client: { kv: client.kv, leaseClient: client.leaseClient, prefix: "app1/" } }), {
    code: "ERR_STORE_OPTIONS",
    message: /^new EtcdStore\(options\): options\.client\.prefix \(an etcd3 namespace's prefix\) must be a Buffer, got "app1\/"/,
  });
});

// The story: EtcdStore.prototype.send.call({}, request) rejected with an ERR_STORE wrapping the
// engine's private-member TypeError, where the README documents ERR_THIS_TYPE.
test("etcd_store_methods_on_a_foreign_this_reject_with_err_this_type", async () => {
  const client = etcdClient(etcd().hosts);
  const store = new EtcdStore({ client });
  const request = { type: "Acquire", ...lease(freshKey("this"), "a"), ttl_ms: 1_000 };
  for (const member of ["migrate", "send"]) {
    for (const self of [{}, undefined, Object.create(EtcdStore.prototype), client]) {
      const answer = EtcdStore.prototype[member].call(self, request);
      assert.ok(answer instanceof Promise, `EtcdStore.${member} answers a promise`);
      await assert.rejects(answer, (err) => {
        assert.ok(err instanceof TypeError, String(err));
        assert.equal(err.code, "ERR_THIS_TYPE", err.message);
        assert.ok(err.message.startsWith(`EtcdStore.${member}: \`this\` is not an EtcdStore`), err.message);
        return true;
      });
    }
  }
  assert.equal((await store.send(request)).type, "Granted", "an instance still works");
});

test("etcd_store_keeps_the_store_contract", async (t) => {
  const client = etcdClient(etcd().hosts);
  // whole seconds, and etcd looks for expired leases every 500 ms
  const report = await checkStoreContract(() => new EtcdStore({ client }), {
    ttlMs: 1_000,
    numbering: "increasing",
    clockResolutionMs: 1_000,
    requestTimeoutMs: 5_000,
    t,
  });
  assert.ok(report.ok, report.text);
});

test("etcd_store_differential_against_lease_store_finds_no_breach", async () => {
  const client = etcdClient(etcd().hosts);
  // fewer steps than for Redis and PostgreSQL: each expiry here is a wait of seconds
  const diff = await runDifferential(() => new EtcdStore({ client }), {
    steps: 24,
    ttlMs: 1_000,
    numbering: "increasing",
    clockResolutionMs: 1_000,
    requestTimeoutMs: 5_000,
  });
  assert.ok(diff.ok, `seed ${diff.seed}n: ${show(diff.counts)}\n${show(diff.differences.filter((d) => d.kind === "breach"))}`);
});
