// The `Search` binding: the simulator's own search and shrinker from JS, in slices. Each of
// the playground panel's examples finds its counterexample and shrinks it, in Node, to exactly
// the scenario the native search committed (tests/pkg/fixtures/search/, checked by
// crates/tenure-sim/tests/search.rs), with the native trace hash; the promised invariants hold
// over the budget; bad input gets a coded error.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Search } from "tenure/search";
import { Simulation } from "tenure/sim";
import { root } from "../../scripts/lib/run.mjs";
import { EXAMPLES } from "../../web/playground/break-panel.js";

const dir = join(root, "tests", "pkg", "fixtures", "search");
const fixtures = new Map(readdirSync(dir).filter((f) => f.endsWith(".json")).map((f) => [f.replace(/\.json$/, ""), JSON.parse(readFileSync(join(dir, f), "utf8"))]));

/** The panel's example id -> the fixture the native search wrote for it. */
const FIXTURE_OF = {
  "bully-partition": "bully-split-brain",
  "unfenced-stale-write": "lease-unfenced-stale-write",
  "lease-drift": "lease-drift-split-brain",
  "raft-no-check-quorum": "raft-deposed-leader",
};

/** The options the panel sends for example `e` (3 nodes, 10 s of faults, 2 s heal, seed 1). */
function optionsOf(e) {
  const o = { algorithm: e.algorithm, property: e.property, nodes: 3, duration_ms: 10_000, heal_ms: 2_000, seed: 1 };
  if (e.families) o.families = e.families;
  if (e.check_quorum === false) o.check_quorum = false;
  if (e.config) o.config = e.config;
  return o;
}

for (const [id, name] of Object.entries(FIXTURE_OF)) {
  test(`${id}: found in slices and shrunk in Node to the native counterexample, same trace hash`, () => {
    const e = EXAMPLES.find((x) => x.id === id);
    const f = fixtures.get(name);
    assert.ok(e && f, `${id} -> ${name}`);
    const search = new Search(optionsOf(e));
    // In slices, as the worker runs it: progress grows by at most a slice each time.
    let found = false;
    let last = 0;
    while (!found && search.progress().runs < e.budget) {
      found = search.runBatch(Math.min(7, e.budget - search.progress().runs));
      const p = search.progress();
      assert.ok(p.runs > last && p.runs - last <= 7, `${p.runs} after ${last}`);
      last = p.runs;
    }
    assert.ok(found, `${id}: nothing in ${e.budget} runs`);
    const hit = search.found();
    assert.equal(hit.witness.kind, f.witness.kind);
    assert.equal(search.progress().found, true);
    const shrunk = Search.shrink(hit.scenario, search.property, 400);
    assert.deepEqual(shrunk.scenario, f.scenario, `${id}: the shrunk scenario differs from the native one`);
    assert.equal(shrunk.witness.time_ms, f.witness.time_ms);
    assert.ok(shrunk.shrunk.faults <= shrunk.original.faults && shrunk.shrunk.faults <= 2);
    assert.ok(shrunk.steps > 0 && shrunk.steps <= 400);
    const replay = Search.evaluate(shrunk.scenario, search.property);
    assert.equal(replay.trace_hash, f.trace_hash);
    assert.match(replay.trace_hash, /^[0-9a-f]{16}$/);
    assert.equal(replay.witness.kind, f.witness.kind);
    const sim = new Simulation(shrunk.scenario);
    sim.runUntil(sim.endMs);
    assert.equal(sim.traceHash(), replay.trace_hash, "the hash `tenure run` prints");
    search.free();
  });
}

for (const id of ["lease-fencing-promised", "raft-promised"]) {
  test(`${id}: no violation of what it promises within 30 runs`, () => {
    const e = EXAMPLES.find((x) => x.id === id);
    const search = new Search({ ...optionsOf(e), families: undefined });
    assert.equal(search.runBatch(30), false);
    const p = search.progress();
    assert.equal(p.runs, 30);
    assert.equal(p.found, false);
    assert.ok(p.events > 1000, `${p.events} events`);
    assert.equal(search.found(), null);
  });
}

test("promises names what any-promised looks for", () => {
  assert.deepEqual(Search.promises("bully"), ["liveness"]);
  assert.ok(Search.promises("lease-fencing").includes("stale-write-accepted"));
  assert.ok(!Search.promises("lease-unfenced").includes("stale-write-accepted"));
  assert.throws(() => Search.promises("paxos"), { name: "TypeError", code: "ERR_SEARCH_TYPE" });
});

test("Simulation.promises (the sim module's copy, for pages that have not loaded the search) says the same", () => {
  for (const algorithm of ["raft", "bully", "lease-fencing", "lease-unfenced"]) {
    assert.deepEqual(Simulation.promises(algorithm), Search.promises(algorithm), algorithm);
    assert.ok(Simulation.promises(algorithm).length > 0, algorithm);
  }
  for (const bad of ["paxos", 5, undefined, null, {}]) {
    assert.throws(() => Simulation.promises(bad), { name: "TypeError", code: "ERR_SCENARIO_TYPE" }, String(bad));
  }
});

test("toJSON gives options the constructor takes back: the same search, run for run", () => {
  const cases = [
    { algorithm: "bully", property: "split-brain" },
    {
      algorithm: "raft", property: "no-leader-for=2s", nodes: 5, families: ["kill", "partition-one"], seed: 7,
      duration_ms: 3_000, heal_ms: 1_000, pre_vote: true, check_quorum: false, config: { election_timeout_ms: 200 },
    },
    { algorithm: "lease-fencing", property: "any-promised", nodes: 3, duration_ms: 2_000, heal_ms: 1_000, seed: 2n ** 60n, config: { ttl_ms: 1_500 } },
  ];
  for (const options of cases) {
    const search = new Search(options);
    const json = search.toJSON();
    // Every default is filled in, and what was given is kept as given.
    for (const key of ["algorithm", "nodes", "families", "seed", "duration_ms", "heal_ms", "config"]) assert.ok(key in json, key);
    for (const [key, value] of Object.entries(options)) if (key !== "property") assert.deepEqual(json[key], value, key);
    assert.equal(json.property, search.property);
    const again = new Search(json);
    assert.deepEqual(again.toJSON(), json);
    if (typeof json.seed !== "bigint") assert.deepEqual(new Search(JSON.parse(JSON.stringify(json))).toJSON(), json);
    search.runBatch(2);
    again.runBatch(2);
    assert.deepEqual(again.progress(), search.progress(), "the same runs");
  }
  // The defaults are the documented ones: 3 nodes, every family that applies (no store
  // outage without a store), 20 s of faults, 5 s heal, seed 0, no config.
  const families = ["kill", "pause", "partition-one", "partition-minority", "partition-majority", "partition-ring",
    "partition-bridge", "clock-bump", "clock-drift", "duplicate", "reorder"];
  assert.deepEqual(new Search({ algorithm: "bully", property: "split-brain" }).toJSON(), {
    algorithm: "bully", property: "split-brain", nodes: 3, families, seed: 0, duration_ms: 20_000, heal_ms: 5_000, config: {},
  });
});

test("bad search input gets a coded error and changes nothing", () => {
  const ok = { algorithm: "bully", property: "split-brain" };
  const cases = [
    [null, TypeError, "ERR_SEARCH_TYPE"],
    [[], TypeError, "ERR_SEARCH_TYPE"],
    [{ ...ok, property: "splitbrain" }, TypeError, "ERR_SEARCH_TYPE"],
    [{ ...ok, property: "no-leader-for=0s" }, TypeError, "ERR_SEARCH_TYPE"],
    [{ ...ok, algorithm: "paxos" }, TypeError, "ERR_SEARCH_TYPE"],
    [{ ...ok, families: ["earthquake"] }, TypeError, "ERR_SEARCH_TYPE"],
    [{ ...ok, budget: 10 }, TypeError, "ERR_UNKNOWN_KEY"],
    [{ ...ok, config: { ttl: 2000 } }, TypeError, "ERR_UNKNOWN_KEY"],
    [{ ...ok, config: [] }, TypeError, "ERR_SEARCH_TYPE"],
    [{ ...ok, config: { ttl_ms: "2 s" } }, TypeError, "ERR_SEARCH_TYPE"],
    [{ ...ok, nodes: 1.5 }, TypeError, "ERR_SEARCH_TYPE"],
    [{ ...ok, nodes: 0 }, RangeError, "ERR_SCENARIO_RANGE"],
    [{ ...ok, nodes: 65 }, RangeError, "ERR_SCENARIO_RANGE"],
    [{ ...ok, duration_ms: 600_001 }, RangeError, "ERR_SEARCH_RANGE"],
    [{ ...ok, families: Array(25).fill("kill") }, RangeError, "ERR_SEARCH_RANGE"],
    // What the CLI refuses, the binding refuses too (one check, ChaosOptions::validate_named),
    // as a refusal of the search's options.
    [{ ...ok, pre_vote: true }, RangeError, "ERR_SEARCH_RANGE"],
    [{ algorithm: "raft", property: "split-brain", families: ["store-outage"] }, RangeError, "ERR_SEARCH_RANGE"],
    // No family at all would search fault-free runs (the CLI cannot be given an empty list).
    [{ ...ok, families: [] }, RangeError, "ERR_SEARCH_RANGE"],
    [{ algorithm: "raft", property: "stale-write" }, RangeError, "ERR_SCENARIO_RANGE"],
  ];
  for (const [input, cls, code] of cases) {
    assert.throws(() => new Search(input), (err) => err instanceof cls && err.code === code, JSON.stringify(input));
  }
  // Those refusals name the options as JS writes them, not the CLI's flags.
  assert.throws(
    () => new Search({ ...ok, check_quorum: false }),
    (err) => err.message === "search options: pre_vote/check_quorum apply to raft, not bully",
  );
  assert.throws(
    () => new Search({ ...ok, families: [] }),
    (err) => /^search options: families is empty; name at least one family/.test(err.message),
  );
  // An unknown config key is told the keys of the search's algorithm, not every algorithm's.
  assert.throws(
    () => new Search({ algorithm: "bully", property: "split-brain", config: { ttl: 2 } }),
    (err) => err.code === "ERR_UNKNOWN_KEY" && /unknown key "ttl"; the keys are heartbeat_interval_ms, failure_timeout_ms, answer_timeout_ms, coordinator_timeout_ms$/.test(err.message),
  );
  const s = new Search({ ...ok, seed: 1, families: ["partition-one"] });
  for (const n of [0, -1, 1.5, NaN, 1e7]) assert.throws(() => s.runBatch(n), { name: "RangeError", code: "ERR_SEARCH_RANGE" });
  assert.equal(s.progress().runs, 0, "a refused batch ran nothing");
  const quiet = { version: 1, algorithm: "raft", nodes: 3, seed: 1, duration_ms: 2000, faults: [] };
  assert.throws(() => Search.shrink(quiet, "split-brain", 10), { name: "RangeError", code: "ERR_SEARCH_RANGE" });
  assert.throws(() => Search.shrink(quiet, 7, 10), { name: "TypeError", code: "ERR_SEARCH_TYPE" });
  assert.throws(() => Search.shrink(quiet, "split-brain", 0), { name: "RangeError", code: "ERR_SEARCH_RANGE" });
  assert.throws(() => Search.shrink({ ...quiet, nodes: 0 }, "split-brain"), { code: "ERR_SCENARIO_RANGE" });
  assert.equal(Search.evaluate(quiet, "split-brain").witness, null);
});

test("no-leader-for= takes the CLI's durations: ms, s, m and h, whole milliseconds", () => {
  // Break-it pass: `new Search({ property: "no-leader-for=1h" })` threw ERR_SEARCH_TYPE
  // "needs a duration above 0 with a unit", while `tenure search` took it: both read the
  // duration flags' parser now.
  for (const [property, shown] of [["no-leader-for=1h", "no-leader-for=3600000ms"], ["no-leader-for=2m", "no-leader-for=120000ms"], ["no-leader-for=1.5s", "no-leader-for=1500ms"]]) {
    const s = new Search({ algorithm: "raft", property });
    assert.equal(s.property, shown);
    s.free();
  }
  assert.throws(() => new Search({ algorithm: "raft", property: "no-leader-for=0.5ms" }), {
    name: "TypeError",
    code: "ERR_SEARCH_TYPE",
    message: /`no-leader-for=0\.5ms` is finer than 1 ms/,
  });
  assert.throws(() => new Search({ algorithm: "raft", property: "no-leader-for=1us" }), {
    code: "ERR_SEARCH_TYPE",
    message: /`no-leader-for=1us` is not a duration: unknown unit `us`; use ms, s, m or h/,
  });
});

test("a search's seeds above 2^53 come back exact, and its found scenario is taken back", () => {
  // New-user trial: found().seed and progress().best_seed were numbers (2n ** 60n + 1n came
  // back as 1152921504606847000), and found().scenario.seed too, so Search.evaluate,
  // Search.shrink and new Simulation refused the search's own output.
  const seed = 2n ** 60n + 1n;
  const s = new Search({ algorithm: "bully", property: "split-brain", nodes: 3, seed });
  assert.equal(s.runBatch(50), true);
  const f = s.found();
  assert.equal(f.seed, seed + BigInt(f.run));
  assert.equal(s.progress().best_seed, f.seed);
  assert.equal(f.scenario.seed, String(f.seed), "a decimal string, as Simulation.toJSON writes a large seed");
  assert.equal(JSON.parse(JSON.stringify(f.scenario)).seed, String(f.seed));
  assert.ok(Search.evaluate(f.scenario, "split-brain").witness);
  const sim = new Simulation(f.scenario);
  assert.equal(sim.toJSON().seed, String(f.seed));
  sim.free();
  assert.equal(s.toJSON().seed, seed);
});

test("bad search options are told by their key, in the caller's words", () => {
  // New-user trial: families "kill" said "Reflect.get called on non-object", a seed of
  // 2n ** 64n "Couldn't deserialize u64 from a BigInt outside u64::MIN..u64::MAX bounds",
  // heal_ms NaN and seed -1 named no key ("got -1.0").
  const ok = { algorithm: "bully", property: "split-brain" };
  const cases = [
    [{ ...ok, families: "kill" }, TypeError, "ERR_SEARCH_TYPE", /^search options: families: /],
    [{ ...ok, seed: 2n ** 64n }, RangeError, "ERR_SEARCH_RANGE", /^search options: seed must fit in 64 bits, from 0n to 2n \*\* 64n - 1n, got 18446744073709551616n$/],
    [{ ...ok, seed: -1 }, null, null, /^search options: seed: .*-1(?!\.0)/],
    [{ ...ok, heal_ms: NaN }, null, null, /^search options: heal_ms must be a finite number, got NaN$/],
    [{ ...ok, nodes: "3" }, TypeError, "ERR_SEARCH_TYPE", /^search options: nodes: /],
  ];
  for (const [input, cls, code, words] of cases) {
    assert.throws(() => new Search(input), (err) => {
      if (cls) assert.ok(err instanceof cls, `${err.name}: ${err.message}`);
      if (code) assert.equal(err.code, code, err.message);
      assert.match(err.code, /^ERR_/);
      assert.match(err.message, words);
      for (const bad of ["Reflect", "u64", "..", "BigInt outside", "-1.0"]) assert.ok(!err.message.includes(bad), `"${err.message}" says ${bad}`);
      return true;
    }, String(words));
  }
});
