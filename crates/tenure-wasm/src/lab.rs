//! The failover lab's functions: [`failover_measure`] (time to a new leader after crashes),
//! [`false_elections`] (the cost side) and [`failover_plot`] (their CDF as SVG). Thin
//! wrappers over the simulator's `failover`, `cost` and `failover_plot` modules, which the
//! native CLI's `failover` command runs too: the same setting and seed give the same numbers.
//!
//! A setting is `{ algorithm, nodes?, election_timeout_ms?: [min, max], pre_vote?,
//! check_quorum?, ttl_ms?, safety_margin_ms?, failure_timeout_ms?, answer_timeout_ms?,
//! coordinator_timeout_ms?, latency_ms?: [min, max] }` (ms; unknown keys refused). Errors are
//! the scenario's: `TypeError` `ERR_SCENARIO_TYPE` for a malformed setting, `RangeError`
//! `ERR_SCENARIO_RANGE` for values the simulator refuses.

use serde::Serialize;
use tenure_sim::cost::{self, Disturbance};
use tenure_sim::failover;
use tenure_sim::failover_plot::{Series, cdf_svg};
use tenure_sim::failover_setting::Setting;
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::simulation_error::{SimulationError, Subject};
use crate::simulation_output::serializer;

#[wasm_bindgen(typescript_custom_section)]
const LAB_TYPES: &str = r#"
/** A failover-lab setting: an algorithm and its timeout knobs, ms (unset: the defaults). */
export interface FailoverSetting {
  /** Every registered algorithm (the generated `Algorithm` union), as the CLI takes. */
  algorithm: Algorithm;
  nodes?: number;
  election_timeout_ms?: [number, number] | null;
  pre_vote?: boolean | null;
  check_quorum?: boolean | null;
  ttl_ms?: number | null;
  safety_margin_ms?: number | null;
  failure_timeout_ms?: number | null;
  answer_timeout_ms?: number | null;
  coordinator_timeout_ms?: number | null;
  latency_ms?: [number, number] | null;
}
/**
 * Time to a new leader over `runs` crashes of the leader, ms; `samples_ms` sorted. The four
 * figures are `null` when no crash was followed by a new leader (every run a failure), as
 * `tenure failover --json` reports them.
 */
export interface FailoverReport {
  label: string;
  runs: number;
  failures: number;
  min_ms: number | null;
  median_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
  samples_ms: number[];
}
/** How a crash-free run is disturbed: pauses of `pause_ms` at `pauses_per_hour` per node. */
export interface Disturbance {
  run_ms: number;
  pauses_per_hour: number;
  pause_ms: number;
}
/** Elections in a crash-free run: every one after the first is a false election. */
export interface CostReport {
  run_ms: number;
  pauses: number;
  elections: number;
  false_elections: number;
  false_elections_per_hour: number;
  leaderless_ms: number;
}
"#;

/// Most crashes one `failoverMeasure` call runs (a worker can call it again); a plot takes as
/// many samples per series (`limits::MAX_SAMPLES`).
pub const MAX_RUNS: u64 = 100_000;
const _: () = assert!(MAX_RUNS as usize == crate::limits::MAX_SAMPLES);
/// Most series one plot draws.
const MAX_SERIES: usize = 16;

fn shape(message: String) -> JsValue {
    SimulationError::Shape {
        subject: Subject::Scenario,
        message,
    }
    .into()
}

fn invalid(message: String) -> JsValue {
    SimulationError::Invalid {
        subject: Subject::Scenario,
        message,
    }
    .into()
}

/// Reads a JS object strictly, as a scenario is read: keys and values named as given (NaN and
/// Infinity refused as such, where JSON.stringify made them `null`). A string is JSON text,
/// parsed by JS's `JSON.parse` first (its message names where the text went wrong).
fn read<T: serde::de::DeserializeOwned>(value: &JsValue, what: &str) -> Result<T, JsValue> {
    let parsed;
    let value = match value.as_string() {
        Some(text) => {
            if text.len() > 1 << 20 {
                return Err(shape(format!("{what}: longer than 1 MiB")));
            }
            parsed = js_sys::JSON::parse(&text).map_err(|e| {
                let why = js_sys::Error::from(e).message();
                shape(format!("{what}: not JSON text: {}", String::from(why)))
            })?;
            &parsed
        }
        None => value,
    };
    crate::js_de::from_js(value, what, Subject::Scenario, None)
        .map_err(|e| SimulationError::from_de_at(what, e).into())
}

/// `runs`: a whole number from 1 to [`MAX_RUNS`], the value and the range named.
fn runs_arg(value: &JsValue) -> Result<u64, JsValue> {
    let n = value.as_f64().ok_or_else(|| {
        shape(format!(
            "runs must be a number, got {}",
            crate::error::describe(value)
        ))
    })?;
    #[allow(clippy::cast_precision_loss)]
    let limit = MAX_RUNS as f64;
    if n.fract() != 0.0 || !(1.0..=limit).contains(&n) {
        return Err(invalid(format!(
            "runs must be a whole number from 1 to {MAX_RUNS}, got {}",
            crate::error::number_text(n)
        )));
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Ok(n as u64)
}

/// A seed, read exactly as a scenario's `seed` (`tenure_sim::units::u64_number_or_string`):
/// the same types, range and words in the failover lab as in `Simulation` and `Search`.
#[derive(serde::Deserialize)]
#[serde(transparent)]
struct Seed(#[serde(deserialize_with = "tenure_sim::units::u64_number_or_string")] u64);

fn seed_arg(value: &JsValue) -> Result<u64, JsValue> {
    crate::js_de::from_js::<Seed>(value, "seed", Subject::Scenario, None)
        .map(|s| s.0)
        .map_err(|e| SimulationError::from_de_at("seed", e).into())
}

#[derive(Serialize)]
struct Measured {
    label: String,
    runs: u64,
    failures: u64,
    min_ms: Option<f64>,
    median_ms: Option<f64>,
    p99_ms: Option<f64>,
    max_ms: Option<f64>,
    samples_ms: Vec<f64>,
}

/// Crashes the leader `runs` times (run `i` with seed `seed + i`, wrapping past
/// 2n ** 64n - 1n as the CLI's; `seed` is read as a scenario's) in worlds of `setting`,
/// and returns `{ label, runs, failures, min_ms, median_ms, p99_ms, max_ms, samples_ms }`
/// (sorted samples), exactly as `tenure failover --json` reports each setting.
#[wasm_bindgen(js_name = failoverMeasure, unchecked_return_type = "FailoverReport")]
pub fn failover_measure(
    #[wasm_bindgen(unchecked_param_type = "FailoverSetting | string")] setting: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | bigint | string")] seed: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] runs: JsValue,
) -> Result<JsValue, JsValue> {
    let setting: Setting = read(&setting, "failover setting")?;
    let seed = seed_arg(&seed)?;
    let runs = runs_arg(&runs)?;
    let s = setting.scenario(seed).map_err(|e| invalid(e.to_string()))?;
    let r = failover::measure(&s, runs).map_err(|e| invalid(e.to_string()))?;
    // No crash was followed by a new leader: there is no time to report (null, not 0).
    let measured = |v: f64| (!r.samples_us.is_empty()).then_some(v);
    let out = Measured {
        label: setting.label(),
        runs: r.runs,
        failures: r.failures,
        min_ms: measured(r.min_ms),
        median_ms: measured(r.median_ms),
        p99_ms: measured(r.p99_ms),
        max_ms: measured(r.max_ms),
        samples_ms: r
            .samples_us
            .iter()
            .copied()
            .map(tenure_sim::units::us_to_ms)
            .collect(),
    };
    out.serialize(&serializer()).map_err(JsValue::from)
}

/// Runs a world of `setting` with no crash for `disturbance.run_ms`, its nodes paused for
/// `pause_ms` at `pauses_per_hour` each (Poisson), and counts the elections after the first:
/// `{ run_ms, pauses, elections, false_elections, false_elections_per_hour, leaderless_ms }`,
/// as `tenure failover --cost-run` reports them.
#[wasm_bindgen(js_name = falseElections, unchecked_return_type = "CostReport")]
pub fn false_elections(
    #[wasm_bindgen(unchecked_param_type = "FailoverSetting | string")] setting: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | bigint | string")] seed: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Disturbance | string")] disturbance: JsValue,
) -> Result<JsValue, JsValue> {
    let setting: Setting = read(&setting, "failover setting")?;
    let d: Disturbance = read(&disturbance, "disturbance")?;
    let seed = seed_arg(&seed)?;
    let s = setting.scenario(seed).map_err(|e| invalid(e.to_string()))?;
    let r = cost::measure(&s, &d).map_err(|e| invalid(e.to_string()))?;
    r.serialize(&serializer()).map_err(JsValue::from)
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SeriesIn {
    label: String,
    samples_ms: Vec<f64>,
}

/// The CDF of each series `{ label, samples_ms }`, overlaid, as standalone SVG text: the
/// same drawing as `tenure failover --svg`.
#[wasm_bindgen(js_name = failoverPlot)]
pub fn failover_plot(
    #[wasm_bindgen(unchecked_param_type = "string")] title: JsValue,
    #[wasm_bindgen(unchecked_param_type = "{ label: string, samples_ms: number[] }[]")]
    series: JsValue,
) -> Result<String, JsValue> {
    // A `&str` parameter would let a non-string reach wasm memory as garbage: checked here.
    let title = crate::read::bounded(&title, "title".into())
        .map_err(|e| JsValue::from(SimulationError::Boundary(e)))?;
    let list: Vec<SeriesIn> = read(&series, "plot series")?;
    if list.len() > MAX_SERIES {
        return Err(invalid(format!(
            "a plot takes at most {MAX_SERIES} series, not {}",
            list.len()
        )));
    }
    let mut out = Vec::new();
    for s in list {
        let mut us = Vec::with_capacity(s.samples_ms.len());
        for v in s.samples_ms {
            if !v.is_finite() || !(0.0..=1e12).contains(&v) {
                return Err(invalid(format!(
                    "{}: sample {v} is not a time in ms",
                    s.label
                )));
            }
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            us.push((v * 1000.0).round() as u64);
        }
        out.push(Series {
            label: s.label,
            samples_us: us,
        });
    }
    Ok(cdf_svg(&title, &out))
}
