// Rendering defects found by hand, each with a check that would have caught it (boxes that
// must not overlap, marks that must exist) and a screenshot in tests/artifacts for review.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { elementShot, launch, screenshot } from "./browser.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const PG = "tenure-playground";
const el = (page, fn, arg) => page.evaluate(([f, a]) => new Function("pg", "arg", `return (${f})(pg, arg)`)(document.querySelector("tenure-playground"), a), [fn.toString(), arg]);
const runTo = (page, ms) => page.evaluate((t) => document.querySelector("tenure-playground").runTo(t), ms);

/** Screen boxes of every element matching `selector` in the playground's shadow root. */
function boxes(page, selector) {
  return page.evaluate((sel) => [...document.querySelector("tenure-playground").shadowRoot.querySelectorAll(sel)].map((e) => {
    const r = e.getBoundingClientRect();
    return { text: e.textContent, x0: r.left, y0: r.top, x1: r.right, y1: r.bottom, w: r.width };
  }).filter((b) => b.w > 0), selector);
}
const overlap = (a, b) => a.x0 < b.x1 - 0.5 && b.x0 < a.x1 - 0.5 && a.y0 < b.y1 - 0.5 && b.y0 < a.y1 - 0.5;
function pairsOverlapping(list) {
  const bad = [];
  for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) if (overlap(list[i], list[j])) bad.push(`"${list[i].text}" × "${list[j].text}"`);
  return bad;
}

test("timeline_axis_labels_never_overprint", async () => {
  const page = await browser.open();
  // At the start (cursor on "0"), at the end (cursor on the end label) and just before it.
  for (const [preset, at] of [["gc-pause-fenced", 0], ["gc-pause-fenced", 7000], ["raft-minority", 8950]]) {
    await el(page, (pg, [id, t]) => (pg.loadPreset(id), pg.runTo(t)), [preset, at]);
    const labels = await boxes(page, "[data-testid=axis-label], [data-testid=cursor-label]");
    assert.deepEqual(pairsOverlapping(labels), [], `${preset} at ${at}`);
    const texts = labels.map((l) => l.text);
    assert.equal(new Set(texts).size, texts.length, `no label twice: ${texts}`);
    assert.ok(labels.length >= 3, `ticks and the cursor: ${texts}`);
  }
  await elementShot(page.locator(PG).getByTestId("timeline"), "render-axis-end");
  await page.close();
});

test("the_faults_lane_stays_readable_at_twenty_faults_and_a_drawn_partition_is_labelled", async () => {
  const page = await browser.open();
  await runTo(page, 500);
  // A swipe across the cluster: its flag must carry a label.
  const box = await page.locator(PG).getByTestId("cluster").boundingBox();
  const x = box.x + box.width * 0.56;
  await page.mouse.move(x, box.y + 4);
  await page.mouse.down();
  await page.mouse.move(x, box.y + box.height - 4, { steps: 4 });
  await page.mouse.up();
  assert.equal((await boxes(page, "[data-testid=fault-label]")).length, 1);
  assert.match((await boxes(page, "[data-testid=fault-label]"))[0].text, /^partition /);
  // Nineteen more faults, close together and spread out.
  const times = [600, 620, 640, 900, 1400, 1450, 2000, 2600, 2650, 3300, 4000, 4100, 4900, 5000, 6100, 7200, 8000, 8020, 9300];
  for (const [i, t] of times.entries()) {
    await el(page, (pg, [t, i]) => {
      pg.runTo(t);
      const faults = [{ type: "heal" }, { type: "crash", node: 1 + (i % 5) }, { type: "restart", node: 1 + (i % 5) }, { type: "clock-offset", target: 2, offset_ms: 250 }];
      pg.inject(faults[i % faults.length]);
    }, [t, i]);
  }
  await runTo(page, 10_000);
  const marks = await page.locator(PG).getByTestId("fault-mark").evaluateAll((els) => els.map((e) => Number(e.dataset.count)));
  assert.equal(marks.reduce((a, b) => a + b, 0), 20, "every fault has a flag (merged ones count theirs)");
  const labels = await boxes(page, "[data-testid=fault-label]");
  assert.deepEqual(pairsOverlapping(labels), [], "fault labels do not overlap");
  const poles = await page.locator(PG).locator("[data-testid=fault-mark]").evaluateAll((els) => els.map((g) => {
    const r = g.querySelector("path").getBoundingClientRect();
    return { own: g.querySelector("text")?.textContent, x0: r.left, x1: r.right, y0: r.top, y1: r.bottom };
  }));
  for (const p of poles) for (const l of labels) if (l.text !== p.own) assert.ok(!overlap(p, l), `a flag crosses "${l.text}"`);
  const lane = await page.locator(PG).getByTestId("timeline").boundingBox();
  for (const l of labels) assert.ok(l.x0 >= lane.x && l.x1 <= lane.x + lane.width, `"${l.text}" inside the timeline`);
  assert.ok(labels.length >= 8, `most flags are labelled (${labels.length})`);
  await elementShot(page.locator(PG).getByTestId("timeline"), "render-faults-lane");
  await page.close();
});

test("cluster_labels_stay_readable_crashed_names_resource_name_and_messages", async () => {
  const page = await browser.open();
  await runTo(page, 1500);
  await page.getByTestId("node-n2").click();
  await page.getByTestId("action-crash").click();
  const [name] = await boxes(page, "[data-testid=node-n2] .name");
  const [cross] = await boxes(page, "[data-testid=node-n2] .cross");
  assert.ok(!overlap(name, cross), "the crashed node's name is not under its X");
  // Messages travel under the processes (labels have a halo): the layer order says so.
  const order = await page.evaluate(() => [...document.querySelector("tenure-playground").shadowRoot.querySelector("svg.cluster").children].map((c) => c.getAttribute("class")).filter(Boolean));
  assert.ok(order.indexOf("msgs") < order.indexOf("procs"), order.join(" "));
  const halo = await page.evaluate(() => getComputedStyle(document.querySelector("tenure-playground").shadowRoot.querySelector(".node .role")).paintOrder);
  assert.match(halo, /^stroke/);
  await elementShot(page.locator(PG).locator(".stage"), "render-crashed");
  // The resource's name is clear of the cylinder's rim.
  await page.getByTestId("preset-gc-pause-fenced").click();
  await el(page, (pg) => (pg.pause(), pg.runTo(2000)));
  const [resName] = await boxes(page, "[data-testid=resource] > .name");
  const [body] = await boxes(page, "[data-testid=resource] > .body");
  assert.ok(resName.y1 <= body.y0 + 1, `"resource" sits above the cylinder (${resName.y1} vs ${body.y0})`);
  await page.close();
});

test("nine_lease_nodes_leave_room_for_the_resource", async () => {
  const page = await browser.open();
  await page.getByTestId("algorithm").selectOption("lease-fencing");
  await page.getByTestId("nodes").fill("9");
  await page.getByTestId("nodes").dispatchEvent("change");
  await runTo(page, 2500);
  const procs = await boxes(page, ".proc");
  assert.equal(procs.length, 11, "9 nodes, the store and the resource");
  const res = (await boxes(page, "[data-testid=resource]"))[0];
  const nodes = await boxes(page, "[data-testid^=node-]");
  const near = nodes.filter((n) => overlap({ ...n, x1: n.x1 + 12 }, res));
  assert.deepEqual(near.map((n) => n.text), [], "no node (with its labels) within 12 px of the resource");
  // The leader's lease arc and the store's expiry bar are drawn, their full spans read from
  // the snapshot (the page restates no TTL or margin).
  const arcs = await page.locator(PG).locator(".lease-arc").evaluateAll((ps) => ps.map((p) => p.getAttribute("d") ?? ""));
  assert.equal(arcs.filter((d) => d.length > 0).length, 1, `one leader's arc: ${JSON.stringify(arcs)}`);
  const bar = Number(await page.locator(PG).locator("rect.expiry").getAttribute("width"));
  assert.ok(bar > 0 && bar <= 76, `store expiry bar ${bar}`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await elementShot(page.locator(PG).locator(".stage"), "render-lease-9");
  await page.close();
});

test("legend_stories_panels_menu_and_favicon", async () => {
  const page = await browser.open();
  // The legend explains the arcs.
  const legend = await page.locator(PG).locator(".legend").textContent();
  assert.match(legend, /time to next timeout/);
  assert.match(legend, /lease time left/);
  // The current story is marked, and the list does not move as the safety panel grows.
  const story = page.getByTestId("preset-raft-minority");
  const y0 = (await page.getByTestId("preset-clock-drift").boundingBox()).y;
  await story.click();
  assert.equal(await story.getAttribute("aria-current"), "true");
  assert.equal(await page.getByTestId("preset-gc-pause-fenced").getAttribute("aria-current"), null);
  await el(page, (pg) => (pg.pause(), pg.runTo(9000)));
  await page.getByTestId("preset-gc-pause-fenced").click();
  await el(page, (pg) => (pg.pause(), pg.runTo(7000)));
  assert.equal((await page.getByTestId("preset-clock-drift").boundingBox()).y, y0, "the stories stay put");
  // Raft has no store: no outage slider or button.
  await page.getByTestId("algorithm").selectOption("raft");
  assert.equal(await page.locator(PG).getByTestId("outage-slider").isVisible(), false);
  assert.equal(await page.getByTestId("action-outage").isVisible(), false);
  await page.getByTestId("algorithm").selectOption("lease-fencing");
  assert.equal(await page.locator(PG).getByTestId("outage-slider").isVisible(), true);
  // The menu opens beside the node it acts on, not over it.
  for (const n of ["n1", "n2", "n3"]) {
    await page.getByTestId(`node-${n}`).click();
    const [menu] = await boxes(page, "[data-testid=menu]");
    const [node] = await boxes(page, `[data-testid=node-${n}] .body`);
    assert.ok(!overlap(menu, node), `the menu does not cover ${n}`);
    if (n === "n3") await screenshot(page, "render-menu-beside");
    await page.keyboard.press("Escape");
  }
  // No request fails: the favicon exists.
  assert.deepEqual(page.missing, []);
  assert.equal(await page.evaluate(() => fetch(document.querySelector("link[rel=icon]").href).then((r) => r.status)), 200);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("embed_with_all_controls_at_300px_keeps_labels_clear_of_the_legend", async () => {
  const page = await browser.open("embed.html?preset=raft-minority&controls=all&height=300px");
  await runTo(page, 3000);
  const labels = await boxes(page, "[data-testid^=node-] text");
  const stage = (await boxes(page, ".stage"))[0];
  for (const l of labels.filter((x) => x.text)) assert.ok(l.y1 <= stage.y1 + 0.5, `"${l.text}" inside the cluster box (${l.y1} > ${stage.y1})`);
  await screenshot(page, "render-embed-300");
  assert.deepEqual(page.errors, []);
  await page.close();
});
