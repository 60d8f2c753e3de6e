// <tenure-playground>: the animated cluster you can break. Attributes:
//   preset="gc-pause-fenced"    a preset from presets.js
//   scenario='{"version":1,..}' a scenario object as JSON (wins over preset)
//   controls="all"              all | minimal (play bar only) | none, or a comma list of
//                               bar, caption, timeline, safety, presets, setup, faults, info
//   autoplay                    start playing once mounted (and visible)
//   height="420px"              height of the cluster view
//   use-hash                    read the scenario from the page's URL hash (permalink) and
//                               handle space / "." for the whole document
// It pauses while off-screen or while the tab is hidden. Everything it shows comes from the
// wasm Simulation (see model.js); this file wires views and controls to it.
import { networkActions, partitionOf, procActions, linkActions } from "./actions.js";
import { ALGORITHMS, INFO } from "./info.js";
import { Menu } from "./menu.js";
import { loadWasm } from "./model.js";
import { procKey } from "./procs.js";
import { decodeHash, encodeHash } from "./permalink.js";
import { PRESETS, captionAt, presetById } from "./presets.js";
import { ClusterView, fmtMs } from "./render-cluster.js";
import { renderMargin } from "./render-margin.js";
import { SafetyView } from "./render-safety.js";
import { TimelineView } from "./render-timeline.js";
import { KNOBS, buildScenario, defaultKnobs, family, newSeed, setupOf } from "./setup.js";
import { html, setText, svg } from "./svg.js";
import { Timeline } from "./timeline.js";
// Inlined (Vite's ?inline), so the self-contained build needs no stylesheet request.
import css from "./playground.css?inline";

const SECTIONS = ["bar", "caption", "timeline", "safety", "presets", "setup", "faults", "info"];
const SPEED_MIN = -200; // 10^(-2) = 0.01x
const SPEED_MAX = 170; // 10^(1.7) = 50x
const TIMELINE_EVERY_MS = 100;
const FRAME_SAMPLES = 4096;

const DEFAULT_SETUP = { choice: "raft-pv-cq", nodes: 5, seed: 1, knobs: defaultKnobs("raft-pv-cq") };

export class TenurePlayground extends HTMLElement {
  static observedAttributes = ["preset", "scenario", "height", "controls"];

  constructor() {
    super();
    this.attachShadow({ mode: "open" });
    this.playing = false;
    this.onScreen = true;
    this.speed = 0.25;
    this.menuValues = { pauseMs: 3000, offsetMs: 500, driftPct: -30 };
    this.netValues = { loss: 0.2, latencyMin: 5, latencyMax: 30, outageMs: 3000 };
    this.frameTimes = [];
    this.lastTimeline = 0;
    this.error = null;
  }

  connectedCallback() {
    if (this.built) return this.activate();
    this.built = true;
    this.build();
    this.ready = loadWasm().then(() => {
      this.loadInitial();
      this.dataset.ready = "true";
      if (this.hasAttribute("autoplay")) this.play();
      return this;
    });
    this.ready.catch((err) => this.showError(err));
    this.activate();
  }

  disconnectedCallback() {
    this.io?.disconnect();
    this.ro?.disconnect();
    document.removeEventListener("visibilitychange", this.onVisibility);
    if (this.docKeys) document.removeEventListener("keydown", this.docKeys);
    cancelAnimationFrame(this.raf);
    this.raf = 0;
  }

  attributeChangedCallback(name, old, value) {
    if (!this.dataset.ready || old === value) return;
    if (name === "preset" && value) this.loadPreset(value);
    if (name === "scenario" && value) this.load(JSON.parse(value));
    if (name === "height") this.stage.style.height = value ?? "";
  }

  // ----- public API (also used by the tests and the bench) -----

  /** Current simulated time, ms. */
  get now() {
    return this.timeline?.now ?? 0;
  }

  /** The snapshot shown now. */
  snapshot() {
    return this.timeline.model.snapshot();
  }

  /** The scenario with every fault so far. */
  scenario() {
    return this.timeline.scenario();
  }

  play() {
    if (!this.timeline || this.now >= this.endMs) return;
    this.playing = true;
    this.updatePlayButton();
    this.kick();
  }

  pause() {
    this.playing = false;
    this.updatePlayButton();
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  /** Processes one simulation event (pauses first). */
  step() {
    this.pause();
    this.timeline.step();
    this.renderAll(true);
  }

  /** Runs (fast, without animating) to simulated time `ms`, then draws. */
  runTo(ms) {
    this.timeline.advance(Math.min(ms, this.endMs));
    this.renderAll(true);
    return this.now;
  }

  /** Seeks to `ms` (back through checkpoints and replay, or forward). */
  seek(ms) {
    this.timeline.seek(Math.min(ms, this.endMs));
    this.cluster.reset();
    this.renderAll(true);
  }

  /** Applies a fault (the scenario's fault JSON) now. */
  inject(fault) {
    try {
      this.timeline.inject(fault);
      this.showError(null);
    } catch (err) {
      this.showError(err);
    }
    this.renderAll(true);
  }

  /** Loads preset `id` at time 0. */
  loadPreset(id) {
    const preset = presetById(id);
    if (!preset) return this.showError(new RangeError(`no preset named ${JSON.stringify(id)}`));
    this.setSpeed(preset.speed);
    this.load(preset.scenario, { preset });
  }

  /** The permalink for the current moment: this page's URL with the scenario in the hash. */
  permalink() {
    const hash = encodeHash({ scenario: this.scenario(), timeMs: this.now, preset: this.preset?.id });
    const base = this.getAttribute("link-base") ?? (this.hasAttribute("use-hash") ? location.href.split("#")[0] : new URL("./index.html", location.href).href);
    return base + hash;
  }

  /** Script time per animation frame so far, ms (for `npm run bench`). */
  frameStats() {
    return [...this.frameTimes];
  }

  // ----- loading -----

  loadInitial() {
    // A link or attribute that cannot be used still leaves a working playground (the
    // default run), and says what was wrong instead of ignoring it.
    let problem = null;
    if (this.hasAttribute("use-hash") && location.hash.includes("s=")) {
      try {
        const link = decodeHash(location.hash);
        if (link) {
          const preset = link.preset ? presetById(link.preset) : undefined;
          if (preset) this.setSpeed(preset.speed);
          return this.load(link.scenario, { preset, timeMs: link.timeMs });
        }
      } catch (err) {
        problem = err;
      }
    }
    const scenarioAttr = this.getAttribute("scenario");
    if (scenarioAttr && !problem) {
      try {
        return this.load(JSON.parse(scenarioAttr));
      } catch (err) {
        problem = new TypeError(`the scenario attribute is not JSON: ${err.message}`);
      }
    }
    const presetAttr = this.getAttribute("preset");
    if (presetAttr && !problem) {
      if (presetById(presetAttr)) return this.loadPreset(presetAttr);
      problem = new RangeError(`no preset named ${JSON.stringify(presetAttr)}`);
    }
    this.load(buildScenario(DEFAULT_SETUP));
    if (problem) this.showError(problem);
  }

  /** Replaces the run with `scenario` at time `timeMs` (0 by default). */
  load(scenario, { preset, timeMs = 0 } = {}) {
    let timeline;
    try {
      timeline = new Timeline(scenario);
    } catch (err) {
      return this.showError(err);
    }
    this.pause();
    this.timeline?.free();
    this.timeline = timeline;
    this.preset = preset;
    this.endMs = Number(scenario.duration_ms);
    this.setup = setupOf(scenario);
    this.cluster.reset();
    this.syncSetupControls();
    this.showError(null);
    if (timeMs > 0) this.timeline.advance(Math.min(timeMs, this.endMs));
    this.renderAll(true);
  }

  restart(seed) {
    if (this.preset && seed === undefined) return this.loadPreset(this.preset.id);
    const s = this.setup ?? DEFAULT_SETUP;
    this.load(buildScenario({ ...s, seed: seed ?? s.seed, durationMs: this.preset ? this.endMs : undefined }));
  }

  /** Restarts free play from the setup controls' values. */
  applySetup() {
    const s = this.readSetupControls();
    this.load(buildScenario(s));
  }

  // ----- the loop -----

  /** Starts the animation loop if it should run and is not running. */
  kick() {
    if (this.raf || !this.playing || !this.isActive()) return;
    this.lastTs = undefined;
    this.raf = requestAnimationFrame((ts) => this.frame(ts));
  }

  isActive() {
    return this.isConnected && this.onScreen && document.visibilityState !== "hidden";
  }

  frame(ts) {
    this.raf = 0;
    if (!this.playing || !this.isActive()) return;
    const t0 = performance.now();
    const dt = this.lastTs === undefined ? 0 : Math.min(100, ts - this.lastTs);
    this.lastTs = ts;
    const target = Math.min(this.endMs, this.now + dt * this.speed);
    this.timeline.advance(target);
    if (this.now >= this.endMs) this.pause();
    this.renderAll(false);
    this.frameTimes.push(performance.now() - t0);
    if (this.frameTimes.length > FRAME_SAMPLES) this.frameTimes.shift();
    if (this.playing) this.raf = requestAnimationFrame((t) => this.frame(t));
  }

  /** Watches visibility: pauses the loop off-screen or in a hidden tab (convention 17). */
  activate() {
    this.io ??= new IntersectionObserver((entries) => {
      this.onScreen = entries.some((e) => e.isIntersecting);
      this.dataset.active = String(this.isActive());
      this.kick();
    });
    this.io.observe(this);
    // The timeline is drawn to its measured width: redraw when that changes (a window
    // resize, or the stylesheet arriving after the first draw).
    this.ro ??= new ResizeObserver(() => requestAnimationFrame(() => this.renderAll(true)));
    this.ro.observe(this.timelineSvg);
    this.onVisibility ??= () => {
      this.dataset.active = String(this.isActive());
      this.kick();
    };
    document.addEventListener("visibilitychange", this.onVisibility);
    if (this.hasAttribute("use-hash")) {
      this.docKeys ??= (e) => this.onKey(e);
      document.addEventListener("keydown", this.docKeys);
    }
  }

  onKey(e) {
    const tag = (e.composedPath?.()[0] ?? e.target)?.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === " ") {
      e.preventDefault();
      e.stopPropagation();
      this.toggle();
    } else if (e.key === ".") {
      e.preventDefault();
      e.stopPropagation();
      this.step();
    } else if (e.key === "Escape") {
      this.menu.close();
    }
  }

  // ----- drawing -----

  renderAll(force) {
    if (!this.timeline) return;
    const snap = this.timeline.model.snapshot();
    const config = this.timeline.scenario().config ?? {};
    this.cluster.render(snap, config);
    this.safety.render(snap);
    setText(this.timeEl, `${fmtMs(snap.time_ms)}${this.endMs < 3_600_000 ? ` / ${fmtMs(this.endMs)}` : ""}`);
    this.timeEl.dataset.ms = String(snap.time_ms);
    const caption = this.preset ? captionAt(this.preset, snap.time_ms) : "";
    setText(this.captionEl, caption || freePlayCaption(snap));
    this.captionEl.dataset.preset = this.preset?.id ?? "";
    const wall = performance.now();
    if (force || wall - this.lastTimeline > TIMELINE_EVERY_MS) {
      this.lastTimeline = wall;
      const keys = snap.nodes.map((n) => procKey(n.id)).filter((k) => k.startsWith("n"));
      const span = this.endMs < 3_600_000 ? this.endMs : Math.max(10_000, Math.ceil(this.timeline.furthest / 10_000) * 10_000);
      if (!this.timelineSvg.hasAttribute("hidden")) this.timelineView.render(this.timeline.display, keys, snap.time_ms, span, snap.store != null);
    }
  }

  showError(err) {
    this.error = err;
    if (!this.errorEl) return;
    this.errorEl.hidden = !err;
    setText(this.errorEl, err ? `${err.name ?? "Error"}${err.code ? ` ${err.code}` : ""}: ${err.message}` : "");
  }

  updatePlayButton() {
    if (!this.playBtn) return;
    setText(this.playBtn, this.playing ? "❚❚ Pause" : "▶ Play");
    this.playBtn.setAttribute("aria-pressed", String(this.playing));
    this.dataset.playing = String(this.playing);
  }

  setSpeed(speed) {
    this.speed = speed;
    if (this.speedInput) this.speedInput.value = String(Math.round(Math.log10(speed) * 100));
    if (this.speedLabel) setText(this.speedLabel, fmtSpeed(speed));
  }

  // ----- building the DOM -----

  sections() {
    const attr = (this.getAttribute("controls") ?? "all").trim();
    if (attr === "all") return new Set(SECTIONS);
    if (attr === "minimal") return new Set(["bar", "caption"]);
    if (attr === "none") return new Set(["caption"]);
    return new Set(attr.split(",").map((s) => s.trim()));
  }

  build() {
    const show = this.sections();
    const root = this.shadowRoot;
    const link = html("style", { text: css });
    this.errorEl = html("p", { class: "error", role: "alert", "data-testid": "error", hidden: true });
    this.captionEl = html("p", { class: "caption", "data-testid": "caption", "aria-live": "polite" });
    const clusterSvg = svg("svg", { class: "cluster" });
    this.stage = html("div", { class: "stage" }, clusterSvg);
    if (this.hasAttribute("height")) this.stage.style.height = this.getAttribute("height");
    this.menu = new Menu(this.stage);
    this.cluster = new ClusterView(clusterSvg, {
      onProcClick: (key, e) => this.openProcMenu(key, e),
      onLinkClick: (a, b, e) => this.menu.open(e, `Link ${a} ↔ ${b}`, () => linkActions(a, b, (f) => this.inject(f))),
      onDrawLine: (sides) => this.inject(partitionOf(sides)),
    });
    this.timelineSvg = svg("svg", { class: "timeline" });
    // An SVG element has no `hidden` property (that is HTMLElement's): set the attribute.
    this.timelineSvg.toggleAttribute("hidden", !show.has("timeline"));
    this.timelineView = new TimelineView(this.timelineSvg, { onSeek: (ms) => this.seekSoon(ms) });
    const main = html("div", { class: "main" }, this.captionEl, this.stage, legend(), this.timelineSvg);
    if (!show.has("caption")) this.captionEl.hidden = true;
    const side = html("aside", { class: "side" });
    this.safetyEl = html("section", { class: "panel safety" });
    this.safety = new SafetyView(this.safetyEl);
    if (show.has("safety")) side.append(this.safetyEl);
    if (show.has("presets")) side.append(this.buildPresets());
    const below = html("div", { class: "below" });
    if (show.has("setup")) below.append(this.buildSetup());
    if (show.has("faults")) below.append(this.buildFaults());
    if (show.has("info")) below.append(this.buildInfo());
    if (below.childElementCount) main.append(below);
    const layout = html("div", { class: `layout${side.childElementCount ? "" : " no-side"}` }, main);
    if (side.childElementCount) layout.append(side);
    const bar = this.buildBar(show.has("bar"));
    root.replaceChildren(link, html("div", { class: "pg" }, bar, this.errorEl, layout));
    this.setAttribute("tabindex", this.getAttribute("tabindex") ?? "0");
    if (!this.hasAttribute("use-hash")) this.addEventListener("keydown", (e) => this.onKey(e));
    root.addEventListener("pointerdown", (e) => {
      if (this.menu.isOpen && !e.composedPath().includes(this.menu.el)) this.menu.close();
    });
  }

  seekSoon(ms) {
    this.pendingSeek = ms;
    if (this.seekRaf) return;
    this.seekRaf = requestAnimationFrame(() => {
      this.seekRaf = 0;
      this.pause();
      this.seek(this.pendingSeek);
    });
  }

  openProcMenu(key, e) {
    const snap = this.snapshot();
    const node = snap.nodes.find((n) => procKey(n.id) === key);
    const lease = snap.store != null;
    const v = this.menuValues;
    const fields = key === "resource" ? [["pause-ms", "ms", v.pauseMs, (x) => (v.pauseMs = x)]] : [
      ["pause-ms", "pause / outage ms", v.pauseMs, (x) => (v.pauseMs = x)],
      ["offset-ms", "clock step ms", v.offsetMs, (x) => (v.offsetMs = x)],
      ...(key.startsWith("n") ? [["drift-pct", "drift %", v.driftPct, (x) => (v.driftPct = x)]] : []),
    ];
    const title = key.startsWith("n") ? `${key}: ${node?.role ?? ""} (${node?.status ?? ""})` : key;
    this.menu.open(e, title, () => procActions(key, node, v, lease, (f) => this.inject(f)), fields);
  }

  buildBar(visible) {
    this.playBtn = html("button", { type: "button", class: "primary", "data-testid": "play", onclick: () => this.toggle(), title: "Play / pause (space)" });
    const stepBtn = html("button", { type: "button", "data-testid": "step", onclick: () => this.step(), title: "Process one event (.)", text: "Step" });
    this.speedInput = html("input", {
      type: "range", min: SPEED_MIN, max: SPEED_MAX, step: 1, "data-testid": "speed", "aria-label": "speed",
      oninput: (e) => this.setSpeed(10 ** (Number(e.target.value) / 100)),
    });
    this.speedLabel = html("output", { class: "speed-label", "data-testid": "speed-label" });
    this.timeEl = html("span", { class: "time", "data-testid": "time" });
    const restart = html("button", { type: "button", "data-testid": "restart", onclick: () => this.restart(), text: "↺ Restart", title: "Restart with the same seed" });
    const copy = html("button", { type: "button", "data-testid": "copy-link", onclick: () => this.copyLink(), text: "Copy link" });
    this.linkOut = html("input", { class: "link-out", readonly: true, "data-testid": "permalink-url", "aria-label": "permalink", hidden: true });
    const bar = html("div", { class: "bar", role: "toolbar", "aria-label": "playback" },
      this.playBtn, stepBtn, html("label", { class: "speed" }, "speed", this.speedInput, this.speedLabel), this.timeEl, restart, copy, this.linkOut);
    if (!visible) bar.hidden = true;
    this.updatePlayButton();
    this.setSpeed(this.speed);
    return bar;
  }

  async copyLink() {
    const url = this.permalink();
    if (this.hasAttribute("use-hash")) history.replaceState(null, "", url);
    this.linkOut.value = url;
    this.linkOut.hidden = false;
    this.linkOut.select();
    try {
      await navigator.clipboard.writeText(url);
      this.linkOut.title = "copied to the clipboard";
    } catch {
      this.linkOut.title = "select and copy this link";
    }
  }

  /** Plays story `id` from the start, bringing the cluster into view (on a phone the story
   * list sits far below it). */
  startStory(id) {
    this.loadPreset(id);
    this.play();
    if (this.stage.getBoundingClientRect().top < 0) this.stage.scrollIntoView({ block: "start" });
  }

  buildPresets() {
    const items = PRESETS.map((p) =>
      html("li", {}, html("button", { type: "button", "data-testid": `preset-${p.id}`, onclick: () => this.startStory(p.id) },
        html("strong", { text: p.title }), html("small", { text: p.source }))));
    return html("section", { class: "panel presets" }, html("h2", { text: "Stories" }), html("ul", {}, ...items));
  }

  buildSetup() {
    this.algoSelect = html("select", { "data-testid": "algorithm", onchange: () => this.onAlgorithmChange() },
      ...ALGORITHMS.map(([v, label]) => html("option", { value: v, text: label })));
    this.nodesInput = html("input", { type: "range", min: 3, max: 9, step: 1, "data-testid": "nodes", onchange: () => this.applySetup(), oninput: (e) => setText(this.nodesOut, e.target.value) });
    this.nodesOut = html("output", {});
    this.seedInput = html("input", { type: "number", min: 0, step: 1, "data-testid": "seed", onchange: () => this.applySetup() });
    this.knobBox = html("div", { class: "knobs" });
    this.marginBox = html("div", { class: "margin", "data-testid": "margin-diagram" });
    const newSeedBtn = html("button", { type: "button", "data-testid": "restart-new-seed", text: "New seed", onclick: () => { this.seedInput.value = String(newSeed()); this.applySetup(); } });
    return html("section", { class: "panel setup" }, html("h2", { text: "Setup" }),
      html("label", {}, "Algorithm", this.algoSelect),
      html("label", {}, "Nodes ", this.nodesOut, this.nodesInput),
      html("div", { class: "row" }, html("label", {}, "Seed", this.seedInput), newSeedBtn),
      this.knobBox, this.marginBox);
  }

  onAlgorithmChange() {
    this.setup = { ...this.readSetupControls(), knobs: defaultKnobs(this.algoSelect.value) };
    this.load(buildScenario(this.setup));
  }

  syncSetupControls() {
    const s = this.setup;
    if (this.infoEl) this.renderInfo(s.choice);
    if (!this.algoSelect) return;
    this.algoSelect.value = s.choice;
    this.nodesInput.value = String(s.nodes);
    setText(this.nodesOut, String(s.nodes));
    this.seedInput.value = String(s.seed);
    this.knobBox.replaceChildren(...KNOBS[family(s.choice)].map(([k, label, min, max, step]) =>
      html("label", {}, label, html("input", { type: "number", min, max, step, value: s.knobs[k], "data-testid": `knob-${k}`, "data-knob": k, onchange: () => this.applySetup() }))));
    this.renderMarginDiagram();
    if (this.storeOutageBtn) this.storeOutageBtn.hidden = family(s.choice) !== "lease";
  }

  readSetupControls() {
    const knobs = {};
    for (const input of this.knobBox.querySelectorAll("input[data-knob]")) knobs[input.dataset.knob] = Number(input.value);
    const choice = this.algoSelect.value;
    return { choice, nodes: Number(this.nodesInput.value), seed: Number(this.seedInput.value), knobs };
  }

  renderMarginDiagram() {
    const s = this.setup;
    this.marginBox.hidden = family(s.choice) !== "lease";
    if (this.marginBox.hidden) return;
    const lat = this.timeline?.scenario().network?.latency_ms ?? [5, 30];
    renderMargin(this.marginBox, {
      ttl: s.knobs.ttl_ms, margin: s.knobs.safety_margin_ms, renew: s.knobs.renew_interval_ms,
      rtt: 2 * Number(lat[1]), driftPpm: s.knobs.max_drift_ppm,
    });
  }

  buildFaults() {
    const v = this.netValues;
    const slider = (key, label, min, max, step, fmt) => {
      const out = html("output", { text: fmt(v[key]) });
      return html("label", {}, label, " ", out, html("input", {
        type: "range", min, max, step, value: v[key], "data-testid": `net-${key}`,
        oninput: (e) => { v[key] = Number(e.target.value); setText(out, fmt(v[key])); },
      }));
    };
    const run = (testid) => () => {
      const snap = this.snapshot();
      const table = networkActions(snap.nodes.map((n) => procKey(n.id)), v, snap.store != null, (f) => this.inject(f));
      table.find(([, , o]) => o.testid === testid)?.[1]();
    };
    this.storeOutageBtn = html("button", { type: "button", "data-testid": "action-outage", onclick: run("action-outage"), text: "Store outage" });
    return html("section", { class: "panel faults" }, html("h2", { text: "Break it" }),
      html("p", { class: "hint", text: "Click a node, the store or a link for faults. Drag a line across the cluster to split the network in two." }),
      slider("loss", "Loss", 0, 1, 0.05, (x) => `${Math.round(x * 100)}%`),
      html("button", { type: "button", "data-testid": "action-loss", onclick: run("action-loss"), text: "Apply loss" }),
      slider("latencyMax", "Max latency", 1, 2000, 1, (x) => `${x} ms`),
      html("button", { type: "button", "data-testid": "action-latency", onclick: run("action-latency"), text: "Apply latency" }),
      slider("outageMs", "Outage", 100, 10000, 100, (x) => `${x} ms`),
      html("div", { class: "row" }, this.storeOutageBtn,
        html("button", { type: "button", "data-testid": "action-heal-all", onclick: run("action-heal-all"), text: "Heal all" })));
  }

  buildInfo() {
    this.infoEl = html("section", { class: "panel info", "data-testid": "info" });
    return this.infoEl;
  }

  renderInfo(choice) {
    const info = INFO[choice];
    const name = ALGORITHMS.find(([v]) => v === choice)?.[1] ?? choice;
    this.infoEl.replaceChildren(html("h2", { text: `About: ${name}` }),
      html("h3", { text: "Promises" }), html("p", { text: info.promises }),
      html("h3", { text: "Does not promise" }), html("p", { text: info.not }),
      html("h3", { text: "Choose it" }), html("p", { text: info.choose }));
  }
}

function legend() {
  const item = (cls, text) => html("li", { class: cls }, html("span", { class: "swatch", "aria-hidden": "true" }), text);
  return html("ul", { class: "legend", "aria-label": "legend" },
    item("l-leader", "★ leader"), item("l-candidate", "candidate"), item("l-follower", "follower"),
    item("l-paused", "paused"), item("l-crashed", "crashed"),
    item("l-vote", "vote"), item("l-beat", "heartbeat"), item("l-store", "lease"), item("l-write", "write"),
    item("l-resp", "reply"), item("l-cut", "cut link"));
}

function freePlayCaption(snap) {
  const leaders = snap.nodes.filter((n) => (n.role === "Leader" || n.role === "Coordinator") && n.status === "up");
  if (leaders.length === 0) return "No leader right now. Click a node to break it, or pick a story.";
  if (leaders.length > 1) return `${leaders.length} nodes act as leader at once: split brain.`;
  return `n${leaders[0].id} leads. Click it to crash or pause it, or drag a line across the ring to partition.`;
}

function fmtSpeed(s) {
  return s >= 1 ? `${s.toFixed(s >= 10 ? 0 : 1)}×` : `${s.toPrecision(2)}×`;
}

customElements.define("tenure-playground", TenurePlayground);
