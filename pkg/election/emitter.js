// A tiny typed event emitter for LeaderElection and ShardedElection: `on`/`off`/`once`, the
// same in Node and browsers (Node's EventEmitter is not in browsers, EventTarget has no
// payload types). A listener that throws does not break the emitter or the caller: its error
// is handed to `onListenerError` (the election turns it into an `error` event).

export class Emitter {
  #listeners = new Map();
  #onListenerError;

  /** @param {(err: unknown, event: string) => void} onListenerError */
  constructor(onListenerError) {
    this.#onListenerError = onListenerError;
  }

  on(event, listener) {
    if (typeof listener !== "function") {
      const err = new TypeError(`listener for "${String(event)}" must be a function, got ${typeof listener}`);
      err.code = "ERR_LISTENER_TYPE";
      throw err;
    }
    let set = this.#listeners.get(event);
    if (set === undefined) this.#listeners.set(event, (set = []));
    set.push({ listener, once: false });
  }

  once(event, listener) {
    this.on(event, listener);
    const set = this.#listeners.get(event);
    set[set.length - 1].once = true;
  }

  off(event, listener) {
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
        this.#onListenerError(err, event);
      }
    }
    return true;
  }
}
