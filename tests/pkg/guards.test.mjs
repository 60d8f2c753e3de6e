// Every entry point validates its input (docs/design.md "Time and numbers"):
// NaN, Infinity, negative values, fractions below 1 us, values >= 2^64, wrong types and
// unknown keys throw TypeError/RangeError with a stable `code` and a message naming the value,
// and the instance keeps working afterwards.
import assert from "node:assert/strict";
import { test } from "node:test";
import { BullyNode, LeaseCandidate, LeaseStore, RaftNode } from "tenure";
import { drain } from "./helpers/lease.mjs";

const BAD_MILLIS = [
  [NaN, RangeError, "ERR_MILLIS_RANGE", /got NaN/],
  [Infinity, RangeError, "ERR_MILLIS_RANGE", /got Infinity/],
  [-Infinity, RangeError, "ERR_MILLIS_RANGE", /got -Infinity/],
  [-1, RangeError, "ERR_MILLIS_RANGE", /got -1/],
  [-0.001, RangeError, "ERR_MILLIS_RANGE", /got -0.001/],
  [0.0004, RangeError, "ERR_MILLIS_PRECISION", /whole number of microseconds.*got 0.0004/],
  [12.3456789, RangeError, "ERR_MILLIS_PRECISION", /got 12.3456789/],
  [2 ** 64 / 1000, RangeError, "ERR_MILLIS_RANGE", /from 0 to 18446744073709551 \(2 \*\* 64 microseconds\)/],
  [1e300, RangeError, "ERR_MILLIS_RANGE", /got 1e\+300/],
  ["5", TypeError, "ERR_MILLIS_TYPE", /got string "5"/],
  [5n, TypeError, "ERR_MILLIS_TYPE", /got bigint 5n/],
  [undefined, TypeError, "ERR_MILLIS_TYPE", /got undefined/],
  [null, TypeError, "ERR_MILLIS_TYPE", /got null/],
  [{}, TypeError, "ERR_MILLIS_TYPE", /got object/],
];

const badBigints = (quantity) => [
  [5, TypeError, `ERR_${quantity}_TYPE`, /must be a bigint, got number 5/],
  ["5", TypeError, `ERR_${quantity}_TYPE`, /got string "5"/],
  [undefined, TypeError, `ERR_${quantity}_TYPE`, /got undefined/],
  [null, TypeError, `ERR_${quantity}_TYPE`, /got null/],
  [-1n, RangeError, `ERR_${quantity}_RANGE`, /got -1n/],
  [2n ** 64n, RangeError, `ERR_${quantity}_RANGE`, /got 18446744073709551616n/],
];

const BAD_OBJECTS = [
  [null, TypeError, "ERR_OBJECT_TYPE", /must be an object, got null/],
  [5, TypeError, "ERR_OBJECT_TYPE", /got number 5/],
  ["Acquire", TypeError, "ERR_OBJECT_TYPE", /got string/],
  [[], TypeError, "ERR_OBJECT_TYPE", /got array/],
];

function expectThrow(call, [value, cls, code, message], label) {
  assert.throws(
    () => call(value),
    (err) => {
      assert.ok(err instanceof cls, `${label}: ${err} is not a ${cls.name}`);
      assert.equal(err.code, code, `${label}: ${err.message}`);
      assert.match(err.message, message, label);
      return true;
    },
    label,
  );
}

// ----- fixtures: a fresh instance, valid arguments, and a check that it still works -----

const acquire = () => ({ type: "Acquire", id: 1n, key: "k", holder: 1n, session: 1n, ttl_ms: 10_000 });
const granted = () => ({ type: "Granted", id: 1n, key: "leader", token: 1n, ttl_ms: 10_000 });
const vote = () => ({ type: "RequestVote", term: 1n, last_log_index: 0n, last_log_term: 0n, pre_vote: false });
const heartbeat = () => ({ type: "Heartbeat", epoch: 1n });

function storeWorks(store) {
  const r = store.handle(1, { type: "Acquire", id: 99n, key: "sanity", holder: 5n, session: 5n, ttl_ms: 10 });
  assert.equal(r.type, "Granted");
}
function candidateWorks(c) {
  const store = new LeaseStore();
  c.campaign(1);
  drain(c, store, 1);
  assert.equal(c.state, "Leader");
}
function raftWorks(n) {
  n.handleTimeout(1);
  n.campaign(2);
  assert.notEqual(n.role, "Follower");
}
function bullyWorks(n) {
  n.handleTimeout(1);
  n.startElection(2);
  assert.ok(n.pollOutput() !== undefined);
}

/** [label, make, call(instance, value), kind, works(instance)] for every argument of every entry point. */
const ENTRY_POINTS = [
  ["LeaseStore.handle now_ms", () => new LeaseStore(), (s, v) => s.handle(v, acquire()), "millis", storeWorks],
  ["LeaseStore.handle request", () => new LeaseStore(), (s, v) => s.handle(0, v), "object", storeWorks],
  ["LeaseStore.handle request.id", () => new LeaseStore(), (s, v) => s.handle(0, { ...acquire(), id: v }), "REQUEST_ID-field", storeWorks],
  ["LeaseStore.handle request.holder", () => new LeaseStore(), (s, v) => s.handle(0, { ...acquire(), holder: v }), "NODE_ID-field", storeWorks],
  ["LeaseStore.handle request.session", () => new LeaseStore(), (s, v) => s.handle(0, { ...acquire(), session: v }), "SESSION-field", storeWorks],
  ["LeaseStore.handle request.ttl_ms", () => new LeaseStore(), (s, v) => s.handle(0, { ...acquire(), ttl_ms: v }), "millis-field", storeWorks],
  ["LeaseStore.handle Renew.token", () => new LeaseStore(), (s, v) => s.handle(0, { type: "Renew", id: 1n, key: "k", holder: 1n, session: 1n, token: v, ttl_ms: 1 }), "TOKEN-field", storeWorks],
  ["LeaseStore.holder now_ms", () => new LeaseStore(), (s, v) => (v === undefined ? s.holder("k", -1) : s.holder("k", v)), "millis-optional", storeWorks],
  ["LeaseCandidate.campaign", () => new LeaseCandidate({ seed: 1n }), (c, v) => c.campaign(v), "millis", candidateWorks],
  ["LeaseCandidate.handleTimeout", () => new LeaseCandidate({ seed: 1n }), (c, v) => c.handleTimeout(v), "millis", candidateWorks],
  ["LeaseCandidate.release", () => new LeaseCandidate({ seed: 1n }), (c, v) => c.release(v), "millis", candidateWorks],
  ["LeaseCandidate.assertLeadership", () => new LeaseCandidate({ seed: 1n }), (c, v) => c.assertLeadership(v), "millis", candidateWorks],
  ["LeaseCandidate.handleResponse now_ms", () => new LeaseCandidate({ seed: 1n }), (c, v) => c.handleResponse(v, granted()), "millis", candidateWorks],
  ["LeaseCandidate.handleResponse response", () => new LeaseCandidate({ seed: 1n }), (c, v) => c.handleResponse(0, v), "object", candidateWorks],
  ["LeaseCandidate.handleResponse response.token", () => new LeaseCandidate({ seed: 1n }), (c, v) => c.handleResponse(0, { ...granted(), token: v }), "TOKEN-field", candidateWorks],
  ["LeaseCandidate.handleResponse response.ttl_ms", () => new LeaseCandidate({ seed: 1n }), (c, v) => c.handleResponse(0, { ...granted(), ttl_ms: v }), "millis-field", candidateWorks],
  ["LeaseCandidate.reportFenced now_ms", () => new LeaseCandidate({ seed: 1n }), (c, v) => c.reportFenced(v, { presented: 1n, required: 2n }), "millis", candidateWorks],
  ["LeaseCandidate.reportFenced rejection", () => new LeaseCandidate({ seed: 1n }), (c, v) => c.reportFenced(0, v), "object", candidateWorks],
  ["LeaseCandidate.reportFenced presented", () => new LeaseCandidate({ seed: 1n }), (c, v) => c.reportFenced(0, { presented: v, required: 2n }), "TOKEN-field", candidateWorks],
  ["new LeaseCandidate config", null, (_, v) => new LeaseCandidate(v), "object-config", null],
  ["new LeaseCandidate holder", null, (_, v) => new LeaseCandidate({ holder: v }), "NODE_ID-optional", null],
  ["new LeaseCandidate seed", null, (_, v) => new LeaseCandidate({ seed: v }), "SEED-optional", null],
  ["new LeaseCandidate ttl_ms", null, (_, v) => new LeaseCandidate({ ttl_ms: v }), "millis-optional", null],
  ["new LeaseCandidate renew_interval_ms", null, (_, v) => new LeaseCandidate({ renew_interval_ms: v }), "millis-optional", null],
  ["RaftNode.handleTimeout", () => new RaftNode({ peers: [2n, 3n], seed: 1n }), (n, v) => n.handleTimeout(v), "millis", raftWorks],
  ["RaftNode.campaign", () => new RaftNode({ peers: [2n, 3n], seed: 1n }), (n, v) => n.campaign(v), "millis", raftWorks],
  ["RaftNode.propose now_ms", () => new RaftNode({ seed: 1n }), (n, v) => n.propose(v, 1n), "millis", raftWorks],
  ["RaftNode.propose command", () => new RaftNode({ seed: 1n }), (n, v) => n.propose(0, v), "COMMAND", raftWorks],
  ["RaftNode.handleMessage now_ms", () => new RaftNode({ peers: [2n, 3n], seed: 1n }), (n, v) => n.handleMessage(v, 2n, vote()), "millis", raftWorks],
  ["RaftNode.handleMessage from", () => new RaftNode({ peers: [2n, 3n], seed: 1n }), (n, v) => n.handleMessage(0, v, vote()), "NODE_ID", raftWorks],
  ["RaftNode.handleMessage msg", () => new RaftNode({ peers: [2n, 3n], seed: 1n }), (n, v) => n.handleMessage(0, 2n, v), "object", raftWorks],
  ["RaftNode.handleMessage msg.term", () => new RaftNode({ peers: [2n, 3n], seed: 1n }), (n, v) => n.handleMessage(0, 2n, { ...vote(), term: v }), "TERM-field", raftWorks],
  ["RaftNode.handleMessage msg.last_log_index", () => new RaftNode({ peers: [2n, 3n], seed: 1n }), (n, v) => n.handleMessage(0, 2n, { ...vote(), last_log_index: v }), "INDEX-field", raftWorks],
  ["RaftNode.handleMessage entries[0].command", () => new RaftNode({ peers: [2n, 3n], seed: 1n }), (n, v) => n.handleMessage(0, 2n, { type: "AppendEntries", term: 1n, prev_log_index: 0n, prev_log_term: 0n, entries: [{ type: "Command", term: 1n, command: v }], leader_commit: 0n }), "COMMAND-field", raftWorks],
  ["RaftNode.matchIndex", () => new RaftNode({ seed: 1n }), (n, v) => n.matchIndex(v), "NODE_ID", raftWorks],
  ["new RaftNode config", null, (_, v) => new RaftNode(v), "object-config", null],
  ["new RaftNode peers[1]", null, (_, v) => new RaftNode({ peers: [2n, v] }), "NODE_ID", null],
  ["new RaftNode election_timeout_ms", null, (_, v) => new RaftNode({ election_timeout_ms: v }), "millis-optional", null],
  ["RaftNode.restart persisted.term", null, (_, v) => RaftNode.restart({}, { term: v, voted_for: null, log: [] }), "TERM-field", null],
  ["BullyNode.handleTimeout", () => new BullyNode({ peers: [2n], seed: 1n }), (n, v) => n.handleTimeout(v), "millis", bullyWorks],
  ["BullyNode.startElection", () => new BullyNode({ peers: [2n], seed: 1n }), (n, v) => n.startElection(v), "millis", bullyWorks],
  ["BullyNode.handleMessage now_ms", () => new BullyNode({ peers: [2n], seed: 1n }), (n, v) => n.handleMessage(v, 2n, heartbeat()), "millis", bullyWorks],
  ["BullyNode.handleMessage from", () => new BullyNode({ peers: [2n], seed: 1n }), (n, v) => n.handleMessage(0, v, heartbeat()), "NODE_ID", bullyWorks],
  ["BullyNode.handleMessage msg", () => new BullyNode({ peers: [2n], seed: 1n }), (n, v) => n.handleMessage(0, 2n, v), "object", bullyWorks],
  ["BullyNode.handleMessage msg.epoch", () => new BullyNode({ peers: [2n], seed: 1n }), (n, v) => n.handleMessage(0, 2n, { type: "Heartbeat", epoch: v }), "EPOCH-field", bullyWorks],
  ["new BullyNode config", null, (_, v) => new BullyNode(v), "object-config", null],
  ["new BullyNode failure_timeout_ms", null, (_, v) => new BullyNode({ failure_timeout_ms: v }), "millis-optional", null],
  ["BullyNode.restart persisted.epoch", null, (_, v) => BullyNode.restart({}, { epoch: v }), "EPOCH-field", null],
];

function casesFor(kind) {
  // A required field of an object: `undefined` is the same as absent.
  if (kind.endsWith("-field")) {
    const missing = [undefined, TypeError, "ERR_MISSING_KEY", /is required/];
    return [...casesFor(kind.slice(0, -"-field".length)).filter(([v]) => v !== undefined), missing];
  }
  if (kind === "millis") return BAD_MILLIS;
  // Optional fields: undefined (and null) mean "default", so only the other bad values apply.
  if (kind === "millis-optional") return BAD_MILLIS.filter(([v]) => v !== undefined && v !== null);
  if (kind === "object") return [...BAD_OBJECTS, [undefined, TypeError, "ERR_OBJECT_TYPE", /got undefined/]];
  if (kind === "object-config") return BAD_OBJECTS;
  const [quantity, optional] = kind.split("-");
  const cases = badBigints(quantity);
  return optional ? cases.filter(([v]) => v !== undefined && v !== null) : cases;
}

for (const [label, make, call, kind, works] of ENTRY_POINTS) {
  test(`${label}: every bad value throws a coded error and the instance keeps working`, () => {
    const instance = make?.();
    for (const bad of casesFor(kind)) {
      expectThrow((v) => call(instance, v), bad, `${label} = ${typeof bad[0] === "bigint" ? `${bad[0]}n` : String(bad[0])}`);
    }
    if (instance) works(instance);
  });
}

test("unknown_keys_are_rejected_in_configs_and_messages_naming_the_key", () => {
  const cases = [
    [() => new LeaseCandidate({ ttl: 5000 }), /config has no key "ttl"; its keys are holder, key, ttl_ms/],
    [() => new RaftNode({ electionTimeout: 5 }), /config has no key "electionTimeout"/],
    [() => new BullyNode({ id: 1n, peer: [2n] }), /config has no key "peer"/],
    [() => new LeaseStore().handle(0, { ...acquire(), token: 1n }), /request has no key "token"/],
    [() => new LeaseCandidate().handleResponse(0, { ...granted(), extra: 1 }), /response has no key "extra"/],
    [() => new RaftNode({ peers: [2n] }).handleMessage(0, 2n, { ...vote(), from: 2n }), /msg has no key "from"/],
    [() => new RaftNode({ peers: [2n] }).handleMessage(0, 2n, { type: "AppendEntries", term: 1n, prev_log_index: 0n, prev_log_term: 0n, entries: [{ type: "Noop", term: 1n, command: 1n }], leader_commit: 0n }), /msg.entries\[0\] has no key "command"/],
    [() => new BullyNode({ peers: [2n] }).handleMessage(0, 2n, { ...heartbeat(), coordinator: 2n }), /msg has no key "coordinator"/],
    [() => RaftNode.restart({}, { term: 1n, voted_for: null, log: [], commit: 1n }), /persisted has no key "commit"/],
  ];
  for (const [call, message] of cases) {
    assert.throws(call, (err) => err instanceof TypeError && err.code === "ERR_UNKNOWN_KEY" && message.test(err.message), String(message));
  }
});

test("missing_keys_bad_variants_and_wrong_field_types_are_coded", () => {
  const store = new LeaseStore();
  const cases = [
    [() => store.handle(0, { type: "Acquire", id: 1n, key: "k", holder: 1n, session: 1n }), TypeError, "ERR_MISSING_KEY", /request.ttl_ms is required/],
    [() => store.handle(0, { type: "Grab", id: 1n }), TypeError, "ERR_VARIANT", /request.type must be one of "Acquire", "Renew", "Release", got string "Grab"/],
    [() => store.handle(0, { id: 1n }), TypeError, "ERR_VARIANT", /request.type must be one of .* got undefined/],
    [() => store.handle(0, { ...acquire(), key: 5 }), TypeError, "ERR_STRING_TYPE", /request.key must be a string, got number 5/],
    [() => new LeaseCandidate().handleResponse(0, { type: "Rejected", id: 1n, key: "k", reason: "Nope" }), TypeError, "ERR_VARIANT", /response.reason must be one of "NotHolder"/],
    [() => new LeaseCandidate({ fencing: "yes" }), TypeError, "ERR_BOOLEAN_TYPE", /config.fencing must be a boolean, got string "yes"/],
    [() => new LeaseCandidate({ key: 1 }), TypeError, "ERR_STRING_TYPE", /config.key must be a string/],
    [() => new LeaseCandidate({ max_drift_ppm: 1.5 }), RangeError, "ERR_INTEGER_RANGE", /config.max_drift_ppm must be a whole number from 0 to 999999, got 1.5/],
    // The reader names the range the config takes (2e6 and 5e9 alike), not a u32's.
    [() => new RaftNode({ id: 1n, peers: [], max_drift_ppm: 5e9 }), RangeError, "ERR_INTEGER_RANGE", /^config.max_drift_ppm must be a whole number from 0 to 999999, got 5000000000$/],
    [() => new LeaseCandidate({ max_drift_ppm: 2e6 }), RangeError, "ERR_INTEGER_RANGE", /^config.max_drift_ppm must be a whole number from 0 to 999999, got 2000000$/],
    [() => new LeaseCandidate({ max_drift_ppm: -1 }), RangeError, "ERR_INTEGER_RANGE", /got -1/],
    [() => new LeaseCandidate({ max_drift_ppm: 2 ** 32 }), RangeError, "ERR_INTEGER_RANGE", /got 4294967296/],
    [() => new LeaseCandidate({ max_drift_ppm: 5n }), TypeError, "ERR_INTEGER_TYPE", /got bigint 5n/],
    [() => new RaftNode({ peers: 2n }), TypeError, "ERR_ARRAY_TYPE", /config.peers must be an array, got bigint 2n/],
    [() => new RaftNode({ max_entries_per_append: NaN }), RangeError, "ERR_INTEGER_RANGE", /got NaN/],
    [() => new RaftNode({ peers: [2n] }).handleMessage(0, 2n, { ...vote(), pre_vote: 1 }), TypeError, "ERR_BOOLEAN_TYPE", /msg.pre_vote must be a boolean/],
    [() => new RaftNode({ peers: [2n] }).timer("Elect"), TypeError, "ERR_VARIANT", /kind must be one of "Start", "Election"/],
    [() => new LeaseCandidate().reportFenced(0, { accepted: true, presented: 1n, required: 1n }), TypeError, "ERR_VARIANT", /rejection.accepted/],
    [() => new LeaseStore().setAvailable("no"), TypeError, "ERR_BOOLEAN_TYPE", /available must be a boolean/],
    [() => new LeaseStore().holder(5), TypeError, "ERR_STRING_TYPE", /key must be a string, got number 5/],
  ];
  for (const [call, cls, code, message] of cases) {
    assert.throws(call, (err) => err instanceof cls && err.code === code && message.test(err.message), `${code} ${message}`);
  }
});

test("core_validate_errors_are_range_errors_with_the_core_message", () => {
  // design rule 5 for leases; the core's message names the values (in ms).
  const cases = [
    [() => new LeaseCandidate({ ttl_ms: 1_000, safety_margin_ms: 1_000 }), /^invalid lease config: safety_margin_ms 1000 must be above 0 and below ttl_ms 1000: 0 < safety_margin_ms < ttl_ms \(design rule 5\)$/],
    [() => new LeaseCandidate({ renew_interval_ms: 8_500 }), /renew_interval_ms 8500 \+ max_round_trip_ms 1000 \(the default\) must be at most ttl_ms 10000 \(the default\) - safety_margin_ms 1000 \(the default\)/],
    [() => new LeaseCandidate({ max_drift_ppm: 200_000 }), /safety_margin_ms 1000 \(the default\) must be at least ttl_ms 10000 \(the default\) x max_drift_ppm 200000 \/ 1000000 = 2000/],
    [() => new RaftNode({ heartbeat_interval_ms: 200 }), /invalid raft config: heartbeat_interval_ms 200 must be above 0 and below election_timeout_ms 150 \(the default\)/],
    [() => new RaftNode({ id: 2n, peers: [2n] }), /invalid raft config: peers must not contain the node's own id 2n \(id\)/],
    [() => new BullyNode({ peers: [2n, 2n] }), /invalid bully config: peers lists 2n more than once/],
    [() => BullyNode.restart({ answer_timeout_ms: 0 }, { epoch: 1n }), /invalid bully config: answer_timeout_ms 0 must be above 0/],
  ];
  for (const [call, message] of cases) {
    assert.throws(call, (err) => err instanceof RangeError && err.code === "ERR_CONFIG" && message.test(err.message), String(message));
  }
});

test("times_keep_whole_microseconds_through_float_noise", () => {
  const c = new LeaseCandidate({ ttl_ms: 10_000.001, safety_margin_ms: 1_000, seed: 1n });
  assert.equal(c.config.ttl_ms, 10_000.001);
  c.campaign(0.1 + 0.2); // 0.30000000000000004 is 300 us, not a sub-microsecond fraction
  assert.equal(c.now, 0.3);
  c.handleTimeout(-0);
  assert.equal(c.now, 0.3);
});

test("a_throwing_or_reentrant_getter_in_an_input_leaves_the_instance_usable", () => {
  // The binding reads input objects through JS property access: a getter that throws, or that
  // calls back into the same instance mid-call, surfaces as a thrown error, never a panic, and
  // the instance keeps working.
  const c = new LeaseCandidate({ seed: 1n });
  const boom = new Error("getter failed");
  const throwing = { type: "Granted", id: 1n, key: "leader", token: 1n, get ttl_ms() { throw boom; } };
  assert.throws(() => c.handleResponse(0, throwing), (err) => err === boom);
  const reentrant = { type: "Granted", id: 1n, key: "leader", token: 1n, get ttl_ms() { c.campaign(0); return 1; } };
  assert.throws(() => c.handleResponse(0, reentrant), Error);
  candidateWorks(c);
  const store = new LeaseStore();
  assert.throws(() => store.handle(0, { ...acquire(), get holder() { store.setAvailable(false); return 1n; } }), Error);
  assert.equal(store.available, true);
  storeWorks(store);
});
