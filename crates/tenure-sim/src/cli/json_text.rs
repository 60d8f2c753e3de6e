//! JSON text the CLI reads from files and arguments: a leading UTF-8 byte order mark is
//! dropped ([`crate::scenario::without_bom`]), a key given twice in one object is refused, as
//! the scenario format refuses it (serde_json's `Value` would keep the last), and a whole
//! number past 2^64 - 1 is named as written, from the text.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// The largest whole number a scenario file's whole-number keys take, 2^64 - 1, in words.
pub(crate) const U64_MAX_WORDS: &str = "2^64 - 1 (18446744073709551615)";

/// `message`, the scenario reader's refusal of `text`, with a whole number of 2^64 or more
/// said to be above 2^64 - 1 rather than "18446744073709552000 is not a seed" or "expected a
/// whole number 0 or more, got 1.8446744073709552e+19": serde_json reads such a number as a
/// float, so the reader cannot tell it from a fraction, but the text can. The number is the
/// one the message's line and column end at, as the caller wrote it (a decimal string too,
/// as a seed may be given). `seed: 18446744073709551616 is above the largest seed, 2^64 - 1
/// (18446744073709551615) at line 1 column 69`. Other messages are returned as they are.
pub(crate) fn above_u64_words(message: &str, text: &str) -> String {
    let reworded = || -> Option<String> {
        if !(message.contains(" is not a seed: ")
            || message.contains("expected a whole number 0 or more, got ")
            || message.contains(crate::scenario::NODES_RANGE))
        {
            return None;
        }
        let at = message.rfind(" at line ")?;
        let (body, position) = message.split_at(at);
        let (line, column) = position.strip_prefix(" at line ")?.split_once(" column ")?;
        let (line, column): (usize, usize) = (line.parse().ok()?, column.parse().ok()?);
        let row = text.lines().nth(line.checked_sub(1)?)?;
        let before = row.get(..column.min(row.len()))?;
        let before = before.strip_suffix('"').unwrap_or(before);
        let digits = &before[before.trim_end_matches(|c: char| c.is_ascii_digit()).len()..];
        if digits.is_empty() || digits.parse::<u64>().is_ok() {
            return None;
        }
        // "scenario: seed: ..." -> the prefix and the key path.
        let (prefix, rest) = body.split_once(": ")?;
        let (path, _) = rest.split_once(": ")?;
        let words = if path == "seed" {
            format!("{digits} is above the largest seed, {U64_MAX_WORDS}")
        } else if path == "nodes" {
            format!(
                "{digits} must be a whole number from 1 to {}",
                crate::scenario::MAX_NODES
            )
        } else {
            format!("{digits} is above {U64_MAX_WORDS}, the largest whole number a scenario holds")
        };
        Some(format!("{prefix}: {path}: {words}{position}"))
    };
    reworded().unwrap_or_else(|| message.to_string())
}

/// The number literal of `text` that ends at serde_json's ` at line L column C` (`position`;
/// a refused value's position is just past it), as written: `1e20`, `18446744073709551616`.
/// `None` when no number ends there (a string, a key), or `position` names no place in `text`.
pub(crate) fn number_at<'t>(text: &'t str, position: &str) -> Option<&'t str> {
    let (line, column) = position.strip_prefix(" at line ")?.split_once(" column ")?;
    let (line, column): (usize, usize) = (line.parse().ok()?, column.parse().ok()?);
    let row = text.lines().nth(line.checked_sub(1)?)?;
    let before = row.get(..column.min(row.len()))?;
    let start = before
        .trim_end_matches(|c: char| c.is_ascii_digit() || matches!(c, '+' | '-' | '.' | 'e' | 'E'))
        .len();
    let literal = &before[start..];
    serde_json::from_str::<serde_json::Number>(literal)
        .is_ok()
        .then_some(literal)
}

/// `detail`, a refusal of the number `literal` (what follows its key path), with the number
/// quoted as `literal` writes it where the message shows it as serde_json read it: a float,
/// so `18446744073709551616` showed as 18446744073709552000, `1e20` as 100000000000000000000
/// or 1e+20, a number of 301 digits for `1.5e300`. The number is the detail's first word
/// (`... is not a time in milliseconds`) or its last (`expected ..., got 1e+20`), and is
/// replaced only when it is the literal's value. `None` when the detail shows no other
/// spelling of the literal.
pub(crate) fn number_as_written(detail: &str, literal: &str) -> Option<String> {
    let value = literal.parse::<f64>().ok()?;
    let same = |shown: &str| shown != literal && shown.parse::<f64>().ok() == Some(value);
    let first = detail.split(' ').next()?;
    if same(first) {
        return Some(format!("{literal}{}", &detail[first.len()..]));
    }
    let (head, last) = detail.rsplit_once(", got ")?;
    same(last).then(|| format!("{head}, got {literal}"))
}

/// `message`, the scenario reader's refusal of `text` (`scenario: config.ttl_ms: 18446744073709552000
/// is not a time in milliseconds: ... at line 1 column 118`), with the refused number quoted
/// as the file writes it ([`number_as_written`]). Other messages are returned as they are.
pub(crate) fn file_number_as_written(message: &str, text: &str) -> String {
    let reworded = || -> Option<String> {
        let (body, position) = message.split_at(message.rfind(" at line ")?);
        let literal = number_at(text, position)?;
        let (prefix, rest) = body.split_once(": ")?;
        let (path, detail) = rest.split_once(": ")?;
        let detail = number_as_written(detail, literal)?;
        Some(format!("{prefix}: {path}: {detail}{position}"))
    };
    reworded().unwrap_or_else(|| message.to_string())
}

/// The seed range in the CLI's words, as `--seed` says it: plain numbers, no JS notation.
const SEED_RANGE_WORDS: &str = "a seed is a whole number from 0 to 2^64 - 1 \
     (18446744073709551615), written as digits or as a decimal string";

/// The scenario reader's words for a seed written with a fraction or an exponent past
/// 2 ** 53 - 1 (its JS callers' notation; the seed range follows in parentheses), and what
/// the CLI says instead.
const FLOAT_SEED_JS: &str = "is above 2 ** 53 - 1, where a number no longer holds every whole \
     number exactly: give it as a bigint or a decimal string";
const FLOAT_SEED_WORDS: &str = "is written with a fraction or an exponent, and past 2^53 - 1 \
     (9007199254740991) such a number does not hold every whole number exactly: write the \
     seed as digits alone or as a decimal string, up to 2^64 - 1 (18446744073709551615)";

/// `message`, the scenario reader's refusal of a seed, in the CLI's words: the reader speaks
/// to JS callers (`2 ** 53 - 1`, `2n ** 64n - 1n`, "a bigint"), but a scenario file is JSON
/// text, whose seed is any whole number up to 2^64 - 1 written as digits or as a decimal
/// string, as `--seed` takes it. `seed: -1 is not a seed: a seed is a whole number from 0 to
/// 2^64 - 1 (18446744073709551615), written as digits or as a decimal string`. Other
/// messages are returned as they are.
pub(crate) fn seed_words(message: &str) -> String {
    let range = crate::units::SEED_RANGE;
    message
        .replace(&format!("{FLOAT_SEED_JS} ({range})"), FLOAT_SEED_WORDS)
        .replace(range, SEED_RANGE_WORDS)
}

/// Refuses JSON text that gives a key twice in one object, at any depth, in the scenario
/// reader's words: `config: the key "ttl_ms" is given twice at line 1 column 30`. Text
/// that is not JSON passes; the caller's own reader says what is wrong with it.
pub(crate) fn refuse_duplicate_keys(text: &str) -> Result<(), String> {
    let mut de = serde_json::Deserializer::from_str(text);
    match serde_path_to_error::deserialize::<_, Unique>(&mut de) {
        Ok(Unique) => Ok(()),
        Err(e) => {
            let path = e.path().to_string();
            let detail = e.into_inner().to_string();
            if !detail.starts_with("duplicate field ") {
                return Ok(());
            }
            let words = crate::serde_words::json_words(&detail);
            if path.is_empty() || path == "." {
                Err(words)
            } else {
                Err(format!("{path}: {words}"))
            }
        }
    }
}

/// Any JSON value, read only to see that no object gives a key twice.
struct Unique;

impl<'de> Deserialize<'de> for Unique {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Unique, D::Error> {
        d.deserialize_any(UniqueVisitor)
    }
}

struct UniqueVisitor;

impl<'de> Visitor<'de> for UniqueVisitor {
    type Value = Unique;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_none<E: de::Error>(self) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Unique, D::Error> {
        Unique::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Unique, A::Error> {
        while seq.next_element::<Unique>()?.is_some() {}
        Ok(Unique)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Unique, A::Error> {
        let mut seen = std::collections::BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if seen.contains(&key) {
                // serde's own phrase, which `json_words` words as the scenario reader's
                // ("the key \"ttl_ms\" is given twice").
                return Err(de::Error::custom(format!("duplicate field `{key}`")));
            }
            map.next_value::<Unique>()?;
            seen.insert(key);
        }
        Ok(Unique)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_is_quoted_as_written_only_where_the_message_shows_its_value() {
        let text = "{\"a\": 1,\n \"ttl_ms\": 1e20}";
        assert_eq!(number_at(text, " at line 2 column 15"), Some("1e20"));
        assert_eq!(number_at("{\"a\": \"1e20\"}", " at line 1 column 12"), None);
        assert_eq!(
            number_as_written("100000000000000000000 is not a time", "1e20").as_deref(),
            Some("1e20 is not a time")
        );
        assert_eq!(
            number_as_written("expected a whole number, got 1e+20", "1e20").as_deref(),
            Some("expected a whole number, got 1e20")
        );
        // Another number, or the number as written already, is left as it is.
        assert_eq!(number_as_written("300 is not a time", "1e20"), None);
        assert_eq!(number_as_written("1e20 is not a time", "1e20"), None);
        assert_eq!(
            number_as_written("expected a whole number, got 2e20", "1e20"),
            None
        );
    }
}
