// What the next chunk of simulation will cost, from what the last ones cost: the frame loop
// sizes each chunk to the script time it has left and stops before one that would not fit,
// so its last chunk does not run past the frame's budget (docs/frame.md).

/** Weight of the newest chunk in the smoothed cost per simulated ms. */
const WEIGHT = 0.3;
/** Simulated ms of the first chunk, before any cost is known. */
const FIRST_MS = 10;
/** Chunks of at least this many simulated ms can raise the planned cost on their own (a burst). */
const BURST_MIN_MS = 20;
/** The most a call's own cost is taken to be, ms (the fit can wander on few chunks). */
const CALL_MAX_MS = 0.3;
/** The smallest chunk worth a call into the simulator, simulated ms. */
export const MIN_CHUNK_MS = 2;

/**
 * A chunk's script ms as `callMs + perMs x simulated ms`, fitted over the last chunks (least
 * squares, older chunks weighing less), and the extra of a frame's last chunk. A cost per
 * simulated ms alone would count each call's own cost against the simulated ms: small chunks
 * would look dear, so the next ones smaller still, down to nothing.
 */
export class Pace {
  constructor() {
    /** Smoothed sums over the chunks: weight, x (simulated ms), y (script ms), xx, xy. */
    this.s = { n: 0, x: 0, y: 0, xx: 0, xy: 0 };
    this.callMs = 0;
    /** Script ms per simulated ms (the simulator, fetching its events, recording them). */
    this.perMs = undefined;
    /** The most recent long chunk's figure: a burst (an election) costs more than the fit. */
    this.lastPerMs = undefined;
    /** Extra script ms of a frame's last chunk (it fetches the event log's tail in detail). */
    this.tailMs = 0;
  }

  /** The cost per simulated ms to plan with: the fitted one, or the last long chunk's if higher. */
  get rate() {
    return Math.max(this.perMs ?? 0, this.lastPerMs ?? 0);
  }

  /** Simulated ms that fit in `ms` of script time, the last chunk's extra kept aside if `tail`. */
  fits(ms, tail = true) {
    if (this.perMs === undefined) return FIRST_MS;
    return Math.max(0, ms - this.callMs - (tail ? this.tailMs : 0)) / Math.max(1e-6, this.rate);
  }

  /** Whether another chunk of at least MIN_CHUNK_MS fits before `deadline` (performance.now()). */
  roomBefore(deadline, tail = true) {
    return this.fits(deadline - performance.now(), tail) >= MIN_CHUNK_MS;
  }

  /**
   * Records a chunk: `ms` of script time for `simMs` simulated; `tail`: the frame's last, whose
   * cost is the tail's extra on top (both figures learn from it).
   */
  note(ms, simMs, tail) {
    if (!(simMs > 0)) return;
    if (tail && this.perMs !== undefined) {
      const extra = Math.max(0, ms - this.callMs - simMs * this.perMs);
      this.tailMs = this.tailMs * (1 - WEIGHT) + extra * WEIGHT;
    }
    const y = Math.max(0, ms - (tail ? this.tailMs : 0));
    const s = this.s;
    const keep = 1 - WEIGHT / 4;
    s.n = s.n * keep + 1;
    s.x = s.x * keep + simMs;
    s.y = s.y * keep + y;
    s.xx = s.xx * keep + simMs * simMs;
    s.xy = s.xy * keep + simMs * y;
    const mx = s.x / s.n;
    const my = s.y / s.n;
    const varX = s.xx / s.n - mx * mx;
    // Chunks all of one size say nothing of the call's own cost: keep the last figure for it.
    if (varX > 1e-3 * mx * mx + 1e-9) {
      const slope = (s.xy / s.n - mx * my) / varX;
      this.callMs = Math.min(CALL_MAX_MS, Math.max(0, my - Math.max(0, slope) * mx));
    }
    this.perMs = Math.max(1e-6, (my - this.callMs) / mx);
    if (simMs >= BURST_MIN_MS) this.lastPerMs = Math.max(0, y - this.callMs) / simMs;
  }
}
