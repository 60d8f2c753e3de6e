// Compare mode: two to four panes, each an (algorithm, config) pair over the same world
// (nodes, seed, network), running one fault schedule in lock-step on one clock. A fault
// injected in any pane (its node menu, a drawn partition) or from the shared bar is injected
// in all, mapped by node index (compare-faults.js); one that means nothing for a pane is
// listed as skipped there. One play bar, one timeline, one outcome table.
//
// Each pane is a Timeline (timeline.js) drawn by the single playground's ClusterView; this
// file only keeps their clocks together and the schedule.
import { linkActions, partitionOf, procActions } from "./actions.js";
import { mapFault } from "./compare-faults.js";
import { decodeCompareHash, encodeCompareHash } from "./compare-link.js";
import { COMPARE_PRESETS, comparePresetById } from "./compare-presets.js";
import { OutcomeTable } from "./compare-table.js";
import { CompareTimelineView } from "./compare-timeline.js";
import { faultLabel } from "./history.js";
import { ALGORITHMS } from "./info.js";
import { Menu } from "./menu.js";
import { procKey } from "./procs.js";
import { ClusterView, fmtMs } from "./render-cluster.js";
import { parseField } from "./fields.js";
import { buildScenario, family, KNOBS, startKnobs } from "./setup.js";
import { html, setText, svg } from "./svg.js";
import { Timeline } from "./timeline.js";

export const CHOICES = ALGORITHMS.map(([v]) => v);
const LABELS = Object.fromEntries(ALGORITHMS);
const SPEEDS = [[0.1, "0.1×"], [0.25, "0.25×"], [0.5, "0.5×"], [1, "1×"], [2, "2×"], [5, "5×"]];
const FREE_MS = 20_000;

/**
 * Reads a `compare` list ("raft,bully,lease-fencing"): 2 to 4 known choices. Returns
 * `{ panes }` or `{ error }` in words.
 */
export function parseCompareList(text) {
  const names = String(text ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !CHOICES.includes(n));
  if (unknown.length) return { error: `unknown algorithm${unknown.length > 1 ? "s" : ""} ${unknown.map((u) => `"${u}"`).join(", ")} in compare; choose from ${CHOICES.join(", ")}` };
  if (names.length < 2 || names.length > 4) return { error: `compare takes 2 to 4 algorithms, not ${names.length}` };
  return { panes: names };
}

/** The spec of a preset (or free play over `panes`): what a link stores, minus the time. */
export function specOf(presetId, panes) {
  const p = comparePresetById(presetId);
  if (p) return { version: 1, preset: p.id, panes: (panes ?? p.panes).map((choice) => ({ choice })), nodes: p.nodes, seed: p.seed, duration_ms: p.durationMs, network: p.network, added: [] };
  return { version: 1, preset: null, panes: (panes ?? ["raft-pv-cq", "bully"]).map((choice) => ({ choice })), nodes: 5, seed: 1, duration_ms: FREE_MS, network: { latency_ms: [5, 30] }, added: [] };
}

export class CompareMode {
  /**
   * @param {ShadowRoot|HTMLElement} root where to build
   * @param {{ linkBase?: string, useHash?: boolean, reducedMotion?: boolean, onError?: Function }} opts
   */
  constructor(root, opts = {}) {
    this.root = root;
    this.opts = opts;
    this.panes = [];
    this.playing = false;
    this.speed = 0.25;
    this.raf = 0;
    this.build();
  }

  // ----- public API (tests) -----

  /** The shared simulated time, ms. */
  get now() {
    return this.panes[0]?.timeline.now ?? 0;
  }

  /** Every pane's simulated time, ms (equal in lock-step). */
  times() {
    return this.panes.map((p) => p.timeline.now);
  }

  /** Every pane's snapshot now. */
  snapshots() {
    return this.panes.map((p) => p.timeline.model.snapshot());
  }

  /**
   * The outcome table as shown: `{ [rowId]: [{ text, value, worst }] }`, one per pane
   * (`value` null where the outcome does not apply).
   */
  outcomes() {
    const out = {};
    for (const tr of this.tableEl.querySelectorAll("tbody tr")) {
      out[tr.dataset.row] = [...tr.querySelectorAll("td")].map((td) => ({ text: td.textContent, value: td.dataset.value === "" ? null : Number(td.dataset.value), worst: td.dataset.worst === "true" }));
    }
    return out;
  }

  /** Loads a spec (see `specOf`) at `timeMs`. */
  load(spec, timeMs = 0) {
    this.pause();
    for (const p of this.panes) p.timeline.free();
    this.spec = structuredClone(spec);
    const preset = comparePresetById(spec.preset);
    /** Every fault of the run: the preset's, then those the user added, by time. */
    this.schedule = [
      ...(preset?.schedule ?? []).map(([at_ms, fault]) => ({ at_ms, fault, user: false })),
      ...(spec.added ?? []).map((f) => ({ at_ms: Number(f.at_ms), fault: f.fault, user: true })),
    ].sort((a, b) => a.at_ms - b.at_ms);
    for (const s of this.schedule) s.applied = false;
    this.endMs = Number(spec.duration_ms);
    this.panes = spec.panes.map((p, i) => this.makePane(p, i));
    this.layoutPanes();
    this.presetSelect.value = spec.preset ?? "";
    setText(this.blurbEl, preset ? preset.blurb : "Free play: inject faults from the bar or click a node in any pane.");
    this.seekInput.max = String(this.endMs);
    this.advance(Math.min(timeMs, this.endMs));
    this.renderAll(true);
  }

  loadPreset(id, panes) {
    this.load(specOf(id, panes));
  }

  play() {
    if (this.now >= this.endMs) this.seek(0);
    this.playing = true;
    this.updatePlay();
    this.kick();
  }

  pause() {
    this.playing = false;
    this.updatePlay?.();
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  /** Runs every pane to `ms`, injecting the schedule's faults at their instants. */
  advance(ms) {
    const target = Math.min(ms, this.endMs);
    for (const item of this.schedule) {
      if (item.applied || item.at_ms > target) continue;
      for (const p of this.panes) p.timeline.advance(item.at_ms);
      this.applyItem(item);
    }
    for (const p of this.panes) p.timeline.advance(target);
  }

  /** Every pane to the next event of any pane (one event of the whole comparison). */
  step() {
    this.pause();
    const next = Math.min(...this.panes.map((p) => p.timeline.model.sim.nextEventMs ?? Infinity));
    if (Number.isFinite(next)) this.advance(next);
    this.renderAll(true);
  }

  /** Every pane to `ms`: back through checkpoints and replay, or forward. */
  seek(ms) {
    const t = Math.max(0, Math.min(ms, this.endMs));
    if (t < this.now) for (const p of this.panes) p.timeline.seek(t);
    this.advance(t);
    for (const p of this.panes) p.cluster.reset();
    this.renderAll(true);
  }

  /** Injects `fault` (node indexes, "store", "resource" or "leader") in every pane now. */
  inject(fault) {
    const now = this.now;
    // A fault in the past forks the run: faults added after now are dropped, as in the
    // single playground, and the preset's later faults are applied again when reached.
    this.schedule = this.schedule.filter((s) => !(s.user && s.at_ms > now));
    for (const s of this.schedule) if (s.at_ms > now) s.applied = false;
    const item = { at_ms: now, fault, user: true, applied: false };
    this.schedule.push(item);
    this.schedule.sort((a, b) => a.at_ms - b.at_ms);
    this.applyItem(item);
    this.renderAll(true);
  }

  /** The comparison's spec now, with the faults the user added. */
  currentSpec() {
    return { ...this.spec, panes: this.panes.map((p) => (Object.keys(p.knobs).length ? { choice: p.choice, knobs: { ...p.knobs } } : { choice: p.choice })), added: this.schedule.filter((s) => s.user).map((s) => ({ at_ms: s.at_ms, fault: s.fault })) };
  }

  /** The permalink for this comparison at this moment. */
  permalink() {
    const base = this.opts.linkBase ?? location.href.split("#")[0];
    return base + encodeCompareHash(this.currentSpec(), this.now);
  }

  /** Opens a link's hash; returns whether it held a comparison. */
  openHash(hash) {
    const link = decodeCompareHash(hash);
    if (!link) return false;
    this.load(link.spec, link.timeMs);
    return true;
  }

  // ----- internals -----

  applyItem(item) {
    item.applied = true;
    const label = faultLabel(item.fault).replace(/\bnleader\b/g, "the leader");
    for (const p of this.panes) {
      // A pane remembers what it skipped once per schedule item (a replay reapplies nothing).
      p.skipped = p.skipped.filter((k) => k.item !== item);
      const m = mapFault(item.fault, p.timeline.model.snapshot());
      if (m.skip) {
        p.skipped.push({ item, label: `${label} at ${fmtMs(item.at_ms)}: ${m.skip}` });
        continue;
      }
      try {
        p.timeline.inject(m.fault);
      } catch (err) {
        p.skipped.push({ item, label: `${label} at ${fmtMs(item.at_ms)}: ${err.message}` });
      }
    }
  }

  makePane(p, i) {
    const choice = p.choice;
    const knobs = { ...startKnobs(choice), ...(p.knobs ?? {}) };
    const build = (k) => new Timeline(buildScenario({ choice, nodes: this.spec.nodes, seed: this.spec.seed, knobs: k, durationMs: this.endMs, network: this.spec.network }));
    let timeline;
    let problem = null;
    try {
      timeline = build(knobs);
    } catch (err) {
      // A link with knobs the simulator refuses still opens: the pane runs the defaults and
      // says why.
      problem = `${err.message}; this pane runs the default config instead.`;
      timeline = build(startKnobs(choice));
      p.knobs = undefined;
    }
    // The narration says "your fault" only for the faults the user added, not the preset's.
    timeline.ctx.userFault = (ev) => this.schedule.some((s) => s.user && Math.abs(s.at_ms - ev.time_ms) < 1e-3 && s.fault.type === ev.fault.type);
    const clusterSvg = svg("svg", { class: "cluster" });
    const stage = html("div", { class: "stage" }, clusterSvg);
    const pane = { choice, label: LABELS[choice] ?? choice, timeline, skipped: [], index: i };
    pane.cluster = new ClusterView(clusterSvg, {
      onProcClick: (key, anchor, k) => this.openProcMenu(pane, key, anchor, k),
      onLinkClick: (a, b, at, el, k) => this.menu.open(at, `Link ${a} ↔ ${b} (all panes)`, () => linkActions(a, b, (f) => this.inject(f)), [], { invoker: el, key: k }),
      onDrawLine: (sides) => this.inject(partitionOf(sides)),
    });
    pane.cluster.reducedMotion = this.opts.reducedMotion;
    clusterSvg.setAttribute("data-testid", `cluster-${i}`);
    const select = html("select", { "data-testid": `pane-algorithm-${i}`, "aria-label": `Pane ${i + 1} algorithm`, onchange: (e) => this.setPane(i, e.target.value) },
      ...ALGORITHMS.map(([v, label]) => html("option", { value: v, text: label, selected: v === choice })));
    const remove = html("button", { type: "button", class: "pane-remove", "data-testid": `pane-remove-${i}`, text: "✕", "aria-label": `Remove pane ${i + 1} (${pane.label})`, title: "Remove this pane", onclick: () => this.removePane(i) });
    pane.caption = html("p", { class: "pane-caption", "data-testid": `pane-caption-${i}` });
    pane.skippedEl = html("p", { class: "pane-skipped", "data-testid": `pane-skipped-${i}`, hidden: true });
    pane.knobs = p.knobs ?? {};
    const problemEl = html("p", { class: "field-error", "data-testid": `pane-config-error-${i}`, hidden: !problem, text: problem ?? "" });
    // The fields show what the pane runs with: the simulator's effective config (its defaults
    // filled in), the pane's own knobs included.
    const config = this.buildConfig(pane, i, { ...timeline.effective, ...(problem ? startKnobs(choice) : knobs) }, problemEl);
    pane.el = html("section", { class: "pane", "data-testid": `pane-${i}`, "aria-label": `Pane ${i + 1}: ${pane.label}` },
      html("div", { class: "pane-head" }, select, remove), config, problemEl, stage, pane.caption, pane.skippedEl);
    return pane;
  }

  /** A pane's config: its algorithm's timing knobs; a change reloads every pane at this moment. */
  buildConfig(pane, i, knobs, problemEl) {
    const fam = family(pane.choice);
    const inputs = KNOBS[fam].map(([k, label, min, max, , unit]) => {
      const input = html("input", { type: "text", inputmode: "decimal", value: knobs[k], "data-testid": `pane-knob-${i}-${k}`, "aria-label": `Pane ${i + 1}: ${label}` });
      input.addEventListener("change", () => {
        const r = parseField(input.value, { label: label.replace(/\s*\(.*$/, ""), unit, min, max });
        input.toggleAttribute("aria-invalid", Boolean(r.error));
        problemEl.hidden = !r.error;
        problemEl.textContent = r.error ?? "";
        if (r.error) return;
        const spec = this.currentSpec();
        spec.panes[i] = { choice: pane.choice, knobs: { ...pane.knobs, [k]: r.value } };
        this.load(spec, this.now);
      });
      return html("label", {}, html("span", { text: label }), input);
    });
    const changed = Object.keys(pane.knobs).length;
    return html("details", { class: "pane-config" }, html("summary", { text: changed ? `Config (${changed} changed)` : "Config" }), ...inputs);
  }

  layoutPanes() {
    this.paneBox.replaceChildren(...this.panes.map((p) => p.el));
    this.paneBox.dataset.count = String(this.panes.length);
    for (const p of this.panes) p.el.querySelector(".pane-remove").disabled = this.panes.length <= 2;
    this.addBtn.disabled = this.panes.length >= 4;
  }

  setPane(i, choice) {
    const spec = this.currentSpec();
    spec.panes[i] = { choice };
    this.load(spec, this.now);
  }

  removePane(i) {
    if (this.panes.length <= 2) return;
    const spec = this.currentSpec();
    spec.panes.splice(i, 1);
    this.load(spec, this.now);
  }

  addPane() {
    if (this.panes.length >= 4) return;
    const spec = this.currentSpec();
    const used = new Set(spec.panes.map((p) => p.choice));
    spec.panes.push({ choice: CHOICES.find((c) => !used.has(c)) ?? "raft" });
    this.load(spec, this.now);
  }

  openProcMenu(pane, key, anchor, openedBy) {
    const snap = pane.timeline.model.snapshot();
    const node = snap.nodes.find((n) => procKey(n.id) === key);
    const values = this.menuValues;
    const rows = () => procActions(key, node, values, snap.store != null, (f) => this.inject(f));
    this.menu.open(anchor, `${key} in every pane`, rows, [["pauseMs", "pause (ms)", values.pauseMs, (v) => (values.pauseMs = v), { unit: "ms", min: 1, max: 60000 }]], { invoker: anchor instanceof Element ? anchor : undefined, key: openedBy });
  }

  kick() {
    if (this.raf || !this.playing) return;
    this.lastTs = undefined;
    this.raf = requestAnimationFrame((ts) => this.frame(ts));
  }

  frame(ts) {
    this.raf = 0;
    if (!this.playing) return;
    const dt = this.lastTs === undefined ? 0 : Math.min(100, ts - this.lastTs);
    this.lastTs = ts;
    this.advance(Math.min(this.endMs, this.now + dt * this.speed));
    if (this.now >= this.endMs) this.pause();
    this.renderAll(!this.playing);
    if (this.playing) this.raf = requestAnimationFrame((t) => this.frame(t));
  }

  stop() {
    cancelAnimationFrame(this.raf);
    this.raf = 0;
    this.playing = false;
  }

  renderAll(force) {
    if (!this.panes.length) return;
    const snaps = this.snapshots();
    this.panes.forEach((p, i) => {
      const snap = snaps[i];
      p.cluster.render(snap, { sticky: p.timeline.display.writes.findLast((w) => w.time <= snap.time_ms + 1e-6) });
      const line = p.timeline.display.live.findLast((l) => l.time <= snap.time_ms + 1e-6)?.text ?? "Electing a first leader…";
      if (p.caption.textContent !== line) setText(p.caption, line);
      p.skippedEl.hidden = p.skipped.length === 0;
      const sk = p.skipped.length ? `Skipped: ${p.skipped.map((k) => k.label).join("; ")}` : "";
      if (p.skippedEl.textContent !== sk) setText(p.skippedEl, sk);
    });
    const now = this.now;
    setText(this.timeEl, `${fmtMs(now)} / ${fmtMs(this.endMs)}`);
    this.timeEl.dataset.ms = String(now);
    this.seekInput.value = String(now);
    this.seekInput.setAttribute("aria-valuetext", `${fmtMs(now)} of ${fmtMs(this.endMs)}`);
    this.table.render(this.panes, snaps);
    const wall = performance.now();
    if (force || !(wall - this.lastTimeline < 100)) {
      this.lastTimeline = wall;
      const faults = this.schedule.filter((s) => s.at_ms <= this.endMs).map((s) => ({ at_ms: s.at_ms, label: faultLabel(s.fault).replace(/\bnleader\b/g, "leader") }));
      this.timelineView.render(this.panes, this.panes.map((p) => p.timeline.display), faults, now, this.endMs);
    }
  }

  updatePlay() {
    if (!this.playBtn) return;
    setText(this.playBtn, this.playing ? "❚❚ Pause" : "▶ Play");
    this.playBtn.setAttribute("aria-label", this.playing ? "Pause" : "Play");
  }

  async copyLink() {
    const url = this.permalink();
    if (this.opts.useHash) history.replaceState(null, "", url);
    this.linkOut.value = url;
    this.linkOut.hidden = false;
    this.linkOut.select();
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      // The link stays selected in the field for copying by hand.
    }
  }

  build() {
    this.menuValues = { pauseMs: 3000, offsetMs: 500, driftPct: -30 };
    this.playBtn = html("button", { type: "button", class: "primary", "data-testid": "compare-play", onclick: () => this.toggle() });
    const stepBtn = html("button", { type: "button", "data-testid": "compare-step", text: "Step", title: "Every pane to the next event of any pane", onclick: () => this.step() });
    const backBtn = html("button", { type: "button", "data-testid": "compare-back", text: "−100 ms", onclick: () => (this.pause(), this.seek(this.now - 100)) });
    const speed = html("select", { "data-testid": "compare-speed", "aria-label": "speed", onchange: (e) => (this.speed = Number(e.target.value)) },
      ...SPEEDS.map(([v, label]) => html("option", { value: v, text: label, selected: v === this.speed })));
    this.timeEl = html("span", { class: "time", "data-testid": "compare-time" });
    const restart = html("button", { type: "button", "data-testid": "compare-restart", text: "↺ Restart", onclick: () => this.load({ ...this.currentSpec(), added: [] }) });
    const copy = html("button", { type: "button", "data-testid": "compare-copy-link", text: "Copy link", onclick: () => this.copyLink() });
    this.linkOut = html("input", { class: "link-out", readonly: true, "data-testid": "compare-permalink", "aria-label": "comparison permalink", hidden: true });
    this.presetSelect = html("select", { "data-testid": "compare-preset", "aria-label": "comparison preset", onchange: (e) => this.loadPreset(e.target.value || null, e.target.value ? undefined : this.currentSpec().panes.map((p) => p.choice)) },
      html("option", { value: "", text: "Free play" }), ...COMPARE_PRESETS.map((p) => html("option", { value: p.id, text: p.title })));
    this.addBtn = html("button", { type: "button", "data-testid": "pane-add", text: "+ Add pane", onclick: () => this.addPane() });
    const bar = html("div", { class: "bar", role: "toolbar", "aria-label": "playback of every pane" },
      this.playBtn, stepBtn, backBtn, html("label", { class: "speed" }, "speed ", speed), this.timeEl,
      html("span", { class: "bar-end" }, restart, copy), this.linkOut);
    const leaderFault = (label, testid, fault) => html("button", { type: "button", "data-testid": testid, text: label, onclick: () => this.inject(fault()) });
    const faults = html("div", { class: "compare-faults", role: "group", "aria-label": "faults for every pane" },
      html("span", { class: "hint", text: "In every pane:" }),
      leaderFault("Crash the leader", "compare-crash-leader", () => ({ type: "crash", node: "leader" })),
      leaderFault("Pause the leader 3 s", "compare-pause-leader", () => ({ type: "pause", target: "leader", duration_ms: 3000 })),
      leaderFault("Isolate the leader", "compare-isolate-leader", () => ({ type: "isolate", nodes: ["leader"] })),
      leaderFault("Heal", "compare-heal", () => ({ type: "heal" })));
    this.blurbEl = html("p", { class: "compare-blurb", "data-testid": "compare-blurb" });
    const head = html("div", { class: "compare-head" }, html("label", {}, "Comparison ", this.presetSelect), this.addBtn, this.blurbEl);
    this.paneBox = html("div", { class: "panes", "data-testid": "panes" });
    this.timelineSvg = svg("svg", {});
    this.timelineView = new CompareTimelineView(this.timelineSvg);
    this.seekInput = html("input", { type: "range", min: 0, max: 1000, step: 10, value: 0, class: "compare-seek", "data-testid": "compare-seek", "aria-label": "time (seek every pane)", oninput: (e) => (this.pause(), this.seek(Number(e.target.value))) });
    this.tableEl = html("div", {});
    this.table = new OutcomeTable(this.tableEl);
    this.container = html("div", { class: "compare", "data-testid": "compare" }, head, bar, faults, this.paneBox, this.timelineSvg, this.seekInput, html("h2", { class: "outcomes-title", text: "Outcomes" }), this.tableEl);
    this.menu = new Menu(this.container);
    this.root.append(this.container);
    this.updatePlay();
    this.ro = new ResizeObserver(() => requestAnimationFrame(() => this.renderAll(true)));
    this.ro.observe(this.timelineSvg);
  }

  disconnect() {
    this.stop();
    this.ro?.disconnect();
  }
}
