// Embedding as README.md documents it: the one-script-tag element (the npm package's
// tenure/playground file and a fresh build of it) served by a plain static server, not the dev
// server, with no console error; the self-sizing iframe on a host page; unknown attributes
// and values reported; a bad preset said in place.
import assert from "node:assert/strict";
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { after, before, test } from "node:test";
import { buildElement } from "../../scripts/build-element.mjs";
import { root } from "../../scripts/lib/run.mjs";
import { launch, screenshot } from "./browser.mjs";

const README = readFileSync(join(root, "README.md"), "utf8");
/** The html block after `<!-- snippet: name ... -->` in README.md. */
function snippet(name) {
  const m = new RegExp(`<!-- snippet: ${name}\\b[^>]*-->\\s*\`\`\`html\\n([\\s\\S]*?)\`\`\``).exec(README);
  assert.ok(m, `README.md has the ${name} snippet`);
  return m[1];
}

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".svg": "image/svg+xml" };
/** A plain static file server: `mounts` maps a URL prefix to a folder. */
function staticServer(mounts) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const [prefix, dir] = Object.entries(mounts).find(([p]) => path.startsWith(p)) ?? [];
    const file = dir && normalize(join(dir, path.slice(prefix.length) || "index.html"));
    if (!file || !file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => { server.close(r); server.closeAllConnections(); }) })));
}

let browser;
let work;
before(async () => {
  browser = await launch();
  work = mkdtempSync(join(tmpdir(), "tenure-embed-"));
});
after(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

test("the_one_script_tag_element_works_from_a_static_server", async () => {
  // The README's snippet, as a docs page, with the element freshly built (by the script that
  // builds pkg/dist/tenure-playground.js, so the test sees the current source) into a folder
  // of its own beside the page.
  const fresh = join(work, "fresh");
  await buildElement(fresh);
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>docs</title><link rel="icon" href="data:,"></head><body><main>\n${snippet("element")}\n</main></body></html>`;
  writeFileSync(join(work, "index.html"), page);
  for (const [name, dir] of [["fresh build", fresh]]) {
    assert.ok(existsSync(join(dir, "tenure_sim_bg.wasm")), `${name}: the simulator's wasm beside the element`);
    const server = await staticServer({ "/tenure/": dir, "/": work });
    const tab = await browser.open(server.url, { ready: "tenure-playground[data-ready=true]" });
    await tab.evaluate(() => document.querySelector("tenure-playground").runTo(5600));
    assert.equal(await tab.locator("tenure-playground").getByTestId("caption").getAttribute("data-preset"), "gc-pause-fenced", name);
    assert.equal(await tab.locator("tenure-playground").locator("[data-testid^=node-]").count(), 3, name);
    assert.ok((await tab.locator("tenure-playground").getByTestId("timeline").count()) === 1, name);
    // The same one file in compare mode: panes in lock-step and the outcome table.
    const split = await tab.evaluate(async () => {
      const x = document.createElement("tenure-playground");
      x.setAttribute("compare", "raft,bully,lease-fencing");
      x.setAttribute("preset", "partition");
      document.querySelector("main").append(x);
      await x.ready;
      x.compare.seek(9000);
      return x.compare.outcomes()["split-brain"].map((c) => c.value > 0);
    });
    assert.deepEqual(split, [false, true, false], `${name}: compare mode`);
    assert.deepEqual([...tab.errors, ...tab.missing], [], name);
    await screenshot(tab, "embed-static-server");
    await tab.close();
    await server.close();
  }
  // The element bundle does not change what `import "tenure"` loads: it is a separate file.
  const pkg = JSON.parse(readFileSync(join(root, "pkg", "package.json"), "utf8"));
  assert.equal(pkg.exports["./playground"], "./dist/tenure-playground.js");
  assert.ok(pkg.files.includes("dist/tenure-playground.js"));
  assert.doesNotMatch(readFileSync(join(root, "pkg", "browser.js"), "utf8"), /playground/);
});

test("the_iframe_sizes_itself_on_a_host_page", async () => {
  const host = await browser.open("", { ready: "body" });
  const src = new URL("embed.html?preset=gc-pause-fenced", browser.url).href;
  const html = snippet("iframe").replace(/src="[^"]*"/, `src="${src}"`);
  await host.setViewportSize({ width: 720, height: 900 });
  // The host also notes each height the embed posts: the snippet's listener may set the
  // iframe to the height it already had (480 px), so the style alone proves nothing.
  const note = `<script>window.heights = []; addEventListener("message", (e) => e.data?.type === "tenure-playground:height" && heights.push(e.data.height));</script>`;
  await host.setContent(`<!doctype html><html lang="en"><head><title>host</title>${note}</head><body style="margin:0">${html}<p id="after">after</p></body></html>`);
  const frame = host.frameLocator("iframe");
  await frame.locator("body[data-ready=true]").waitFor();
  await host.waitForFunction(() => {
    const f = document.querySelector("iframe");
    const inner = f.contentDocument?.documentElement ?? null;
    return window.heights.length > 0 && (!inner || Math.abs(f.getBoundingClientRect().height - inner.getBoundingClientRect().height) < 2);
  });
  // Everything inside is visible: the stage's bottom and the bar's last button.
  const iframe = await host.locator("iframe").boundingBox();
  const fit = async (sel) => {
    const b = await frame.locator("tenure-playground").locator(sel).first().boundingBox();
    return b.y + b.height <= iframe.y + iframe.height + 0.5;
  };
  for (const sel of [".stage", ".legend", "[data-testid=copy-link]"]) assert.ok(await fit(sel), `${sel} fits in the iframe`);
  const play = await frame.getByTestId("play").boundingBox();
  const copy = await frame.getByTestId("copy-link").boundingBox();
  assert.ok(Math.abs(play.y - copy.y) < 4, "at 720 px the bar is one row (Copy link does not wrap)");
  await screenshot(host, "embed-iframe-host");
  await host.close();
});

test("unknown_attributes_and_values_are_reported_and_a_bad_preset_says_so_in_place", async () => {
  const page = await browser.open("embed.html?preset=nope&controls=bar,caption,sparkles&height=banana&colour=red");
  const warnings = page.warnings.join("\n");
  assert.match(warnings, /unknown parameter "colour" ignored; it takes preset, scenario/);
  assert.match(warnings, /controls="bar,caption,sparkles": unknown "sparkles" ignored; use all, minimal, none, or a comma list of bar, caption/);
  assert.match(warnings, /height="banana" is not a CSS length/);
  assert.match(warnings, /no story named "nope"/);
  const error = page.locator("tenure-playground").getByTestId("error");
  assert.equal(await error.isVisible(), true);
  assert.match(await error.textContent(), /There is no story named "nope"; the stories are gc-pause-fenced, .*clock-drift/);
  // The embed has no story list, so the caption does not point at one.
  assert.doesNotMatch(await page.locator("tenure-playground").getByTestId("caption").textContent(), /story/);
  const el = await browser.open("examples.html");
  await el.evaluate(() => {
    const x = document.createElement("tenure-playground");
    x.setAttribute("presett", "gc-pause-fenced");
    document.body.append(x);
  });
  await el.waitForFunction(() => document.querySelectorAll("tenure-playground[data-ready=true]").length === 3);
  assert.match(el.warnings.join("\n"), /unknown attribute "presett" ignored; it knows preset, scenario/);
  assert.deepEqual([...page.errors, ...el.errors], []);
  await Promise.all([page.close(), el.close()]);
});

/**
 * Adds `<tenure-playground>` with `attrs` at the top of `page` (on screen, so it may play),
 * waits for it to be ready and resolves to a handle on it.
 */
async function addElement(page, attrs) {
  return page.evaluateHandle(async (a) => {
    const x = document.createElement("tenure-playground");
    for (const [k, v] of Object.entries(a)) x.setAttribute(k, v);
    document.body.prepend(x);
    await x.ready;
    return x;
  }, attrs);
}

test("autoplay_false_means_off_as_embedders_write_it", async () => {
  // A new user's trial: autoplay="false" played, since HTML's rule for a boolean attribute is
  // "present means on". Users write "false" meaning off, so it is off (README.md, attributes).
  const page = await browser.open("examples.html");
  const runs = async (attrs) => {
    const el = await addElement(page, { controls: "bar,caption", height: "200px", ...attrs });
    const moved = await page.waitForFunction((x) => x.now > 0, el, { timeout: 1500 }).then(() => true, () => false);
    const state = await el.evaluate((x) => ({ playing: x.dataset.playing, moved: x.now > 0 }));
    await el.evaluate((x) => x.remove());
    return moved && state.playing === "true";
  };
  for (const value of ["", "autoplay", "true", "TRUE"]) assert.equal(await runs({ autoplay: value }), true, `autoplay="${value}" plays`);
  for (const value of ["false", "False", " FALSE ", "off", "no", "0"]) assert.equal(await runs({ autoplay: value }), false, `autoplay="${value}" does not play`);
  assert.equal(await runs({}), false, "no autoplay attribute: no play");
  assert.equal(await runs({ autoplay: "maybe" }), false, "a value neither on nor off does not play");
  assert.match(page.warnings.join("\n"), /autoplay="maybe" is neither on nor off \(autoplay or "true", "false" or no attribute\); not playing/);
  assert.equal(page.warnings.filter((w) => /autoplay="(false|off|no|0)"/i.test(w)).length, 0, "an off value is not warned about");
  // The iframe's page passes the value through.
  const off = await browser.open("embed.html?autoplay=false");
  await off.waitForTimeout(600);
  assert.deepEqual(await off.evaluate(() => [document.querySelector("tenure-playground").now, document.querySelector("tenure-playground").dataset.playing]), [0, "false"]);
  const on = await browser.open("embed.html?autoplay");
  await on.waitForFunction(() => document.querySelector("tenure-playground").now > 0);
  // Compare mode reads it the same way.
  const compareOff = await browser.open("embed.html?compare=raft,bully&autoplay=false");
  await compareOff.waitForTimeout(600);
  assert.deepEqual(await compareOff.evaluate(() => [document.querySelector("tenure-playground").compare.playing, document.querySelector("tenure-playground").compare.now]), [false, 0]);
  const compareOn = await browser.open("embed.html?compare=raft,bully&autoplay=on");
  await compareOn.waitForFunction(() => document.querySelector("tenure-playground").compare.now > 0);
  const tabs = [page, off, on, compareOff, compareOn];
  assert.deepEqual(tabs.flatMap((t) => t.errors), []);
  await Promise.all(tabs.map((t) => t.close()));
});

test("a_refused_scenario_attribute_is_said_and_nothing_autoplays", async () => {
  // A new user's trial: a scenario attribute the simulator refused left free play running
  // (autoplay asked for the embedder's scenario, not this one), the error easy to miss and not
  // in the console. Now the refusal is said in the element and the console, with what is shown
  // instead, and nothing plays.
  for (const [scenario, words] of [
    ["garbage", /^The scenario attribute is not JSON: .*"garbage" is not valid JSON\. Showing free play instead, not playing\.$/],
    [JSON.stringify({ nodes: 3 }), /^The scenario attribute was refused: scenario: the key "version" is required\. Showing free play instead, not playing\.$/],
  ]) {
    const page = await browser.open(`embed.html?autoplay&scenario=${encodeURIComponent(scenario)}`);
    const error = page.locator("tenure-playground").getByTestId("error");
    assert.equal(await error.isVisible(), true, scenario);
    assert.match(await error.textContent(), words);
    assert.ok(page.warnings.some((w) => words.test(w.replace("<tenure-playground> t", "T"))), `in the console: ${page.warnings}`);
    await page.waitForTimeout(600);
    assert.deepEqual(await page.evaluate(() => [document.querySelector("tenure-playground").now, document.querySelector("tenure-playground").dataset.playing]), [0, "false"], scenario);
    assert.equal(await error.isVisible(), true, `${scenario}: the error stays`);
    if (scenario === "garbage") await screenshot(page, "embed-refused-scenario");
    // Set later on a running element: refused, said in both places, the run before it stays.
    const before = page.warnings.length;
    await page.evaluate(() => document.querySelector("tenure-playground").setAttribute("scenario", '{"version":1,"nodes":0}'));
    assert.match(await error.textContent(), /^The scenario attribute was refused: /);
    assert.match(page.warnings.slice(before).join("\n"), /the scenario attribute was refused: /);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
  // An unknown preset is refused the same way.
  const page = await browser.open("embed.html?autoplay&preset=nope");
  await page.waitForTimeout(600);
  assert.equal(await page.evaluate(() => document.querySelector("tenure-playground").now), 0);
  assert.match(await page.locator("tenure-playground").getByTestId("error").textContent(), /no story named "nope".*Showing free play instead, not playing\.$/);
  // So is a compare list or comparison in compare mode: the comparison shown instead stays still.
  const compare = await browser.open("embed.html?autoplay&compare=raft,paxos");
  await compare.waitForTimeout(600);
  assert.match(await compare.locator("tenure-playground").getByTestId("error").textContent(), /unknown algorithm "paxos".*Showing the preset's panes instead/);
  assert.deepEqual(await compare.evaluate(() => [document.querySelector("tenure-playground").compare.playing, document.querySelector("tenure-playground").compare.now]), [false, 0]);
  assert.deepEqual([...page.errors, ...compare.errors], []);
  await Promise.all([page.close(), compare.close()]);
});

test("a_height_out_of_range_is_clamped_and_said_in_the_element", async () => {
  // A new user's trial: height="99999999" made a cluster view 33 million px tall (Chromium's
  // limit). The height is kept from 150 px to 2,400 px, and the element says what it did.
  const page = await browser.open("embed.html?height=99999999");
  const pg = page.locator("tenure-playground");
  const note = pg.getByTestId("height-note");
  const stageHeight = () => pg.locator(".stage").evaluate((s) => Math.round(s.getBoundingClientRect().height));
  assert.equal(await note.isVisible(), true);
  assert.equal(await note.textContent(), `height="99999999" is 99,999,999 px; the cluster's height is 150 px to 2,400 px (e.g. height="360px" or "50vh"). Using 2,400 px.`);
  assert.equal(await stageHeight(), 2400);
  assert.ok(page.warnings.some((w) => w.includes(`height="99999999" is 99,999,999 px`)), "in the console too");
  await screenshot(page, "embed-height-clamped", { clip: { x: 0, y: 0, width: 1280, height: 400 } });
  const set = async (value) => {
    await page.evaluate((v) => document.querySelector("tenure-playground").setAttribute("height", v), value);
    return [await note.isVisible() ? await note.textContent() : null, await stageHeight()];
  };
  assert.deepEqual(await set("1e9"), [`height="1e9" is 1,000,000,000 px; the cluster's height is 150 px to 2,400 px (e.g. height="360px" or "50vh"). Using 2,400 px.`, 2400]);
  assert.deepEqual(await set("9000vh"), [`height="9000vh" is about 64,800 px; the cluster's height is 150 px to 2,400 px (e.g. height="360px" or "50vh"). Using 2,400 px.`, 2400]);
  assert.deepEqual(await set("1in"), [`height="1in" is about 96 px; the cluster's height is 150 px to 2,400 px (e.g. height="360px" or "50vh"). Using 150 px.`, 150]);
  assert.deepEqual(await set("0"), [`height="0" is 0 px; the cluster's height is 150 px to 2,400 px (e.g. height="360px" or "50vh"). Using 150 px.`, 150]);
  assert.match((await set("30%"))[0], /^height="30%" is not a CSS length the element can use; the cluster's height is 150 px to 2,400 px .*Keeping the default height\.$/);
  assert.match((await set("-5px"))[0], /^height="-5px" is not a CSS length the element can use;/);
  // A length only CSS computes here (calc(), em) is clamped by CSS.
  assert.deepEqual(await set("calc(100vh + 9999px)"), [null, 2400]);
  assert.deepEqual(await set("1e5em"), [null, 2400]);
  // In range: as given, and the note goes.
  assert.deepEqual(await set("320px"), [null, 320]);
  assert.deepEqual(await set("50vh"), [null, 360]);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the_readme_lists_every_section_controls_takes", async () => {
  // The README's attribute list had lost the event log, the logs and the space-time diagram;
  // the element's own list is the one its console warning gives.
  const page = await browser.open("embed.html?controls=bar,sparkles");
  const said = /or a comma list of ([a-z, ]+)\./.exec(page.warnings.join("\n"))?.[1].split(", ");
  assert.ok(said?.length > 5, `the warning lists the sections: ${page.warnings}`);
  const attrs = /Attributes: [\s\S]*?`controls` \(`all`, `minimal`, `none`, or a comma list of\s+([\s\S]*?)\), `autoplay`/.exec(README)?.[1];
  assert.ok(attrs, "README.md lists controls' sections");
  assert.deepEqual(attrs.replace(/ \([^)]*\)/g, "").match(/`[a-z]+`/g).map((w) => w.slice(1, -1)), said);
  await page.close();
});
