// Compare mode: the sources' comparison rows measured (partition, GC pause), lock-step
// clocks after play, seek and step, faults injected in every pane (or skipped), the
// permalink round trip and the embed.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { encodeCompareHash } from "../../web/playground/compare-link.js";
import { launch, screenshot } from "./browser.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const mode = (page, fn, arg) => page.evaluate(([src, a]) => new Function("m", "a", `return (${src})(m, a)`)(document.querySelector("tenure-playground").compare, a), [fn.toString(), arg]);
const seek = (page, ms) => mode(page, (m, t) => (m.seek(t), m.now), ms);
const outcomes = (page) => mode(page, (m) => m.outcomes());
const times = (page) => mode(page, (m) => m.times());

test("partition: raft, bully, lease-fencing: split brain only for Bully", async () => {
  const page = await browser.open("compare.html");
  await seek(page, 9000);
  const o = await outcomes(page);
  const heads = await page.evaluate(() => [...document.querySelector("tenure-playground").shadowRoot.querySelectorAll("thead th")].map((th) => th.textContent));
  assert.deepEqual(heads, ["Outcome", "Raft", "Bully", "Lease with fencing"]);
  const split = o["split-brain"].map((c) => c.value);
  assert.equal(split[0], 0, "raft");
  assert.ok(split[1] > 1000, `bully: ${split[1]}`);
  assert.equal(split[2], 0, "lease with fencing");
  assert.deepEqual(o["split-brain"].map((c) => c.worst), [false, true, false]);
  assert.ok(o["split-brain"][1].text.startsWith("▲"));
  // Stale writes only mean something where there is a resource.
  assert.deepEqual(o["stale-accepted"].map((c) => c.text), ["n/a", "n/a", "0"]);
  assert.deepEqual(page.errors, []);
  await screenshot(page, "compare-partition");
  await page.setViewportSize({ width: 390, height: 844 });
  await seek(page, 5000);
  await screenshot(page, "compare-partition-phone", { fullPage: true });
  await page.close();
});

test("GC pause: stale writes accepted only without fencing", async () => {
  const page = await browser.open("compare.html");
  await mode(page, (m) => m.loadPreset("gc-pause"));
  await seek(page, 7000);
  const o = await outcomes(page);
  assert.deepEqual(o["stale-accepted"].map((c) => c.value), [1, 0]);
  assert.deepEqual(o["stale-rejected"].map((c) => c.value), [0, 1]);
  assert.equal(o["stale-accepted"][0].worst, true);
  await screenshot(page, "compare-gc-pause", { fullPage: true });
  await page.close();
});

test("compare.html?compare=...&preset=...: the query picks the panes and the comparison", async () => {
  const page = await browser.open("compare.html?compare=lease-unfenced,lease-fencing&preset=gc-pause");
  const heads = await page.evaluate(() => [...document.querySelector("tenure-playground").shadowRoot.querySelectorAll("thead th")].map((th) => th.textContent));
  assert.deepEqual(heads, ["Outcome", "Lease without fencing", "Lease with fencing"]);
  await seek(page, 7000);
  const o = await outcomes(page);
  assert.deepEqual(o["stale-accepted"].map((c) => c.value), [1, 0], "the GC-pause comparison, not the default partition");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("lock-step: the panes' simulated times are equal after play, seek and step", async () => {
  const page = await browser.open("compare.html");
  await mode(page, (m) => { m.speed = 5; m.play(); });
  await page.waitForTimeout(700);
  await mode(page, (m) => m.pause());
  let t = await times(page);
  assert.ok(t[0] > 0, "played");
  assert.equal(new Set(t).size, 1, `after play: ${t}`);
  await seek(page, 4321.5);
  t = await times(page);
  assert.deepEqual(t, [4321.5, 4321.5, 4321.5]);
  await seek(page, 1200);
  t = await times(page);
  assert.deepEqual(t, [1200, 1200, 1200], "after seeking back");
  for (let i = 0; i < 5; i++) {
    const before = (await times(page))[0];
    await mode(page, (m) => m.step());
    t = await times(page);
    assert.equal(new Set(t).size, 1, `after step: ${t}`);
    assert.ok(t[0] > before, "a step moves the clock to the next event");
  }
  // The play bar is keyboard operable: space plays and pauses, "." steps.
  await page.locator("body").click({ position: { x: 3, y: 3 } });
  const a = (await times(page))[0];
  await page.keyboard.press(".");
  const b = await times(page);
  assert.ok(b[0] > a && new Set(b).size === 1);
  await page.close();
});

test("a fault injected in one pane is injected in all, and skipped where it means nothing", async () => {
  const page = await browser.open("compare.html");
  await mode(page, (m) => m.loadPreset("gc-pause", ["raft", "bully", "lease-fencing"]));
  await seek(page, 2500);
  const skipped = await page.evaluate(() => document.querySelector("tenure-playground").shadowRoot.querySelector("[data-testid=pane-skipped-0]").textContent);
  assert.match(skipped, /pause-after-check needs a lease store/);
  // Crash n2 from pane 2's node menu: every pane loses n2.
  const pg = page.locator("tenure-playground");
  await pg.getByTestId("cluster-1").getByTestId("node-n2").click();
  await pg.getByTestId("action-crash").click();
  const status = await mode(page, (m) => m.snapshots().map((s) => s.nodes.find((n) => String(n.id) === "2").status));
  assert.deepEqual(status, ["crashed", "crashed", "crashed"]);
  await page.close();
});

test("compare permalink round trip: panes, faults added and the moment", async () => {
  const page = await browser.open("compare.html");
  await mode(page, (m) => m.loadPreset("leader-crash"));
  // A pane's own config: Raft's election timeout, typed with its unit.
  const pg = page.locator("tenure-playground");
  await pg.locator("[data-testid=pane-0] summary").click();
  await pg.getByTestId("pane-knob-0-election_timeout_ms").fill("0.6 s");
  await pg.getByTestId("pane-knob-0-election_timeout_ms").press("Enter");
  assert.equal(await mode(page, (m) => m.panes[0].timeline.scenario().config.election_timeout_ms), 600);
  await pg.locator("[data-testid=pane-1] summary").click();
  await pg.getByTestId("pane-knob-1-failure_timeout_ms").fill("5");
  await pg.getByTestId("pane-knob-1-failure_timeout_ms").press("Enter");
  assert.match(await pg.getByTestId("pane-config-error-1").textContent(), /Failure timeout: must be 50–3000 ms/);
  await seek(page, 3000);
  await mode(page, (m) => m.inject({ type: "pause", target: "leader", duration_ms: 1500 }));
  await seek(page, 5200);
  const link = await mode(page, (m) => m.permalink());
  assert.match(link, /compare\.html#c=/);
  const before = { spec: await mode(page, (m) => m.currentSpec()), out: await outcomes(page), hashes: await mode(page, (m) => m.panes.map((p) => String(p.timeline.model.sim.traceHash()))) };
  const other = await browser.open(link.slice(link.indexOf("compare.html")));
  const after = { spec: await mode(other, (m) => m.currentSpec()), out: await outcomes(other), hashes: await mode(other, (m) => m.panes.map((p) => String(p.timeline.model.sim.traceHash()))) };
  assert.deepEqual(after.spec, before.spec);
  assert.deepEqual(after.spec.panes[0], { choice: "raft-pv-cq", knobs: { election_timeout_ms: 600 } });
  assert.deepEqual(after.out, before.out);
  assert.deepEqual(after.hashes, before.hashes);
  assert.deepEqual(await times(other), [5200, 5200, 5200]);
  await Promise.all([page.close(), other.close()]);
});

test("embed.html?compare=...&preset=partition and a bad list", async () => {
  const page = await browser.open("embed.html?compare=raft,bully,lease-fencing&preset=partition");
  assert.equal(await mode(page, (m) => m.panes.map((p) => p.choice).join(",")), "raft,bully,lease-fencing");
  await seek(page, 9000);
  const o = await outcomes(page);
  assert.deepEqual(o["split-brain"].map((c) => c.value > 0), [false, true, false]);
  assert.match(await mode(page, (m) => m.permalink()), /compare\.html#c=/);
  await screenshot(page, "compare-embed");
  const bad = await browser.open("embed.html?compare=raft,paxos&preset=partition");
  assert.ok(bad.warnings.some((w) => w.includes('unknown algorithm "paxos"')), bad.warnings.join("\n"));
  assert.equal(await mode(bad, (m) => m.panes.length), 3);
  await Promise.all([page.close(), bad.close()]);
});

test("a corrupt comparison link says so and leaves a working default comparison", async () => {
  const page = await browser.open("compare.html#c=not-deflate&t=100");
  const error = page.locator("tenure-playground").getByTestId("error");
  assert.equal(await error.isVisible(), true);
  assert.match(await error.textContent(), /the comparison link cannot be read.*Showing the default comparison instead/);
  assert.equal(await mode(page, (m) => m.panes.length), 3);
  assert.equal(await seek(page, 1000), 1000);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a comparison link with more than four panes is refused, not drawn", async () => {
  const panes = Array.from({ length: 10 }, () => ({ choice: "raft" }));
  const page = await browser.open(`compare.html${encodeCompareHash({ panes }, 0)}`);
  const error = page.locator("tenure-playground").getByTestId("error");
  assert.match(await error.textContent(), /2 to 4 panes; this link has 10/);
  assert.equal(await mode(page, (m) => m.panes.length), 3);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// Compare mode ignored `height`: the single playground sizes its cluster from it (clamped to
// 150-2,400 px, the clamp said in the element), while every pane kept its own height. Each
// pane's cluster now takes it, clamped and said the same way, and follows a change.
test("compare mode honours height: every pane's cluster, clamped to 150-2,400 px and said in the element", async () => {
  const page = await browser.open("embed.html?compare=raft,bully,lease-fencing&preset=partition&height=420px");
  const pg = page.locator("tenure-playground");
  const note = pg.getByTestId("height-note");
  const clusters = () => pg.locator("svg.cluster").evaluateAll((all) => all.map((s) => Math.round(s.getBoundingClientRect().height)));
  assert.deepEqual(await clusters(), [420, 420, 420]);
  assert.equal(await note.isHidden(), true, "no note for a height in range");
  await seek(page, 9000);
  await screenshot(page, "compare-height", { fullPage: true });
  const set = async (v) => {
    await page.evaluate((h) => document.querySelector("tenure-playground").setAttribute("height", h), v);
    return [await note.textContent(), await clusters()];
  };
  assert.deepEqual(await set("99999999"), [`height="99999999" is 99,999,999 px; the cluster's height is 150 px to 2,400 px (e.g. height="360px" or "50vh"). Using 2,400 px.`, [2400, 2400, 2400]]);
  assert.ok(page.warnings.some((w) => w.startsWith("<tenure-playground compare>") && w.includes(`height="99999999" is 99,999,999 px`)), "in the console too");
  await screenshot(page, "compare-height-clamped", { clip: { x: 0, y: 0, width: 1280, height: 500 } });
  assert.deepEqual(await set("0"), [`height="0" is 0 px; the cluster's height is 150 px to 2,400 px (e.g. height="360px" or "50vh"). Using 150 px.`, [150, 150, 150]]);
  const [bad] = await set("banana");
  assert.match(bad, /^height="banana" is not a CSS length the element can use; .*Keeping the default height\.$/);
  await page.evaluate(() => document.querySelector("tenure-playground").removeAttribute("height"));
  assert.equal(await note.isHidden(), true, "the note goes with the attribute");
  // A pane added later takes the height too.
  await set("300px");
  await mode(page, (m) => m.addPane());
  assert.deepEqual(await clusters(), [300, 300, 300, 300]);
  assert.deepEqual(page.errors, []);
  await page.close();
});
