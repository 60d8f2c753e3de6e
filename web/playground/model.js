// The model: the wasm `Simulation` from the npm package's `tenure/sim`, and nothing else. This file
// only forwards calls and reads its data; every rule of every algorithm lives in the package.
import init, { Simulation } from "tenure/sim";
import { MIN_CHUNK_MS } from "./pace.js";

let ready;

/**
 * Loads the wasm module once per page; every playground on the page shares it. `url`
 * overrides where the .wasm comes from (by default beside the bindings' script); the first
 * call's wins.
 */
export function loadWasm(url) {
  ready ??= init(url);
  return ready;
}

/** The largest chunk of simulated time run at once, so the event log never overflows. */
const CHUNK_MS = 100;
/**
 * The event kinds the timeline is drawn from (leadership, pauses, crashes, split-brain windows,
 * writes, faults, violations). Runs played fast or replayed for a seek fetch only these, and every kind for
 * the last TAIL_EVENTS events and the last stretch before the target (timeline.js).
 */
export const TIMELINE_KINDS = ["node", "split-brain-started", "split-brain-ended", "write", "fault", "violation"];
const TAIL_EVENTS = 64;

/** One simulated world, built from a scenario. */
export class Model {
  /** @param {object} scenario the versioned scenario object (CLI JSON). Throws on bad input. */
  constructor(scenario) {
    this.sim = new Simulation(scenario);
    this.cursor = 0;
    /** Simulated ms from which every event kind was fetched (before it, the timeline's only). */
    this.detailSince = 0;
  }

  /** A model around an existing `Simulation` (a checkpoint's clone) and its event cursor. */
  static fromClone(sim, cursor, detailSince = 0) {
    const m = Object.create(Model.prototype);
    m.sim = sim;
    m.cursor = cursor;
    m.detailSince = detailSince;
    return m;
  }

  /** Whether the package can clone a simulation (cheap checkpoints for seeking back). */
  get canClone() {
    return typeof this.sim.clone === "function";
  }

  /** Current simulated time, ms. */
  get now() {
    return this.sim.now;
  }

  /** The scenario's end, ms. */
  get endMs() {
    return this.sim.endMs;
  }

  /**
   * Runs up to `toMs` in chunks; after each chunk calls `onEvents(events, nowMs)` with the new
   * trace events, oldest first. Stops early after a chunk that ends past `deadline` (a
   * `performance.now()` value); a smaller `chunkMs` stops closer to it. With `pace` (a Pace,
   * pace.js) each chunk is sized to the time left by what the last ones cost, and the run stops
   * before a chunk that would end past the deadline instead of after it. Before `detailFrom`
   * (ms) only the timeline's event kinds are fetched, and (unless `tail` is false) the last
   * TAIL_EVENTS of every kind at the end. Returns whether it reached `toMs`.
   */
  advance(toMs, onEvents, deadline = Infinity, { detailFrom = -Infinity, chunkMs = CHUNK_MS, pace, tail = true } = {}) {
    const chunk = Math.min(CHUNK_MS, chunkMs);
    // The page's float arithmetic leaves sub-microsecond noise; the binding refuses real
    // fractions of a microsecond, so round to whole microseconds first (the target too, so a
    // target between two microseconds is reached rather than never).
    const us = (ms) => Math.round(ms * 1000) / 1000;
    toMs = us(toMs);
    while (this.sim.now < toMs) {
      const before = this.sim.now;
      const t0 = pace ? performance.now() : 0;
      // The first chunk always runs (at least MIN_CHUNK_MS), so a frame over budget still moves.
      const size = pace ? Math.max(MIN_CHUNK_MS, Math.min(chunk, pace.fits(deadline - t0, tail))) : chunk;
      this.sim.runUntil(us(Math.min(toMs, before + size)));
      const late = pace ? !pace.roomBefore(deadline, tail) : performance.now() > deadline;
      const stop = this.sim.now >= toMs || this.sim.now <= before || late;
      // Before `detailFrom`, only the kinds the timeline needs; the last chunk keeps its tail.
      const tailNow = stop && tail && !(this.sim.now > detailFrom);
      const events = this.sim.now > detailFrom ? this.drain() : tailNow ? this.drainTail() : this.drain(TIMELINE_KINDS);
      onEvents?.(events, this.sim.now);
      pace?.note(performance.now() - t0, this.sim.now - before, tailNow);
      if (this.sim.now <= before) break;
      if (this.sim.now < toMs && late) return false;
    }
    return this.sim.now >= toMs;
  }

  /** Processes every event due at the current instant (none may be left at it). */
  settle(onEvents) {
    this.sim.runUntil(Math.round(this.sim.now * 1000) / 1000);
    const events = this.drain();
    if (events.length) onEvents?.(events, this.sim.now);
  }

  /** Processes one event; returns whether there was one. */
  step(onEvents) {
    const more = this.sim.step();
    onEvents?.(this.drain(), this.sim.now);
    return more;
  }

  /** Applies `fault` now (recorded in the scenario for the permalink). Throws on misuse. */
  inject(fault, onEvents) {
    this.sim.inject(fault);
    onEvents?.(this.drain(), this.sim.now);
  }

  /** New trace events since the last call (of `kinds` only, if given). */
  drain(kinds) {
    const page = this.sim.eventsSince(this.cursor, kinds);
    this.cursor = page.cursor;
    if (kinds) this.detailSince = this.sim.now;
    return page.events;
  }

  /**
   * New trace events since the last call: every event of the timeline's kinds, and the last
   * TAIL_EVENTS of any kind (what the event log shows). Two calls, but only the tail's
   * messages and timeouts are converted.
   */
  drainTail() {
    const from = this.cursor;
    const page = this.sim.eventsSince(from, TIMELINE_KINDS);
    const tailFrom = Math.max(from, page.cursor - TAIL_EVENTS);
    const tail = this.sim.eventsSince(tailFrom);
    this.cursor = tail.cursor;
    this.detailSince = tail.events[0]?.time_ms ?? this.sim.now;
    return [...page.events.filter((e) => e.seq < tailFrom), ...tail.events];
  }

  /** The world now: see the package's `Snapshot` type. */
  snapshot() {
    return this.sim.snapshot();
  }

  /** The scenario with every fault so far at its time: what a permalink stores. */
  scenario() {
    return this.sim.toJSON();
  }

  /** The config the simulator runs with: the scenario's, every default filled in (ms). */
  effectiveConfig() {
    return this.sim.effectiveConfig();
  }

  /** Frees the wasm memory. */
  free() {
    this.sim.free?.();
  }
}
