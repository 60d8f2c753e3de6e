// Find, shrink, replay: the counterexamples `tenure search` shrinks (committed by the Rust
// test crates/tenure-sim/tests/search.rs, which fails if they go stale) replay in Node with
// the native trace hash and the same violation; and the playground decodes the permalink
// the CLI prints for them.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Simulation } from "tenure/sim";
import { root } from "../../scripts/lib/run.mjs";
import { decodeHash } from "../../web/playground/permalink.js";

const dir = join(root, "tests", "pkg", "fixtures", "search");
const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")));

let work;
let cli;

before(() => {
  execFileSync("cargo", ["build", "--release", "-q", "-p", "tenure-sim", "--bin", "tenure"], { cwd: root, stdio: "inherit" });
  cli = join(process.env.CARGO_TARGET_DIR ?? join(root, "target"), "release", "tenure");
  work = mkdtempSync(join(tmpdir(), "tenure-search-"));
});

after(() => rmSync(work, { recursive: true, force: true }));

/** Runs `sim` in the monitor's 10 ms slices and reports the first witness of `property`. */
function firstWitness(sim, property) {
  for (let t = 0; t < sim.endMs; ) {
    t = Math.min(t + 10, sim.endMs);
    sim.runUntil(t);
    const m = sim.snapshot().metrics; // JS snapshots give times in ms
    if (property === "split-brain" && (m.leaders_now >= 2 || m.split_brain_ms > 0)) return t;
    if (property === "stale-write" && m.stale_writes_accepted > 0) return t;
  }
  return undefined;
}

test("there is a committed counterexample for each example", () => {
  assert.ok(fixtures.length >= 4, `${fixtures.length} fixtures`);
  for (const f of fixtures) assert.ok(f.scenario.faults.length <= 2, `${f.name}: ${f.scenario.faults.length} faults`);
});

for (const f of fixtures) {
  test(`${f.name}: replays in Node with the native trace hash and the same violation`, () => {
    const sim = new Simulation(f.scenario);
    const at = firstWitness(sim, f.property);
    assert.equal(at, f.witness.time_ms, `${f.name}: witness at ${at} ms`);
    sim.runUntil(sim.endMs);
    assert.equal(sim.traceHash(), f.trace_hash, `${f.name}: wasm ${sim.traceHash()}`);
  });
}

test("the permalink of a shrunk scenario decodes to exactly that scenario", () => {
  const file = join(work, "bully.json");
  let out = "";
  try {
    execFileSync(cli, ["search", "--algorithm", "bully", "--property", "split-brain", "--budget", "50", "--out", file], { encoding: "utf8", env: { ...process.env, TENURE_PLAYGROUND: "http://x/" } });
  } catch (err) {
    assert.equal(err.status, 1, "exit 1: a violation was found");
    out = err.stdout;
  }
  const link = out.split("\n").find((l) => l.includes("playground:"));
  assert.ok(link, out);
  const { scenario, timeMs } = decodeHash(link.slice(link.indexOf("#")));
  assert.deepEqual(scenario, JSON.parse(readFileSync(file, "utf8")));
  assert.ok(timeMs >= 0);
  const sim = new Simulation(scenario);
  sim.runUntil(sim.endMs);
  assert.ok(sim.snapshot().metrics.split_brain_ms > 0);
});
