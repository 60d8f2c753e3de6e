// Accessibility of the playground: axe-core on every page and story (zero serious or
// critical), a keyboard-only walkthrough, the shortcuts list, reduced motion, and a phone.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { PRESETS } from "../../web/playground/presets.js";
import { axeViolations, launch, screenshot } from "./browser.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const PG = "tenure-playground";
const runTo = (page, ms) => page.evaluate((t) => document.querySelector("tenure-playground").runTo(t), ms);
/** The element focused now, through shadow roots: its data-testid, or its tag and class. */
const focused = (page) =>
  page.evaluate(() => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el?.dataset?.testid ?? `${el?.tagName}.${el?.getAttribute?.("class")}`;
  });
const faults = (page) => page.evaluate(() => document.querySelector("tenure-playground").scenario().faults.map((f) => f.fault));

test("axe_finds_no_serious_or_critical_violation_on_the_pages_and_every_story", async () => {
  const page = await browser.open();
  await runTo(page, 2400);
  const found = { main: await axeViolations(page) };
  // "Can this break?" mounts as its section comes near the viewport (web/main.js).
  await page.locator("#break").scrollIntoViewIfNeeded();
  await page.locator("body[data-break-ready=true]").waitFor({ timeout: 30_000 });
  found["break-panel"] = await axeViolations(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const p of PRESETS) {
    await page.evaluate(([id, t]) => {
      const pg = document.querySelector("tenure-playground");
      pg.loadPreset(id);
      pg.runTo(t);
    }, [p.id, p.scenario.duration_ms * 0.7]);
    found[p.id] = await axeViolations(page);
  }
  // An open menu and the shortcuts list are part of the page too.
  await page.getByTestId("node-n2").click();
  found.menu = await axeViolations(page);
  await page.keyboard.press("Escape");
  await page.getByTestId("shortcuts").click();
  found.help = await axeViolations(page);
  const embed = await browser.open("embed.html?preset=gc-pause-fenced");
  await runTo(embed, 5600);
  found.embed = await axeViolations(embed);
  const examples = await browser.open("examples.html");
  found.examples = await axeViolations(examples);
  for (const [where, v] of Object.entries(found)) assert.deepEqual(v, [], where);
  assert.deepEqual([...page.errors, ...embed.errors, ...examples.errors], []);
  await Promise.all([page.close(), embed.close(), examples.close()]);
});

test("keyboard_only_crash_restart_cut_heal_and_scrub", async () => {
  const page = await browser.open();
  await runTo(page, 2000);
  // Tab order: the bar, then the stories, then one stop for the cluster, then the timeline.
  const stops = [];
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  while (stops.at(-1) !== "timeline" && stops.length < 30) {
    await page.keyboard.press("Tab");
    stops.push(await focused(page));
  }
  const at = (id) => stops.indexOf(id);
  assert.ok(at("play") < at("preset-gc-pause-fenced"), stops.join(" "));
  assert.ok(at("preset-clock-drift") < at("node-n1"), stops.join(" "));
  assert.deepEqual(stops.slice(at("node-n1"), at("timeline") + 1), ["node-n1", "draw-partition", "timeline"], "one tab stop for the cluster");
  assert.ok(at("timeline") < 17, `the timeline is reached in ${at("timeline") + 1} stops: ${stops.join(" ")}`);

  // Enter on a node opens its menu, focuses the first action and injects nothing.
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Shift+Tab");
  assert.equal(await focused(page), "node-n1");
  await page.keyboard.press("Enter");
  assert.equal(await page.getByTestId("menu").isVisible(), true);
  assert.equal(await focused(page), "action-crash");
  assert.deepEqual(await faults(page), [], "Enter on a node injects nothing");
  // Escape closes it and gives focus back to the node; Space opens it the same way.
  await page.keyboard.press("Escape");
  assert.equal(await page.getByTestId("menu").isVisible(), false);
  assert.equal(await focused(page), "node-n1");
  assert.equal(await page.locator(PG).getAttribute("data-playing"), "false", "Space on a node does not play");
  await page.keyboard.press(" ");
  assert.equal(await focused(page), "action-crash");
  assert.equal(await page.locator(PG).getAttribute("data-playing"), "false", "Space on a node opens its menu, not play");
  assert.deepEqual(await faults(page), []);
  // Arrows move within the menu; Enter on "Crash" crashes n1.
  await page.keyboard.press("ArrowDown");
  assert.equal(await focused(page), "action-pause");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Enter");
  assert.equal(await page.getByTestId("node-n1").getAttribute("data-role"), "crashed");
  assert.equal(await focused(page), "node-n1", "focus is back on the node after acting");
  // Restart it from the same menu.
  await page.keyboard.press("Enter");
  assert.equal(await focused(page), "action-restart");
  await page.keyboard.press("Enter");
  assert.notEqual(await page.getByTestId("node-n1").getAttribute("data-role"), "crashed");
  // Arrow keys walk the cluster to a link; Enter opens the link's menu; cut it both ways.
  await page.keyboard.press("End");
  const link = await focused(page);
  assert.match(link, /^link-n\d-n\d$/);
  await page.keyboard.press("Enter");
  assert.deepEqual((await faults(page)).length, 2, "Enter on a link injects nothing");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  assert.equal(await focused(page), "action-cut-both");
  await page.keyboard.press("Enter");
  const [, a, b] = link.split("-");
  assert.equal(await page.getByTestId(`cut-${a < b ? a : b}-${a < b ? b : a}`).count(), 1, "the link is drawn cut");
  // "h" heals every link.
  await page.keyboard.press("h");
  assert.equal(await page.locator(PG).locator(".cut").count(), 0);
  assert.equal((await faults(page)).at(-1).type, "heal");
  // The timeline is a slider: arrows scrub, with a value text.
  await runTo(page, 4000);
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  assert.equal(await focused(page), "timeline");
  const tl = page.getByTestId("timeline");
  assert.equal(await tl.getAttribute("role"), "slider");
  for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => Math.abs(document.querySelector("tenure-playground").now - 3500) < 1);
  assert.match(await tl.getAttribute("aria-valuetext"), /^3\.50 s of /);
  await page.keyboard.press("Home");
  await page.waitForFunction(() => document.querySelector("tenure-playground").now === 0);
  await page.keyboard.press("End");
  await page.waitForFunction(() => document.querySelector("tenure-playground").now >= 4000);
  // Fault shortcuts act on the leader: "k" crashes it.
  const leader = await page.locator(PG).locator("[data-testid^=node-][data-role=leader]").getAttribute("data-testid");
  await page.keyboard.press("k");
  assert.equal(await page.getByTestId(leader).getAttribute("data-role"), "crashed");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("question_mark_lists_the_shortcuts_and_escape_returns_focus", async () => {
  const page = await browser.open();
  await page.getByTestId("step").focus();
  await page.keyboard.press("?");
  const dialog = page.getByTestId("shortcuts-dialog");
  assert.equal(await dialog.isVisible(), true);
  const text = await dialog.textContent();
  for (const words of ["Crash the leader", "Heal every link", "On the timeline", "open its menu"]) assert.ok(text.includes(words), words);
  await screenshot(page, "playground-shortcuts");
  await page.keyboard.press("Escape");
  assert.equal(await dialog.isVisible(), false);
  assert.equal(await focused(page), "step");
  // Space on a focused button presses that button once (the page's Space does not also fire).
  // Counted at the element's toggle(), which the button and the page's Space both call: the
  // playing state itself can change again before it is read (a story beat that holds pauses
  // the page in the frame after play, as a loaded machine showed).
  await page.locator(PG).evaluate((el) => {
    const toggle = el.toggle.bind(el);
    el.toggles = 0;
    el.toggle = () => (el.toggles++, toggle());
  });
  await page.getByTestId("play").focus();
  await page.keyboard.press(" ");
  assert.equal(await page.locator(PG).evaluate((el) => el.toggles), 1);
  await page.keyboard.press(" ");
  assert.equal(await page.locator(PG).evaluate((el) => el.toggles), 2);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("reduced_motion_means_no_autoplay_and_still_messages", async () => {
  const page = await browser.open("embed.html?preset=gc-pause-fenced&autoplay", { reducedMotion: "reduce" });
  await page.waitForTimeout(150);
  assert.equal(await page.locator(PG).getAttribute("data-playing"), "false", "autoplay is off with reduced motion");
  assert.equal(await page.evaluate(() => document.querySelector("tenure-playground").now), 0);
  // A message is drawn at the middle of its link, not moved frame by frame.
  await runTo(page, 700);
  const positions = async () => page.locator(PG).locator(".msg").evaluateAll((els) => els.map((e) => `${e.getAttribute("cx")},${e.getAttribute("cy")}`));
  const before = await positions();
  const t = await page.evaluate(() => document.querySelector("tenure-playground").now);
  await runTo(page, t + 2);
  const after = await positions();
  assert.ok(before.length > 0, "messages in flight");
  assert.ok(after.every((p) => before.includes(p) || !before.length), `messages stay put: ${before} -> ${after}`);
  const normal = await browser.open("embed.html?preset=gc-pause-fenced&autoplay");
  await normal.waitForFunction(() => document.querySelector("tenure-playground").now > 0);
  await Promise.all([page.close(), normal.close()]);
});

test("phone_stories_at_the_top_and_a_story_keeps_caption_bar_and_cluster_on_screen", async () => {
  const page = await browser.open("", { viewport: { width: 390, height: 844 } });
  const story = page.getByTestId("preset-clock-drift");
  const top = (await story.boundingBox()).y;
  assert.ok(top < 844, `the stories start on the first screen (clock drift at y = ${top})`);
  const box = async (sel) => page.locator(PG).locator(sel).first().boundingBox();
  // From the top of the page, and with the list scrolled up under the sticky bar (the cluster
  // then starts below the fold): the story's caption, the bar and the cluster end up on screen.
  for (const [first, viewport] of [["preset-clock-drift", { width: 390, height: 844 }], ["preset-gc-pause-fenced", { width: 390, height: 640 }]]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => window.scrollTo(0, 0));
    if (viewport.height < 844) {
      const y = (await page.getByTestId(first).boundingBox()).y;
      await page.evaluate((by) => window.scrollBy(0, by), y - 130);
    }
    await page.getByTestId(first).click();
    for (const sel of [".bar", "[data-testid=caption]", ".stage"]) {
      const b = await box(sel);
      assert.ok(b.y >= -1 && b.y + b.height <= viewport.height + 1, `${first} at ${viewport.height}: ${sel} on screen: y ${b.y}..${b.y + b.height}`);
    }
    const bar = await box(".bar");
    const caption = await box("[data-testid=caption]");
    assert.ok(caption.y >= bar.y + bar.height - 1, "the caption is not under the sticky bar");
  }
  await screenshot(page, "playground-phone-story");
  // The same on a desktop for the last story.
  const desk = await browser.open();
  await desk.getByTestId("preset-clock-drift").click();
  for (const sel of [".bar", "[data-testid=caption]"]) {
    const b = await desk.locator(PG).locator(sel).first().boundingBox();
    assert.ok(b.y >= -1 && b.y + b.height <= 721, `desktop ${sel} on screen: ${b.y}`);
  }
  await Promise.all([page.close(), desk.close()]);
});

test("swipes_over_the_cluster_on_a_touch_screen_inject_nothing_and_draw_mode_partitions", async () => {
  const page = await browser.open("", { viewport: { width: 390, height: 844 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 1 });
  await cdp.send("Emulation.setEmitTouchEventsForMouse", { enabled: false });
  await runTo(page, 1000);
  const cluster = page.locator(PG).getByTestId("cluster");
  await cluster.scrollIntoViewIfNeeded();
  const swipe = async (dx, dy) => {
    const b = await cluster.boundingBox();
    const x = b.x + b.width * 0.5 + 3;
    const y = b.y + b.height * 0.3;
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
    for (let i = 1; i <= 6; i++) await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: x + (dx * i) / 6, y: y + (dy * i) / 6 }] });
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  };
  await swipe(0, 160);
  await swipe(-160, 0);
  assert.deepEqual(await faults(page), [], "a swipe scrolls, it does not partition");
  await page.getByTestId("draw-partition").click();
  assert.equal(await page.getByTestId("draw-partition").getAttribute("aria-pressed"), "true");
  await swipe(0, 160);
  const after = await faults(page);
  assert.equal(after.length, 1, "in draw mode a swipe draws a partition");
  assert.equal(after[0].type, "partition");
  assert.equal(await page.getByTestId("draw-partition").getAttribute("aria-pressed"), "false", "draw mode ends after one line");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("axe_finds_no_serious_or_critical_violation_in_compare_mode_and_the_failover_lab", async () => {
  const found = {};
  const page = await browser.open("compare.html");
  for (const id of ["partition", "gc-pause", "clock-drift", "leader-crash"]) {
    await page.evaluate((p) => {
      const m = document.querySelector("tenure-playground").compare;
      m.loadPreset(p);
      m.seek(m.endMs * 0.6);
    }, id);
    found[`compare-${id}`] = await axeViolations(page);
  }
  // A node's fault menu, opened from the keyboard, in one pane.
  await page.locator("tenure-playground").getByTestId("cluster-0").getByTestId("node-n1").focus();
  await page.keyboard.press("Enter");
  found["compare-menu"] = await axeViolations(page);
  await page.keyboard.press("Escape");
  const phone = await browser.open("compare.html", { viewport: { width: 390, height: 844 } });
  found["compare-phone"] = await axeViolations(phone);
  const embed = await browser.open("embed.html?compare=raft,bully,lease-fencing&preset=partition");
  found["compare-embed"] = await axeViolations(embed);
  const lab = await browser.open("failover.html");
  found.lab = await axeViolations(lab);
  for (const [where, v] of Object.entries(found)) assert.deepEqual(v, [], where);
  assert.deepEqual([...page.errors, ...phone.errors, ...embed.errors, ...lab.errors], []);
  await Promise.all([page.close(), phone.close(), embed.close(), lab.close()]);
});

test("keyboard_only_compare_mode: preset, play, seek, a pane's algorithm, a fault in every pane", async () => {
  const page = await browser.open("compare.html");
  const pg = page.locator("tenure-playground");
  await pg.getByTestId("compare-preset").focus();
  await page.keyboard.press("ArrowDown");
  assert.equal(await page.evaluate(() => document.querySelector("tenure-playground").compare.spec.preset), "gc-pause");
  await pg.getByTestId("compare-seek").focus();
  // Two pages (1.4 s): before the preset's pause at 1.5 s, so each pane has an acting leader
  // to crash (later, the paused leader no longer acts and the others may not hold it yet).
  for (let i = 0; i < 2; i++) await page.keyboard.press("PageUp");
  const t = await page.evaluate(() => document.querySelector("tenure-playground").compare.times());
  assert.ok(t[0] > 0 && new Set(t).size === 1, String(t));
  await pg.getByTestId("compare-crash-leader").focus();
  await page.keyboard.press("Enter");
  const crashed = await page.evaluate(() => document.querySelector("tenure-playground").compare.snapshots().map((s) => s.nodes.filter((n) => n.status === "crashed").length));
  assert.deepEqual(crashed, [1, 1]);
  await pg.getByTestId("pane-algorithm-1").focus();
  await page.keyboard.press("ArrowDown");
  const choices = await page.evaluate(() => document.querySelector("tenure-playground").compare.panes.map((p) => p.choice));
  assert.equal(choices.length, 2);
  assert.notEqual(choices[1], "lease-fencing");
  await page.close();
});
