// Playground bench: figures only, no pass/fail.
//
// 1. Builds web/ for production with Vite into a temporary folder and serves it.
// 2. Transfer size: loads index.html in headless Chromium and sums every response the page
//    fetched, raw and gzipped (level 9), so the figure is what a visitor downloads.
// 3. Frame cost under chaos: plays a chaos scenario (crashes, pauses, partitions, clock drift,
//    store outages) at 5 and 9 nodes for each algorithm family, at 1x and 10x (BENCH_SPEEDS),
//    and reports the median and p95 of the script time per animation frame, measured inside
//    the element's frame callback (advance the simulation + draw the snapshot), plus
//    Chromium's own ScriptDuration per frame (includes everything else on the page).
// 4. The frame goals: Raft under chaos at 9 and 25 nodes at the slider's maximum speed, on a
//    120 s scenario from its start and on a one-hour scenario seeked to 600 s first (a long
//    history), p50/p95/p99 next to the goal. The page is served cross-origin isolated
//    (COOP + COEP), so performance.now() has microsecond resolution instead of 0.1 ms.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { preview } from "vite";
import { buildWeb } from "../scripts/build-web.mjs";
import { root } from "../scripts/lib/run.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const WALL_MS = Number(process.env.BENCH_WALL_MS ?? 4000);
const SPEEDS = (process.env.BENCH_SPEEDS ?? "1,10").split(",").filter(Boolean).map(Number);
/** The speed slider's maximum (web/playground/element.js, SPEED_MAX = 10^1.7). */
const MAX_SPEED = 50;
/**
 * Where the one-hour case starts playing, ms (BENCH_SEEK_MS). Seeking there replays the run
 * with the page's history and checkpoints; on a shared 2-core machine 3,000 s took over five
 * minutes, so the default is 600 s of history.
 */
const SEEK_MS = Number(process.env.BENCH_SEEK_MS ?? 600_000);

/** A chaos scenario: a fault every 700 ms drawn by a seeded LCG from Jepsen-style families. */
export function chaosScenario(algorithm, nodes, { seed = 42, durationMs = 120_000 } = {}) {
  let x = BigInt(seed);
  const rand = (n) => {
    x = (x * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    return Number((x >> 33n) % BigInt(n));
  };
  const lease = algorithm.startsWith("lease");
  const faults = [];
  for (let t = 1000; t < durationMs; t += 700) {
    const node = 1 + rand(nodes);
    const kinds = ["crash", "pause", "partition", "drift", "heal", ...(lease ? ["outage", "pause-after-check"] : [])];
    const kind = kinds[rand(kinds.length)];
    const at = (ms, fault) => faults.push({ at_ms: ms, fault });
    if (kind === "crash") {
      at(t, { type: "crash", node });
      at(t + 500, { type: "restart", node });
    } else if (kind === "pause") at(t, { type: "pause", target: node, duration_ms: 300 + rand(2000) });
    else if (kind === "pause-after-check") at(t, { type: "pause-after-check", node, duration_ms: 300 + rand(3000) });
    else if (kind === "partition") {
      const cut = 1 + rand(nodes - 1);
      const ids = Array.from({ length: nodes }, (_, i) => i + 1);
      at(t, { type: "partition", groups: [ids.slice(0, cut), ids.slice(cut)] });
    } else if (kind === "drift") at(t, { type: "clock-drift", target: node, ppm: rand(400_000) - 200_000 });
    else if (kind === "outage") at(t, { type: "store-outage", duration_ms: 200 + rand(1500) });
    else at(t, { type: "heal" });
  }
  const config = algorithm === "raft" ? { election_timeout_ms: 300, heartbeat_interval_ms: 100 } : {};
  return { version: 1, algorithm, nodes, config, network: { latency_ms: [5, 30], loss: 0.02 }, seed, duration_ms: durationMs, faults };
}

function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function transferSize(page, url) {
  const sizes = [];
  page.on("response", async (res) => {
    try {
      const body = await res.body();
      sizes.push({ url: res.url().replace(url, ""), raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
    } catch {
      // redirects and aborted requests have no body
    }
  });
  await page.goto(url);
  await page.locator("body[data-ready=true]").waitFor({ timeout: 30_000 });
  await page.waitForLoadState("networkidle");
  return sizes;
}

async function frameCost(page, scenario, speed, fromMs = 0) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  await page.evaluate(
    ([s, speed, fromMs]) => {
      const el = document.querySelector("tenure-playground");
      el.load(s);
      if (fromMs > 0) el.seek(fromMs);
      el.setSpeed(speed);
      el.frameTimes.length = 0;
      el.play();
    },
    [scenario, speed, fromMs],
  );
  const m0 = await cdp.send("Performance.getMetrics");
  await page.waitForTimeout(WALL_MS);
  const m1 = await cdp.send("Performance.getMetrics");
  const stats = await page.evaluate(() => {
    const el = document.querySelector("tenure-playground");
    el.pause();
    return { frames: el.frameStats(), now: el.now, nodes: el.snapshot().nodes.length };
  });
  const metric = (m, name) => m.metrics.find((x) => x.name === name)?.value ?? 0;
  const scriptS = metric(m1, "ScriptDuration") - metric(m0, "ScriptDuration");
  const sorted = [...stats.frames].sort((a, b) => a - b);
  await cdp.detach();
  return {
    frames: sorted.length,
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    p99: quantile(sorted, 0.99),
    chromeScriptPerFrame: (scriptS * 1000) / Math.max(1, sorted.length),
    simMs: stats.now,
  };
}

export default async function bench() {
  const outDir = mkdtempSync(join(tmpdir(), "tenure-web-"));
  let server;
  let browser;
  try {
    await buildWeb(outDir);
    server = await preview({
      configFile: false,
      root: join(root, "web"),
      logLevel: "warn",
      build: { outDir },
      // Cross-origin isolated: precise performance.now() for the frame figures.
      preview: { host: "127.0.0.1", port: 0, headers: { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" } },
    });
    const url = server.resolvedUrls.local[0];
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--headless", "--disable-gpu"] });
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const sizes = await transferSize(page, url);
    const raw = sizes.reduce((a, s) => a + s.raw, 0);
    const gz = sizes.reduce((a, s) => a + s.gzip, 0);
    console.log(`page transfer (production build, index.html and everything it loads): ${(gz / 1024).toFixed(1)} KiB gzipped, ${(raw / 1024).toFixed(1)} KiB raw, ${sizes.length} files`);
    for (const s of sizes.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${(s.gzip / 1024).toFixed(1).padStart(6)} KiB gz  ${(s.raw / 1024).toFixed(1).padStart(6)} KiB  ${s.url || "index.html"}`);
    // tenure/playground: the one-script-tag element, everything but the wasm inlined.
    const element = readFileSync(join(outDir, "tenure-playground.js"));
    console.log(`tenure-playground.js (one-script-tag element, without the wasm): ${(gzipSync(element, { level: 9 }).length / 1024).toFixed(1)} KiB gzipped, ${(element.length / 1024).toFixed(1)} KiB raw (goal: <= 60 KiB gzipped)`);
    console.log(`\nscript time per animation frame under chaos (${WALL_MS} ms wall each, 1280x720):`);
    console.log("  algorithm        nodes  speed  frames  median    p95       chrome script/frame  simulated");
    for (const speed of SPEEDS) {
      for (const algorithm of ["lease-fencing", "raft", "bully"]) {
        for (const nodes of [5, 9]) {
          const r = await frameCost(page, chaosScenario(algorithm, nodes), speed);
          console.log(
            `  ${algorithm.padEnd(16)} ${String(nodes).padStart(5)}  ${`${speed}x`.padStart(5)}  ${String(r.frames).padStart(6)}  ${r.median.toFixed(2).padStart(5)} ms  ${r.p95.toFixed(2).padStart(5)} ms  ${r.chromeScriptPerFrame.toFixed(2).padStart(10)} ms        ${(r.simMs / 1000).toFixed(1)} s`,
          );
        }
      }
    }
    const isolated = await page.evaluate(() => globalThis.crossOriginIsolated === true);
    console.log(`\nframe goals: Raft under chaos at ${MAX_SPEED}x (the slider's maximum), ${WALL_MS} ms wall each; timers ${isolated ? "precise (cross-origin isolated)" : "coarse (0.1 ms: not isolated)"}:`);
    for (const [nodes, goal] of [[9, 2], [25, 4]]) {
      for (const [label, durationMs, fromMs] of [["120 s scenario from 0 s", 120_000, 0], [`one-hour scenario from ${SEEK_MS / 1000} s`, 3_600_000, SEEK_MS]]) {
        const r = await frameCost(page, chaosScenario("raft", nodes, { durationMs }), MAX_SPEED, fromMs);
        console.log(
          `  ${String(nodes).padStart(2)} nodes, ${label.padEnd(31)} ${String(r.frames).padStart(4)} frames  p50 ${r.median.toFixed(2)} ms  p95 ${r.p95.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  (goal: p95 <= ${goal} ms)  simulated to ${(r.simMs / 1000).toFixed(1)} s`,
        );
      }
    }
  } finally {
    await browser?.close();
    await new Promise((resolve) => (server ? server.httpServer.close(resolve) : resolve()));
    rmSync(outDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await bench();
