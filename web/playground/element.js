// <tenure-playground>: the animated cluster you can break. Attributes:
//   preset="gc-pause-fenced"    a preset from presets.js
//   scenario='{"version":1,..}' a scenario object as JSON (wins over preset)
//   controls="all"              all | minimal (play bar only) | none, or a comma list of
//                               bar, caption, timeline, events, logs, spacetime, safety,
//                               presets, setup, faults, info
//   autoplay                    start playing once mounted (and visible); autoplay="false"
//                               (or "off", "no", "0") does not (attributes.js)
//   height="420px"              height of the cluster view, 150 px to 2,400 px (a bare number
//                               is px); out of range it is clamped, with a note in the element
//   use-hash                    read the scenario from the page's URL hash (permalink) and
//                               handle the shortcut keys (keys.js) for the whole document
//   link-base="https://..."     the page permalinks point at (default: this page, or
//                               ./index.html beside it for an embed)
//   wasm="/assets/tenure_sim_bg.wasm" where the wasm is (default: beside the script; the
//                               first element on a page decides)
//   compare="raft,bully,lease-fencing"  compare mode (element-compare.js): 2-4 panes in
//                               lock-step; `preset` then names a comparison (compare-presets.js)
// Unknown attributes and values are reported in the console with what is allowed; a height
// out of range, and a refused scenario, preset or link, also in the element (after a refused
// run nothing autoplays: the free play shown instead is not what was asked). With
// prefers-reduced-motion, nothing autoplays and messages sit still instead of moving.
// It pauses while off-screen or while the tab is hidden. Everything it shows comes from the
// wasm Simulation (see model.js); this file wires views and controls to it.
import { autoplayAsked, heightOf } from "./attributes.js";
import { networkActions, partitionOf, procActions, linkActions } from "./actions.js";
import { parseField } from "./fields.js";
import { FrameMargin } from "./frame-margin.js";
import { ALGORITHMS, INFO } from "./info.js";
import { SHORTCUTS, ownsKeys, shortcutFor } from "./keys.js";
import { Menu } from "./menu.js";
import { loadWasm, Model } from "./model.js";
import { procKey } from "./procs.js";
import { PRESETS, presetById, registerStory } from "./presets.js";
import { EventLogView } from "./render-events.js";
import { RaftLogView, ResourceLogView } from "./render-logs.js";
import { SpaceTimeView } from "./render-spacetime.js";
import { ClusterView, fmtMs } from "./render-cluster.js";
import { renderMargin } from "./render-margin.js";
import { SafetyView } from "./render-safety.js";
import { TimelineView } from "./render-timeline.js";
import { buildScenario, family, knobsFor, newSeed, setupOf, startKnobs } from "./setup.js";
import { html, setAttrs, setText, svg } from "./svg.js";
import { Pace } from "./pace.js";
import { DETAIL_MS, Timeline } from "./timeline.js";
// Inlined (Vite's ?inline), so the self-contained build needs no stylesheet request.
import css from "./playground.css?inline";

const SECTIONS = ["bar", "caption", "timeline", "events", "logs", "spacetime", "safety", "presets", "setup", "faults", "info"];
/** Space-time windows offered, ms (0: the whole run so far). */
const SPACETIME_WINDOWS = [[1000, "1 s"], [2000, "2 s"], [5000, "5 s"], [0, "whole run"]];
const CHANGED_NOTE = "You changed the story: narration now follows the run.";
const CONTROLS_WORDS = ["all", "minimal", "none"];
const ATTRIBUTES = ["preset", "scenario", "controls", "autoplay", "height", "use-hash", "link-base", "wasm", "compare"];
/** Attributes any element may carry; others are reported as unknown. */
const GLOBAL_ATTRIBUTES = /^(id|class|style|title|lang|dir|hidden|slot|part|tabindex|role|inert|translate|nonce|is|data-.*|aria-.*)$/;
const PREFIX = "<tenure-playground>";
const SPEED_MIN = -200; // 10^(-2) = 0.01x
const SPEED_MAX = 170; // 10^(1.7) = 50x
const TIMELINE_EVERY_MS = 100;
/**
 * The views redrawn every TIMELINE_EVERY_MS while playing (not every frame). A frame draws
 * one of them at most, the longest due, so no frame pays for all four (docs/frame.md).
 */
const SLOW_VIEWS = ["timeline", "events", "logs", "spacetime"];
/** The frames' script times kept (`frameStats`): the last 4,096 (up to twice as many held). */
const FRAME_SAMPLES = 4096;
/**
 * Script time a frame may spend, ms, by cluster size (docs/frame.md): the frame goal, a p95 of
 * 2 ms up to 9 nodes and 4 ms from 25 (linear between). The frame takes off a margin
 * (frame-margin.js: learned, so that few frames run past the goal) and what its views will
 * cost (each measured apart, the slow view due this frame included), and simulates for the
 * rest, each chunk sized by what the last ones cost (pace.js), so the last chunk does not run
 * past it. The simulated time not run is dropped (the bar shows the speed reached), so a slow
 * frame cannot make the next one owe more.
 */
function frameBudgetMs(nodes) {
  return nodes <= 9 ? 2 : nodes >= 25 ? 4 : 2 + ((nodes - 9) * 2) / 16;
}
/** Script ms below which a frame with a slow view does not simulate (docs/frame.md). */
const SIM_MIN_MS = 0.2;
/** Simulated ms a frame may run at most. */
const SLICE_MAX_MS = 2000;
/** Weight of the newest frame in the smoothed cost of each view. */
const COST_WEIGHT = 0.25;
const smooth = (avg, x) => (avg === undefined ? x : avg * (1 - COST_WEIGHT) + x * COST_WEIGHT);
/** The speed reached is shown when it stays under this share of the speed asked. */
const REACHED_SHOWN_BELOW = 0.9;
/** Wall ms over which the speed reached is measured. */
const REACHED_WINDOW_MS = 1000;
/** Faster than this, messages are not followed one by one: the page fetches fewer events. */
const FAST_SPEED = 10;
/**
 * Script time per frame a seek's replay may take, ms (seekGradually): the page answers input
 * between slices at about 20 frames a second, and the views are drawn every SEEK_DRAW_EVERY_MS.
 */
const SEEK_SLICE_MS = 40;
const SEEK_DRAW_EVERY_MS = 500;
/** Script a link's time may take at load before the rest is reached over frames (seekGradually). */
const LINK_SYNC_MS = 250;

/** The permalink codec (permalink.js, with fflate) once loaded: fetched on first use (`loadCodec`). */
let codec = null;
let codecLoading = null;
/** Loads the permalink codec (once); resolves to it. */
function loadCodec() {
  codecLoading ??= import("./permalink.js").then((m) => (codec = m));
  return codecLoading;
}

/** Free play at first; knobs the page does not set are the simulator's (`simulatorKnobs`). */
const DEFAULT_SETUP = { choice: "raft-pv-cq", nodes: 5, seed: 1, knobs: startKnobs("raft-pv-cq") };

export class TenurePlayground extends HTMLElement {
  static observedAttributes = ["preset", "scenario", "height", "controls"];

  constructor() {
    super();
    this.attachShadow({ mode: "open" });
    this.playing = false;
    this.onScreen = true;
    /** Free play's default: with its 20-60 ms links a message is on screen for 200-600 ms (setup.js). */
    this.speed = 0.1;
    this.menuValues = { pauseMs: 3000, offsetMs: 500, driftPct: -30 };
    this.netValues = { loss: 0.2, latencyMin: 20, latencyMax: 60, outageMs: 3000 };
    this.frameTimes = [];
    /** Per-view draw times, ms, when a profiler asks for them (`timeView`); null: off. */
    this.viewTimes = null;
    /** When each of SLOW_VIEWS was last drawn (performance.now()). */
    this.drawnAt = { timeline: 0, events: 0, logs: 0, spacetime: 0 };
    /**
     * Smoothed draw ms while playing: `fast` (every frame's views), `described` (the same when
     * the cluster also rewrites its descriptions), and each of SLOW_VIEWS.
     */
    this.drawCost = {};
    this.error = null;
    this.reducedMotion = matchMedia("(prefers-reduced-motion: reduce)").matches;
    /** Stories pause at each beat unless "play through" is chosen. */
    this.holds = true;
    /** The panels below the cluster now on screen: only they are redrawn while playing. */
    this.panelsSeen = new Set();
    this.nextCommand = 1001;
    this.spaceWindow = 2000;
  }

  connectedCallback() {
    if (this.hasAttribute("compare") || this.compare) return this.mountCompare();
    if (this.built) return this.activate();
    this.built = true;
    this.reportUnknownAttributes();
    this.build();
    this.ready = Promise.all([loadWasm(this.getAttribute("wasm") || undefined), this.linkCode()]).then(([, code]) => {
      // A run the embedder did not ask for (theirs was refused) is not played.
      const refused = this.loadInitial(code);
      this.dataset.ready = "true";
      if (autoplayAsked(this, this.warn) && !refused && !this.reducedMotion) this.play();
      return this;
    });
    this.ready.catch((err) => this.showError(err));
    this.activate();
  }

  /**
   * Compare mode (element-compare.js), loaded only by an element that asks for it: a single
   * playground's page does not fetch it (docs/bindings.md, "The page's first load"). `ready`
   * is set at once and resolves to the element once the comparison is loaded.
   */
  mountCompare() {
    if (this.compare || this.compareLoading) return;
    this.compareLoading = true;
    this.ready = import("./element-compare.js").then(({ mountCompare }) => {
      mountCompare(this);
      return this.ready;
    });
  }

  disconnectedCallback() {
    if (this.compare) return this.compare.stop();
    this.io?.disconnect();
    this.panelIo?.disconnect();
    this.ro?.disconnect();
    document.removeEventListener("visibilitychange", this.onVisibility);
    if (this.docKeys) document.removeEventListener("keydown", this.docKeys);
    cancelAnimationFrame(this.raf);
    this.raf = 0;
  }

  attributeChangedCallback(name, old, value) {
    if (this.compare) {
      if (name === "height" && old !== value) this.applyCompareHeight?.(value);
      return;
    }
    if (!this.dataset.ready || old === value) return;
    if (name === "preset" && value) this.loadPreset(value);
    if (name === "scenario" && value) {
      // A scenario that is not JSON, or that the simulator refuses, is shown as an error;
      // the run before it stays.
      let scenario;
      try {
        scenario = JSON.parse(value);
      } catch (err) {
        this.showError(new TypeError(`the scenario attribute is not JSON: ${err.message}`));
      }
      const refused = scenario !== undefined && this.load(scenario);
      if (refused) this.showError(Object.assign(new Error(`the scenario attribute was refused: ${refused.message}`), { code: refused.code }));
      if (this.error) this.warn(this.error.message);
    }
    if (name === "height") this.applyHeight(value);
  }

  /** Warns (once per element) about attributes this element does not know. */
  reportUnknownAttributes() {
    const unknown = this.getAttributeNames().filter((a) => !ATTRIBUTES.includes(a) && !GLOBAL_ATTRIBUTES.test(a));
    if (unknown.length) console.warn(`${PREFIX} unknown attribute${unknown.length > 1 ? "s" : ""} ${unknown.map((a) => `"${a}"`).join(", ")} ignored; it knows ${ATTRIBUTES.join(", ")}.`);
  }

  /** Warns in the console, as the element's own. */
  warn = (text) => console.warn(`${PREFIX} ${text}`);

  /**
   * Sets the cluster's height from the attribute (attributes.js): a height out of range is
   * clamped, and one that is not a length keeps the default; either says so in the console
   * and in the element, above the run's errors, until the attribute changes.
   */
  applyHeight(value) {
    const { css, note } = value ? heightOf(value, innerWidth, innerHeight) : { css: "" };
    if (note) this.warn(note);
    this.heightNote.hidden = !note;
    setText(this.heightNote, note ?? "");
    this.stage.style.height = css;
    this.stage.classList.toggle("fixed", !!css);
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

  /** Plays; at the end of a run, plays it again from the start. */
  play() {
    if (!this.timeline) return;
    this.cancelSeek();
    this.heldBeat = undefined;
    if (this.now >= this.endMs) this.seek(0);
    this.playing = true;
    this.updatePlayButton();
    this.kick();
  }

  pause() {
    this.playing = false;
    this.reachedWindow = undefined;
    this.showReached(null);
    this.updatePlayButton();
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  /** Processes one simulation event (pauses first). */
  step() {
    this.pause();
    const before = this.timeline.history.log.at(-1)?.seq ?? -1;
    this.timeline.step();
    const applied = this.timeline.history.log.find((e) => e.seq > before);
    this.stepSeq = applied?.seq;
    this.renderAll(true);
  }

  /** After a beat holds: go on playing. */
  next() {
    this.heldBeat = undefined;
    this.updateHold();
    this.play();
  }

  /** Whether stories pause at their beats (true) or play through (false). */
  setHolds(on) {
    this.holds = on;
    if (this.holdInput) this.holdInput.checked = on;
  }

  /** The caption's story beats met so far: `{index, time, text}`, in order. */
  beatsMet() {
    return this.timeline.display.story.met.filter((b) => b.time <= this.now + 1e-6);
  }

  /** A client asks the acting Raft leader to append a command; returns the command. */
  propose() {
    const snap = this.snapshot();
    const leader = snap.nodes.find((n) => n.acting_leader);
    if (snap.algorithm !== "raft") return this.announce("Only Raft has a log to propose commands to."), undefined;
    if (!leader) return this.announce("No node leads right now: a client's command has nobody to go to."), undefined;
    const command = this.nextCommand++;
    this.inject({ type: "propose", node: Number(leader.id), command });
    return command;
  }

  /** Drops in-flight message `id` (recorded in the scenario, so the permalink replays it). */
  dropMessage(id) {
    this.inject({ type: "drop-message", id: Number(id) });
  }

  /**
   * Lights message `id` (hovered or focused in one view) in every view: the cluster, the
   * space-time diagram, the event log and the timeline; null lights none.
   */
  lightMessage(id) {
    this.litMessage = id ?? null;
    this.cluster.highlight(this.litMessage);
    this.spaceTime?.highlight(this.litMessage);
    this.eventLog?.highlight(this.litMessage);
    this.timelineView.highlight(this.litMessage == null ? null : this.timeline?.display.msgs.get(this.litMessage) ?? null);
  }

  /** The space-time diagram as a standalone SVG file's text. */
  spaceTimeSVG() {
    this.renderSpaceTime();
    return this.spaceTime.standalone();
  }

  /** Runs (fast, without animating) to simulated time `ms`, then draws. */
  runTo(ms) {
    this.timeline.advance(Math.min(ms, this.endMs));
    this.renderAll(true);
    return this.now;
  }

  /** Stops a `seekGradually` where it has come to. */
  cancelSeek() {
    if (!this.seeking) return;
    this.seeking = null;
    delete this.dataset.seeking;
    this.cluster.reset();
    this.renderAll(true);
  }

  /** Seeks to `ms` (back through checkpoints and replay, or forward). */
  seek(ms) {
    this.cancelSeek();
    this.heldBeat = undefined;
    this.stepSeq = undefined;
    this.timeline.seek(Math.min(ms, this.endMs));
    this.cluster.reset();
    this.renderAll(true);
  }

  /** Applies a fault (the scenario's fault JSON) now. */
  inject(fault) {
    this.cancelSeek();
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
    if (!preset) return this.showError(unknownPreset(id));
    this.setSpeed(preset.speed);
    this.load(preset.scenario, { preset });
  }

  /** Loads `story` (a preset-shaped object, such as a counterexample's) at time 0. */
  loadStory(story) {
    this.loadPreset(registerStory(story).id);
  }

  /**
   * The permalink for the current moment: resolves to this page's URL with the scenario in the
   * hash. The run is read at the call; the link's codec (permalink.js) loads on first use.
   */
  async permalink() {
    const make = this.linkMaker();
    return make(codec ?? (await loadCodec()));
  }

  /** The permalink of this moment, made by a function of the codec (the run is read now). */
  linkMaker() {
    const link = { scenario: this.scenario(), timeMs: this.now, preset: this.preset?.id };
    const base = this.getAttribute("link-base") ?? (this.hasAttribute("use-hash") ? location.href.split("#")[0] : new URL("./index.html", location.href).href);
    return (c) => base + c.encodeHash(link);
  }

  /** Script time per animation frame so far (the last FRAME_SAMPLES), ms (for `npm run bench`). */
  frameStats() {
    return this.frameTimes.slice(-FRAME_SAMPLES);
  }

  // ----- loading -----

  /**
   * The code a link in the page's hash needs, fetched only when there is one to open (or a
   * permalink is asked for): resolves to `{ codec }` (permalink.js, with fflate), plus
   * `stories` (counterexample.js) when it is a counterexample's story; null without a link.
   */
  linkCode() {
    if (!this.hasAttribute("use-hash") || !location.hash.includes("s=")) return null;
    const searched = new URLSearchParams(location.hash.slice(1)).get("p")?.startsWith("search:");
    return Promise.all([loadCodec(), searched ? import("./counterexample.js") : null]).then(([codec, stories]) => ({ codec, stories }));
  }

  /**
   * Loads the run to show first: the link's (`code`: from `linkCode`), the attributes', or
   * free play. Returns the error that refused the link's or the attributes' run, or null.
   */
  loadInitial(code) {
    // A link or attribute that cannot be used still leaves a working playground (the
    // default run), and says what was wrong instead of ignoring it.
    let problem = null;
    if (code) {
      try {
        const link = code.codec.decodeHash(location.hash);
        if (link) {
          // A counterexample's story (a permalink from "Can this break?") is rebuilt from the
          // link's scenario.
          const property = code.stories?.propertyOf(link.preset);
          const story = property ? registerStory(code.stories.counterexampleStory(link.scenario, property)) : undefined;
          const preset = story ?? (link.preset ? presetById(link.preset) : undefined);
          if (preset) this.setSpeed(preset.speed);
          // A link whose scenario the simulator refuses (an unknown algorithm, a key of
          // another algorithm's config) leaves the default run, with the reason.
          problem = this.load(link.scenario, { preset, timeMs: link.timeMs, fromLink: true });
          if (problem === null) return null;
        }
      } catch (err) {
        problem = err;
      }
    }
    const scenarioAttr = this.getAttribute("scenario");
    if (scenarioAttr && !problem) {
      let scenario;
      try {
        scenario = JSON.parse(scenarioAttr);
      } catch (err) {
        problem = new TypeError(`the scenario attribute is not JSON: ${err.message}`);
      }
      if (scenario !== undefined) {
        problem = this.load(scenario);
        if (problem === null) return null;
        problem = Object.assign(new Error(`the scenario attribute was refused: ${problem.message}`), { code: problem.code });
      }
    }
    const presetAttr = this.getAttribute("preset");
    if (presetAttr && !problem) {
      if (presetById(presetAttr)) {
        this.loadPreset(presetAttr);
        return null;
      }
      problem = unknownPreset(presetAttr);
    }
    this.load(buildScenario(simulatorKnobs(DEFAULT_SETUP)));
    if (problem) {
      // Said where the embedder looks (the console) and where the reader does, with what is
      // shown instead: free play, not played even when autoplay asks.
      problem = Object.assign(new Error(`${String(problem.message).replace(/\.$/, "")}. Showing free play instead${autoplayAsked(this, () => {}) ? ", not playing" : ""}.`), { code: problem.code });
      this.warn(problem.message);
      this.showError(problem);
    }
    return problem;
  }

  /**
   * Replaces the run with `scenario` at time `timeMs` (0 by default). Returns null, or the
   * error the simulator refused the scenario with (shown; the run before it stays).
   */
  load(scenario, { preset, timeMs = 0, fromLink = false } = {}) {
    let timeline;
    try {
      timeline = new Timeline(scenario);
    } catch (err) {
      this.showError(err);
      return err;
    }
    this.pause();
    this.cancelSeek();
    this.timeline?.free();
    this.timeline = timeline;
    this.preset = preset;
    this.heldBeat = undefined;
    this.stepSeq = undefined;
    this.storyScroll = false;
    timeline.tell(preset, preset && fromLink ? departure(preset.scenario, scenario) : null);
    // A permalink in the address bar describes the run it opened: once another run replaces
    // it, drop it, so a reload opens what the page shows rather than the old link.
    if (!fromLink && this.hasAttribute("use-hash") && location.hash.includes("s=")) history.replaceState(null, "", location.href.split("#")[0]);
    this.markCurrentStory();
    this.endMs = Number(scenario.duration_ms);
    this.nodeCount = Number(scenario.nodes);
    // What a simulated ms costs depends on the world: learn it again, and the margin with it.
    this.pace = undefined;
    this.margin = undefined;
    this.setup = setupOf(scenario, timeline.effective);
    this.cluster.reset();
    this.syncSetupControls();
    this.showError(null);
    // A link's time is reached at once when that is quick (nearly every link); a far one
    // (an hour of a 25-node world, or a crafted t=1e9) is reached over frames with its
    // progress shown, as a seek is, so no link can freeze the tab.
    const target = Math.min(timeMs, this.endMs);
    if (target > 0 && !this.timeline.advance(target, performance.now() + LINK_SYNC_MS)) {
      this.renderAll(true);
      this.seekGradually(target);
      return null;
    }
    this.renderAll(true);
    return null;
  }

  restart(seed) {
    if (this.preset && seed === undefined) return this.loadPreset(this.preset.id);
    const s = this.setup ?? simulatorKnobs(DEFAULT_SETUP);
    this.load(buildScenario({ ...s, seed: seed ?? s.seed, durationMs: this.preset ? this.endMs : undefined }));
  }

  /**
   * Restarts free play from the setup controls' values, if every field is valid and the
   * simulator accepts the scenario; otherwise the fields say what is wrong and the run goes on.
   */
  applySetup() {
    const s = this.readSetupControls();
    if (!s) return false;
    const scenario = buildScenario(s);
    try {
      new Timeline(scenario).free();
    } catch (err) {
      this.fieldError(err);
      return false;
    }
    this.load(scenario);
    return true;
  }

  /**
   * Shows a simulator error at a knob it names (the one just changed if named, else the first
   * named), in the fields' words. The simulator speaks scenario keys with their values
   * ("safety_margin_ms 2500 must be above 0 and below ttl_ms 2000: 0 < safety_margin_ms <
   * ttl_ms (design rule 5)"); the field says "Safety margin 2500 ms ... (0 < Safety margin <
   * Lease TTL, design rule 5)": its label for the key, the unit its key ends in.
   */
  fieldError(err) {
    const inputs = [...this.knobBox.querySelectorAll("input[data-knob]")];
    const raw = String(err.message ?? err).replace(/^.*?config(?::\s*|\.)/, "");
    const keyRe = (i, tail = "") => new RegExp(`\\b${i.dataset.knob}\\b${tail}`, "g");
    const at = (i) => raw.search(keyRe(i));
    const named = inputs.filter((i) => at(i) >= 0).sort((a, b) => at(a) - at(b));
    const target = named.includes(this.lastKnob) ? this.lastKnob : named[0] ?? inputs[0];
    let text = raw.replace(/\bmax_round_trip_ms (\d+)/g, "the longest round trip $1 ms").replace(/\bmax_round_trip_ms\b/g, "the longest round trip").replace(/: ([^:]*?) \((design rule \d+)\)$/, " ($1, $2)");
    for (const i of inputs) {
      const unit = i.dataset.knob.match(/_(ms|ppm)$/)?.[1];
      if (unit) text = text.replace(keyRe(i, " (-?[\\d.]+)"), `${i.dataset.label} $1 ${unit}`);
      text = text.replace(keyRe(i), i.dataset.label);
    }
    if (target) setFieldError(target, `${text.charAt(0).toUpperCase()}${text.slice(1)}.`);
    else this.showError(err);
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
    const asked = dt * this.speed;
    // What this frame's drawing will cost (the fast views, and the slow view due, if any: each
    // measured apart), taken off its goal with a margin; the simulation gets the rest.
    const view = this.dueView(t0);
    const goal = frameBudgetMs(this.nodeCount ?? 5);
    const cost = this.drawCost;
    // The cluster rewrites its descriptions every 250 ms: those frames draw for longer.
    const fastKey = this.cluster.describesAt(t0) ? "described" : "fast";
    const fastMs = cost[fastKey] ?? cost.fast ?? 0;
    const viewMs = view === null ? 0 : (cost[view] ?? 0);
    this.margin ??= new FrameMargin();
    const simBudget = goal * (1 - this.margin.share) - fastMs - viewMs;
    // Too little left: a frame with a slow view draws that view alone (the run does not move,
    // so the fast views have nothing new); any other frame still runs its smallest chunk.
    const still = view !== null && simBudget < SIM_MIN_MS;
    const from = this.now;
    const target = Math.min(this.endMs, from + Math.min(asked, SLICE_MAX_MS));
    const beats = this.timeline.history.story.met.length;
    if (!still) {
      this.timeline.fast = this.speed > FAST_SPEED && !this.panelsSeen.has(this.spaceTimePanel);
      this.timeline.deferCheckpoints = true;
      // Played fast, the event log's tail (fetched in full: 0.1-0.7 ms) only for the frames
      // that redraw the log: the others' tails would be replaced before it is drawn.
      this.timeline.tail = view === "events" || !this.showsView("events");
      this.pace ??= new Pace();
      try {
        this.timeline.advance(target, t0 + Math.max(0, simBudget), { pace: this.pace });
      } finally {
        this.timeline.deferCheckpoints = false;
        this.timeline.tail = true;
      }
    }
    const t1 = performance.now();
    if (this.viewTimes) this.timeView("simulation", t0);
    const ran = this.now - from;
    // Stopped short of the time asked: the budget, so the margin, decided how far it ran.
    const limited = !still && this.now < target;
    this.noteReached(dt, ran);
    const met = this.timeline.history.story.met;
    const held = this.holds && this.preset ? met.slice(beats).find((b) => b.hold) : undefined;
    if (held) {
      // Hold at the beat itself: when a frame ran past it, go back to its instant (replayed
      // exactly from a checkpoint), so what is on screen is the moment the caption names.
      this.pause();
      if (this.now > held.time) this.seek(held.time);
      this.heldBeat = held.index;
      // A longer caption may push the cluster down: keep both on screen (a phone).
      if (this.storyScroll) requestAnimationFrame(() => this.keepInView());
    }
    if (this.now >= this.endMs) this.pause();
    const slowMs = this.renderAll(!this.playing, { view, still: still && this.playing });
    const t2 = performance.now();
    // What drawing costs, smoothed per view: the next frames plan with it.
    if (!still) {
      const key = this.cluster.describing ? "described" : "fast";
      cost[key] = smooth(cost[key], t2 - t1 - slowMs);
      // A frame that stood still had nothing to give up: only the others teach the margin.
      this.margin.note(t2 - t0, goal, limited);
    }
    if (view !== null) cost[view] = smooth(cost[view], slowMs);
    // Trimmed by half its length at a time: a shift per frame moved the 4,096 samples each
    // frame (0.05 ms in a profile at 9 nodes).
    this.frameTimes.push(t2 - t0);
    if (this.frameTimes.length >= 2 * FRAME_SAMPLES) this.frameTimes.splice(0, FRAME_SAMPLES);
    if (this.playing) this.raf = requestAnimationFrame((t) => this.frame(t));
  }

  /**
   * Measures the speed reached (simulated ms per wall ms over the last REACHED_WINDOW_MS) and
   * shows it beside the speed asked while it falls short: the frame budget drops simulated time.
   */
  noteReached(dtWall, ranSim) {
    const w = (this.reachedWindow ??= { wall: 0, sim: 0 });
    w.wall += dtWall;
    w.sim += ranSim;
    if (w.wall < REACHED_WINDOW_MS) return;
    const reached = w.sim / w.wall;
    this.reachedWindow = { wall: 0, sim: 0 };
    this.showReached(this.now < this.endMs && reached < REACHED_SHOWN_BELOW * this.speed ? reached : null);
  }

  /** Shows `reached` (a speed) as what the page manages, or hides it (null). */
  showReached(reached) {
    if (!this.reachedEl) return;
    this.reachedEl.hidden = reached == null;
    this.dataset.speedReached = reached == null ? "" : String(reached);
    if (reached != null) setText(this.reachedEl, `runs at ${fmtSpeed(reached)}`);
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
    // The width comes from the observer's entry, so no redraw reads layout.
    this.ro ??= new ResizeObserver((entries) => {
      const width = entries.at(-1)?.contentRect.width;
      if (width > 0) this.timelineView.resize(width);
      requestAnimationFrame(() => this.renderAll(true));
    });
    this.ro.observe(this.timelineSvg);
    this.panelIo ??= new IntersectionObserver((entries) => {
      let shown = false;
      for (const e of entries) {
        if (e.isIntersecting) (this.panelsSeen.add(e.target), (shown = true));
        else this.panelsSeen.delete(e.target);
      }
      if (shown && this.timeline) requestAnimationFrame(() => this.renderAll(true));
    });
    for (const p of [this.logsEl, this.spaceTimePanel]) if (p) this.panelIo.observe(p);
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
    const target = e.composedPath?.()[0] ?? e.target;
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    if (e.key === "Escape") return this.menu.close();
    const tag = target?.tagName?.toUpperCase();
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    // Space and Enter belong to the focused button, node or slider.
    if (e.key === " " && ownsKeys(target)) return;
    const action = shortcutFor(e.key);
    if (!action || !this.timeline) return;
    e.preventDefault();
    e.stopPropagation();
    this.shortcut(action);
  }

  /** Runs a shortcut by name (keys.js); the fault ones act on the acting leader. */
  shortcut(action) {
    if (action === "toggle") return this.toggle();
    if (action === "step") return this.step();
    if (action === "back") return (this.pause(), this.seek(Math.max(0, this.now - 100)));
    if (action === "help") return this.showHelp();
    if (action === "propose") return void this.propose();
    if (action === "next") return this.heldBeat !== undefined ? this.next() : undefined;
    if (action.startsWith("focus-")) return this.cluster.focusProc(action.slice(6));
    const snap = this.snapshot();
    const leader = snap.nodes.find((n) => n.acting_leader);
    if (action === "heal") return this.inject({ type: "heal" });
    if (action === "restart-crashed") {
      for (const n of snap.nodes.filter((n) => n.status === "crashed")) this.inject({ type: "restart", node: n.id });
      return;
    }
    if (!leader) return this.announce("No node leads right now: nothing to do.");
    const id = leader.id;
    if (action === "crash-leader") this.inject({ type: "crash", node: id });
    if (action === "pause-leader") this.inject({ type: "pause", target: id, duration_ms: this.menuValues.pauseMs });
    if (action === "isolate-leader") this.inject({ type: "isolate", nodes: [id] });
  }

  /** Says `text` in the caption (a live region) until the next caption change. */
  announce(text) {
    setText(this.captionEl, text);
    this.lastCaption = text;
    clearTimeout(this.announceTimer);
    this.announceTimer = setTimeout(() => {
      this.lastCaption = undefined;
      this.renderAll(true);
    }, 4000);
  }

  showHelp() {
    this.helpOpener = this.shadowRoot.activeElement;
    this.help.showModal();
  }

  // ----- drawing -----

  /**
   * Which of SLOW_VIEWS a frame at `wall` (performance.now()) should draw: the one drawn
   * longest ago among those shown and not drawn for TIMELINE_EVERY_MS, or null.
   */
  dueView(wall) {
    let due = null;
    for (const v of SLOW_VIEWS) {
      if (!(wall - this.drawnAt[v] > TIMELINE_EVERY_MS) || !this.showsView(v)) continue;
      if (due === null || this.drawnAt[v] < this.drawnAt[due]) due = v;
    }
    return due;
  }

  /** Whether slow view `v` is there to draw while playing (panels off-screen wait). */
  showsView(v) {
    if (v === "timeline") return !this.timelineSvg.hasAttribute("hidden");
    if (v === "events") return this.eventLog != null;
    if (v === "logs") return this.logsEl != null && this.panelsSeen.has(this.logsEl);
    return this.spaceTime != null && this.panelsSeen.has(this.spaceTimePanel);
  }

  /**
   * Draws the views at the current time. The slow views (timeline, event log, panels) are
   * all redrawn when `force`d; otherwise `view` names the one this frame draws (the frame
   * loop's choice, `dueView`; null: none), and without it every one due is drawn. `still`: the
   * run has not moved since the last draw, so only that slow view is drawn. Returns the ms the
   * slow views took.
   */
  renderAll(force, { view, still = false } = {}) {
    if (!this.timeline) return 0;
    // Stopped after playing fast: read every event of the last stretch again, for the views
    // that show messages.
    if (!this.playing && !this.seeking) this.timeline.fillDetail(this.now - DETAIL_MS);
    let t = this.viewTimes ? performance.now() : 0;
    const snap = this.timeline.model.snapshot();
    if (this.viewTimes) t = this.timeView("snapshot", t);
    if (still) return view ? this.drawSlowView(view, snap, false, performance.now()) : 0;
    const sticky = this.timeline.display.writes.findLast((w) => w.time <= snap.time_ms + 1e-6);
    this.cluster.render(snap, { sticky, full: force });
    if (this.viewTimes) t = this.timeView("cluster", t);
    this.safety.render(snap);
    setText(this.timeEl, `${fmtMs(snap.time_ms)}${this.endMs < 3_600_000 ? ` / ${fmtMs(this.endMs)}` : ""}`);
    this.timeEl.dataset.ms = String(snap.time_ms);
    const text = this.captionText(snap);
    // Only a changed caption is written, so the live region speaks each line once.
    if (text !== this.lastCaption) {
      this.lastCaption = text;
      setText(this.captionEl, text);
    }
    const changed = this.storyChanged(snap.time_ms);
    if (this.noteEl && this.noteEl.hidden === changed) this.noteEl.hidden = !changed;
    this.updateHold();
    const presetId = this.preset?.id ?? "";
    if (this.captionEl.dataset.preset !== presetId) this.captionEl.dataset.preset = presetId;
    if (this.viewTimes) t = this.timeView("safety-caption", t);
    const wall = performance.now();
    let slowMs = 0;
    if (force || view === undefined) {
      for (const v of SLOW_VIEWS) if (force || wall - this.drawnAt[v] > TIMELINE_EVERY_MS) slowMs += this.drawSlowView(v, snap, force, wall);
    } else if (view !== null) slowMs = this.drawSlowView(view, snap, false, wall);
    return slowMs;
  }

  /**
   * Draws slow view `v` (one of SLOW_VIEWS) for `snap`; a forced draw includes off-screen
   * panels. Returns the ms it took.
   */
  drawSlowView(v, snap, force, wall) {
    this.drawnAt[v] = wall;
    const t = performance.now();
    if (v === "timeline") {
      const keys = snap.nodes.map((n) => procKey(n.id)).filter((k) => k.startsWith("n"));
      const span = this.endMs < 3_600_000 ? this.endMs : openSpan(this.timeline.furthest);
      if (!this.timelineSvg.hasAttribute("hidden")) this.timelineView.render(this.timeline.display, keys, snap.time_ms, span, snap.store != null);
    } else if (v === "events") this.eventLog?.render(this.timeline.history, snap.time_ms, this.stepSeq);
    // While playing, only the panels on screen are redrawn; a seek or step redraws all.
    else if (v === "logs") {
      if (force || this.panelsSeen.has(this.logsEl)) this.renderLogs(snap);
    } else this.renderSpaceTime(snap, { always: force });
    if (this.viewTimes) return this.timeView(v, t) - t;
    return performance.now() - t;
  }

  /**
   * Debug record of what each view's draw costs, ms: off (null) unless a profiler sets
   * `viewTimes = {}` (bench/_frame-profile.mjs). Records `name` since `t0`; returns now.
   */
  timeView(name, t0) {
    const t = performance.now();
    (this.viewTimes[name] ??= []).push(t - t0);
    return t;
  }

  /** The caption: the story's beat, or (once changed, and in free play) the live narration. */
  captionText(snap) {
    const now = snap.time_ms;
    const live = () => this.timeline.display.live.findLast((l) => l.time <= now + 1e-6)?.text;
    if (this.preset && !this.storyChanged(now)) return this.beatsMet().at(-1)?.text ?? this.preset.intro;
    if (this.preset) return this.timeline.display.live.findLast((l) => l.time <= now + 1e-6 && l.time >= this.timeline.ctx.changedAt - 1e-6)?.text ?? CHANGED_NOTE;
    return live() ?? freePlayCaption(snap, this.presetsEl != null);
  }

  /** Whether the user has changed the story being shown (at or before `now`). */
  storyChanged(now) {
    const at = this.timeline?.ctx.changedAt;
    return Boolean(this.preset) && at != null && now >= at - 1e-6;
  }

  updateHold() {
    if (!this.nextBtn) return;
    const held = this.heldBeat !== undefined && !this.playing;
    // Written only when changed: this runs every frame.
    if (this.nextBtn.hidden !== !held) this.nextBtn.hidden = !held;
    if (this.captionEl.dataset.held !== String(held)) this.captionEl.dataset.held = String(held);
  }

  renderLogs(snap) {
    if (!this.logsEl) return;
    const raft = snap.algorithm === "raft";
    this.raftLogEl.hidden = !raft;
    this.resLogEl.hidden = snap.resource == null;
    if (raft) this.raftLog.render(snap);
    if (snap.resource) this.resLog.render(this.timeline.history, snap.time_ms);
  }

  renderSpaceTime(snap = this.snapshot(), { always = true } = {}) {
    if (!this.spaceTime) return;
    // Off-screen, the diagram waits (it is redrawn as it scrolls into view).
    if (!always && !this.panelsSeen.has(this.spaceTimePanel)) return;
    const keys = snap.nodes.map((n) => procKey(n.id));
    // A run shorter than the window (a shrunk counterexample of a few hundred ms) is drawn whole.
    const win = Math.min(this.spaceWindow || Math.max(500, snap.time_ms), Math.max(1, this.endMs));
    this.spaceTime.render(this.timeline.history, keys, snap.time_ms, win, { all: this.spaceAll });
  }

  /** Opens in-flight message `id`'s detail: its fields and times, and "Drop this message". */
  openMessage(id, anchor, key) {
    this.pause();
    const m = this.timeline.model.sim.message(BigInt(id));
    if (!m) return this.announce("That message has already arrived or been dropped.");
    const row = (k, v) => [html("dt", { text: k }), html("dd", { text: v })];
    const fields = Object.entries(m.fields).map(([k, v]) => row(k, String(v)));
    const body = html("dl", { class: "msg-detail", "data-testid": "message-detail" },
      ...row("from → to", `${procKey(m.from)} → ${procKey(m.to)}`), ...row("sent", fmtMs(m.send_ms)), ...row("arrives", fmtMs(m.arrival_ms)), ...fields.flat());
    this.menu.open(anchor, `${m.kind} #${m.id}`, () => [
      ["Drop this message", () => this.dropMessage(id), { testid: "action-drop-message" }],
    ], [], { invoker: anchor, key, body });
  }

  showError(err) {
    this.error = err;
    if (!this.errorEl) return;
    this.errorEl.hidden = !err;
    // The sentence, in the caller's words; the code stays machine-readable on the element.
    const text = err ? String(err.message ?? err) : "";
    setText(this.errorEl, text.charAt(0).toUpperCase() + text.slice(1));
    setAttrs(this.errorEl, { "data-code": err?.code });
  }

  updatePlayButton() {
    if (!this.playBtn) return;
    setText(this.playBtn, this.playing ? "❚❚ Pause" : "▶ Play");
    this.playBtn.setAttribute("aria-pressed", String(this.playing));
    this.dataset.playing = String(this.playing);
  }

  setSpeed(speed) {
    this.speed = speed;
    this.reachedWindow = undefined;
    if (this.speedInput) this.speedInput.value = String(Math.round(Math.log10(speed) * 100));
    if (this.speedLabel) setText(this.speedLabel, fmtSpeed(speed));
  }

  // ----- building the DOM -----

  sections() {
    const attr = (this.getAttribute("controls") ?? "all").trim();
    if (attr === "all" || attr === "") return new Set(SECTIONS);
    if (attr === "minimal") return new Set(["bar", "caption"]);
    if (attr === "none") return new Set(["caption"]);
    const words = attr.split(",").map((s) => s.trim()).filter(Boolean);
    const unknown = words.filter((w) => !SECTIONS.includes(w));
    if (unknown.length) {
      console.warn(`${PREFIX} controls="${attr}": unknown ${unknown.map((w) => `"${w}"`).join(", ")} ignored; use ${CONTROLS_WORDS.join(", ")}, or a comma list of ${SECTIONS.join(", ")}.`);
    }
    return new Set(words.filter((w) => SECTIONS.includes(w)));
  }

  build() {
    const show = this.sections();
    const root = this.shadowRoot;
    const style = html("style", { text: css });
    this.errorEl = html("p", { class: "error", role: "alert", "data-testid": "error", hidden: true });
    this.heightNote = html("p", { class: "error", role: "alert", "data-testid": "height-note", hidden: true });
    this.captionEl = html("p", { class: "caption", "data-testid": "caption", "aria-live": "polite" });
    const clusterSvg = svg("svg", { class: "cluster" });
    this.drawBtn = html("button", {
      type: "button", class: "draw-toggle", "data-testid": "draw-partition", "aria-pressed": "false",
      title: "Draw a line across the cluster to split the network in two (needed on touch screens)",
      text: "✎ Draw partition", onclick: () => this.setDrawMode(!this.cluster.drawMode),
    });
    this.stage = html("div", { class: "stage" }, clusterSvg);
    this.applyHeight(this.getAttribute("height"));
    this.menu = new Menu(this.stage);
    this.cluster = new ClusterView(clusterSvg, {
      onProcClick: (key, anchor, k) => this.openProcMenu(key, anchor, k),
      onLinkClick: (a, b, at, el, k) => this.menu.open(at, `Link ${a} ↔ ${b}`, () => linkActions(a, b, (f) => this.inject(f)), [], { invoker: el, key: k }),
      onMessageClick: (id, el, k) => this.openMessage(id, el, k),
      onMessageHover: (id) => this.lightMessage(id),
      onDrawLine: (sides) => {
        this.inject(partitionOf(sides));
        if (this.cluster.drawMode) this.setDrawMode(false);
      },
    });
    this.cluster.reducedMotion = this.reducedMotion;
    this.timelineSvg = svg("svg", { class: "timeline" });
    // An SVG element has no `hidden` property (that is HTMLElement's): set the attribute.
    this.timelineSvg.toggleAttribute("hidden", !show.has("timeline"));
    this.timelineView = new TimelineView(this.timelineSvg, { onSeek: (ms) => this.seekSoon(ms) });
    // The draw toggle sits under the cluster, beside the legend, never over a node.
    const under = html("div", { class: "under-stage" }, legend());
    if (show.has("faults") || show.has("setup")) under.prepend(this.drawBtn);
    this.nextBtn = html("button", { type: "button", class: "primary next", "data-testid": "next", text: "Next ▸", hidden: true, onclick: () => this.next(), title: "Go on after this beat (n)", "aria-keyshortcuts": "N" });
    this.holdInput = html("input", { type: "checkbox", checked: this.holds, "data-testid": "holds", onchange: (e) => this.setHolds(e.target.checked) });
    this.noteEl = html("p", { class: "story-note", "data-testid": "story-changed", text: CHANGED_NOTE, hidden: true });
    // "Next" appears only while a beat holds; the hold setting sits with the stories (or,
    // without a story list, beside the caption).
    this.holdLabel = html("label", { class: "holds", title: "Pause at each beat of a story; off: play through" }, this.holdInput, "hold at beats");
    // "Next" sits in the bar, beside Step, so a hold does not reflow the caption.
    const captionSide = html("div", { class: "caption-side" });
    if (!show.has("presets")) captionSide.append(this.holdLabel);
    const captionRow = html("div", { class: "caption-row" }, this.captionEl, captionSide);
    const timelineRow = html("div", { class: "timeline-row" }, this.timelineSvg);
    if (show.has("events")) {
      const box = html("section", { class: "panel event-log", "aria-label": "Event log" });
      this.eventLog = new EventLogView(box, { onSeek: (ms) => this.seekSoon(ms), onMessageHover: (id) => this.lightMessage(id) });
      timelineRow.append(box);
    }
    const mainParts = [this.noteEl, captionRow, this.stage, under, timelineRow];
    if (show.has("logs")) {
      this.raftLogEl = html("section", { class: "panel raft-logs", hidden: true, "aria-label": "Raft logs" });
      this.raftLog = new RaftLogView(this.raftLogEl, { onPropose: () => this.propose() });
      this.resLogEl = html("section", { class: "panel res-logs", hidden: true, "aria-label": "Resource history" });
      this.resLog = new ResourceLogView(this.resLogEl);
      this.logsEl = html("div", { class: "logs" }, this.raftLogEl, this.resLogEl);
      mainParts.push(this.logsEl);
    }
    if (show.has("spacetime")) mainParts.push(this.buildSpaceTime());
    const main = html("div", { class: "main" }, ...mainParts);
    if (!show.has("caption")) {
      this.captionEl.hidden = true;
      captionRow.hidden = true;
    }
    // Tab order follows the page: bar, stories, cluster, timeline, then the panels.
    const parts = [];
    if (show.has("presets")) parts.push(this.buildPresets());
    parts.push(main);
    this.safetyEl = html("section", { class: "panel safety", "aria-label": "Safety checks" });
    this.safety = new SafetyView(this.safetyEl);
    if (show.has("safety")) parts.push(this.safetyEl);
    const below = html("div", { class: "below" });
    if (show.has("setup")) below.append(this.buildSetup());
    if (show.has("faults")) below.append(this.buildFaults());
    if (show.has("info")) below.append(this.buildInfo());
    if (below.childElementCount) parts.push(below);
    const side = show.has("presets") || show.has("safety");
    const layout = html("div", { class: `layout${side ? "" : " no-side"}` }, ...parts);
    const bar = this.buildBar(show.has("bar"));
    this.help = this.buildHelp();
    root.replaceChildren(style, html("div", { class: "pg" }, bar, this.heightNote, this.errorEl, layout, this.help));
    if (!this.hasAttribute("use-hash")) this.addEventListener("keydown", (e) => this.onKey(e));
    root.addEventListener("pointerdown", (e) => {
      if (this.menu.isOpen && !e.composedPath().includes(this.menu.el)) this.menu.close();
    });
  }

  buildSpaceTime() {
    const stSvg = svg("svg", { class: "spacetime" });
    this.spaceTime = new SpaceTimeView(stSvg, {
      onSeek: (ms) => this.seekSoon(ms),
      onHover: (id) => this.lightMessage(id),
    });
    const windowSelect = html("select", { "data-testid": "spacetime-window", onchange: (e) => ((this.spaceWindow = Number(e.target.value)), this.renderSpaceTime()) },
      ...SPACETIME_WINDOWS.map(([ms, label]) => html("option", { value: ms, text: label, selected: ms === this.spaceWindow })));
    this.exportLink = html("a", { class: "button", "data-testid": "spacetime-export", href: "#", download: "tenure-space-time.svg", text: "Export SVG",
      onclick: (e) => {
        const url = URL.createObjectURL(new Blob([this.spaceTimeSVG()], { type: "image/svg+xml" }));
        e.currentTarget.href = url;
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      } });
    this.spaceTimePanel = html("section", { class: "panel spacetime-panel", "aria-labelledby": "st-title" },
      html("div", { class: "log-head" }, html("h2", { id: "st-title", text: "Space-time diagram" }),
        html("label", {}, "window ", windowSelect),
        html("label", { class: "holds" }, html("input", { type: "checkbox", "data-testid": "spacetime-all", onchange: (e) => ((this.spaceAll = e.target.checked), this.renderSpaceTime()) }), "all messages"),
        this.exportLink,
        html("span", { class: "hint", text: "time runs down; each arrow a message; ✕ a drop; dashed rules are faults; shaded: leading" })),
      html("div", { class: "st-scroll" }, stSvg));
    return this.spaceTimePanel;
  }

  /** Touch screens draw partitions only in this mode, so a swipe scrolls the page. */
  setDrawMode(on) {
    this.cluster.drawMode = on;
    this.cluster.root.classList.toggle("drawing", on);
    this.drawBtn.setAttribute("aria-pressed", String(on));
  }

  seekSoon(ms) {
    this.pendingSeek = ms;
    if (this.seekRaf) return;
    this.seekRaf = requestAnimationFrame(() => {
      this.seekRaf = 0;
      this.pause();
      this.seekGradually(this.pendingSeek);
    });
  }

  /**
   * Seeks to `ms` without freezing the page: the replay runs SEEK_SLICE_MS of script per
   * animation frame, the time display shows how far it has come, and the views are drawn at
   * the end. Playing, or another seek, cancels it. Resolves to the time reached.
   */
  seekGradually(ms) {
    const target = Math.min(ms, this.endMs);
    this.heldBeat = undefined;
    this.stepSeq = undefined;
    this.timeline.startSeek(target);
    const from = this.now;
    const token = (this.seeking = { target });
    this.dataset.seeking = "true";
    return new Promise((resolve) => {
      const slice = () => {
        if (this.seeking !== token) return resolve(this.now);
        const done = this.timeline.advance(target, performance.now() + SEEK_SLICE_MS);
        if (done) {
          this.seeking = null;
          delete this.dataset.seeking;
          this.cluster.reset();
          this.renderAll(true);
          return resolve(this.now);
        }
        // The views now and then (they show the run coming along), the progress every slice.
        const wall = performance.now();
        if (!(wall - (token.drawn ?? 0) < SEEK_DRAW_EVERY_MS)) {
          token.drawn = wall;
          this.renderAll(false);
        }
        const pct = Math.floor((100 * (this.now - from)) / Math.max(1, target - from));
        setText(this.timeEl, `seeking to ${fmtMs(target)}: ${pct}%`);
        requestAnimationFrame(slice);
      };
      slice();
    });
  }

  openProcMenu(key, anchor, openedBy) {
    const snap = this.snapshot();
    const node = snap.nodes.find((n) => procKey(n.id) === key);
    const lease = snap.store != null;
    const v = this.menuValues;
    const ms = { unit: "ms", min: 1, max: 600_000 };
    const fields = key === "resource" ? [["pause-ms", "pause ms", v.pauseMs, (x) => (v.pauseMs = x), ms]] : [
      ["pause-ms", "pause / outage ms", v.pauseMs, (x) => (v.pauseMs = x), ms],
      ["offset-ms", "clock step ms", v.offsetMs, (x) => (v.offsetMs = x), { unit: "ms", min: 1, max: 3_600_000 }],
      ...(key.startsWith("n") ? [["drift-pct", "drift %", v.driftPct, (x) => (v.driftPct = x), { unit: "count", min: -99, max: 1000 }]] : []),
    ];
    const title = key.startsWith("n") ? `${key}: ${node?.role ?? ""} (${node?.status ?? ""})` : key;
    const leads = node?.acting_leader === true && snap.algorithm === "raft";
    const rows = () => [...(leads ? [["Propose a command", () => this.propose(), { testid: "action-propose" }]] : []), ...procActions(key, node, v, lease, (f) => this.inject(f))];
    this.menu.open(anchor, title, rows, fields, { invoker: anchor, key: openedBy });
  }

  buildBar(visible) {
    this.playBtn = html("button", { type: "button", class: "primary", "data-testid": "play", onclick: () => this.toggle(), title: "Play / pause (space)", "aria-keyshortcuts": "Space" });
    const stepBtn = html("button", { type: "button", "data-testid": "step", onclick: () => this.step(), title: "Process one event (.)", text: "Step", "aria-keyshortcuts": "." });
    this.speedInput = html("input", {
      type: "range", min: SPEED_MIN, max: SPEED_MAX, step: 1, "data-testid": "speed", "aria-label": "speed",
      oninput: (e) => this.setSpeed(10 ** (Number(e.target.value) / 100)),
    });
    this.speedLabel = html("output", { class: "speed-label", "data-testid": "speed-label" });
    this.reachedEl = html("span", { class: "speed-reached", "data-testid": "speed-reached", hidden: true, title: "This device cannot simulate this fast within a frame: the page drops simulated time rather than fall behind." });
    this.timeEl = html("span", { class: "time", "data-testid": "time" });
    const restart = html("button", { type: "button", "data-testid": "restart", onclick: () => this.restart(), text: "↺ Restart", title: "Restart with the same seed" });
    // The link's codec is fetched as the pointer or the focus comes to the button, so the
    // click usually finds it there and copies at once.
    const copy = html("button", { type: "button", "data-testid": "copy-link", onclick: () => this.copyLink(), onpointerenter: loadCodec, onfocus: loadCodec, text: "Copy link" });
    const keys = html("button", { type: "button", class: "keys", "data-testid": "shortcuts", onclick: () => this.showHelp(), text: "?", "aria-label": "Keyboard shortcuts", title: "Keyboard shortcuts (?)", "aria-haspopup": "dialog", "aria-keyshortcuts": "?" });
    this.linkOut = html("input", { class: "link-out", readonly: true, "data-testid": "permalink-url", "aria-label": "permalink", hidden: true });
    const bar = html("div", { class: "bar", role: "toolbar", "aria-label": "playback" },
      this.playBtn, stepBtn, this.nextBtn, html("label", { class: "speed" }, html("span", { class: "speed-word", text: "speed" }), this.speedInput, this.speedLabel, this.reachedEl), this.timeEl,
      html("span", { class: "bar-end" }, restart, copy, keys), this.linkOut);
    if (!visible) bar.hidden = true;
    this.updatePlayButton();
    this.setSpeed(this.speed);
    return bar;
  }

  buildHelp() {
    const rows = SHORTCUTS.map(([k, what]) => html("tr", {}, html("th", { scope: "row" }, html("kbd", { text: k })), html("td", { text: what })));
    const close = html("button", { type: "button", "data-testid": "shortcuts-close", text: "Close", onclick: () => dialog.close() });
    const dialog = html("dialog", { class: "help", "data-testid": "shortcuts-dialog", "aria-labelledby": "help-title" },
      html("h2", { id: "help-title", text: "Keyboard shortcuts" }),
      html("table", {}, html("tbody", {}, ...rows)), close);
    dialog.addEventListener("keydown", (e) => e.stopPropagation());
    dialog.addEventListener("close", () => this.helpOpener?.focus?.({ preventScroll: true }));
    return dialog;
  }

  async copyLink() {
    // Made at once when the codec is there (hovered or focused first), so the clipboard write
    // stays inside the click.
    const make = this.linkMaker();
    const url = make(codec ?? (await loadCodec()));
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

  /**
   * Plays story `id` from the start (with reduced motion: loads it, paused), scrolling so that
   * the caption sits under the bar and the cluster below it, together on screen.
   */
  startStory(id) {
    this.loadPreset(id);
    if (!this.reducedMotion) this.play();
    this.storyScroll = true;
    this.keepInView();
  }

  /** Scrolls (only if needed) so that the caption sits under the bar, the cluster below it. */
  keepInView() {
    const bar = this.shadowRoot.querySelector(".bar");
    const barBottom = bar && !bar.hidden ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
    const top = (this.captionEl.hidden ? this.stage : this.captionEl).getBoundingClientRect().top;
    const bottom = this.stage.getBoundingClientRect().bottom;
    if (top < barBottom || bottom > innerHeight) {
      const by = Math.min(top - barBottom - 6, Math.max(0, bottom - innerHeight + 6));
      window.scrollBy({ top: by, behavior: "instant" });
    }
  }

  markCurrentStory() {
    if (!this.presetsEl) return;
    for (const b of this.presetsEl.querySelectorAll("button[data-preset]")) {
      setAttrs(b, { "aria-current": b.dataset.preset === this.preset?.id ? "true" : undefined });
    }
  }

  buildPresets() {
    const items = PRESETS.map((p) =>
      html("li", {}, html("button", { type: "button", "data-testid": `preset-${p.id}`, "data-preset": p.id, onclick: () => this.startStory(p.id) },
        html("strong", { text: p.title }), html("small", { text: p.blurb }))));
    this.presetsEl = html("nav", { class: "panel presets", "aria-labelledby": "stories-title" },
      html("div", { class: "stories-head" }, html("h2", { id: "stories-title", text: "Stories" }), this.holdLabel), html("ul", {}, ...items));
    return this.presetsEl;
  }

  buildSetup() {
    this.algoSelect = html("select", { "data-testid": "algorithm", onchange: () => this.onAlgorithmChange() },
      ...ALGORITHMS.map(([v, label]) => html("option", { value: v, text: label })));
    this.nodesInput = html("input", { type: "range", min: 3, max: 9, step: 1, "data-testid": "nodes", onchange: () => this.applySetup(), oninput: (e) => setText(this.nodesOut, e.target.value) });
    this.nodesOut = html("output", {});
    this.seedInput = html("input", { type: "text", inputmode: "numeric", "data-testid": "seed", "data-label": "Seed", onchange: () => this.applySetup() });
    this.knobBox = html("div", { class: "knobs" });
    this.marginBox = html("div", { class: "margin", "data-testid": "margin-diagram" });
    const newSeedBtn = html("button", { type: "button", "data-testid": "restart-new-seed", text: "New seed", onclick: () => { this.seedInput.value = String(newSeed()); this.applySetup(); } });
    return html("section", { class: "panel setup", "aria-labelledby": "setup-title" }, html("h2", { id: "setup-title", text: "Setup" }),
      html("label", {}, "Algorithm", this.algoSelect),
      html("label", {}, "Nodes ", this.nodesOut, this.nodesInput),
      html("div", { class: "row" }, fieldLabel("Seed", this.seedInput), newSeedBtn),
      this.knobBox, this.marginBox);
  }

  onAlgorithmChange() {
    const s = this.readSetupControls({ knobs: false });
    if (!s) return;
    // The new algorithm's knobs start at the page's choices and the simulator's defaults.
    this.setup = simulatorKnobs({ ...s, knobs: startKnobs(this.algoSelect.value) });
    this.load(buildScenario(this.setup));
  }

  syncSetupControls() {
    const s = this.setup;
    if (this.infoEl) this.renderInfo(s.choice);
    if (this.outageSlider) this.outageSlider.hidden = family(s.choice) !== "lease";
    if (!this.algoSelect) return;
    this.algoSelect.value = s.choice;
    this.nodesInput.value = String(s.nodes);
    setText(this.nodesOut, String(s.nodes));
    this.seedInput.value = String(s.seed);
    setFieldError(this.seedInput, null);
    // Same knobs as shown: update the values in place (focus and the caret stay where they are).
    const fam = knobsFor(s.choice) === knobsFor(family(s.choice)) ? family(s.choice) : s.choice;
    if (this.knobBox.dataset.family === fam) {
      for (const input of this.knobBox.querySelectorAll("input[data-knob]")) {
        input.value = String(s.knobs[input.dataset.knob]);
        setFieldError(input, null);
      }
    } else {
      this.knobBox.dataset.family = fam;
      this.knobBox.replaceChildren(...knobsFor(s.choice).map(([k, label, , , , unit]) =>
        fieldLabel(label, html("input", {
          type: "text", inputmode: "decimal", value: s.knobs[k], "data-testid": `knob-${k}`, "data-knob": k, "data-label": label.replace(/\s*\(.*$/, ""),
          "data-unit": unit, onchange: (e) => { this.lastKnob = e.target; this.applySetup(); },
        }))));
    }
    this.renderMarginDiagram();
    if (this.storeOutageBtn) this.storeOutageBtn.hidden = family(s.choice) !== "lease";
  }

  /**
   * The setup controls' values, or null when a field is invalid (the field then shows why,
   * and keeps what was typed). `knobs: false` skips the knobs (an algorithm change resets them).
   */
  readSetupControls({ knobs: withKnobs = true } = {}) {
    let ok = true;
    const read = (input, spec) => {
      const r = parseField(input.value, { label: input.dataset.label, ...spec });
      setFieldError(input, r.error ?? null);
      if (r.error) ok = false;
      return r.value;
    };
    const seed = read(this.seedInput, { unit: "count", min: 0, max: Number.MAX_SAFE_INTEGER, integer: true });
    const knobs = {};
    if (withKnobs) {
      const spec = Object.fromEntries(knobsFor(this.setup.choice).map(([k, , min, max, , unit]) => [k, { min, max, unit }]));
      for (const input of this.knobBox.querySelectorAll("input[data-knob]")) knobs[input.dataset.knob] = read(input, spec[input.dataset.knob]);
    }
    if (!ok) return null;
    return { choice: this.algoSelect.value, nodes: Number(this.nodesInput.value), seed, knobs };
  }

  renderMarginDiagram() {
    const s = this.setup;
    this.marginBox.hidden = family(s.choice) !== "lease" || s.knobs.safety_margin_ms == null;
    if (this.marginBox.hidden) return;
    const lat = this.timeline?.network?.latency_ms ?? [5, 30];
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
    // Only lease worlds have a store to take down: the outage length and button show there only.
    this.outageSlider = slider("outageMs", "Store outage", 100, 10000, 100, (x) => `${x} ms`);
    this.outageSlider.dataset.testid = "outage-slider";
    return html("section", { class: "panel faults", "aria-labelledby": "faults-title" }, html("h2", { id: "faults-title", text: "Break it" }),
      html("p", { class: "hint", text: "Click a node, the store or a link for faults (or focus it and press Enter; ? lists the keys). Drag a line across the cluster to split the network in two; on a touch screen, turn on ✎ Draw partition first." }),
      slider("loss", "Loss", 0, 1, 0.05, (x) => `${Math.round(x * 100)}%`),
      html("button", { type: "button", "data-testid": "action-loss", onclick: run("action-loss"), text: "Apply loss" }),
      slider("latencyMax", "Max latency", 1, 2000, 1, (x) => `${x} ms`),
      html("button", { type: "button", "data-testid": "action-latency", onclick: run("action-latency"), text: "Apply latency" }),
      this.outageSlider,
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
      html("h3", { text: "Choose it" }), html("p", { text: info.choose }),
      ...(this.preset ? [html("h3", { text: `Sources for “${this.preset.title}”` }), html("ul", { "data-testid": "sources" }, ...this.preset.cites.map((c) => html("li", { text: c })))] : []));
  }
}


/**
 * `setup` with each knob it leaves out at the value the simulator runs with (its
 * `effectiveConfig()`), so the fields and the scenario (and its permalink) state them, and the
 * page never restates the simulator's defaults.
 */
function simulatorKnobs(setup) {
  const scenario = buildScenario(setup);
  const model = new Model(scenario);
  try {
    return { ...setup, knobs: setupOf(scenario, model.effectiveConfig()).knobs };
  } finally {
    model.free();
  }
}

/** A label around a text field with a place for its error (announced with the field). */
function fieldLabel(label, input) {
  const id = `err-${input.dataset.testid}`;
  const err = html("span", { class: "field-error", id, "data-testid": `${input.dataset.testid}-error`, hidden: true });
  input.setAttribute("aria-describedby", id);
  const l = html("label", {}, label, input);
  return html("div", { class: "field-wrap" }, l, err);
}

/** Shows `message` at `input` (aria-invalid, the error below it), or clears it. */
function setFieldError(input, message) {
  const err = input.getRootNode().getElementById?.(input.getAttribute("aria-describedby"));
  setAttrs(input, { "aria-invalid": message ? "true" : undefined });
  if (!err) return;
  err.hidden = !message;
  setText(err, message ?? "");
}

/** When `run` first departs from `story`'s scenario (a fault the story does not have), or null. */
function departure(story, run) {
  const key = (f) => JSON.stringify([Number(f.at_ms), f.fault]);
  const own = new Set((story.faults ?? []).map(key));
  const extra = (run.faults ?? []).filter((f) => !own.has(key(f)));
  return extra.length ? Math.min(...extra.map((f) => Number(f.at_ms))) : null;
}

function unknownPreset(id) {
  return Object.assign(new RangeError(`there is no story named ${JSON.stringify(id)}; the stories are ${PRESETS.map((p) => p.id).join(", ")}. Showing free play instead.`), { code: "PAGE_UNKNOWN_PRESET" });
}

function legend() {
  const item = (cls, text) => html("li", { class: cls }, html("span", { class: "swatch", "aria-hidden": "true" }), text);
  return html("ul", { class: "legend", "aria-label": "legend" },
    item("l-leader", "★ leader"), item("l-candidate", "candidate"), item("l-follower", "follower"),
    item("l-paused", "paused"), item("l-crashed", "crashed"),
    item("l-timer", "time to next timeout"), item("l-lease", "lease time left"),
    item("l-vote", "vote"), item("l-beat", "heartbeat"), item("l-store", "lease"), item("l-write", "write"),
    item("l-resp", "reply"), item("l-cut", "cut link"));
}

function freePlayCaption(snap, hasStories) {
  const leaders = snap.nodes.filter((n) => n.acting_leader);
  if (leaders.length === 0) return `No leader right now. Click a node to break it${hasStories ? ", or pick a story" : ""}.`;
  if (leaders.length > 1) return `${leaders.length} nodes act as leader at once: split brain.`;
  return `n${leaders[0].id} leads. Click it to crash or pause it, or drag a line across the ring to partition.`;
}

/**
 * The timeline's span for an open-ended run (an hour or more) that has reached `furthest` ms:
 * the next step of 10 s, 20 s, 50 s, 100 s, ... at or past it. Steps, not the furthest time
 * itself, so the scale (and with it a full redraw of the timeline) changes a few times per run.
 */
export function openSpan(furthest) {
  let step = 10_000;
  for (let i = 0; furthest > step; i++) step *= i % 3 === 1 ? 2.5 : 2;
  return step;
}

function fmtSpeed(s) {
  return s >= 1 ? `${s.toFixed(s >= 10 ? 0 : 1)}×` : `${s.toPrecision(2)}×`;
}

if (!customElements.get("tenure-playground")) customElements.define("tenure-playground", TenurePlayground);
