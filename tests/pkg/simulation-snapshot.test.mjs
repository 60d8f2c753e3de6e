// snapshot() is read in JS from the module's flat frame (pkg/sim/snapshot.js); it must equal,
// field for field, the snapshot serde-wasm-bindgen builds from the simulator's serde forms
// (`__snapshotSerde`, the reference), for every algorithm, under chaos, from the first frame
// to the end, including violations, the store and the resource.
//
// The reference is test-only: the shipped module does not carry it. These tests run the same
// reader over the sim module built with the Cargo feature `reference` (scripts/build.mjs's
// buildReference, into target/reference/); the shipped module's own snapshot() is checked
// against it on one run, and tests/pkg/modules.test.mjs checks that it has no reference.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";
import { pathToFileURL } from "node:url";
import { Simulation as Shipped } from "tenure/sim";
import { installSnapshot } from "../../pkg/sim/snapshot.js";
import { guardClasses } from "../../pkg/guard.js";
import { chaosScenario } from "../../bench/_chaos.mjs";
import { buildReference } from "../../scripts/build.mjs";
import { chaosFaults, scenario } from "./simulation-helpers.mjs";

const reference = buildReference();
const bindings = await import(pathToFileURL(reference.glue).href);
bindings.initSync({ module: readFileSync(reference.wasm) });
installSnapshot(bindings.Simulation);
guardClasses(bindings, undefined, "tenure/sim");
const { Simulation } = bindings;

test("the_shipped_module_has_no_reference_and_its_snapshots_equal_the_reference_build", () => {
  const s = chaosScenario("lease-unfenced", 7, { durationMs: 20_000 });
  const shipped = new Shipped(s);
  const ref = new Simulation(s);
  assert.equal(shipped.__snapshotSerde, undefined, "the shipped module carries no test-only export");
  while (!shipped.done) {
    const t = Math.min(shipped.endMs, shipped.now + 997);
    shipped.runUntil(t);
    ref.runUntil(t);
    assert.deepStrictEqual(shipped.snapshot(), ref.__snapshotSerde(), `at ${t} ms`);
  }
  shipped.free();
  ref.free();
});

for (const algorithm of ["raft", "bully", "lease-fencing", "lease-unfenced"]) {
  test(`snapshot_equals_the_serde_reference_every_frame_${algorithm}`, () => {
    const sim = new Simulation(chaosScenario(algorithm, 7, { durationMs: 60_000 }));
    let frames = 0;
    let violations = 0;
    assert.deepStrictEqual(sim.snapshot(), sim.__snapshotSerde());
    while (!sim.done) {
      sim.runUntil(Math.min(sim.endMs, sim.now + 397));
      const snap = sim.snapshot();
      assert.deepStrictEqual(snap, sim.__snapshotSerde(), `at ${sim.now} ms`);
      violations = snap.violations.length;
      frames++;
    }
    assert.ok(frames > 100);
    if (algorithm === "lease-unfenced") assert.ok(violations > 0, "an unfenced run under chaos breaks an invariant");
  });
}

test("snapshot_of_a_clone_and_of_its_original_agree_and_stay_independent", () => {
  const sim = new Simulation(scenario("lease-unfenced", { nodes: 5, faults: chaosFaults(3, 5, 20_000) }));
  sim.runUntil(10_000);
  const before = sim.snapshot();
  const copy = sim.clone();
  assert.deepStrictEqual(copy.snapshot(), before);
  copy.runUntil(15_000);
  assert.deepStrictEqual(sim.snapshot(), before, "the original did not move");
  assert.deepStrictEqual(copy.snapshot(), copy.__snapshotSerde());
  copy.free();
});

test("violations_in_snapshots_are_shared_frozen_records", () => {
  const sim = new Simulation(chaosScenario("lease-unfenced", 7, { durationMs: 60_000 }));
  sim.runUntil(60_000);
  const a = sim.snapshot();
  assert.ok(a.violations.length > 0);
  assert.ok(Object.isFrozen(a.violations[0]) && Object.isFrozen(a.violations[0].nodes));
  a.violations.length = 0; // the array itself is the caller's
  assert.deepStrictEqual(sim.snapshot().violations, sim.violations());
});

test("snapshot_on_a_freed_simulation_throws_err_freed", () => {
  const sim = new Simulation(scenario("raft"));
  sim.free();
  assert.throws(() => sim.snapshot(), { code: "ERR_FREED" });
});
