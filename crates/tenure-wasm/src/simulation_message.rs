//! One message on the wire, every field of it, for the playground's message detail
//! (`Simulation.message`).
//!
//! The payload is the algorithm's own message, read through serde and flattened to one level
//! of `name: value` pairs (`term`, `prev_log_index`, `op.token`, ...): enum variant names
//! (`AppendEntries`, `Renew`) are left out of the names since `kind` says them, lists become
//! compact JSON text, and integers above 2^53 - 1 become decimal strings (convention 14).
//! Durations in a payload are the core's microseconds.

use serde::Serialize;
use serde_json::{Map, Value};
use tenure_sim::Proc;
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
        if let Ok(Value::Object(mut map)) = serde_json::to_value(&m.payload) {
            map.remove("kind");
            flatten(&mut fields, "", Value::Object(map));
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
}
