// The failover lab: pick timeout knobs, collect several settings, run N leader crashes per
// setting in a worker (failover-worker.js) and overlay their CDFs (the Raft paper's
// Figure 16), with min/median/p99/max, and the cost side: false elections per hour in a
// crash-free run under the chosen latency and pause rate. Every number and the plot come from
// the simulator through wasm (`failoverMeasure`, `falseElections`, `failoverPlot`), the code
// `tenure failover` runs natively; each setting shows the command that prints the same.
import initSearch, { failoverPlot } from "tenure/search";
import { cliCommand, FIGURE_16, LAB_ALGORITHMS, LAB_KNOBS, labFamily, settingOf } from "./failover-settings.js";
import { html, setText } from "./svg.js";

const PRESETS = [
  ["figure-16", "Raft: Figure 16 ranges", () => FIGURE_16.map(([a, b]) => settingOf("raft", { timeout_min: a, timeout_max: b }))],
  ["raft-scale", "Raft: 150 ms vs 300 ms vs 600 ms", () => [150, 300, 600].map((t) => settingOf("raft", { timeout_min: t, timeout_max: 2 * t }))],
  ["lease-ttl", "Lease: TTL 2 s, 3 s, 5 s", () => [2000, 3000, 5000].map((t) => settingOf("lease-fencing", { ttl_ms: t, safety_margin_ms: 300 }))],
  ["bully", "Bully: failure timeout 100, 200, 400 ms", () => [100, 200, 400].map((t) => settingOf("bully", { failure_timeout_ms: t, answer_timeout_ms: 50, coordinator_timeout_ms: 150 }))],
];

/** A number field with its label and a place for its error. */
function numberField(testid, label, value, { min = 0, max = 1e9, step = 1 } = {}) {
  const err = html("span", { class: "field-error", id: `err-${testid}`, hidden: true });
  const input = html("input", { type: "number", inputmode: "numeric", min, max, step, value, "data-testid": testid, "aria-describedby": `err-${testid}` });
  const wrap = html("div", { class: "field" }, html("label", {}, html("span", { text: label }), input), err);
  return { wrap, input, err, min, max, label };
}

/** The field's value, or null with its error shown. */
function read(f, { integer = true } = {}) {
  const v = Number(f.input.value);
  const bad = f.input.value.trim() === "" || !Number.isFinite(v) || v < f.min || v > f.max || (integer && !Number.isInteger(v));
  f.err.hidden = !bad;
  f.input.toggleAttribute("aria-invalid", bad);
  if (bad) setText(f.err, `${f.label.replace(/\s*\(.*$/, "")} must be ${integer ? "a whole number " : ""}from ${f.min} to ${f.max}.`);
  return bad ? null : v;
}

export class FailoverLab {
  constructor(root) {
    this.root = root;
    /** The settings to run, in order. */
    this.settings = [];
    /** The last run's results: `{ setting, label, report, cost, command }`. */
    this.results = [];
    this.worker = null;
    this.nextId = 1;
    this.pending = new Map();
    this.build();
  }

  /** Loads the search module's wasm for the plot (the worker loads its own). */
  async init() {
    await initSearch();
    this.usePreset("figure-16");
  }

  usePreset(id) {
    const p = PRESETS.find(([k]) => k === id);
    if (!p) return;
    this.settings = p[2]();
    this.renderSettings();
  }

  /** The world and run parameters from the fields, or null if one is invalid. */
  params() {
    const vals = [this.nodes, this.runs, this.seed, this.latMin, this.latMax].map((f) => read(f));
    const cost = this.costOn.checked ? [read(this.costMin), read(this.pauseRate, { integer: false }), read(this.pauseMs)] : [];
    if (vals.includes(null) || cost.includes(null)) return null;
    const [nodes, runs, seed, latMin, latMax] = vals;
    if (latMax < latMin) {
      this.latMax.err.hidden = false;
      setText(this.latMax.err, "The latency maximum must be at least its minimum.");
      return null;
    }
    const disturbance = this.costOn.checked ? { run_ms: cost[0] * 60_000, pauses_per_hour: cost[1], pause_ms: cost[2] } : null;
    return { nodes, runs, seed, latency: [latMin, latMax], disturbance };
  }

  addCurrent() {
    const a = this.algoSelect.value;
    const knobs = {};
    for (const f of this.knobFields) knobs[f.key] = read(f);
    if (Object.values(knobs).includes(null)) return false;
    if (a === "raft" && knobs.timeout_max <= knobs.timeout_min) {
      const f = this.knobFields[1];
      f.err.hidden = false;
      setText(f.err, "Timeouts are drawn from [min, max): the maximum must exceed the minimum.");
      return false;
    }
    if (this.settings.length >= 8) return this.say("At most 8 settings on one plot: remove one first."), false;
    this.settings.push(settingOf(a, knobs));
    this.renderSettings();
    return true;
  }

  /** Runs every setting in the worker; resolves to the results. */
  async run() {
    const p = this.params();
    if (!p || !this.settings.length) {
      if (!this.settings.length) this.say("Add a setting first.");
      return this.results;
    }
    this.worker ??= this.startWorker();
    this.runBtn.disabled = true;
    const results = [];
    const t0 = performance.now();
    try {
      for (const [i, s0] of this.settings.entries()) {
        const setting = { ...s0, nodes: p.nodes, latency_ms: p.latency };
        this.say(`Running setting ${i + 1} of ${this.settings.length}: ${p.runs} crashes of the leader${p.disturbance ? ", then the crash-free run" : ""}…`);
        const out = await this.call({ setting, seed: p.seed, runs: p.runs, disturbance: p.disturbance });
        results.push({ setting, label: out.report.label, report: out.report, cost: out.cost, command: cliCommand(setting, p) });
        this.results = results;
        this.renderResults(p);
      }
      this.say(`Done: ${this.settings.length} settings × ${p.runs} failovers in ${((performance.now() - t0) / 1000).toFixed(1)} s.`);
    } catch (err) {
      this.say(`The simulator refused a setting: ${err.message}`, true);
    } finally {
      this.runBtn.disabled = false;
    }
    this.root.dataset.done = String(Number(this.root.dataset.done ?? 0) + 1);
    return this.results;
  }

  startWorker() {
    const w = new Worker(new URL("./failover-worker.js", import.meta.url), { type: "module" });
    w.onmessage = (e) => {
      const { id, error } = e.data;
      const p = this.pending.get(id);
      this.pending.delete(id);
      if (!p) return;
      if (error) p.reject(Object.assign(new Error(error.message), { code: error.code }));
      else p.resolve(e.data);
    };
    w.onerror = (e) => {
      for (const p of this.pending.values()) p.reject(new Error(e.message || "the worker failed"));
      this.pending.clear();
    };
    return w;
  }

  call(msg) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...msg });
    });
  }

  say(text, error = false) {
    setText(this.status, text);
    this.status.dataset.error = String(error);
  }

  // ----- drawing -----

  renderKnobs() {
    const fam = labFamily(this.algoSelect.value);
    this.knobFields = LAB_KNOBS[fam].map(([key, label, d, min, max]) => Object.assign(numberField(`lab-knob-${key}`, label, d, { min, max }), { key }));
    this.knobBox.replaceChildren(...this.knobFields.map((f) => f.wrap));
  }

  renderSettings() {
    const rows = this.settings.map((s, i) => html("li", {},
      html("span", { text: labelOf(s) }),
      html("button", { type: "button", class: "small", "data-testid": `lab-remove-${i}`, "aria-label": `Remove ${labelOf(s)}`, text: "Remove", onclick: () => (this.settings.splice(i, 1), this.renderSettings()) })));
    this.settingsList.replaceChildren(...rows);
    this.settingsEmpty.hidden = this.settings.length > 0;
  }

  renderResults(p) {
    const series = this.results.map((r) => ({ label: r.label, samples_ms: r.report.samples_ms }));
    const title = `Time to a new leader, ${p.nodes} nodes, ${p.runs} crashes per setting (seeds ${p.seed}–${p.seed + p.runs - 1})`;
    // Our own wasm's SVG text: every label in it is escaped there.
    this.plot.innerHTML = failoverPlot(title, series);
    const svgEl = this.plot.querySelector("svg");
    svgEl?.setAttribute("data-testid", "lab-plot-svg");
    const fmt = (v) => (v == null ? "–" : v.toFixed(1));
    const head = html("tr", {}, ...["Setting", "min (ms)", "median (ms)", "p99 (ms)", "max (ms)", "no leader in 60 s", "false elections / hour", "time without a leader (crash-free run)"].map((t) => html("th", { scope: "col", text: t })));
    const rows = this.results.map((r, i) => html("tr", { "data-testid": `lab-row-${i}` },
      html("th", { scope: "row", text: r.label }),
      ...[r.report.min_ms, r.report.median_ms, r.report.p99_ms, r.report.max_ms].map((v) => html("td", { text: fmt(v) })),
      html("td", { text: String(r.report.failures) }),
      html("td", { text: r.cost ? r.cost.false_elections_per_hour.toFixed(1) : "not run" }),
      html("td", { text: r.cost ? `${fmt(r.cost.leaderless_ms)} ms` : "not run" })));
    this.table.replaceChildren(html("caption", { text: "Per setting: the failover distribution, and the cost of its timeouts when nothing crashes." }), html("thead", {}, head), html("tbody", {}, ...rows));
    this.cli.textContent = this.results.map((r) => r.command).join("\n");
    this.cliBox.hidden = this.results.length === 0;
    this.costNote.hidden = !p.disturbance;
    if (p.disturbance) setText(this.costNote, `False elections: elections after the first in ${p.disturbance.run_ms / 60000} simulated minutes with no crash, the links' latency ${p.latency[0]}–${p.latency[1]} ms, and every node paused for ${p.disturbance.pause_ms} ms about ${p.disturbance.pauses_per_hour} times an hour. Shorter timeouts fail over faster and pay for it here.`);
  }

  build() {
    this.algoSelect = html("select", { "data-testid": "lab-algorithm", onchange: () => this.renderKnobs() }, ...LAB_ALGORITHMS.map(([v, l]) => html("option", { value: v, text: l })));
    this.knobBox = html("div", { class: "fields" });
    const add = html("button", { type: "button", "data-testid": "lab-add", text: "Add this setting", onclick: () => this.addCurrent() });
    const presetButtons = PRESETS.map(([id, label]) => html("button", { type: "button", "data-testid": `lab-preset-${id}`, text: label, onclick: () => this.usePreset(id) }));
    this.settingsList = html("ul", { class: "settings", "data-testid": "lab-settings" });
    this.settingsEmpty = html("p", { class: "hint", text: "No setting yet: add one, or pick a set." });
    this.nodes = numberField("lab-nodes", "Nodes", 5, { min: 3, max: 9 });
    this.runs = numberField("lab-runs", "Crashes per setting", 100, { min: 1, max: 5000 });
    // Any safe integer whose last run (seed + runs - 1, runs at most 100,000) stays safe.
    this.seed = numberField("lab-seed", "First seed (run i uses seed + i)", 0, { min: 0, max: Number.MAX_SAFE_INTEGER - 100_000 });
    this.latMin = numberField("lab-lat-min", "Latency min (ms)", 5, { min: 0, max: 10000 });
    this.latMax = numberField("lab-lat-max", "Latency max (ms)", 30, { min: 0, max: 10000 });
    this.costOn = html("input", { type: "checkbox", "data-testid": "lab-cost", checked: true });
    this.costMin = numberField("lab-cost-min", "Crash-free run (simulated minutes)", 10, { min: 1, max: 1440 });
    this.pauseRate = numberField("lab-pause-rate", "Pauses per node per hour", 30, { min: 0, max: 3600, step: "any" });
    this.pauseMs = numberField("lab-pause-ms", "Pause length (ms)", 400, { min: 0, max: 60000 });
    this.runBtn = html("button", { type: "button", class: "primary", "data-testid": "lab-run", text: "Run in a worker", onclick: () => this.run() });
    this.status = html("p", { class: "status", role: "status", "data-testid": "lab-status", text: "Ready." });
    this.plot = html("figure", { class: "plot", "data-testid": "lab-plot", tabindex: 0, role: "region", "aria-label": "failover plot (scrolls sideways on a narrow screen)" });
    this.table = html("table", { class: "results", "data-testid": "lab-results" });
    this.costNote = html("p", { class: "hint", hidden: true });
    this.cli = html("pre", { "data-testid": "lab-cli", tabindex: 0, "aria-label": "the same measurements from the command line" });
    this.cliBox = html("section", { hidden: true }, html("h3", { text: "The same numbers from the command line" }), this.cli);
    this.root.append(
      html("div", { class: "lab-grid" },
        html("section", { class: "card", "aria-labelledby": "lab-knobs-title" },
          html("h2", { id: "lab-knobs-title", text: "1. Settings to compare" }),
          html("div", { class: "row" }, ...presetButtons),
          html("label", { class: "field" }, html("span", { text: "Algorithm" }), this.algoSelect), this.knobBox, add,
          this.settingsList, this.settingsEmpty),
        html("section", { class: "card", "aria-labelledby": "lab-world-title" },
          html("h2", { id: "lab-world-title", text: "2. World and runs" }),
          html("div", { class: "fields" }, this.nodes.wrap, this.runs.wrap, this.seed.wrap, this.latMin.wrap, this.latMax.wrap),
          html("label", { class: "check" }, this.costOn, "Also count false elections (the cost side)"),
          html("div", { class: "fields" }, this.costMin.wrap, this.pauseRate.wrap, this.pauseMs.wrap),
          this.runBtn, this.status)),
      html("section", { class: "card", "aria-labelledby": "lab-out-title" },
        html("h2", { id: "lab-out-title", text: "3. Failover time, distribution" }), this.plot, html("div", { class: "table-wrap", tabindex: 0, role: "region", "aria-label": "failover results" }, this.table), this.costNote, this.cliBox));
    this.renderKnobs();
    this.renderSettings();
  }
}

function labelOf(s) {
  const parts = [s.algorithm];
  if (s.election_timeout_ms) parts.push(`${s.election_timeout_ms[0]}-${s.election_timeout_ms[1]} ms`);
  if (s.ttl_ms != null) parts.push(`ttl ${s.ttl_ms} ms`);
  if (s.safety_margin_ms != null) parts.push(`margin ${s.safety_margin_ms} ms`);
  if (s.failure_timeout_ms != null) parts.push(`failure ${s.failure_timeout_ms} ms`);
  return parts.join(" ");
}
