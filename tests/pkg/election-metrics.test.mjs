// Metrics of a scripted run: elected, renewals failing until the deadline (lost:
// StoreUnreachable), elected again, fenced (lost: Fenced), elected again, released. The
// snapshot's values, then the same through a prom-client registry as Prometheus text.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Counter, Gauge, Registry, register } from "prom-client";
import { LeaderElection, MemoryStore } from "tenure";
import { FAST, Link, until, wait } from "./helpers/election.mjs";

async function scripted(registry) {
  const store = new MemoryStore();
  const link = new Link(store);
  const e = new LeaderElection({ store: link, key: "orders", nodeId: "node-a", registry, ...FAST });
  e.on("error", () => {});
  await e.campaign(); // elected #1
  link.mode = "cut";
  await until(() => !e.isLeader, 1000, "lost at the deadline");
  await wait(FAST.ttlMs); // the store's lease lapses too, so the next grant is a new one
  link.mode = "up";
  await until(() => e.isLeader, 1000, "elected again"); // #2
  const token = e.assertLeadership();
  e.reportFenced({ presented: token, required: token + 5n }); // lost: Fenced
  // The store re-grants #2 to this session; the machine never believes a fenced token again,
  // hands it back, and is granted #3.
  await until(() => e.isLeader, 1000, "elected a third time");
  await wait(50);
  return { e, store };
}

test("metrics_snapshot_counts_the_scripted_run", async () => {
  const { e } = await scripted();
  const m = e.metrics();
  assert.deepEqual(m.labels, { key: "orders", node: "node-a" });
  assert.equal(m.leader_election_is_leader, 1);
  assert.equal(m.leader_election_elections_total, 3);
  assert.equal(m.leader_election_fencing_token, 3n);
  assert.equal(m.leader_election_leadership_lost_total, 2);
  assert.deepEqual(m.leader_election_leadership_lost_by_reason, { StoreUnreachable: 1, Fenced: 1 });
  assert.ok(m.leader_election_renewal_failures_total >= 1);
  assert.ok(m.leader_election_leader_seconds_total > 0.2 && m.leader_election_leader_seconds_total < 2, String(m.leader_election_leader_seconds_total));
  await e.close();
  const after = e.metrics();
  assert.equal(after.leader_election_is_leader, 0);
  assert.equal(after.leader_election_leadership_lost_total, 3);
  assert.equal(after.leader_election_leadership_lost_by_reason.Released, 1);
  const seconds = after.leader_election_leader_seconds_total;
  await wait(30);
  assert.equal(e.metrics().leader_election_leader_seconds_total, seconds, "time as leader stops at step-down");
});

test("prom_client_registry_exposes_the_metrics_as_prometheus_text", async () => {
  const registry = new Registry();
  const { e, store } = await scripted(registry);
  const other = new LeaderElection({ store, key: "orders", nodeId: "node-b", registry, ...FAST });
  await other.campaign();
  const text = await registry.metrics();
  const line = (name, labels) => text.split("\n").find((l) => l.startsWith(`${name}{${labels}}`));
  const value = (name, labels) => Number(line(name, labels)?.split(" ").pop());
  const a = 'key="orders",node="node-a"';
  const b = 'key="orders",node="node-b"';
  assert.match(text, /# TYPE leader_election_is_leader gauge/);
  assert.match(text, /# TYPE leader_election_elections_total counter/);
  assert.match(text, /# TYPE leader_election_fencing_token gauge/);
  assert.match(text, /# TYPE leader_election_leadership_lost_total counter/);
  assert.match(text, /# TYPE leader_election_renewal_failures_total counter/);
  assert.match(text, /# TYPE leader_election_leader_seconds_total counter/);
  assert.equal(value("leader_election_is_leader", a), 1);
  assert.equal(value("leader_election_is_leader", b), 0);
  assert.equal(value("leader_election_elections_total", a), 3);
  assert.equal(value("leader_election_elections_total", b), 0);
  assert.equal(value("leader_election_fencing_token", a), 3);
  assert.equal(value("leader_election_leadership_lost_total", `${a},reason="StoreUnreachable"`), 1);
  assert.equal(value("leader_election_leadership_lost_total", `${a},reason="Fenced"`), 1);
  assert.ok(value("leader_election_renewal_failures_total", a) >= 1);
  assert.ok(value("leader_election_leader_seconds_total", a) > 0.2);
  await e.close();
  await other.close();
  const closed = await registry.metrics();
  assert.doesNotMatch(closed, /node="node-a"/, "a closed election leaves the registry");
});

test("a_registry_that_is_not_prom_clients_is_refused_with_a_code", () => {
  assert.throws(() => new LeaderElection({ store: new MemoryStore(), key: "k", registry: {} }), { code: "ERR_PROM_CLIENT" });
});

// `{ registerMetric() {} }` passed the check (registerMetric was all it looked for), though the
// metrics call getSingleMetric and removeSingleMetric on it too, and nothing could scrape it.
// A registry now needs every method the code and a scrape use; the message names the missing.
test("a_fake_registry_with_only_registerMetric_is_refused_naming_the_missing_methods", () => {
  const store = new MemoryStore();
  assert.throws(() => new LeaderElection({ store, key: "k", registry: { registerMetric() {} } }), (err) =>
    err instanceof TypeError &&
    err.code === "ERR_PROM_CLIENT" &&
    /no getSingleMetric\(\), removeSingleMetric\(\), metrics\(\) methods \(got an object with only registerMetric\(\)\)/.test(err.message));
  const almost = { registerMetric() {}, getSingleMetric() {}, removeSingleMetric() {} };
  assert.throws(() => new LeaderElection({ store, key: "k", registry: almost }), { code: "ERR_PROM_CLIENT", message: /no metrics\(\) method \(/ });
  assert.throws(() => new LeaderElection({ store, key: "k", registry: 7 }), { code: "ERR_PROM_CLIENT", message: /got number$/ });
});

test("a_real_registry_and_prom_clients_default_register_are_accepted", async () => {
  const store = new MemoryStore();
  const own = new LeaderElection({ store, key: "own", nodeId: "a", registry: new Registry() });
  const global = new LeaderElection({ store, key: "global", nodeId: "a", registry: register });
  await global.campaign();
  assert.match(await register.metrics(), /leader_election_is_leader\{key="global",node="a"\} 1/);
  await Promise.all([own.close(), global.close()]);
});

// A registry that already had a metric of one of our names (the service's own, or one a second
// copy of tenure registered) made the constructor throw prom-client's plain, uncoded Error
// ("A metric with the name ... has already been registered"), after registering the metrics
// before it. Now the clash is ERR_METRIC_EXISTS, naming the metric and the two ways out, and
// the registry is left as it was.
test("a_registry_with_a_metric_of_our_name_is_refused_naming_it_and_the_fix", () => {
  const registry = new Registry();
  new Gauge({ name: "leader_election_fencing_token", help: "the service's own", registers: [registry] });
  assert.throws(
    () => new LeaderElection({ store: new MemoryStore(), key: "k", registry }),
    (err) =>
      err.code === "ERR_METRIC_EXISTS" &&
      err.message.includes('"leader_election_fencing_token"') &&
      err.message.includes("new Registry()") &&
      err.message.includes('registry.removeSingleMetric("leader_election_fencing_token")'),
  );
  assert.deepEqual(registry.getMetricsAsArray().map((m) => m.name), ["leader_election_fencing_token"], "nothing of ours was left behind");
  registry.removeSingleMetric("leader_election_fencing_token");
  const e = new LeaderElection({ store: new MemoryStore(), key: "k", registry });
  assert.equal(registry.getMetricsAsArray().length, 6, "once the name is free, the same registry works");
  return e.close();
});

test("a_clash_found_only_when_registering_rolls_back_what_was_registered", () => {
  // A registry that cannot be asked first (getSingleMetric says nothing): prom-client's own
  // throw is caught, coded, and the metrics registered before it are removed.
  class Blind extends Registry {
    getSingleMetric() {
      return undefined;
    }
  }
  const registry = new Blind();
  new Counter({ name: "leader_election_elections_total", help: "the service's own", registers: [registry] });
  assert.throws(() => new LeaderElection({ store: new MemoryStore(), key: "k", registry }), (err) => err.code === "ERR_METRIC_EXISTS" && /"leader_election_elections_total"/.test(err.message) && err.cause instanceof Error);
  assert.deepEqual(registry.getMetricsAsArray().map((m) => m.name), ["leader_election_elections_total"]);
});

// A ShardedElection's member slot ("<group>/member/<i>") is a LeaderElection of its own, made
// with the same options, registry included: the registry showed
// leader_election_is_leader{key="shards/member/0",node="w"} 1 beside the shards, though
// s.metrics() leaves the slot out, so sum(leader_election_is_leader) over-counted by one per
// process. Member slots now stay off the registry.
test("a_sharded_election_keeps_its_member_slot_out_of_the_registry", async () => {
  const { ShardedElection } = await import("tenure");
  const registry = new Registry();
  const s = new ShardedElection({ store: new MemoryStore(), keys: ["a", "b"], nodeId: "w", registry, ttlMs: 600 });
  s.start();
  await until(() => s.leading.length === 2, 2000, "leads both shards");
  const text = await registry.metrics();
  const leaders = text.split("\n").filter((l) => l.startsWith("leader_election_is_leader{"));
  assert.deepEqual(leaders.sort(), ['leader_election_is_leader{key="a",node="w"} 1', 'leader_election_is_leader{key="b",node="w"} 1']);
  assert.doesNotMatch(text, /shards\/member\//, "no series of a member slot");
  assert.deepEqual(s.metrics().map((m) => m.labels.key), ["a", "b"], "the same keys as metrics()");
  await s.close();
});

// Two elections of one key and nodeId on one registry wrote one series (the same labels): one
// hid the other. The second is refused with ERR_METRIC_EXISTS, as other collisions on a
// registry are; once the first is closed (it leaves the registry), the pair may be made again.
test("a_second_election_of_the_same_key_and_node_on_one_registry_is_refused", async () => {
  const registry = new Registry();
  const store = new MemoryStore();
  const first = new LeaderElection({ store, key: "orders", nodeId: "node-a", registry });
  assert.throws(() => new LeaderElection({ store, key: "orders", nodeId: "node-a", registry }), {
    code: "ERR_METRIC_EXISTS",
    message: /already has the leader_election_\* series of an election of key "orders" on node "node-a"/,
  });
  await new LeaderElection({ store, key: "orders", nodeId: "node-b", registry }).close();
  await new LeaderElection({ store, key: "orders", nodeId: "node-a", registry: new Registry() }).close();
  await first.close();
  const again = new LeaderElection({ store, key: "orders", nodeId: "node-a", registry });
  await again.campaign();
  assert.match(await registry.metrics(), /leader_election_is_leader\{key="orders",node="node-a"\} 1/);
  await again.close();
});

// After registry.clear() (common between tests) an election made on the same registry exposed
// nothing: a cache per registry said the metrics were registered still. (A break-it pass.)
test("after registry.clear(), a new election on the registry exposes its metrics again", async () => {
  const registry = new Registry();
  const store = new MemoryStore();
  const x = new LeaderElection({ store, key: "x", nodeId: "a", registry, ...FAST });
  await x.campaign();
  assert.match(await registry.metrics(), /leader_election_is_leader\{key="x",node="a"\} 1/);
  registry.clear();
  assert.equal(await registry.metrics(), "\n");
  const y = new LeaderElection({ store, key: "y", nodeId: "a", registry, ...FAST });
  await y.campaign();
  const text = await registry.metrics();
  assert.match(text, /leader_election_is_leader\{key="y",node="a"\} 1/);
  assert.match(text, /leader_election_is_leader\{key="x",node="a"\} 1/, "the election still open is counted again too");
  registry.removeSingleMetric("leader_election_elections_total");
  const z = new LeaderElection({ store, key: "z", nodeId: "a", registry, ...FAST });
  assert.match(await registry.metrics(), /leader_election_elections_total\{key="x",node="a"\} 1/);
  await Promise.all([x.close(), y.close(), z.close()]);
});

// After registry.clear(), the caller's own metric of one of our names was taken as ours: the
// election was accepted and its series never shown. Refused as on a registry never used.
test("after registry.clear(), the caller's own metric of one of our names is refused", async () => {
  const registry = new Registry();
  const store = new MemoryStore();
  const x = new LeaderElection({ store, key: "x", nodeId: "a", registry, ...FAST });
  await x.close();
  registry.clear();
  new Gauge({ name: "leader_election_is_leader", help: "mine", registers: [registry] });
  assert.throws(() => new LeaderElection({ store, key: "y", nodeId: "a", registry, ...FAST }), { code: "ERR_METRIC_EXISTS", message: /"leader_election_is_leader"/ });
  // Nothing of ours was registered again by the refused election.
  assert.equal(registry.getSingleMetric("leader_election_elections_total"), undefined);
  assert.match(await registry.metrics(), /# HELP leader_election_is_leader mine/);
});

// The leadership gauge was set on transitions: with the event loop blocked past the local
// deadline, the step-down had not run yet, and a scrape right after read is_leader 1 although
// isLeader (the deadline against the clock) said false. It is now read from the election at
// each scrape, and time as leader stops at the deadline too.
test("a_scrape_after_the_deadline_says_not_leader_even_before_the_step_down_runs", async () => {
  const registry = new Registry();
  const link = new Link(new MemoryStore());
  const e = new LeaderElection({ store: link, key: "blocked", nodeId: "node-a", registry, ...FAST });
  e.on("error", () => {});
  await e.campaign();
  assert.equal(e.isLeader, true);
  link.mode = "cut"; // no renewal, no re-election: the one leadership ends at its deadline
  const scraped = async () => Number((await registry.metrics()).split("\n").find((l) => l.startsWith('leader_election_is_leader{key="blocked",node="node-a"}'))?.split(" ").pop());
  assert.equal(await scraped(), 1);
  const block = (until) => {
    while (performance.now() < until); // no timer runs meanwhile: the step-down waits
  };
  block(e.leaseDeadlineMs + 5);
  assert.equal(e.isLeader, false);
  assert.equal(e.state, "Leader", "the step-down has not run: the loop was blocked");
  assert.equal(e.metrics().leader_election_is_leader, 0);
  assert.equal(await scraped(), 0);
  const seconds = e.metrics().leader_election_leader_seconds_total;
  block(performance.now() + 30);
  assert.equal(e.metrics().leader_election_leader_seconds_total, seconds, "time as leader stops at the deadline");
  assert.ok(seconds <= FAST.ttlMs / 1000, String(seconds));
  await until(() => e.metrics().leader_election_leadership_lost_total === 1, 1000, "the step-down ran");
  assert.equal(e.metrics().leader_election_leader_seconds_total, seconds, "the late step-down counts up to the deadline, not to when it ran");
  await e.close();
});
