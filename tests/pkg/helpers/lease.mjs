// Hand-driving LeaseCandidates against a LeaseStore for the package tests: an instantaneous,
// reliable network unless a test holds or drops messages itself.

/**
 * Drains `candidate`'s outputs at `now`: each `Send` goes to `store.handle(storeNow, request)`
 * and its response (if the store answered) straight back to `handleResponse(now, response)`.
 * Returns the events, in order.
 */
export function drain(candidate, store, now, storeNow = now) {
  const events = [];
  let out;
  while ((out = candidate.pollOutput()) !== undefined) {
    if (out.type === "Event") {
      events.push(out.event);
    } else {
      const response = store.handle(storeNow, out.request);
      if (response !== undefined) candidate.handleResponse(now, response);
    }
  }
  return events;
}

/** Fires `candidate`'s timers, in order, until `until` ms, draining after each. */
export function runUntil(candidate, store, until) {
  const events = [];
  for (let t = candidate.pollTimeout(); t !== undefined && t <= until; t = candidate.pollTimeout()) {
    candidate.handleTimeout(t);
    for (const event of drain(candidate, store, t)) events.push({ at: t, ...event });
  }
  return events;
}

/** Issues `count` grants for `key` to a throwaway holder, so the next grant's token is count + 1. */
export function burnTokens(store, key, count) {
  for (let i = 1n; i <= BigInt(count); i++) {
    const granted = store.handle(0, { type: "Acquire", id: i, key, holder: 999n, session: 999n, ttl_ms: 1 });
    store.handle(0, { type: "Release", id: i, key, holder: 999n, session: 999n, token: granted.token });
  }
}
