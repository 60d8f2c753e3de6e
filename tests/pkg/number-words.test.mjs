// Numbers the caller gave, quoted back in scenario and fault messages: written as the native
// CLI writes them (Rust's `Display`: the shortest digits that read back as the number, never
// an exponent), though the wasm modules print them through JS (`units::float_text` in the
// simulator, docs/bindings.md "Float formatting out of the modules"). A whole number past
// 2 ** 53 - 1 is quoted without the float's ".0" and with why a JS number cannot be trusted
// there (the text the CLI reads keeps every digit, so it has no such case).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Simulation } from "tenure/sim";
import { scenario } from "./simulation-helpers.mjs";

const good = () => scenario("raft", { nodes: 3, duration_ms: 5_000 });
const fault = (f) => ({ ...good(), faults: [{ at_ms: 1, fault: f }] });

/** The message `fn` throws. */
function message(fn) {
  try {
    fn();
  } catch (err) {
    return err.message;
  }
  throw new Error("did not throw");
}

const cases = [
  // [label, scenario, the exact message]
  ["fractional nodes", { ...good(), nodes: 1.5 }, "scenario: nodes: expected a whole number from 1 to 64, got 1.5"],
  ["nodes past 2^53", { ...good(), nodes: 2 ** 60 }, "scenario: nodes: expected a whole number from 1 to 64, got 1152921504606847000, above 2 ** 53 - 1, where a JS number no longer holds every whole number exactly (a bigint does)"],
  ["nodes at 1e21", { ...good(), nodes: 1e21 }, "scenario: nodes: expected a whole number from 1 to 64, got 1000000000000000000000, above 2 ** 53 - 1, where a JS number no longer holds every whole number exactly (a bigint does)"],
  ["tiny nodes", { ...good(), nodes: 1.5e-7 }, "scenario: nodes: expected a whole number from 1 to 64, got 0.00000015"],
  ["negative tiny nodes", { ...good(), nodes: -2.5e-300 }, `scenario: nodes: expected a whole number from 1 to 64, got -0.${"0".repeat(299)}25`],
  ["loss", { ...good(), network: { loss: 2.5 } }, "scenario: network.loss: 2.5 is not a probability from 0 to 1"],
  ["loss at 1e21", { ...good(), network: { loss: 1e21 } }, "scenario: network.loss: 1000000000000000000000 is not a probability from 0 to 1"],
  ["tiny negative loss", { ...good(), network: { loss: -1e-7 } }, "scenario: network.loss: -0.0000001 is not a probability from 0 to 1"],
  ["loss just above 1", { ...good(), network: { loss: 1.0000000000000002 } }, "scenario: network.loss: 1.0000000000000002 is not a probability from 0 to 1"],
  ["sub-microsecond", { ...good(), duration_ms: 0.0004 }, "scenario: duration_ms: 0.0004 ms is finer than 1 microsecond (0.001 ms), the resolution of times: give at most 3 decimals"],
  ["time with a tail", { ...good(), duration_ms: 5000.0004 }, "scenario: duration_ms: 5000.0004 ms is finer than 1 microsecond (0.001 ms), the resolution of times: give at most 3 decimals"],
  ["time past 2^64 us", { ...good(), duration_ms: 1e30 }, "scenario: duration_ms: 1000000000000000000000000000000 is not a time in milliseconds: give a finite number, 0 or more, below 2^64 microseconds"],
  ["run too long", { ...good(), duration_ms: 1000000000.5 }, "scenario: duration_ms 1000000000.5 is above the longest run, 1000000000 ms (about 11.6 days of simulated time); split a longer study into runs over seeds"],
  ["negative offset", fault({ type: "clock-offset", target: 1, offset_ms: -0.0004 }), "scenario: faults[0].fault.offset_ms: -0.0004 ms is finer than 1 microsecond (0.001 ms), the resolution of times: give at most 3 decimals"],
  ["fractional ppm", fault({ type: "clock-drift", target: 1, ppm: 0.1 }), "scenario: faults[0].fault.ppm: expected a whole number, got 0.1"],
];

for (const [label, input, expected] of cases) {
  test(`number words: ${label}`, () => {
    assert.equal(message(() => new Simulation(input)), expected);
    // The same scenario as JSON text reads to the same words.
    assert.equal(message(() => Simulation.fromJSON(JSON.stringify(input))), expected);
  });
}
