//! The exported `BullyNode` class: the core's [`tenure::BullyNode`] (the Bully election with
//! epochs; design rule 7, no safety under partition) driven from JS.

use tenure::NodeId;
use tenure::bully::{
    BullyConfig, BullyEvent, BullyMessage, BullyOutput, BullyPersisted, BullyTimer, Role,
    StepDownReason,
};
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::convert::{
    duration_to_millis, instant_from_millis, instant_to_millis, u64_from_bigint_named,
    u64_to_bigint,
};
use crate::error::{BindingError, U64Arg};
use crate::object::{json_safe, plain_object};
use crate::raft::{peer_list, peers_to_js};
use crate::read::Fields;
use crate::seed::fresh_seed;
use crate::shape::{big, bigint, js_object, js_union};

#[wasm_bindgen(typescript_custom_section)]
const TS_BULLY: &'static str = r#"
/** A Bully epoch: numbers coordinator announcements; u64, so a bigint. */
export type Epoch = bigint;

/** Settings of a BullyNode; every key optional (absent, undefined or null: the default, in
 * brackets). Times in ms. */
export interface BullyConfigInit {
  /** This node's id; the highest live id wins [1n]. */
  id?: NodeId | null;
  /** Every other member, without `id` or duplicates [[]]. */
  peers?: NodeId[] | null;
  /** Coordinator heartbeat period, > 0 [50]. */
  heartbeat_interval_ms?: number | null;
  /** Silence from the coordinator that starts an election; > heartbeat_interval_ms [200]. */
  failure_timeout_ms?: number | null;
  /** Wait for an Answer from a higher id, > 0 [50]. */
  answer_timeout_ms?: number | null;
  /** After an Answer, wait for the Coordinator announcement; > answer_timeout_ms [150]. */
  coordinator_timeout_ms?: number | null;
  /** Seed of the failure-detector jitter PRNG [fresh from crypto.getRandomValues]. */
  seed?: bigint | null;
}

/** A BullyNode's full, effective settings (`node.config`). */
export interface BullyConfig {
  id: NodeId;
  peers: NodeId[];
  heartbeat_interval_ms: number;
  failure_timeout_ms: number;
  answer_timeout_ms: number;
  coordinator_timeout_ms: number;
  seed: bigint;
}

/** A Bully node's role. */
export type BullyRole = "Follower" | "Candidate" | "Coordinator";

/** What a Bully node waits for (exactly one timer is armed). */
export type BullyTimer = "Heartbeat" | "FailureDetector" | "AwaitAnswer" | "AwaitCoordinator";
"#;

const CONFIG_KEYS: &[&str] = &[
    "id",
    "peers",
    "heartbeat_interval_ms",
    "failure_timeout_ms",
    "answer_timeout_ms",
    "coordinator_timeout_ms",
    "seed",
];

/// One node of the Bully algorithm (sans-IO). The highest live id wins; Bully elects one
/// coordinator only in a connected network: under a partition each side may have one.
///
/// Inputs: `handleMessage(now_ms, from, msg)`, `handleTimeout(now_ms)`,
/// `startElection(now_ms)`. After every input drain `pollOutput()`, persisting before
/// sending. A fresh or restarted node's failure detector is due at 0, so its first
/// `handleTimeout` starts it: the highest id elects at once, a lower id after one election
/// stagger per higher id unless an announcement came first (S14).
#[wasm_bindgen]
pub struct BullyNode {
    inner: tenure::BullyNode,
}

#[wasm_bindgen]
impl BullyNode {
    /// A node on its first boot: epoch 0, no coordinator. Bad or invalid configs throw.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "BullyConfigInit")] config: JsValue,
    ) -> Result<BullyNode, JsValue> {
        let parsed = config_from_js(&config)?;
        let inner =
            tenure::BullyNode::new(parsed).map_err(|e| BindingError::bully_config(&e, &config))?;
        Ok(BullyNode { inner })
    }

    /// A node rebuilt after a crash from the last state it persisted; it rejoins through an
    /// election after its rank wait, or by adopting a higher coordinator's announcement it
    /// hears first (S14).
    pub fn restart(
        #[wasm_bindgen(unchecked_param_type = "BullyConfigInit")] config: JsValue,
        #[wasm_bindgen(unchecked_param_type = "BullyPersisted")] persisted: JsValue,
    ) -> Result<BullyNode, JsValue> {
        let parsed = config_from_js(&config)?;
        let persisted = persisted_from_js(&persisted, "persisted")?;
        let inner = tenure::BullyNode::restart(parsed, persisted)
            .map_err(|e| BindingError::bully_config(&e, &config))?;
        Ok(BullyNode { inner })
    }

    /// Handles `msg` from peer `from`; unknown ids, stale epochs and duplicates are state
    /// changes or ignored, never errors.
    #[wasm_bindgen(js_name = handleMessage)]
    pub fn handle_message(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now_ms: JsValue,
        #[wasm_bindgen(unchecked_param_type = "NodeId")] from: JsValue,
        #[wasm_bindgen(unchecked_param_type = "BullyMessage")] msg: JsValue,
    ) -> Result<(), JsValue> {
        let now = instant_from_millis(&now_ms, "now_ms")?;
        let from = NodeId(u64_from_bigint_named(&from, U64Arg::NodeId, "from")?);
        let msg = message_from_js(&msg, "msg")?;
        self.inner.handle_message(now, from, msg);
        Ok(())
    }

    /// Fires every timer due at `now_ms`; early or spurious calls are harmless.
    #[wasm_bindgen(js_name = handleTimeout)]
    pub fn handle_timeout(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<(), JsValue> {
        let now = instant_from_millis(&now_ms, "now_ms")?;
        self.inner.handle_timeout(now);
        Ok(())
    }

    /// Starts an election now, whatever the role.
    #[wasm_bindgen(js_name = startElection)]
    pub fn start_election(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<(), JsValue> {
        let now = instant_from_millis(&now_ms, "now_ms")?;
        self.inner.start_election(now);
        Ok(())
    }

    /// The next output, or `undefined` once drained.
    #[wasm_bindgen(js_name = pollOutput, unchecked_return_type = "BullyOutput | undefined")]
    pub fn poll_output(&mut self) -> Result<JsValue, JsValue> {
        match self.inner.poll_output() {
            Some(output) => output_to_js(&output),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// The next deadline (ms) at which to call `handleTimeout`, or `undefined`.
    #[wasm_bindgen(js_name = pollTimeout)]
    pub fn poll_timeout(&self) -> Option<f64> {
        self.inner.poll_timeout().map(instant_to_millis)
    }

    /// This node's id.
    #[wasm_bindgen(getter, unchecked_return_type = "NodeId")]
    pub fn id(&self) -> JsValue {
        u64_to_bigint(self.inner.id().0)
    }

    /// Its role.
    #[wasm_bindgen(getter, unchecked_return_type = "BullyRole")]
    pub fn role(&self) -> JsValue {
        crate::object::name(match self.inner.role() {
            Role::Follower => "Follower",
            Role::Candidate => "Candidate",
            Role::Coordinator => "Coordinator",
        })
    }

    /// The coordinator in its view (itself when coordinator), or `undefined`.
    #[wasm_bindgen(getter, unchecked_return_type = "NodeId | undefined")]
    pub fn coordinator(&self) -> JsValue {
        self.inner
            .coordinator()
            .map_or(JsValue::UNDEFINED, |id| u64_to_bigint(id.0))
    }

    /// The epoch of the announcement behind `coordinator`, or `undefined`.
    #[wasm_bindgen(getter = coordinatorEpoch, unchecked_return_type = "Epoch | undefined")]
    pub fn coordinator_epoch(&self) -> JsValue {
        self.inner
            .coordinator_epoch()
            .map_or(JsValue::UNDEFINED, u64_to_bigint)
    }

    /// The highest epoch seen or announced (never decreases).
    #[wasm_bindgen(getter, unchecked_return_type = "Epoch")]
    pub fn epoch(&self) -> JsValue {
        u64_to_bigint(self.inner.epoch())
    }

    /// The state to hand to `BullyNode.restart` (equal to the last `Persist`).
    #[wasm_bindgen(getter, unchecked_return_type = "BullyPersisted")]
    pub fn persisted(&self) -> Result<JsValue, JsValue> {
        persisted_to_js(&self.inner.persisted())
    }

    /// The armed timer and its deadline, or `undefined`.
    #[wasm_bindgen(getter = nextTimer, unchecked_return_type = "TimerInfo<BullyTimer> | undefined")]
    pub fn next_timer(&self) -> Result<JsValue, JsValue> {
        match self.inner.next_timer() {
            Some((kind, at)) => plain_object(&[
                ("kind", crate::object::name(timer_name(kind))),
                ("deadline_ms", instant_to_millis(at).into()),
            ]),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// The effective configuration, seed included.
    #[wasm_bindgen(getter, unchecked_return_type = "BullyConfig")]
    pub fn config(&self) -> Result<JsValue, JsValue> {
        let c = self.inner.config();
        plain_object(&[
            ("id", u64_to_bigint(c.id.0)),
            ("peers", peers_to_js(&c.peers)),
            (
                "heartbeat_interval_ms",
                duration_to_millis(c.heartbeat_interval).into(),
            ),
            (
                "failure_timeout_ms",
                duration_to_millis(c.failure_timeout).into(),
            ),
            (
                "answer_timeout_ms",
                duration_to_millis(c.answer_timeout).into(),
            ),
            (
                "coordinator_timeout_ms",
                duration_to_millis(c.coordinator_timeout).into(),
            ),
            ("seed", u64_to_bigint(c.seed)),
        ])
    }

    /// A JSON-safe summary (`bigint`s as decimal strings).
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "Record<string, unknown>")]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        let summary = plain_object(&[
            ("role", self.role()),
            ("coordinator", self.coordinator()),
            ("epoch", self.epoch()),
            ("config", self.config()?),
        ])?;
        json_safe(&summary)
    }
}

/// Reads a `BullyConfigInit` (`undefined`: all defaults).
fn config_from_js(value: &JsValue) -> Result<BullyConfig, JsValue> {
    let mut c = BullyConfig::default();
    if value.is_undefined() {
        c.seed = fresh_seed();
        return Ok(c);
    }
    let f = Fields::new(value, "config", CONFIG_KEYS)?;
    if let Some(id) = f.opt_u64("id", U64Arg::NodeId)? {
        c.id = NodeId(id);
    }
    if let Some(peers) = f.opt_array("peers")? {
        c.peers = peer_list(&peers, f.path_of("peers"))?;
    }
    if let Some(d) = f.opt_duration("heartbeat_interval_ms")? {
        c.heartbeat_interval = d;
    }
    if let Some(d) = f.opt_duration("failure_timeout_ms")? {
        c.failure_timeout = d;
    }
    if let Some(d) = f.opt_duration("answer_timeout_ms")? {
        c.answer_timeout = d;
    }
    if let Some(d) = f.opt_duration("coordinator_timeout_ms")? {
        c.coordinator_timeout = d;
    }
    c.seed = f.opt_u64("seed", U64Arg::Seed)?.unwrap_or_else(fresh_seed);
    Ok(c)
}

js_union!(
    /// A Bully message; every one carries an epoch (design rule 7).
    BullyMessage = BullyMessage;
    read message_from_js, MESSAGE_TAGS, MESSAGE_KEYS;
    write message_to_js;
    Election { epoch: "Epoch" = big, U64Arg::Epoch => bigint }
    Answer { epoch: "Epoch" = big, U64Arg::Epoch => bigint }
    Coordinator {
        coordinator: "NodeId" = big, U64Arg::NodeId => bigint,
        epoch: "Epoch" = big, U64Arg::Epoch => bigint,
    }
    Heartbeat { epoch: "Epoch" = big, U64Arg::Epoch => bigint }
);

js_object!(
    /// What a Bully node must keep across restarts (BullyNode.restart takes it).
    BullyPersisted = BullyPersisted {};
    read persisted_from_js, PERSISTED_KEYS;
    write persisted_to_js;
    epoch: "Epoch" = big, U64Arg::Epoch => bigint,
);

js_union!(
    /// Why a Bully coordinator stopped being one.
    BullyStepDownReason = StepDownReason;
    write reason_to_js;
    HigherCoordinator {
        coordinator: "NodeId" => bigint,
        epoch: "Epoch" => bigint,
    }
    ElectionStarted {}
    _ => later_reason_to_js
);

/// A reason added to the core later (the enum is `#[non_exhaustive]`): its variant name.
fn later_reason_to_js(reason: &StepDownReason) -> Result<JsValue, JsValue> {
    plain_object(&[("type", JsValue::from_str(&format!("{reason:?}")))])
}

js_union!(
    /// Something a Bully node reports.
    BullyEvent = BullyEvent;
    write event_to_js;
    ElectionStarted { epoch: "Epoch" => bigint }
    BecameCoordinator { epoch: "Epoch" => bigint }
    CoordinatorChanged {
        coordinator: "NodeId" => bigint,
        epoch: "Epoch" => bigint,
    }
    SteppedDown {
        epoch: "Epoch" => bigint,
        reason: "BullyStepDownReason" => reason_to_js,
    }
);

js_union!(
    /// One output of a BullyNode. Store each Persist durably before any later Send leaves.
    BullyOutput = BullyOutput;
    write output_to_js;
    Send {
        to: "NodeId" => bigint,
        msg: "BullyMessage" => message_to_js,
    }
    Persist { state: "BullyPersisted" => persisted_to_js } = (BullyOutput::Persist(state))
    Event { event: "BullyEvent" => event_to_js } = (BullyOutput::Event(event))
);

/// A timer's JS name.
fn timer_name(timer: BullyTimer) -> &'static str {
    match timer {
        BullyTimer::Heartbeat => "Heartbeat",
        BullyTimer::FailureDetector => "FailureDetector",
        BullyTimer::AwaitAnswer => "AwaitAnswer",
        BullyTimer::AwaitCoordinator => "AwaitCoordinator",
    }
}
