//! Parsing scenario JSON text into a `serde_json::Value`, refusing duplicate keys.
//!
//! RFC 8259 (section 4) leaves the meaning of an object with two equal names open, and
//! `serde_json` keeps the last silently: `{"nodes": 3, "nodes": 5}` would run five nodes
//! where a reader of the file sees three. Tenure refuses it (`ERR_DUPLICATE_KEY`), naming the
//! key and its path.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// Why scenario text could not be read.
#[derive(Debug)]
pub(crate) enum TextError {
    /// Not JSON (serde_json's message, with line and column).
    Syntax(String),
    /// An object named one key twice.
    Duplicate {
        /// The repeated key.
        key: String,
        /// Where: `scenario.config`.
        path: String,
    },
}

/// Parses `text` as one JSON value; objects may not repeat a key.
pub(crate) fn parse_unique(text: &str) -> Result<Value, TextError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let mut duplicate = None;
    let value = Unique {
        path: String::from("scenario"),
        duplicate: &mut duplicate,
    }
    .deserialize(&mut de)
    .and_then(|v| de.end().map(|()| v));
    match (value, duplicate) {
        (_, Some((key, path))) => Err(TextError::Duplicate { key, path }),
        (Ok(v), None) => Ok(v),
        (Err(e), None) => Err(TextError::Syntax(e.to_string())),
    }
}

/// Builds a `Value`, recording the first duplicate key (and failing the parse there).
struct Unique<'a> {
    path: String,
    duplicate: &'a mut Option<(String, String)>,
}

impl<'de> DeserializeSeed<'de> for Unique<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Unique<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        loop {
            let seed = Unique {
                path: format!("{}[{}]", self.path, out.len()),
                duplicate: &mut *self.duplicate,
            };
            match seq.next_element_seed(seed)? {
                Some(v) => out.push(v),
                None => return Ok(Value::Array(out)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                *self.duplicate = Some((key.clone(), self.path.clone()));
                return Err(de::Error::custom(format_args!("duplicate key `{key}`")));
            }
            let seed = Unique {
                path: format!("{}.{key}", self.path),
                duplicate: &mut *self.duplicate,
            };
            let value = map.next_value_seed(seed)?;
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_keys_are_refused_with_their_path() {
        match parse_unique(r#"{"config": {"ttl_ms": 1, "ttl_ms": 2}}"#) {
            Err(TextError::Duplicate { key, path }) => {
                assert_eq!((key.as_str(), path.as_str()), ("ttl_ms", "scenario.config"));
            }
            other => panic!("expected a duplicate, got {other:?}"),
        }
        match parse_unique(r#"{"faults": [{"at_ms": 1, "at_ms": 1}]}"#) {
            Err(TextError::Duplicate { path, .. }) => assert_eq!(path, "scenario.faults[0]"),
            other => panic!("expected a duplicate, got {other:?}"),
        }
    }

    #[test]
    fn unique_text_parses_as_serde_json_does() {
        let text = r#"{"a": [1, -2, 2.5, "x", null, true], "seed": 18446744073709551615}"#;
        assert_eq!(
            parse_unique(text).unwrap(),
            serde_json::from_str::<Value>(text).unwrap()
        );
        assert!(matches!(parse_unique("{} x"), Err(TextError::Syntax(_))));
        assert!(matches!(parse_unique("{"), Err(TextError::Syntax(_))));
    }
}
