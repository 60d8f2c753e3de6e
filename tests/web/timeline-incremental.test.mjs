// The timeline drawn incrementally (frame after frame, across seeks back and forth) is the
// same DOM as the same record drawn from scratch by a fresh view.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { chaosScenario } from "../../bench/_chaos.mjs";
import { elementShot, launch } from "./browser.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const PG = "tenure-playground";

/**
 * Plays `scenario` in the page to each time of `path` (a negative time seeks back to its
 * absolute value), drawing the timeline after each move, and after each one compares the
 * live timeline with a fresh view's single draw of the same record.
 */
function playAndCompare(page, scenario, path) {
  return page.evaluate(([s, path]) => {
    const pg = document.querySelector("tenure-playground");
    pg.load(s);
    const live = pg.timelineView;
    const results = [];
    for (const t of path) {
      if (t < 0) pg.seek(-t);
      else {
        // Small steps, as frames: each draws only what is new.
        for (let at = pg.now; at < t; at = Math.min(t, at + 700)) {
          pg.timeline.advance(Math.min(t, at + 700));
          pg.renderAll(true);
        }
      }
      const svgNs = "http://www.w3.org/2000/svg";
      const fresh = document.createElementNS(svgNs, "svg");
      pg.shadowRoot.append(fresh);
      const view = new live.constructor(fresh);
      view.resize(live.width);
      view.render(...live.lastArgs);
      const attrs = (el) => Object.fromEntries([...el.attributes].map((a) => [a.name, a.value]).filter(([n]) => n !== "class"));
      results.push({
        t,
        now: pg.now,
        same: fresh.innerHTML === live.root.innerHTML,
        sameAttrs: JSON.stringify(attrs(fresh)) === JSON.stringify(attrs(live.root)),
        marks: live.root.querySelectorAll(".lead, .span, .split, .fault, .write").length,
        rebuilds: live.rebuilds,
        diff: fresh.innerHTML === live.root.innerHTML ? null : firstDiff(fresh.innerHTML, live.root.innerHTML),
      });
      fresh.remove();
    }
    return results;
    function firstDiff(a, b) {
      let i = 0;
      while (i < a.length && a[i] === b[i]) i++;
      return { fresh: a.slice(Math.max(0, i - 80), i + 120), live: b.slice(Math.max(0, i - 80), i + 120) };
    }
  }, [scenario, path]);
}

test("raft_under_chaos_incremental_timeline_equals_a_fresh_draw_after_seeks", async () => {
  const page = await browser.open();
  // A one-hour run: its span grows in steps as it plays, so both full and incremental draws happen.
  const scenario = chaosScenario("raft", 9, { durationMs: 3_600_000, seed: 5 });
  const results = await playAndCompare(page, scenario, [8_000, 23_000, -4_000, 9_000, -15_000, 61_000, 64_000]);
  for (const r of results) {
    assert.ok(r.same, `at ${r.t} ms: ${JSON.stringify(r.diff)}`);
    assert.ok(r.sameAttrs, `root attributes at ${r.t} ms`);
  }
  assert.ok(results.at(-1).marks > 50, `${results.at(-1).marks} marks drawn`);
  assert.ok(results.at(-1).rebuilds < 12, `${results.at(-1).rebuilds} full draws`);
  await elementShot(page.locator(PG).getByTestId("timeline"), "timeline-incremental-raft");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("lease_world_incremental_timeline_equals_a_fresh_draw_after_seeks", async () => {
  const page = await browser.open();
  const scenario = chaosScenario("lease-fencing", 5, { durationMs: 60_000, seed: 3 });
  const results = await playAndCompare(page, scenario, [6_000, 14_000, -2_500, 30_000, -29_000, 45_000]);
  for (const r of results) assert.ok(r.same && r.sameAttrs, `at ${r.t} ms: ${JSON.stringify(r.diff)}`);
  assert.ok(await page.locator(PG).locator("[data-testid=write-rejected], [data-testid=lease-deadline]").count() >= 1, "writes or lease marks drawn");
  await elementShot(page.locator(PG).getByTestId("timeline"), "timeline-incremental-lease");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a_redraw_reads_no_layout_and_draws_only_what_is_new", async () => {
  const page = await browser.open();
  const scenario = chaosScenario("raft", 9, { durationMs: 3_600_000, seed: 5 });
  const r = await page.evaluate((s) => {
    const pg = document.querySelector("tenure-playground");
    pg.load(s);
    pg.runTo(40_000);
    const svg = pg.timelineView.root;
    let reads = 0;
    for (const name of ["clientWidth", "clientHeight", "offsetWidth"]) {
      const d = Object.getOwnPropertyDescriptor(Element.prototype, name) ?? Object.getOwnPropertyDescriptor(HTMLElement.prototype, name);
      if (d) Object.defineProperty(svg, name, { get() { reads += 1; return d.get.call(this); } });
    }
    const gbcr = svg.getBoundingClientRect.bind(svg);
    svg.getBoundingClientRect = () => ((reads += 1), gbcr());
    const created = [];
    const orig = Document.prototype.createElementNS;
    Document.prototype.createElementNS = function (...a) { created.push(a[1]); return orig.apply(this, a); };
    pg.timeline.advance(40_500);
    const [record, keys, , span] = pg.timelineView.lastArgs;
    pg.timelineView.render(record, keys, pg.now, span, false);
    const incremental = created.length;
    created.length = 0;
    // The same draw from scratch, for scale.
    const fresh = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    const view = new pg.timelineView.constructor(fresh);
    view.render(record, keys, pg.now, span, false);
    Document.prototype.createElementNS = orig;
    return { reads, incremental, full: created.length - 1, marks: svg.querySelectorAll(".lead, .span, .split, .fault").length };
  }, scenario);
  assert.equal(r.reads, 0, "no layout read per redraw");
  assert.ok(r.marks > 40, `${r.marks} marks on the timeline`);
  assert.ok(r.incremental * 4 < r.full, `a redraw created ${r.incremental} elements, a full draw ${r.full}`);
  await page.close();
});

test("the_event_log_drawn_in_place_equals_a_fresh_draw_after_seeks", async () => {
  const page = await browser.open();
  const scenario = chaosScenario("raft", 5, { durationMs: 120_000, seed: 9 });
  const r = await page.evaluate((s) => {
    const pg = document.querySelector("tenure-playground");
    pg.load(s);
    const live = pg.eventLog;
    const out = [];
    let kept = 0;
    for (const t of [3_000, 9_000, -4_000, 12_000, -11_500, 20_000]) {
      if (t < 0) pg.seek(-t);
      // Frame-sized steps: the lines move on a few at a time.
      else for (let at = pg.now; at < t; at = Math.min(t, at + 40)) {
        const before = [...live.list.children];
        pg.timeline.advance(Math.min(t, at + 40));
        pg.renderAll(true);
        kept += [...live.list.children].filter((li) => before.includes(li)).length;
      }
      const box = document.createElement("section");
      const fresh = new live.constructor(box);
      fresh.render(pg.timeline.history, pg.now, pg.stepSeq);
      out.push({ t, same: fresh.list.outerHTML === live.list.outerHTML, fresh: fresh.list.outerHTML.slice(0, 400), live: live.list.outerHTML.slice(0, 400), lines: live.list.children.length });
    }
    return { out, kept };
  }, scenario);
  for (const x of r.out) {
    assert.ok(x.same, `at ${x.t} ms:\n fresh ${x.fresh}\n live  ${x.live}`);
    assert.equal(x.lines, 12);
  }
  assert.ok(r.kept > 100, `${r.kept} lines kept in place across frames`);
  assert.deepEqual(page.errors, []);
  await page.close();
});
