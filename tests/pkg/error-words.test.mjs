// Errors in the caller's words (docs/conventions.md, "One representation per quantity, and
// errors in the caller's words"): every code of the machines' and the Simulation's error
// tables is provoked here, and no message shows Rust or serde notation (`None`, `Some(`,
// type names, `..=` ranges, "variant", "invalid digit", `Debug` braces).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { BullyNode, FencedResource, LeaseCandidate, LeaseStore, RaftNode } from "tenure";
import { failoverMeasure, Search } from "tenure/search";
import { Simulation } from "tenure/sim";
import { scenario } from "./simulation-helpers.mjs";
import { leaderlessMs } from "../../web/playground/counterexample.js";

/** The one list of Rust-isms, shared with the Rust error-wording tests (tests/words/rust-isms.txt). */
const RUST_ISMS = readFileSync(new URL("../words/rust-isms.txt", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "" && !line.startsWith("#"))
  .map((line) => JSON.parse(line));
assert.ok(RUST_ISMS.includes("None") && RUST_ISMS.includes("{ "), "rust-isms.txt read");

const vote = { type: "RequestVote", term: 1n, last_log_index: 0n, last_log_term: 0n, pre_vote: false };
const acquire = { type: "Acquire", id: 1n, key: "k", holder: 1n, session: 1n, ttl_ms: 10_000 };
const good = () => scenario("raft", { nodes: 3, duration_ms: 5_000 });
const revoked = () => {
  const { proxy, revoke } = Proxy.revocable([], {});
  revoke();
  return proxy;
};
const leader = () => {
  const n = new RaftNode({ seed: 1n });
  n.campaign(0);
  n.handleTimeout(1_000);
  return n;
};

/** [label, call]: each throws one coded error. */
const provoke = [
  ["token type", () => new FencedResource().check(5)],
  ["token range", () => new FencedResource().check(2n ** 64n)],
  ["millis type", () => new LeaseCandidate({ seed: 1n }).campaign("0")],
  ["millis range", () => new LeaseCandidate({ seed: 1n }).campaign(-1)],
  ["millis precision", () => new LeaseCandidate({ seed: 1n }).campaign(0.0004)],
  ["term type", () => new RaftNode({ peers: [2n], seed: 1n }).handleMessage(0, 2n, { ...vote, term: 1 })],
  ["term range", () => new RaftNode({ peers: [2n], seed: 1n }).handleMessage(0, 2n, { ...vote, term: -1n })],
  ["node id type", () => new RaftNode({ peers: [2] })],
  ["node id range", () => new RaftNode({ peers: [2n ** 64n] })],
  ["request id type", () => new LeaseStore().handle(0, { ...acquire, id: 1 })],
  ["request id range", () => new LeaseStore().handle(0, { ...acquire, id: -1n })],
  ["session type", () => new LeaseStore().handle(0, { ...acquire, session: "1" })],
  ["session range", () => new LeaseStore().handle(0, { ...acquire, session: 2n ** 64n })],
  ["index type", () => new RaftNode({ peers: [2n], seed: 1n }).handleMessage(0, 2n, { ...vote, last_log_index: 0 })],
  ["index range", () => new RaftNode({ peers: [2n], seed: 1n }).handleMessage(0, 2n, { ...vote, last_log_index: -1n })],
  ["epoch type", () => new BullyNode({ peers: [2n], seed: 1n }).handleMessage(0, 2n, { type: "Heartbeat", epoch: 1 })],
  ["epoch range", () => new BullyNode({ peers: [2n], seed: 1n }).handleMessage(0, 2n, { type: "Heartbeat", epoch: -1n })],
  ["seed type", () => new RaftNode({ seed: 1 })],
  ["seed range", () => new RaftNode({ seed: -1n })],
  ["command type", () => leader().propose(1_000, 5)],
  ["command range", () => leader().propose(1_000, 2n ** 64n)],
  ["context type", () => new RaftNode({ peers: [2n], seed: 1n }).handleMessage(0, 2n, { type: "AppendEntriesResponse", term: 0n, success: false, match_index: 0n, context: 1 })],
  ["context range", () => new RaftNode({ peers: [2n], seed: 1n }).handleMessage(0, 2n, { type: "AppendEntriesResponse", term: 0n, success: false, match_index: 0n, context: -1n })],
  ["object type", () => new RaftNode(5)],
  ["array type", () => new RaftNode({ peers: 2n })],
  ["missing key", () => new LeaseStore().handle(0, { type: "Acquire" })],
  ["unknown key", () => new LeaseCandidate({ ttl: 5 })],
  ["variant", () => new LeaseStore().handle(0, { ...acquire, type: "Steal" })],
  ["boolean type", () => new RaftNode({ pre_vote: "yes" })],
  ["string type", () => new LeaseCandidate({ key: 5 })],
  ["integer type", () => new LeaseCandidate({ max_drift_ppm: "5" })],
  ["integer range", () => new LeaseCandidate({ max_drift_ppm: 1.5 })],
  ["config: a default named", () => new LeaseCandidate({ ttl_ms: 1_000 })],
  ["config: raft", () => new RaftNode({ heartbeat_interval_ms: 500 })],
  ["config: bully", () => new BullyNode({ peers: [2n, 2n] })],
  ["not leader", () => new RaftNode({ seed: 1n }).propose(0, 1n)],
  ["already leader", () => leader().campaign(1_000)],
  ["too large", () => new LeaseStore().holder("k".repeat(70_000), 0)],
  ["revoked proxy", () => new RaftNode({ peers: revoked() })],
  ["freed", () => {
    const n = new RaftNode({ seed: 1n });
    n.free();
    n.handleTimeout(0);
  }],
  ["reentrant", () => {
    const store = new LeaseStore();
    store.handle(0, new Proxy(acquire, { get: (t, k, r) => (k === "type" && store.available, Reflect.get(t, k, r)) }));
  }],
  ["this type", () => FencedResource.prototype.write.call({}, 1n, "x")],
  ["scenario type", () => new Simulation({ ...good(), nodes: "3" })],
  ["scenario: unknown algorithm", () => new Simulation({ ...good(), algorithm: "paxos" })],
  ["scenario range", () => new Simulation({ ...good(), nodes: 0 })],
  ["scenario: seed past 2^53", () => new Simulation({ ...good(), seed: 2 ** 60 })],
  ["scenario unknown key", () => new Simulation({ ...good(), nodez: 3 })],
  ["fault type", () => new Simulation(good()).inject({ type: "meteor" })],
  ["fault: missing key", () => new Simulation(good()).inject({ type: "crash" })],
  ["fault range", () => new Simulation(good()).inject({ type: "crash", node: 9 })],
  ["cursor type", () => new Simulation(good()).eventsSince("0")],
  ["cursor range", () => new Simulation(good()).eventsSince(-1)],
  ["duplicate key", () => Simulation.fromJSON('{"nodes": 3, "nodes": 4}')],
  ["message id", () => new Simulation(good()).message(-1)],
  ["search type", () => new Search({ algorithm: "bully", property: "splitbrain" })],
  ["search: bare duration", () => new Search({ algorithm: "bully", property: "no-leader-for=2000" })],
  ["search unknown key", () => new Search({ algorithm: "bully", property: "split-brain", config: { ttl: 2 } })],
  ["search runs", () => new Search({ algorithm: "bully", property: "split-brain" }).runBatch(0)],
  ["search runs type", () => new Search({ algorithm: "bully", property: "split-brain" }).runBatch("5")],
  ["search: seed past 2^64", () => new Search({ algorithm: "bully", property: "split-brain", seed: 2n ** 64n })],
  ["search: families not a list", () => new Search({ algorithm: "bully", property: "split-brain", families: "kill" })],
  ["lab: NaN latency", () => failoverMeasure({ algorithm: "raft", latency_ms: [Number.NaN, 1] }, 0, 1)],
  ["state", () => RaftNode.restart({ seed: 1n }, { term: 1n, voted_for: null, log: [{ type: "Noop", term: 3n }] })],
];

/** Codes a test in Node cannot provoke: the caller's own exception, the browser's init guard,
 * and a campaign refusal the core has no case for today. */
const UNREACHABLE = new Set(["ERR_INPUT_THREW", "ERR_NOT_INITIALIZED", "ERR_CAMPAIGN"]);

test("every error code's message is in the caller's words", () => {
  const seen = new Map();
  for (const [label, call] of provoke) {
    let err;
    try {
      call();
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof Error, `${label}: nothing thrown`);
    assert.equal(typeof err.code, "string", `${label}: ${err}`);
    const words = err.message.replaceAll("invariant", ""); // the field's word; "variant" alone is Rust's
    for (const bad of RUST_ISMS) assert.ok(!words.includes(bad), `${label}: "${err.message}" contains "${bad}"`);
    assert.ok(!err.message.includes("\n"), `${label}: ${err.message}`);
    seen.set(err.code, err.message);
  }
  const table = [
    "ERR_TOKEN_TYPE", "ERR_TOKEN_RANGE", "ERR_MILLIS_TYPE", "ERR_MILLIS_RANGE", "ERR_MILLIS_PRECISION",
    "ERR_TERM_TYPE", "ERR_TERM_RANGE", "ERR_NODE_ID_TYPE", "ERR_NODE_ID_RANGE", "ERR_REQUEST_ID_TYPE",
    "ERR_REQUEST_ID_RANGE", "ERR_SESSION_TYPE", "ERR_SESSION_RANGE", "ERR_INDEX_TYPE", "ERR_INDEX_RANGE",
    "ERR_EPOCH_TYPE", "ERR_EPOCH_RANGE", "ERR_SEED_TYPE", "ERR_SEED_RANGE", "ERR_COMMAND_TYPE",
    "ERR_COMMAND_RANGE", "ERR_CONTEXT_TYPE", "ERR_CONTEXT_RANGE", "ERR_OBJECT_TYPE", "ERR_ARRAY_TYPE",
    "ERR_MISSING_KEY", "ERR_UNKNOWN_KEY", "ERR_VARIANT", "ERR_BOOLEAN_TYPE", "ERR_STRING_TYPE",
    "ERR_INTEGER_TYPE", "ERR_INTEGER_RANGE", "ERR_CONFIG", "ERR_STATE", "ERR_NOT_LEADER", "ERR_ALREADY_LEADER",
    "ERR_TOO_LARGE", "ERR_REVOKED_PROXY", "ERR_FREED", "ERR_REENTRANT", "ERR_THIS_TYPE", "ERR_SCENARIO_TYPE", "ERR_SCENARIO_RANGE",
    "ERR_FAULT_TYPE", "ERR_FAULT_RANGE", "ERR_CURSOR_TYPE", "ERR_CURSOR_RANGE", "ERR_DUPLICATE_KEY",
    "ERR_MESSAGE_ID", "ERR_SEARCH_TYPE", "ERR_SEARCH_RANGE",
  ];
  for (const code of table) assert.ok(UNREACHABLE.has(code) || seen.has(code), `${code} was not provoked`);
});

test("config errors name the keys as written, the defaults and the rule", () => {
  assert.throws(() => new LeaseCandidate({ ttl_ms: 1_000 }), (err) => err.code === "ERR_CONFIG" && err.message ===
    "invalid lease config: safety_margin_ms 1000 (the default) must be above 0 and below ttl_ms 1000: 0 < safety_margin_ms < ttl_ms (design rule 5)");
  assert.throws(() => new RaftNode({ seed: 1n }).propose(0, 1n), (err) => /no leader is known yet \(leaderId is undefined\)/.test(err.message));
  assert.throws(() => new FencedResource().check(-1n), (err) => /from 0n to 2n \*\* 64n - 1n/.test(err.message));
  assert.throws(() => new Simulation({ ...good(), algorithm: "paxos" }), (err) => /"paxos" is not one of lease-fencing, lease-unfenced, raft, /.test(err.message));
  assert.throws(() => new Simulation({ ...good(), seed: 2 ** 60 }), (err) => /above 2 \*\* 53 - 1.*bigint or a decimal string/.test(err.message));
});

test("search and failover-lab options speak JSON words, not serde's", () => {
  const words = (fn, pattern) =>
    assert.throws(fn, (err) => {
      assert.match(err.message, pattern);
      for (const bad of RUST_ISMS) assert.ok(!err.message.includes(bad), `${JSON.stringify(bad)} in: ${err.message}`);
      return true;
    });
  words(() => new Search({ algorithm: "paxos", property: "split-brain" }), /"paxos" is not one of lease-fencing, /);
  words(() => Search.promises("paxos"), /"paxos" is not one of /);
  words(() => Simulation.promises("paxos"), /^algorithm: "paxos" is not one of lease-fencing, /);
  words(() => Simulation.promises(5), /^algorithm: number 5 is not one of /);
  words(() => failoverMeasure({ algorithm: "raft", foo: 1 }, 0, 5), /unknown key "foo"; the keys are /);
});

test("data the caller did not write as text gets no line or column", () => {
  const msg = (fn) => {
    try {
      fn();
    } catch (e) {
      return e.message;
    }
    assert.fail("nothing thrown");
  };
  const nodes = msg(() => new Simulation({ ...good(), nodes: "3" }));
  assert.match(nodes, /nodes: expected a whole number from 1 to 64, got the string "3"/);
  assert.doesNotMatch(nodes, / at line \d+ column/);
  const cfg = msg(() => new Search({ algorithm: "raft", property: "split-brain", config: { election_timeout_ms: "x" } }));
  assert.match(cfg, /^search options: config(?::\s*|\.)election_timeout_ms: /);
  assert.doesNotMatch(cfg, / at line \d+ column/);
  const lab = msg(() => failoverMeasure({ algorithm: "raft", nodes: "5" }, 0, 1));
  assert.doesNotMatch(lab, / at line \d+ column/);
  // A time finer than 1 microsecond is refused, with the value and the resolution, as the CLI's
  // scenario reader refuses it.
  const fine = msg(() => new Simulation({ ...good(), duration_ms: 1000.0004 }));
  assert.match(fine, /1000\.0004 ms is finer than 1 microsecond \(0\.001 ms\)/);
});

test("runBatch refuses a string instead of running it", () => {
  const search = new Search({ algorithm: "bully", property: "split-brain" });
  assert.throws(() => search.runBatch("5"), (err) => err instanceof TypeError && err.code === "ERR_SEARCH_TYPE" && /runs must be a number, got/.test(err.message));
  assert.equal(search.progress().runs, 0, "nothing ran");
  assert.throws(() => Search.shrink(good(), "split-brain", "10"), (err) => err.code === "ERR_SEARCH_TYPE");
});

test("stated ranges are what is accepted", () => {
  assert.throws(() => new RaftNode({ seed: 1n, max_entries_per_append: 0 }), (err) =>
    err.code === "ERR_INTEGER_RANGE" && /from 1 to 65536/.test(err.message));
  assert.throws(() => new RaftNode({ seed: 1n, max_inflight_appends: 0 }), (err) => /from 1 to /.test(err.message));
  new RaftNode({ seed: 1n, max_entries_per_append: 1, max_inflight_appends: 1 }).free();
});

test("the playground reads no-leader-for= as the CLI and Search read it", () => {
  for (const property of ["no-leader-for=2000", "no-leader-for=2s", "no-leader-for=1.5s", "no-leader-for=250ms", "no-leader-for=0s", "no-leader-for=1.0005s", "no-leader-for=2m", "no-leader-for=1h", "no-leader-for=1.ms", "no-leader-for=.5s", "no-leader-for=0.5ms", "no-leader-for=1us", "no-leader-for=.s", "no-leader-for=-1s"]) {
    let searchAccepts = true;
    try {
      new Search({ algorithm: "bully", property }).free();
    } catch {
      searchAccepts = false;
    }
    assert.equal(leaderlessMs(property) != null, searchAccepts, property);
  }
  assert.equal(leaderlessMs("no-leader-for=1.5s"), 1500);
  assert.equal(leaderlessMs("no-leader-for=1h"), 3_600_000);
});
