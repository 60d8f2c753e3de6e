// A far seek from the timeline runs a slice per frame: the page shows how far it has come,
// stays responsive, can be cancelled by playing, and lands on the state a plain run reaches.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { chaosScenario } from "../../bench/_chaos.mjs";
import { launch } from "./browser.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test("a_far_seek_shows_progress_and_lands_where_a_plain_run_does", async () => {
  const page = await browser.open();
  const r = await page.evaluate(async (s) => {
    const pg = document.querySelector("tenure-playground");
    pg.load(s);
    const time = pg.shadowRoot.querySelector("[data-testid=time]");
    const seen = [];
    const watch = () => {
      if (pg.dataset.seeking) seen.push(time.textContent);
      if (pg.dataset.seeking) requestAnimationFrame(watch);
    };
    // Far enough that the first, synchronous 40 ms slice cannot finish it even at the
    // simulator's speed goal (20,000x: 90 ms of script for 1,800 s).
    const done = pg.seekGradually(1_800_000);
    requestAnimationFrame(watch);
    const reached = await done;
    const Sim = pg.timeline.model.sim.constructor;
    const plain = new Sim(s);
    plain.runUntil(1_800_000);
    const same = plain.traceHash() === pg.timeline.model.sim.traceHash();
    plain.free();
    // Cancelled by playing: the seek stops where it has come to. The target is the scenario's
    // end (one hour): no single slice reaches it, so the cancel always lands mid-seek.
    const again = pg.seekGradually(3_600_000);
    pg.play();
    pg.pause();
    const stopped = await again;
    return { reached, same, seen: seen.slice(0, 3), frames: seen.length, seekingAfter: pg.dataset.seeking ?? null, stopped, text: time.textContent };
  }, chaosScenario("raft", 5, { durationMs: 3_600_000, seed: 9 }));
  assert.equal(r.reached, 1_800_000);
  assert.ok(r.same, "the same trace as a plain run to 1,800 s");
  assert.ok(r.frames >= 1, "the seek took more than one frame");
  for (const t of r.seen) assert.match(t, /^seeking to 1800\.00 s: \d{1,2}%$/);
  assert.equal(r.seekingAfter, null);
  assert.ok(r.stopped < 3_600_000, `cancelled at ${r.stopped}`);
  assert.doesNotMatch(r.text, /seeking/);
  assert.deepEqual(page.errors, []);
  await page.close();
});
