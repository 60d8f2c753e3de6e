// The playground page's first load (scripts/budgets.json counts it): without scrolling or
// clicking, the page fetches neither "Can this break?", nor compare mode, nor the permalink
// codec (fflate); each comes when its part is reached or used, and then works.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launch } from "./browser.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** What the page loads on demand (web/main.js, web/playground/element.js), by module. */
const DEFERRED = {
  "break-panel": /\/playground\/break-panel\.js(\?|$)/,
  "counterexample search worker": /search-worker\.js/,
  "compare mode": /\/playground\/element-compare\.js(\?|$)/,
  "compare.js": /\/playground\/compare\.js(\?|$)/,
  "permalink codec": /\/playground\/permalink\.js(\?|$)/,
  fflate: /fflate/,
};

/** Every URL the page has requested so far (scripts, styles, wasm). */
const fetched = (page) => page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name));
const has = (urls, re) => urls.some((u) => re.test(u));

test("the_first_load_fetches_no_deferred_part_and_each_loads_when_reached_or_used", async () => {
  const page = await browser.open();
  // Settled: the playground is drawn and has played nothing yet.
  await page.waitForTimeout(500);
  const first = await fetched(page);
  assert.ok(has(first, /\/playground\/element\.js(\?|$)/), "the playground itself is loaded");
  for (const [what, re] of Object.entries(DEFERRED)) assert.ok(!has(first, re), `the first load fetched ${what}: ${first.filter((u) => re.test(u))}`);
  assert.equal(await page.locator("[data-testid=break-search]").count(), 0, "the panel is not mounted before it is reached");

  // "Can this break?": mounted as its section comes near the viewport, and usable.
  await page.locator("#break").scrollIntoViewIfNeeded();
  await page.locator("body[data-break-ready=true]").waitFor({ timeout: 30_000 });
  assert.ok(has(await fetched(page), DEFERRED["break-panel"]));
  const labels = await page.evaluate(() => [...document.querySelectorAll("[data-testid=break-property] option")].map((o) => o.textContent));
  assert.ok(labels.some((l) => /\(not promised\)$/.test(l)), `the panel lists the properties: ${labels.join(" | ")}`);
  assert.ok(!has(await fetched(page), DEFERRED["permalink codec"]), "reaching the panel does not fetch the codec");

  // The permalink codec: fetched when a link is asked for; the link opens the same run.
  await page.evaluate(() => window.scrollTo(0, 0));
  const pg = page.locator("tenure-playground");
  await pg.evaluate((el) => (el.loadPreset("gc-pause-fenced"), el.seek(2500)));
  await page.locator("tenure-playground [data-testid=copy-link]").click();
  const out = page.locator("tenure-playground [data-testid=permalink-url]");
  await out.waitFor({ state: "visible" });
  const link = await out.inputValue();
  assert.match(link, /#s=[\w-]+&t=2500&p=gc-pause-fenced$/);
  const urls = await fetched(page);
  assert.ok(has(urls, DEFERRED["permalink codec"]) && has(urls, DEFERRED.fflate), "the codec and fflate load with the first link");
  assert.equal(await pg.evaluate((el) => el.permalink().then((l) => l.slice(l.indexOf("#")))), link.slice(link.indexOf("#")), "permalink() resolves to the link the button shows");
  for (const re of [DEFERRED["compare mode"], DEFERRED["compare.js"]]) assert.ok(!has(urls, re), "compare mode is not loaded by a single playground");
  assert.deepEqual(page.errors, []);
  await page.close();

  // Opened, the link fetches the codec at once and shows the same run at the same moment.
  const opened = await browser.open(link.slice(link.indexOf("#")));
  const state = await opened.locator("tenure-playground").evaluate((el) => ({ preset: el.preset?.id, now: el.now }));
  assert.deepEqual(state, { preset: "gc-pause-fenced", now: 2500 });
  assert.ok(has(await fetched(opened), DEFERRED["permalink codec"]));
  assert.deepEqual(opened.errors, []);
  await opened.close();
});

test("compare_mode_loads_its_code_when_an_element_asks_for_it", async () => {
  const page = await browser.open("compare.html");
  const urls = await fetched(page);
  assert.ok(has(urls, DEFERRED["compare mode"]), "compare.html fetches compare mode");
  const panes = await page.evaluate(() => document.querySelector("tenure-playground").compare.outcomes()["split-brain"].length);
  assert.equal(panes, 3, "the default comparison has three panes");
  assert.deepEqual(page.errors, []);
  await page.close();
});
