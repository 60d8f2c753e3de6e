// Simulation misuse (docs/design.md "The JS face"): bad scenarios, faults, times
// and cursors throw TypeError/RangeError with a stable `code` and the simulator's one-line
// message naming the value; nothing changes, and the instance keeps working afterwards.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Simulation } from "tenure/sim";
import { scenario } from "./simulation-helpers.mjs";

/** Asserts `fn` throws an instance of `Class` with `code` and a message matching `message`. */
function throwsWith(fn, Class, code, message) {
  assert.throws(fn, (err) => {
    assert.ok(err instanceof Class, `${err?.constructor?.name} (${err?.message}) is not a ${Class.name}`);
    assert.equal(err.code, code, err.message);
    assert.match(err.message, message);
    return true;
  });
}

const good = () => scenario("raft", { nodes: 3, duration_ms: 5_000 });
const cyclic = () => {
  const s = good();
  s.config = { self: null };
  s.config.self = s.config;
  return s;
};

const badScenarios = [
  // [label, scenario, class, code, message]
  ["undefined", undefined, TypeError, "ERR_SCENARIO_TYPE", /^scenario must be an object, got undefined$/],
  ["null", null, TypeError, "ERR_SCENARIO_TYPE", /got null/],
  ["number", 5, TypeError, "ERR_SCENARIO_TYPE", /got number 5/],
  ["array", [good()], TypeError, "ERR_SCENARIO_TYPE", /must be an object/],
  ["missing algorithm", (({ algorithm, ...s }) => s)(good()), TypeError, "ERR_SCENARIO_TYPE", /the key "algorithm" is required/],
  ["unknown key", { ...good(), nodez: 3 }, TypeError, "ERR_UNKNOWN_KEY", /unknown key "nodez"/],
  ["unknown config key", { ...good(), config: { ttl: 5 } }, TypeError, "ERR_UNKNOWN_KEY", /^scenario: config: unknown key "ttl"; the keys are election_timeout_ms, /],
  ["unknown network key", { ...good(), network: { latency: [1, 2] } }, TypeError, "ERR_UNKNOWN_KEY", /unknown key "latency"/],
  ["unknown fault key", { ...good(), faults: [{ at_ms: 1, fault: { type: "crash", node: 1, for_ms: 5 } }] }, TypeError, "ERR_UNKNOWN_KEY", /unknown key "for_ms"/],
  ["at_ms beside the fault", { ...good(), faults: [{ at_ms: 1, fault: { type: "heal" }, why: "x" }] }, TypeError, "ERR_UNKNOWN_KEY", /unknown key "why"/],
  ["string nodes", { ...good(), nodes: "3" }, TypeError, "ERR_SCENARIO_TYPE", /nodes: expected a whole number from 1 to 64, got the string "3"/],
  ["fractional nodes", { ...good(), nodes: 3.5 }, TypeError, "ERR_SCENARIO_TYPE", /nodes: expected a whole number from 1 to 64, got 3.5/],
  ["unknown algorithm", { ...good(), algorithm: "paxos" }, TypeError, "ERR_SCENARIO_TYPE", /"paxos" is not one of lease-fencing, lease-unfenced, raft, /],
  ["unknown fault type", { ...good(), faults: [{ at_ms: 1, fault: { type: "explode" } }] }, TypeError, "ERR_SCENARIO_TYPE", /"explode" is not one of /],
  ["function value", { ...good(), config: { pre_vote: () => true } }, TypeError, "ERR_SCENARIO_TYPE", /scenario\.config\.pre_vote must be JSON data.*got function/],
  ["symbol value", { ...good(), seed: Symbol("s") }, TypeError, "ERR_SCENARIO_TYPE", /scenario\.seed must be JSON data.*got symbol/],
  // The reader descends only into keys the format has: a cycle under another key is refused
  // as that key, without being walked.
  ["cycle", cyclic(), TypeError, "ERR_UNKNOWN_KEY", /^scenario: config: unknown key "self"/],
  ["NaN duration", { ...good(), duration_ms: NaN }, RangeError, "ERR_SCENARIO_RANGE", /^scenario\.duration_ms must be a finite number, got NaN$/],
  ["infinite latency", { ...good(), network: { latency_ms: [1, Infinity] } }, RangeError, "ERR_SCENARIO_RANGE", /scenario\.network\.latency_ms\[1\] must be a finite number, got Infinity/],
  ["negative duration", { ...good(), duration_ms: -5 }, RangeError, "ERR_SCENARIO_RANGE", /-5 is not a time in milliseconds/],
  ["version 2", { ...good(), version: 2 }, RangeError, "ERR_SCENARIO_RANGE", /version 2 is not supported/],
  ["no nodes", { ...good(), nodes: 0 }, RangeError, "ERR_SCENARIO_RANGE", /nodes 0 must be a whole number from 1 to 64/],
  ["too many nodes", { ...good(), nodes: 65 }, RangeError, "ERR_SCENARIO_RANGE", /nodes 65 must be a whole number from 1 to 64/],
  ["config for another algorithm", { ...good(), config: { ttl_ms: 500 } }, RangeError, "ERR_SCENARIO_RANGE", /`ttl_ms` does not apply to algorithm raft/],
  ["probability above 1", { ...good(), network: { loss: 1.5 } }, RangeError, "ERR_SCENARIO_RANGE", /1.5 is not a probability/],
  ["latency min above max", { ...good(), network: { latency_ms: [9, 2] } }, RangeError, "ERR_SCENARIO_RANGE", /min is greater than max/],
  ["fault on a missing node", { ...good(), faults: [{ at_ms: 1, fault: { type: "crash", node: 9 } }] }, RangeError, "ERR_SCENARIO_RANGE", /faults\[0\].*process n9, which is not in this 3-node raft world/],
  ["lease fault in raft", { ...good(), faults: [{ at_ms: 1, fault: { type: "store-outage", duration_ms: 5 } }] }, RangeError, "ERR_SCENARIO_RANGE", /applies only to lease worlds/],
  ["negative seed", { ...good(), seed: -1 }, RangeError, "ERR_SCENARIO_RANGE", /scenario: seed: -1 is not a seed: a seed is a whole number from 0 to 2 \*\* 53 - 1, or a bigint or decimal string from 0 to 2n \*\* 64n - 1n$/],
  ["seed of the wrong type", { ...good(), seed: true }, TypeError, "ERR_SCENARIO_TYPE", /^scenario: seed: expected a number, a bigint or a decimal string, got true$/],
  ["seed string that is not a number", { ...good(), seed: "12x" }, RangeError, "ERR_SCENARIO_RANGE", /^scenario: seed: "12x" is not a seed: a seed is a whole number from 0 to 2 \*\* 53 - 1, or a bigint or decimal string from 0 to 2n \*\* 64n - 1n$/],
  ["seed past 2^53 as a number", { ...good(), seed: 2 ** 60 }, RangeError, "ERR_SCENARIO_RANGE", /scenario: seed: 1152921504606847000 is above 2 \*\* 53 - 1, .*give it as a bigint or a decimal string/],
  ["seed beyond u64", { ...good(), seed: 2n ** 64n }, RangeError, "ERR_SCENARIO_RANGE", /scenario\.seed must fit in 64 bits, from 0n to 2n \*\* 64n - 1n, got 18446744073709551616n/],
];

for (const [label, bad, Class, code, message] of badScenarios) {
  test(`constructor_rejects_${label.replaceAll(" ", "_")}`, () => {
    throwsWith(() => new Simulation(bad), Class, code, message);
  });
}

test("an unknown config key is told the keys of the scenario's algorithm only", () => {
  const raft = "election_timeout_ms, election_timeout_max_ms, heartbeat_interval_ms, pre_vote, check_quorum, propose_interval_ms, leader_lease, leader_lease_drift_ppm";
  const lease = "ttl_ms, safety_margin_ms, renew_interval_ms, retry_interval_ms, write_interval_ms, max_drift_ppm, max_round_trip_ms, holder_id, first_token";
  const cases = [
    [scenario("raft", { config: { ttl: 5 } }), `scenario: config: unknown key "ttl"; the keys are ${raft}`],
    // The algorithm may come after the config.
    [{ config: { ttl: 5 }, ...scenario("lease-fencing") }, `scenario: config: unknown key "ttl"; the keys are ${lease}`],
  ];
  for (const [input, message] of cases) {
    throwsWith(() => new Simulation(input), TypeError, "ERR_UNKNOWN_KEY", new RegExp(`^${message}$`));
    throwsWith(() => Simulation.fromJSON(JSON.stringify(input)), TypeError, "ERR_UNKNOWN_KEY", new RegExp(`^${message}$`));
  }
  // Without a known algorithm, the algorithm is what is refused.
  throwsWith(() => new Simulation({ ...scenario("raft", { config: { ttl: 5 } }), algorithm: "paxos" }), TypeError, "ERR_SCENARIO_TYPE", /"paxos" is not one of/);
});

test("fromJSON_rejects_bad_text_with_the_same_codes", () => {
  throwsWith(() => Simulation.fromJSON("{ not json"), TypeError, "ERR_SCENARIO_TYPE", /^scenario: key must be a string at line 1 column 3$/);
  throwsWith(() => Simulation.fromJSON("[]"), TypeError, "ERR_SCENARIO_TYPE", /must hold an object/);
  throwsWith(() => Simulation.fromJSON(JSON.stringify({ ...good(), nodes: 0 })), RangeError, "ERR_SCENARIO_RANGE", /nodes 0/);
  throwsWith(() => Simulation.fromJSON(JSON.stringify({ ...good(), extra: 1 })), TypeError, "ERR_UNKNOWN_KEY", /unknown key "extra"/);
  throwsWith(() => Simulation.fromJSON(42), TypeError, "ERR_SCENARIO_TYPE", /got number 42/);
});

const badFaults = [
  ["not an object", "crash", TypeError, "ERR_FAULT_TYPE", /^fault must be an object, got string "crash"$/],
  ["no type", { node: 1 }, TypeError, "ERR_FAULT_TYPE", /the key "type" is required/],
  ["unknown type", { type: "meteor" }, TypeError, "ERR_FAULT_TYPE", /"meteor" is not one of /],
  ["missing field", { type: "crash" }, TypeError, "ERR_FAULT_TYPE", /the key "node" is required/],
  ["at_ms inside", { type: "crash", node: 1, at_ms: 5 }, TypeError, "ERR_UNKNOWN_KEY", /unknown key "at_ms"/],
  ["wrong type", { type: "pause", target: 1, duration_ms: "5" }, TypeError, "ERR_FAULT_TYPE", /got the string "5"/],
  ["missing node", { type: "crash", node: 4 }, RangeError, "ERR_FAULT_RANGE", /crash names process n4, which is not in this 3-node raft world/],
  ["store in raft", { type: "pause", target: "store", duration_ms: 5 }, RangeError, "ERR_FAULT_RANGE", /names process store/],
  ["unknown process", { type: "pause", target: "stor", duration_ms: 5 }, RangeError, "ERR_FAULT_RANGE", /got the string "stor"/],
  ["lease-only fault", { type: "pause-after-check", node: 1, duration_ms: 5 }, RangeError, "ERR_FAULT_RANGE", /applies only to lease worlds/],
  ["NaN duration", { type: "pause", target: 1, duration_ms: NaN }, RangeError, "ERR_FAULT_RANGE", /^fault\.duration_ms must be a finite number, got NaN$/],
  ["negative duration", { type: "pause", target: 1, duration_ms: -1 }, RangeError, "ERR_FAULT_RANGE", /-1 is not a time in milliseconds/],
  ["probability", { type: "link-loss", from: [1], to: [2], probability: 2 }, RangeError, "ERR_FAULT_RANGE", /2 is not a probability/],
  ["latency range", { type: "link-latency", from: [1], to: [2], min_ms: 9, max_ms: 1 }, RangeError, "ERR_FAULT_RANGE", /min_ms 9ms is greater than max_ms 1ms/],
  ["drift", { type: "clock-drift", target: 1, ppm: 600_000 }, RangeError, "ERR_FAULT_RANGE", /ppm 600000 is outside/],
  ["overlapping groups", { type: "partition", groups: [[1, 2], [2, 3]] }, RangeError, "ERR_FAULT_RANGE", /lists process n2 in two groups/],
  // Break-it pass: these were accepted and did nothing.
  ["no groups", { type: "partition", groups: [] }, RangeError, "ERR_FAULT_RANGE", /^fault: partition groups has 0 groups; a partition needs two or more, none empty$/],
  ["one group", { type: "partition", groups: [[1, 2, 3]] }, RangeError, "ERR_FAULT_RANGE", /^fault: partition groups has 1 group;/],
  ["empty group", { type: "partition", groups: [[1], [], [2]] }, RangeError, "ERR_FAULT_RANGE", /^fault: partition groups\[1\] is empty;/],
  ["isolate nobody", { type: "isolate", nodes: [] }, RangeError, "ERR_FAULT_RANGE", /^fault: isolate nodes is empty; name at least one process to isolate$/],
  ["one-way cut from nobody", { type: "partition-one-way", from: [], to: [1] }, RangeError, "ERR_FAULT_RANGE", /^fault: partition-one-way from is empty; name at least one process on each side$/],
  ["link loss to nobody", { type: "link-loss", from: [1], to: [], probability: 0.5 }, RangeError, "ERR_FAULT_RANGE", /^fault: link-loss to is empty;/],
];

const badTimes = [
  ["string", "10", TypeError, "ERR_MILLIS_TYPE", /ms must be a number of milliseconds, got string "10"/],
  ["bigint", 10n, TypeError, "ERR_MILLIS_TYPE", /got bigint/],
  ["undefined", undefined, TypeError, "ERR_MILLIS_TYPE", /got undefined/],
  ["NaN", NaN, RangeError, "ERR_MILLIS_RANGE", /got NaN/],
  ["Infinity", Infinity, RangeError, "ERR_MILLIS_RANGE", /got Infinity/],
  ["negative", -1, RangeError, "ERR_MILLIS_RANGE", /got -1/],
  ["too large", 2 ** 70, RangeError, "ERR_MILLIS_RANGE", /from 0 to 18446744073709551 \(2 \*\* 64 microseconds\)/],
  ["sub-microsecond", 10.0004, RangeError, "ERR_MILLIS_PRECISION", /10\.0004/],
];

const badCursors = [
  ["string", "0", TypeError, "ERR_CURSOR_TYPE", /^cursor must be a number, got string "0"$/],
  ["bigint", 0n, TypeError, "ERR_CURSOR_TYPE", /got bigint/],
  ["negative", -1, RangeError, "ERR_CURSOR_RANGE", /^cursor must be a whole number from 0 to 2 \*\* 53 - 1 \(Number.MAX_SAFE_INTEGER\), got -1$/],
  ["fraction", 1.5, RangeError, "ERR_CURSOR_RANGE", /got 1.5/],
  ["NaN", NaN, RangeError, "ERR_CURSOR_RANGE", /got NaN/],
  ["unsafe", 2 ** 53, RangeError, "ERR_CURSOR_RANGE", /got 9007199254740992/],
];

test("every_bad_call_throws_with_a_code_and_changes_nothing", () => {
  // A twin that never sees the bad calls: after them both runs must still be identical.
  const sim = new Simulation(good());
  const twin = new Simulation(good());
  for (const at of [500, 1_000.5, 2_000]) {
    sim.runUntil(at);
    twin.runUntil(at);
    const before = { hash: sim.traceHash(), now: sim.now, json: JSON.stringify(sim.toJSON()) };
    for (const [, fault, Class, code, message] of badFaults) throwsWith(() => sim.inject(fault), Class, code, message);
    for (const [, ms, Class, code, message] of badTimes) throwsWith(() => sim.runUntil(ms), Class, code, message);
    for (const [, cursor, Class, code, message] of badCursors) throwsWith(() => sim.eventsSince(cursor), Class, code, message);
    assert.deepEqual({ hash: sim.traceHash(), now: sim.now, json: JSON.stringify(sim.toJSON()) }, before);
    sim.inject({ type: "pause", target: 2, duration_ms: 100 });
    twin.inject({ type: "pause", target: 2, duration_ms: 100 });
  }
  sim.runUntil(sim.endMs);
  twin.runUntil(twin.endMs);
  assert.equal(sim.traceHash(), twin.traceHash());
  assert.deepEqual(sim.snapshot(), twin.snapshot());
  assert.equal(sim.toJSON().faults.length, 3);
});

test("a_failed_constructor_leaves_other_instances_working", () => {
  const sim = new Simulation(good());
  sim.runUntil(1_000);
  for (const [, bad] of badScenarios) assert.throws(() => new Simulation(bad));
  sim.runUntil(2_000);
  assert.equal(sim.now, 2_000);
  assert.ok(sim.metrics().events > 0);
});
