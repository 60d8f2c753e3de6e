//! `run --fault` and `run --set`: faults and config on the command line, without a file.
//!
//! A fault is its scenario JSON (`{"at_ms": 2000, "fault": {"type": "crash", "node": 1}}`)
//! or a line of words: the fault's `type`, then `key=value` pairs, with `at=` the time it
//! strikes (`crash node=1 at=2s`, `pause target=store duration=500ms at=1s`,
//! `partition groups=1,2|3 at=2s`, `isolate nodes=1, at=3s`). Values: a number, a name
//! (`store`), a list `1,2,store` (a trailing comma makes a list of one: `1,`), groups
//! `1,2|3`, or JSON. A key `x=` given a duration with a unit (`duration=500ms`) is the
//! format's `x_ms`; `x_ms=` takes milliseconds or a duration.
//!
//! `--set key=value` sets `config.key` (`--set ttl_ms=2000`, `--set pre_vote=false`), or a
//! dotted path from the scenario's top (`--set network.loss=0.05`,
//! `--set network.latency_ms=5-30`). Both are read by the scenario format itself, so its
//! keys, checks and error messages apply unchanged.

use super::args::{parse_duration_ms, parse_ms_knob};
use serde_json::{Map, Value, json};

/// Parses one `--fault`: a timed fault as the scenario file writes it (checked for shape
/// here, and against the world when the scenario is built).
pub(crate) fn parse_fault(s: &str) -> Result<Value, String> {
    let t = s.trim();
    if t.starts_with('[') {
        // A scenario file's `faults` list pasted whole: one fault per flag.
        return Err(format!(
            "`{s}` is a list; --fault takes one fault (as words, `crash node=1 at=2s`, or one \
             JSON object): repeat --fault for each"
        ));
    }
    let v = if t.starts_with('{') {
        let v = serde_json::from_str::<Value>(t).map_err(|e| {
            format!(
                "`{s}` is not a fault: {}",
                crate::serde_words::json_words(&e.to_string())
            )
        })?;
        super::json_text::refuse_duplicate_keys(t)
            .map_err(|e| format!("`{s}` is not a fault: {e}"))?;
        v
    } else {
        words(t).map_err(|e| format!("`{s}` is not a fault: {e}"))?
    };
    crate::serde_words::from_value::<crate::fault::TimedFault>(v.clone())
        .map_err(|e| format!("`{s}` is not a fault: {}", unitless(t, &e.to_string())))?;
    Ok(v)
}

/// `message` for a worded fault whose time was given without a unit (`duration=500`): the
/// key is then taken as written and refused as unknown ("unknown key \"duration\"; the keys
/// are target, duration_ms"), which blames the key; say that the number needs a unit.
fn unitless(t: &str, message: &str) -> String {
    for part in t.split_whitespace().skip(1) {
        let Some((key, value)) = part.split_once('=') else {
            continue;
        };
        if value.parse::<f64>().is_ok()
            && message.contains(&format!("unknown key \"{key}\""))
            && message.contains(&format!("{key}_ms"))
        {
            return format!(
                "`{part}` needs a unit, as in {key}={value}ms or {key}=2s (or give \
                 {key}_ms={value})"
            );
        }
    }
    message.to_string()
}

/// `crash node=1 at=2s` as `{"at_ms": 2000, "fault": {"type": "crash", "node": 1}}`.
fn words(t: &str) -> Result<Value, String> {
    let mut parts = t.split_whitespace();
    let Some(kind) = parts.next().filter(|k| !k.contains('=')) else {
        return Err("start with the fault's type, as in `crash node=1 at=2s`".into());
    };
    let mut fault = Map::new();
    fault.insert("type".into(), json!(kind));
    let mut at = None;
    for part in parts {
        let Some((key, value)) = part.split_once('=') else {
            return Err(format!("`{part}` is not key=value"));
        };
        if key == "at" || key == "at_ms" {
            if at.is_some() {
                return Err(format!(
                    "the time it strikes is given twice (`{part}`); give at= once"
                ));
            }
            at = Some(if key == "at" {
                parse_duration_ms(value)?
            } else {
                parse_ms_knob(value)?
            });
            continue;
        }
        let (key, value) = field(key, value)?;
        if fault.insert(key.clone(), value).is_some() {
            return Err(format!(
                "the key \"{key}\" is given twice; give each key once"
            ));
        }
    }
    let Some(at) = at else {
        return Err("give the time it strikes, as in at=2s".into());
    };
    Ok(json!({ "at_ms": at, "fault": Value::Object(fault) }))
}

/// One `key=value` of a fault or a `--set`, as the format's key and JSON value.
fn field(key: &str, value: &str) -> Result<(String, Value), String> {
    if let Some(stem) = key.strip_suffix("_ms") {
        return Ok((format!("{stem}_ms"), ms_value(value)?));
    }
    if value.parse::<f64>().is_err() {
        let duration = parse_duration_ms(value);
        if let Ok(ms) = duration {
            return Ok((format!("{key}_ms"), json!(ms)));
        }
        // `duration=-3s` (or a signed `offset=-500ms`) is the key's `_ms` too, signed, so the
        // format's own check names the key and refuses the value, rather than the key being
        // taken as written and refused as unknown.
        if let Some(ms) = value
            .strip_prefix('-')
            .and_then(|v| parse_duration_ms(v).ok())
        {
            return Ok((format!("{key}_ms"), json!(-i128::from(ms))));
        }
        // A number with a unit that is no duration (`1e300s`, `1.5ms`): its own error, not
        // the key taken as written and refused as unknown.
        if let Err(e) = duration
            && ends_in_time_unit(value)
        {
            return Err(format!("{key}={value}: {e}"));
        }
    }
    Ok((key.to_string(), plain(value)?))
}

/// Whether `value` is a digit followed by a time unit at its end (`1e300s`, `1.5ms`, `2h`, or
/// a unit the flags do not take, `1us`), unlike a word that happens to end in one (`yes`,
/// `ms`).
fn ends_in_time_unit(value: &str) -> bool {
    let (num, unit) = super::args::split_unit(value);
    ["ms", "s", "m", "h", "us", "µs", "ns", "sec", "min"].contains(&unit)
        && num.chars().last().is_some_and(|c| c.is_ascii_digit())
}

/// A millisecond value: `2000`, `2s`, `-500` (a signed offset) or a range `5-30`.
fn ms_value(value: &str) -> Result<Value, String> {
    if let Some(rest) = value.strip_prefix('-') {
        return Ok(json!(-i128::from(parse_ms_knob(rest)?)));
    }
    if let Some((lo, hi)) = value.split_once('-') {
        return Ok(json!([parse_ms_knob(lo)?, parse_ms_knob(hi)?]));
    }
    if value.starts_with('[') {
        return serde_json::from_str(value)
            .map_err(|e| crate::serde_words::json_words(&e.to_string()));
    }
    if let Ok(f) = value.parse::<f64>() {
        // `NaN`, `inf` and `1e400` parse as floats but are no time (JSON has no such number,
        // and serde_json would turn them into null: the default, silently).
        if !f.is_finite() {
            return Err(format!("`{value}` is not a number of milliseconds"));
        }
    }
    // A bare number is whole ms, as every -ms flag reads it: `100.5` is refused, not passed
    // on as a fraction the scenario file's microseconds would keep, and `5` stays the
    // whole number 5 (a float 5.0 was quoted back as "got 5.0").
    Ok(json!(parse_ms_knob(value)?))
}

/// A value that is not a time: JSON, groups `1,2|3`, a list `1,2` or `1,`, or one atom.
/// JSON that gives a key twice in one object is refused, as in a scenario file.
fn plain(value: &str) -> Result<Value, String> {
    // A whole number past 2^64 - 1 would be read as a float and then refused as "got
    // 1.8446744073709552e+19"; say it as written.
    if value.bytes().all(|b| b.is_ascii_digit())
        && !value.is_empty()
        && value.parse::<u64>().is_err()
    {
        return Err(format!(
            "{value} is above {}, the largest whole number a scenario holds",
            super::json_text::U64_MAX_WORDS
        ));
    }
    if value.starts_with(['[', '{', '"'])
        && let Ok(v) = serde_json::from_str(value)
    {
        super::json_text::refuse_duplicate_keys(value).map_err(|e| format!("`{value}`: {e}"))?;
        return Ok(v);
    }
    if value.contains('|') {
        return Ok(Value::Array(value.split('|').map(list).collect()));
    }
    if value.contains(',') {
        return Ok(list(value));
    }
    Ok(atom(value))
}

fn list(value: &str) -> Value {
    Value::Array(
        value
            .split(',')
            .filter(|a| !a.trim().is_empty())
            .map(atom)
            .collect(),
    )
}

fn atom(a: &str) -> Value {
    let a = a.trim();
    if let Ok(n) = a.parse::<u64>() {
        return json!(n);
    }
    if let Ok(n) = a.parse::<i64>() {
        return json!(n);
    }
    if let Ok(f) = a.parse::<f64>()
        && f.is_finite()
    {
        return json!(f);
    }
    match a {
        "true" => json!(true),
        "false" => json!(false),
        _ => json!(a),
    }
}

/// Parses one `--set key=value` into a path and a value (the path starts at the scenario's
/// top: `config.ttl_ms`, `network.loss`).
pub(crate) fn parse_set(s: &str) -> Result<(Vec<String>, Value), String> {
    let Some((key, value)) = s.split_once('=') else {
        return Err(format!(
            "`{s}` is not key=value, as in --set ttl_ms=2000 or --set network.loss=0.05"
        ));
    };
    let key = key.trim();
    if key.is_empty() {
        return Err(format!("`{s}` names no key"));
    }
    let mut path: Vec<String> = key.split('.').map(str::to_string).collect();
    if path.len() == 1 {
        if let Some(why) = not_a_config_key(key) {
            return Err(why);
        }
        path.insert(0, "config".into());
    }
    let last = path.last().cloned().unwrap_or_default();
    let value = if last.ends_with("_ms") {
        ms_value(value.trim())?
    } else {
        plain(value.trim())?
    };
    Ok((path, value))
}

/// Why a one-word `--set key=value` naming a scenario setting outside `config` is refused:
/// `network` holds several settings (one is set by its dotted path), and the scenario's own
/// settings have their own flags. `None` for every other key, which is read as a config key.
fn not_a_config_key(key: &str) -> Option<String> {
    let flag = match key {
        "network" => {
            let keys = serde_json::to_value(crate::network::NetworkConfig::default())
                .ok()
                .and_then(|v| v.as_object().map(|o| o.keys().cloned().collect::<Vec<_>>()))
                .unwrap_or_default();
            return Some(format!(
                "`network` holds several settings; set one by its path, as in --set \
                 network.loss=0.05 (its keys: {})",
                keys.join(", ")
            ));
        }
        "nodes" => "--nodes",
        "seed" => "--seed",
        "duration_ms" => "--duration",
        "algorithm" => "--algorithm",
        "faults" => "--fault",
        _ => return None,
    };
    Some(format!(
        "`{key}` is a setting of the scenario, not of its config; give it with {flag}"
    ))
}

/// Sets `value` at `path` in the scenario JSON `doc` (objects are created on the way).
pub(crate) fn apply_set(doc: &mut Value, path: &[String], value: Value) -> Result<(), String> {
    let mut at = doc;
    for (i, key) in path.iter().enumerate() {
        let Value::Object(map) = at else {
            return Err(format!(
                "--set {}: `{}` is not an object",
                path.join("."),
                path[..i].join(".")
            ));
        };
        if i + 1 == path.len() {
            map.insert(key.clone(), value);
            return Ok(());
        }
        at = map
            .entry(key.clone())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_read_as_words_or_json() {
        assert_eq!(
            parse_fault("crash node=1 at=2s"),
            Ok(json!({ "at_ms": 2000, "fault": { "type": "crash", "node": 1 } }))
        );
        assert_eq!(
            parse_fault("partition groups=1,2|3 at=1500ms"),
            Ok(json!({ "at_ms": 1500, "fault": { "type": "partition", "groups": [[1, 2], [3]] } }))
        );
        assert_eq!(
            parse_fault("pause target=2 duration=500ms at=1s"),
            Ok(
                json!({ "at_ms": 1000, "fault": { "type": "pause", "target": 2, "duration_ms": 500 } })
            )
        );
        assert_eq!(
            parse_fault("isolate nodes=1, at=3s"),
            Ok(json!({ "at_ms": 3000, "fault": { "type": "isolate", "nodes": [1] } }))
        );
        let j = r#"{"at_ms": 5, "fault": {"type": "heal"}}"#;
        assert_eq!(
            parse_fault(j),
            Ok(json!({ "at_ms": 5, "fault": { "type": "heal" } }))
        );
        for bad in [
            "crash node=1",
            "meteor at=1s",
            "crash nod=1 at=1s",
            "node=1",
            "crash node at=1s",
        ] {
            let e = parse_fault(bad).unwrap_err();
            assert!(e.starts_with(&format!("`{bad}` is not a fault")), "{e}");
            for rust in ["variant", "field `", "u64"] {
                assert!(!e.contains(rust), "{e}");
            }
        }
        // A time without a unit blames the number, not the key.
        assert_eq!(
            parse_fault("pause target=1 duration=500 at=1s").unwrap_err(),
            "`pause target=1 duration=500 at=1s` is not a fault: `duration=500` needs a unit, \
             as in duration=500ms or duration=2s (or give duration_ms=500)"
        );
        // A key that is unknown with or without `_ms` is still named as unknown.
        let e = parse_fault("crash nod=1 at=1s").unwrap_err();
        assert!(e.contains("unknown key \"nod\""), "{e}");
    }

    #[test]
    fn a_list_of_faults_is_named_as_a_list() {
        let e = parse_fault(r#"[{"at_ms":500,"type":"crash","node":1}]"#).unwrap_err();
        assert!(e.contains("is a list; --fault takes one fault"), "{e}");
    }

    #[test]
    fn sets_reach_config_or_a_dotted_path() {
        assert_eq!(
            parse_set("ttl_ms=2s"),
            Ok((vec!["config".into(), "ttl_ms".into()], json!(2000)))
        );
        assert_eq!(
            parse_set("network.latency_ms=5-30"),
            Ok((vec!["network".into(), "latency_ms".into()], json!([5, 30])))
        );
        assert_eq!(
            parse_set("pre_vote=false"),
            Ok((vec!["config".into(), "pre_vote".into()], json!(false)))
        );
        assert!(parse_set("ttl_ms").is_err());
        // A bare number is whole ms, read as the integer it is.
        assert_eq!(
            parse_set("election_timeout_ms=150"),
            Ok((
                vec!["config".into(), "election_timeout_ms".into()],
                json!(150)
            ))
        );
        assert_eq!(
            parse_set("election_timeout_ms=100.5"),
            Err(
                "`100.5` is not a whole number of milliseconds from 0 to 10^15 (the \
                 resolution of -ms flags is 1 ms)"
                    .into()
            )
        );
        assert_eq!(
            parse_set("network=[0.5]"),
            Err(
                "`network` holds several settings; set one by its path, as in --set \
                 network.loss=0.05 (its keys: duplicate, latency_ms, loss)"
                    .into()
            )
        );
        assert_eq!(
            parse_set("nodes=7"),
            Err(
                "`nodes` is a setting of the scenario, not of its config; give it with --nodes"
                    .into()
            )
        );
        let mut doc = json!({ "config": {} });
        let (p, v) = parse_set("network.loss=0.5").unwrap_or_default();
        assert_eq!(apply_set(&mut doc, &p, v), Ok(()));
        assert_eq!(doc, json!({ "config": {}, "network": { "loss": 0.5 } }));
    }
}
