// A seed is read one way wherever JS gives one: a scenario's (Simulation), a search's
// options (Search) and the failover lab's argument (failoverMeasure, falseElections). They
// disagreed: `seed: 2 ** 53` was a TypeError from Search ("expected a whole number 0 or more,
// got 9007199254740992.0") and a RangeError from Simulation ("above 2^53") and
// failoverMeasure; a fraction was a TypeError from Search only; the lab took no bigint. Now
// the three share the scenario's seed reader (tenure_sim::units::u64_number_or_string): a
// whole number from 0 to 2 ** 53 - 1, or a bigint or decimal string up to 2n ** 64n - 1n.
// A value of another type is a TypeError; a number or bigint out of range (a fraction, a
// negative, past 2 ** 53 - 1 as a number, past 2n ** 64n - 1n) a RangeError, as JS's own
// BigInt(1.5) and the package's other whole-number checks (ERR_INTEGER_RANGE, cursors) have
// it. Each message names the value and the range in JS notation.
import assert from "node:assert/strict";
import { test } from "node:test";
import { failoverMeasure, falseElections, Search } from "tenure/search";
import { Simulation } from "tenure/sim";

const RANGE = "a seed is a whole number from 0 to 2 ** 53 - 1, or a bigint or decimal string from 0 to 2n ** 64n - 1n";
const calls = {
  Simulation: [(seed) => new Simulation({ version: 1, algorithm: "raft", nodes: 3, duration_ms: 10, seed }), "scenario: seed", "ERR_SCENARIO"],
  Search: [(seed) => new Search({ algorithm: "bully", property: "split-brain", duration_ms: 100, heal_ms: 100, seed }), "search options: seed", "ERR_SEARCH"],
  failoverMeasure: [(seed) => failoverMeasure({ algorithm: "raft" }, seed, 1), "seed", "ERR_SCENARIO"],
  falseElections: [(seed) => falseElections({ algorithm: "raft" }, seed, { run_ms: 10, pauses_per_hour: 0, pause_ms: 1 }), "seed", "ERR_SCENARIO"],
};

const cases = [
  [2 ** 53, RangeError, (w) => `${w}: 9007199254740992 is above 2 ** 53 - 1, where a number no longer holds every whole number exactly: give it as a bigint or a decimal string (${RANGE})`],
  [Number.MAX_SAFE_INTEGER + 2, RangeError, (w) => `${w}: 9007199254740992 is above 2 ** 53 - 1, where a number no longer holds every whole number exactly: give it as a bigint or a decimal string (${RANGE})`],
  [1.5, RangeError, (w) => `${w}: 1.5 is not a seed: ${RANGE}`],
  [-1, RangeError, (w) => `${w}: -1 is not a seed: ${RANGE}`],
  [1e30, RangeError, (w) => `${w}: 1000000000000000000000000000000 is not a seed: ${RANGE}`],
  [2n ** 64n, RangeError, (w) => `${w === "scenario: seed" ? "scenario.seed" : w} must fit in 64 bits, from 0n to 2n ** 64n - 1n, got 18446744073709551616n`],
  [true, TypeError, null],
  [{}, TypeError, null],
];

for (const [name, [call, where, prefix]] of Object.entries(calls)) {
  test(`${name}: a seed's type and range errors are the scenario's, with the value and the range`, () => {
    for (const [value, cls, words] of cases) {
      assert.throws(() => call(value), (err) => {
        assert.ok(err instanceof cls, `${String(value)}: ${err.name}: ${err.message}`);
        assert.equal(err.code, `${prefix}_${cls === TypeError ? "TYPE" : "RANGE"}`, err.message);
        if (words) assert.equal(err.message, words(where));
        else assert.match(err.message, /expected a number, a bigint or a decimal string/);
        return true;
      }, `${name} seed ${String(value)}`);
    }
    // What is in range is taken, the same way everywhere.
    for (const ok of [0, Number.MAX_SAFE_INTEGER, 2n ** 64n - 1n, "18446744073709551615"]) assert.doesNotThrow(() => call(ok), `${name} seed ${String(ok)}`);
  });
}

test("failoverMeasure takes a bigint seed as the number it equals, and runs past 2 ** 53 - 1 exactly", () => {
  const setting = { algorithm: "bully", nodes: 3 };
  assert.deepEqual(failoverMeasure(setting, 7n, 2), failoverMeasure(setting, 7, 2));
  assert.deepEqual(failoverMeasure(setting, "7", 2), failoverMeasure(setting, 7, 2));
  const far = 2n ** 60n + 1n;
  assert.notDeepEqual(failoverMeasure(setting, far, 3).samples_ms, failoverMeasure(setting, far + 1n, 3).samples_ms);
});
