// A config validation accepts but that storms (timers of a microsecond at 64 nodes): the
// world stops at the simulator's bound on queued events and Simulation throws RangeError
// ERR_STORM, never a wasm trap; the instance stays readable and refuses to run further, and
// other instances keep working. Before the bound: "unreachable", then every call on the
// module said "recursive use of an object detected".
import assert from "node:assert/strict";
import { test } from "node:test";
import { Search } from "tenure/search";
import { Simulation } from "tenure/sim";
import { scenario } from "./simulation-helpers.mjs";

const trap = () =>
  scenario("raft", {
    nodes: 64,
    seed: 1,
    duration_ms: 10,
    config: { heartbeat_interval_ms: 0.001, election_timeout_ms: 0.002, election_timeout_max_ms: 0.003 },
  });

const isStorm = (err) => {
  assert.ok(err instanceof RangeError, `${err?.constructor?.name}: ${err?.message}`);
  assert.equal(err.code, "ERR_STORM", err.message);
  assert.match(err.message, /^message storm: \d+ events queued at [\d.]+ ms, over the bound of 1048576;/);
  assert.match(err.message, /lengthen the timers/);
  return true;
};

test("a storm throws ERR_STORM from runUntil; the simulation stays readable and refuses to run", () => {
  const sim = new Simulation(trap());
  let stoppedAt;
  assert.throws(() => sim.runUntil(10), (err) => isStorm(err) && (stoppedAt = Number(/queued at ([\d.]+) ms/.exec(err.message)[1])) >= 0);
  // Readable: time, snapshot, metrics. The time is where the storm stopped the world, not
  // the 10 ms asked for (no time passed for a stopped world).
  assert.equal(sim.now, stoppedAt);
  assert.ok(sim.now < 10);
  assert.equal(sim.snapshot().nodes.length, 64);
  assert.equal(typeof sim.failed, "boolean");
  // Refused cleanly, every time: nothing is left to run.
  assert.throws(() => sim.runUntil(10), isStorm);
  assert.equal(sim.now, stoppedAt);
  assert.equal(sim.step(), false);
  assert.equal(sim.nextEventMs ?? null, null);
  sim.free();
  // The module is not poisoned: a healthy simulation still runs.
  const ok = new Simulation(scenario("raft", { duration_ms: 2_000 }));
  ok.runUntil(2_000);
  assert.equal(ok.now, 2_000);
  assert.equal(ok.step(), false);
});

test("stepping into a storm stops at the bound: step returns false, runUntil throws ERR_STORM", () => {
  const sim = new Simulation(trap());
  let steps = 0;
  while (sim.step()) steps++;
  assert.ok(steps < 5_000_000, `${steps} steps`);
  assert.ok(sim.now < 10, `stopped at ${sim.now} ms, before the end`);
  assert.throws(() => sim.runUntil(sim.now), isStorm);
});

// A search's storm was ERR_SCENARIO_RANGE ("scenario: message storm: ..."), as if the options
// were out of range: the same storm is ERR_STORM from Simulation. Search says it the same way,
// from runBatch, evaluate and shrink alike.
test("a search whose runs storm throws ERR_STORM as Simulation does, never a trap", () => {
  const options = {
    algorithm: "raft",
    property: "any-promised",
    nodes: 64,
    duration_ms: 10,
    heal_ms: 10,
    seed: 1,
    config: trap().config,
  };
  const first = () => {
    const search = new Search(options);
    search.runBatch(1);
  };
  // A search's runs are bounded by the chaos runs' own work budget, a little above the
  // simulator's bound: the message names the bound that stopped it.
  const searchStorm = (err) => {
    assert.ok(err instanceof RangeError, `${err?.constructor?.name}: ${err?.message}`);
    assert.equal(err.code, "ERR_STORM", err.message);
    assert.match(err.message, /^message storm: \d+ events queued at [\d.]+ ms, over the bound of \d+; lengthen the timers or use fewer nodes$/);
    return true;
  };
  assert.throws(first, searchStorm);
  assert.throws(() => Search.evaluate(trap(), "any-promised"), isStorm);
  assert.throws(() => Search.shrink(trap(), "any-promised", 10), isStorm);
  // Not poisoned: the same module searches a healthy world afterwards.
  const ok = new Search({ algorithm: "bully", property: "split-brain", nodes: 3, duration_ms: 1_000, heal_ms: 500, seed: 1 });
  assert.equal(typeof ok.runBatch(1), "boolean");
});
