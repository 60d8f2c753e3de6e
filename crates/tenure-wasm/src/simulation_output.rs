//! How the simulator's records reach JS: through their own serde forms, unchanged.
//!
//! The simulator serializes every record in the JS units already (times `*_ms`, node ids and
//! counters numbers, absent values `null`; docs/conventions.md), so snapshots, trace events,
//! violations and metrics go through serde-wasm-bindgen as they are, exactly as the CLI
//! writes them as JSON. Their TypeScript is generated from the same types (`simulation_shapes.d.ts`).

use serde::Serialize;
use tenure_sim::TraceEvent;
use wasm_bindgen::JsValue;

/// The `eventsSince` result.
#[derive(Serialize)]
pub(crate) struct EventsPage<'a> {
    pub(crate) events: &'a [TraceEvent],
    pub(crate) cursor: u64,
    pub(crate) missed: u64,
}

impl<'a> EventsPage<'a> {
    /// Events from `cursor`, the next cursor, and how many events from `cursor` on had
    /// already left the bounded log.
    pub(crate) fn new(events: &'a [TraceEvent], cursor: u64, next: u64) -> Self {
        let oldest = events.first().map_or(next, |e| e.seq);
        EventsPage {
            events,
            cursor: next,
            missed: oldest.saturating_sub(cursor),
        }
    }
}

/// The serializer every output goes through: `None` is `null`, maps are plain objects, and
/// `u64`s are `number`s (every simulator quantity is below 2^53).
pub(crate) fn serializer() -> serde_wasm_bindgen::Serializer {
    serde_wasm_bindgen::Serializer::new()
        .serialize_missing_as_null(true)
        .serialize_maps_as_objects(true)
}

/// `value` as JS data.
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value.serialize(&serializer()).map_err(JsValue::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tenure_sim::Proc;
    use tenure_sim::trace::{TraceKind, WriteRecord, WriteRefusal};

    #[test]
    fn a_rejected_write_is_reported_with_the_fencing_reason_in_ms() {
        // design rule 1: the resource's only refusal is a stale fencing token.
        let w = WriteRecord {
            time_us: 1_500,
            issued_us: 1_000,
            from: Proc::Node(tenure::NodeId(1)),
            token: 3,
            accepted: false,
            reason: Some(WriteRefusal::StaleToken),
            stale: true,
            late: true,
            presented: Some(3),
            required: 4,
        };
        let json = serde_json::to_value(w).unwrap();
        assert_eq!(json["reason"], "stale fencing token");
        assert_eq!(json["time_ms"], 1.5);
        assert_eq!(json["issued_ms"], 1.0);
        assert_eq!(json["required"], 4);
        assert_eq!(json["from"], 1);
    }

    #[test]
    fn a_pause_event_gives_its_duration_in_ms() {
        let e = TraceEvent {
            seq: 7,
            time_us: 2_000,
            kind: TraceKind::Node {
                proc: Proc::Node(tenure::NodeId(2)),
                change: tenure_sim::NodeEvent::Paused {
                    duration_us: 250_000,
                },
            },
        };
        let json = serde_json::to_value(&e).unwrap();
        assert_eq!(
            json,
            serde_json::json!({ "seq": 7, "time_ms": 2.0, "event": "node", "proc": 2, "what": "paused", "duration_ms": 250.0 })
        );
    }

    #[test]
    fn events_since_reports_events_that_left_the_bounded_log() {
        let ev = |seq| TraceEvent {
            seq,
            time_us: 0,
            kind: TraceKind::Timeout { proc: Proc::Store },
        };
        let events = [ev(10), ev(11)];
        let page = EventsPage::new(&events, 4, 12);
        assert_eq!((page.cursor, page.missed), (12, 6));
        let page = EventsPage::new(&[], 12, 12);
        assert_eq!((page.cursor, page.missed), (12, 0));
    }
}
