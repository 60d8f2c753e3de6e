// close() is the sources' shutdown(): stop contending, drain the work in flight (bounded),
// then release, so the next contender is elected on its first attempt instead of waiting out
// the ttl. And release() resolves once the store has answered or the request timed out.
import assert from "node:assert/strict";
import { test } from "node:test";
import { LeaderElection, MemoryStore } from "tenure";
import { FAST, Link, record, wait } from "./helpers/election.mjs";

// Where no deadline is timed, a ttl long enough that a loaded machine never loses the lease.
const CALM = { ttlMs: 3000 };

test("close_waits_for_work_in_flight_then_releases_and_the_next_contender_wins_at_once", async () => {
  const store = new MemoryStore({ latencyMs: 2 });
  const a = new LeaderElection({ store, key: "k", nodeId: "a", ...CALM });
  const rec = record(a);
  assert.equal((await a.campaign()).leader, true);
  const steps = [];
  const work = a.withLeadership(async ({ signal }) => {
    await wait(120);
    steps.push(["work done", signal.aborted]);
    return "shipped";
  });
  await wait(10);
  const closing = a.close().then(() => steps.push(["closed", store.holder("k")]));
  await wait(50);
  assert.equal(a.isLeader, true, "still leads (and renews) while the work drains");
  await assert.rejects(a.withLeadership(async () => 1), { code: "ERR_CLOSED" });
  await assert.rejects(a.campaign(), { code: "ERR_CLOSED" });
  assert.equal(await work, "shipped");
  await closing;
  assert.deepEqual(steps, [["work done", false], ["closed", undefined]]);
  assert.deepEqual(rec.events.map(([n, p]) => [n, p.reason]), [["elected", undefined], ["lost", "Released"]]);
  assert.equal(a.isLeader, false);
  assert.equal(a.state, "Stopped");

  const link = new Link(store);
  const b = new LeaderElection({ store: link, key: "k", nodeId: "b", ...CALM });
  const started = performance.now();
  assert.deepEqual(await b.campaign(), { leader: true, token: 2n });
  assert.equal(link.sent.Acquire, 1, "elected on its first Acquire: one round trip");
  assert.ok(performance.now() - started < CALM.ttlMs / 2);
  assert.equal(await a.close(), undefined, "close() again is the same, finished close");
  await b.close();
});

test("close_bounds_the_wait_and_aborts_work_that_ignores_it", async () => {
  const store = new MemoryStore();
  const a = new LeaderElection({ store, key: "k", nodeId: "a", ...CALM });
  await a.campaign();
  let reason;
  const stuck = a.withLeadership(({ signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve((reason = signal.reason)))));
  const started = performance.now();
  await a.close({ timeoutMs: 80 });
  const took = performance.now() - started;
  assert.ok(took >= 75 && took < 200, `close took ${took} ms`);
  await stuck;
  assert.equal(reason.code, "ERR_CLOSED");
  assert.equal(store.holder("k"), undefined);
});

test("close_while_campaigning_stops_contending_and_leaves_no_lease", async () => {
  const store = new MemoryStore();
  const a = new LeaderElection({ store, key: "k", nodeId: "a", ...CALM });
  const link = new Link(store);
  const b = new LeaderElection({ store: link, key: "k", nodeId: "b", ...FAST }); // retries every 30-50 ms
  await a.campaign();
  assert.deepEqual(await b.campaign(), { leader: false, holder: "a" });
  await b.close();
  const sent = link.sent.Acquire;
  await wait(FAST.ttlMs);
  assert.equal(link.sent.Acquire, sent, "no Acquire after close()");
  assert.equal(store.holder("k").holder, "a");
  await a.close();
});

test("a_grant_arriving_after_close_is_handed_back", async () => {
  const store = new MemoryStore({ latencyMs: 30 });
  const a = new LeaderElection({ store, key: "k", nodeId: "a", ...FAST });
  const campaign = a.campaign(); // its Acquire is granted while close() runs
  await wait(5);
  await a.close();
  assert.deepEqual(await campaign, { leader: false, holder: undefined });
  await wait(120);
  assert.equal(store.holder("k"), undefined, "the orphaned grant was released");
});

test("release_resolves_when_the_store_answers_or_the_request_times_out", async () => {
  const store = new MemoryStore();
  const link = new Link(store);
  const a = new LeaderElection({ store: link, key: "k", nodeId: "a", ...FAST });
  a.on("error", () => {});
  await a.campaign();
  await a.release();
  assert.equal(store.holder("k"), undefined);
  assert.equal(a.state, "Stopped");
  assert.equal((await a.campaign()).leader, true, "campaign() again after release()");
  link.mode = "silent";
  const started = performance.now();
  await a.release();
  const took = performance.now() - started;
  assert.ok(took >= FAST.requestTimeoutMs - 2 && took < FAST.requestTimeoutMs + 150, `release took ${took} ms against a silent store`);
  link.mode = "up";
  await a.close();
});

test("an_idle_election_does_not_keep_node_running", async () => {
  const { spawnSync } = await import("node:child_process");
  const code = `import { LeaderElection, MemoryStore } from "tenure";
const e = new LeaderElection({ store: new MemoryStore(), key: "k", ttlMs: 60000 });
const r = await e.campaign();
console.log(r.leader);`;
  const started = performance.now();
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8", timeout: 10_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), "true");
  assert.ok(performance.now() - started < 5000, "the process exited although it still leads");
});

test("a leader whose withLeadership work has ended does not keep node running", async () => {
  // The timer is held for the work's signal while the work runs; the renewal it then waits
  // for is ttl/3 (20 s) away, so a timer left held past the work keeps the process 20 s.
  const { spawnSync } = await import("node:child_process");
  const code = `import { LeaderElection, MemoryStore } from "tenure";
const e = new LeaderElection({ store: new MemoryStore(), key: "k", ttlMs: 60000 });
await e.campaign();
console.log(await e.withLeadership(async ({ token }) => typeof token));`;
  const started = performance.now();
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8", timeout: 15_000 });
  assert.equal(r.status, 0, `exit status ${r.status} (null: still running at the 15 s limit) ${r.stderr}`);
  assert.equal(r.stdout.trim(), "bigint");
  assert.ok(performance.now() - started < 5000, "the process stayed alive after its work ended");
});

test("async_dispose_closes_the_election", async () => {
  // What `await using e = new LeaderElection(...)` calls at the end of its block.
  const store = new MemoryStore();
  const e = new LeaderElection({ store, key: "k", nodeId: "a", ...CALM });
  await e.campaign();
  assert.equal(store.holder("k").holder, "a");
  await e[Symbol.asyncDispose]();
  assert.equal(store.holder("k"), undefined);
  assert.equal(e.state, "Stopped");
});

test("after close(), assertLeadership() throws ERR_CLOSED as campaign() and withLeadership() reject, not 'campaign() again'", async () => {
  const store = new MemoryStore();
  const e = new LeaderElection({ store, key: "k", ...FAST });
  await e.campaign();
  assert.equal(typeof e.assertLeadership(), "bigint");
  await e.close();
  assert.throws(() => e.assertLeadership(), (err) => {
    assert.equal(err.name, "LeadershipExpiredError");
    assert.equal(err.code, "ERR_CLOSED");
    assert.match(err.message, /^assertLeadership: the election was closed/);
    return true;
  });
  await assert.rejects(e.campaign(), { code: "ERR_CLOSED" });
  await assert.rejects(e.withLeadership(async () => 1), { code: "ERR_CLOSED" });
  await store.close();
});

// A `lost` listener that campaigns again (a common "keep trying" loop) runs while close()
// releases the lease. That campaign() was taken as a new one: close() had not yet recorded
// that it was closing (its body ran before the promise was kept), so the call resolved
// `{ leader: false }` when close() finished, as if the election were still open. It is refused
// with ERR_CLOSED, as campaign() after close() is, and leaves no lease behind.
test("campaign() from a lost listener while close() runs rejects with ERR_CLOSED", async () => {
  const store = new MemoryStore();
  const e = new LeaderElection({ store, key: "k", ...FAST });
  await e.campaign();
  const again = [];
  e.on("lost", ({ reason }) => {
    const attempt = e.campaign();
    attempt.catch(() => {}); // awaited below
    again.push([reason, attempt]);
  });
  await e.close();
  assert.equal(again.length, 1, "lost is emitted once, by close()'s release");
  assert.equal(again[0][0], "Released");
  await assert.rejects(again[0][1], (err) => {
    assert.equal(err.code, "ERR_CLOSED");
    assert.match(err.message, /^campaign: the election was closed/);
    return true;
  });
  assert.equal(store.holder("k"), undefined, "no lease left behind");
  assert.equal(e.state, "Stopped");
  await store.close();
});

/**
 * Calls every member of `cls.prototype` on `instance` (getters read, methods through `calls`,
 * which must name each) and asserts none throws an error that `leaks` flags.
 */
async function everyMemberAnswers(cls, instance, calls, leaks) {
  for (const k of Object.getOwnPropertyNames(cls.prototype).filter((k) => k !== "constructor")) {
    const d = Object.getOwnPropertyDescriptor(cls.prototype, k);
    const call = d.get ? () => instance[k] : calls[k];
    assert.ok(call, `a call for ${cls.name}.${k} in this test`);
    let threw;
    try {
      await call();
    } catch (err) {
      threw = err;
    }
    assert.ok(!leaks(threw), `${cls.name}.${k} after close() threw ${threw?.code}: ${threw?.message}`);
  }
}

// After close() the machine is freed, but the election is not: every getter still answers
// (config included, from a copy kept before freeing) and every method answers in its own words,
// never with the freed machine's ERR_FREED "LeaseCandidate ... free() was called".
test("after_close_every_getter_answers_and_no_member_leaks_the_freed_machine", async () => {
  const store = new MemoryStore();
  const e = new LeaderElection({ store, key: "k", nodeId: "a", ...CALM });
  await e.campaign();
  const config = e.config;
  await e.close();
  assert.deepEqual(e.config, config, "config after close() is the config it had");
  assert.notEqual(e.config, e.config, "a fresh copy each time: a caller's edit does not stick");
  const leaks = (err) => err?.code === "ERR_FREED" || /LeaseCandidate|free\(\)/.test(String(err?.message));
  const calls = {
    campaign: () => e.campaign(),
    assertLeadership: () => e.assertLeadership(),
    withLeadership: () => e.withLeadership(async () => 1),
    reportFenced: () => e.reportFenced({ accepted: false, reason: "stale fencing token", presented: 1n, required: 2n }),
    release: () => e.release(),
    close: () => e.close(),
    metrics: () => e.metrics(),
    on: () => e.on("elected", () => {}),
    once: () => e.once("lost", () => {}),
    off: () => e.off("elected", () => {}),
  };
  await everyMemberAnswers(LeaderElection, e, calls, leaks);
  assert.equal(e.state, "Stopped");
  assert.equal(e.key, "k");
  assert.equal(e.nodeId, "a");

  const { ShardedElection } = await import("tenure");
  const s = new ShardedElection({ store, keys: ["x", "y"], nodeId: "w", ...CALM });
  s.start();
  await wait(50);
  await s.close();
  const shardCalls = { start: () => s.start(), close: () => s.close(), metrics: () => s.metrics(), election: () => s.election("x"), on: () => s.on("lost", () => {}), once: () => s.once("lost", () => {}), off: () => s.off("lost", () => {}) };
  await everyMemberAnswers(ShardedElection, s, shardCalls, leaks);
  for (const key of ["x", "y"]) {
    const one = s.election(key);
    assert.equal(one.config.key, key, `election("${key}").config after close()`);
    assert.equal(one.config.ttl_ms, CALM.ttlMs);
  }
});

test("a_closed_memory_store_refuses_reads_in_its_own_words", async () => {
  const store = new MemoryStore();
  await store.send({ type: "Acquire", key: "k", holder: "a", session: "s", ttl_ms: 1_000 });
  assert.equal(store.lastToken("k"), 1n);
  await store.close();
  // available and setAvailable too: they said ERR_FREED of the wasm LeaseStore inside.
  for (const [call, read] of [["holder", () => store.holder("k")], ["lastToken", () => store.lastToken("k")], ["keys", () => store.keys()], ["available", () => store.available], ["setAvailable", () => store.setAvailable(false)]]) {
    assert.throws(read, (e) => e.code === "ERR_CLOSED" && e.message === `MemoryStore.${call} after close(): a closed store keeps no leases`, call);
  }
  await assert.rejects(store.send({ type: "Acquire", key: "k", holder: "a", session: "s", ttl_ms: 1_000 }), { code: "ERR_CLOSED" });
});

test("memory_store_refuses_what_the_real_adapters_refuse", async () => {
  const store = new MemoryStore();
  const acquire = { type: "Acquire", key: "k", holder: "a", session: "s", ttl_ms: 1_000 };
  await assert.rejects(store.send({ ...acquire, key: "" }), { code: "ERR_STORE_REQUEST", message: "MemoryStore.send: request.key must not be empty" });
  for (const ttl_ms of [0, -0, -5, Number.NaN]) {
    await assert.rejects(store.send({ ...acquire, ttl_ms }), { code: "ERR_STORE_REQUEST", message: `MemoryStore.send: request.ttl_ms must be a number of ms above 0, got ${ttl_ms}` });
  }
  assert.equal(store.lastToken("k"), undefined, "nothing was granted");
  assert.equal((await store.send(acquire)).type, "Granted");
  await store.close();
});

// An empty holder or session was accepted by MemoryStore (and by the adapters' readRequest):
// granted, it made a lease no LeaderElection could hold (nodeId and session are never empty)
// and whose Held could not name its holder. Both refuse it now, with the same code and words.
test("memory_store_and_the_adapters_refuse_an_empty_holder_or_session", async () => {
  const { readRequest } = await import("../../pkg/stores/common.js");
  const store = new MemoryStore();
  const requests = [
    { type: "Acquire", key: "k", holder: "a", session: "s", ttl_ms: 1_000 },
    { type: "Renew", key: "k", holder: "a", session: "s", token: 1n, ttl_ms: 1_000 },
    { type: "Release", key: "k", holder: "a", session: "s", token: 1n },
  ];
  for (const request of requests) {
    for (const field of ["holder", "session"]) {
      const bad = { ...request, [field]: "" };
      const refused = (name) => (err) => err instanceof RangeError && err.code === "ERR_STORE_REQUEST" && err.message === `${name}.send: request.${field} must not be empty`;
      await assert.rejects(store.send(bad), refused("MemoryStore"), `${request.type} ${field}`);
      assert.throws(() => readRequest("RedisStore", bad), refused("RedisStore"), `${request.type} ${field}`);
    }
  }
  assert.equal(store.lastToken("k"), undefined, "nothing was granted");
  await store.close();
});
