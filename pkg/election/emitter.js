// A tiny typed event emitter for LeaderElection and ShardedElection: `on`/`off`/`once`, the
// same in Node and browsers (Node's EventEmitter is not in browsers, EventTarget has no
// payload types). A listener that throws does not break the emitter or the caller: its error
// is handed to `onListenerError` (the election turns it into an `error` event, or prints a
// throwing `error` listener once: see `ListenerErrors` below), and the next listener still runs.
// Node's EventEmitter would let the throw escape emit(); here emit() runs on the election's
// timers and store answers, where an escaping throw would be an uncaught exception that
// crashes the host (design rule 10: errors never crash the host). The events
// are a fixed list: a listener for any other name (a typo such as "electd") would never be
// called, so `on`/`once`/`off` refuse it with `ERR_EVENT_NAME`.

export class Emitter {
  #listeners = new Map();
  #onListenerError;
  #owner;
  #names;

  /**
   * @param {string} owner the class the events belong to, for messages ("LeaderElection")
   * @param {string[]} names the events it emits
   * @param {(err: unknown, event: string, payload: unknown) => void} onListenerError
   */
  constructor(owner, names, onListenerError) {
    this.#owner = owner;
    this.#names = names;
    this.#onListenerError = onListenerError;
  }

  #known(method, event) {
    if (this.#names.includes(event)) return;
    const shown = typeof event === "string" ? JSON.stringify(event) : typeof event === "symbol" ? event.toString() : `${typeof event} ${String(event)}`;
    const err = new TypeError(`${this.#owner}.${method}: ${shown} is not an event of ${this.#owner}; its events are ${this.#names.map((n) => `"${n}"`).join(", ")}`);
    err.code = "ERR_EVENT_NAME";
    throw err;
  }

  on(event, listener) {
    this.#known("on", event);
    if (typeof listener !== "function") {
      const err = new TypeError(`listener for "${String(event)}" must be a function, got ${listener === null ? "null" : typeof listener}`);
      err.code = "ERR_LISTENER_TYPE";
      throw err;
    }
    let set = this.#listeners.get(event);
    if (set === undefined) this.#listeners.set(event, (set = []));
    set.push({ listener, once: false });
  }

  once(event, listener) {
    this.#known("once", event);
    this.on(event, listener);
    const set = this.#listeners.get(event);
    set[set.length - 1].once = true;
  }

  off(event, listener) {
    this.#known("off", event);
    const set = this.#listeners.get(event);
    if (set === undefined) return;
    const i = set.findIndex((e) => e.listener === listener);
    if (i >= 0) set.splice(i, 1);
  }

  /** How many listeners `event` has. */
  count(event) {
    return this.#listeners.get(event)?.length ?? 0;
  }

  /** Calls each listener of `event` with `payload`, in order of registration. */
  emit(event, payload) {
    const set = this.#listeners.get(event);
    if (set === undefined || set.length === 0) return false;
    for (const entry of [...set]) {
      if (entry.once) this.off(event, entry.listener);
      try {
        entry.listener(payload);
      } catch (err) {
        try {
          this.#onListenerError(err, event, payload);
        } catch {
          // A thrown value that cannot even be described (a getter of it threw): dropped.
        }
      }
    }
    return true;
  }
}

/**
 * What an election does with a throwing `error` listener: there is no further event to carry
 * it, and it throws again on every failure (a store that is down fails every retry), so it is
 * printed once per election with `console.error` (its stack included), and later throws of
 * that election's `error` listeners are counted, not printed: `count` says how many threw.
 */
export class ListenerErrors {
  #owner;
  count = 0;

  /** @param {string} owner how the election is named in the message (`LeaderElection "orders"`) */
  constructor(owner) {
    this.#owner = owner;
  }

  threw(err) {
    this.count++;
    if (this.count > 1) return;
    console.error(`tenure ${this.#owner}: an "error" listener threw; the election goes on (printed once: later throws of its "error" listeners are not printed):`, err);
  }
}
