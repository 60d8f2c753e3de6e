// Scenarios at the edges of what the simulator accepts: each is either refused up front with a
// code, or runs and writes back (toJSON, eventsSince) what it was given.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Simulation } from "tenure/sim";

const raft = (extra = {}) => ({ version: 1, algorithm: "raft", nodes: 3, seed: 1, duration_ms: 5000, ...extra });

test("a proposal interval of 0 is refused, so the run cannot stall at one instant", () => {
  // At 0 the proposal timer fired again at the same instant forever and runUntil never returned.
  assert.throws(
    () => new Simulation(raft({ config: { propose_interval_ms: 0 } })),
    (err) => err instanceof RangeError && err.code === "ERR_SCENARIO_RANGE" && err.message === "scenario: raft config: propose_interval_ms 0 must be above 0 (one proposal every so many ms)",
  );
  // Any positive interval runs, sub-millisecond ones too.
  const sim = new Simulation(raft({ config: { propose_interval_ms: 0.01 } }));
  sim.runUntil(300);
  assert.equal(sim.now, 300);
});

test("a time above 2 ** 53 - 1 ms that was accepted is written back as the number given", () => {
  // A pause this long was accepted, and toJSON() and eventsSince() then threw an Error with no
  // code: the whole number of ms did not fit a JS integer.
  const long = 1e16;
  const sim = new Simulation(raft({ faults: [{ at_ms: 10, fault: { type: "pause", target: 1, duration_ms: long } }] }));
  sim.runUntil(100);
  sim.inject({ type: "clock-offset", target: 2, offset_ms: -9.2e15 });
  const json = sim.toJSON();
  assert.equal(json.faults[0].fault.duration_ms, long);
  assert.equal(json.faults[1].fault.offset_ms, -9.2e15);
  const faults = sim.eventsSince(0, ["fault"]).events.map((e) => e.fault);
  assert.deepEqual(faults, [
    { type: "pause", target: 1, duration_ms: long },
    { type: "clock-offset", target: 2, offset_ms: -9.2e15 },
  ]);
  const again = Simulation.fromJSON(JSON.stringify(json));
  again.runUntil(100);
  assert.equal(again.toJSON().faults[0].fault.duration_ms, long);
});

test("a scenario's JSON text may start with a byte order mark, as a file the CLI reads may", () => {
  const text = JSON.stringify(raft());
  const plain = Simulation.fromJSON(text);
  const marked = Simulation.fromJSON(`\uFEFF${text}`);
  plain.runUntil(1000);
  marked.runUntil(1000);
  assert.equal(marked.traceHash(), plain.traceHash());
});

test("JSON text that is not JSON is refused in words about the text", () => {
  const words = (text) => {
    try {
      Simulation.fromJSON(text);
    } catch (err) {
      assert.equal(err.code, "ERR_SCENARIO_TYPE");
      return err.message;
    }
    assert.fail("accepted");
  };
  assert.equal(words(""), "scenario: the text ends within a value at line 1 column 0");
  assert.match(words("[".repeat(200)), /^scenario: the text nests arrays and objects more than 128 levels deep at line 1 column \d+$/);
});
