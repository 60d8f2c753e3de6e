//! One message on the wire, every field of it, for the playground's message detail
//! (`Simulation.message`).
//!
//! The payload is the algorithm's own message, read through serde and flattened to one level
//! of `name: value` pairs (`term`, `prev_log_index`, `op.token`, ...): enum variant names
//! (`AppendEntries`, `Renew`) are left out of the names since `kind` says them, lists become
//! compact JSON text, and integers above 2^53 - 1 become decimal strings (convention 14).
//! Durations in a payload are the core's microseconds.
//!
//! The payload is not serialized as a whole: `Payload` is internally tagged (`kind`), and
//! serde serializes an internally tagged newtype variant holding an enum (`Raft(Message)`,
//! `Bully(BullyMessage)`) by buffering the inner variant in its `Content` tree, 9 KB of the
//! sim module for this one export (docs/bindings.md). Each variant's own value is serialized
//! instead, which gives the same fields once `kind` is left out (a test checks every kind).

use serde::Serialize;
use serde_json::{Map, Value, json};
use tenure_sim::Proc;
use tenure_sim::message::Payload;
use tenure_sim::snapshot::MessageDetail;
use tenure_sim::units::us_to_ms;

use crate::simulation_input::MAX_SAFE_INTEGER;

/// The JS shape of [`MessageDetail`] (`MessageDetail` in `simulation_types.rs`).
#[derive(Serialize)]
pub(crate) struct MessageView {
    id: u64,
    from: Proc,
    to: Proc,
    kind: &'static str,
    value: Option<u64>,
    send_ms: f64,
    arrival_ms: f64,
    fields: Map<String, Value>,
}

impl MessageView {
    pub(crate) fn new(m: &MessageDetail) -> Self {
        let mut fields = Map::new();
        if let Some(map @ Value::Object(_)) = payload_fields(&m.payload) {
            flatten(&mut fields, "", map);
        }
        MessageView {
            id: m.id,
            from: m.from,
            to: m.to,
            kind: m.kind,
            value: m.value,
            send_ms: us_to_ms(m.send_us),
            arrival_ms: us_to_ms(m.arrival_us),
            fields,
        }
    }
}

/// The payload's JSON object without its `kind`, as `serde_json::to_value(payload)` gives it
/// with `kind` removed (a unit variant of an inner enum is its name here, and has no fields
/// either way).
fn payload_fields(payload: &Payload) -> Option<Value> {
    let value = match payload {
        Payload::Raft(m) => serde_json::to_value(m),
        Payload::Bully(m) => serde_json::to_value(m),
        Payload::StoreRequest(r) => serde_json::to_value(r),
        Payload::StoreResponse(r) => serde_json::to_value(r),
        Payload::Establish { token } => return Some(json!({ "token": token })),
        Payload::Established {
            token,
            accepted,
            required,
        }
        | Payload::WriteResult {
            token,
            accepted,
            required,
        } => return Some(json!({ "token": token, "accepted": accepted, "required": required })),
        Payload::Write {
            token,
            fenced,
            issued_us,
            late,
        } => {
            return Some(
                json!({ "token": token, "fenced": fenced, "issued_us": issued_us, "late": late }),
            );
        }
    };
    value.ok()
}

/// Adds `value` under `name`, objects as `name.key` (a variant's name left out).
fn flatten(out: &mut Map<String, Value>, name: &str, value: Value) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let variant = k.starts_with(|c: char| c.is_ascii_uppercase());
                let child = match (variant, name.is_empty()) {
                    (true, _) => name.to_owned(),
                    (false, true) => k,
                    (false, false) => format!("{name}.{k}"),
                };
                flatten(out, &child, v);
            }
        }
        Value::Array(_) => {
            out.insert(name.to_owned(), Value::String(value.to_string()));
        }
        Value::Number(n) if n.as_u64().is_some_and(|u| u > MAX_SAFE_INTEGER) => {
            out.insert(name.to_owned(), Value::String(n.to_string()));
        }
        // A unit variant (`Released`) or a plain value; an empty name is the variant itself.
        other if !name.is_empty() => {
            out.insert(name.to_owned(), other);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_payloads_flatten_to_named_values() {
        let mut out = Map::new();
        let v = serde_json::json!({
            "AppendEntries": { "term": 3, "entries": [{ "term": 3 }] },
            "session": u64::MAX,
            "op": { "Renew": { "token": 2 } },
        });
        flatten(&mut out, "", v);
        assert_eq!(out["term"], 3);
        assert_eq!(out["entries"], "[{\"term\":3}]");
        assert_eq!(out["session"], u64::MAX.to_string());
        assert_eq!(out["op.token"], 2, "the variant name Renew is left out");
        assert_eq!(out.len(), 4);
    }

    /// One payload of every kind, with every inner variant of the algorithms' messages.
    fn every_payload() -> Vec<Payload> {
        use tenure::bully::BullyMessage;
        use tenure::lease::{
            LeaseKey, RejectReason, RequestId, SessionId, StoreOp, StoreRequest, StoreResponse,
            StoreResult,
        };
        use tenure::raft::{Entry, EntryData, Message};
        use tenure::{Duration, FencingToken, NodeId};
        let ttl = Duration::from_millis(1_500);
        let request = |op| StoreRequest {
            id: RequestId(7),
            key: LeaseKey("leader".into()),
            holder: NodeId(2),
            session: SessionId(u64::MAX),
            op,
        };
        let response = |result| StoreResponse {
            id: RequestId(7),
            key: LeaseKey("leader".into()),
            result,
        };
        vec![
            Payload::Raft(Message::RequestVote {
                term: 3,
                last_log_index: 4,
                last_log_term: 2,
                pre_vote: true,
            }),
            Payload::Raft(Message::RequestVoteResponse {
                term: 3,
                granted: false,
                pre_vote: false,
            }),
            Payload::Raft(Message::AppendEntries {
                term: 3,
                prev_log_index: 4,
                prev_log_term: 2,
                entries: vec![
                    Entry {
                        term: 3,
                        data: EntryData::Noop,
                    },
                    Entry {
                        term: 3,
                        data: EntryData::Command(9),
                    },
                ],
                leader_commit: 4,
                context: 1_000,
            }),
            Payload::Raft(Message::AppendEntriesResponse {
                term: 3,
                success: true,
                match_index: 6,
                context: 1_000,
            }),
            Payload::Bully(BullyMessage::Election { epoch: 1 }),
            Payload::Bully(BullyMessage::Answer { epoch: 1 }),
            Payload::Bully(BullyMessage::Coordinator {
                coordinator: NodeId(4),
                epoch: 2,
            }),
            Payload::Bully(BullyMessage::Heartbeat { epoch: 2 }),
            Payload::StoreRequest(request(StoreOp::Acquire { ttl })),
            Payload::StoreRequest(request(StoreOp::Renew {
                token: FencingToken(5),
                ttl,
            })),
            Payload::StoreRequest(request(StoreOp::Release {
                token: FencingToken(5),
            })),
            Payload::StoreResponse(response(StoreResult::Granted {
                token: FencingToken(5),
                ttl,
            })),
            Payload::StoreResponse(response(StoreResult::Held {
                holder: Some(NodeId(1)),
                remaining: None,
            })),
            Payload::StoreResponse(response(StoreResult::Renewed {
                token: FencingToken(5),
                ttl,
            })),
            Payload::StoreResponse(response(StoreResult::Released)),
            Payload::StoreResponse(response(StoreResult::Rejected {
                reason: RejectReason::Expired,
            })),
            Payload::Establish { token: 5 },
            Payload::Established {
                token: 5,
                accepted: true,
                required: 5,
            },
            Payload::Write {
                token: 5,
                fenced: true,
                issued_us: 12_345,
                late: false,
            },
            Payload::WriteResult {
                token: 4,
                accepted: false,
                required: 5,
            },
        ]
    }

    #[test]
    fn each_kinds_fields_are_the_whole_payloads_without_its_kind() {
        for payload in every_payload() {
            let Ok(Value::Object(mut whole)) = serde_json::to_value(&payload) else {
                panic!("{payload:?} is not a JSON object");
            };
            assert_eq!(whole.remove("kind"), Some(Value::String(kebab(&payload))));
            assert_eq!(
                payload_fields(&payload),
                Some(Value::Object(whole)),
                "{payload:?}"
            );
        }
    }

    /// The `kind` tag serde writes for `payload` (its variant name in kebab case).
    fn kebab(payload: &Payload) -> String {
        let name = format!("{payload:?}");
        let variant = name.split(['(', ' ', '{']).next().unwrap_or_default();
        let mut out = String::new();
        for (i, c) in variant.chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        }
        out
    }
}
