// RaftNode through the built package: a three-node election driven from
// JS by passing the messages by hand. Rules: Raft §5 and design rule 6; S11 (persist
// before the vote leaves).
import assert from "node:assert/strict";
import { test } from "node:test";
import { RaftNode } from "tenure";
import { Cluster, show } from "./helpers/cluster.mjs";

const IDS = [1n, 2n, 3n];
const config = (id, extra = {}) => ({
  id,
  peers: IDS.filter((p) => p !== id),
  election_timeout_ms: 150,
  heartbeat_interval_ms: 50,
  seed: 100n + id,
  ...extra,
});

test("three_node_election_by_hand_one_leader_and_followers_agree", () => {
  const nodes = IDS.map((id) => new RaftNode(config(id)));
  for (const node of nodes) {
    assert.equal(node.pollTimeout(), 0, "a fresh node's Start timer is due at once");
    assert.equal(node.nextTimer.kind, "Start");
  }
  // Pass every message by hand: n1 campaigns now, then deliver until the queue is empty.
  const queue = [];
  const drain = (node) => {
    for (let out = node.pollOutput(); out; out = node.pollOutput()) {
      if (out.type === "Send") queue.push({ from: node.id, to: out.to, msg: out.msg });
    }
  };
  for (const node of nodes) {
    node.handleTimeout(0);
    drain(node);
    assert.equal(node.nextTimer.kind, "Election");
    const t = node.nextTimer.deadline_ms;
    assert.ok(t >= 150 && t < 300, `election timeout ${t} in [T, 2T) (Raft §5.2)`);
  }
  const [n1, n2, n3] = nodes;
  n1.campaign(10);
  drain(n1);
  assert.equal(n1.role, "PreCandidate", "PreVote is on by default (dissertation §9.6)");
  const seen = [];
  while (queue.length > 0) {
    const m = queue.shift();
    seen.push(m.msg.type + (m.msg.pre_vote ? "(pre)" : ""));
    const to = nodes.find((n) => n.id === m.to);
    to.handleMessage(20, m.from, m.msg);
    drain(to);
  }
  assert.ok(seen.includes("RequestVote(pre)") && seen.includes("RequestVote"), show(seen));
  assert.equal(n1.role, "Leader");
  assert.equal(n1.term, 1n);
  assert.equal(n1.leaderId, 1n);
  for (const n of [n2, n3]) {
    assert.equal(n.role, "Follower");
    assert.equal(n.term, 1n);
    assert.equal(n.votedFor, 1n);
    assert.equal(n.leaderId, 1n, "the no-op AppendEntries told the followers");
  }
  assert.deepEqual(n1.log, [{ type: "Noop", term: 1n }], "a new leader appends a no-op (§5.4.2)");
  assert.equal(n1.commitIndex, 1n);
  assert.equal(n1.nextTimer.kind, "Heartbeat");
});

test("propose_replicates_and_commits_then_followers_learn_the_commit", () => {
  const cluster = new Cluster(IDS.map((id) => new RaftNode(config(id))));
  cluster.runUntil(1_000);
  const leaders = [...cluster.nodes.values()].filter((n) => n.role === "Leader");
  assert.equal(leaders.length, 1, "election safety: one leader");
  const leader = leaders[0];
  const index = leader.propose(cluster.now, 42n);
  cluster.drain(leader.id);
  assert.equal(index, 2n, "after the no-op");
  cluster.runUntil(cluster.now + 200);
  assert.ok(cluster.eventsOf(leader.id, "Committed").some((e) => e.event.index >= 2n));
  for (const node of cluster.nodes.values()) {
    assert.equal(node.commitIndex, 2n, `n${node.id} learned the commit`);
    assert.deepEqual(node.log.at(-1), { type: "Command", term: leader.term, command: 42n });
  }
  const follower = [...cluster.nodes.values()].find((n) => n !== leader);
  assert.throws(
    () => follower.propose(cluster.now, 1n),
    (err) => err instanceof Error && err.code === "ERR_NOT_LEADER" && /not the leader of term/.test(err.message),
  );
  assert.throws(() => leader.campaign(cluster.now), (err) => err.code === "ERR_ALREADY_LEADER");
  assert.equal(leader.matchIndex(follower.id), 2n);
  assert.equal(leader.matchIndex(99n), undefined);
});

test("s11_persist_precedes_the_vote_and_a_restart_keeps_term_and_vote", () => {
  // S11 (nebula#3415): the voter's outputs carry Persist(HardState) before the granted
  // RequestVoteResponse; rebuilt from what it persisted, it refuses another candidate.
  const cluster = new Cluster(IDS.map((id) => new RaftNode(config(id, { pre_vote: false }))));
  cluster.input(1n, (n) => n.handleTimeout(0));
  cluster.input(2n, (n) => n.handleTimeout(0));
  cluster.input(3n, (n) => n.handleTimeout(0));
  cluster.input(1n, (n) => n.campaign(1));
  cluster.runUntil(5);
  const out3 = cluster.outputs.get(3n);
  const persistAt = out3.findIndex((o) => o.type === "Persist" && o.op.type === "HardState" && o.op.voted_for === 1n);
  const voteAt = out3.findIndex((o) => o.type === "Send" && o.msg.type === "RequestVoteResponse" && o.msg.granted);
  assert.ok(persistAt >= 0 && voteAt > persistAt, show(out3));

  const n3 = cluster.nodes.get(3n);
  const persisted = n3.persistentState;
  assert.deepEqual({ term: persisted.term, voted_for: persisted.voted_for }, { term: 1n, voted_for: 1n });
  const restarted = RaftNode.restart(n3.config, persisted);
  assert.equal(restarted.term, 1n);
  assert.equal(restarted.votedFor, 1n);
  assert.equal(restarted.commitIndex, 0n, "the commit index is volatile");
  assert.equal(restarted.role, "Follower");
  restarted.handleTimeout(10);
  restarted.handleMessage(10, 2n, { type: "RequestVote", term: 1n, last_log_index: 9n, last_log_term: 1n, pre_vote: false });
  const replies = [];
  for (let out = restarted.pollOutput(); out; out = restarted.pollOutput()) if (out.type === "Send") replies.push(out.msg);
  assert.deepEqual(replies, [{ type: "RequestVoteResponse", term: 1n, granted: false, pre_vote: false }], "one vote per term");
});

test("unknown_senders_stale_terms_and_huge_terms_never_throw", () => {
  // Peer behaviour is state or ignored, never an error (docs/design.md sans-IO contract).
  const node = new RaftNode(config(1n));
  node.handleTimeout(0);
  const max = 2n ** 64n - 1n;
  node.handleMessage(1, 77n, { type: "RequestVote", term: 5n, last_log_index: 0n, last_log_term: 0n, pre_vote: false });
  assert.equal(node.term, 0n, "unknown sender ignored");
  node.handleMessage(2, 2n, { type: "AppendEntries", term: max, prev_log_index: 0n, prev_log_term: 0n, entries: [{ type: "Command", term: max, command: max }], leader_commit: max });
  assert.equal(node.term, max);
  assert.equal(node.leaderId, 2n);
  assert.throws(() => node.campaign(3), (err) => err.code === "ERR_TERM_EXHAUSTED");
  node.handleMessage(4, 3n, { type: "AppendEntriesResponse", term: 1n, success: true, match_index: 5n });
  for (let out = node.pollOutput(); out; out = node.pollOutput()) assert.ok(["Send", "Persist", "Event"].includes(out.type));
  assert.equal(node.timer("Election") > 0, true);
  assert.equal(node.timer("Heartbeat"), undefined);
  assert.deepEqual(node.votes, []);
  const json = JSON.parse(JSON.stringify(node));
  assert.equal(json.term, String(max));
});

test("restart refuses a persisted log no node writes with ERR_STATE, naming the entry", () => {
  // Terms along a Raft log never fall (Raft §5.3), and none passes the persisted term
  // (Figure 2); such a log was taken before, and a node restarted from it could break Log
  // Matching.
  const config = { id: 1n, peers: [2n, 3n], seed: 1n };
  const cases = [
    [{ term: 5n, voted_for: null, log: [{ type: "Command", term: 5n, command: 1n }, { type: "Command", term: 2n, command: 1n }] },
      "invalid persisted state: log[1].term 2 is below the term 5 before it: a log's terms never fall (Raft §5.3)"],
    [{ term: 1n, voted_for: null, log: [{ type: "Noop", term: 3n }] },
      "invalid persisted state: log[0].term 3 is above the persisted term 1: no node appends entries of a term it has not taken (Raft Figure 2)"],
  ];
  for (const [state, message] of cases) {
    assert.throws(() => RaftNode.restart(config, state), (err) => err instanceof RangeError && err.code === "ERR_STATE" && err.message === message);
  }
  const ok = RaftNode.restart(config, { term: 4n, voted_for: 2n, log: [{ type: "Noop", term: 2n }, { type: "Command", term: 4n, command: 7n }] });
  assert.equal(ok.term, 4n);
  ok.free();
});
