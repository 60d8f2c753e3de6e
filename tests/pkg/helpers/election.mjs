// Helpers for the LeaderElection tests: real waits, a store wrapper whose link can be cut or
// made to misbehave, and an event recorder. The store behind is always a real MemoryStore.

/** Waits `ms` (a referenced timer: it keeps the test process alive). */
export const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `cond()` is truthy (polled every 5 ms); rejects after `timeoutMs`. */
export async function until(cond, timeoutMs, what = "condition") {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const v = cond();
    if (v) return v;
    if (performance.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await wait(5);
  }
}

/** Fast ttls for the tests; rule 5 holds (renew ttl/3 + round trip <= ttl - margin). */
export const FAST = { ttlMs: 300, safetyMarginMs: 60, maxRoundTripMs: 40, requestTimeoutMs: 40, retryIntervalMs: 30, retryJitterMs: 20 };

/**
 * One node's link to a shared store. `mode`: "up" (pass through), "cut" (every request
 * unanswered: resolves undefined), "silent" (the promise never settles), "throw" (send throws
 * synchronously), "reject" (rejects with a non-Error), or a function request -> reply that
 * answers instead of the store. `sent` counts requests by type.
 */
export class Link {
  constructor(store) {
    this.store = store;
    this.mode = "up";
    this.sent = { Acquire: 0, Renew: 0, Release: 0 };
    this.requests = [];
  }

  send(request) {
    this.sent[request.type]++;
    this.requests.push(request);
    if (this.requests.length > 1000) this.requests.shift();
    const mode = this.mode;
    if (typeof mode === "function") return Promise.resolve(mode(request));
    switch (mode) {
      case "up":
        return this.store.send(request);
      case "cut":
        return Promise.resolve(undefined);
      case "silent":
        return new Promise(() => {});
      case "throw":
        throw new Error("connection reset");
      case "reject":
        return Promise.reject("ECONNREFUSED");
      default:
        throw new Error(`unknown mode ${mode}`);
    }
  }
}

/** Records every event of an election: `rec.events` in order as [name, payload, at_ms]. */
export function record(election) {
  const rec = { events: [], errors: [] };
  for (const name of ["elected", "lost", "held"]) election.on(name, (p) => rec.events.push([name, p, performance.now()]));
  election.on("error", (err) => rec.errors.push(err));
  return rec;
}
