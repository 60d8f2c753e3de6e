// `Simulation.prototype.snapshot()`: reads the flat frame the wasm module writes
// (crates/tenure-wasm/src/simulation_frame.rs), in place in the module's memory, into the
// documented `Snapshot` object.
//
// serde-wasm-bindgen built the same object one property at a time, a call from wasm into JS
// each (1.7 ms at 25 Raft nodes); here the module writes numbers only, in the simulator's
// serde field order, and plain object literals below rebuild it. Strings are indices into the
// simulation's label table (role, kind, status and reason names), fetched once each.
// Violations only grow, so their entries are fetched once and shared (frozen) between
// snapshots; so are log entries while their index, term and command stay the same.
//
// The field order here must match the simulator's serde structs (tenure-sim's snapshot.rs,
// metrics.rs, trace/mod.rs WriteRecord): tests/pkg/simulation-snapshot.test.mjs compares this
// reader's snapshots with serde-wasm-bindgen's, field for field, over runs of every algorithm.

const STATE = Symbol("tenure.snapshotFrame");

// Log entries read, by `index % ENTRY_SLOTS` (a power of two, the writer's ENTRY_SLOTS in
// simulation_frame.rs): an entry is the same object from snapshot to snapshot (and from node
// to node) while its index, term and command are.
const ENTRY_SLOTS = 1024;

/**
 * Per-Simulation reader state: the labels, the violations and the log entries seen, and the
 * count of frames read to the end (the writer checks it: simulation_frame.rs `Frame::write`).
 */
function stateOf(sim) {
  let s = sim[STATE];
  if (s === undefined) {
    s = { labels: [], violations: [], entries: new Array(ENTRY_SLOTS), frames: 0 };
    Object.defineProperty(sim, STATE, { value: s });
  }
  return s;
}

// The module's memory and a Float64Array over all of it, made again when the memory grows
// (growing detaches the old buffer). One per module instance: each `installSnapshot` call (a
// generated class of one instance) keeps its own, so two instances in one process (the
// tests load a second, reference build) never read each other's memory.
function memoryView(mem) {
  mem.memory ??= mem.Simulation.__frameMemory();
  const buffer = mem.memory.buffer;
  if (mem.view.buffer !== buffer) mem.view = new Float64Array(buffer);
  return mem.view;
}

/** The snapshot of `sim`, read from the memory of its module instance `mem`. */
function snapshotOf(sim, mem) {
  const s = stateOf(sim);
  // The frame stays at `base` until the next frame; the calls below (rare: new labels or
  // violations) may grow the memory (a new buffer), so the view is taken again after them.
  const base = sim.__snapshotFrame(s.frames) / 8;
  let b = memoryView(mem);
  const labelCount = b[base];
  const violationCount = b[base + 1];
  if (labelCount > s.labels.length) {
    s.labels.push(...sim.__frameLabels(s.labels.length));
    b = memoryView(mem);
  }
  if (violationCount !== s.violations.length) {
    // Only grows within one Simulation (time only moves forward); refetch all otherwise.
    const from = violationCount > s.violations.length ? s.violations.length : 0;
    if (from === 0) s.violations = [];
    for (const v of sim.__violationsFrom(from)) {
      Object.freeze(v.nodes);
      s.violations.push(Object.freeze(v));
    }
    b = memoryView(mem);
  }
  const snap = read(b, base, s.labels, s.violations.slice(), s.entries);
  // Read to the end: the writer may send the entries it sent in this frame as references.
  s.frames = (s.frames + 1) >>> 0;
  return snap;
}

// The reader keeps its cursor in a local variable `p` (not a property of a cursor object),
// which no closure captures (a captured variable lives in a heap context): each of a frame's
// few thousand values is then one typed-array load. A string is `-(k + 1)`, `k` an index into `labels`; an option is a tag (0/1)
// then the value; a sequence is its length then its elements.

/**
 * The `Snapshot` object of the frame at `b[base]` (values from `base + 2` on). A log entry
 * the writer knows this reader holds comes as `-(slot + 1)`, taken from `entries` (frozen, so
 * sharing them between snapshots is safe); a new one is made, frozen and kept in its slot,
 * `index % ENTRY_SLOTS`, as the writer recorded it (simulation_frame.rs keeps the same table).
 * A 25-node Raft world lists some 500 entries per snapshot, nearly all seen in the snapshot
 * before, and making them was most of the reader's cost.
 */
function read(b, base, labels, violations, entries) {
  let p = base + 2;
  const time_ms = b[p++];
  const algorithm = labels[-b[p++] - 1];
  const nodeCount = b[p++];
  const nodes = [];
  for (let i = 0; i < nodeCount; i++) {
    const idv = b[p++];
    const id = idv >= 0 ? idv : labels[-idv - 1];
    const role = labels[-b[p++] - 1];
    const role_kind = labels[-b[p++] - 1];
    const acting_leader = b[p++] === 1;
    const term = b[p++] === 1 ? b[p++] : null;
    const token = b[p++] === 1 ? b[p++] : null;
    const leader = b[p++] === 1 ? b[p++] : null;
    const status = labels[-b[p++] - 1];
    const clock_ms = b[p++];
    const lease_deadline_ms = b[p++] === 1 ? b[p++] : null;
    const lease_validity_ms = b[p++] === 1 ? b[p++] : null;
    let next_timer = null;
    if (b[p++] === 1) {
      next_timer = { kind: labels[-b[p++] - 1], deadline_ms: b[p], armed_ms: b[p + 1], wait_ms: b[p + 2] };
      p += 3;
    }
    const log_len = b[p++] === 1 ? b[p++] : null;
    const commit = b[p++] === 1 ? b[p++] : null;
    let log = null;
    if (b[p++] === 1) {
      const n = b[p++];
      log = new Array(n);
      for (let j = 0; j < n; j++) {
        const index = b[p];
        if (index < 0) {
          log[j] = entries[-index - 1];
          p++;
          continue;
        }
        const term = b[p + 1];
        const command = b[p + 2] === 1 ? b[p + 3] : null;
        p += command === null ? 3 : 4;
        const e = Object.freeze({ index, term, command });
        entries[index & (ENTRY_SLOTS - 1)] = e;
        log[j] = e;
      }
    }
    nodes.push({ id, role, role_kind, acting_leader, term, token, leader, status, clock_ms, lease_deadline_ms, lease_validity_ms, next_timer, log_len, commit, log });
  }
  const proc = (v) => (v >= 0 ? v : labels[-v - 1]);
  const flightCount = b[p++];
  const in_flight = [];
  for (let i = 0; i < flightCount; i++) {
    const id = b[p];
    const from = proc(b[p + 1]);
    const to = proc(b[p + 2]);
    const kind = labels[-b[p + 3] - 1];
    p += 4;
    const value = b[p++] === 1 ? b[p++] : null;
    in_flight.push({ id, from, to, kind, value, send_ms: b[p], arrival_ms: b[p + 1] });
    p += 2;
  }
  const droppedCount = b[p++];
  const dropped = [];
  for (let i = 0; i < droppedCount; i++) {
    dropped.push({ id: b[p], from: proc(b[p + 1]), to: proc(b[p + 2]), kind: labels[-b[p + 3] - 1], time_ms: b[p + 4], reason: labels[-b[p + 5] - 1] });
    p += 6;
  }
  const blockedCount = b[p++];
  const blocked = [];
  for (let i = 0; i < blockedCount; i++) {
    blocked.push([proc(b[p]), proc(b[p + 1])]);
    p += 2;
  }
  let store = null;
  if (b[p++] === 1) {
    const holder = b[p++] === 1 ? b[p++] : null;
    const token = b[p++] === 1 ? b[p++] : null;
    const expiry_ms = b[p++] === 1 ? b[p++] : null;
    const expiry_true_ms = b[p++] === 1 ? b[p++] : null;
    const ttl_ms = b[p++] === 1 ? b[p++] : null;
    const last_token = b[p++] === 1 ? b[p++] : null;
    store = { holder, token, expiry_ms, expiry_true_ms, ttl_ms, last_token, available: b[p++] === 1 };
  }
  let resource = null;
  if (b[p++] === 1) {
    const highest_token = b[p++];
    const fenced = b[p++] === 1;
    const writeCount = b[p++];
    const recent_writes = [];
    for (let i = 0; i < writeCount; i++) {
      recent_writes.push({
        time_ms: b[p++],
        issued_ms: b[p++],
        from: proc(b[p++]),
        token: b[p++],
        accepted: b[p++] === 1,
        reason: b[p++] === 1 ? labels[-b[p++] - 1] : null,
        stale: b[p++] === 1,
        late: b[p++] === 1,
        presented: b[p++] === 1 ? b[p++] : null,
        required: b[p++],
      });
    }
    resource = { highest_token, fenced, recent_writes };
  }
  const elections_total = b[p++];
  const leadership_lost_total = b[p++];
  const fencing_token = b[p++] === 1 ? b[p++] : null;
  const leaders_now = b[p++];
  const split_brain_ms = b[p++];
  const worst_split_brain_ms = b[p++];
  const leaderless_ms = b[p++];
  const failoverCount = b[p++];
  const failover_ms = [];
  for (let i = 0; i < failoverCount; i++) failover_ms.push(b[p++]);
  const metrics = {
    elections_total,
    leadership_lost_total,
    fencing_token,
    leaders_now,
    split_brain_ms,
    worst_split_brain_ms,
    leaderless_ms,
    failover_ms,
    writes_accepted: b[p++],
    writes_rejected: b[p++],
    stale_writes_accepted: b[p++],
    stale_writes_rejected: b[p++],
    late_writes: b[p++],
    messages_sent: b[p++],
    messages_delivered: b[p++],
    messages_dropped: b[p++],
    events: b[p++],
  };
  const promisedCount = b[p++];
  const promised = [];
  for (let i = 0; i < promisedCount; i++) promised.push(labels[-b[p++] - 1]);
  return { time_ms, algorithm, nodes, in_flight, dropped, blocked, store, resource, metrics, violations, promised };
}

/** Defines `snapshot()` on the generated `Simulation` class (before the guards wrap it). */
export function installSnapshot(Simulation) {
  const mem = { Simulation, memory: undefined, view: new Float64Array(0) };
  function snapshot() {
    return snapshotOf(this, mem);
  }
  Object.defineProperty(Simulation.prototype, "snapshot", { value: snapshot, writable: true, configurable: true, enumerable: false });
}
