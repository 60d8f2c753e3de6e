// `npm run bench` figures for the Simulation binding (figures only):
// - simulated events per second in wasm under Node next to the native `tenure` CLI on the
//   same chaos scenarios in the same run, and their ratio;
// - the cost of snapshot() (the playground calls it every animation frame) and of clone()
//   (its checkpoints) for 5 and 25 nodes.
// The gzipped .wasm size is printed by the runner (scripts/bench.mjs).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Simulation } from "tenure";
import { root } from "../scripts/lib/run.mjs";

const ROUNDS = 3;

export default async function simulationBench() {
  execFileSync("cargo", ["build", "--release", "-q", "-p", "tenure-sim", "--bin", "tenure"], { cwd: root, stdio: "inherit" });
  const cli = join(process.env.CARGO_TARGET_DIR ?? join(root, "target"), "release", "tenure");
  const work = mkdtempSync(join(tmpdir(), "tenure-bench-"));
  try {
    console.log("simulated events per second, 5 nodes, 1200 s of chaos + 10 s heal (tenure chaos --emit-scenario --seed 1):");
    for (const algorithm of ["raft", "lease-fencing"]) {
      const json = JSON.parse(
        execFileSync(cli, ["chaos", "--algorithm", algorithm, "--nodes", "5", "--duration", "1200s", "--runs", "1", "--seed", "1", "--emit-scenario"], { encoding: "utf8" }),
      );
      const w = wasmRate(json);
      const n = nativeRate(cli, work, json);
      if (w.events !== n.events || w.hash !== n.hash) throw new Error(`${algorithm}: wasm and native runs differ (${w.events}/${n.events} events)`);
      console.log(
        `  ${algorithm.padEnd(14)} ${w.events} events: wasm ${fmtRate(w.rate)} (${w.ms.toFixed(0)} ms), native ${fmtRate(n.rate)} (${n.ms.toFixed(0)} ms), wasm/native ${(w.rate / n.rate).toFixed(2)}`,
      );
    }

    console.log("\nsnapshot() and clone() per call over 10 s of a run with faults, one 60 Hz frame (16 ms) of simulation between calls:");
    for (const algorithm of ["raft", "lease-fencing"]) {
      for (const nodes of [5, 25]) {
        const sim = new Simulation({
          version: 1,
          algorithm,
          nodes,
          seed: 1,
          duration_ms: 60_000,
          network: { latency_ms: [5, 30] },
          faults: [
            { at_ms: 4_000, fault: { type: "partition", groups: [[1, 2], [3, 4]] } },
            { at_ms: 6_000, fault: { type: "pause", target: 3, duration_ms: 1_500 } },
            { at_ms: 9_000, fault: { type: "heal" } },
          ],
        });
        sim.runUntil(3_000);
        const snaps = [];
        const clones = [];
        let inFlight = 0;
        for (let frame = 0; frame < 625; frame++) {
          sim.runUntil(sim.now + 16);
          let start = process.hrtime.bigint();
          const s = sim.snapshot();
          snaps.push(Number(process.hrtime.bigint() - start));
          inFlight += s.in_flight.length;
          if (frame % 10 === 0) {
            start = process.hrtime.bigint();
            sim.clone().free();
            clones.push(Number(process.hrtime.bigint() - start));
          }
        }
        console.log(
          `  ${algorithm.padEnd(14)} ${String(nodes).padStart(2)} nodes (${(inFlight / snaps.length).toFixed(1)} messages in flight on average): ` +
            `snapshot() median ${fmtUs(quantile(snaps, 0.5))}, p95 ${fmtUs(quantile(snaps, 0.95))}; clone() median ${fmtUs(quantile(clones, 0.5))}`,
        );
        sim.free();
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Best of ROUNDS: events per second running `json` to its end in wasm. */
function wasmRate(json) {
  let best = Infinity;
  let sim;
  for (let r = 0; r < ROUNDS; r++) {
    sim?.free();
    sim = new Simulation(json);
    const start = performance.now();
    sim.runUntil(sim.endMs);
    best = Math.min(best, performance.now() - start);
  }
  const events = sim.metrics().events;
  const hash = sim.traceHash();
  sim.free();
  return { events, hash, ms: best, rate: (events / best) * 1e3 };
}

/**
 * Best of ROUNDS: events per second of the native CLI on the same scenario; the cost of
 * starting the process and reading the file (the same scenario cut to 0 ms) is subtracted.
 */
function nativeRate(cli, work, json) {
  const time = (scenario, name) => {
    const file = join(work, name);
    writeFileSync(file, JSON.stringify(scenario));
    let best = Infinity;
    let out;
    for (let r = 0; r < ROUNDS; r++) {
      const start = performance.now();
      out = JSON.parse(execFileSync(cli, ["run", file, "--json"], { encoding: "utf8" }));
      best = Math.min(best, performance.now() - start);
    }
    return { best, out };
  };
  const full = time(json, "full.json");
  const empty = time({ ...json, duration_ms: 0, faults: [] }, "empty.json");
  const ms = Math.max(full.best - empty.best, 1e-3);
  const events = full.out.metrics.events;
  return { events, hash: BigInt(`0x${full.out.trace_hash}`), ms, rate: (events / ms) * 1e3 };
}

function quantile(samples, q) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

const fmtRate = (r) => `${(r / 1e6).toFixed(2)} M events/s`;
const fmtUs = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} us`);
