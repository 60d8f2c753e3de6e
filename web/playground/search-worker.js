// The "Can this break?" search, in a Web Worker so the page stays responsive. It drives the
// package's `Search` (the simulator's own search and shrinker, the code `tenure search`
// runs) in slices of about SLICE_MS, posting progress after each and reading its message
// queue in between, so a cancel stops it within a slice.
//
// In:  { type: "search", job, options, budget, shrinkSteps, wasm? } | { type: "cancel", job }
// Out: { job, type: "progress", runs, runs_per_s, best_score, best_seed, elapsed_ms }
//      { job, type: "shrinking", found }            the first violating run, before shrinking
//      { job, type: "done", found, shrunk, trace_hash, runs, elapsed_ms }
//      { job, type: "none", runs, runs_per_s, elapsed_ms }
//      { job, type: "cancelled", runs }
//      { job, type: "error", message, code }
import init, { Search } from "tenure/search";

/** Target length of one slice of runs, ms of wall time. */
const SLICE_MS = 50;
const MAX_BATCH = 10_000;

let ready;
const cancelled = new Set();

self.onmessage = (e) => {
  const m = e.data ?? {};
  if (m.type === "cancel") cancelled.add(m.job);
  else if (m.type === "search") void run(m);
};

/** Lets the worker's queued messages (a cancel) be handled. */
const yieldToQueue = () => new Promise((resolve) => setTimeout(resolve, 0));

async function run({ job, options, budget, shrinkSteps, wasm }) {
  const post = (msg) => self.postMessage({ job, ...msg });
  let search;
  try {
    ready ??= init(wasm);
    await ready;
    search = new Search(options);
    const t0 = performance.now();
    let batch = 1;
    let found = false;
    for (;;) {
      const left = budget - search.progress().runs;
      if (left <= 0) break;
      const s0 = performance.now();
      found = search.runBatch(Math.min(batch, left));
      const took = performance.now() - s0;
      // Aim each slice at SLICE_MS: runs differ in length, so the batch follows the last one.
      batch = Math.max(1, Math.min(MAX_BATCH, took < 1 ? batch * 4 : Math.round((batch * SLICE_MS) / took)));
      const p = search.progress();
      const elapsed = performance.now() - t0;
      post({ type: "progress", runs: p.runs, runs_per_s: p.runs / Math.max(elapsed / 1000, 1e-6), best_score: p.best_score, best_seed: p.best_seed, elapsed_ms: elapsed });
      if (found) break;
      await yieldToQueue();
      if (cancelled.has(job)) return post({ type: "cancelled", runs: p.runs });
    }
    const p = search.progress();
    const elapsed = performance.now() - t0;
    if (!found) return post({ type: "none", runs: p.runs, runs_per_s: p.runs / Math.max(elapsed / 1000, 1e-6), elapsed_ms: elapsed });
    const hit = search.found();
    post({ type: "shrinking", found: hit });
    await yieldToQueue();
    if (cancelled.has(job)) return post({ type: "cancelled", runs: p.runs });
    const s0 = performance.now();
    const shrunk = Search.shrink(hit.scenario, search.property, shrinkSteps);
    const shrinkMs = performance.now() - s0;
    // The hash `tenure run` prints for the shrunk file, so the page can show it matches.
    const { trace_hash } = Search.evaluate(shrunk.scenario, search.property);
    post({ type: "done", found: hit, shrunk, shrink_ms: shrinkMs, trace_hash, runs: p.runs, elapsed_ms: performance.now() - t0, property: search.property });
  } catch (err) {
    post({ type: "error", message: String(err?.message ?? err), code: err?.code });
  } finally {
    search?.free();
    cancelled.delete(job);
  }
}
