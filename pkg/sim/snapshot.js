// `Simulation.prototype.snapshot()`: reads the flat frame the wasm module writes
// (crates/tenure-wasm/src/simulation_frame.rs) into the documented `Snapshot` object.
//
// serde-wasm-bindgen built the same object one property at a time, a call from wasm into JS
// each (1.7 ms at 25 Raft nodes); here the module writes numbers only, in the simulator's
// serde field order, into one Float64Array copied out with a single call, and plain object
// literals below rebuild it. Strings are indices into the simulation's label table (role,
// kind, status and reason names), fetched once each. Violations only grow, so their entries
// are fetched once and shared (frozen) between snapshots.
//
// The field order here must match the simulator's serde structs (tenure-sim's snapshot.rs,
// metrics.rs, trace/mod.rs WriteRecord): tests/pkg/simulation-snapshot.test.mjs compares this
// reader's snapshots with serde-wasm-bindgen's, field for field, over runs of every algorithm.

const STATE = Symbol("tenure.snapshotFrame");

/** Per-Simulation reader state: the copy buffer, the labels and the violations seen. */
function stateOf(sim) {
  let s = sim[STATE];
  if (s === undefined) {
    s = { buf: new Float64Array(4096), labels: [], violations: [] };
    Object.defineProperty(sim, STATE, { value: s });
  }
  return s;
}

/** The snapshot of `this` Simulation (installed as `Simulation.prototype.snapshot`). */
function snapshot() {
  const s = stateOf(this);
  let len = this.__snapshotFrame(s.buf);
  if (len > s.buf.length) {
    s.buf = new Float64Array(Math.max(len, 2 * s.buf.length));
    this.__frameInto(s.buf);
  }
  const b = s.buf;
  const labelCount = b[0];
  if (labelCount > s.labels.length) s.labels.push(...this.__frameLabels(s.labels.length));
  const violationCount = b[1];
  if (violationCount !== s.violations.length) {
    // Only grows within one Simulation (time only moves forward); refetch all otherwise.
    const from = violationCount > s.violations.length ? s.violations.length : 0;
    if (from === 0) s.violations = [];
    for (const v of this.__violationsFrom(from)) {
      Object.freeze(v.nodes);
      s.violations.push(Object.freeze(v));
    }
  }
  return new Reader(b, s.labels).snapshot(s.violations.slice());
}

/** A cursor over one frame. */
class Reader {
  constructor(buf, labels) {
    this.b = buf;
    this.p = 2;
    this.labels = labels;
  }

  num() {
    return this.b[this.p++];
  }

  bool() {
    return this.b[this.p++] === 1;
  }

  str() {
    return this.labels[-this.b[this.p++] - 1];
  }

  /** A process id: a node number, or a label ("store", "resource"). */
  proc() {
    const v = this.b[this.p++];
    return v >= 0 ? v : this.labels[-v - 1];
  }

  /** `Option<number>`. */
  optNum() {
    return this.b[this.p++] === 1 ? this.b[this.p++] : null;
  }

  /** `Option<T>`: a tag, then `T`. */
  some() {
    return this.b[this.p++] === 1;
  }

  snapshot(violations) {
    const time_ms = this.num();
    const algorithm = this.str();
    const nodes = new Array(this.num());
    for (let i = 0; i < nodes.length; i++) nodes[i] = this.node();
    const in_flight = new Array(this.num());
    for (let i = 0; i < in_flight.length; i++) {
      in_flight[i] = { id: this.num(), from: this.proc(), to: this.proc(), kind: this.str(), value: this.optNum(), send_ms: this.num(), arrival_ms: this.num() };
    }
    const dropped = new Array(this.num());
    for (let i = 0; i < dropped.length; i++) {
      dropped[i] = { id: this.num(), from: this.proc(), to: this.proc(), kind: this.str(), time_ms: this.num(), reason: this.str() };
    }
    const blocked = new Array(this.num());
    for (let i = 0; i < blocked.length; i++) blocked[i] = [this.proc(), this.proc()];
    const store = this.some()
      ? { holder: this.optNum(), token: this.optNum(), expiry_ms: this.optNum(), expiry_true_ms: this.optNum(), ttl_ms: this.optNum(), last_token: this.optNum(), available: this.bool() }
      : null;
    const resource = this.some() ? this.resource() : null;
    const metrics = this.metrics();
    const promised = new Array(this.num());
    for (let i = 0; i < promised.length; i++) promised[i] = this.str();
    return { time_ms, algorithm, nodes, in_flight, dropped, blocked, store, resource, metrics, violations, promised };
  }

  node() {
    const id = this.proc();
    const role = this.str();
    const role_kind = this.str();
    const acting_leader = this.bool();
    const term = this.optNum();
    const token = this.optNum();
    const leader = this.optNum();
    const status = this.str();
    const clock_ms = this.num();
    const lease_deadline_ms = this.optNum();
    const lease_validity_ms = this.optNum();
    const next_timer = this.some() ? { kind: this.str(), deadline_ms: this.num(), armed_ms: this.num(), wait_ms: this.num() } : null;
    const log_len = this.optNum();
    const commit = this.optNum();
    let log = null;
    if (this.some()) {
      log = new Array(this.num());
      for (let i = 0; i < log.length; i++) log[i] = { index: this.num(), term: this.num(), command: this.optNum() };
    }
    return { id, role, role_kind, acting_leader, term, token, leader, status, clock_ms, lease_deadline_ms, lease_validity_ms, next_timer, log_len, commit, log };
  }

  resource() {
    const highest_token = this.num();
    const fenced = this.bool();
    const recent_writes = new Array(this.num());
    for (let i = 0; i < recent_writes.length; i++) {
      recent_writes[i] = {
        time_ms: this.num(),
        issued_ms: this.num(),
        from: this.proc(),
        token: this.num(),
        accepted: this.bool(),
        reason: this.some() ? this.str() : null,
        stale: this.bool(),
        late: this.bool(),
        presented: this.optNum(),
        required: this.num(),
      };
    }
    return { highest_token, fenced, recent_writes };
  }

  metrics() {
    const elections_total = this.num();
    const leadership_lost_total = this.num();
    const fencing_token = this.optNum();
    const leaders_now = this.num();
    const split_brain_ms = this.num();
    const worst_split_brain_ms = this.num();
    const leaderless_ms = this.num();
    const failover_ms = new Array(this.num());
    for (let i = 0; i < failover_ms.length; i++) failover_ms[i] = this.num();
    return {
      elections_total,
      leadership_lost_total,
      fencing_token,
      leaders_now,
      split_brain_ms,
      worst_split_brain_ms,
      leaderless_ms,
      failover_ms,
      writes_accepted: this.num(),
      writes_rejected: this.num(),
      stale_writes_accepted: this.num(),
      stale_writes_rejected: this.num(),
      late_writes: this.num(),
      messages_sent: this.num(),
      messages_delivered: this.num(),
      messages_dropped: this.num(),
      events: this.num(),
    };
  }
}

/** Defines `snapshot()` on the generated `Simulation` class (before the guards wrap it). */
export function installSnapshot(Simulation) {
  Object.defineProperty(Simulation.prototype, "snapshot", { value: snapshot, writable: true, configurable: true, enumerable: false });
}
