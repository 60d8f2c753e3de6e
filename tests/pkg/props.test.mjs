// Property tests through the package (convention 10: invariants, not
// traces). Random sequences of valid and invalid calls never crash an instance and keep the
// lease invariants: one valid holder per key, a believing leader holds the store's valid
// lease (rule 4), tokens never go back (rule 2), a write right after a passing check is
// accepted (rule 1). Raft keeps election safety (§5.2) under random delivery, loss and
// duplication. fast-check prints the seed and the shrunk counterexample on failure.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { BullyNode, FencedResource, LeaseCandidate, LeaseStore, RaftNode } from "tenure";

const KEY = "k";
const RUNS = Number(process.env.TENURE_PROP_RUNS ?? 300);

/** Values that no time, bigint or object argument accepts, by kind. */
const BAD = {
  time: [NaN, Infinity, -1, 0.0004, 2 ** 70, "7", 7n, null, undefined, {}, Symbol("s")],
  bigint: [7, 1.5, "7", -1n, 2n ** 64n, null, undefined, {}],
  object: [null, 7, "x", [], {}, { type: "Nope" }, { type: "Acquire", id: 1n }],
};
/** An index into one of the BAD lists (taken modulo its length). */
const badValue = fc.nat(100);
const bad = (kind, i) => BAD[kind][i % BAD[kind].length];

function expectCoded(call) {
  try {
    call();
  } catch (err) {
    assert.ok(err instanceof TypeError || err instanceof RangeError, `${err}`);
    assert.match(err.code, /^ERR_[A-Z_]+$/);
    return;
  }
  assert.fail("an invalid call did not throw");
}

const leaseCommand = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("advance"), ms: fc.integer({ min: 0, max: 150 }), us: fc.integer({ min: 0, max: 999 }) }), weight: 4 },
  { arbitrary: fc.constant({ kind: "flush" }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constantFrom("campaign", "timeout", "release", "write", "check"), c: fc.nat(2) }), weight: 6 },
  { arbitrary: fc.record({ kind: fc.constantFrom("request", "response"), i: fc.nat(), dup: fc.boolean(), drop: fc.boolean() }), weight: 6 },
  { arbitrary: fc.record({ kind: fc.constant("outage"), down: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("invalid"), c: fc.nat(2), which: fc.nat(9), value: badValue }), weight: 2 },
);

class LeaseWorld {
  constructor(seed) {
    this.now = 0;
    this.store = new LeaseStore();
    this.resource = new FencedResource();
    this.candidates = [1n, 2n, 3n].map(
      (holder, i) =>
        new LeaseCandidate({ holder, key: KEY, ttl_ms: 1_000, safety_margin_ms: 100, max_round_trip_ms: 200, retry_interval_ms: 100, retry_jitter_ms: 50, request_timeout_ms: 100, seed: BigInt(seed + i) }),
    );
    this.requests = []; // StoreRequest objects in flight
    this.responses = []; // { to, response }
    this.lastToken = 0n;
    this.lastElected = 0n;
  }

  drain(i) {
    const c = this.candidates[i];
    for (let out = c.pollOutput(); out; out = c.pollOutput()) {
      if (out.type === "Send") this.requests.push(out.request);
      else if (out.event.type === "Elected") {
        assert.ok(out.event.token >= this.lastElected, `Elected ${out.event.token} after ${this.lastElected}`);
        this.lastElected = out.event.token;
      }
    }
  }

  apply(cmd) {
    const c = this.candidates[cmd.c];
    switch (cmd.kind) {
      case "advance":
        this.now += cmd.ms + cmd.us / 1000;
        return;
      case "campaign":
        c.campaign(this.now);
        break;
      case "timeout": {
        const due = c.pollTimeout();
        if (due !== undefined && due <= this.now) c.handleTimeout(this.now);
        break;
      }
      case "release":
        c.release(this.now);
        break;
      case "check":
        c.assertLeadership(this.now);
        break;
      case "write": {
        const check = c.assertLeadership(this.now);
        if (check.leader) {
          const result = this.resource.write(check.token, `${c.config.holder}@${this.now}`);
          assert.equal(result.accepted, true, "a write right after a passing check is accepted");
        } else if (c.token !== undefined) {
          assert.fail("a candidate refused by assertLeadership still reports a token");
        }
        break;
      }
      case "request":
      case "response": {
        const queue = cmd.kind === "request" ? this.requests : this.responses;
        if (queue.length === 0) return;
        const index = cmd.i % queue.length;
        const item = cmd.dup ? queue[index] : queue.splice(index, 1)[0];
        if (cmd.drop) return;
        if (cmd.kind === "request") {
          const response = this.store.handle(this.now, item);
          if (response !== undefined) this.responses.push({ to: Number(item.holder) - 1, response });
        } else {
          this.candidates[item.to].handleResponse(this.now, item.response);
          this.drain(item.to);
        }
        return;
      }
      case "outage":
        this.store.setAvailable(!cmd.down);
        return;
      case "flush":
        // A reliable moment: every request, then every response, delivered in order.
        while (this.requests.length > 0 || this.responses.length > 0) {
          this.apply({ kind: this.requests.length > 0 ? "request" : "response", i: 0, dup: false, drop: false });
        }
        return;
      case "invalid": {
        const calls = [
          ["time", (v) => c.campaign(v)],
          ["time", (v) => c.handleTimeout(v)],
          ["time", (v) => c.release(v)],
          ["time", (v) => c.assertLeadership(v)],
          ["object", (v) => c.handleResponse(this.now, v)],
          ["time", (v) => c.handleResponse(v, { type: "Released", id: 1n, key: KEY })],
          ["bigint", (v) => c.reportFenced(this.now, { presented: v, required: 1n })],
          ["time", (v) => this.store.handle(v, { type: "Acquire", id: 1n, key: KEY, holder: 9n, session: 9n, ttl_ms: 1 })],
          ["bigint", (v) => this.store.handle(this.now, { type: "Renew", id: 1n, key: KEY, holder: 1n, session: 1n, token: v, ttl_ms: 1 })],
          ["object", (v) => this.store.handle(this.now, v)],
        ];
        const [kind, call] = calls[cmd.which];
        expectCoded(() => call(bad(kind, cmd.value)));
        return;
      }
    }
    this.drain(cmd.c);
  }

  checkInvariants() {
    const last = this.store.lastToken(KEY) ?? 0n;
    assert.ok(last >= this.lastToken, `store token went back from ${this.lastToken} to ${last}`);
    this.lastToken = last;
    const holder = this.store.holder(KEY, this.now);
    let leaders = 0;
    this.candidates.forEach((c, i) => {
      const check = c.assertLeadership(this.now);
      this.drain(i);
      if (!check.leader) return;
      leaders += 1;
      // Rule 4 with one shared clock: the believing leader's lease is valid at the store.
      assert.ok(holder, `candidate ${i + 1} leads with ${check.token} but the store has no valid holder`);
      assert.equal(holder.holder, c.config.holder);
      assert.equal(holder.token, check.token);
      assert.ok(check.token <= last);
    });
    assert.ok(leaders <= 1, `${leaders} candidates lead at ${this.now}`);
  }
}

test("lease_random_calls_never_crash_and_keep_the_invariants", () => {
  fc.assert(
    fc.property(fc.nat(1_000_000), fc.array(leaseCommand, { maxLength: 150, size: "max" }), (seed, commands) => {
      const world = new LeaseWorld(seed);
      for (const cmd of commands) {
        world.apply(cmd);
        world.checkInvariants();
      }
    }),
    { numRuns: RUNS },
  );
});

const raftCommand = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("advance"), ms: fc.integer({ min: 0, max: 120 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constantFrom("timeout", "propose", "campaign"), n: fc.nat(2) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant("deliver"), i: fc.nat(), dup: fc.boolean(), drop: fc.boolean() }), weight: 8 },
  { arbitrary: fc.constant({ kind: "flush", n: 0 }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("forged"), n: fc.nat(2), from: fc.bigInt({ min: 0n, max: 5n }), term: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("invalid"), n: fc.nat(2), which: fc.nat(4), value: badValue }), weight: 1 },
);

test("raft_random_delivery_keeps_one_leader_per_term_and_never_crashes", () => {
  // Raft §5.2 election safety, with loss, duplication and reordering of real messages, plus
  // forged messages (unknown senders, huge terms) and invalid calls.
  fc.assert(
    fc.property(fc.nat(1_000_000), fc.boolean(), fc.array(raftCommand, { maxLength: 200, size: "max" }), (seed, preVote, commands) => {
      const ids = [1n, 2n, 3n];
      const nodes = ids.map((id, i) => new RaftNode({ id, peers: ids.filter((p) => p !== id), pre_vote: preVote, seed: BigInt(seed + i) }));
      const queue = [];
      const leaderOfTerm = new Map();
      let now = 0;
      const drain = (node) => {
        for (let out = node.pollOutput(); out; out = node.pollOutput()) {
          assert.ok(["Send", "Persist", "Event"].includes(out.type));
          if (out.type === "Send") queue.push({ from: node.id, to: out.to, msg: out.msg });
          if (out.type === "Event" && out.event.type === "BecameLeader") {
            const other = leaderOfTerm.get(out.event.term);
            assert.ok(other === undefined || other === node.id, `term ${out.event.term} has leaders ${other} and ${node.id}`);
            leaderOfTerm.set(out.event.term, node.id);
          }
        }
      };
      for (const cmd of commands) {
        const node = nodes[cmd.n];
        if (cmd.kind === "advance") now += cmd.ms;
        else if (cmd.kind === "timeout") node.handleTimeout(now);
        else if (cmd.kind === "propose" && node.role === "Leader") {
          // `role` is as of the node's last input; a leader whose CheckQuorum deadline passed
          // since steps down on this input first and refuses with ERR_NOT_LEADER (RaftNode
          // docs, "CheckQuorum and the leader lease"). Any other throw fails the property.
          try {
            node.propose(now, BigInt(now));
          } catch (err) {
            assert.equal(err.code, "ERR_NOT_LEADER", String(err));
            assert.notEqual(node.role, "Leader");
          }
        }
        else if (cmd.kind === "campaign" && node.role !== "Leader" && node.term < 2n ** 64n - 1n) node.campaign(now);
        else if (cmd.kind === "deliver" && queue.length > 0) {
          const index = cmd.i % queue.length;
          const m = cmd.dup ? queue[index] : queue.splice(index, 1)[0];
          if (!cmd.drop) {
            const to = nodes[Number(m.to) - 1];
            to.handleMessage(now, m.from, m.msg);
            drain(to);
          }
        } else if (cmd.kind === "flush") {
          for (let guard = 0; queue.length > 0 && guard < 200; guard++) {
            const m = queue.shift();
            const to = nodes[Number(m.to) - 1];
            to.handleMessage(now, m.from, m.msg);
            drain(to);
          }
        } else if (cmd.kind === "forged") {
          node.handleMessage(now, cmd.from, { type: "AppendEntriesResponse", term: cmd.term, success: true, match_index: cmd.term });
          // A forged higher-term message may make a node follow a term no election happened in.
        } else if (cmd.kind === "invalid") {
          const calls = [
            ["time", (v) => node.handleTimeout(v)],
            ["bigint", (v) => node.handleMessage(now, v, { type: "RequestVoteResponse", term: 1n, granted: true, pre_vote: false })],
            ["object", (v) => node.handleMessage(now, 2n, v)],
            ["bigint", (v) => node.propose(now, v)],
            ["time", (v) => node.campaign(v)],
          ];
          const [kind, call] = calls[cmd.which];
          expectCoded(() => call(bad(kind, cmd.value)));
        }
        if (node) drain(node);
      }
    }),
    { numRuns: RUNS },
  );
});

test("bully_random_messages_and_invalid_calls_never_crash", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          fc.record({ kind: fc.constant("msg"), at: fc.integer({ min: 0, max: 10_000 }), from: fc.bigInt({ min: 0n, max: 4n }), type: fc.constantFrom("Election", "Answer", "Coordinator", "Heartbeat"), epoch: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }) }),
          fc.record({ kind: fc.constantFrom("timeout", "elect"), at: fc.integer({ min: 0, max: 10_000 }) }),
          fc.record({ kind: fc.constant("invalid"), value: badValue }),
        ),
        { maxLength: 80, size: "max" },
      ),
      (commands) => {
        const node = new BullyNode({ id: 2n, peers: [1n, 3n], seed: 1n });
        for (const cmd of commands) {
          if (cmd.kind === "msg") {
            const msg = cmd.type === "Coordinator" ? { type: cmd.type, coordinator: cmd.from, epoch: cmd.epoch } : { type: cmd.type, epoch: cmd.epoch };
            node.handleMessage(cmd.at, cmd.from, msg);
          } else if (cmd.kind === "timeout") node.handleTimeout(cmd.at);
          else if (cmd.kind === "elect") node.startElection(cmd.at);
          else expectCoded(() => node.handleMessage(bad("time", cmd.value), 1n, { type: "Answer", epoch: 1n }));
          let count = 0;
          for (let out = node.pollOutput(); out; out = node.pollOutput()) count += 1;
          assert.ok(count <= 2 * (2 + 8), "outputs per input stay bounded");
          assert.ok(["Follower", "Candidate", "Coordinator"].includes(node.role));
        }
      },
    ),
    { numRuns: RUNS },
  );
});
