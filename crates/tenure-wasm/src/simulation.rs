//! The exported `Simulation` class: the simulator's [`World`] driven from JS.
//!
//! Conversion and validation only: scenarios and faults are read by
//! [`crate::simulation_input`], results are the simulator's own serde forms ([`crate::simulation_output`]); every decision
//! (what happens, what is a violation) is the simulator's.

use serde::Serialize;
use tenure::Instant;
use tenure_sim::{TraceKind, World};
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::convert::{exact_micros_from_millis, millis_from_micros};
use crate::simulation_error::{SimulationError, Subject};
use crate::simulation_frame::Frame;
use crate::simulation_input::{
    MAX_SAFE_INTEGER, parse_scenario, read_fault, read_scenario, scenario_text,
};
use crate::simulation_message::MessageView;
use crate::simulation_output::{EventsPage, to_js};

/// A deterministic simulated world running one election algorithm under faults,
/// with its invariant checker.
///
/// Built from a scenario object: the same versioned JSON as the `tenure` CLI's scenario
/// files (`{ version: 1, algorithm, nodes, config, network, seed, duration_ms, faults }`,
/// times in ms, unknown keys rejected). Without a `seed`, one is drawn from the platform's
/// randomness and reported by `toJSON()`, so every run can be replayed. The same scenario and
/// seed give the same `traceHash()` here and in the native CLI.
///
/// The run ends at the scenario's `duration_ms` (`endMs`): `step()` and `runUntil()` never
/// go past it. Time only moves forward; to go back, keep `clone()`s as checkpoints or build
/// a new `Simulation` from `toJSON()` and run it to the wanted time.
///
/// Errors: a bad scenario throws a `TypeError` (`ERR_SCENARIO_TYPE`, `ERR_UNKNOWN_KEY`) or a
/// `RangeError` (`ERR_SCENARIO_RANGE`) with the simulator's one-line message; a bad fault the
/// same with `ERR_FAULT_*`; bad times `ERR_MILLIS_*`; a bad cursor `ERR_CURSOR_*`. A failed
/// call changes nothing.
#[wasm_bindgen]
pub struct Simulation {
    world: World,
    /// The buffer and labels `snapshot()` reads (crate::simulation_frame).
    frame: Frame,
}

#[wasm_bindgen]
impl Simulation {
    /// Builds the world of `scenario` and starts every process at time 0.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Scenario")] scenario: JsValue,
    ) -> Result<Simulation, JsValue> {
        let scenario = read_scenario(&scenario)?;
        Simulation::build(&scenario).map_err(Into::into)
    }

    /// Builds a simulation from scenario JSON text (as the CLI reads a scenario file; seeds
    /// above 2^53 keep every digit) or from a scenario object such as `toJSON()` returned.
    /// Text longer than 8 MiB (8_388_608 UTF-16 code units) is refused before it is copied
    /// (`ERR_TOO_LARGE`); an object that names a key twice is `ERR_DUPLICATE_KEY`.
    #[wasm_bindgen(js_name = fromJSON)]
    pub fn from_json(
        #[wasm_bindgen(unchecked_param_type = "string | Scenario")] json: JsValue,
    ) -> Result<Simulation, JsValue> {
        let scenario = match scenario_text(&json)? {
            Some(text) => parse_scenario(&text)?,
            None => read_scenario(&json)?,
        };
        Simulation::build(&scenario).map_err(Into::into)
    }

    /// A copy of the whole world that continues exactly as this one would: a checkpoint for
    /// scrubbing back through a run.
    #[wasm_bindgen(js_name = clone)]
    pub fn clone_world(&self) -> Simulation {
        Simulation {
            world: self.world.clone(),
            frame: Frame::default(),
        }
    }

    /// Current true time, ms.
    #[wasm_bindgen(getter)]
    pub fn now(&self) -> f64 {
        millis_from_micros(self.world.now().as_micros())
    }

    /// The end of the run (the scenario's `duration_ms`), ms.
    #[wasm_bindgen(getter = endMs)]
    pub fn end_ms(&self) -> f64 {
        millis_from_micros(self.world.end().as_micros())
    }

    /// Whether the run is over: no event is left at or before `endMs`.
    #[wasm_bindgen(getter)]
    pub fn done(&self) -> bool {
        !self.has_next()
    }

    /// The run's seed: a `number` when it is at most 2^53 - 1 (always so for drawn seeds),
    /// else a `bigint`.
    #[wasm_bindgen(getter, unchecked_return_type = "number | bigint")]
    pub fn seed(&self) -> JsValue {
        seed_value(self.world.scenario().seed)
    }

    /// When the next event is due, ms of simulated time, or `undefined` when none is left at or
    /// before `endMs` (lock-step playback: step every pane to the earliest of these).
    #[wasm_bindgen(getter = nextEventMs)]
    pub fn next_event_ms(&self) -> Option<f64> {
        self.world
            .next_event_at()
            .filter(|t| *t <= self.world.end())
            .map(|t| millis_from_micros(t.as_micros()))
    }

    /// Whether an invariant the algorithm promises has been violated (the CLI's exit code).
    #[wasm_bindgen(getter)]
    pub fn failed(&self) -> bool {
        self.world.failed()
    }

    /// Processes the next event. Returns `false`, doing nothing, when no event is left at or
    /// before `endMs`, and so always once a message storm stopped the world (`runUntil`
    /// throws `ERR_STORM` then).
    pub fn step(&mut self) -> bool {
        self.has_next() && self.world.step()
    }

    /// Processes every event up to and including `ms` (capped at `endMs`), then sets the
    /// time to it. A time already passed changes nothing.
    ///
    /// Throws `TypeError` `ERR_MILLIS_TYPE` / `RangeError` `ERR_MILLIS_RANGE` for a value
    /// that is not a finite, non-negative number of ms, and `RangeError`
    /// `ERR_MILLIS_PRECISION` for a fraction below one microsecond (round first), and
    /// `RangeError` `ERR_STORM` once a message storm stopped the world (its queue passed the
    /// simulator's bound): reading it still works, running it goes no further.
    #[wasm_bindgen(js_name = runUntil)]
    pub fn run_until(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] ms: JsValue,
    ) -> Result<(), JsValue> {
        let us = exact_micros_from_millis(&ms, "ms")?;
        let t = Instant::from_micros(us).min(self.world.end());
        self.world.run_until(t);
        match self.world.storm() {
            Some(why) => Err(SimulationError::Storm {
                message: why.to_string(),
            }
            .into()),
            None => Ok(()),
        }
    }

    /// Applies `fault` now: after every event still due at this instant, exactly as a fault
    /// the scenario schedules at this time. It is recorded, so `toJSON()` lists it at this
    /// time and a simulation built from that replays this one.
    ///
    /// `fault` is a scenario fault object (`{ type: "crash", node: 2 }`, ...). Throws
    /// `TypeError` (`ERR_FAULT_TYPE`, `ERR_UNKNOWN_KEY`) for a malformed one and `RangeError`
    /// (`ERR_FAULT_RANGE`) for one with bad values or naming a process the world lacks.
    pub fn inject(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Fault")] fault: JsValue,
    ) -> Result<(), JsValue> {
        let fault = read_fault(&fault)?;
        self.world
            .inject(fault)
            .map_err(|e| SimulationError::Invalid {
                subject: Subject::Fault,
                message: e.to_string(),
            })?;
        Ok(())
    }

    /// Writes the world now as a flat frame (crate::simulation_frame) and returns the byte
    /// address of its first value in the module's memory (`Simulation.__frameMemory()`),
    /// where it stays until the next frame is written. Read by `snapshot()` in
    /// pkg/sim/snapshot.js; not part of the typed API.
    /// `read` is the count of frames the reader has read to the end.
    #[wasm_bindgen(js_name = __snapshotFrame, skip_typescript)]
    pub fn snapshot_frame(&mut self, read: u32) -> Result<u32, JsValue> {
        let snap = self.world.snapshot_without_violations();
        self.frame
            .write(&snap, self.world.violations().len(), read)
            .map_err(|e| js_sys::Error::new(&format!("snapshot: {e}")))?;
        Ok(self.frame.tape.as_ptr() as usize as u32)
    }

    /// The frame's labels from index `from` on (the reader fetches each once).
    #[wasm_bindgen(js_name = __frameLabels, skip_typescript)]
    pub fn frame_labels(&self, from: u32) -> Vec<String> {
        self.frame.labels_from(from as usize).to_vec()
    }

    /// Violations from index `from` on (the reader keeps the ones it has; they only grow).
    #[wasm_bindgen(js_name = __violationsFrom, skip_typescript)]
    pub fn violations_from(&self, from: u32) -> Result<JsValue, JsValue> {
        to_js(
            self.world
                .violations()
                .get(from as usize..)
                .unwrap_or_default(),
        )
    }

    /// Trace events with `seq >= cursor` still in the bounded log (the last 4096), and the
    /// cursor to pass next time. `missed` counts events from `cursor` on that had already
    /// left the log. Start with cursor `0`.
    ///
    /// `kinds` (optional) keeps only the events whose `event` is listed, such as
    /// `["node", "write", "fault"]`: exactly the unfiltered page's events of those kinds, in
    /// order, with the same `cursor` and `missed`. The others are never converted, so a
    /// caller that needs a few kinds pays for those only.
    ///
    /// Throws `TypeError` `ERR_CURSOR_TYPE` / `RangeError` `ERR_CURSOR_RANGE` unless the
    /// cursor is an integer `number` in from 0 to `2 ** 53 - 1`; `TypeError` `ERR_KINDS_TYPE` unless
    /// `kinds` is `undefined` or an array of strings (at most 256); `RangeError`
    /// `ERR_KINDS_RANGE` for a name that is not an event's.
    #[wasm_bindgen(js_name = eventsSince, unchecked_return_type = "EventsPage")]
    pub fn events_since(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] cursor: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "TraceEvent[\"event\"][]")] kinds: JsValue,
    ) -> Result<JsValue, JsValue> {
        let cursor = read_cursor(&cursor)?;
        let keep = if kinds.is_undefined() {
            u32::MAX
        } else {
            read_kinds(&kinds)?
        };
        let (events, next) = self
            .world
            .events_since_where(cursor, |e| keep & (1 << e.kind.index()) != 0);
        let mut page = EventsPage::new(&events, cursor, next);
        // From the log's oldest event, not the first one kept: the same as unfiltered.
        page.missed = self.world.oldest_event().saturating_sub(cursor);
        to_js(&page)
    }

    /// Message `id` (the `id` of its `send` event or of its snapshot entry, a `bigint` or an
    /// integer `number`) while it is on the wire: sender, receiver, kind, send and arrival
    /// times (ms) and every field of its payload, or `null` once it was delivered or dropped.
    /// Drop it with the fault `{ type: "drop-message", id }`.
    ///
    /// Throws `TypeError` `ERR_MESSAGE_ID` unless `id` is a non-negative integer within
    /// 2^53 - 1.
    #[wasm_bindgen(unchecked_return_type = "MessageDetail | null")]
    pub fn message(
        &self,
        #[wasm_bindgen(unchecked_param_type = "bigint | number")] id: JsValue,
    ) -> Result<JsValue, JsValue> {
        let id = read_message_id(&id)?;
        match self.world.message(id) {
            Some(m) => to_js(&MessageView::new(&m)),
            None => Ok(JsValue::NULL),
        }
    }

    /// Violations so far (the first 1000), promised or not.
    #[wasm_bindgen(unchecked_return_type = "Violation[]")]
    pub fn violations(&self) -> Result<JsValue, JsValue> {
        to_js(self.world.violations())
    }

    /// Metrics so far.
    #[wasm_bindgen(unchecked_return_type = "Metrics")]
    pub fn metrics(&self) -> Result<JsValue, JsValue> {
        to_js(&self.world.metrics())
    }

    /// Nodes acting as leader now (up, not paused, believing they lead), by id.
    #[wasm_bindgen(unchecked_return_type = "number[]")]
    pub fn leaders(&self) -> Result<JsValue, JsValue> {
        let leaders: Vec<u64> = self.world.leaders().into_iter().map(|id| id.0).collect();
        to_js(&leaders)
    }

    /// The scenario's `config` with every value the simulator runs with filled in (its own,
    /// or the default for a key it left out), ms, and only the algorithm's keys: what a page
    /// shows without restating the simulator's defaults.
    #[wasm_bindgen(js_name = effectiveConfig, unchecked_return_type = "ScenarioConfig")]
    pub fn effective_config(&self) -> Result<JsValue, JsValue> {
        to_js(&self.world.effective_config())
    }

    /// The scenario with its seed and every injected fault at its time: JSON data (the seed
    /// is a `bigint` only if above 2^53 - 1) from which `new Simulation(...)` replays this run.
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "ScenarioJSON")]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        let mut scenario = self.world.replay_scenario();
        let seed = scenario.seed;
        scenario.seed = 0;
        let object = scenario
            .serialize(&serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true))
            .map_err(JsValue::from)?;
        js_sys::Reflect::set(&object, &JsValue::from_str("seed"), &seed_json(seed))?;
        Ok(object)
    }

    /// The invariants `algorithm` promises (kebab-case names, as `tenure run` checks them):
    /// what a search for `"any-promised"` looks for, and what a page lists before it loads
    /// the search module (`tenure/search`). Throws `TypeError` `ERR_SCENARIO_TYPE` for a
    /// name that is not an algorithm's.
    pub fn promises(
        #[wasm_bindgen(unchecked_param_type = "Algorithm")] algorithm: JsValue,
    ) -> Result<Vec<String>, JsValue> {
        let name = algorithm.as_string();
        let parsed = name.as_deref().and_then(|n| n.parse().ok());
        let Some(algorithm) = parsed else {
            let shown = match &name {
                Some(n) => format!("\"{}\"", n.chars().take(32).collect::<String>()),
                None => crate::error::describe(&algorithm),
            };
            return Err(SimulationError::Shape {
                subject: Subject::Scenario,
                message: format!(
                    "algorithm: {shown} is not one of {}",
                    tenure_sim::scenario::Algorithm::NAMES.join(", ")
                ),
            }
            .into());
        };
        Ok(tenure_sim::checker::promises(algorithm)
            .iter()
            .map(|k| k.name().to_string())
            .collect())
    }

    /// The stable 64-bit hash of every event so far as 16 lowercase hex digits (no `0x`):
    /// the native CLI prints the same string for the same scenario and seed.
    #[wasm_bindgen(js_name = traceHash)]
    pub fn trace_hash(&self) -> String {
        tenure_sim::trace::hash_hex(self.world.trace_hash())
    }
}

/// Test-only: not in the shipped module (the Cargo feature `reference`, which
/// `npm run build` leaves off; docs/bindings.md).
#[cfg(feature = "reference")]
#[wasm_bindgen]
impl Simulation {
    /// The world now, built object by object by serde-wasm-bindgen: the reference the
    /// package's `snapshot()` (pkg/sim/snapshot.js, reading [`Simulation::snapshot_frame`])
    /// is tested against, about a hundred times slower. Not part of the typed API.
    #[wasm_bindgen(js_name = __snapshotSerde, skip_typescript)]
    pub fn snapshot_serde(&self) -> Result<JsValue, JsValue> {
        to_js(&self.world.snapshot())
    }
}

impl Simulation {
    fn build(scenario: &tenure_sim::Scenario) -> Result<Simulation, SimulationError> {
        let world = World::new(scenario).map_err(crate::simulation_input::scenario_error)?;
        Ok(Simulation {
            world,
            frame: Frame::default(),
        })
    }

    fn has_next(&self) -> bool {
        self.world
            .next_event_at()
            .is_some_and(|t| t <= self.world.end())
    }
}

/// The seed as live data: a number up to 2^53 - 1, a `bigint` above.
fn seed_value(seed: u64) -> JsValue {
    if seed <= MAX_SAFE_INTEGER {
        #[allow(clippy::cast_precision_loss)]
        JsValue::from_f64(seed as f64)
    } else {
        JsValue::from(seed)
    }
}

/// The seed as scenario JSON data: a number up to 2^53 - 1, a decimal string above, since
/// `JSON.stringify` cannot write a `bigint` (the scenario reader takes both).
fn seed_json(seed: u64) -> JsValue {
    if seed <= MAX_SAFE_INTEGER {
        seed_value(seed)
    } else {
        JsValue::from_str(&seed.to_string())
    }
}

fn read_message_id(value: &JsValue) -> Result<u64, SimulationError> {
    let bad = || SimulationError::NotMessageId {
        got: crate::error::describe(value),
    };
    let id = match value.as_f64() {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Some(n) if n.fract() == 0.0 && n >= 0.0 => n as u64,
        Some(_) => return Err(bad()),
        None => u64::try_from(value.clone()).map_err(|_| bad())?,
    };
    if id > MAX_SAFE_INTEGER {
        return Err(bad());
    }
    Ok(id)
}

fn read_cursor(value: &JsValue) -> Result<u64, SimulationError> {
    let Some(n) = value.as_f64() else {
        return Err(SimulationError::NotCursor {
            got: crate::error::describe(value),
        });
    };
    #[allow(clippy::cast_precision_loss)]
    let limit = MAX_SAFE_INTEGER as f64;
    if n.fract() != 0.0 || !(0.0..=limit).contains(&n) {
        return Err(SimulationError::CursorOutOfRange {
            shown: crate::error::number_text(n),
        });
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Ok(n as u64)
}

/// Most names an `eventsSince` kinds list may hold (repeats allowed).
const MAX_KINDS: u32 = 256;

/// Reads an `eventsSince` kinds list into a bit set over [`TraceKind::NAMES`].
fn read_kinds(value: &JsValue) -> Result<u32, JsValue> {
    let not_kinds = || SimulationError::NotKinds {
        got: crate::error::describe(value),
    };
    if !crate::js::is_array(value).map_err(|_| not_kinds())? {
        return Err(not_kinds().into());
    }
    let get = |key: &JsValue| js_sys::Reflect::get(value, key).map_err(SimulationError::Thrown);
    let len = get(&JsValue::from_str("length"))?.as_f64().unwrap_or(0.0);
    if len > f64::from(MAX_KINDS) {
        return Err(SimulationError::NotKinds {
            got: format!(
                "an array of {} (at most {MAX_KINDS})",
                crate::error::number_text(len)
            ),
        }
        .into());
    }
    let mut keep = 0u32;
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    for i in 0..len as u32 {
        let item = get(&JsValue::from(i))?;
        let Some(name) = item.as_string() else {
            return Err(SimulationError::NotKinds {
                got: format!("{} at [{i}]", crate::error::describe(&item)),
            }
            .into());
        };
        match TraceKind::NAMES.iter().position(|n| *n == name) {
            Some(at) => keep |= 1 << at,
            None => {
                return Err(SimulationError::UnknownKind {
                    name: name.chars().take(32).collect(),
                }
                .into());
            }
        }
    }
    Ok(keep)
}
