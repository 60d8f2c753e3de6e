//! The exported `Search` class: the simulator's counterexample search and shrinker
//! (`tenure_sim::search`, the code `tenure search` runs) driven from JS in slices.
//!
//! Conversion and validation only. A search runs in caller-sized batches
//! ([`Search::run_batch`]), so a Web Worker can run a slice, post its progress and look at
//! its message queue (a cancel) between slices; the playground's "Can this break?" panel
//! does (web/playground/search-worker.js). Run `i` of a search with seed `S` is the
//! `tenure chaos` run of seed `S + i`, exactly as in the CLI, so the same options find the
//! same scenario natively, in Node and in the page, and shrink it to the same file.
//!
//! Errors: a bad options object throws a `TypeError` (`ERR_SEARCH_TYPE`, `ERR_UNKNOWN_KEY`)
//! or a `RangeError` (`ERR_SEARCH_RANGE`); a bad scenario the `Simulation` codes, and a run
//! that stopped in a message storm `ERR_STORM`, as `Simulation.runUntil` does.

use serde::Deserialize;
use tenure_sim::chaos::{ChaosOptions, Family};
use tenure_sim::scenario::{AlgoConfig, Algorithm};
use tenure_sim::search::{self, Property, SearchOptions, Size, Witness};
use tenure_sim::{Scenario, ScenarioError};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::convert::millis_from_micros;
use crate::object::plain_object;
use crate::simulation_input::{read_scenario, scenario_error};

/// Longest faulty period, and longest heal, of one search run (ms): one run must stay a
/// slice a worker can interrupt.
pub(crate) const MAX_RUN_PART_MS: u64 = 600_000;
/// Most runs one `runBatch` call may ask for.
pub(crate) const MAX_BATCH: u64 = 1_000_000;
/// Most candidate runs a `shrink` call may try (the CLI's default is 2000).
pub(crate) const MAX_SHRINK_STEPS: u64 = 100_000;

/// `SearchProperty`, generated from the property parser's list (tests/sim_shapes.rs).
#[wasm_bindgen(typescript_custom_section)]
const TS_SEARCH_PROPERTY: &'static str = include_str!("search_shapes.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const TS_SEARCH: &'static str = r#"
/** Codes Search and the failover lab throw beside the Simulation's and the machines' (a part of TenureErrorCode). */
export type SearchErrorCode = "ERR_SEARCH_TYPE" | "ERR_SEARCH_RANGE";

/** Options of `new Search(options)`: the `tenure search` flags, times in ms. */
export interface SearchOptions {
  algorithm: Algorithm;
  property: SearchProperty;
  /** Cluster size (default 3). */
  nodes?: number;
  /** Fault families to draw from (default: every one that applies), as `tenure chaos`; an empty list is refused (`ERR_SEARCH_RANGE`). */
  families?: string[];
  /**
   * Run i uses chaos seed `seed + i` (default 0): as a scenario's seed, a whole number from 0
   * to 2 ** 53 - 1, or a bigint or decimal string from 0 to 2n ** 64n - 1n.
   */
  seed?: number | bigint | string;
  /** Faulty period of each run, ms (default 20000; at most 600000). */
  duration_ms?: number;
  /** Quiet period after the heal, ms (default 5000; at most 600000). */
  heal_ms?: number;
  /** Raft: PreVote and CheckQuorum (default: the core's). */
  pre_vote?: boolean;
  check_quorum?: boolean;
  /** Algorithm parameters laid over each drawn scenario's config (keys set here win). */
  config?: ScenarioConfig;
}

/**
 * What `Search.toJSON` returns: the options with every default filled in, which
 * `new Search(...)` takes back to run the same search (`seed` a bigint above 2^53 - 1).
 */
export interface SearchOptionsJSON extends SearchOptions {
  nodes: number;
  families: string[];
  seed: number | bigint;
  duration_ms: number;
  heal_ms: number;
  config: ScenarioConfig;
}

/** A property's violation. */
export interface SearchWitness {
  /** What broke: the property, or for "any-promised" the invariant's name. */
  kind: string;
  /** True time at which the monitor saw it (it looks every 10 ms), ms. */
  time_ms: number;
  detail: string;
}

/** Where a search stands. */
export interface SearchProgress {
  runs: number;
  /** Trace events processed over all runs. */
  events: number;
  /** How close the best run came: split brain or leaderless us, stale writes, violations. */
  best_score: number;
  /** The seed of the best run: a bigint above 2^53 - 1, where a number would round. */
  best_seed: number | bigint | null;
  found: boolean;
}

/** The run that violated the property. */
export interface SearchFound {
  /** Which run of the search (0-based), and its seed (a bigint above 2^53 - 1). */
  run: number;
  seed: number | bigint;
  /** The failing scenario as drawn: ordinary scenario JSON. */
  scenario: ScenarioJSON;
  witness: SearchWitness;
}

/** How big a scenario is. */
export interface ScenarioSize { faults: number; nodes: number; duration_ms: number; json_bytes: number }

/** The result of `Search.shrink`. */
export interface ShrinkResult {
  /** The shrunk scenario: ordinary scenario JSON that replays bit for bit. */
  scenario: ScenarioJSON;
  witness: SearchWitness;
  original: ScenarioSize;
  shrunk: ScenarioSize;
  /** Candidate runs tried, and kept. */
  steps: number;
  accepted: number;
  /** Of 8 other seeds, how many still fail with the shrunk faults (8: seed-independent). */
  other_seeds_failing: number;
}

/** The result of `Search.evaluate`. */
export interface SearchEvaluation {
  witness: SearchWitness | null;
  score: number;
  events: number;
  /** The trace hash at the scenario's end, 16 lowercase hex digits: the one `tenure run` prints. */
  trace_hash: string;
}
"#;

/// The keys of the options object.
const OPTION_KEYS: [&str; 10] = [
    "algorithm",
    "property",
    "nodes",
    "families",
    "seed",
    "duration_ms",
    "heal_ms",
    "pre_vote",
    "check_quorum",
    "config",
];

/// The options object, read strictly (unknown keys refused).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Spec {
    algorithm: Algorithm,
    property: String,
    nodes: Option<u64>,
    families: Option<Vec<String>>,
    /// Read as a scenario's seed is: the same types, range and words.
    #[serde(
        default,
        deserialize_with = "tenure_sim::units::optional_u64_number_or_string"
    )]
    seed: Option<u64>,
    duration_ms: Option<u64>,
    heal_ms: Option<u64>,
    pre_vote: Option<bool>,
    check_quorum: Option<bool>,
    /// Read apart (`read_config`), so its keys are checked as a scenario file's are; here
    /// it is skipped unread.
    #[allow(dead_code)]
    config: Option<serde::de::IgnoredAny>,
}

/// A counterexample search in progress: `runBatch` until `progress().found` or the budget is
/// spent, then `found()` and `Search.shrink`.
#[wasm_bindgen]
pub struct Search {
    inner: search::Search,
}

#[wasm_bindgen]
impl Search {
    /// A search; the first schedule is drawn and validated, so bad options throw here.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "SearchOptions")] options: JsValue,
    ) -> Result<Search, JsValue> {
        let opts = read_options(&options)?;
        let inner = search::Search::new(opts).map_err(range_of_scenario)?;
        Ok(Search { inner })
    }

    /// Runs up to `runs` more runs (from 1 to 1000000), stopping at the first violation; returns
    /// whether one was found (now or before).
    #[wasm_bindgen(js_name = runBatch)]
    pub fn run_batch(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] runs: JsValue,
    ) -> Result<bool, JsValue> {
        // Not a JS `f64` parameter: wasm-bindgen would coerce `"5"` to 5 and run it.
        let runs = number_arg(&runs, "runs")?;
        #[allow(clippy::cast_precision_loss)]
        let max = MAX_BATCH as f64;
        if !(runs.fract() == 0.0 && (1.0..=max).contains(&runs)) {
            return Err(search_error(
                Kind::Range,
                &format!("runs must be a whole number from 1 to {MAX_BATCH}, got {runs}"),
            ));
        }
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let runs = runs as u64;
        self.inner.run_batch(runs).map_err(range_of_scenario)
    }

    /// Where the search stands.
    #[wasm_bindgen(unchecked_return_type = "SearchProgress")]
    pub fn progress(&self) -> Result<JsValue, JsValue> {
        let p = self.inner.progress();
        plain_object(&[
            ("runs", num(p.runs)),
            ("events", num(p.events)),
            ("best_score", num(p.best_score)),
            ("best_seed", p.best_seed.map_or(JsValue::NULL, seed_value)),
            ("found", p.found.into()),
        ])
    }

    /// The violation found, or `null`.
    #[wasm_bindgen(unchecked_return_type = "SearchFound | null")]
    pub fn found(&self) -> Result<JsValue, JsValue> {
        let Some(f) = self.inner.found() else {
            return Ok(JsValue::NULL);
        };
        plain_object(&[
            ("run", num(f.run)),
            ("seed", seed_value(f.seed)),
            ("scenario", scenario_object(&f.scenario)?),
            ("witness", witness_object(&f.witness)?),
        ])
    }

    /// The options this search runs with, every default filled in: what `new Search(...)`
    /// takes back to run the same search (`pre_vote`/`check_quorum` only when given).
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "SearchOptionsJSON")]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        let options = self.inner.options();
        let chaos = &options.chaos;
        let families = js_sys::Array::new();
        for family in &chaos.families {
            families.push(&JsValue::from_str(family.name()));
        }
        let config = serde_json::to_string(&options.config).unwrap_or_else(|_| "{}".into());
        let seed = seed_value(chaos.seed);
        let mut fields = vec![
            ("algorithm", JsValue::from_str(chaos.algorithm.name())),
            ("property", JsValue::from_str(&options.property.to_string())),
            ("nodes", num(chaos.nodes)),
            ("families", families.into()),
            ("seed", seed),
            ("duration_ms", num(chaos.duration_ms)),
            ("heal_ms", num(chaos.heal_ms)),
        ];
        if let Some(v) = chaos.pre_vote {
            fields.push(("pre_vote", v.into()));
        }
        if let Some(v) = chaos.check_quorum {
            fields.push(("check_quorum", v.into()));
        }
        fields.push(("config", js_sys::JSON::parse(&config)?));
        plain_object(&fields)
    }

    /// The property searched for, as the CLI prints it (`no-leader-for=2000ms`).
    #[wasm_bindgen(getter, unchecked_return_type = "SearchProperty")]
    pub fn property(&self) -> String {
        self.inner.options().property.to_string()
    }

    /// Shrinks `scenario` while it still violates `property` the same way, trying at most
    /// `maxSteps` candidate runs (default 2000, as the CLI): delta debugging over the faults,
    /// then numeric shrinking (docs/search.md). Throws `ERR_SEARCH_RANGE` if the scenario
    /// does not violate the property.
    #[wasm_bindgen(unchecked_return_type = "ShrinkResult")]
    pub fn shrink(
        #[wasm_bindgen(unchecked_param_type = "Scenario")] scenario: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SearchProperty")] property: JsValue,
        #[wasm_bindgen(js_name = maxSteps, unchecked_param_type = "number | undefined")]
        max_steps: JsValue,
    ) -> Result<JsValue, JsValue> {
        let scenario = read_scenario(&scenario)?;
        let property = read_property(&property)?;
        let steps = if max_steps.is_undefined() {
            2_000.0
        } else {
            number_arg(&max_steps, "maxSteps")?
        };
        #[allow(clippy::cast_precision_loss)]
        let max = MAX_SHRINK_STEPS as f64;
        if !(steps.fract() == 0.0 && (1.0..=max).contains(&steps)) {
            return Err(search_error(
                Kind::Range,
                &format!(
                    "maxSteps must be a whole number from 1 to {MAX_SHRINK_STEPS}, got {steps}"
                ),
            ));
        }
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let r = search::shrink(&scenario, property, steps as u64).map_err(range_of_scenario)?;
        plain_object(&[
            ("scenario", scenario_object(&r.scenario)?),
            ("witness", witness_object(&r.witness)?),
            ("original", size_object(&r.original)?),
            ("shrunk", size_object(&r.shrunk)?),
            ("steps", num(r.steps)),
            ("accepted", num(r.accepted)),
            ("other_seeds_failing", r.other_seeds_failing.into()),
        ])
    }

    /// Runs `scenario` to its end watching for `property`, in the monitor's 10 ms slices: the
    /// first witness (or `null`), and the trace hash `tenure run` prints.
    #[wasm_bindgen(unchecked_return_type = "SearchEvaluation")]
    pub fn evaluate(
        #[wasm_bindgen(unchecked_param_type = "Scenario")] scenario: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SearchProperty")] property: JsValue,
    ) -> Result<JsValue, JsValue> {
        let scenario = read_scenario(&scenario)?;
        let property = read_property(&property)?;
        let out = search::evaluate(&scenario, property, true).map_err(range_of_scenario)?;
        plain_object(&[
            (
                "witness",
                match &out.witness {
                    Some(w) => witness_object(w)?,
                    None => JsValue::NULL,
                },
            ),
            ("score", num(out.score)),
            ("events", num(out.events)),
            (
                "trace_hash",
                JsValue::from_str(&tenure_sim::trace::hash_hex(out.trace_hash)),
            ),
        ])
    }

    /// The invariants `algorithm` promises (kebab-case names, as `tenure run` checks them):
    /// what `"any-promised"` looks for.
    pub fn promises(
        #[wasm_bindgen(unchecked_param_type = "Algorithm")] algorithm: JsValue,
    ) -> Result<Vec<String>, JsValue> {
        let algorithm: Algorithm = serde_wasm_bindgen::from_value(algorithm).map_err(|e| {
            search_error(
                Kind::Type,
                &format!(
                    "algorithm: {}",
                    tenure_sim::serde_words::json_words(&e.to_string())
                ),
            )
        })?;
        Ok(tenure_sim::checker::promises(algorithm)
            .iter()
            .map(|k| k.name().to_string())
            .collect())
    }
}

fn read_property(value: &JsValue) -> Result<Property, JsValue> {
    let Some(text) = value.as_string() else {
        return Err(search_error(
            Kind::Type,
            &format!(
                "property must be a string such as \"split-brain\", got {}",
                crate::error::describe(value)
            ),
        ));
    };
    if text.len() > 64 {
        return Err(search_error(
            Kind::Range,
            "property is longer than 64 characters",
        ));
    }
    text.parse()
        .map_err(|e: String| search_error(Kind::Type, &e))
}

fn read_options(value: &JsValue) -> Result<SearchOptions, JsValue> {
    if !crate::js::is_plain_object(value).unwrap_or(false) {
        return Err(search_error(
            Kind::Type,
            &format!(
                "search options must be an object such as {{ algorithm: \"bully\", property: \"split-brain\" }}, got {}",
                crate::error::describe(value)
            ),
        ));
    }
    // serde-wasm-bindgen reads only the fields it knows: a typo must not pass unnoticed.
    let keys = crate::js::own_keys(value).map_err(|t| t.into_js("search options"))?;
    if keys.length() > 64 {
        return Err(search_error(
            Kind::Range,
            "search options have more than 64 keys",
        ));
    }
    for key in keys.iter() {
        let key = key.as_string().unwrap_or_default();
        if !OPTION_KEYS.contains(&key.as_str()) {
            let error = search_error(
                Kind::Type,
                &format!(
                    "search options: unknown key \"{}\" (expected {})",
                    key.chars().take(40).collect::<String>(),
                    OPTION_KEYS.join(", ")
                ),
            );
            let _ = js_sys::Reflect::set(&error, &"code".into(), &"ERR_UNKNOWN_KEY".into());
            return Err(error);
        }
    }
    // The strict reader of scenarios: each error names the key and the value as given, and
    // u64 quantities take a safe integer or a bigint, range-checked.
    let spec: Spec = crate::js_de::from_js(
        value,
        OPTIONS,
        crate::simulation_error::Subject::Scenario,
        None,
    )
    .map_err(options_error)?;
    let config = read_config(value)?;
    let property: Property = spec
        .property
        .parse()
        .map_err(|e: String| search_error(Kind::Type, &e))?;
    let mut chaos = ChaosOptions::new(spec.algorithm);
    chaos.nodes = spec.nodes.unwrap_or(3);
    chaos.duration_ms = spec.duration_ms.unwrap_or(20_000);
    chaos.heal_ms = spec.heal_ms.unwrap_or(5_000);
    chaos.seed = spec.seed.unwrap_or(0);
    chaos.pre_vote = spec.pre_vote;
    chaos.check_quorum = spec.check_quorum;
    for (name, v) in [
        ("duration_ms", chaos.duration_ms),
        ("heal_ms", chaos.heal_ms),
    ] {
        if v > MAX_RUN_PART_MS {
            return Err(search_error(
                Kind::Range,
                &format!(
                    "search options: {name} {v} is above {MAX_RUN_PART_MS} (10 minutes per run)"
                ),
            ));
        }
    }
    if let Some(names) = spec.families {
        if names.len() > Family::ALL.len() * 2 {
            return Err(search_error(
                Kind::Range,
                &format!(
                    "search options: {} families given; there are {}",
                    names.len(),
                    Family::ALL.len()
                ),
            ));
        }
        let mut families = Vec::new();
        for name in &names {
            let f: Family = name
                .parse()
                .map_err(|e: String| search_error(Kind::Type, &format!("search options: {e}")))?;
            if !families.contains(&f) {
                families.push(f);
            }
        }
        // An empty list would draw no fault at all: a search of fault-free runs that looks
        // like a search of every family (the CLI's --families cannot be given empty).
        if families.is_empty() {
            return Err(search_error(
                Kind::Range,
                "search options: families is empty; name at least one family, or leave \
                 families out for every family that applies",
            ));
        }
        chaos.families = families;
    }
    // In the options' own names: `Search::new` would say the CLI's flags.
    chaos
        .validate_named("pre_vote/check_quorum")
        .map_err(|e| search_error(Kind::Range, &format!("search options: {e}")))?;
    let mut opts = SearchOptions::new(chaos, property);
    opts.config = config.unwrap_or_default();
    Ok(opts)
}

/// The root the options' paths start from in messages (`search options.heal_ms: ...`).
const OPTIONS: &str = "search options";

/// A refusal of the options by the strict reader, as `ERR_SEARCH_TYPE`/`ERR_SEARCH_RANGE`
/// (`ERR_UNKNOWN_KEY` for a key they do not have), in the reader's words with the key's path.
fn options_error(err: crate::js_de::DeError) -> JsValue {
    use crate::simulation_error::SimulationError;
    let (kind, message) = match SimulationError::from_de_at(OPTIONS, err) {
        SimulationError::Invalid { message, .. } => (Kind::Range, message),
        SimulationError::UnknownKey { message } => {
            let error = search_error(Kind::Type, &message);
            let _ = js_sys::Reflect::set(&error, &"code".into(), &"ERR_UNKNOWN_KEY".into());
            return error;
        }
        SimulationError::Shape { message, .. } | SimulationError::DuplicateKey { message } => {
            (Kind::Type, message)
        }
        // Too large, not plain, a getter that threw: the boundary's own codes.
        other => return other.into(),
    };
    search_error(kind, &message)
}

/// A seed as JS takes it back: a number up to 2^53 - 1, a bigint above (a number there would
/// round, and the options and scenarios that take it refuse an inexact number).
fn seed_value(seed: u64) -> JsValue {
    if seed <= crate::simulation_input::MAX_SAFE_INTEGER {
        num(seed)
    } else {
        JsValue::from(seed)
    }
}

/// The options' `config`, held to the scenario format's rules (unknown keys refused).
fn read_config(options: &JsValue) -> Result<Option<AlgoConfig>, JsValue> {
    let config = crate::js::get(options, &"config".into()).map_err(|t| t.into_js("config"))?;
    if config.is_undefined() || config.is_null() {
        return Ok(None);
    }
    if !crate::js::is_plain_object(&config).unwrap_or(false) {
        return Err(search_error(
            Kind::Type,
            &format!(
                "search options: config must be an object, got {}",
                crate::error::describe(&config)
            ),
        ));
    }
    // Read as a scenario's `config` is (`crate::js_de`): unknown keys refused, the key named.
    crate::js_de::from_js(
        &config,
        "config",
        crate::simulation_error::Subject::Scenario,
        None,
    )
    .map(Some)
    .map_err(|e| {
        let e = crate::simulation_input::narrow_config_keys(e, options, "config");
        let unknown = matches!(
            e,
            crate::js_de::DeError::Serde {
                class: crate::js_de::Class::UnknownKey,
                ..
            }
        );
        let err = match crate::simulation_error::SimulationError::from_de(
            crate::simulation_error::Subject::Scenario,
            e,
        ) {
            boundary @ (crate::simulation_error::SimulationError::Boundary(_)
            | crate::simulation_error::SimulationError::Thrown(_)) => {
                return JsValue::from(boundary);
            }
            other => other.to_string(),
        };
        // "scenario: config.ttl_ms: ..." from the scenario's words, as the options' key.
        let words = err.strip_prefix("scenario: ").unwrap_or(&err);
        let error = search_error(Kind::Type, &format!("search options: {words}"));
        if unknown {
            let _ = js_sys::Reflect::set(&error, &"code".into(), &"ERR_UNKNOWN_KEY".into());
        }
        error
    })
}

/// A `number` argument, or `ERR_SEARCH_TYPE` naming what came instead (`"5"` is a string,
/// not five runs).
fn number_arg(value: &JsValue, name: &str) -> Result<f64, JsValue> {
    value.as_f64().ok_or_else(|| {
        search_error(
            Kind::Type,
            &format!(
                "{name} must be a number, got {}",
                crate::error::describe(value)
            ),
        )
    })
}

#[derive(Clone, Copy)]
enum Kind {
    Type,
    Range,
}

/// A `TypeError`/`RangeError` with `ERR_SEARCH_TYPE`/`ERR_SEARCH_RANGE`.
fn search_error(kind: Kind, message: &str) -> JsValue {
    let (error, code): (js_sys::Error, &str) = match kind {
        Kind::Type => (
            js_sys::TypeError::new(message).unchecked_into(),
            "ERR_SEARCH_TYPE",
        ),
        Kind::Range => (
            js_sys::RangeError::new(message).unchecked_into(),
            "ERR_SEARCH_RANGE",
        ),
    };
    // A data property on a fresh Error object: setting it cannot fail.
    let _ = js_sys::Reflect::set(&error, &JsValue::from_str("code"), &code.into());
    error.into()
}

/// The simulator's refusal of drawn options (nodes out of range, a config it rejects), or of
/// a shrink whose scenario does not fail.
fn range_of_scenario(err: ScenarioError) -> JsValue {
    match err {
        ScenarioError::Invalid(message) if message.contains("nothing to shrink") => {
            search_error(Kind::Range, &message)
        }
        other => scenario_error(other).into(),
    }
}

/// A count as a JS number (every count here stays far below 2^53).
#[allow(clippy::cast_precision_loss)]
fn num(v: u64) -> JsValue {
    JsValue::from_f64(v as f64)
}

/// The scenario as the plain object of its JSON file (what `Simulation` reads back), its
/// seed a decimal string above 2^53 - 1, where JSON.parse would round it (as
/// `Simulation.toJSON` writes it, so JSON.stringify works on it too).
fn scenario_object(s: &Scenario) -> Result<JsValue, JsValue> {
    let object = js_sys::JSON::parse(&s.to_json())?;
    if s.seed > crate::simulation_input::MAX_SAFE_INTEGER {
        js_sys::Reflect::set(&object, &"seed".into(), &s.seed.to_string().into())?;
    }
    Ok(object)
}

fn witness_object(w: &Witness) -> Result<JsValue, JsValue> {
    plain_object(&[
        ("kind", JsValue::from_str(&w.kind)),
        ("time_ms", millis_from_micros(w.time_us).into()),
        ("detail", JsValue::from_str(&w.detail)),
    ])
}

fn size_object(s: &Size) -> Result<JsValue, JsValue> {
    #[allow(clippy::cast_precision_loss)]
    let bytes = s.json_bytes as f64;
    plain_object(&[
        (
            "faults",
            JsValue::from_f64(f64::from(u32::try_from(s.faults).unwrap_or(u32::MAX))),
        ),
        ("nodes", num(s.nodes)),
        ("duration_ms", num(s.duration_ms)),
        ("json_bytes", bytes.into()),
    ])
}
