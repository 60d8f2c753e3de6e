//! Reading scenario and fault objects from JS.
//!
//! A JS value is first copied into a `serde_json::Value` (checked on the way: NaN and
//! infinities, `bigint`s beyond `u64`, functions, symbols and cycles are refused, naming the
//! path), then the simulator's own serde types read it. So a scenario object is held to
//! exactly the rules of the CLI's scenario files: unknown keys rejected, times in ms, the
//! same messages. Two JS conveniences: a property whose value is `undefined` counts as absent
//! (as `JSON.stringify` has it), and a missing `seed` is drawn from getrandom.
//!
//! The copy is bounded (`crate::limits`): every list, object and string is measured before
//! it is read (`ERR_TOO_LARGE`); objects must be plain (`ERR_OBJECT_TYPE`: a `Map`, `Date` or
//! boxed primitive, and an array where the format has an object, such as `config: []`, which
//! serde would otherwise read as an empty struct); JSON text may not repeat a key
//! (`ERR_DUPLICATE_KEY`).

use serde_json::{Map, Number, Value};
use tenure_sim::{Fault, Scenario, ScenarioError};
use wasm_bindgen::{JsCast, JsValue};

use crate::error::{BindingError, describe};
use crate::json_text::{TextError, parse_unique};
use crate::limits::{MAX_OBJECT_KEYS, MAX_SCENARIO_TEXT, MAX_STRING, MAX_VALUES, scenario_list};
use crate::read::checked_length;
use crate::seed::fresh_seed;
use crate::simulation_error::{SimulationError, Subject};

/// Deepest nesting a scenario may have (a real one is 5 deep); beyond it is a cycle.
const MAX_DEPTH: usize = 32;

/// Largest integer a JS `number` holds exactly (2^53 - 1); fresh seeds stay at or below it so
/// `toJSON()` can give them as plain numbers.
pub(crate) const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Reads and validates a scenario object; draws the seed when it is absent.
pub(crate) fn read_scenario(value: &JsValue) -> Result<Scenario, SimulationError> {
    let mut json = to_json(value, Subject::Scenario)?;
    fill_seed(&mut json)?;
    scenario_from_json(json)
}

/// Reads `Simulation.fromJSON`'s text argument (a JS string), refusing one longer than
/// [`MAX_SCENARIO_TEXT`] before copying it; `Ok(None)` if `value` is not a string.
pub(crate) fn scenario_text(value: &JsValue) -> Result<Option<String>, SimulationError> {
    crate::js::bounded_string(value, MAX_SCENARIO_TEXT).map_err(|len| {
        SimulationError::Boundary(BindingError::TooLarge {
            arg: "json".into(),
            len: f64::from(len),
            unit: "characters",
            max: MAX_SCENARIO_TEXT,
        })
    })
}

/// Parses scenario JSON text, as the CLI reads a scenario file (but refusing duplicate keys);
/// draws the seed when absent.
pub(crate) fn parse_scenario(text: &str) -> Result<Scenario, SimulationError> {
    let mut json: Value = parse_unique(text).map_err(|e| match e {
        TextError::Syntax(e) => SimulationError::Shape {
            subject: Subject::Scenario,
            message: format!("scenario: {e}"),
        },
        TextError::Duplicate { key, path } => SimulationError::DuplicateKey {
            message: format!("{path} has the key \"{key}\" twice; each key may appear once"),
        },
    })?;
    if !json.is_object() {
        return Err(SimulationError::Shape {
            subject: Subject::Scenario,
            message: String::from("scenario: the JSON text must hold an object"),
        });
    }
    let mut budget = MAX_VALUES;
    check_parsed(&json, &mut String::from("scenario"), &mut budget)?;
    fill_seed(&mut json)?;
    scenario_from_json(json)
}

/// Reads a fault object (the `fault` of a scenario's `faults` entry, without `at_ms`).
pub(crate) fn read_fault(value: &JsValue) -> Result<Fault, SimulationError> {
    let json = to_json(value, Subject::Fault)?;
    serde_json::from_value(json)
        .map_err(|e| SimulationError::from_serde(Subject::Fault, &e.to_string()))
}

fn scenario_from_json(json: Value) -> Result<Scenario, SimulationError> {
    objects_where_objects_belong(&json)?;
    let scenario: Scenario = serde_json::from_value(json)
        .map_err(|e| SimulationError::from_serde(Subject::Scenario, &e.to_string()))?;
    scenario.validate().map_err(scenario_error)?;
    Ok(scenario)
}

/// The simulator's refusal of a scenario, as a binding error keeping its message.
pub(crate) fn scenario_error(err: ScenarioError) -> SimulationError {
    match err {
        ScenarioError::Json(detail) => SimulationError::from_serde(Subject::Scenario, &detail),
        other => SimulationError::Invalid {
            subject: Subject::Scenario,
            message: other.to_string(),
        },
    }
}

/// Inserts a fresh seed (docs/design.md "The JS face": getrandom, reported by `toJSON()`), kept
/// to `0..=2^53 - 1` so that it stays a plain JSON number.
fn fill_seed(json: &mut Value) -> Result<(), SimulationError> {
    if let Value::Object(map) = json
        && !map.contains_key("seed")
    {
        map.insert(String::from("seed"), Value::from(fresh_seed() >> 11));
    }
    Ok(())
}

/// The keys of a scenario whose values must be JSON objects (serde would read an array as a
/// struct), and the same inside each `faults` entry.
const SCENARIO_OBJECTS: &[&str] = &["config", "network"];
const TIMED_FAULT_OBJECTS: &[&str] = &["fault"];

/// Refuses an array (or other non-object) where the scenario format has an object.
fn objects_where_objects_belong(json: &Value) -> Result<(), SimulationError> {
    let check = |value: &Value, path: &str| match value {
        Value::Object(_) | Value::Null => Ok(()),
        Value::Array(_) => Err(not_plain(path, "array")),
        _ => Ok(()), // serde names the wrong type itself
    };
    let Value::Object(root) = json else {
        return Ok(());
    };
    for key in SCENARIO_OBJECTS {
        if let Some(v) = root.get(*key) {
            check(v, &format!("scenario.{key}"))?;
        }
    }
    if let Some(Value::Array(faults)) = root.get("faults") {
        for (i, entry) in faults.iter().enumerate() {
            check(entry, &format!("scenario.faults[{i}]"))?;
            if let Value::Object(entry) = entry {
                for key in TIMED_FAULT_OBJECTS {
                    if let Some(v) = entry.get(*key) {
                        check(v, &format!("scenario.faults[{i}].{key}"))?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// `ERR_OBJECT_TYPE` for a value at `path` that must be a plain object.
fn not_plain(path: &str, got: &str) -> SimulationError {
    SimulationError::Boundary(BindingError::NotObject {
        arg: path.to_owned().into(),
        got: got.to_owned(),
    })
}

/// An exception thrown while the input was read at `path`, as the caller will see it.
fn thrown(t: crate::js::Thrown, path: &str) -> SimulationError {
    SimulationError::Thrown(t.into_js(path))
}

/// Copies a JS value into JSON data; the top level must be a plain object.
fn to_json(value: &JsValue, subject: Subject) -> Result<Value, SimulationError> {
    let name = subject.name();
    if !crate::js::is_plain_object(value).map_err(|t| thrown(t, name))? {
        // A Map, Date or boxed primitive; an array keeps its older ERR_SCENARIO_TYPE.
        let array = crate::js::is_array(value).map_err(|t| thrown(t, name))?;
        if value.is_object() && !value.is_function() && !array {
            return Err(not_plain(name, &describe(value)));
        }
        return Err(SimulationError::Shape {
            subject,
            message: format!("{name} must be an object, got {}", describe(value)),
        });
    }
    let mut path = String::from(name);
    let mut budget = MAX_VALUES;
    walk(value, &mut path, 0, subject, &mut budget)
}

/// Counts one more value against `budget`; `ERR_TOO_LARGE` once the whole input holds more
/// than [`MAX_VALUES`].
fn spend(budget: &mut usize, subject: Subject) -> Result<(), SimulationError> {
    if *budget == 0 {
        return Err(SimulationError::Boundary(BindingError::TooLarge {
            arg: subject.name().into(),
            #[allow(clippy::cast_precision_loss)]
            len: (MAX_VALUES + 1) as f64,
            unit: "values (or more)",
            max: MAX_VALUES,
        }));
    }
    *budget -= 1;
    Ok(())
}

/// The limits of [`walk`] applied to JSON parsed from text: every list and object within
/// its limit (the text length alone bounds the memory, this keeps the two routes alike).
fn check_parsed(
    value: &Value,
    path: &mut String,
    budget: &mut usize,
) -> Result<(), SimulationError> {
    spend(budget, Subject::Scenario)?;
    let too_large = |path: &str, len: usize, unit, max| {
        #[allow(clippy::cast_precision_loss)]
        SimulationError::Boundary(BindingError::TooLarge {
            arg: path.to_owned().into(),
            len: len as f64,
            unit,
            max,
        })
    };
    match value {
        Value::Array(items) => {
            let max = scenario_list(path);
            if items.len() > max {
                return Err(too_large(path, items.len(), "elements", max));
            }
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                let r = check_parsed(item, path, budget);
                path.truncate(len);
                r?;
            }
        }
        Value::Object(map) => {
            if map.len() > MAX_OBJECT_KEYS {
                return Err(too_large(path, map.len(), "keys", MAX_OBJECT_KEYS));
            }
            for (key, item) in map {
                let len = path.len();
                path.push('.');
                path.push_str(key);
                let r = check_parsed(item, path, budget);
                path.truncate(len);
                r?;
            }
        }
        Value::String(text) if text.encode_utf16().count() > MAX_STRING => {
            return Err(too_large(
                path,
                text.encode_utf16().count(),
                "characters",
                MAX_STRING,
            ));
        }
        _ => {}
    }
    Ok(())
}

fn walk(
    value: &JsValue,
    path: &mut String,
    depth: usize,
    subject: Subject,
    budget: &mut usize,
) -> Result<Value, SimulationError> {
    let shape = |message: String| SimulationError::Shape { subject, message };
    spend(budget, subject)?;
    if depth > MAX_DEPTH {
        return Err(shape(format!(
            "{path} is nested more than {MAX_DEPTH} deep (a cycle?)"
        )));
    }
    if value.is_null() {
        return Ok(Value::Null);
    }
    if let Some(b) = value.as_bool() {
        return Ok(Value::Bool(b));
    }
    if let Some(n) = value.as_f64() {
        return number(n, path, subject);
    }
    if value.is_bigint() {
        return bigint(value, path, subject);
    }
    match crate::js::bounded_string(value, MAX_STRING) {
        Ok(Some(s)) => return Ok(Value::String(s)),
        Ok(None) => {}
        Err(len) => {
            return Err(SimulationError::Boundary(BindingError::TooLarge {
                arg: path.clone().into(),
                len: f64::from(len),
                unit: "characters",
                max: MAX_STRING,
            }));
        }
    }
    if crate::js::is_array(value).map_err(|t| thrown(t, path))? {
        let name: crate::error::Name = path.clone().into();
        let count =
            checked_length(value, &name, scenario_list(path)).map_err(SimulationError::Thrown)?;
        let items = crate::js::elements(value, count).map_err(|t| thrown(t, path))?;
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.into_iter().enumerate() {
            let len = path.len();
            path.push_str(&format!("[{i}]"));
            // Inside arrays `undefined` is `null`, as JSON.stringify has it.
            let item = if item.is_undefined() {
                Ok(Value::Null)
            } else {
                walk(&item, path, depth.saturating_add(1), subject, budget)
            };
            path.truncate(len);
            out.push(item?);
        }
        return Ok(Value::Array(out));
    }
    if value.is_object() && !value.is_function() {
        if !crate::js::is_plain_object(value).map_err(|t| thrown(t, path))? {
            return Err(not_plain(path, &describe(value)));
        }
        let keys = crate::js::own_keys(value).map_err(|t| thrown(t, path))?;
        if usize::try_from(keys.length()).map_or(true, |n| n > MAX_OBJECT_KEYS) {
            return Err(SimulationError::Boundary(BindingError::TooLarge {
                arg: path.clone().into(),
                len: f64::from(keys.length()),
                unit: "keys",
                max: MAX_OBJECT_KEYS,
            }));
        }
        let mut map = Map::new();
        for key in keys.iter() {
            let Ok(Some(name)) = crate::js::bounded_string(&key, MAX_STRING) else {
                continue;
            };
            let len = path.len();
            path.push('.');
            path.push_str(&name);
            let item = crate::js::get(value, &key)
                .map_err(|t| thrown(t, path))
                .and_then(|item| {
                    if item.is_undefined() {
                        Ok(None)
                    } else {
                        walk(&item, path, depth.saturating_add(1), subject, budget).map(Some)
                    }
                });
            path.truncate(len);
            if let Some(item) = item? {
                map.insert(name, item);
            }
        }
        return Ok(Value::Object(map));
    }
    Err(shape(format!(
        "{path} must be JSON data (an object, array, string, number, boolean or null), got {}",
        describe(value)
    )))
}

fn number(n: f64, path: &str, subject: Subject) -> Result<Value, SimulationError> {
    if !n.is_finite() {
        return Err(SimulationError::Invalid {
            subject,
            message: format!(
                "{path} must be a finite number, got {}",
                crate::error::number_text(n)
            ),
        });
    }
    // Safe integers become JSON integers, so `u64` fields accept them; the rest stay floats.
    #[allow(clippy::cast_precision_loss)]
    let limit = MAX_SAFE_INTEGER as f64;
    if n.fract() == 0.0 && n.abs() <= limit {
        #[allow(clippy::cast_possible_truncation)]
        let i = n as i64;
        return Ok(Value::from(i));
    }
    Ok(Number::from_f64(n).map_or(Value::Null, Value::Number))
}

fn bigint(value: &JsValue, path: &str, subject: Subject) -> Result<Value, SimulationError> {
    if let Ok(v) = u64::try_from(value.clone()) {
        return Ok(Value::from(v));
    }
    if let Ok(v) = i64::try_from(value.clone()) {
        return Ok(Value::from(v));
    }
    let digits = value
        .dyn_ref::<js_sys::BigInt>()
        .and_then(|b| b.to_string(10).ok())
        .map(String::from)
        .unwrap_or_default();
    Err(SimulationError::Invalid {
        subject,
        message: format!("{path} must fit in 64 bits, got {digits}n"),
    })
}
