// Browser test: the playground seed, served by the same Vite server `npm start` uses, shows a
// stale write as rejected (issue 2, "Done when"; DESIGN.md rule 1; scenario S01).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
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

let server;
let context;
let profile;
const pageErrors = [];

before(async () => {
  server = await startServer({ port: 0 });
  profile = mkdtempSync(join(tmpdir(), "tenure-chromium-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
  });
});

after(async () => {
  await context?.close();
  await server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

async function openPage() {
  const page = await context.newPage();
  page.on("pageerror", (err) => pageErrors.push(err));
  await page.goto(server.url);
  await page.locator("body[data-ready=true]").waitFor({ timeout: 20_000 });
  return page;
}

test("s01_stale_write_is_shown_rejected_with_presented_and_required", async () => {
  const page = await openPage();
  const log = page.getByTestId("log");

  await page.getByTestId("write-token").fill("5");
  await page.getByTestId("write-value").fill("from leader A");
  await page.getByTestId("write").click();
  await assert.doesNotReject(log.locator("li.accepted").first().waitFor());

  await page.getByTestId("establish-token").fill("6");
  await page.getByTestId("establish").click();

  await page.getByTestId("write-token").fill("5");
  await page.getByTestId("write-value").fill("late write from leader A");
  await page.getByTestId("write").click();

  const newest = log.locator("li").first();
  assert.equal(await newest.getAttribute("data-kind"), "rejected");
  const text = await newest.textContent();
  assert.match(text, /stale fencing token/);
  assert.match(text, /presented 5, required 6/);
  assert.equal(await page.getByTestId("highest-token").textContent(), "6");
  assert.equal(await page.getByTestId("value").textContent(), JSON.stringify("from leader A"));

  mkdirSync(join(root, "tests", "artifacts"), { recursive: true });
  await page.screenshot({ path: join(root, "tests", "artifacts", "web-stale-write.png"), fullPage: true });
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test("negative_token_shows_the_range_error_code_and_the_page_stays_usable", async () => {
  // DESIGN.md "Time and numbers": out-of-range tokens throw RangeError with a code.
  const page = await openPage();
  await page.getByTestId("write-token").fill("-1");
  await page.getByTestId("write").click();
  const newest = page.getByTestId("log").locator("li").first();
  assert.equal(await newest.getAttribute("data-kind"), "error");
  assert.match(await newest.textContent(), /RangeError ERR_TOKEN_RANGE/);

  await page.getByTestId("write-token").fill("1");
  await page.getByTestId("write").click();
  assert.equal(await page.getByTestId("log").locator("li").first().getAttribute("data-kind"), "accepted");
  assert.deepEqual(pageErrors, []);
  await page.close();
});
