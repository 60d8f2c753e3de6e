// The failover lab's functions: the CLI's measurements from the same code (equal numbers
// for the same setting and seeds), typed errors for bad settings, and the plot's SVG.
import assert from "node:assert/strict";
import { test } from "node:test";
import { failoverMeasure, failoverPlot, falseElections } from "tenure/search";

test("failover samples are sorted, summarised and the same for the same seeds", () => {
  const s = { algorithm: "raft", election_timeout_ms: [150, 300] };
  const a = failoverMeasure(s, 5, 10);
  assert.deepEqual(a, failoverMeasure(JSON.stringify(s), 5, 10));
  assert.equal(a.label, "raft 150-300 ms");
  assert.equal(a.samples_ms.length + a.failures, 10);
  assert.deepEqual(a.samples_ms, [...a.samples_ms].sort((x, y) => x - y));
  assert.equal(a.min_ms, a.samples_ms[0]);
  assert.equal(a.max_ms, a.samples_ms.at(-1));
  assert.notDeepEqual(a.samples_ms, failoverMeasure(s, 6, 10).samples_ms);
});

test("with no new leader after any crash there is no time to report: null, as the CLI's --json", () => {
  // One node: its crash leaves nobody to take over, so every run is a failure.
  const r = failoverMeasure({ algorithm: "raft", nodes: 1 }, 0, 2);
  assert.equal(r.failures, 2);
  assert.deepEqual(r.samples_ms, []);
  assert.deepEqual([r.min_ms, r.median_ms, r.p99_ms, r.max_ms], [null, null, null, null]);
});

test("a longer lease fails over later", () => {
  const short = failoverMeasure({ algorithm: "lease-fencing", ttl_ms: 2000 }, 1, 5);
  const long = failoverMeasure({ algorithm: "lease-fencing", ttl_ms: 5000 }, 1, 5);
  assert.ok(long.median_ms > short.median_ms);
});

test("false elections: none without pauses, some when pauses outlast the timeout", () => {
  const s = { algorithm: "raft", election_timeout_ms: [100, 200] };
  assert.equal(falseElections(s, 1, { run_ms: 60_000, pauses_per_hour: 0, pause_ms: 0 }).false_elections, 0);
  const r = falseElections(s, 1, { run_ms: 600_000, pauses_per_hour: 60, pause_ms: 400 });
  assert.ok(r.pauses > 0 && r.false_elections > 0, JSON.stringify(r));
  assert.equal(r.false_elections_per_hour, (r.false_elections * 3_600_000) / r.run_ms);
});

test("bad settings are typed errors in the caller's words", () => {
  const code = (fn) => {
    try {
      fn();
    } catch (e) {
      return [e.constructor.name, e.code, e.message];
    }
    return null;
  };
  const [cls, c1, m1] = code(() => failoverMeasure({ algorithm: "bully", ttl_ms: 1000 }, 0, 1));
  assert.equal(cls, "RangeError");
  assert.equal(c1, "ERR_SCENARIO_RANGE");
  assert.match(m1, /ttl_ms does not apply to bully: it is a knob of lease-fencing, /);
  // A key the setting does not have: ERR_UNKNOWN_KEY, as for a scenario, with the keys it has.
  const [, c2, m2] = code(() => failoverMeasure({ algorithm: "raft", timeouts: [1, 2] }, 0, 1));
  assert.equal(c2, "ERR_UNKNOWN_KEY");
  assert.match(m2, /^failover setting: unknown key "timeouts"; the keys are algorithm, nodes, election_timeout_ms, /);
  assert.equal(code(() => failoverMeasure({ algorithm: "raft", nodes: "3" }, 0, 1))[1], "ERR_SCENARIO_TYPE");
  assert.equal(code(() => failoverMeasure({ algorithm: "raft" }, 0, 0))[1], "ERR_SCENARIO_RANGE");
  assert.equal(code(() => failoverMeasure({ algorithm: "raft" }, -1, 1))[1], "ERR_SCENARIO_RANGE");
  assert.equal(code(() => failoverMeasure({ algorithm: "raft" }, 0, 1e9))[1], "ERR_SCENARIO_RANGE");
  assert.equal(code(() => falseElections({ algorithm: "raft" }, 0, { run_ms: 0, pauses_per_hour: 1, pause_ms: 1 }))[1], "ERR_SCENARIO_RANGE");
  // NaN and Infinity are refused as what they are (they were read through JSON text, where
  // they became null: "expected a number, got null"), as out of range like a negative time.
  assert.deepEqual(code(() => failoverPlot("t", [{ label: "x", samples_ms: [Number.NaN] }])), ["RangeError", "ERR_SCENARIO_RANGE", "plot series[0].samples_ms[0] must be a finite number, got NaN"]);
  assert.deepEqual(code(() => failoverMeasure({ algorithm: "raft", latency_ms: [Number.NaN, 1] }, 0, 1)), ["RangeError", "ERR_SCENARIO_RANGE", "failover setting: latency_ms[0] must be a finite number, got NaN"]);
  assert.deepEqual(code(() => falseElections({ algorithm: "raft" }, 0, { run_ms: 1000, pauses_per_hour: Infinity, pause_ms: 5 })), ["RangeError", "ERR_SCENARIO_RANGE", "disturbance: pauses_per_hour must be a finite number, got Infinity"]);
  // JSON text is still taken, parsed by JSON.parse, and read the same way.
  assert.equal(code(() => failoverMeasure('{"algorithm": "raft", "x": 1}', 0, 1))[1], "ERR_UNKNOWN_KEY");
  assert.match(code(() => failoverMeasure("{nope", 0, 1))[2], /^failover setting: not JSON text: /);
  assert.equal(code(() => failoverPlot("t", [{ label: "x", samples_ms: [-1] }]))[1], "ERR_SCENARIO_RANGE");
  // A title that is not a string is refused before it reaches wasm memory (it used to trap).
  for (const title of [5, {}, null, undefined]) assert.equal(code(() => failoverPlot(title, []))[1], "ERR_STRING_TYPE", String(title));
  assert.match(failoverPlot("still fine", []), /^<svg/);
});

test("the plot takes every sample a measurement returns, past the 256 of other lists", () => {
  // Break-it pass: 1000 runs measured were refused by the plot (ERR_TOO_LARGE, "at most 256").
  const r = failoverMeasure({ algorithm: "raft" }, 0, 1000);
  assert.ok(r.samples_ms.length > 256, String(r.samples_ms.length));
  assert.match(failoverPlot("t", [{ label: r.label, samples_ms: r.samples_ms }]), /^<svg/);
  // The most runs a measurement takes is the most samples a series takes; one more is refused.
  assert.match(failoverPlot("t", [{ label: "x", samples_ms: new Array(100_000).fill(1) }]), /^<svg/);
  assert.throws(() => failoverPlot("t", [{ label: "x", samples_ms: new Array(100_001).fill(1) }]), {
    name: "RangeError",
    code: "ERR_TOO_LARGE",
    message: /samples_ms has 100,?001 elements; at most 100,?000 are accepted/,
  });
});

test("the plot is standalone SVG with one line per series", () => {
  const svg = failoverPlot("Failover <1>", [{ label: "a", samples_ms: [1, 2, 3] }, { label: "b & c", samples_ms: [5] }]);
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.equal(svg.match(/<path class="series"/g).length, 2);
  assert.match(svg, /Failover &lt;1&gt;/);
  assert.match(svg, /b &amp; c/);
});

// runs said "runs must be a whole number from 0 to 100000, not 1.5" (0 was allowed by that
// sentence, then refused by another, "runs must be at least 1") and "not inf".
test("failoverMeasure's runs errors name runs, the value and the range 1 to 100000", () => {
  const setting = { algorithm: "raft" };
  for (const [runs, shown] of [[0, "0"], [1.5, "1.5"], [100_001, "100001"], [-1, "-1"], [Infinity, "Infinity"], [NaN, "NaN"]]) {
    assert.throws(() => failoverMeasure(setting, 0, runs), (err) => {
      assert.ok(err instanceof RangeError, err.message);
      assert.equal(err.code, "ERR_SCENARIO_RANGE");
      assert.equal(err.message, `runs must be a whole number from 1 to 100000, got ${shown}`);
      return true;
    });
  }
  assert.throws(() => failoverMeasure(setting, 0, "5"), (err) => err instanceof TypeError && err.code === "ERR_SCENARIO_TYPE" && err.message === 'runs must be a number, got string "5"');
});

test("an argument left out is said to be undefined, not null; a null is still null", () => {
  // The module reads `undefined` as JSON's null: `failoverMeasure(setting, undefined, 1)` said
  // "seed: expected a number, a bigint or a decimal string, got null".
  const setting = { algorithm: "raft" };
  const disturbance = { run_ms: 1000, pauses_per_hour: 1, pause_ms: 5 };
  const said = (fn) => {
    try {
      fn();
    } catch (err) {
      return [err.name, err.code, err.message, err.stack.includes(err.message)];
    }
    return ["no error"];
  };
  const seed = (got) => ["TypeError", "ERR_SCENARIO_TYPE", `seed: expected a number, a bigint or a decimal string, got ${got}`, true];
  const object = (what, got) => ["TypeError", "ERR_SCENARIO_TYPE", `${what}: expected an object, got ${got}`, true];
  assert.deepEqual(said(() => failoverMeasure(setting, undefined, 1)), seed("undefined"));
  assert.deepEqual(said(() => failoverMeasure(setting)), seed("undefined"));
  assert.deepEqual(said(() => failoverMeasure(setting, null, 1)), seed("null"));
  assert.deepEqual(said(() => failoverMeasure(undefined, 0, 1)), object("failover setting", "undefined"));
  assert.deepEqual(said(() => failoverMeasure()), object("failover setting", "undefined"));
  assert.deepEqual(said(() => failoverMeasure(null, 0, 1)), object("failover setting", "null"));
  assert.deepEqual(said(() => failoverMeasure(setting, 0, undefined)), ["TypeError", "ERR_SCENARIO_TYPE", "runs must be a number, got undefined", true]);
  assert.deepEqual(said(() => failoverMeasure(setting, 0)), ["TypeError", "ERR_SCENARIO_TYPE", "runs must be a number, got undefined", true]);
  // The arguments are checked in the order they were: a bad setting is named before a seed left out.
  assert.equal(said(() => failoverMeasure({ algorithm: "paxos" }, undefined, 1))[2].startsWith("failover setting: "), true);
  assert.deepEqual(said(() => falseElections(undefined, 0, disturbance)), object("failover setting", "undefined"));
  assert.deepEqual(said(() => falseElections(setting, 0, undefined)), object("disturbance", "undefined"));
  assert.deepEqual(said(() => falseElections(setting, 0)), object("disturbance", "undefined"));
  assert.deepEqual(said(() => falseElections(setting, undefined, disturbance)), seed("undefined"));
  assert.deepEqual(said(() => falseElections(setting, null, disturbance)), seed("null"));
  assert.deepEqual(said(() => failoverPlot("t")), ["TypeError", "ERR_SCENARIO_TYPE", "plot series: expected an array, got undefined", true]);
  assert.deepEqual(said(() => failoverPlot("t", null)), ["TypeError", "ERR_SCENARIO_TYPE", "plot series: expected an array, got null", true]);
  // The functions keep their names and arity.
  assert.deepEqual([failoverMeasure.name, failoverMeasure.length, falseElections.length, failoverPlot.length], ["failoverMeasure", 3, 3, 2]);
});
