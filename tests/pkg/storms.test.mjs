// The storm regressions through the package: the Simulation the page and users run must keep
// the message bounds of RaftNode ("Flow control and the message bound") and BullyNode
// ("Message bound"). Before the fix a 3-node Raft run with a command every 5 ms and 50%
// duplication sent 9 million messages in one simulated second.
import assert from "node:assert/strict";
import { test } from "node:test";
import { RaftNode } from "tenure";
import { Simulation } from "tenure/sim";

const sent = (scenario) => {
  const sim = new Simulation({ version: 1, seed: 1, ...scenario });
  sim.runUntil(scenario.duration_ms);
  return sim.snapshot().metrics.messages_sent;
};

test("raft_half_duplicated_commands_every_5ms_stay_within_the_bound", () => {
  const m = sent({ algorithm: "raft", nodes: 3, duration_ms: 2000, config: { propose_interval_ms: 5 }, network: { duplicate: 0.5 } });
  const bound = 4 * 2 * (1000 / 50 + 1000 / 5) * 2 + 8;
  assert.ok(m <= bound, `${m} messages in 2 s, bound ${bound}`);
  assert.ok(m > 500, `${m}: the cluster is replicating`);
});

// Before the fix: 2-4 million messages in 5 s at 1-2% duplication.
test("raft_one_and_two_percent_duplication_over_5s_stay_within_the_bound", () => {
  for (const duplicate of [0.01, 0.02]) {
    const m = sent({ algorithm: "raft", nodes: 3, duration_ms: 5000, config: { propose_interval_ms: 5 }, network: { duplicate } });
    const bound = 4 * 2 * (1000 / 50 + 1000 / 5) * 5 + 8;
    assert.ok(m <= bound, `duplicate ${duplicate}: ${m} messages in 5 s, bound ${bound}`);
    assert.ok(m > 1000, `${m}: the cluster is replicating`);
  }
});

test("raft_12ms_heartbeat_five_nodes_stays_within_the_bound", () => {
  const m = sent({ algorithm: "raft", nodes: 5, duration_ms: 5000, config: { heartbeat_interval_ms: 12, propose_interval_ms: 5 } });
  const bound = 4 * 4 * (Math.floor(1000 / 12) + 1000 / 5) * 5 + 16;
  assert.ok(m <= bound, `${m} messages in 5 s, bound ${bound}`);
});

// BullyNode "Message bound": elections are staggered by rank, so the highest id announces
// once (n - 1 messages) and the others follow silently; then n - 1 heartbeats per 50 ms.
test("bully_start_up_is_linear_at_5_25_64_nodes", () => {
  for (const nodes of [5, 25, 64]) {
    const m = sent({ algorithm: "bully", nodes, duration_ms: 5000 });
    const bound = (nodes - 1) * (1 + 5000 / 50);
    assert.equal(m, bound, `${nodes} nodes: ${m} messages in 5 s, bound ${bound}`);
  }
});

// A coordinator crash costs at most 2 (n - 1) messages: the highest live follower asks the
// dead id above it and announces to every peer; the lower ones wait their turn and follow.
test("bully_failover_election_is_linear_at_5_25_64_nodes", () => {
  for (const nodes of [5, 25, 64]) {
    const sim = new Simulation({
      version: 1, seed: 1, algorithm: "bully", nodes, duration_ms: 5000,
      faults: [{ at_ms: 1010, fault: { type: "crash", node: nodes } }],
    });
    sim.runUntil(1010);
    const atCrash = sim.snapshot().metrics.messages_sent;
    let t = 1010;
    while (sim.snapshot().metrics.leaders_now === 0 && t < 5000) sim.runUntil(++t);
    const leaders = sim.snapshot().nodes.filter((n) => n.acting_leader).map((n) => n.id);
    assert.deepEqual(leaders, [nodes - 1], `${nodes} nodes`);
    const election = sim.snapshot().metrics.messages_sent - atCrash;
    assert.ok(election <= 2 * (nodes - 1), `${nodes} nodes: ${election} messages, bound ${2 * (nodes - 1)}`);
    assert.equal(election, nodes, `${nodes} nodes: one Election and n - 1 announcements`);
    assert.ok(t - 1000 <= 310, `${nodes} nodes: elected ${t - 1000} ms after the last heartbeat`);
  }
});

test("raft_timeout_range_and_leader_lease_are_config_keys", () => {
  const node = new RaftNode({ id: 1n, peers: [2n, 3n], election_timeout_ms: 150, election_timeout_max_ms: 155, leader_lease: true, seed: 1n });
  assert.equal(node.config.election_timeout_max_ms, 155);
  assert.equal(node.config.leader_lease, true);
  assert.equal(node.config.max_inflight_appends, 8);
  assert.equal(new RaftNode({ seed: 1n }).config.election_timeout_max_ms, 300, "default [T, 2T)");
  node.handleTimeout(0);
  const t = node.timer("Election");
  assert.ok(t >= 150 && t < 155, `${t}`);
  assert.equal(node.isActingLeader, false);
  assert.throws(() => new RaftNode({ election_timeout_ms: 150, election_timeout_max_ms: 150 }), /election_timeout_max/);
  // The echoed context is a u64 like every other: a wrong type or range is a coded error,
  // absent means 0n, and the node keeps working.
  const ack = { type: "AppendEntriesResponse", term: 0n, success: true, match_index: 0n };
  assert.throws(() => node.handleMessage(1, 2n, { ...ack, context: 5 }), (e) => e.code === "ERR_CONTEXT_TYPE" && e instanceof TypeError);
  assert.throws(() => node.handleMessage(1, 2n, { ...ack, context: -1n }), (e) => e.code === "ERR_CONTEXT_RANGE" && e instanceof RangeError);
  node.handleMessage(1, 2n, ack);
  node.handleMessage(1, 2n, { ...ack, context: 7n });
  assert.throws(() => new RaftNode({ leader_lease: true, check_quorum: false }), /check_quorum/);
  const sim = new Simulation({ version: 1, algorithm: "raft", nodes: 3, seed: 1, duration_ms: 1000, config: { election_timeout_max_ms: 155, leader_lease: true } });
  sim.runUntil(1000);
  assert.equal(sim.snapshot().nodes.filter((n) => n.role === "Leader").length, 1);
  assert.throws(() => new Simulation({ version: 1, algorithm: "bully", nodes: 3, seed: 1, duration_ms: 10, config: { leader_lease: true } }), /leader_lease/);
});
