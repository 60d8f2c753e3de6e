// The failover lab: several settings run in a worker and overlaid on one CDF plot, and its
// numbers equal the native CLI's (`tenure failover --json`) for the same settings and seeds.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { root } from "../../scripts/lib/run.mjs";
import { axeViolations, launch, screenshot } from "./browser.mjs";

let browser;
let cli;
before(async () => {
  execFileSync("cargo", ["build", "--release", "-q", "-p", "tenure-sim", "--bin", "tenure"], { cwd: root, stdio: "inherit" });
  cli = join(process.env.CARGO_TARGET_DIR ?? join(root, "target"), "release", "tenure");
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const fill = async (page, testid, value) => page.getByTestId(testid).fill(String(value));

test("two raft ranges and a lease: one plot, three lines, the CLI's numbers", async () => {
  const page = await browser.open("failover.html");
  await page.getByTestId("lab-preset-raft-scale").click();
  // Drop the 600 ms range, then add a lease setting through the knobs.
  await page.getByTestId("lab-remove-2").click();
  await page.getByTestId("lab-algorithm").selectOption("lease-fencing");
  await fill(page, "lab-knob-ttl_ms", 3000);
  await page.getByTestId("lab-add").click();
  await fill(page, "lab-runs", 15);
  await fill(page, "lab-seed", 40);
  await fill(page, "lab-cost-min", 5);
  await fill(page, "lab-pause-rate", 60);
  await page.getByTestId("lab-run").click();
  await page.waitForFunction(() => document.getElementById("lab").dataset.done === "1", null, { timeout: 120_000 });
  assert.match(await page.getByTestId("lab-status").textContent(), /^Done: 3 settings × 15 failovers/);
  const results = await page.evaluate(() => window.lab.results);
  assert.equal(results.length, 3);
  assert.equal(await page.locator("[data-testid=lab-plot-svg] path.series").count(), 3);
  for (const r of results) {
    const args = r.command.replace(/^tenure failover /, "").split(" ");
    const native = JSON.parse(execFileSync(cli, ["failover", ...args, "--json"], { encoding: "utf8" })).settings[0];
    assert.equal(native.label, r.report.label);
    for (const k of ["runs", "failures", "min_ms", "median_ms", "p99_ms", "max_ms", "samples_ms"]) assert.deepEqual(r.report[k], native[k], `${r.label}: ${k}`);
    assert.deepEqual(r.cost, native.cost, `${r.label}: cost`);
  }
  // The trade-off: the shorter Raft timeout fails over faster and costs more false elections.
  const [fast, slow] = results;
  assert.ok(fast.report.median_ms < slow.report.median_ms);
  assert.ok(fast.cost.false_elections_per_hour >= slow.cost.false_elections_per_hour);
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(page.errors, []);
  // The cost checkbox sits beside its words (the page-wide input width once left a wide gap).
  const offset = await page.getByTestId("lab-cost").evaluate((box) => {
    const words = document.createRange();
    words.selectNodeContents(box.parentElement);
    words.setStartAfter(box);
    return words.getBoundingClientRect().left - box.getBoundingClientRect().left;
  });
  assert.ok(offset > 0 && offset <= 32, `the words start ${offset} px after the checkbox's left edge`);
  await screenshot(page, "failover-lab", { fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "failover-lab-phone", { fullPage: true });
  await page.close();
});

test("a bad knob says what is wrong at the field and runs nothing", async () => {
  const page = await browser.open("failover.html");
  await fill(page, "lab-knob-timeout_max", 100);
  await page.getByTestId("lab-add").click();
  assert.match(await page.locator("#err-lab-knob-timeout_max").textContent(), /maximum must exceed the minimum/);
  await fill(page, "lab-runs", 0);
  await page.getByTestId("lab-run").click();
  assert.match(await page.locator("#err-lab-runs").textContent(), /from 1 to 5000/);
  assert.equal(await page.evaluate(() => window.lab.results.length), 0);
  await page.close();
});

test("the lab is keyboard operable", async () => {
  const page = await browser.open("failover.html");
  await fill(page, "lab-runs", 3);
  await page.getByTestId("lab-cost").focus();
  await page.keyboard.press("Space");
  assert.equal(await page.getByTestId("lab-cost").isChecked(), false);
  await page.getByTestId("lab-run").focus();
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.getElementById("lab").dataset.done === "1", null, { timeout: 120_000 });
  assert.equal(await page.locator("[data-testid=lab-plot-svg] path.series").count(), 5);
  await page.close();
});
