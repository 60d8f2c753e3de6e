// Stories that teach: every story played with its holds, the beats in order and worded from
// the run on screen; a story the user changes switches to live narration; the event log,
// touchable messages (inspect, drop, and the drop in the permalink's replay), Raft's log view
// with a client's command, and the space-time diagram with its SVG export. Screenshots of
// each new view go to tests/artifacts for review.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { PRESETS } from "../../web/playground/presets.js";
import { ARTIFACTS, axeViolations, elementShot, launch, screenshot } from "./browser.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const PG = "tenure-playground";
const el = (page, fn, arg) => page.evaluate(([src, a]) => new Function("pg", "a", `return (${src})(pg, a)`)(document.querySelector("tenure-playground"), a), [fn.toString(), arg]);

/**
 * Plays story `id` fast with holds on; at each hold records the caption, the beat index and
 * who leads (name and token or term), then presses Next, to the end.
 */
async function playThrough(page, id) {
  return page.evaluate(async (id) => {
    const pg = document.querySelector("tenure-playground");
    const caption = () => pg.shadowRoot.querySelector("[data-testid=caption]");
    pg.loadPreset(id);
    pg.setHolds(true);
    pg.setSpeed(8);
    pg.play();
    const holds = [];
    const t0 = performance.now();
    while (performance.now() - t0 < 60_000) {
      await new Promise((r) => requestAnimationFrame(r));
      if (pg.playing) continue;
      if (pg.now >= pg.endMs) break;
      const snap = pg.snapshot();
      const leaders = snap.nodes.filter((n) => (n.role === "Leader" || n.role === "Coordinator") && n.status === "up")
        .map((n) => ({ name: `n${n.id}`, value: String(n.token ?? n.term) }));
      const next = pg.shadowRoot.querySelector("[data-testid=next]");
      holds.push({ time: pg.now, text: caption().textContent, held: caption().dataset.held, beat: pg.heldBeat, nextShown: !next.hidden, leaders });
      next.click();
    }
    return { holds, end: caption().textContent, beats: pg.beatsMet().map((b) => b.index) };
  }, id);
}

test("every_story_played_with_holds_meets_its_beats_in_order_in_the_runs_own_words", async () => {
  const page = await browser.open();
  const words = {};
  for (const story of PRESETS) {
    const { holds, beats } = await playThrough(page, story.id);
    words[story.id] = holds.map((h) => h.text).join("\n");
    const want = story.beats.map((_, i) => i);
    assert.deepEqual(beats, want, `${story.id}: every beat met, in order`);
    assert.deepEqual(holds.map((h) => h.beat), want, `${story.id}: it held at each beat, in order`);
    for (const h of holds) {
      assert.equal(h.held, "true", `${story.id} at ${h.time}: the caption shows the hold`);
      assert.ok(h.nextShown, `${story.id}: "Next" is offered`);
      assert.doesNotMatch(h.text, /\bS\d\d\b|rule \d|DESIGN/, `${story.id}: no scenario ids or rule numbers`);
      // A beat that names a winner names the node that leads on screen, with its token or term.
      if (/\b(wins|is granted|leads with|elects|becomes coordinator|declares itself)\b/.test(h.text) && h.leaders.length) {
        const newest = h.leaders.find((l) => h.text.includes(l.name));
        assert.ok(newest, `${story.id}: "${h.text}" names a node leading now (${JSON.stringify(h.leaders)})`);
        assert.match(h.text, new RegExp(`\\b${newest.value}\\b`), `${story.id}: with its token or term`);
      }
    }
  }
  assert.match(words["gc-pause-fenced"], /n1 wins the lease at 63 ms with fencing token 1/);
  assert.match(words["gc-pause-fenced"], /At 1\.52 s n1 passes its lease check/);
  assert.match(words["gc-pause-fenced"], /n2 is granted token 2/);
  assert.match(words["gc-pause-fenced"], /refuses n1's write: presented 1, required 2/);
  assert.match(words.generations, /generation 41[\s\S]*generation 42[\s\S]*presented 41, required 42[\s\S]*generation 43/);
  assert.doesNotMatch(words.generations, /\bA\b|\bB\b|"A"/, "the nodes are called what the screen calls them");
  assert.match(words["raft-minority"], /partition drops its requests/);
  assert.match(words["bully-partition"], /two coordinators at once/i);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the_fencing_stories_end_with_the_rejection_card_and_the_resource_history", async () => {
  const page = await browser.open();
  for (const [id, card] of [["gc-pause-fenced", /rejected n1's write\s*presented 1, required 2/], ["generations", /rejected n1's write\s*presented 41, required 42/], ["clock-drift", /rejected n1's write\s*presented 1, required 2/]]) {
    await el(page, (pg, id) => (pg.loadPreset(id), pg.runTo(pg.endMs)), id);
    const sticky = page.locator(PG).getByTestId("rejection-card");
    assert.equal(await sticky.getAttribute("visibility"), "visible", id);
    assert.match((await sticky.locator("text").allTextContents()).join(" "), card, id);
    const box = await sticky.boundingBox();
    const stage = await page.locator(PG).locator(".stage").boundingBox();
    assert.ok(box && box.y + box.height <= stage.y + stage.height && box.x + box.width <= stage.x + stage.width, `${id}: the card is inside the cluster view`);
    assert.match(await page.getByTestId("resource-log").textContent(), /n1's write with token \d+ refused \(required \d+\)/, id);
    await elementShot(page.locator(PG).locator(".stage"), `stories-end-${id}`);
  }
  // The old holder's lease on the timeline: its local deadline, then the store's expiry, both
  // inside the pause that outlives them.
  await el(page, (pg) => (pg.loadPreset("gc-pause-fenced"), pg.runTo(5570)));
  const marks = await page.locator(PG).locator("svg.timeline").evaluate((svg) => {
    const box = (sel) => [...svg.querySelectorAll(sel)].map((e) => ({ x: e.getBBox().x + e.getBBox().width / 2, y: e.getBBox().y, title: e.querySelector("title")?.textContent ?? "" }));
    return { deadline: box("[data-testid=lease-deadline]"), expiry: box("[data-testid=lease-expiry]"), paused: box(".span.paused").map((b) => b.y), pauseBox: [...svg.querySelectorAll(".span.paused")].map((e) => { const b = e.getBBox(); return { x: b.x, width: b.width }; }) };
  });
  const n1Deadline = marks.deadline.find((m) => /^n1's local lease deadline: 3\.03 s/.test(m.title));
  const n1Expiry = marks.expiry.find((m) => /^the store's expiry of n1's lease: 3\.36 s/.test(m.title));
  assert.ok(n1Deadline && n1Expiry, JSON.stringify(marks));
  assert.ok(n1Deadline.x < n1Expiry.x, "the deadline comes before the store's expiry: the margin");
  const pause = marks.pauseBox[0];
  assert.ok(pause.x < n1Deadline.x && n1Expiry.x < pause.x + pause.width, `the pause outlives both: ${JSON.stringify({ pause, n1Deadline, n1Expiry })}`);
  await elementShot(page.locator(PG).locator("svg.timeline"), "stories-timeline-leases");
  await page.close();
});

test("a_changed_story_says_so_once_and_narrates_the_users_crash", async () => {
  const page = await browser.open();
  await el(page, (pg) => (pg.loadPreset("gc-pause-fenced"), pg.runTo(1000)));
  const note = page.getByTestId("story-changed");
  assert.equal(await note.isVisible(), false);
  await page.locator(PG).getByTestId("node-n1").click();
  await page.getByTestId("action-crash").click();
  assert.equal(await note.isVisible(), true);
  assert.equal(await note.textContent(), "You changed the story: narration now follows the run.");
  assert.match(await page.getByTestId("caption").textContent(), /^Your fault at 1\.00 s: n1 crashes\.$/);
  await el(page, (pg) => pg.runTo(4000));
  const caption = await page.getByTestId("caption").textContent();
  assert.match(caption, /the store grants n[23] the lease with token 2/, "the narration follows the new run");
  assert.doesNotMatch(caption, /freezes|pause/);
  assert.equal(await page.locator("text=You changed the story").count(), 1, "said once");
  // Before the change the story still tells its beats; the permalink keeps the change.
  await el(page, (pg) => pg.seek(500));
  assert.equal(await note.isVisible(), false);
  assert.match(await page.getByTestId("caption").textContent(), /n1 wins the lease/);
  const link = await el(page, (pg) => (pg.seek(3000), pg.permalink()));
  const other = await browser.open(new URL(link).hash ? `index.html${new URL(link).hash}` : "index.html");
  assert.equal(await other.getByTestId("story-changed").isVisible(), true, "a changed story's link opens as changed");
  await screenshot(page, "stories-changed");
  assert.deepEqual(page.errors, []);
  await page.close();
  await other.close();
});

test("the_event_log_highlights_what_step_applied_and_seeks_on_click", async () => {
  const page = await browser.open();
  await el(page, (pg) => (pg.loadPreset("raft-minority"), pg.runTo(1000)));
  await page.getByTestId("step").click();
  const applied = page.getByTestId("event-log").locator("[aria-current=step]");
  assert.equal(await applied.count(), 1);
  const seq = Number(await applied.getAttribute("data-seq"));
  const firstNew = await el(page, (pg) => pg.timeline.history.log.filter((e) => e.time <= pg.now).at(-1).seq);
  assert.ok(seq <= firstNew, "the highlighted line is one the step produced");
  assert.equal(Number(await applied.getAttribute("data-time")), await el(page, (pg) => pg.now), "at the time Step moved to");
  const older = page.getByTestId("event-log").getByTestId("event").first();
  const t = Number(await older.getAttribute("data-time"));
  await older.click();
  await page.waitForFunction((t) => Math.abs(document.querySelector("tenure-playground").now - t) < 1e-6, t);
  await elementShot(page.locator(PG).locator(".timeline-row"), "stories-event-log");
  await page.close();
});

test("a_dropped_message_changes_the_run_and_the_permalink_replays_the_drop", async () => {
  const page = await browser.open();
  await el(page, (pg) => {
    pg.loadPreset("raft-minority");
    pg.runTo(1200);
    while (!pg.snapshot().in_flight.length) pg.step();
  });
  const untouched = await el(page, (pg) => {
    const sim = pg.timeline.model.sim.clone();
    sim.runUntil(pg.endMs);
    return String(sim.traceHash());
  });
  const msg = page.locator(PG).getByTestId("message").first();
  const id = await msg.getAttribute("data-msg");
  await msg.focus();
  await page.keyboard.press("Enter");
  const detail = page.getByTestId("message-detail");
  assert.match(await detail.textContent(), /from → to.*sent.*arrives.*term/s);
  assert.deepEqual(await axeViolations(page), [], "the message detail is accessible");
  await screenshot(page, "stories-message-detail");
  await page.getByTestId("action-drop-message").click();
  const events = await el(page, (pg) => pg.timeline.history.log.filter((e) => e.event === "drop").map((e) => e.text));
  assert.ok(events.some((t) => /dropped \(by you\)/.test(t)), "the log shows the drop");
  const dropped = await el(page, (pg) => (pg.runTo(pg.endMs), String(pg.timeline.model.sim.traceHash())));
  assert.notEqual(dropped, untouched, "the run changed");
  const link = await el(page, (pg) => pg.permalink());
  const replay = await browser.open(`index.html${new URL(link).hash}`);
  const again = await replay.evaluate(() => {
    const pg = document.querySelector("tenure-playground");
    pg.runTo(pg.endMs);
    return { hash: String(pg.timeline.model.sim.traceHash()), faults: pg.scenario().faults.map((f) => f.fault) };
  });
  assert.ok(again.faults.some((f) => f.type === "drop-message" && String(f.id) === id), "the permalink's scenario holds the drop");
  assert.equal(again.hash, dropped, "the replay drops the same message");
  assert.deepEqual([...page.errors, ...replay.errors], []);
  await page.close();
  await replay.close();
});

test("raft_a_proposed_command_shows_in_the_leaders_log_then_committed_on_a_majority", async () => {
  const page = await browser.open();
  await el(page, (pg) => (pg.loadPreset("raft-minority"), pg.runTo(1000)));
  await page.getByTestId("propose").click();
  const leader = await el(page, (pg) => `n${pg.snapshot().nodes.find((n) => n.role === "Leader").id}`);
  const cell = (k) => page.getByTestId(`log-${k}`).locator("td[data-command='1001']");
  assert.equal(await cell(leader).count(), 1, "in the leader's log at once");
  assert.equal(await cell(leader).getAttribute("data-committed"), "false", "not committed yet");
  await el(page, (pg) => pg.runTo(1400));
  const committed = await page.getByTestId("raft-log").locator("td[data-command='1001'][data-committed=true]").count();
  assert.ok(committed >= 3, `committed on a majority of 5 (${committed})`);
  const commit = Number(await page.getByTestId(`commit-${leader}`).textContent());
  assert.ok(commit >= Number(await cell(leader).getAttribute("data-index")), "the leader's commit index passed it");
  // The leader's menu offers it too; a lease world has no log view.
  await elementShot(page.getByTestId("raft-log"), "stories-raft-log");
  await page.close();
});

test("space_time_diagram_draws_the_rejected_write_and_the_pause_and_exports_standalone_svg", async () => {
  const page = await browser.open("", { viewport: { width: 1280, height: 1600 } });
  await el(page, (pg) => (pg.loadPreset("gc-pause-fenced"), pg.runTo(5600)));
  await page.getByTestId("spacetime-window").selectOption("5000");
  const st = page.getByTestId("spacetime");
  assert.ok((await st.getByTestId("st-rejected").count()) >= 1, "the refused write is marked");
  assert.ok((await st.getByTestId("st-paused").count()) >= 1, "the pause is drawn");
  assert.ok((await st.getByTestId("st-lead").count()) >= 2, "both leaderships are shaded");
  const write = await el(page, (pg) => [...pg.timeline.history.msgs.values()].find((m) => m.kind === "Write" && m.from === "n1" && m.send > 5000)?.id);
  assert.ok(write, "n1's late write was recorded");
  assert.equal(await st.locator(`[data-msg="${write}"]`).count(), 1, "its arrow is drawn");
  const text = await el(page, (pg) => pg.spaceTimeSVG());
  const parsed = await page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, "image/svg+xml");
    return { error: doc.querySelector("parsererror")?.textContent ?? null, ns: doc.documentElement.namespaceURI, name: doc.documentElement.localName, style: Boolean(doc.querySelector("style")), w: doc.documentElement.getAttribute("width") };
  }, text);
  assert.deepEqual(parsed, { error: null, ns: "http://www.w3.org/2000/svg", name: "svg", style: true, w: parsed.w });
  assert.ok(Number(parsed.w) > 0);
  writeFileSync(join(ARTIFACTS, "spacetime-gc-pause-fenced.svg"), text);
  // Hovering an arrow lights the same message in the cluster when it is in flight.
  await page.getByTestId("spacetime-all").check();
  const live = await el(page, (pg) => {
    while (!pg.snapshot().in_flight.length) pg.step();
    return String(pg.snapshot().in_flight[0].id);
  });
  await st.locator(`[data-msg="${live}"]`).first().dispatchEvent("pointerover");
  assert.match(await page.locator(PG).locator(`.msg[data-msg="${live}"]`).getAttribute("class"), /\blit\b/, "lit in the cluster too");
  await page.getByTestId("spacetime-all").uncheck();
  // The whole of each story, routine traffic left out: the figure drawn to explain it.
  await page.getByTestId("spacetime-window").selectOption("0");
  for (const story of PRESETS) {
    const t = await el(page, (pg, id) => (pg.loadPreset(id), pg.runTo(pg.endMs)), story.id);
    assert.equal(t, story.scenario.duration_ms);
    assert.ok((await st.getByTestId("st-message").count()) > 0, `${story.id}: arrows drawn`);
    await elementShot(page.locator(PG).locator(".spacetime-panel"), `spacetime-${story.id}`);
  }
  assert.deepEqual(await axeViolations(page), []);
  await page.close();
});
