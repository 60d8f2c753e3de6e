// The timeline: one run of a scenario through time, with seeking both ways. Forward runs the
// model; back restores the latest checkpoint at or before the target (or the start) and
// replays, which lands on the same state because a scenario plus its seed replays exactly.
// Injecting a fault in the past forks: the recorded future and its faults are dropped.
import { History } from "./history.js";
import { Model } from "./model.js";

/** Simulated ms between checkpoints, when the package can clone a simulation. */
const CHECKPOINT_EVERY_MS = 2000;
/** Most checkpoints kept; beyond, every other one is dropped (older gaps grow). */
const MAX_CHECKPOINTS = 64;

export class Timeline {
  /** @param {object} scenario throws (TypeError/RangeError with a code) if invalid */
  constructor(scenario) {
    this.model = new Model(scenario);
    this.history = new History();
    /** The furthest record, kept for display while a replay catches up to it. */
    this.record = null;
    this.checkpoints = [];
    this.checkpoint();
  }

  /** Current simulated time, ms. */
  get now() {
    return this.model.now;
  }

  /** The furthest time reached so far (the end of the recorded timeline), ms. */
  get furthest() {
    return Math.max(this.history.maxTime, this.record?.maxTime ?? 0);
  }

  /** The record to draw: the furthest one. */
  get display() {
    return this.record && this.record.maxTime > this.history.maxTime ? this.record : this.history;
  }

  /** Runs forward to `ms`. */
  advance(ms) {
    while (this.model.now < ms) {
      const next = this.nextCheckpointTime();
      this.model.advance(Math.min(ms, next), (events, now) => this.history.ingest(events, now));
      if (this.model.now >= next) this.checkpoint();
      else break;
    }
    if (this.record && this.history.maxTime >= this.record.maxTime) this.record = null;
  }

  /** Processes one event. Returns whether there was one. */
  step() {
    return this.model.step((events, now) => this.history.ingest(events, now));
  }

  /** Seeks to `ms`, forward by running, back by restoring and replaying. */
  seek(ms) {
    if (ms >= this.model.now) return this.advance(ms);
    if (!this.record || this.record.maxTime < this.history.maxTime) this.record = this.history;
    this.restore(ms, this.model.scenario());
    this.advance(ms);
  }

  /** Applies `fault` now. If the timeline holds a future beyond now, that future is dropped. */
  inject(fault) {
    if (this.record && this.record.maxTime > this.model.now) {
      const now = this.model.now;
      const scenario = this.model.scenario();
      scenario.faults = scenario.faults.filter((f) => f.at_ms <= now);
      this.record = null;
      this.checkpoints = this.checkpoints.filter((c) => c.time <= now && !c.sim);
      this.restore(now, scenario);
      this.advance(now);
    }
    this.model.inject(fault, (events, now) => this.history.ingest(events, now));
    this.checkpoints = this.checkpoints.filter((c) => c.time < this.model.now);
  }

  /** The scenario with every fault so far, at its time. */
  scenario() {
    return this.model.scenario();
  }

  /** Rebuilds the model for `scenario` from the start (or a checkpoint at or before `ms`). */
  restore(ms, scenario) {
    const cp = this.checkpoints.findLast((c) => c.time <= ms && c.sim);
    this.model.free();
    if (cp) {
      this.model = Model.fromClone(cp.sim.clone(), cp.cursor);
      this.history = cloneHistory(cp.history);
    } else {
      this.model = new Model(scenario);
      this.history = new History();
    }
  }

  nextCheckpointTime() {
    const last = this.checkpoints.at(-1)?.time ?? 0;
    return last + CHECKPOINT_EVERY_MS;
  }

  checkpoint() {
    const sim = this.model.canClone ? this.model.sim.clone() : null;
    this.checkpoints.push({ time: this.model.now, sim, cursor: this.model.cursor, history: sim ? cloneHistory(this.history) : null });
    if (this.checkpoints.length > MAX_CHECKPOINTS) {
      const dropped = this.checkpoints.filter((_, i) => i % 2 === 1);
      for (const c of dropped) c.sim?.free?.();
      this.checkpoints = this.checkpoints.filter((_, i) => i % 2 === 0);
    }
  }

  /** Frees the wasm memory of the model and the checkpoints. */
  free() {
    this.model.free();
    for (const c of this.checkpoints) c.sim?.free?.();
    this.checkpoints = [];
  }
}

function cloneHistory(h) {
  return Object.assign(new History(), structuredClone({ ...h }));
}
