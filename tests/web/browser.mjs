// Shared setup for the browser tests: the same Vite server `npm start` uses, and Debian's
// Chromium driven by playwright-core with a throwaway profile.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";
import { root } from "../../scripts/lib/run.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** Where screenshots go (git-ignored). */
export const ARTIFACTS = join(root, "tests", "artifacts");

/**
 * Starts the server and a browser. Returns `{ url, open(path, options), close() }`; `open`
 * resolves to a page whose body has data-ready=true, with `page.errors` (uncaught errors and
 * console errors), `page.warnings` (console warnings), `page.missing` (responses >= 400) and
 * `page.foreign` (requests to any other origin).
 */
export async function launch() {
  const server = await startServer({ port: 0 });
  const profile = mkdtempSync(join(tmpdir(), "tenure-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 720 },
  });
  const origin = new URL(server.url).origin;
  async function open(path = "", { viewport, ready = "body[data-ready=true]", reducedMotion } = {}) {
    const page = await context.newPage();
    page.errors = [];
    page.foreign = [];
    page.missing = [];
    page.warnings = [];
    page.on("pageerror", (err) => page.errors.push(err));
    page.on("console", (msg) => {
      if (msg.type() === "error") page.errors.push(new Error(`console: ${msg.text()}`));
      if (msg.type() === "warning") page.warnings.push(msg.text());
    });
    page.on("response", (res) => {
      if (res.status() >= 400) page.missing.push(`${res.status()} ${res.url()}`);
    });
    if (reducedMotion) await page.emulateMedia({ reducedMotion });
    page.on("request", (req) => {
      const u = req.url();
      if (!u.startsWith(origin) && !u.startsWith("data:") && !u.startsWith("blob:")) page.foreign.push(u);
    });
    if (viewport) await page.setViewportSize(viewport);
    await page.goto(new URL(path, server.url).href);
    await page.locator(ready).waitFor({ timeout: 30_000 });
    return page;
  }
  async function close() {
    await context?.close();
    await server?.close();
    rmSync(profile, { recursive: true, force: true });
  }
  return { url: server.url, open, close };
}

/** Saves a screenshot of `page` as tests/artifacts/`name`.png; returns its path. */
export async function screenshot(page, name, options = {}) {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, ...options });
  return path;
}

/**
 * Runs axe-core on `page` (through shadow roots) and returns the serious and critical
 * violations as short strings: `rule: target (summary)`. `label-content-name-mismatch`, off
 * by default in axe, is on: speech users name controls by what they see.
 */
export async function axeViolations(page) {
  const { source } = (await import("axe-core")).default;
  if (!(await page.evaluate(() => typeof window.axe === "object"))) await page.addScriptTag({ content: source });
  const result = await page.evaluate(async () =>
    window.axe.run(document, { resultTypes: ["violations"], rules: { "label-content-name-mismatch": { enabled: true } } }));
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${JSON.stringify(n.target)} (${(n.failureSummary ?? "").split("\n").slice(1, 2).join("").trim()})`));
}

/** Saves a screenshot of one element (a Playwright locator) as tests/artifacts/`name`.png. */
export async function elementShot(locator, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await locator.screenshot({ path });
  return path;
}
