//! Reading scenario and fault objects from JS.
//!
//! The simulator's own serde types read a JS object directly, through the strict
//! deserializer of `crate::js_de` (NaN and infinities, `bigint`s beyond 64 bits, functions,
//! symbols and cycles refused, every error naming the path). So a scenario object is held to
//! exactly the rules of the CLI's scenario files: unknown keys rejected, times in ms, the
//! same messages. Two JS conveniences: a property whose value is `undefined` counts as absent
//! (as `JSON.stringify` has it), and a missing `seed` is drawn from getrandom.
//!
//! Reading is bounded (`crate::limits`): every list, object and string is measured before
//! it is read (`ERR_TOO_LARGE`); objects must be plain (`ERR_OBJECT_TYPE`: a `Map`, `Date` or
//! boxed primitive, and an array where the format has an object, such as `config: []`, which
//! serde would otherwise read as an empty struct). Scenario JSON text (`fromJSON`) is parsed
//! by serde_json, may not repeat a key (`ERR_DUPLICATE_KEY`) and is held to the same limits.

use serde_json::Value;
use tenure_sim::{Fault, Scenario, ScenarioError};
use wasm_bindgen::{JsCast, JsValue};

use crate::error::{BindingError, describe};
use crate::js_de::{Class, DeError, from_js};
use crate::json_text::{TextError, parse_unique};
use crate::limits::{MAX_OBJECT_KEYS, MAX_SCENARIO_TEXT, MAX_STRING, MAX_VALUES, scenario_list};
use crate::seed::fresh_seed;
use crate::simulation_error::{SimulationError, Subject};

/// Largest integer a JS `number` holds exactly (2^53 - 1); fresh seeds stay at or below it so
/// `toJSON()` can give them as plain numbers.
pub(crate) const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Reads and validates a scenario object; draws the seed when it is absent.
pub(crate) fn read_scenario(value: &JsValue) -> Result<Scenario, SimulationError> {
    let subject = Subject::Scenario;
    top_level(value, subject)?;
    #[allow(clippy::cast_precision_loss)] // below 2^53: exact
    let seed = JsValue::from_f64((fresh_seed() >> 11) as f64);
    let scenario: Scenario = from_js(value, subject.name(), subject, Some(("seed", seed)))
        .map_err(|e| {
            SimulationError::from_de(subject, narrow_config_keys(e, value, "scenario.config"))
        })?;
    scenario.validate().map_err(scenario_error)?;
    Ok(scenario)
}

/// An unknown key in the `config` at `path` told the keys of the algorithm that `input`
/// names (its `algorithm` key), not every algorithm's
/// (`tenure_sim::scenario::narrow_config_keys`); any other error as it is.
pub(crate) fn narrow_config_keys(err: DeError, input: &JsValue, path: &str) -> DeError {
    match err {
        DeError::Serde {
            class: Class::UnknownKey,
            message,
            path: Some(at),
        } if at == path => {
            // Read again only for this message: a getter that throws now, or a string that
            // is not a name (an algorithm's name is short; a long one is not copied), keeps
            // the full list.
            let algorithm = crate::js::get(input, &JsValue::from_str("algorithm"))
                .ok()
                .and_then(|a| crate::js::bounded_string(&a, 64).ok().flatten());
            let message = algorithm
                .and_then(|a| tenure_sim::scenario::narrow_config_keys(&message, &a))
                .unwrap_or(message);
            DeError::Serde {
                class: Class::UnknownKey,
                message,
                path: Some(at),
            }
        }
        other => other,
    }
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
    // A leading byte order mark is ignored, as the CLI ignores it in a scenario file.
    let text = tenure_sim::scenario::without_bom(text);
    let json: Value = parse_unique(text).map_err(|e| match e {
        TextError::Syntax(e) => SimulationError::Shape {
            subject: Subject::Scenario,
            message: format!("scenario: {}", tenure_sim::serde_words::json_words(&e)),
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
    // The checked text is read as a JS object is, by the one deserializer: JS parses it into
    // a fresh object (which the binding may change). A seed above 2^53 would lose digits
    // in a JS number, so it is taken from the parsed text and given as a bigint.
    let subject = Subject::Scenario;
    let object = js_sys::JSON::parse(text).map_err(|_| SimulationError::Shape {
        subject,
        message: String::from("scenario: the JSON text must hold an object"),
    })?;
    let big_seed = json
        .get("seed")
        .and_then(Value::as_u64)
        .filter(|v| *v > MAX_SAFE_INTEGER);
    let seed = match big_seed {
        Some(v) => {
            let _ = js_sys::Reflect::delete_property(
                object.unchecked_ref::<js_sys::Object>(),
                &JsValue::from_str("seed"),
            );
            JsValue::from(v)
        }
        #[allow(clippy::cast_precision_loss)] // below 2^53: exact
        None => JsValue::from_f64((fresh_seed() >> 11) as f64),
    };
    let scenario: Scenario = from_js(&object, subject.name(), subject, Some(("seed", seed)))
        .map_err(|e| {
            SimulationError::from_de(subject, narrow_config_keys(e, &object, "scenario.config"))
        })?;
    scenario.validate().map_err(scenario_error)?;
    Ok(scenario)
}

/// Reads a fault object (the `fault` of a scenario's `faults` entry, without `at_ms`).
pub(crate) fn read_fault(value: &JsValue) -> Result<Fault, SimulationError> {
    let subject = Subject::Fault;
    top_level(value, subject)?;
    from_js(value, subject.name(), subject, None).map_err(|e| SimulationError::from_de(subject, e))
}

/// The simulator's refusal of a scenario, as a binding error keeping its message.
pub(crate) fn scenario_error(err: ScenarioError) -> SimulationError {
    match err {
        ScenarioError::Json(detail) => SimulationError::from_serde(Subject::Scenario, &detail),
        // A search's run (its batch, shrink or evaluate) that stormed: ERR_STORM, as
        // `Simulation.runUntil` throws it.
        ScenarioError::Storm(message) => SimulationError::Storm { message },
        other => SimulationError::Invalid {
            subject: Subject::Scenario,
            message: other.to_string(),
        },
    }
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

/// Refuses a top-level argument that is not a plain object, in the words it always had.
fn top_level(value: &JsValue, subject: Subject) -> Result<(), SimulationError> {
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
    Ok(())
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

/// The limits of `crate::js_de` applied to JSON parsed from text: every list and object within
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
