//! The JS shapes of the simulator's data: snapshots, trace events, violations and metrics.
//!
//! Each view borrows a simulator record and serializes it (through serde-wasm-bindgen) with
//! the package's number rules (docs/design.md "Time and numbers"): times are `number`
//! milliseconds named `*_ms`; ids, terms, tokens, epochs and log indexes are `bigint`
//! ([`Big`]); counters are `number`s; absent values are `null`, so every object of a kind
//! has the same keys. Field names are the simulator's serde names with `_us` turned into
//! `_ms`. The TypeScript shapes are in `simulation_types.rs`. Conversion only: no logic.

use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};
use tenure::StaleToken;
use tenure_sim::snapshot::{Dropped, InFlight, NodeView, ResourceView, StoreView, TimerView};
use tenure_sim::trace::{TraceKind, WriteRecord};
use tenure_sim::units::us_to_ms;
use tenure_sim::{Metrics, Proc, Snapshot, TraceEvent, Violation};

/// A `u64` that becomes a JS `bigint` (serde-wasm-bindgen turns `u128` into `BigInt`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Big(pub(crate) u64);

impl Serialize for Big {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u128(u128::from(self.0))
    }
}

fn big(v: Option<u64>) -> Option<Big> {
    v.map(Big)
}

/// Microseconds as milliseconds.
fn ms(us: u64) -> f64 {
    us_to_ms(us)
}

/// A count as a JS `number` (exact below 2^53).
#[allow(clippy::cast_precision_loss)]
fn count(n: u64) -> f64 {
    n as f64
}

/// A process: a node id as a `bigint`, or `"store"` / `"resource"`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ProcView(pub(crate) Proc);

impl Serialize for ProcView {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Proc::Node(id) => s.serialize_u128(u128::from(id.0)),
            Proc::Store => s.serialize_str("store"),
            Proc::Resource => s.serialize_str("resource"),
        }
    }
}

fn procs(list: &[Proc]) -> Vec<ProcView> {
    list.iter().copied().map(ProcView).collect()
}

/// The whole world at one instant.
#[derive(Serialize)]
pub(crate) struct SnapshotView<'a> {
    time_ms: f64,
    algorithm: tenure_sim::Algorithm,
    nodes: Vec<NodeSnap<'a>>,
    in_flight: Vec<InFlightView<'a>>,
    dropped: Vec<DroppedView<'a>>,
    blocked: Vec<(ProcView, ProcView)>,
    store: Option<StoreSnap>,
    resource: Option<ResourceSnap<'a>>,
    metrics: MetricsView<'a>,
    violations: Vec<ViolationView<'a>>,
    promised: &'a [tenure_sim::InvariantKind],
}

impl<'a> SnapshotView<'a> {
    pub(crate) fn new(s: &'a Snapshot) -> Self {
        SnapshotView {
            time_ms: ms(s.time_us),
            algorithm: s.algorithm,
            nodes: s.nodes.iter().map(NodeSnap::new).collect(),
            in_flight: s.in_flight.iter().map(InFlightView).collect(),
            dropped: s.dropped.iter().map(DroppedView).collect(),
            blocked: s
                .blocked
                .iter()
                .map(|(a, b)| (ProcView(*a), ProcView(*b)))
                .collect(),
            store: s.store.as_ref().map(StoreSnap::new),
            resource: s.resource.as_ref().map(ResourceSnap::new),
            metrics: MetricsView(&s.metrics),
            violations: s.violations.iter().map(ViolationView).collect(),
            promised: &s.promised,
        }
    }
}

#[derive(Serialize)]
struct NodeSnap<'a> {
    id: ProcView,
    role: &'a str,
    term: Option<Big>,
    token: Option<Big>,
    leader: Option<Big>,
    status: tenure_sim::snapshot::Status,
    clock_ms: f64,
    lease_deadline_ms: Option<f64>,
    next_timer: Option<TimerSnap<'a>>,
    log_len: Option<Big>,
    commit: Option<Big>,
    log: Option<Vec<LogEntrySnap>>,
}

#[derive(Serialize)]
struct LogEntrySnap {
    index: Big,
    term: Big,
    command: Option<Big>,
}

impl<'a> NodeSnap<'a> {
    fn new(n: &'a NodeView) -> Self {
        NodeSnap {
            id: ProcView(n.id),
            role: n.role,
            term: big(n.term),
            token: big(n.token),
            leader: big(n.leader),
            status: n.status,
            clock_ms: ms(n.clock_us),
            lease_deadline_ms: n.lease_deadline_us.map(ms),
            next_timer: n.next_timer.as_ref().map(TimerSnap),
            log_len: big(n.log_len),
            commit: big(n.commit),
            log: n.log.as_ref().map(|l| {
                l.iter()
                    .map(|e| LogEntrySnap {
                        index: Big(e.index),
                        term: Big(e.term),
                        command: big(e.command),
                    })
                    .collect()
            }),
        }
    }
}

struct TimerSnap<'a>(&'a TimerView);

impl Serialize for TimerSnap<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Timer", 2)?;
        st.serialize_field("kind", self.0.kind)?;
        st.serialize_field("deadline_ms", &ms(self.0.deadline_us))?;
        st.end()
    }
}

struct InFlightView<'a>(&'a InFlight);

impl Serialize for InFlightView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let m = self.0;
        let mut st = s.serialize_struct("InFlight", 7)?;
        st.serialize_field("id", &Big(m.id))?;
        st.serialize_field("from", &ProcView(m.from))?;
        st.serialize_field("to", &ProcView(m.to))?;
        st.serialize_field("kind", m.kind)?;
        st.serialize_field("value", &big(m.value))?;
        st.serialize_field("send_ms", &ms(m.send_us))?;
        st.serialize_field("arrival_ms", &ms(m.arrival_us))?;
        st.end()
    }
}

struct DroppedView<'a>(&'a Dropped);

impl Serialize for DroppedView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let d = self.0;
        let mut st = s.serialize_struct("Dropped", 6)?;
        st.serialize_field("id", &Big(d.id))?;
        st.serialize_field("from", &ProcView(d.from))?;
        st.serialize_field("to", &ProcView(d.to))?;
        st.serialize_field("kind", d.kind)?;
        st.serialize_field("time_ms", &ms(d.time_us))?;
        st.serialize_field("reason", &d.reason)?;
        st.end()
    }
}

#[derive(Serialize)]
struct StoreSnap {
    holder: Option<Big>,
    token: Option<Big>,
    expiry_ms: Option<f64>,
    expiry_true_ms: Option<f64>,
    last_token: Option<Big>,
    available: bool,
}

impl StoreSnap {
    fn new(v: &StoreView) -> Self {
        StoreSnap {
            holder: big(v.holder),
            token: big(v.token),
            expiry_ms: v.expiry_us.map(ms),
            expiry_true_ms: v.expiry_true_us.map(ms),
            last_token: big(v.last_token),
            available: v.available,
        }
    }
}

#[derive(Serialize)]
struct ResourceSnap<'a> {
    highest_token: Big,
    fenced: bool,
    recent_writes: Vec<WriteView<'a>>,
}

impl<'a> ResourceSnap<'a> {
    fn new(v: &'a ResourceView) -> Self {
        ResourceSnap {
            highest_token: Big(v.highest_token),
            fenced: v.fenced,
            recent_writes: v.recent_writes.iter().map(WriteView).collect(),
        }
    }
}

/// One write judged by the resource; a rejection carries the fencing `reason`.
pub(crate) struct WriteView<'a>(&'a WriteRecord);

impl WriteView<'_> {
    fn fields<S: SerializeStruct>(&self, st: &mut S) -> Result<(), S::Error> {
        let w = self.0;
        st.serialize_field("time_ms", &ms(w.time_us))?;
        st.serialize_field("issued_ms", &ms(w.issued_us))?;
        st.serialize_field("from", &ProcView(w.from))?;
        st.serialize_field("token", &Big(w.token))?;
        st.serialize_field("accepted", &w.accepted)?;
        // A rejection at the resource is always a stale fencing token (design rule 1).
        let reason = (!w.accepted).then_some(StaleToken::REASON);
        st.serialize_field("reason", &reason)?;
        st.serialize_field("stale", &w.stale)?;
        st.serialize_field("late", &w.late)?;
        st.serialize_field("presented", &big(w.presented))?;
        st.serialize_field("required", &Big(w.required))
    }
}

impl Serialize for WriteView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Write", 10)?;
        self.fields(&mut st)?;
        st.end()
    }
}

/// Run metrics: counters are `number`s, times ms, the fencing token a `bigint`.
pub(crate) struct MetricsView<'a>(pub(crate) &'a Metrics);

impl Serialize for MetricsView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let m = self.0;
        let mut st = s.serialize_struct("Metrics", 17)?;
        st.serialize_field("elections_total", &count(m.elections_total))?;
        st.serialize_field("leadership_lost_total", &count(m.leadership_lost_total))?;
        st.serialize_field("fencing_token", &big(m.fencing_token))?;
        st.serialize_field("leaders_now", &count(m.leaders_now))?;
        st.serialize_field("split_brain_ms", &ms(m.split_brain_us))?;
        st.serialize_field("worst_split_brain_ms", &ms(m.worst_split_brain_us))?;
        st.serialize_field("leaderless_ms", &ms(m.leaderless_us))?;
        let failover: Vec<f64> = m.failover_us.iter().copied().map(ms).collect();
        st.serialize_field("failover_ms", &failover)?;
        st.serialize_field("writes_accepted", &count(m.writes_accepted))?;
        st.serialize_field("writes_rejected", &count(m.writes_rejected))?;
        st.serialize_field("stale_writes_accepted", &count(m.stale_writes_accepted))?;
        st.serialize_field("stale_writes_rejected", &count(m.stale_writes_rejected))?;
        st.serialize_field("late_writes", &count(m.late_writes))?;
        st.serialize_field("messages_sent", &count(m.messages_sent))?;
        st.serialize_field("messages_delivered", &count(m.messages_delivered))?;
        st.serialize_field("messages_dropped", &count(m.messages_dropped))?;
        st.serialize_field("events", &count(m.events))?;
        st.end()
    }
}

/// A broken invariant.
pub(crate) struct ViolationView<'a>(pub(crate) &'a Violation);

impl ViolationView<'_> {
    fn fields<S: SerializeStruct>(&self, st: &mut S) -> Result<(), S::Error> {
        let v = self.0;
        st.serialize_field("time_ms", &ms(v.time_us))?;
        st.serialize_field("kind", &v.kind)?;
        st.serialize_field("nodes", &procs(&v.nodes))?;
        st.serialize_field("detail", &v.detail)?;
        st.serialize_field("promised", &v.promised)
    }
}

impl Serialize for ViolationView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Violation", 5)?;
        self.fields(&mut st)?;
        st.end()
    }
}

/// One trace event: `seq`, `time_ms`, and the `event` discriminant with its fields (the
/// CLI's `--trace` JSONL record, with the package's number rules).
pub(crate) struct EventView<'a>(pub(crate) &'a TraceEvent);

impl Serialize for EventView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let e = self.0;
        let mut st = s.serialize_struct("TraceEvent", 12)?;
        st.serialize_field("seq", &count(e.seq))?;
        st.serialize_field("time_ms", &ms(e.time_us))?;
        match &e.kind {
            TraceKind::Send {
                id,
                from,
                to,
                msg,
                value,
                arrival_us,
                duplicate_us,
            } => {
                st.serialize_field("event", "send")?;
                st.serialize_field("id", &Big(*id))?;
                st.serialize_field("from", &ProcView(*from))?;
                st.serialize_field("to", &ProcView(*to))?;
                st.serialize_field("msg", msg)?;
                st.serialize_field("value", &big(*value))?;
                st.serialize_field("arrival_ms", &ms(*arrival_us))?;
                st.serialize_field("duplicate_ms", &duplicate_us.map(ms))?;
            }
            TraceKind::Deliver { id, from, to, msg } => {
                st.serialize_field("event", "deliver")?;
                st.serialize_field("id", &Big(*id))?;
                st.serialize_field("from", &ProcView(*from))?;
                st.serialize_field("to", &ProcView(*to))?;
                st.serialize_field("msg", msg)?;
            }
            TraceKind::Drop {
                id,
                from,
                to,
                msg,
                reason,
            } => {
                st.serialize_field("event", "drop")?;
                st.serialize_field("id", &Big(*id))?;
                st.serialize_field("from", &ProcView(*from))?;
                st.serialize_field("to", &ProcView(*to))?;
                st.serialize_field("msg", msg)?;
                st.serialize_field("reason", reason)?;
            }
            TraceKind::Timeout { proc } => {
                st.serialize_field("event", "timeout")?;
                st.serialize_field("proc", &ProcView(*proc))?;
            }
            TraceKind::Node {
                proc,
                what,
                value,
                reason,
            } => {
                st.serialize_field("event", "node")?;
                st.serialize_field("proc", &ProcView(*proc))?;
                st.serialize_field("what", what)?;
                // `paused` carries its duration (us in the simulator), the rest a term,
                // token, epoch, id or index.
                let paused = *what == "paused";
                st.serialize_field("value", &big(value.filter(|_| !paused)))?;
                st.serialize_field("duration_ms", &value.filter(|_| paused).map(ms))?;
                st.serialize_field("reason", reason)?;
            }
            TraceKind::Write(w) => {
                st.serialize_field("event", "write")?;
                WriteView(w).fields(&mut st)?;
            }
            TraceKind::Fault { fault } => {
                st.serialize_field("event", "fault")?;
                // The scenario's own form: node numbers and ms as plain numbers.
                st.serialize_field("fault", fault)?;
            }
            TraceKind::Violation(v) => {
                st.serialize_field("event", "violation")?;
                ViolationView(v).fields(&mut st)?;
            }
        }
        st.end()
    }
}

/// The `eventsSince` result.
#[derive(Serialize)]
pub(crate) struct EventsView<'a> {
    pub(crate) events: Vec<EventView<'a>>,
    pub(crate) cursor: f64,
    pub(crate) missed: f64,
}

impl<'a> EventsView<'a> {
    /// Events from `cursor`, the next cursor, and how many events from `cursor` on had
    /// already left the bounded log.
    pub(crate) fn new(events: &'a [TraceEvent], cursor: u64, next: u64) -> Self {
        let oldest = events.first().map_or(next, |e| e.seq);
        EventsView {
            events: events.iter().map(EventView).collect(),
            cursor: count(next),
            missed: count(oldest.saturating_sub(cursor)),
        }
    }
}

/// The serializer every view goes through: `None` is `null`, maps are plain objects, and
/// `u64`s stay `number`s (only [`Big`] makes `bigint`s).
pub(crate) fn serializer() -> serde_wasm_bindgen::Serializer {
    serde_wasm_bindgen::Serializer::new()
        .serialize_missing_as_null(true)
        .serialize_maps_as_objects(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rejected_write_is_reported_with_the_fencing_reason() {
        // design rule 1: the resource's only refusal is a stale fencing token.
        let w = WriteRecord {
            time_us: 1_500,
            issued_us: 1_000,
            from: Proc::Node(tenure::NodeId(1)),
            token: 3,
            accepted: false,
            stale: true,
            late: true,
            presented: Some(3),
            required: 4,
        };
        let json = serde_json::to_value(WriteView(&w)).unwrap();
        assert_eq!(json["reason"], "stale fencing token");
        assert_eq!(json["time_ms"], 1.5);
        assert_eq!(json["issued_ms"], 1.0);
        assert_eq!(json["required"], 4);
    }

    #[test]
    fn a_pause_event_gives_its_duration_in_ms_not_a_value() {
        let e = TraceEvent {
            seq: 7,
            time_us: 2_000,
            kind: TraceKind::Node {
                proc: Proc::Node(tenure::NodeId(2)),
                what: "paused",
                value: Some(250_000),
                reason: None,
            },
        };
        let json = serde_json::to_value(EventView(&e)).unwrap();
        assert_eq!(json["event"], "node");
        assert_eq!(json["duration_ms"], 250.0);
        assert!(json["value"].is_null());
        assert_eq!(json["time_ms"], 2.0);
    }

    #[test]
    fn events_since_reports_events_that_left_the_bounded_log() {
        let ev = |seq| TraceEvent {
            seq,
            time_us: 0,
            kind: TraceKind::Timeout { proc: Proc::Store },
        };
        let events = [ev(10), ev(11)];
        let view = EventsView::new(&events, 4, 12);
        assert_eq!((view.cursor, view.missed), (12.0, 6.0));
        let view = EventsView::new(&[], 12, 12);
        assert_eq!((view.cursor, view.missed), (12.0, 0.0));
    }
}
