// Browser test: the fenced resource by hand, on the playground page, shows a stale write as
// rejected (design rule 1; scenario S01).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launch, screenshot } from "./browser.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test("s01_stale_write_is_shown_rejected_with_presented_and_required", async () => {
  const page = await browser.open();
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

  await screenshot(page, "web-stale-write", { fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("negative_token_shows_the_range_error_code_and_the_page_stays_usable", async () => {
  // docs/design.md "Time and numbers": out-of-range tokens throw RangeError with a code.
  const page = await browser.open();
  await page.getByTestId("write-token").fill("-1");
  await page.getByTestId("write").click();
  const newest = page.getByTestId("log").locator("li").first();
  assert.equal(await newest.getAttribute("data-kind"), "error");
  assert.match(await newest.textContent(), /RangeError ERR_TOKEN_RANGE/);

  await page.getByTestId("write-token").fill("1");
  await page.getByTestId("write").click();
  assert.equal(await page.getByTestId("log").locator("li").first().getAttribute("data-kind"), "accepted");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the_page_fetches_the_machines_wasm_only_when_the_fenced_demo_is_reached", async () => {
  // The page's size budget counts its first load (scripts/budgets.json): the playground and
  // the simulator's wasm. The fenced resource's module comes when its section is reached.
  const page = await browser.open();
  const wasm = () => page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name).filter((n) => /\.wasm(\?|$)/.test(n)));
  // Ready: the playground runs ("Can this break?" mounts when reached, and the search module
  // loads only when a search starts: tests/web/first-load.test.mjs).
  await page.locator("body[data-ready=true]").waitFor({ timeout: 30_000 });
  await page.waitForTimeout(300);
  const first = await wasm();
  const names = first.map((n) => n.slice(n.lastIndexOf("/") + 1).replace(/-[\w-]+(?=\.wasm)/, ""));
  assert.deepEqual(names, ["tenure_sim_bg.wasm"], `the first load fetches the simulator's wasm only: ${first}`);
  await page.locator("#fenced").scrollIntoViewIfNeeded();
  await page.locator("body[data-fenced-ready=true]").waitFor({ timeout: 30_000 });
  assert.ok((await wasm()).some((n) => /tenure_bg/.test(n)), "the machines' wasm loads once the demo is in view");
  assert.equal(await page.getByTestId("highest-token").textContent(), "0");
  assert.deepEqual(page.errors, []);
  await page.close();
});
