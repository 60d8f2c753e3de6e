//! Objects only where the format has objects. serde's derived structs also read a JSON array
//! as their fields in order (`"config": [150]` sets the first config key), which nobody means
//! and which the JS bindings refuse (`ERR_OBJECT_TYPE`). After a value has read, the input is
//! walked beside the value read back as JSON: an array where the read value is an object is
//! named by its path, as the caller writes it (`config`, `faults[0]`).

use serde_json::Value;

/// The path of the first array in `input` that `read` (what it read as, serialized) holds as
/// an object; `Some("")` for the top level, `None` when there is none.
pub(crate) fn array_for_object(input: &Value, read: &Value) -> Option<String> {
    match (input, read) {
        (Value::Array(_), Value::Object(_)) => Some(String::new()),
        (Value::Object(input), Value::Object(read)) => input.iter().find_map(|(key, value)| {
            let inner = array_for_object(value, read.get(key)?)?;
            Some(join(key, &inner))
        }),
        (Value::Array(input), Value::Array(read)) => {
            input
                .iter()
                .zip(read)
                .enumerate()
                .find_map(|(i, (value, read))| {
                    let inner = array_for_object(value, read)?;
                    Some(if inner.is_empty() || inner.starts_with('[') {
                        format!("[{i}]{inner}")
                    } else {
                        format!("[{i}].{inner}")
                    })
                })
        }
        _ => None,
    }
}

fn join(key: &str, inner: &str) -> String {
    if inner.is_empty() || inner.starts_with('[') {
        format!("{key}{inner}")
    } else {
        format!("{key}.{inner}")
    }
}

#[cfg(test)]
mod tests {
    use super::array_for_object;
    use serde_json::json;

    #[test]
    fn an_array_read_as_an_object_is_named_by_its_path() {
        let read = json!({ "config": { "a": 1 }, "faults": [{ "at_ms": 1, "fault": { "type": "heal" } }] });
        assert_eq!(array_for_object(&json!([1]), &read), Some(String::new()));
        assert_eq!(
            array_for_object(&json!({ "config": [1] }), &read),
            Some("config".into())
        );
        assert_eq!(
            array_for_object(&json!({ "faults": [[1, { "type": "heal" }]] }), &read),
            Some("faults[0]".into())
        );
        assert_eq!(
            array_for_object(
                &json!({ "faults": [{ "at_ms": 1, "fault": ["heal"] }] }),
                &read
            ),
            Some("faults[0].fault".into())
        );
        assert_eq!(array_for_object(&read, &read), None);
        // Lists stay lists, and keys the read value does not have are not walked.
        assert_eq!(
            array_for_object(&json!({ "faults": [], "x": [1] }), &read),
            None
        );
    }
}
