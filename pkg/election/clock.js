// The driver's clock and its one timer (design rule 10): a monotonic `performance.now()`
// rounded to whole microseconds, so no machine call ever sees ERR_MILLIS_PRECISION, and a
// single re-armable timeout that is `unref`'d under Node (an idle election does not keep the
// process alive) unless the caller is waiting on it (`keepAlive`).

/** Whole microseconds of `performance.now()`, never going backwards. */
export class MonotonicClock {
  #last = 0;

  /** The current reading in ms, a multiple of 0.001. */
  now() {
    const t = Math.round(performance.now() * 1000) / 1000;
    if (t > this.#last) this.#last = t;
    return this.#last;
  }
}

// setTimeout's delay is a signed 32-bit count of ms; longer waits fire early and re-arm.
const MAX_DELAY_MS = 0x7fffffff;

/** One timer: `arm(at, now)` replaces whatever was armed; `fire` is called once it is due. */
export class OneTimer {
  #handle;
  #at;
  #fire;

  /** @param {() => void} fire */
  constructor(fire) {
    this.#fire = fire;
  }

  /**
   * Arms the timer for clock time `at` (ms), or disarms it when `at` is undefined. With
   * `keepAlive` the timer holds a Node process open (someone awaits what it will settle).
   */
  arm(at, now, keepAlive = false) {
    if (at === this.#at && this.#handle !== undefined) {
      this.#ref(keepAlive);
      return;
    }
    this.clear();
    if (at === undefined) return;
    this.#at = at;
    const delay = Math.min(MAX_DELAY_MS, Math.max(0, Math.ceil(at - now)));
    this.#handle = setTimeout(() => {
      this.#handle = undefined;
      this.#at = undefined;
      this.#fire();
    }, delay);
    this.#ref(keepAlive);
  }

  // Node: an armed lease timer alone does not keep the process running. Browsers return a
  // number, which has neither ref nor unref.
  #ref(keepAlive) {
    const h = this.#handle;
    if (typeof h !== "object" || h === null) return;
    if (keepAlive) h.ref?.();
    else h.unref?.();
  }

  clear() {
    if (this.#handle !== undefined) clearTimeout(this.#handle);
    this.#handle = undefined;
    this.#at = undefined;
  }
}

/** A promise that resolves after `ms`, without keeping a Node process alive. */
export function sleep(ms) {
  return new Promise((resolve) => {
    const h = setTimeout(resolve, ms);
    if (typeof h === "object" && typeof h?.unref === "function") h.unref();
  });
}
