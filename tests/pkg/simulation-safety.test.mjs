// The seed's verification suite (docs/scenarios.md S15),
// rewritten against the package's Simulation: a deposed leader's write is rejected with
// reason "stale fencing token"; a chaos run never has two simultaneous leaders; the leader
// self-demotes when renewal fails. Everything is read from snapshots, events, metrics and
// violations, as a JS user would.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Simulation } from "tenure/sim";
import { chaosFaults, ref, runUntilFound, scenario, show, soleLeader } from "./simulation-helpers.mjs";

const TTL_MS = 2_000;

test("rejects_writes_from_a_deposed_leader_with_stale_fencing_token", () => {
  // Seed: elect node-a, partition it, elect node-b with a higher token; node-a's write with
  // its old token is rejected. Here node-a's writes to the resource are slow (3 s) and it
  // is cut off from the store and the other nodes, so writes it sent while it still led
  // reach the resource after node-b installed its token (design rule 1; S01).
  const sim = new Simulation(scenario("lease-fencing", { duration_ms: 15_000, config: { ttl_ms: TTL_MS } }));
  const first = runUntilFound(sim, soleLeader);
  const a = ref(first.id);
  const others = sim.snapshot().nodes.map((n) => n.id).filter((id) => id !== first.id && typeof id === "number").map(ref);
  sim.inject({ type: "link-latency", from: [a], to: ["resource"], min_ms: 3_000, max_ms: 3_000 });
  sim.runUntil(sim.now + 300); // a few slow writes leave while node-a still leads
  sim.inject({ type: "partition", groups: [[a], ["store", ...others]] });

  const second = runUntilFound(sim, (s) => {
    const l = soleLeader(s);
    return l && l.id !== first.id ? l : undefined;
  });
  assert.ok(second.token > first.token, `second token ${second.token} > first ${first.token}`);

  const stale = runUntilFound(sim, (s) => s.resource.recent_writes.find((w) => w.from === first.id && !w.accepted));
  assert.equal(stale.accepted, false);
  assert.equal(stale.reason, "stale fencing token");
  assert.equal(stale.presented, first.token);
  assert.ok(stale.required >= second.token, show(stale));
  assert.equal(stale.stale, true);

  // The same verdict is in the event log, and the resource's highest token never went back.
  const { events } = sim.eventsSince(0);
  const rejected = events.filter((e) => e.event === "write" && !e.accepted);
  assert.ok(rejected.length >= 1);
  assert.ok(rejected.every((e) => e.reason === "stale fencing token" && e.from === first.id));
  const snap = sim.snapshot();
  assert.ok(snap.resource.highest_token >= second.token);
  assert.equal(snap.metrics.stale_writes_accepted, 0);
  assert.ok(snap.metrics.stale_writes_rejected >= 1);
  assert.deepEqual(sim.violations().filter((v) => v.promised), []);
});

test("s01_paused_leader_writes_after_check_and_is_fenced", () => {
  // S01 (Kleppmann 2016) with the "pause after check, before write" fault: the local check
  // passed, the write leaves after a pause longer than the lease, the fence still holds.
  const sim = new Simulation(scenario("lease-fencing", { duration_ms: 15_000, config: { ttl_ms: TTL_MS } }));
  const first = runUntilFound(sim, soleLeader);
  sim.inject({ type: "pause-after-check", node: ref(first.id), duration_ms: 3 * TTL_MS });
  const stale = runUntilFound(sim, (s) => s.resource.recent_writes.find((w) => w.from === first.id && !w.accepted));
  assert.equal(stale.reason, "stale fencing token");
  assert.equal(stale.presented, first.token);
  assert.ok(stale.required > first.token);
  assert.equal(stale.late, true, "it left after its lease had ended in true time");
  assert.equal(sim.metrics().stale_writes_accepted, 0);
});

/** Steps a chaos run event by event and checks `check(snapshot)` after every one. */
function chaosRun(algorithm, check, seed) {
  const duration_ms = 120_000;
  const sim = new Simulation(
    scenario(algorithm, { nodes: 5, seed, duration_ms, faults: chaosFaults(seed, 5, duration_ms) }),
  );
  let steps = 0;
  while (sim.step()) {
    steps++;
    check(sim.snapshot(), sim);
  }
  sim.runUntil(sim.endMs);
  assert.equal(sim.now, duration_ms);
  assert.ok(steps > 5_000, `only ${steps} events`);
  return sim;
}

test("never_permits_two_simultaneous_leaders_lease_fencing_chaos", () => {
  // Seed: 120 s with partitions, pauses and restarts; at every moment at most one active
  // leader. An active leader is up, in the Leader role, and inside its lease (the deadline
  // its own clock enforces, shown in true time): a node resuming from a pause past its
  // deadline still says "Leader" until its deadline timer fires in the same instant, but it
  // can no longer act (design rule 4). The time-integrated split-brain metric agrees.
  let leaderMoments = 0;
  const sim = chaosRun(
    "lease-fencing",
    (snap) => {
      const active = snap.nodes.filter(
        (n) => n.role === "Leader" && n.status === "up" && n.lease_deadline_ms > snap.time_ms,
      );
      assert.ok(active.length <= 1, `t=${snap.time_ms}: ${show(active)}`);
      assert.equal(snap.metrics.split_brain_ms, 0);
      if (active.length === 1) leaderMoments++;
    },
    15,
  );
  const m = sim.metrics();
  assert.equal(m.split_brain_ms, 0);
  assert.equal(m.worst_split_brain_ms, 0);
  assert.equal(m.stale_writes_accepted, 0);
  assert.ok(m.elections_total >= 3, `the faults moved leadership: ${m.elections_total} elections`);
  assert.ok(leaderMoments > 0);
  assert.deepEqual(sim.violations(), []);
  assert.equal(sim.failed, false);
});

test("never_permits_two_leaders_in_one_term_raft_chaos", () => {
  // For Raft "two simultaneous leaders" means two in one term (Election Safety, Raft §5.2):
  // a deposed leader cut off in a minority may still believe it leads an older term.
  const sim = chaosRun(
    "raft",
    (snap) => {
      const byTerm = new Map();
      for (const n of snap.nodes) {
        if (n.role !== "Leader") continue;
        assert.ok(!byTerm.has(n.term), `t=${snap.time_ms}: leaders ${byTerm.get(n.term)} and ${n.id} in term ${n.term}`);
        byTerm.set(n.term, n.id);
      }
      assert.deepEqual(snap.violations, []);
    },
    16,
  );
  const m = sim.metrics();
  assert.ok(m.elections_total >= 3, `the faults moved leadership: ${m.elections_total} elections`);
  assert.equal(sim.failed, false);
  assert.equal(m.leaders_now, 1, "a leader after the heal");
});

test("self_demotes_when_renewal_fails", () => {
  // Seed: block the coordinator (the store) from node-a, wait one lease period: node-a is no
  // longer leader. design rule 4: it steps down on its own clock, before the store's
  // lease expires, without hearing anything (S03, S06).
  const sim = new Simulation(scenario("lease-fencing", { duration_ms: 10_000, config: { ttl_ms: TTL_MS } }));
  runUntilFound(sim, soleLeader);
  const leader = soleLeader(sim.snapshot());
  const cutAt = sim.now;
  const { cursor } = sim.eventsSince(0);
  sim.inject({ type: "partition", groups: [[ref(leader.id)], ["store"]] });
  sim.runUntil(cutAt + TTL_MS);

  const after = sim.snapshot().nodes.find((n) => n.id === leader.id);
  assert.notEqual(after.role, "Leader");
  assert.equal(after.status, "up");
  const { events } = sim.eventsSince(cursor);
  const down = events.find((e) => e.event === "node" && e.proc === leader.id && e.what === "stepped-down");
  assert.ok(down, "a stepped-down event");
  assert.equal(down.value, leader.token);
  assert.ok(down.time_ms <= leader.lease_deadline_ms + 1e-9, `stepped down at ${down.time_ms}, deadline ${leader.lease_deadline_ms}`);
  assert.ok(down.time_ms < cutAt + TTL_MS);
  assert.deepEqual(sim.violations(), []);
});
