// The timeline: one run of a scenario through time, with seeking both ways. Forward runs the
// model; back restores the latest checkpoint at or before the target (or the start) and
// replays, which lands on the same state because a scenario plus its seed replays exactly.
// Injecting a fault in the past forks: the recorded future and its faults are dropped.
import { History } from "./history.js";
import { Model } from "./model.js";

/** Simulated ms between checkpoints at least, when the package can clone a simulation. */
const CHECKPOINT_EVERY_MS = 2000;
/** ... and at most, so a seek back replays a bounded stretch. */
const CHECKPOINT_MAX_EVERY_MS = 30_000;
/**
 * The share of simulation time cloning may take: a clone that costs more than this share of
 * the simulation it follows spaces the next checkpoints out (by cost, not by time alone).
 */
const CLONE_SHARE = 0.1;
/**
 * Seeks and slow play fetch every event kind for the last DETAIL_MS before their target (the
 * space-time diagram's longest window short of "whole run"); before it, the timeline's kinds.
 */
export const DETAIL_MS = 5000;
/** Most checkpoints kept; beyond, every other one is dropped (older gaps grow). */
const MAX_CHECKPOINTS = 64;

export class Timeline {
  /** @param {object} scenario throws (TypeError/RangeError with a code) if invalid */
  constructor(scenario) {
    this.model = new Model(scenario);
    /** The scenario's own faults, and those injected since (at their times). */
    this.baseFaults = [...(scenario.faults ?? [])];
    this.injected = [];
    this.history = new History();
    /** The furthest record, kept for display while a replay catches up to it. */
    this.record = null;
    this.checkpoints = [];
    /** Simulated ms between checkpoints now (grows when clones cost more than CLONE_SHARE). */
    this.checkpointEvery = CHECKPOINT_EVERY_MS;
    /** Wall ms spent simulating since the last checkpoint, and the last clone costs (ms). */
    this.simWall = 0;
    this.cloneTimes = [];
    /** Set by the page while it plays fast: only the timeline's kinds and a tail are fetched. */
    this.fast = false;
    /** Set by the page's frame loop while it advances: checkpoints wait for an idle moment. */
    this.deferCheckpoints = false;
    /**
     * Whether a run played fast ends with the event log's tail in full (model.js); the frame
     * loop asks for it only in the frames that redraw the event log.
     */
    this.tail = true;
    this.lease = String(scenario.algorithm).startsWith("lease");
    // The scenario as the simulator read it (defaults filled in), converted once.
    const read = this.model.scenario();
    this.configRead = read.config ?? {};
    this.networkModel = read.network ?? {};
    const timeline = this;
    /** The config the simulator runs with (its defaults filled in), for the narration. */
    this.effective = this.model.effectiveConfig();
    /** What the history narrates with: the story (set by `tell`), and who changed it when. */
    this.ctx = {
      story: null,
      config: this.effective,
      algorithm: String(scenario.algorithm),
      get changedAt() {
        const first = timeline.injected[0]?.at_ms ?? null;
        return timeline.changedAt == null ? first : first == null ? timeline.changedAt : Math.min(first, timeline.changedAt);
      },
      userFault: (ev) => timeline.injected.some((f) => Math.abs(f.at_ms - ev.time_ms) < 1e-3 && f.fault.type === ev.fault.type),
    };
    this.onChunk = (events, now) => {
      this.history.ingest(events, now, this.ctx);
      if (this.lease && events.some(movesLease)) this.history.sampleLeases(this.model.snapshot());
    };
    this.checkpoint();
  }

  /**
   * Narrates `story` (a preset with beats) from the start: call before running. `changedAt`
   * is when the run first departs from the story (a permalink of a changed story), if it does.
   */
  tell(story, changedAt = null) {
    this.ctx.story = story ?? null;
    this.changedAt = changedAt;
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

  /**
   * The scenario's config (knobs). It never changes during a run (injected faults add faults,
   * not config), so it is read once: converting the whole scenario, with every fault, to a JS
   * object each frame cost milliseconds on long runs.
   */
  get config() {
    return this.configRead;
  }

  /** The scenario's network model, read once for the same reason. */
  get network() {
    return this.networkModel;
  }

  /**
   * Runs forward to `ms`. With `deadline` (a `performance.now()` value), stops after the first
   * chunk of simulation that ends past it (with `pace`, before a chunk that would: model.js):
   * the frame loop then drops the rest of its simulated time instead of owing it to the next
   * frame. Returns whether it reached `ms`.
   */
  advance(ms, deadline = Infinity, { chunkMs, pace } = {}) {
    // Seeking to the current instant still runs the events due at it (time 0 after a
    // restore), so a seek to a beat's time lands after that beat's event.
    if (this.model.now >= ms) this.model.settle(this.onChunk);
    const detailFrom = this.needsEveryEvent() ? -Infinity : this.fast ? Infinity : ms - DETAIL_MS;
    while (this.model.now < ms) {
      // Deferred, a checkpoint does not stop the run at its time: it is taken when idle, at
      // whatever time the run has reached then (any time is as good a restore point).
      const next = this.deferCheckpoints ? Infinity : this.nextCheckpointTime();
      const t0 = performance.now();
      this.model.advance(Math.min(ms, next), this.onChunk, deadline, { detailFrom, chunkMs, pace, tail: this.tail });
      this.simWall += performance.now() - t0;
      if (this.model.now >= next) this.checkpoint();
      else break;
      if (performance.now() > deadline) break;
    }
    if (this.deferCheckpoints && this.model.now >= this.nextCheckpointTime()) this.checkpointWhenIdle();
    if (this.record && this.history.maxTime >= this.record.maxTime) this.record = null;
    return this.model.now >= ms;
  }

  /**
   * Takes the checkpoint that is due once the page is idle (between frames), so a clone's cost
   * is not spent inside an animation frame; the frame loop sets `deferCheckpoints` while it
   * advances. Nothing happens if a seek or another checkpoint made it not due by then.
   */
  checkpointWhenIdle() {
    if (this.idleCheckpoint) return;
    const idle = globalThis.requestIdleCallback ?? ((f) => setTimeout(f, 0));
    this.idleCheckpoint = true;
    idle(() => {
      this.idleCheckpoint = false;
      if (!this.freed && this.model.now >= this.nextCheckpointTime()) this.checkpoint();
    }, { timeout: 500 });
  }

  /**
   * Whether every event must be read as it happens: a story's beats and narration match
   * messages, and a lease world samples its leases at deliveries.
   */
  needsEveryEvent() {
    return this.lease || (this.ctx.story != null && this.ctx.changedAt == null);
  }

  /**
   * After playing fast, fills in what only every event gives (the space-time diagram's
   * messages, the event log) from `fromMs` on: replays from a checkpoint at or before it to
   * now, reading every event. Without such a checkpoint it does nothing.
   */
  fillDetail(fromMs) {
    if (this.model.detailSince <= Math.max(0, fromMs)) return;
    const now = this.model.now;
    const lastInjection = this.injected.at(-1)?.at_ms ?? -1;
    if (!this.checkpoints.some((c) => c.sim && c.time <= fromMs && c.time > lastInjection)) return;
    if (!this.record || this.record.maxTime < this.history.maxTime) this.record = this.history;
    const fast = this.fast;
    this.fast = false;
    this.restore(fromMs, null);
    this.advance(now);
    this.fast = fast;
  }

  /** Processes one event. Returns whether there was one. */
  step() {
    return this.model.step(this.onChunk);
  }

  /** Seeks to `ms`, forward by running, back by restoring and replaying. */
  seek(ms) {
    this.startSeek(ms);
    this.advance(ms);
  }

  /**
   * The first half of a seek: going back, restores the latest checkpoint at or before `ms`
   * (or the start); `advance(ms)` then replays the rest, in slices if the caller wants.
   */
  startSeek(ms) {
    if (ms >= this.model.now) return;
    if (!this.record || this.record.maxTime < this.history.maxTime) this.record = this.history;
    this.restore(ms, this.model.scenario());
  }

  /**
   * Applies `fault` now. If the timeline holds a future beyond now (the user went back), that
   * future is dropped first: the faults injected after now, and every checkpoint (each clone
   * carries the old future's faults in its queue). The scenario's own faults stay.
   */
  inject(fault) {
    const now = this.model.now;
    if (this.record && this.record.maxTime > now) {
      const kept = this.injected.filter((f) => f.at_ms <= now);
      if (kept.length !== this.injected.length) {
        const scenario = this.model.scenario();
        // Same order as the simulator's toJSON: the scenario's faults, then injected ones,
        // stably sorted by time.
        scenario.faults = [...this.baseFaults, ...kept].sort((a, b) => a.at_ms - b.at_ms);
        this.injected = kept;
        this.checkpoints = [];
        this.restore(now, scenario);
        this.advance(now);
      }
      this.record = null;
    }
    this.injected.push({ at_ms: now, fault });
    try {
      this.model.inject(fault, this.onChunk);
    } catch (err) {
      this.injected.pop();
      throw err;
    }
    this.checkpoints = this.checkpoints.filter((c) => c.time < now);
  }

  /** The scenario with every fault so far, at its time. */
  scenario() {
    return this.model.scenario();
  }

  /**
   * Rebuilds the model at a checkpoint at or before `ms`, or for `scenario` from the start.
   * Only checkpoints taken after the last injected fault qualify: an older clone's queue
   * lacks the faults injected since.
   */
  restore(ms, scenario) {
    const lastInjection = this.injected.at(-1)?.at_ms ?? -1;
    const cp = this.checkpoints.findLast((c) => c.sim && c.time <= ms && c.time > lastInjection);
    this.model.free();
    if (cp) {
      this.model = Model.fromClone(cp.sim.clone(), cp.cursor, cp.detailSince);
      this.history = historyFrom(cp.history);
    } else {
      this.model = new Model(scenario);
      this.history = new History();
    }
  }

  nextCheckpointTime() {
    const last = this.checkpoints.at(-1)?.time ?? this.model.now;
    // Whole milliseconds: the model runs to whole microseconds, and must reach it exactly.
    return Math.ceil(last + this.checkpointEvery);
  }

  checkpoint() {
    const t0 = performance.now();
    const sim = this.model.canClone ? this.model.sim.clone() : null;
    const cloneMs = performance.now() - t0;
    const history = sim ? snapshotHistory(this.history) : null;
    if (sim) {
      this.cloneTimes.push(cloneMs);
      if (this.cloneTimes.length > 256) this.cloneTimes.shift();
      // Space checkpoints by what one costs (the clone and the record's copy) against the
      // simulation it follows.
      const share = (performance.now() - t0) / this.simWall;
      if (this.simWall > 0 && share > CLONE_SHARE) this.checkpointEvery = Math.min(CHECKPOINT_MAX_EVERY_MS, this.checkpointEvery * Math.min(4, share / CLONE_SHARE));
      else if (this.simWall > 0 && share < CLONE_SHARE / 4) this.checkpointEvery = Math.max(CHECKPOINT_EVERY_MS, this.checkpointEvery / 2);
    }
    this.simWall = 0;
    this.checkpoints.push({ time: this.model.now, sim, cursor: this.model.cursor, detailSince: this.model.detailSince, history });
    this.checkpoints.sort((a, b) => a.time - b.time);
    if (this.checkpoints.length > MAX_CHECKPOINTS) {
      const dropped = this.checkpoints.filter((_, i) => i % 2 === 1);
      for (const c of dropped) c.sim?.free?.();
      this.checkpoints = this.checkpoints.filter((_, i) => i % 2 === 0);
    }
  }

  /** Frees the wasm memory of the model and the checkpoints. */
  free() {
    this.freed = true;
    this.model.free();
    for (const c of this.checkpoints) c.sim?.free?.();
    this.checkpoints = [];
  }
}

/** Events after which a lease deadline or the store's expiry may have moved. */
function movesLease(ev) {
  if (ev.event === "node") return ev.what === "became-leader" || ev.what === "stepped-down" || ev.what === "crashed";
  return ev.event === "deliver" && (ev.msg === "Granted" || ev.msg === "Renewed" || ev.msg === "Renew" || ev.msg === "Acquire");
}

/** History lists that only grow (no shift, no pop): a checkpoint keeps their length only. */
const APPEND_ONLY = ["splits", "writes", "faults"];
/** History maps whose lists only grow (leadership and down spans per node). */
const APPEND_ONLY_MAPS = ["lead", "down"];

/**
 * What a checkpoint keeps of History `h`, in time independent of the run's length: for each
 * list that only grows, the list itself and its length now, and a copy of its last record if
 * that record is still open (`to === null`: the only record `History` changes after adding it,
 * as it closes the last span only); the bounded lists (the event log, messages, narration,
 * judged writes, lease samples: a few hundred entries each) are copied, with a copy of every
 * record still open (a message on the wire); the rest (story progress, counters) is cloned.
 * `historyFrom` turns it back into a History.
 */
function snapshotHistory(h) {
  const grown = (list) => ({ list, len: list.length, last: list.at(-1)?.to === null ? { ...list.at(-1) } : null });
  const snap = { grown: {}, grownMaps: {}, copied: {} };
  for (const [k, v] of Object.entries(h)) {
    if (APPEND_ONLY.includes(k)) snap.grown[k] = grown(v);
    else if (APPEND_ONLY_MAPS.includes(k)) snap.grownMaps[k] = Array.from(v, ([key, list]) => [key, grown(list)]);
    else snap.copied[k] = copyBounded(v);
  }
  return snap;
}

/**
 * A copy of one of History's bounded values: lists and maps copied, with a copy of each record
 * still open (a span with `to === null`, a message with `end === null`); other objects cloned.
 */
function copyBounded(v) {
  const open = (x) => (x !== null && typeof x === "object" && (x.to === null || x.end === null) ? { ...x } : x);
  if (Array.isArray(v)) return v.map(open);
  if (v instanceof Map) return new Map(Array.from(v, ([key, x]) => [key, Array.isArray(x) ? x.slice() : open(x)]));
  if (v !== null && typeof v === "object") return structuredClone(v);
  return v;
}

/** A History as it stood at `snapshotHistory(h)`, sharing the records that no longer change. */
function historyFrom(snap) {
  const upTo = ({ list, len, last }) => {
    const out = list.slice(0, len);
    if (last) out[len - 1] = { ...last };
    return out;
  };
  const out = new History();
  for (const [k, g] of Object.entries(snap.grown)) out[k] = upTo(g);
  for (const [k, lists] of Object.entries(snap.grownMaps)) out[k] = new Map(lists.map(([key, g]) => [key, upTo(g)]));
  // The copies stay the checkpoint's: the History built from it gets its own.
  for (const [k, v] of Object.entries(snap.copied)) out[k] = copyBounded(v);
  return out;
}
