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
