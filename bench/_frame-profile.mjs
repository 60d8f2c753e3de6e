// Where the playground's slow frames go: a diagnostic, not a bench (the bench runner skips
// files whose name starts with "_"). Plays the frame goals' cases (Raft under chaos at 50x, 9
// and 25 nodes, the one-hour scenario from 3,000 s) while Chromium records a trace, and prints
// per frame, at p50/p95/p99:
//   - the element's own figure (script ms inside its frame callback, as the bench prints it);
//   - the trace's wall and thread (CPU) time of each FireAnimationFrame: a frame whose wall time
//     is far above its thread time waited for a core (the machine is shared), it did not work;
//   - V8's garbage collection inside frames (scavenges and mark-compact steps);
//   - each view's ms (the element's `viewTimes` debug record, web/playground/element.js).
// `node bench/_frame-profile.mjs` (needs `npm run build` first; BENCH_WALL_MS, default 4000;
// FRAME_PROFILE_DIR reuses a production build of web/ instead of building one).
// FRAME_PROFILE_DOM=1 counts the DOM calls per frame instead (setAttribute, textContent,
// append, remove, createElementNS...: wrapped, so the times are not taken), by call and tag.
// FRAME_PROFILE_THREADS=1 also prints the CPU ms per frame of the browser's other busy threads
// (the renderer's raster workers and compositor, the GPU process's compositor: on two cores
// they are what a frame waits for) and each idle callback's wall and thread ms (where the
// checkpoints' clones run).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWeb } from "../scripts/build-web.mjs";
import { chaosScenario } from "./_chaos.mjs";
import { openIsolatedPlayground } from "./_isolated-page.mjs";

const WALL_MS = Number(process.env.BENCH_WALL_MS ?? 4000);
const SEEK_MS = 3_000_000;
const THREADS = Boolean(process.env.FRAME_PROFILE_THREADS);
const CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "disabled-by-default-v8.gc", "blink.user_timing", ...(THREADS ? ["toplevel"] : [])];
/** The threads FRAME_PROFILE_THREADS reports: process name / thread name. */
const BUSY = [["main", /^Renderer\/CrRendererMain$/], ["raster", /^Renderer\/ThreadPoolForegroundWorker$/], ["compositor", /^Renderer\/Compositor$/], ["GPU process compositor", /^GPU Process\/VizCompositorThread$/]];
const GC = /^(MinorGC|MajorGC|V8\.GC_SCAVENGER$|V8\.GC_MARK_COMPACTOR$|V8\.GC_MC_INCREMENTAL$|V8\.GC_MC_INCREMENTAL_FINALIZE$|V8\.GCScavenger$|V8\.GCFinalizeMC$|V8\.GCIncrementalMarking$|BlinkGC\.AtomicPhase$|V8\.GC_MINOR_MARK_SWEEPER$)/;

function q(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN;
}
const fmt = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${q(s, 0.5).toFixed(2)} / ${q(s, 0.95).toFixed(2)} / ${q(s, 0.99).toFixed(2)}`;
};

/** Plays the case with the DOM's mutating calls counted; prints them per frame, the most first. */
async function countCase(page, nodes) {
  const out = await page.evaluate(async (wallMs) => {
    const counts = {};
    const bump = (k) => (counts[k] = (counts[k] ?? 0) + 1);
    const wrap = (proto, name) => {
      const f = proto[name];
      proto[name] = function (...a) {
        bump(`${name} ${name === "createElementNS" ? a[1] : `${this.tagName}${name.endsWith("Attribute") ? `.${a[0]}` : ""}`}`);
        return f.apply(this, a);
      };
      return () => (proto[name] = f);
    };
    const undo = [
      ...["setAttribute", "removeAttribute", "toggleAttribute", "append", "remove", "replaceChildren", "replaceWith"].map((n) => wrap(Element.prototype, n)),
      wrap(Document.prototype, "createElementNS"),
    ];
    const text = Object.getOwnPropertyDescriptor(Node.prototype, "textContent");
    Object.defineProperty(Node.prototype, "textContent", { ...text, set(v) { bump(`textContent ${this.tagName}`); text.set.call(this, v); } });
    const el = document.querySelector("tenure-playground");
    el.frameTimes.length = 0;
    const from = el.now;
    el.play();
    await new Promise((r) => setTimeout(r, wallMs));
    el.pause();
    Object.defineProperty(Node.prototype, "textContent", text);
    for (const u of undo) u();
    return { frames: el.frameTimes.length, sim: el.now - from, counts };
  }, WALL_MS);
  const total = Object.values(out.counts).reduce((a, b) => a + b, 0);
  console.log(`\n${nodes} nodes, one-hour scenario from ${SEEK_MS / 1000} s, 50x, ${WALL_MS} ms wall: ${out.frames} frames, ${(out.sim / 1000).toFixed(1)} s simulated, ${(total / out.frames).toFixed(1)} DOM calls a frame`);
  for (const [k, c] of Object.entries(out.counts).sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${(c / out.frames).toFixed(1).padStart(6)}  ${k}`);
}

async function profileCase(browser, page, nodes) {
  await page.evaluate(async ([s, from]) => {
    const el = document.querySelector("tenure-playground");
    el.load(s);
    await el.seekGradually(from);
    el.setSpeed(50);
  }, [chaosScenario("raft", nodes, { durationMs: 3_600_000 }), SEEK_MS]);
  if (process.env.FRAME_PROFILE_DOM) return countCase(page, nodes);
  await browser.startTracing(page, { categories: CATEGORIES });
  await page.evaluate(() => {
    const el = document.querySelector("tenure-playground");
    el.frameTimes.length = 0;
    el.viewTimes = {};
    el.play();
  });
  await page.waitForTimeout(WALL_MS);
  const views = await page.evaluate(() => {
    const el = document.querySelector("tenure-playground");
    el.pause();
    const v = el.viewTimes;
    el.viewTimes = null;
    return { frames: [...el.frameTimes], views: v };
  });
  const trace = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  const main = trace.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain" && trace.some((f) => f.pid === e.pid && f.name === "FireAnimationFrame"));
  const onMain = trace.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === "X");
  const frames = onMain.filter((e) => e.name === "FireAnimationFrame");
  const gcs = onMain.filter((e) => GC.test(e.name));
  const rows = frames.map((f) => {
    const end = f.ts + f.dur;
    // Outermost GC events inside the frame (nested ones would count twice).
    const inside = gcs.filter((g) => g.ts >= f.ts && g.ts + g.dur <= end);
    const outer = inside.filter((g) => !inside.some((h) => h !== g && h.ts <= g.ts && h.ts + h.dur >= g.ts + g.dur && h.dur > g.dur));
    return { wall: f.dur / 1000, thread: (f.tdur ?? NaN) / 1000, gc: outer.reduce((a, g) => a + g.dur, 0) / 1000 };
  });
  const slow = [...rows].sort((a, b) => b.wall - a.wall).slice(0, Math.max(1, Math.floor(rows.length / 20)));
  console.log(`\n${nodes} nodes, one-hour scenario from ${SEEK_MS / 1000} s, 50x, ${WALL_MS} ms wall (p50 / p95 / p99, ms):`);
  console.log(`  element frame script   ${fmt(views.frames)}   (${views.frames.length} frames)`);
  console.log(`  trace frame wall       ${fmt(rows.map((r) => r.wall))}`);
  console.log(`  trace frame thread     ${fmt(rows.map((r) => r.thread))}`);
  console.log(`  GC inside a frame      ${fmt(rows.map((r) => r.gc))}   (frames with any: ${rows.filter((r) => r.gc > 0).length})`);
  const avg = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  console.log(`  slowest 5% of frames: wall ${avg(slow.map((r) => r.wall)).toFixed(2)}, thread ${avg(slow.map((r) => r.thread)).toFixed(2)}, GC ${avg(slow.map((r) => r.gc)).toFixed(2)} ms on average`);
  if (THREADS) threadsReport(trace, frames);
  for (const [name, xs] of Object.entries(views.views ?? {})) console.log(`  view ${name.padEnd(16)} ${fmt(xs)}   (${xs.length} draws)`);
}

/** CPU ms per animation frame of the busy threads (their top-level tasks), and the idle callbacks. */
function threadsReport(trace, frames) {
  const names = new Map(trace.filter((e) => e.name === "thread_name").map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
  const procs = new Map(trace.filter((e) => e.name === "process_name").map((e) => [e.pid, e.args.name]));
  const from = Math.min(...frames.map((f) => f.ts));
  const to = Math.max(...frames.map((f) => f.ts + f.dur));
  const cpu = new Map(BUSY.map(([label]) => [label, 0]));
  for (const e of trace) {
    if (e.ph !== "X" || e.ts < from || e.ts > to || !/^(ThreadControllerImpl::RunTask|ThreadPool_RunTask)$/.test(e.name)) continue;
    const thread = `${procs.get(e.pid)}/${names.get(`${e.pid}:${e.tid}`)}`;
    const busy = BUSY.find(([, re]) => re.test(thread));
    if (busy) cpu.set(busy[0], cpu.get(busy[0]) + (e.tdur ?? 0) / 1000);
  }
  const fps = frames.length / ((to - from) / 1e6);
  console.log(`  CPU per frame, ms: ${[...cpu].map(([k, v]) => `${k} ${(v / frames.length).toFixed(1)}`).join(", ")} (${fps.toFixed(0)} frames a second)`);
  const idle = trace.filter((e) => e.name === "FireIdleCallback" && e.ph === "X" && e.ts >= from && e.ts <= to);
  if (idle.length) console.log(`  idle callbacks, wall / thread ms: ${idle.map((e) => `${(e.dur / 1000).toFixed(2)} / ${((e.tdur ?? 0) / 1000).toFixed(2)}`).join(", ")}`);
}

const outDir = process.env.FRAME_PROFILE_DIR ?? mkdtempSync(join(tmpdir(), "tenure-web-"));
let served;
try {
  if (!process.env.FRAME_PROFILE_DIR) await buildWeb(outDir);
  served = await openIsolatedPlayground(outDir);
  const { browser } = served;
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(served.url);
  await page.locator("body[data-ready=true]").waitFor({ timeout: 30_000 });
  for (const nodes of (process.env.FRAME_PROFILE_NODES ?? "9,25").split(",").map(Number)) await profileCase(browser, page, nodes);
} finally {
  await served?.close();
  if (!process.env.FRAME_PROFILE_DIR) rmSync(outDir, { recursive: true, force: true });
}
