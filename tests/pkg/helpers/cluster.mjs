// A tiny hand-driven network for the package tests: it follows each machine's documented call
// order (drain pollOutput after every input; call handleTimeout when pollTimeout is due) and
// nothing more, so the tests exercise the bindings, not a second simulator.

/**
 * Drives RaftNode or BullyNode instances that exchange `{ type: "Send", to, msg }` outputs.
 * Messages take `latency` ms; crashed nodes neither send, receive nor fire timers.
 */
export class Cluster {
  constructor(nodes, { latency = 1 } = {}) {
    this.nodes = new Map(nodes.map((n) => [n.id, n]));
    this.latency = latency;
    this.now = 0;
    this.queue = []; // { at, from, to, msg }, in send order
    this.down = new Set();
    this.cut = new Set(); // "from>to" links that drop messages
    this.events = []; // { at, id, event }
    this.outputs = new Map(); // id -> every output, in order
  }

  /** Drains one node's outputs after an input. */
  drain(id) {
    const node = this.nodes.get(id);
    let out;
    while ((out = node.pollOutput()) !== undefined) {
      if (!this.outputs.has(id)) this.outputs.set(id, []);
      this.outputs.get(id).push(out);
      if (out.type === "Send") {
        if (!this.down.has(id) && !this.cut.has(`${id}>${out.to}`)) {
          this.queue.push({ at: this.now + this.latency, from: id, to: out.to, msg: out.msg });
        }
      } else if (out.type === "Event") {
        this.events.push({ at: this.now, id, event: out.event });
      }
    }
  }

  /** Feeds `fn(node)` as an input to node `id` at the current time, then drains it. */
  input(id, fn) {
    fn(this.nodes.get(id));
    this.drain(id);
  }

  /** Processes every message delivery and due timer up to `until` ms, in time order. */
  runUntil(until, { maxSteps = 100_000 } = {}) {
    for (let steps = 0; steps < maxSteps; steps++) {
      let timerAt = Infinity;
      let timerId;
      for (const [id, node] of this.nodes) {
        if (this.down.has(id)) continue;
        const t = node.pollTimeout();
        if (t !== undefined && t < timerAt) [timerAt, timerId] = [t, id];
      }
      const msgIndex = this.queue.reduce((best, m, i) => (best < 0 || m.at < this.queue[best].at ? i : best), -1);
      const msgAt = msgIndex < 0 ? Infinity : this.queue[msgIndex].at;
      const next = Math.min(timerAt, msgAt);
      if (next > until) {
        this.now = Math.max(this.now, until);
        return;
      }
      this.now = Math.max(this.now, next);
      if (msgAt <= timerAt) {
        const [m] = this.queue.splice(msgIndex, 1);
        if (!this.down.has(m.to) && this.nodes.has(m.to)) {
          this.input(m.to, (n) => n.handleMessage(this.now, m.from, m.msg));
        }
      } else {
        this.input(timerId, (n) => n.handleTimeout(this.now));
      }
    }
    throw new Error(`runUntil(${until}) did not settle within ${maxSteps} steps at ${this.now} ms`);
  }

  crash(id) {
    this.down.add(id);
    this.queue = this.queue.filter((m) => m.from !== id && m.to !== id);
  }

  /** Replaces a crashed node with `node` (rebuilt from its persisted state). */
  restart(node) {
    this.nodes.set(node.id, node);
    this.down.delete(node.id);
  }

  eventsOf(id, type) {
    return this.events.filter((e) => e.id === id && (type === undefined || e.event.type === type));
  }
}

/** JSON.stringify with bigints as `"5n"`, for assertion messages. */
export function show(value) {
  return JSON.stringify(value, (_, v) => (typeof v === "bigint" ? `${v}n` : v));
}
