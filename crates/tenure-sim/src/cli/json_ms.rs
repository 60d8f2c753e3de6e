//! The CLI's `--json` output in milliseconds, as everything a user reads (docs/conventions.md):
//! the simulator's reports count microseconds (`split_brain_us`); each `<name>_us` key
//! becomes `<name>_ms` with the value divided by 1000 (whole microseconds stay exact as
//! three decimals). Where a report already has the `_ms` twin, the `_us` key is dropped.

use serde_json::{Map, Value};

/// `v` with every `_us` key turned into its `_ms` twin, recursively.
pub(crate) fn to_ms(v: Value) -> Value {
    match v {
        Value::Object(map) => {
            let mut out = Map::new();
            let twins: Vec<String> = map.keys().cloned().collect();
            for (k, v) in map {
                match k.strip_suffix("_us") {
                    Some(stem) => {
                        let key = format!("{stem}_ms");
                        if !twins.contains(&key) {
                            out.insert(key, micros_to_ms(v));
                        }
                    }
                    None => {
                        out.insert(k, to_ms(v));
                    }
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.into_iter().map(to_ms).collect()),
        other => other,
    }
}

/// A number of microseconds (or an array of them, or null) in ms.
fn micros_to_ms(v: Value) -> Value {
    match v {
        Value::Number(n) => n
            .as_u64()
            .map(|us| serde_json::json!(crate::units::us_to_ms(us)))
            .or_else(|| n.as_f64().map(|f| serde_json::json!(f / 1_000.0)))
            .unwrap_or(Value::Number(n)),
        Value::Array(items) => Value::Array(items.into_iter().map(micros_to_ms).collect()),
        other => to_ms(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn microsecond_keys_become_milliseconds() {
        let v = json!({
            "split_brain_us": 1500,
            "failover_us": [250_000, 1],
            "fencing_token": 3,
            "samples_us": [1000],
            "samples_ms": [1.0],
            "violations": [{ "time_us": 2_000_000, "detail": "x" }],
            "leaderless_us": null
        });
        assert_eq!(
            to_ms(v),
            json!({
                "split_brain_ms": 1.5,
                "failover_ms": [250.0, 0.001],
                "fencing_token": 3,
                "samples_ms": [1.0],
                "violations": [{ "time_ms": 2000.0, "detail": "x" }],
                "leaderless_ms": null
            })
        );
    }
}
