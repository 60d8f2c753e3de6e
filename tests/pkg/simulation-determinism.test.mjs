// Determinism across targets : the same scenario and seed
// give the same trace hash in Node (wasm32) as the native `tenure` CLI prints, for every
// algorithm and fault family, and for a live run with injected faults once its toJSON() is
// replayed natively.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Simulation } from "tenure/sim";
import { root } from "../../scripts/lib/run.mjs";
import { chaosFaults, scenario, show } from "./simulation-helpers.mjs";

let work;
let cli;

before(() => {
  // `cargo run --release -p tenure-sim --bin tenure` once (incremental), then the binary.
  execFileSync("cargo", ["build", "--release", "-q", "-p", "tenure-sim", "--bin", "tenure"], { cwd: root, stdio: "inherit" });
  cli = join(process.env.CARGO_TARGET_DIR ?? join(root, "target"), "release", "tenure");
  work = mkdtempSync(join(tmpdir(), "tenure-determinism-"));
});

after(() => rmSync(work, { recursive: true, force: true }));

/** `tenure run <file> --json` on `json`: the CLI's summary; its trace hash is the same 16-hex-digit string JS gives. */
function native(json, name) {
  const file = join(work, `${name}.json`);
  writeFileSync(file, JSON.stringify(json, (_, v) => (typeof v === "bigint" ? Number(v) : v)));
  let out;
  try {
    out = execFileSync(cli, ["run", file, "--json"], { encoding: "utf8" });
  } catch (err) {
    // Exit code 1 means a promised invariant was violated; the summary is still printed.
    if (err.status !== 1) throw err;
    out = err.stdout;
  }
  const summary = JSON.parse(out);
  return { ...summary, hash: summary.trace_hash };
}

/** Runs a scenario to its end in wasm. */
function wasm(json) {
  const sim = new Simulation(json);
  sim.runUntil(sim.endMs);
  return sim;
}

function assertSameRun(sim, cliRun, label) {
  assert.equal(sim.traceHash(), cliRun.hash, `${label}: trace hash wasm ${sim.traceHash()} vs native ${cliRun.trace_hash}`);
  assert.equal(sim.metrics().events, cliRun.metrics.events, label);
  assert.equal(sim.violations().length, cliRun.violations.length, label);
  assert.equal(sim.failed, cliRun.failed, label);
}

const cases = {
  raft_prevote_checkquorum_chaos: scenario("raft", {
    nodes: 5,
    seed: 7,
    duration_ms: 30_000,
    config: { pre_vote: true, check_quorum: true, election_timeout_ms: 150 },
    network: { latency_ms: [1, 12.5], loss: 0.01, duplicate: 0.02 },
    faults: [
      ...chaosFaults(7, 5, 30_000),
      { at_ms: 4_000.25, fault: { type: "link-loss", from: [1, 2], to: [3], probability: 0.3 } },
      { at_ms: 6_000, fault: { type: "clock-drift", target: 4, ppm: 2_000 } },
    ],
  }),
  lease_fencing_pause_clock_outage: scenario("lease-fencing", {
    nodes: 4,
    seed: 42,
    duration_ms: 30_000,
    config: { ttl_ms: 1_500, safety_margin_ms: 200 },
    faults: [
      { at_ms: 2_000, fault: { type: "pause-after-check", node: 1, duration_ms: 4_000 } },
      { at_ms: 2_000, fault: { type: "pause-after-check", node: 2, duration_ms: 4_000 } },
      { at_ms: 9_000, fault: { type: "store-outage", duration_ms: 2_500 } },
      { at_ms: 12_000, fault: { type: "clock-jump", target: "store", by_ms: 700 } },
      { at_ms: 15_000, fault: { type: "clock-offset", target: 3, offset_ms: -300 } },
      { at_ms: 18_000, fault: { type: "link-latency", from: [1, 2, 3, 4], to: ["resource"], min_ms: 5, max_ms: 900 } },
      ...chaosFaults(42, 4, 30_000),
    ],
  }),
  lease_unfenced_stale_write: scenario("lease-unfenced", {
    seed: 3,
    duration_ms: 15_000,
    faults: [
      { at_ms: 1_000, fault: { type: "pause-after-check", node: 1, duration_ms: 5_000 } },
      { at_ms: 1_000, fault: { type: "pause-after-check", node: 2, duration_ms: 5_000 } },
      { at_ms: 1_000, fault: { type: "pause-after-check", node: 3, duration_ms: 5_000 } },
    ],
  }),
  bully_partition: scenario("bully", {
    nodes: 5,
    seed: 11,
    duration_ms: 20_000,
    faults: [
      { at_ms: 3_000, fault: { type: "partition", groups: [[1, 2], [3, 4, 5]] } },
      { at_ms: 8_000, fault: { type: "partition-one-way", from: [5], to: [1, 2, 3] } },
      { at_ms: 12_000, fault: { type: "heal" } },
      { at_ms: 14_000, fault: { type: "crash", node: 5 } },
    ],
  }),
};

for (const [name, json] of Object.entries(cases)) {
  test(`same_trace_hash_as_native_cli_${name}`, () => {
    const sim = wasm(json);
    assert.ok(sim.metrics().events > 500, `${name} ran: ${sim.metrics().events} events`);
    assertSameRun(sim, native(json, name), name);
  });
}

test("same_trace_hash_twice_in_wasm_and_a_different_seed_differs", () => {
  const json = cases.raft_prevote_checkquorum_chaos;
  assert.equal(wasm(json).traceHash(), wasm(structuredClone(json)).traceHash());
  assert.notEqual(wasm(json).traceHash(), wasm({ ...json, seed: 8 }).traceHash());
});

test("a_live_run_with_injected_faults_replays_natively_from_toJSON", () => {
  // The playground's permalink: a run steered by hand is stored as toJSON() and replayed.
  const sim = new Simulation(scenario("raft", { nodes: 5, seed: 99, duration_ms: 12_000 }));
  sim.runUntil(1_500);
  const leader = sim.leaders()[0];
  assert.ok(leader !== undefined, "a leader by 1.5 s");
  sim.inject({ type: "crash", node: Number(leader) });
  sim.runUntil(2_750.5);
  sim.inject({ type: "partition", groups: [[1, 2], [3, 4, 5]] });
  for (let i = 0; i < 37; i++) sim.step(); // inject between events, not only at runUntil times
  sim.inject({ type: "pause", target: 3, duration_ms: 400 });
  sim.inject({ type: "heal" });
  sim.runUntil(6_000);
  sim.inject({ type: "restart", node: Number(leader) });
  sim.runUntil(sim.endMs);

  const json = sim.toJSON();
  assert.equal(json.faults.length, 5, show(json.faults));
  const replayed = wasm(json);
  assert.equal(replayed.traceHash(), sim.traceHash(), "replayed in wasm");
  assertSameRun(sim, native(json, "injected"), "replayed natively");
});

test("a_drawn_seed_is_reported_and_replays_natively", () => {
  const { seed, ...unseeded } = scenario("lease-fencing", { duration_ms: 5_000 });
  const sim = wasm(unseeded);
  const json = sim.toJSON();
  assert.equal(typeof json.seed, "number");
  assert.ok(Number.isSafeInteger(json.seed));
  assert.equal(sim.seed, json.seed);
  assertSameRun(sim, native(json, "drawn-seed"), "drawn seed");
});
