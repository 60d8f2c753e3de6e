//! serde's error messages in the words of someone writing JSON: "unknown key \"ttl\"; the
//! keys are ttl_ms, ..." rather than "unknown field `ttl`, expected one of `ttl_ms`", and
//! "expected a whole number 0 or more, got the string \"5\"" rather than "invalid type:
//! string \"5\", expected u64".
//!
//! serde builds these messages from fixed phrases (`serde::de::Error`'s provided methods:
//! `invalid_type`, `unknown_field`, `missing_field`, ...), so they are reworded by phrase; a
//! message that matches none is returned as it is. serde_json's " at line L column C" suffix
//! is kept by [`json_words`] (the caller wrote that text: a scenario file) and dropped by
//! [`object_words`] (the caller wrote no JSON: a JS object, a `--set` on the command line).
//!
//! [`from_text`] and [`from_value`] read a value and name the key of a type or range error
//! the way the caller wrote it: `nodes: expected a whole number 0 or more, got the string
//! "3"`, `faults[0].fault: the key "node" is required`.

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Why a JSON value did not read: where (the key path, `""` at the top) and serde's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyedError {
    /// The key path as the caller writes it: `nodes`, `config.ttl_ms`, `faults[0].fault`;
    /// empty for the top level.
    pub path: String,
    /// serde's own message (unworded, without serde_json's position).
    pub detail: String,
    /// serde_json's ` at line L column C`, when the input was text.
    pub position: String,
}

impl KeyedError {
    fn new(path: &serde_path_to_error::Path, detail: &str) -> KeyedError {
        use serde_path_to_error::Segment;
        let (detail, position) = split_position(detail);
        let mut shown = String::new();
        // An unknown key's path may end in that key, which the message names already (it
        // does not when the object refused the key after reading it all, as a fault does
        // for a key seen before its `type`).
        let segments: Vec<&Segment> = path.iter().collect();
        let unknown = detail
            .strip_prefix("unknown field `")
            .and_then(|rest| rest.split('`').next());
        let ends_in_key = match (unknown, segments.last()) {
            (Some(name), Some(Segment::Map { key })) => key == name,
            _ => false,
        };
        let keep = segments.len() - usize::from(ends_in_key);
        for segment in segments.into_iter().take(keep) {
            match segment {
                Segment::Seq { index } => shown.push_str(&format!("[{index}]")),
                Segment::Map { key } => {
                    if !shown.is_empty() {
                        shown.push('.');
                    }
                    shown.push_str(key);
                }
                // An enum's variant or a key that is not a string adds no key of its own.
                _ => {}
            }
        }
        KeyedError {
            path: shown,
            detail: detail.to_string(),
            position: position.to_string(),
        }
    }

    /// The message in JSON words, the key first: `nodes: expected ...`; the text position
    /// (if any) last.
    pub fn words(&self) -> String {
        let body = words_at(&self.path, &self.detail);
        // A missing key names itself ("the key \"node\" is required"); its object's path
        // still helps when it is nested.
        if self.path.is_empty() {
            format!("{body}{}", self.position)
        } else {
            format!("{}: {body}{}", self.path, self.position)
        }
    }
}

impl core::fmt::Display for KeyedError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.words())
    }
}

/// [`object_words`] for a refusal at the key path `path` (`nodes`, `config.ttl_ms`, a search
/// option's `options.nodes`): a key whose allowed values are narrower than its type's says them where
/// serde names only the type ("expected a whole number from 1 to 64, got 3.5" for `nodes`).
pub fn words_at(path: &str, detail: &str) -> String {
    let body = object_words(detail);
    match body.strip_prefix("expected a whole number 0 or more") {
        Some(rest) if path == "nodes" || path.ends_with(".nodes") => {
            format!("{}{rest}", crate::scenario::NODES_RANGE)
        }
        _ => body,
    }
}

/// Reads `T` from JSON text the caller wrote (a scenario file, `--config`): errors name the
/// key and keep the line and column. An array where `T` has an object is refused
/// (`objects_only`).
pub fn from_text<T: DeserializeOwned + Serialize>(text: &str) -> Result<T, KeyedError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().clone();
        KeyedError::new(&path, &e.into_inner().to_string())
    })?;
    de.end().map_err(|e| {
        let (detail, position) = split_position_owned(&e.to_string());
        KeyedError {
            path: String::new(),
            detail,
            position,
        }
    })?;
    // The text parsed as `T`, so it parses as JSON.
    let input: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
    objects_only(&input, &value)?;
    Ok(value)
}

/// Refuses `input` when it gives an array where `read` (what it read as) has an object: serde's
/// derived structs read an array as their fields in order, which the JS bindings refuse and
/// nobody means (`"config": [150]`). The error is serde's "expected an object, got an array"
/// at that path.
fn objects_only<T: Serialize>(input: &serde_json::Value, read: &T) -> Result<(), KeyedError> {
    if !input.is_array() && !input.is_object() {
        return Ok(());
    }
    let read = serde_json::to_value(read).unwrap_or_default();
    match crate::json_shape::array_for_object(input, &read) {
        None => Ok(()),
        Some(path) => Err(KeyedError {
            path,
            detail: "invalid type: sequence, expected a map".into(),
            position: String::new(),
        }),
    }
}

/// Reads `T` from JSON data the caller did not write as text (a JS object, values from the
/// command line): errors name the key and give no line or column. An array where `T` has an
/// object is refused (`objects_only`).
pub fn from_value<T: DeserializeOwned + Serialize>(
    value: serde_json::Value,
) -> Result<T, KeyedError> {
    let read: T = serde_path_to_error::deserialize(&value).map_err(|e| {
        let path = e.path().clone();
        let mut err = KeyedError::new(&path, &e.into_inner().to_string());
        err.position.clear();
        err
    })?;
    objects_only(&value, &read)?;
    Ok(read)
}

/// [`json_words`] without serde_json's ` at line L column C`: for input that was not text
/// the caller wrote (a JS object turned into JSON, a `--set` value).
pub fn object_words(detail: &str) -> String {
    let detail = detail.strip_prefix("Error: ").unwrap_or(detail);
    let (body, _) = split_position(detail);
    reword(body).unwrap_or_else(|| body.to_string())
}

/// `detail` (a serde or serde_json error message) in JSON words.
pub fn json_words(detail: &str) -> String {
    // serde-wasm-bindgen's errors are JS `Error`s, whose text starts with "Error: ".
    let detail = detail.strip_prefix("Error: ").unwrap_or(detail);
    let (body, position) = split_position(detail);
    let body = reword(body).unwrap_or_else(|| body.to_string());
    format!("{body}{position}")
}

fn split_position_owned(detail: &str) -> (String, String) {
    let (a, b) = split_position(detail);
    (a.to_string(), b.to_string())
}

/// Splits serde_json's trailing ` at line L column C`.
fn split_position(detail: &str) -> (&str, &str) {
    match detail.rfind(" at line ") {
        Some(i) if detail[i..].contains(" column ") => detail.split_at(i),
        _ => (detail, ""),
    }
}

fn reword(body: &str) -> Option<String> {
    if let Some(words) = syntax_words(body) {
        return Some(words);
    }
    if let Some(rest) = body.strip_prefix("unknown field ") {
        let (name, expected) = split_expected(rest);
        return Some(match expected {
            Some(list) => format!("unknown key \"{name}\"; the keys are {}", names(list)),
            None => format!("unknown key \"{name}\"; this object takes no keys"),
        });
    }
    if let Some(rest) = body.strip_prefix("unknown variant ") {
        let (name, expected) = split_expected(rest);
        return Some(match expected {
            Some(list) => format!("\"{name}\" is not one of {}", names(list)),
            None => format!("\"{name}\" is not allowed here"),
        });
    }
    if let Some(rest) = body.strip_prefix("missing field ") {
        return Some(format!("the key \"{}\" is required", unquote(rest)));
    }
    if let Some(rest) = body.strip_prefix("duplicate field ") {
        return Some(format!("the key \"{}\" is given twice", unquote(rest)));
    }
    for prefix in ["invalid type: ", "invalid value: "] {
        if let Some(rest) = body.strip_prefix(prefix) {
            // A message of the simulator's own (`Error::custom`) carries no "expected".
            let Some((got, expected)) = rest.split_once(", expected ") else {
                return Some(rest.to_string());
            };
            return Some(format!(
                "expected {}, got {}",
                expected_words(expected),
                got_words(got)
            ));
        }
    }
    if body == "trailing characters" {
        // serde_json's word for a list longer than its fixed length, or text after the value.
        return Some("more elements or text than expected here".into());
    }
    if let Some(rest) = body.strip_prefix("invalid length ") {
        let (got, expected) = rest.split_once(", expected ")?;
        if expected == "fewer elements in array" {
            // The same list read from a value (not text): worded as the text's error is, so
            // a file and a `--set` or JS object say the same.
            return Some("more elements or text than expected here".into());
        }
        return Some(format!(
            "expected {}, got {got} elements",
            expected_words(expected)
        ));
    }
    None
}

/// serde_json's syntax errors that read as its parser's terms ("EOF while parsing an
/// object", "expected ident") in words about the text the caller wrote; `None` for any other
/// message. Its other syntax errors ("expected `,` or `]`", "trailing comma", "key must be
/// a string") read as they are. Kept small: the sim module carries it.
fn syntax_words(body: &str) -> Option<String> {
    if let Some(what) = body.strip_prefix("EOF while parsing ") {
        let what = if what == "a list" { "an array" } else { what };
        return Some(format!("the text ends within {what}"));
    }
    if body == "recursion limit exceeded" {
        // serde_json's reader stops at 128 levels of arrays and objects.
        return Some("the text nests arrays and objects more than 128 levels deep".into());
    }
    (body == "expected ident" || body == "expected value").then(|| "not a JSON value".into())
}

/// "`ttl`, expected one of `ttl_ms`, `seed`" -> ("ttl", Some("`ttl_ms`, `seed`")).
fn split_expected(rest: &str) -> (&str, Option<&str>) {
    let (name, tail) = match rest.split_once(", ") {
        Some((n, t)) => (n, Some(t)),
        None => (rest, None),
    };
    let list = tail.and_then(|t| {
        t.strip_prefix("expected one of ")
            .or_else(|| t.strip_prefix("expected "))
    });
    (unquote(name), list)
}

fn unquote(s: &str) -> &str {
    s.trim().trim_matches('`')
}

/// "`a`, `b`" -> "a, b"; serde's two-name form "`a` or `b`" -> "a, b" too.
fn names(list: &str) -> String {
    list.split(", ")
        .flat_map(|part| part.split(" or "))
        .map(unquote)
        .collect::<Vec<_>>()
        .join(", ")
}

/// serde's `expected` text (a type name or a visitor's own `expecting`) in JSON words.
fn expected_words(expected: &str) -> String {
    let e = expected.trim();
    let word = match e {
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "a whole number 0 or more",
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number",
        "f32" | "f64" => "a number",
        "a boolean" | "bool" => "true or false",
        "a string" | "a borrowed string" | "a char" | "char" => "a string",
        "a sequence" | "a tuple" => "an array",
        "a map" | "unit" => "an object",
        _ if e.starts_with("struct ") || e.starts_with("a map") => "an object",
        _ if e.starts_with("internally tagged enum") || e.starts_with("adjacently tagged enum") => {
            "an object with a \"type\" key"
        }
        _ if e.starts_with("enum ") || e.starts_with("variant identifier") => "one of the names",
        _ if e.starts_with("tuple of ") || e.starts_with("a tuple of size ") => "an array",
        _ if e.starts_with("an array of length ") => {
            return format!("an array of {} elements", &e["an array of length ".len()..]);
        }
        _ => return e.to_string(),
    };
    word.to_string()
}

/// serde's `Unexpected` text in JSON words.
fn got_words(got: &str) -> String {
    let g = got.trim();
    for (prefix, name) in [("integer ", ""), ("floating point ", ""), ("boolean ", "")] {
        if let Some(v) = g.strip_prefix(prefix) {
            return format!("{name}{}", unquote(v));
        }
    }
    if let Some(v) = g.strip_prefix("string ") {
        return format!("the string {v}");
    }
    match g {
        "map" => "an object".into(),
        "sequence" => "an array".into(),
        "null" | "unit value" | "unit" => "null".into(),
        _ => g.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::{json_words, words_at};

    #[test]
    fn nodes_names_its_range() {
        let range = format!(
            "expected a whole number from 1 to {}",
            crate::scenario::MAX_NODES
        );
        assert_eq!(crate::scenario::NODES_RANGE, range);
        assert_eq!(
            words_at("nodes", "invalid type: floating point `3.5`, expected u64"),
            format!("{range}, got 3.5")
        );
        // Another key with the same type keeps the type's words.
        assert_eq!(
            words_at(
                "holder_id",
                "invalid type: floating point `3.5`, expected u64"
            ),
            "expected a whole number 0 or more, got 3.5"
        );
    }

    #[test]
    fn serde_phrases_become_json_words() {
        let cases = [
            (
                "unknown field `ttl`, expected one of `ttl_ms`, `seed` at line 1 column 9",
                "unknown key \"ttl\"; the keys are ttl_ms, seed at line 1 column 9",
            ),
            (
                "unknown variant `paxos`, expected one of `raft`, `bully`",
                "\"paxos\" is not one of raft, bully",
            ),
            (
                "unknown field `duration`, expected `target` or `duration_ms`",
                "unknown key \"duration\"; the keys are target, duration_ms",
            ),
            (
                "Error: unknown variant `paxos`, expected `raft` or `bully`",
                "\"paxos\" is not one of raft, bully",
            ),
            ("missing field `nodes`", "the key \"nodes\" is required"),
            (
                "invalid type: string \"5\", expected u64",
                "expected a whole number 0 or more, got the string \"5\"",
            ),
            (
                "invalid value: integer `-1`, expected u64",
                "expected a whole number 0 or more, got -1",
            ),
            (
                "invalid type: floating point `1.5`, expected u32",
                "expected a whole number 0 or more, got 1.5",
            ),
            (
                "invalid type: map, expected a sequence",
                "expected an array, got an object",
            ),
            (
                "invalid length 3, expected an array of length 2",
                "expected an array of 2 elements, got 3 elements",
            ),
            (
                "-5 is not a time in milliseconds",
                "-5 is not a time in milliseconds",
            ),
            (
                "invalid value: -1 is not a whole number from 0 to 2^64 - 1",
                "-1 is not a whole number from 0 to 2^64 - 1",
            ),
        ];
        for (serde, words) in cases {
            assert_eq!(json_words(serde), words, "{serde}");
        }
    }

    /// serde_json's syntax errors, as it writes them for real text, keep their position and
    /// lose its words ("EOF while parsing", "ident").
    #[test]
    fn syntax_errors_are_worded_about_the_text() {
        let cases = [
            ("{", "the text ends within an object at line 1 column 1"),
            ("[1", "the text ends within an array at line 1 column 2"),
            ("\"a", "the text ends within a string at line 1 column 2"),
            ("{\"a\":", "the text ends within a value at line 1 column 5"),
            ("nope", "not a JSON value at line 1 column 2"),
            ("[1 2]", "expected `,` or `]` at line 1 column 4"),
        ];
        for (text, words) in cases {
            let err = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
            assert_eq!(json_words(&err.to_string()), words, "{text}: {err}");
        }
        let deep = "[".repeat(200);
        let err = serde_json::from_str::<serde_json::Value>(&deep).unwrap_err();
        assert!(
            json_words(&err.to_string()).starts_with(
                "the text nests arrays and objects more than 128 levels deep at line 1 column "
            ),
            "{err}"
        );
    }
}
