// What the next chunk of simulation will cost, from what the last ones cost: the frame loop
// sizes each chunk to the script time it has left and stops before one that would not fit,
// so its last chunk does not run past the frame's budget (docs/frame.md).

/** Weight of the newest chunk in the smoothed cost per simulated ms. */
const WEIGHT = 0.3;
/** Simulated ms of the first chunk, before any cost is known. */
const FIRST_MS = 10;
/** Chunks of at least this many simulated ms can raise the planned cost on their own (a burst). */
const BURST_MIN_MS = 20;
/** The smallest chunk worth a call into the simulator, simulated ms. */
export const MIN_CHUNK_MS = 2;

/** Smoothed script ms per simulated ms of the chunks run, and the extra of a frame's last chunk. */
export class Pace {
  constructor() {
    /** Script ms per simulated ms (the simulator, fetching its events, recording them). */
    this.perMs = undefined;
    /** The most recent chunk's figure: a burst (an election) costs more than the average. */
    this.lastPerMs = undefined;
    /** Extra script ms of a frame's last chunk (it fetches the event log's tail in detail). */
    this.tailMs = 0;
  }

  /** The cost per simulated ms to plan with: the smoothed one, or the last chunk's if higher. */
  get rate() {
    return Math.max(this.perMs ?? 0, this.lastPerMs ?? 0);
  }

  /** Simulated ms that fit in `ms` of script time, the last chunk's extra kept aside. */
  fits(ms) {
    if (this.perMs === undefined) return FIRST_MS;
    return Math.max(0, ms - this.tailMs) / Math.max(1e-6, this.rate);
  }

  /** Whether another chunk of at least MIN_CHUNK_MS fits before `deadline` (performance.now()). */
  roomBefore(deadline) {
    return this.fits(deadline - performance.now()) >= MIN_CHUNK_MS;
  }

  /**
   * Records a chunk: `ms` of script time for `simMs` simulated; `tail`: the frame's last, whose
   * cost is the tail's extra on top of its simulated ms (both figures learn from it).
   */
  note(ms, simMs, tail) {
    if (!(simMs > 0)) return;
    if (tail && this.perMs !== undefined) {
      const extra = Math.max(0, ms - simMs * this.perMs);
      this.tailMs = this.tailMs * (1 - WEIGHT) + extra * WEIGHT;
    }
    const cost = Math.max(0, ms - (tail ? this.tailMs : 0));
    // Smoothed sums rather than smoothed ratios: a small chunk's call costs little in all but
    // weighs as much as its simulated ms, not as much as a whole chunk.
    this.costSum = (this.costSum ?? 0) * (1 - WEIGHT) + cost;
    this.simSum = (this.simSum ?? 0) * (1 - WEIGHT) + simMs;
    this.perMs = this.costSum / this.simSum;
    if (simMs >= BURST_MIN_MS) this.lastPerMs = cost / simMs;
  }
}
