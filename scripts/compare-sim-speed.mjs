// `node scripts/compare-sim-speed.mjs <dir A> <dir B> [pairs]`: the simulator's wasm speed in
// two builds of the sim module (each dir holds a copy of pkg/dist/tenure_sim.js and
// tenure_sim_bg.wasm), for a size change that could slow it (docs/bindings.md, "The sim and
// search modules: two cuts"). Both load in one Node process; each pair runs the same
// scenario in A and B back to back, in alternating order, and compares CPU time; the runs
// must give the same trace hash and event count. Prints B/A per pair (median, min, max).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { cpuUsage } from "node:process";
import { pathToFileURL } from "node:url";
const [A, B, roundsArg] = process.argv.slice(2);
async function load(dir) {
  const m = await import(pathToFileURL(resolve(dir, "tenure_sim.js")).href);
  m.initSync({ module: readFileSync(resolve(dir, "tenure_sim_bg.wasm")) });
  return m;
}
const mods = { A: await load(A), B: await load(B) };
// A fault every 20 s: crash, restart, partition (healed 5 s later), in turn.
function faults() {
  const out = [];
  for (let t = 5000, i = 0; t < 1_190_000; t += 20_000, i++) {
    const node = (i % 5) + 1;
    out.push({ at_ms: t, fault: i % 3 === 0 ? { type: "crash", node } : i % 3 === 1 ? { type: "restart", node: ((i - 1) % 5) + 1 } : { type: "partition", groups: [[1, 2], [3, 4, 5]] } });
    if (i % 3 === 2) out.push({ at_ms: t + 5000, fault: { type: "heal" } });
  }
  return out;
}
const scenarios = ["raft", "lease-fencing"].map((algorithm) => ({ version: 1, algorithm, nodes: 5, seed: 7, duration_ms: 1_200_000, faults: faults() }));
function run(m, sc) {
  const sim = new m.Simulation(sc);
  const c0 = cpuUsage();
  sim.runUntil(sim.endMs);
  const c = cpuUsage(c0);
  const r = { ms: (c.user + c.system) / 1000, hash: String(sim.traceHash()), events: sim.metrics().events };
  sim.free();
  return r;
}
const rounds = Number(roundsArg ?? 10);
for (const sc of scenarios) {
  const t = { A: [], B: [] };
  // Warm-up.
  run(mods.A, sc);
  run(mods.B, sc);
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? ["B", "A"] : ["A", "B"];
    const res = {};
    for (const k of order) {
      res[k] = run(mods[k], sc);
      t[k].push(res[k].ms);
    }
    if (res.A.hash !== res.B.hash || res.A.events !== res.B.events) throw new Error("runs differ");
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ratios = t.A.map((a, i) => t.B[i] / a).sort((a, b) => a - b);
  console.log(`${sc.algorithm}: A median ${med(t.A).toFixed(1)} ms CPU, B median ${med(t.B).toFixed(1)} ms; B/A per pair median ${med(ratios).toFixed(3)} (min ${ratios[0].toFixed(3)}, max ${ratios.at(-1).toFixed(3)}), ${rounds} pairs`);
}
