// Find, shrink, replay (docs/search.md): native search throughput (runs/s), shrink time and
// steps, and exhaustive-check states/s, each next to its anchor. Figures only.
//
// Anchor: Stateright's README ("Model Checking Performance",
// https://github.com/stateright/stateright#model-checking-performance) publishes no Raft
// figure; it points to its ./bench.sh. So the anchor printed is that there is none, not a
// number made up for it.
//
// In a worker: the playground's "Can this break?" worker (web/playground/search-worker.js)
// in headless Chromium, served by the same Vite server the browser tests use, running the
// same searches as the native lines (3 nodes, 20 s of faults + 5 s heal, seed 0, 200 runs).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "../scripts/lib/run.mjs";
import { launch } from "../tests/web/browser.mjs";

/** The same searches in the playground's worker: runs/s as the worker reports them. */
async function inWorker(searches) {
  const browser = await launch();
  try {
    const page = await browser.open();
    return await page.evaluate(async (searches) => {
      const out = [];
      for (const options of searches) {
        const worker = new Worker(new URL("./playground/search-worker.js", location.href), { type: "module" });
        const last = await new Promise((resolve) => {
          worker.onmessage = (e) => ["none", "done", "error"].includes(e.data.type) && resolve(e.data);
          worker.postMessage({ type: "search", job: 1, options, budget: 200, shrinkSteps: 400 });
        });
        worker.terminate();
        out.push({ algorithm: options.algorithm, ...last });
      }
      return out;
    }, searches);
  } finally {
    await browser.close();
  }
}

function tenure(cli, args) {
  try {
    return execFileSync(cli, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch (err) {
    if (err.status === 1) return err.stdout; // a violation found: the figures are still printed
    throw err;
  }
}

export default async function search() {
  execFileSync("cargo", ["build", "--release", "-q", "-p", "tenure-sim", "--bin", "tenure"], { cwd: root, stdio: "inherit" });
  const cli = join(process.env.CARGO_TARGET_DIR ?? join(root, "target"), "release", "tenure");
  const work = mkdtempSync(join(tmpdir(), "tenure-bench-search-"));
  try {
    for (const algorithm of ["raft", "lease-fencing", "bully"]) {
      const property = algorithm === "bully" ? "no-leader-for=60s" : "any-promised";
      const t0 = performance.now();
      const out = tenure(cli, ["search", "--algorithm", algorithm, "--property", property, "--budget", "200", "--out", join(work, "x.json")]);
      const s = (performance.now() - t0) / 1000;
      const runs = Number(/in (\d+) runs/.exec(out)?.[1] ?? 0);
      console.log(`search ${algorithm} (3 nodes, 25 s simulated per run): ${(runs / s).toFixed(0)} runs/s native (goal: >= 100 runs/s, so 10,000 runs take under 2 minutes)`);
    }
    const searches = ["raft", "lease-fencing", "bully"].map((algorithm) => ({
      algorithm, property: algorithm === "bully" ? "no-leader-for=60s" : "any-promised", nodes: 3, duration_ms: 20_000, heal_ms: 5_000, seed: 0,
    }));
    for (const r of await inWorker(searches)) {
      const rate = r.runs_per_s ?? (r.runs / (r.elapsed_ms / 1000));
      console.log(`search ${r.algorithm} in a Web Worker (Chromium, same runs): ${r.type === "error" ? `failed: ${r.message}` : `${rate.toFixed(0)} runs/s`} (goal: >= 30 runs/s, so the panel's 300-run budgets take seconds)`);
    }
    const hit = tenure(cli, ["search", "--algorithm", "lease-unfenced", "--property", "stale-write", "--budget", "2000", "--out", join(work, "y.json")]);
    const m = /shrunk: (\d+) faults.*-> (\d+) faults.*\((\d+) steps, ([\d.]+) ms\)/.exec(hit);
    if (m) console.log(`shrink lease-unfenced stale write: ${m[1]} -> ${m[2]} faults in ${m[3]} steps, ${m[4]} ms (goal: under 5 s)`);
    for (const [algorithm, property] of [["raft", "any-promised"], ["lease-fencing", "any-promised"]]) {
      const report = JSON.parse(tenure(cli, ["check", "--algorithm", algorithm, "--property", property, "--json"]));
      console.log(`check ${algorithm} ${property} (3 nodes, 8 x 500 ms, 2 faults): ${report.states_explored} states, ${report.unique_states} unique, ${report.states_per_second} states/s (each state is 500 ms of simulation)${report.counterexample ? `; counterexample at depth ${report.counterexample.depth}: ${report.counterexample.witness.kind}` : "; none"}`);
    }
    console.log("anchor: Stateright publishes no Raft-lite states/s figure in its README (it points to ./bench.sh); none to compare against");
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
