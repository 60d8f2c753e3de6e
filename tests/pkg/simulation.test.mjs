// The Simulation class through the built package: snapshots with number ids
// and ms times, the event log and its cursor, stepping and the end of the run, checkpoints
// with clone(), and toJSON()/fromJSON() replays including injected faults and seeds.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Simulation } from "tenure/sim";
import { ref, runUntilFound, scenario, show, soleLeader } from "./simulation-helpers.mjs";

const NODE_KEYS = ["id", "role", "role_kind", "acting_leader", "term", "token", "leader", "status", "clock_ms", "lease_deadline_ms", "lease_validity_ms", "next_timer", "log_len", "commit", "log"];
const SNAPSHOT_KEYS = ["time_ms", "algorithm", "nodes", "in_flight", "dropped", "blocked", "store", "resource", "metrics", "violations", "promised"];
const isTime = (v) => typeof v === "number" && Number.isFinite(v) && v >= 0;
const isIdOrNull = (v) => v === null || Number.isSafeInteger(v);

// What each algorithm promises at the start of a run (the simulator's registry).
const PROMISED = {
  raft: ["election-safety", "term-monotonic", "log-matching", "leader-completeness", "liveness"],
  bully: ["liveness"],
  "lease-fencing": ["single-valid-holder", "token-monotonic", "resource-token-monotonic", "token-per-session", "stale-write-accepted", "split-brain", "liveness"],
  "lease-unfenced": ["single-valid-holder", "token-monotonic", "resource-token-monotonic", "token-per-session", "split-brain", "liveness"],
  "lease-no-margin": ["single-valid-holder", "token-monotonic", "resource-token-monotonic", "token-per-session", "split-brain", "liveness"],
};

for (const algorithm of ["raft", "bully", "lease-fencing", "lease-unfenced", "lease-no-margin"]) {
  test(`snapshot_says_what_${algorithm}_promises_and_a_pause_voids_split_brain`, () => {
    const sim = new Simulation(scenario(algorithm, { nodes: 3, duration_ms: 5_000 }));
    assert.deepEqual(sim.snapshot().promised, PROMISED[algorithm]);
    sim.runUntil(1_000);
    sim.inject({ type: "pause", target: 1, duration_ms: 100 });
    assert.deepEqual(sim.snapshot().promised, PROMISED[algorithm].filter((k) => k !== "split-brain"));
  });
}

for (const algorithm of ["raft", "bully", "lease-fencing", "lease-unfenced"]) {
  test(`snapshot_has_number_ids_and_ms_times_${algorithm}`, () => {
    const sim = new Simulation(scenario(algorithm, { nodes: 5, duration_ms: 10_000, network: { latency_ms: [20, 40] } }));
    sim.runUntil(3_000.5);
    sim.inject({ type: "isolate", nodes: [1] });
    // The first whole millisecond from 4 s on with a message on the wire: lease nodes talk
    // only on renewals and retries, so an arbitrary instant may find the wire empty.
    let at = 4_000;
    sim.runUntil(at);
    while (sim.snapshot().in_flight.length === 0 && at < 6_000) sim.runUntil(++at);
    const snap = sim.snapshot();
    assert.deepEqual(Object.keys(snap), SNAPSHOT_KEYS);
    assert.equal(snap.time_ms, at);
    assert.equal(snap.algorithm, algorithm);
    const lease = algorithm.startsWith("lease");
    assert.deepEqual(snap.nodes.map((n) => n.id), [1, 2, 3, 4, 5, ...(lease ? ["store", "resource"] : [])]);
    for (const n of snap.nodes) {
      assert.deepEqual(Object.keys(n), NODE_KEYS);
      assert.ok([n.term, n.token, n.leader, n.log_len, n.commit].every(isIdOrNull), show(n));
      assert.ok(["up", "paused", "crashed"].includes(n.status));
      assert.ok(isTime(n.clock_ms));
      assert.ok(n.lease_deadline_ms === null || isTime(n.lease_deadline_ms));
      if (n.next_timer !== null) {
        assert.equal(typeof n.next_timer.kind, "string");
        assert.ok(isTime(n.next_timer.deadline_ms));
        // Armed in the past with its full wait: the part left is at most the whole.
        const t = n.next_timer;
        assert.ok(t.armed_ms <= snap.time_ms && t.wait_ms > 0 && t.deadline_ms - snap.time_ms <= t.wait_ms + 1, show(n));
      }
      assert.equal(typeof n.acting_leader, "boolean");
      assert.ok(["leader", "candidate", "follower", "crashed", "service"].includes(n.role_kind), show(n));
      assert.equal(n.role_kind === "service", typeof n.id === "string");
      if (n.acting_leader) assert.equal(n.role_kind, "leader");
    }
    assert.ok(snap.in_flight.length > 0, "messages on the wire with 20-40 ms latency");
    for (const m of snap.in_flight) {
      assert.ok(Number.isSafeInteger(m.id));
      assert.ok(m.send_ms <= snap.time_ms && m.arrival_ms >= snap.time_ms, show(m));
      assert.ok(m.arrival_ms - m.send_ms >= 20 && m.arrival_ms - m.send_ms <= 40, show(m));
      assert.ok(isIdOrNull(m.value));
    }
    for (let i = 1; i < snap.in_flight.length; i++) assert.ok(snap.in_flight[i - 1].arrival_ms <= snap.in_flight[i].arrival_ms);
    assert.ok(snap.blocked.some(([from, to]) => from === 1 && to === 2), show(snap.blocked));
    assert.ok(snap.dropped.length > 0 && snap.dropped.every((d) => d.reason === "partition" && (d.from === 1 || d.to === 1)), show(snap.dropped));
    assert.equal(typeof snap.metrics.events, "number");
    assert.equal(snap.metrics.events, sim.metrics().events);
    if (lease) {
      assert.equal(typeof snap.store.available, "boolean");
      assert.ok(isIdOrNull(snap.store.last_token));
      assert.equal(snap.resource.fenced, algorithm === "lease-fencing");
      assert.ok(Number.isSafeInteger(snap.resource.highest_token));
      assert.ok(snap.resource.recent_writes.length > 0);
      assert.equal(snap.metrics.fencing_token, snap.store.last_token);
    } else {
      assert.equal(snap.store, null);
      assert.equal(snap.resource, null);
      assert.equal(snap.metrics.fencing_token, null);
    }
  });
}

test("snapshot_is_a_fresh_plain_object_each_time", () => {
  const sim = new Simulation(scenario("raft"));
  sim.runUntil(1_000);
  const a = sim.snapshot();
  a.nodes.length = 0;
  const b = sim.snapshot();
  assert.equal(b.nodes.length, 3);
  assert.deepEqual(sim.snapshot(), b);
});

test("leaders_lists_acting_leaders_by_number_id", () => {
  const sim = new Simulation(scenario("raft", { nodes: 5 }));
  const leader = runUntilFound(sim, soleLeader);
  assert.deepEqual(sim.leaders(), [leader.id]);
  assert.deepEqual(sim.snapshot().nodes.filter((n) => n.acting_leader).map((n) => n.id), [leader.id]);
  sim.inject({ type: "crash", node: ref(leader.id) });
  assert.deepEqual(sim.leaders(), []);
  assert.equal(sim.snapshot().nodes.find((n) => n.id === leader.id).status, "crashed");
});

test("events_since_pages_through_the_log_with_a_cursor", () => {
  const sim = new Simulation(scenario("bully", { nodes: 4 }));
  sim.runUntil(1_000);
  const first = sim.eventsSince(0);
  assert.equal(first.missed, 0);
  assert.deepEqual(first.events.map((e) => e.seq), [...first.events.keys()]);
  assert.equal(first.cursor, first.events.length);
  assert.equal(first.cursor, sim.metrics().events);
  assert.deepEqual(sim.eventsSince(first.cursor), { events: [], cursor: first.cursor, missed: 0 });
  sim.runUntil(2_000);
  const next = sim.eventsSince(first.cursor);
  assert.equal(next.events[0].seq, first.cursor);
  assert.ok(next.events.every((e) => e.time_ms > 1_000 && e.time_ms <= 2_000));
  for (const e of [...first.events, ...next.events]) {
    assert.ok(["send", "deliver", "drop", "timeout", "node", "split-brain-started", "split-brain-ended", "write", "fault", "violation"].includes(e.event), show(e));
    if ("id" in e) assert.ok(Number.isSafeInteger(e.id));
  }
  assert.ok(first.events.some((e) => e.event === "node" && e.what === "became-leader" && Number.isSafeInteger(e.value)));
});

test("events_since_reports_what_left_the_bounded_log", () => {
  const sim = new Simulation(scenario("raft", { nodes: 5, duration_ms: 30_000 }));
  sim.runUntil(30_000);
  const total = sim.metrics().events;
  assert.ok(total > 4_096);
  const page = sim.eventsSince(10);
  assert.equal(page.events.length, 4_096);
  assert.equal(page.missed, total - 4_096 - 10);
  assert.equal(page.events[0].seq, 10 + page.missed);
  assert.equal(page.cursor, total);
});

test("events_carry_faults_in_scenario_form_and_pauses_in_ms", () => {
  const sim = new Simulation(scenario("lease-fencing"));
  sim.runUntil(500);
  const { cursor } = sim.eventsSince(0);
  sim.inject({ type: "pause", target: "store", duration_ms: 250.5 });
  const { events } = sim.eventsSince(cursor);
  assert.deepEqual(events[0], { seq: cursor, time_ms: 500, event: "fault", fault: { type: "pause", target: "store", duration_ms: 250.5 } });
  assert.deepEqual(
    { ...events[1], seq: 0 },
    // A typed node event: `paused` carries its duration and nothing else.
    { seq: 0, time_ms: 500, event: "node", proc: "store", what: "paused", duration_ms: 250.5 },
  );
});

test("step_processes_one_event_and_stops_at_the_end", () => {
  const sim = new Simulation(scenario("raft", { duration_ms: 300 }));
  assert.equal(sim.now, 0);
  assert.equal(sim.endMs, 300);
  let before = sim.metrics().events;
  assert.equal(sim.step(), true);
  assert.ok(sim.metrics().events > before);
  while (sim.step()) assert.ok(sim.now <= 300);
  assert.equal(sim.done, true);
  before = sim.traceHash();
  assert.equal(sim.step(), false);
  assert.equal(sim.traceHash(), before);
  sim.runUntil(10_000); // capped at the end
  assert.equal(sim.now, 300);
  sim.runUntil(100); // the past: nothing happens
  assert.equal(sim.now, 300);
  assert.equal(sim.traceHash(), before);
});

test("clone_is_a_checkpoint_that_continues_identically_and_independently", () => {
  const sim = new Simulation(scenario("lease-fencing", { nodes: 4, duration_ms: 20_000 }));
  sim.runUntil(5_000);
  const checkpoint = sim.clone();
  assert.equal(checkpoint.now, 5_000);
  assert.equal(checkpoint.traceHash(), sim.traceHash());
  assert.deepEqual(checkpoint.snapshot(), sim.snapshot());
  sim.inject({ type: "crash", node: 1 });
  sim.runUntil(12_000);
  const steered = sim.traceHash();
  // Going back: the checkpoint is untouched, and replaying the same steps gives the same run.
  assert.equal(checkpoint.now, 5_000);
  const again = checkpoint.clone();
  again.inject({ type: "crash", node: 1 });
  again.runUntil(12_000);
  assert.equal(again.traceHash(), steered);
  assert.deepEqual(again.toJSON(), sim.toJSON());
  checkpoint.runUntil(12_000);
  assert.notEqual(checkpoint.traceHash(), steered);
  assert.equal(checkpoint.toJSON().faults.length, 0);
});

test("toJSON_is_json_data_that_replays_the_run_with_injected_faults", () => {
  const sim = new Simulation(scenario("raft", { nodes: 5, duration_ms: 8_000, faults: [{ at_ms: 4_000, fault: { type: "heal" } }] }));
  sim.runUntil(1_000);
  sim.inject({ type: "isolate", nodes: [1, 2] });
  sim.runUntil(4_000); // same instant as the scheduled heal, which applies first
  sim.inject({ type: "crash", node: 3 });
  sim.runUntil(5_000.125);
  sim.inject({ type: "clock-offset", target: 4, offset_ms: -12.5 });
  sim.runUntil(sim.endMs);

  const json = sim.toJSON();
  assert.deepEqual(json.faults, [
    { at_ms: 1_000, fault: { type: "isolate", nodes: [1, 2] } },
    { at_ms: 4_000, fault: { type: "heal" } },
    { at_ms: 4_000, fault: { type: "crash", node: 3 } },
    { at_ms: 5_000.125, fault: { type: "clock-offset", target: 4, offset_ms: -12.5 } },
  ]);
  assert.deepEqual(Object.keys(json), ["version", "algorithm", "nodes", "config", "network", "seed", "duration_ms", "faults"]);
  assert.equal(json.seed, 7);
  const text = JSON.stringify(json);
  assert.equal(JSON.stringify(sim), text, "JSON.stringify(sim) calls toJSON()");
  for (const replay of [new Simulation(JSON.parse(text)), Simulation.fromJSON(text), Simulation.fromJSON(json)]) {
    replay.runUntil(replay.endMs);
    assert.equal(replay.traceHash(), sim.traceHash());
    assert.deepEqual(replay.snapshot(), sim.snapshot());
  }
});

for (const algorithm of ["raft", "bully", "lease-fencing", "lease-unfenced", "lease-no-margin"]) {
  test(`toJSON_round_trips_through_the_constructor_and_fromJSON_${algorithm}`, () => {
    const sim = new Simulation(scenario(algorithm, { nodes: 3, duration_ms: 3_000 }));
    sim.runUntil(1_000);
    sim.inject({ type: "crash", node: sim.leaders()[0] ?? 1 });
    const json = sim.toJSON();
    // What toJSON() gives, the constructor and fromJSON() take back, and give back unchanged.
    assert.deepEqual(new Simulation(json).toJSON(), json);
    assert.deepEqual(Simulation.fromJSON(JSON.stringify(json)).toJSON(), json);
  });
}

test("a_missing_seed_is_drawn_and_reported", () => {
  const { seed, ...unseeded } = scenario("bully");
  const a = new Simulation(unseeded);
  const b = new Simulation({ ...unseeded, seed: undefined });
  for (const sim of [a, b]) {
    assert.ok(Number.isSafeInteger(sim.seed) && sim.seed >= 0, String(sim.seed));
    assert.equal(sim.toJSON().seed, sim.seed);
  }
  assert.notEqual(a.seed, b.seed, "two draws differ (a 1 in 2^53 chance otherwise)");
});

test("seeds_beyond_2_53_keep_every_digit_as_bigint", () => {
  const big = 2n ** 64n - 1n;
  const sim = new Simulation(scenario("raft", { seed: big }));
  assert.equal(sim.seed, big);
  // toJSON is JSON data: the seed becomes a decimal string, so the permalink still works.
  assert.equal(sim.toJSON().seed, String(big));
  const relinked = new Simulation(JSON.parse(JSON.stringify(sim)));
  assert.equal(relinked.seed, big);
  const text = JSON.stringify(scenario("raft")).replace('"seed":7', `"seed":${big}`);
  const parsed = Simulation.fromJSON(text);
  assert.equal(parsed.seed, big);
  sim.runUntil(2_000);
  parsed.runUntil(2_000);
  relinked.runUntil(2_000);
  assert.equal(parsed.traceHash(), sim.traceHash());
  assert.equal(relinked.traceHash(), sim.traceHash());
  assert.equal(new Simulation(scenario("raft", { seed: 5n })).seed, 5);
});

test("undefined_keys_count_as_absent_like_JSON_stringify", () => {
  const sim = new Simulation({ ...scenario("raft"), config: { pre_vote: undefined, check_quorum: true }, network: undefined });
  assert.deepEqual(sim.toJSON().config, { check_quorum: true });
  assert.deepEqual(sim.toJSON().network, { latency_ms: [1, 10], loss: 0, duplicate: 0 });
});

test("metrics_and_violations_show_what_the_checker_found", () => {
  // Issue 5: lease-unfenced with a pause after the check accepts a stale write; the checker
  // records it, but the algorithm does not promise it, so the run has not failed.
  const sim = new Simulation(scenario("lease-unfenced", { duration_ms: 15_000 }));
  const leader = runUntilFound(sim, soleLeader);
  sim.inject({ type: "pause-after-check", node: ref(leader.id), duration_ms: 6_000 });
  sim.runUntil(sim.endMs);
  const m = sim.metrics();
  assert.ok(m.stale_writes_accepted >= 1, show(m));
  const v = sim.violations().find((x) => x.kind === "stale-write-accepted");
  assert.ok(v, show(sim.violations()));
  assert.equal(v.promised, false);
  assert.ok(v.nodes.includes(leader.id));
  assert.equal(typeof v.detail, "string");
  assert.equal(sim.failed, false);
  const w = sim.snapshot().resource.recent_writes.find((x) => x.stale);
  assert.ok(w === undefined || (w.accepted && w.presented === null && w.reason === null));
});

test("split_brain_windows_are_events_that_sum_to_the_metric", () => {
  // Bully under a partition: node 2 declares itself coordinator while 3 still leads.
  const sim = new Simulation(scenario("bully", { nodes: 3, duration_ms: 6_000 }));
  sim.runUntil(1_000);
  sim.inject({ type: "partition", groups: [[1, 2], [3]] });
  sim.runUntil(3_000);
  sim.inject({ type: "heal" });
  sim.runUntil(sim.endMs);
  const events = sim.eventsSince(0).events.filter((e) => e.event.startsWith("split-brain"));
  assert.ok(events.length >= 2, show(events));
  let open = null;
  let total = 0;
  for (const e of events) {
    if (e.event === "split-brain-started") {
      assert.equal(open, null, "windows do not nest");
      assert.ok(e.leaders.length >= 2 && e.leaders.every(Number.isSafeInteger), show(e));
      open = e;
    } else {
      assert.notEqual(open, null, "a window ends only after it started");
      assert.ok(Math.abs(e.duration_ms - (e.time_ms - open.time_ms)) < 1e-9, show([open, e]));
      total += e.duration_ms;
      open = null;
    }
  }
  assert.equal(open, null, "the heal closed the window");
  assert.ok(total > 0);
  assert.ok(Math.abs(sim.metrics().split_brain_ms - total) < 1e-6, `${sim.metrics().split_brain_ms} vs ${total}`);
});
