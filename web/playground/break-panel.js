// "Can this break?": ask the playground's algorithm (or one of the examples) whether a
// property can be violated, get back the smallest run that violates it, and watch it.
//
// The search is the simulator's own (the package's `Search`, the code `tenure search` runs),
// driven in a Web Worker (search-worker.js) so the page stays responsive: progress (runs,
// runs/s, best so far) arrives after every slice, Cancel stops it. The shrunk scenario then
// loads into the playground as a story (counterexample.js): its faults, then the violation,
// narrated from the run's events, with its permalink. Page-only: the self-contained
// <tenure-playground> bundle does not carry the panel or its worker.
import { counterexampleStory, propertyWords } from "./counterexample.js";
import { span } from "./narrate.js";
import { html, setAttrs, setText } from "./svg.js";

/** Every fault family of `tenure chaos`, with words for the checkboxes. */
export const FAMILIES = [
  ["kill", "crash a node, restart it later"],
  ["pause", "pause a process"],
  ["partition-one", "isolate one process"],
  ["partition-minority", "isolate a minority"],
  ["partition-majority", "split the nodes in two"],
  ["partition-ring", "ring: each node hears two neighbours"],
  ["partition-bridge", "two halves joined by one node"],
  ["clock-bump", "a clock jumps forward"],
  ["clock-drift", "a clock runs fast or slow"],
  ["store-outage", "the lease store goes down"],
  ["duplicate", "links duplicate messages"],
  ["reorder", "links reorder messages"],
];

/**
 * A lease renewed as late as validation allows, with a thin margin: the margin covers about 1%
 * drift, the faults reach 5% (the same config as the native search test's `thin_margin`).
 */
const THIN_MARGIN = { ttl_ms: 2000, safety_margin_ms: 25, retry_interval_ms: 20, renew_interval_ms: 1950, max_round_trip_ms: 25 };

/**
 * The examples (docs/search.md's table): each finds its counterexample from seed 1 within its
 * budget, and shrinks to the scenario committed in tests/pkg/fixtures/search/.
 */
export const EXAMPLES = [
  { id: "bully-partition", title: "Bully: split brain under a partition", algorithm: "bully", property: "split-brain", families: ["partition-one", "partition-majority", "kill"], budget: 20 },
  { id: "unfenced-stale-write", title: "Lease without fencing: a stale write accepted", algorithm: "lease-unfenced", property: "stale-write", families: ["pause", "clock-bump", "partition-one"], budget: 50 },
  { id: "lease-drift", title: "Lease: clock drift beyond the safety margin", algorithm: "lease-fencing", property: "split-brain", families: ["clock-drift"], budget: 300, config: THIN_MARGIN },
  { id: "raft-no-check-quorum", title: "Raft without CheckQuorum: a deposed leader keeps leading", algorithm: "raft", property: "split-brain", families: ["partition-one", "partition-majority"], budget: 20, check_quorum: false },
  { id: "lease-fencing-promised", title: "Lease with fencing: what it promises", algorithm: "lease-fencing", property: "any-promised", budget: 300 },
  { id: "raft-promised", title: "Raft: what it promises", algorithm: "raft", property: "any-promised", budget: 100 },
];

/** Search options shared by every search of the panel (the examples' and docs/search.md's). */
const RUN = { nodes: 3, duration_ms: 10_000, heal_ms: 2_000 };
const SHRINK_STEPS = 400;
const MAX_BUDGET = 100_000;

const ALGO_NAMES = { bully: "Bully", raft: "Raft", "lease-fencing": "lease with fencing", "lease-unfenced": "lease without fencing" };

/** The families that apply to `algorithm` (the store outage needs a store). */
function familiesFor(algorithm) {
  return FAMILIES.map(([f]) => f).filter((f) => algorithm.startsWith("lease") || f !== "store-outage");
}

/**
 * The properties to offer for `algorithm`, each `{ value, label, promised }`: first what it
 * does not promise (the interesting answers), then what it does (an honest "none found").
 */
export function propertiesFor(algorithm, promises) {
  const lease = algorithm.startsWith("lease");
  const fenced = algorithm === "lease-fencing";
  // rank: 0 not promised, 1 promised under a premise a fault can break, 2 liveness, 3 promised.
  const list = [
    lease
      ? { value: "split-brain", label: "split brain: two holders at once (promised while clocks drift within the margin)", rank: 1 }
      : { value: "split-brain", label: "split brain: two leaders at once (not promised)", rank: 0 },
    ...(lease ? [{ value: "stale-write", label: `a stale write accepted by the resource (${fenced ? "promised" : "not promised"})`, rank: fenced ? 3 : 0 }] : []),
    { value: "no-leader-for=2000ms", label: "no leader for more than 2 s (not promised)", rank: 2 },
    { value: "any-promised", label: `any invariant it promises (${promises.join(", ")}) (promised)`, rank: 3 },
  ];
  return list.sort((a, b) => a.rank - b.rank).map(({ value, label, rank }) => ({ value, label, promised: rank >= 1 && rank !== 2 }));
}

/** "best so far" in words, from a progress message's score. */
function bestWords(property, score) {
  if (property === "split-brain") return `longest split brain ${span(score / 1000)}`;
  if (property === "stale-write") return `${score} stale write${score === 1 ? "" : "s"} accepted`;
  if (property.startsWith("no-leader-for")) return `longest without a leader ${span(score / 1000)}`;
  return `${score} violation${score === 1 ? "" : "s"} recorded`;
}

/** The `tenure search` command that runs the same search natively. */
export function cliCommand(options, budget) {
  const args = ["tenure search", `--algorithm ${options.algorithm}`, `--property ${options.property}`];
  if (options.families) args.push(`--families ${options.families.join(",")}`);
  args.push(`--budget ${budget}`, `--seed ${options.seed}`, `--nodes ${options.nodes}`, `--duration ${options.duration_ms / 1000}s`, `--heal ${options.heal_ms / 1000}s`, `--shrink-steps ${SHRINK_STEPS}`);
  if (options.check_quorum === false) args.push("--no-check-quorum");
  if (options.config && Object.keys(options.config).length) args.push(`--config '${JSON.stringify(options.config)}'`);
  return args.join(" ");
}

/** Mounts the panel into `root` (an empty section), acting on `playground`. */
export function mountBreakPanel(root, playground, { promises }) {
  const panel = new BreakPanel(root, playground, promises);
  return panel;
}

class BreakPanel {
  constructor(root, playground, promises) {
    this.root = root;
    this.playground = playground;
    this.promises = promises;
    this.job = 0;
    this.worker = null;
    this.build();
    this.pickTarget("setup");
  }

  // ----- public API (tests and the bench) -----

  /** Picks an example by id (or "setup"), then searches; resolves with the final message. */
  run(target = this.targetSelect.value) {
    if (target !== this.targetSelect.value) this.pickTarget(target);
    return this.start();
  }

  /** Stops the search in progress. */
  cancel() {
    if (!this.running) return;
    this.worker?.postMessage({ type: "cancel", job: this.job });
    // Shrinking is one call: if the worker is in it, stop the worker itself.
    if (this.phase === "shrinking") this.stopWorker({ type: "cancelled", runs: this.lastRuns ?? 0 });
  }

  /** The messages the worker sent for the last search, in order. */
  get messages() {
    return this.log;
  }

  // ----- building -----

  build() {
    const id = (s) => `break-${s}`;
    this.targetSelect = html("select", { id: id("target"), "data-testid": "break-target", onchange: () => this.pickTarget(this.targetSelect.value) },
      html("option", { value: "setup", text: "the playground's setup" }),
      ...EXAMPLES.map((e) => html("option", { value: e.id, text: e.title })));
    this.propertySelect = html("select", { id: id("property"), "data-testid": "break-property" });
    this.familyBoxes = FAMILIES.map(([f, words]) => {
      // A refusal of "no family ticked" sits on the first box; any tick or untick lifts it (a
      // control left invalid would block the form's next submit before it is read again).
      const input = html("input", { type: "checkbox", value: f, "data-testid": `break-family-${f}`,
        onchange: () => { for (const l of this.familyBoxes) l.querySelector("input").setCustomValidity(""); } });
      return html("label", { class: "family" }, input, html("span", {}, html("code", { text: f }), ` ${words}`));
    });
    this.familiesSet = html("fieldset", { class: "families" }, html("legend", { text: "Fault families to draw from" }), ...this.familyBoxes);
    this.budgetInput = html("input", { id: id("budget"), type: "number", min: 1, max: MAX_BUDGET, step: 1, value: 300, "data-testid": "break-budget", required: true });
    this.seedInput = html("input", { id: id("seed"), type: "number", min: 0, max: Number.MAX_SAFE_INTEGER, step: 1, value: 1, "data-testid": "break-seed", required: true });
    this.searchBtn = html("button", { type: "submit", "data-testid": "break-search", text: "Search" });
    this.cancelBtn = html("button", { type: "button", "data-testid": "break-cancel", text: "Cancel", disabled: true, onclick: () => this.cancel() });
    this.progressBar = html("progress", { max: 300, value: 0, "aria-label": "runs done of the budget", "data-testid": "break-progressbar" });
    this.progressText = html("p", { class: "break-progress", "data-testid": "break-progress", text: "Not started." });
    this.statusEl = html("p", { role: "status", class: "break-status", "data-testid": "break-status" });
    this.resultEl = html("div", { class: "break-result", "data-testid": "break-result", hidden: true });
    this.targetNote = html("p", { class: "hint", "data-testid": "break-target-note" });
    const form = html("form", { class: "break-form", "data-testid": "break-form", onsubmit: (e) => (e.preventDefault(), void this.start()) },
      html("div", { class: "break-row" },
        html("label", { for: id("target") }, "Search", this.targetSelect),
        html("label", { for: id("property") }, "for", this.propertySelect)),
      this.targetNote,
      this.familiesSet,
      html("div", { class: "break-row" },
        html("label", { for: id("budget") }, "Runs (budget)", this.budgetInput),
        html("label", { for: id("seed") }, "First seed", this.seedInput),
        html("div", { class: "break-buttons" }, this.searchBtn, this.cancelBtn)));
    this.root.replaceChildren(
      html("h2", { id: "break-title", text: "Can this break?" }),
      html("p", { class: "intro", text: "Searches seeded fault schedules (3 nodes, 10 s of faults, then 2 s to heal) for a run that violates the property, shrinks the first one it finds to the fewest, smallest faults that still break it, and plays it above as a story. It runs the simulator's own search in a background worker: the page stays live." }),
      form,
      html("div", { class: "break-live" }, this.progressBar, this.progressText),
      this.statusEl,
      this.resultEl);
    this.root.setAttribute("aria-labelledby", "break-title");
  }

  /** The algorithm, config and defaults for the target ("setup" or an example id). */
  targetOf(value) {
    if (value === "setup") {
      const s = this.playground.scenario();
      return { algorithm: String(s.algorithm), config: { ...(s.config ?? {}) }, nodes: RUN.nodes };
    }
    const e = EXAMPLES.find((x) => x.id === value);
    return { ...e, config: e.config ?? {} };
  }

  pickTarget(value) {
    this.targetSelect.value = value;
    const t = this.targetOf(value);
    this.target = t;
    const props = propertiesFor(t.algorithm, this.promises(t.algorithm));
    this.propertySelect.replaceChildren(...props.map((p) => html("option", { value: p.value, text: p.label })));
    this.propertySelect.value = t.property ?? props[0].value;
    const families = t.families ?? familiesFor(t.algorithm);
    const applies = familiesFor(t.algorithm);
    for (const l of this.familyBoxes) {
      const input = l.querySelector("input");
      input.checked = families.includes(input.value);
      input.disabled = !applies.includes(input.value);
    }
    if (t.budget) this.budgetInput.value = String(t.budget);
    const cfg = Object.keys(t.config).length ? ` with ${Object.entries(t.config).map(([k, v]) => `${k} ${v}`).join(", ")}` : "";
    setText(this.targetNote, `${ALGO_NAMES[t.algorithm] ?? t.algorithm}${t.check_quorum === false ? " without CheckQuorum" : ""}${cfg}.`);
  }

  /** The search options from the controls, or null (the field says why). */
  readOptions() {
    const budget = Number(this.budgetInput.value);
    const seed = Number(this.seedInput.value);
    const bad = (input, msg) => (input.setCustomValidity(msg), input.reportValidity(), null);
    this.budgetInput.setCustomValidity("");
    this.seedInput.setCustomValidity("");
    if (!Number.isInteger(budget) || budget < 1 || budget > MAX_BUDGET) return bad(this.budgetInput, `Give a whole number of runs from 1 to ${MAX_BUDGET}.`);
    if (!Number.isSafeInteger(seed) || seed < 0) return bad(this.seedInput, "Give a whole number from 0.");
    const t = this.target;
    // The order matters (a schedule draws a family by its index): the example's own order
    // first, as docs/search.md and `tenure search --families` give it, then any others ticked.
    const order = [...(t.families ?? []), ...FAMILIES.map(([f]) => f)];
    const boxes = this.familyBoxes.map((l) => l.querySelector("input"));
    for (const box of boxes) box.setCustomValidity("");
    const families = boxes.filter((i) => i.checked && !i.disabled).map((i) => i.value)
      .sort((a, b) => order.indexOf(a) - order.indexOf(b));
    // No family would search runs without faults (the search refuses an empty list).
    const first = boxes.find((i) => !i.disabled);
    if (families.length === 0 && first) return bad(first, "Tick at least one fault family.");
    const options = { algorithm: t.algorithm, property: this.propertySelect.value, nodes: t.nodes ?? RUN.nodes, duration_ms: RUN.duration_ms, heal_ms: RUN.heal_ms, seed, families };
    if (t.check_quorum === false) options.check_quorum = false;
    if (Object.keys(t.config).length) options.config = t.config;
    return { options, budget };
  }

  // ----- running -----

  /** Starts a search; resolves with its last message (done, none, cancelled or error). */
  start() {
    if (this.running) return this.finished;
    const read = this.readOptions();
    if (!read) return Promise.resolve(null);
    const { options, budget } = read;
    this.job += 1;
    this.log = [];
    this.phase = "searching";
    this.lastRuns = 0;
    this.options = options;
    this.budget = budget;
    this.running = true;
    this.setRunning(true);
    setAttrs(this.progressBar, { max: budget, value: 0 });
    setText(this.progressText, `0 of ${budget} runs.`);
    setText(this.statusEl, `Searching for ${propertyWords(options.property)} in up to ${budget} runs…`);
    this.resultEl.hidden = true;
    this.worker ??= new Worker(new URL("./search-worker.js", import.meta.url), { type: "module" });
    this.worker.onmessage = (e) => this.onMessage(e.data);
    this.worker.onerror = (e) => this.stopWorker({ type: "error", message: e.message || "the search worker failed to start" });
    this.finished = new Promise((resolve) => (this.resolve = resolve));
    this.worker.postMessage({ type: "search", job: this.job, options, budget, shrinkSteps: SHRINK_STEPS });
    return this.finished;
  }

  setRunning(on) {
    this.searchBtn.disabled = on;
    this.cancelBtn.disabled = !on;
    this.root.dataset.state = on ? "running" : "idle";
    // Cancel takes the focus it leaves, so a keyboard user is not dropped to the page.
    if (on && document.activeElement === this.searchBtn) this.cancelBtn.focus();
    if (!on && document.activeElement === this.cancelBtn) this.searchBtn.focus();
  }

  /** Ends the worker (a cancel during shrinking, or its failure) with `final`. */
  stopWorker(final) {
    this.worker?.terminate();
    this.worker = null;
    this.onMessage({ job: this.job, ...final });
  }

  onMessage(m) {
    if (m.job !== this.job || !this.running) return;
    this.log.push(m);
    const o = this.options;
    if (m.type === "progress") {
      this.lastRuns = m.runs;
      setAttrs(this.progressBar, { value: m.runs });
      setText(this.progressText, `${m.runs} of ${this.budget} runs · ${Math.round(m.runs_per_s)} runs/s · best so far: ${bestWords(o.property, m.best_score)}${m.best_seed != null ? ` (seed ${m.best_seed})` : ""}`);
      return;
    }
    if (m.type === "shrinking") {
      this.phase = "shrinking";
      setText(this.statusEl, `Run ${m.found.run + 1} (seed ${m.found.seed}) breaks it: ${m.found.witness.detail}. Shrinking ${m.found.scenario.faults.length} faults…`);
      return;
    }
    this.phase = "idle";
    // The story's permalink is made asynchronously (its codec loads on first use): the
    // search ends once the result, link included, is shown.
    if (m.type === "done") return void this.showFound(m).then(() => this.finish(m));
    this.finish(m);
  }

  /** Ends the search with its last message `m` (shown by then). */
  finish(m) {
    const o = this.options;
    this.running = false;
    this.setRunning(false);
    if (m.type === "none") {
      setText(this.statusEl, `No violation of ${o.property} in ${m.runs} runs (${Math.round(m.runs_per_s)} runs/s).`);
      this.showResult([html("p", { "data-testid": "break-none", text: `No violation in ${m.runs} runs. ${o.property === "any-promised" ? "These are the invariants it promises; a search cannot prove them, only fail to break them: the bounded exhaustive check (tenure check) says more for small worlds." : "Try more runs, other fault families or another seed."}` }), this.commandLine()]);
    } else if (m.type === "cancelled") setText(this.statusEl, `Cancelled after ${m.runs} runs.`);
    else if (m.type === "error") setText(this.statusEl, `The search stopped: ${m.message}`);
    this.resolve?.(m);
  }

  async showFound(m) {
    const { found, shrunk } = m;
    const story = counterexampleStory(shrunk.scenario, m.property, { runs: found.run + 1, original: shrunk.original });
    this.playground.loadStory(story);
    const link = await this.playground.permalink();
    const o = shrunk.original;
    const s = shrunk.shrunk;
    setText(this.statusEl, `Found ${propertyWords(m.property)} in run ${found.run + 1} and shrunk it to ${s.faults} fault${s.faults === 1 ? "" : "s"}: it is loaded above as a story.`);
    const json = JSON.stringify(shrunk.scenario, null, 2);
    const file = URL.createObjectURL(new Blob([json], { type: "application/json" }));
    const name = `tenure-${shrunk.scenario.algorithm}-${m.property.replace(/[^a-z0-9-]/gi, "-")}.json`;
    this.showResult([
      html("p", { "data-testid": "break-found", text: `${shrunk.witness.detail} at ${span(shrunk.witness.time_ms)}.` }),
      html("table", { class: "break-size", "data-testid": "break-size" },
        html("caption", { text: `Shrunk in ${shrunk.steps} candidate runs (${Math.round(m.shrink_ms)} ms); ${shrunk.other_seeds_failing} of 8 other seeds still fail with its faults.` }),
        html("thead", {}, html("tr", {}, html("th", { scope: "col", text: "run" }), html("th", { scope: "col", text: "faults" }), html("th", { scope: "col", text: "nodes" }), html("th", { scope: "col", text: "length" }))),
        html("tbody", {},
          html("tr", {}, html("th", { scope: "row", text: "found" }), html("td", { text: o.faults }), html("td", { text: o.nodes }), html("td", { text: span(o.duration_ms) })),
          html("tr", {}, html("th", { scope: "row", text: "shrunk" }), html("td", { text: s.faults }), html("td", { text: s.nodes }), html("td", { text: span(s.duration_ms) })))),
      html("div", { class: "break-buttons" },
        html("button", { type: "button", "data-testid": "break-watch", text: "Watch it", onclick: () => this.watch() }),
        html("a", { href: link, "data-testid": "break-permalink", text: "Permalink" }),
        html("a", { href: file, download: name, "data-testid": "break-download", text: `Download ${name}` })),
      html("p", { class: "hint", "data-testid": "break-hash" }, "Trace hash ", html("code", { text: m.trace_hash }), ": the same as ", html("code", { text: `tenure run ${name}` }), " prints."),
      this.commandLine(),
    ]);
  }

  commandLine() {
    return html("p", { class: "hint" }, "The same search natively: ", html("code", { "data-testid": "break-cli", text: cliCommand(this.options, this.budget) }));
  }

  showResult(children) {
    this.resultEl.replaceChildren(...children);
    this.resultEl.hidden = false;
  }

  /** Scrolls the playground into view and plays the counterexample from its start. */
  watch() {
    this.playground.scrollIntoView({ block: "start", behavior: "instant" });
    this.playground.seek(0);
    this.playground.play();
    this.playground.shadowRoot?.querySelector("[data-testid=play]")?.focus();
  }
}
