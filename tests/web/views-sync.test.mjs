// The views agree on a message: hovering (or focusing) a message in the cluster, the
// space-time diagram or the event log lights it in each of the others and marks it on the
// timeline; and free play's defaults make a message readable motion, not a flicker.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { elementShot, launch } from "./browser.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const PG = "tenure-playground";

/** Which views light message `id`: cluster, diagram, event log, timeline. */
function litIn(page, id) {
  return page.evaluate((id) => {
    const root = document.querySelector("tenure-playground").shadowRoot;
    const lit = (sel) => [...root.querySelectorAll(sel)].some((e) => e.classList.contains("lit"));
    return {
      cluster: lit(`[data-testid=message][data-msg="${id}"]`),
      diagram: lit(`.spacetime [data-msg="${id}"]`),
      log: lit(`[data-testid=event-log] button[data-msg="${id}"]`),
      timeline: root.querySelector(`[data-testid=timeline-message][data-msg="${id}"]`) != null,
    };
  }, id);
}

test("hovering_a_message_in_one_view_lights_it_in_the_others", async () => {
  const page = await browser.open();
  // A message in flight that the cluster, the diagram and the event log all show.
  const id = await page.evaluate(async () => {
    const pg = document.querySelector("tenure-playground");
    pg.loadPreset("gc-pause-fenced");
    pg.shadowRoot.querySelector(".spacetime-panel").scrollIntoView();
    const win = pg.shadowRoot.querySelector("[data-testid=spacetime-window]");
    win.value = "1000";
    win.dispatchEvent(new Event("change"));
    // After the takeover (the pause starts at 1.5 s): store traffic and the new holder's writes.
    for (let t = 2000; t < 6000; t += 7) {
      pg.runTo(t);
      const root = pg.shadowRoot;
      const ids = (sel) => new Set([...root.querySelectorAll(sel)].map((e) => e.dataset.msg));
      const cluster = ids("[data-testid=message]");
      const diagram = ids(".spacetime [data-msg]");
      const log = ids("[data-testid=event-log] button[data-msg]");
      const both = [...cluster].find((m) => diagram.has(m) && log.has(m));
      if (both) return both;
    }
    return null;
  });
  assert.ok(id, "a message shown in the three views at once");
  const none = { cluster: false, diagram: false, log: false, timeline: false };
  assert.deepEqual(await litIn(page, id), none);

  await page.locator(PG).locator(`[data-testid=message][data-msg="${id}"]`).hover({ force: true });
  assert.deepEqual(await litIn(page, id), { cluster: true, diagram: true, log: true, timeline: true }, "hovered in the cluster");
  await page.mouse.move(0, 0);
  assert.deepEqual(await litIn(page, id), none, "the light goes with the pointer");
  // Focus lights it too, and (unlike a hover) stays while the screenshots scroll the page.
  const msg = page.locator(PG).locator(`[data-testid=message][data-msg="${id}"]`);
  await msg.focus();
  assert.deepEqual(await litIn(page, id), { cluster: true, diagram: true, log: true, timeline: true }, "focused in the cluster");
  await elementShot(page.locator(PG).locator(".timeline-row"), "sync-timeline-and-log");
  await elementShot(page.locator(PG).locator(".spacetime-panel"), "sync-spacetime");
  await msg.blur();
  assert.deepEqual(await litIn(page, id), none, "blur clears it");

  // The diagram listens on its root for pointerover and finds the arrow the pointer is on.
  await page.locator(PG).locator(`.spacetime [data-msg="${id}"] line`).dispatchEvent("pointerover", { bubbles: true });
  assert.deepEqual(await litIn(page, id), { cluster: true, diagram: true, log: true, timeline: true }, "hovered in the diagram");
  await page.locator(PG).locator(".spacetime").dispatchEvent("pointerleave");
  assert.deepEqual(await litIn(page, id), none, "leaving the diagram clears it");

  // Keyboard: focusing the message's line in the event log lights it everywhere.
  await page.locator(PG).locator(`[data-testid=event-log] button[data-msg="${id}"]`).first().focus();
  assert.deepEqual(await litIn(page, id), { cluster: true, diagram: true, log: true, timeline: true }, "focused in the event log");
  await page.keyboard.press("Tab");
  assert.equal((await litIn(page, id)).diagram, false, "blur clears it");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("free_play_messages_are_readable_motion_at_the_default_speed", async () => {
  const page = await browser.open();
  const r = await page.evaluate(() => {
    const pg = document.querySelector("tenure-playground");
    const shortest = [];
    for (let t = 100; t <= 5000; t += 50) {
      pg.runTo(t);
      for (const m of pg.snapshot().in_flight) shortest.push(m.arrival_ms - m.send_ms);
    }
    return { speed: pg.speed, preset: pg.preset?.id ?? null, latencies: shortest, leader: pg.snapshot().nodes.some((n) => n.role === "Leader") };
  });
  assert.equal(r.preset, null, "free play");
  assert.ok(r.leader, "a leader is elected within 5 s of free play");
  assert.ok(r.latencies.length > 50, `${r.latencies.length} messages seen`);
  // On screen for (arrival - send) / speed of wall time: at least 200 ms, a motion the eye follows.
  const onScreen = r.latencies.map((l) => l / r.speed).sort((a, b) => a - b);
  assert.ok(onScreen[0] >= 200, `the quickest message is on screen for ${onScreen[0].toFixed(0)} ms at ${r.speed}x`);
  const median = onScreen[Math.floor(onScreen.length / 2)];
  assert.ok(median >= 300 && median <= 700, `median ${median.toFixed(0)} ms on screen`);
  await page.close();
});
