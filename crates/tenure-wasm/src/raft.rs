//! The exported `RaftNode` class: the core's [`tenure::raft::RaftNode`] (Raft election and
//! replication with PreVote and CheckQuorum; design rule 6) driven from JS.

use tenure::NodeId;
use tenure::raft::{RaftConfig, RaftEvent, RaftOutput, RaftTimer, Role, StepDownReason};
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::convert::{
    duration_to_millis, instant_from_millis, instant_to_millis, u64_from_bigint_named,
    u64_to_bigint,
};
use crate::error::{BindingError, Name, U64Arg, describe};
use crate::object::{json_safe, plain_object};
use crate::raft_message::{
    entries_to_js, message_from_js, message_to_js, node_or_null, persist_op_to_js, state_from_js,
    state_to_js,
};
use crate::read::{Fields, MAX_DRIFT_PPM, each};
use crate::seed::fresh_seed;
use crate::shape::{bigint, js_union};

#[wasm_bindgen(typescript_custom_section)]
const TS_RAFT: &'static str = r#"
/** Settings of a RaftNode; every key optional (absent, undefined or null: the default, in
 * brackets). Times in ms. */
export interface RaftConfigInit {
  /** This node's id [1n]. */
  id?: NodeId | null;
  /** The other voters, without duplicates or `id` [[]]. */
  peers?: NodeId[] | null;
  /** Minimum election timeout T; each wait is drawn from [T, election_timeout_max_ms)
   * (Raft §5.2, design rule 6) [150]. */
  election_timeout_ms?: number | null;
  /** Exclusive upper end of the election-timeout range, > election_timeout_ms [2T]. */
  election_timeout_max_ms?: number | null;
  /** Leader heartbeat period, > 0 and < election_timeout_ms [50]. */
  heartbeat_interval_ms?: number | null;
  /** PreVote (dissertation §9.6) [true]. */
  pre_vote?: boolean | null;
  /** CheckQuorum (dissertation §6.2) [true]. */
  check_quorum?: boolean | null;
  /** Most entries per AppendEntries, 1 to 65536 (what a follower's binding reads) [64]. */
  max_entries_per_append?: number | null;
  /** Flow control: most unacknowledged AppendEntries per follower, >= 1 [8]. */
  max_inflight_appends?: number | null;
  /** Leader lease (needs check_quorum): act as leader only while a quorum acknowledged,
   * within T less the drift bound, an AppendEntries sent since; see `isActingLeader` [false]. */
  leader_lease?: boolean | null;
  /** Clock-rate difference the lease allows for, ppm, < 1000000 [10000]. */
  max_drift_ppm?: number | null;
  /** Seed of the election-timeout PRNG [fresh from crypto.getRandomValues, see `config`]. */
  seed?: bigint | null;
}

/** A RaftNode's full, effective settings (`node.config`). */
export interface RaftConfig {
  id: NodeId;
  peers: NodeId[];
  election_timeout_ms: number;
  election_timeout_max_ms: number;
  heartbeat_interval_ms: number;
  pre_vote: boolean;
  check_quorum: boolean;
  max_entries_per_append: number;
  max_inflight_appends: number;
  leader_lease: boolean;
  max_drift_ppm: number;
  seed: bigint;
}

/** A Raft node's role (Raft §5.1, plus the PreVote pre-candidate). */
export type RaftRole = "Follower" | "PreCandidate" | "Candidate" | "Leader";

/** What a Raft node waits for. "Start": a fresh node arms its timers at its first input. */
export type RaftTimer = "Start" | "Election" | "Heartbeat" | "CheckQuorum" | "LeaderLease";
"#;

const CONFIG_KEYS: &[&str] = &[
    "id",
    "peers",
    "election_timeout_ms",
    "election_timeout_max_ms",
    "heartbeat_interval_ms",
    "pre_vote",
    "check_quorum",
    "max_entries_per_append",
    "max_inflight_appends",
    "leader_lease",
    "max_drift_ppm",
    "seed",
];

const TIMER_NAMES: &[&str] = &[
    "Start",
    "Election",
    "Heartbeat",
    "CheckQuorum",
    "LeaderLease",
];

/// A Raft node (sans-IO): election (Raft §5.2), replication and commitment (§5.3-5.4),
/// PreVote and CheckQuorum.
///
/// Inputs: `handleMessage(now_ms, from, msg)`, `handleTimeout(now_ms)`,
/// `propose(now_ms, command)` (leader only), `campaign(now_ms)`. After every input drain
/// `pollOutput()`: make each `Persist` durable before sending any `Send` after it. Call
/// `handleTimeout` once the clock reaches `pollTimeout()`; a fresh node reports 0 (its
/// `Start` timer), so its first call arms the election timeout.
#[wasm_bindgen]
pub struct RaftNode {
    inner: tenure::raft::RaftNode,
}

#[wasm_bindgen]
impl RaftNode {
    /// A fresh follower at term 0 with an empty log. Bad or invalid configs throw.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "RaftConfigInit")] config: JsValue,
    ) -> Result<RaftNode, JsValue> {
        let parsed = config_from_js(&config)?;
        let inner = tenure::raft::RaftNode::new(parsed)
            .map_err(|e| BindingError::raft_config(&e, &config))?;
        Ok(RaftNode { inner })
    }

    /// A follower rebuilt from the last persisted state (term, vote and log survive; the
    /// rest starts afresh, Raft Figure 2). `persisted` is what `persistentState` returned,
    /// or the result of applying every `Persist` op.
    pub fn restart(
        #[wasm_bindgen(unchecked_param_type = "RaftConfigInit")] config: JsValue,
        #[wasm_bindgen(unchecked_param_type = "RaftPersistentState")] persisted: JsValue,
    ) -> Result<RaftNode, JsValue> {
        let parsed = config_from_js(&config)?;
        let state = state_from_js(&persisted, "persisted")?;
        let inner = tenure::raft::RaftNode::restart(parsed, state)
            .map_err(|e| BindingError::raft_config(&e, &config))?;
        Ok(RaftNode { inner })
    }

    /// Handles `msg` from peer `from`. Messages from unknown ids, stale terms and
    /// duplicates are state changes or ignored, never errors.
    #[wasm_bindgen(js_name = handleMessage)]
    pub fn handle_message(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now_ms: JsValue,
        #[wasm_bindgen(unchecked_param_type = "NodeId")] from: JsValue,
        #[wasm_bindgen(unchecked_param_type = "RaftMessage")] msg: JsValue,
    ) -> Result<(), JsValue> {
        let now = instant_from_millis(&now_ms, "now_ms")?;
        let from = NodeId(u64_from_bigint_named(&from, U64Arg::NodeId, "from")?);
        let msg = message_from_js(&msg, "msg")?;
        self.inner.handle_message(now, from, msg);
        Ok(())
    }

    /// Fires every timer due at `now_ms`; early or repeated calls are harmless.
    #[wasm_bindgen(js_name = handleTimeout)]
    pub fn handle_timeout(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<(), JsValue> {
        let now = instant_from_millis(&now_ms, "now_ms")?;
        self.inner.handle_timeout(now);
        Ok(())
    }

    /// Appends `command` to the leader's log and starts replicating it; returns its index.
    /// Acceptance is not commitment: wait for a `Committed` event at or above it. Throws
    /// `Error` with `code: "ERR_NOT_LEADER"` on any other role (forward to `leaderId`),
    /// including a leader whose CheckQuorum deadline passed before this call: it steps down
    /// first (a `SteppedDown` event waits in `pollOutput`).
    #[wasm_bindgen(unchecked_return_type = "LogIndex")]
    pub fn propose(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now_ms: JsValue,
        #[wasm_bindgen(unchecked_param_type = "bigint")] command: JsValue,
    ) -> Result<JsValue, JsValue> {
        let now = instant_from_millis(&now_ms, "now_ms")?;
        let command = u64_from_bigint_named(&command, U64Arg::Command, "command")?;
        let index = self
            .inner
            .propose(now, command)
            .map_err(BindingError::from)?;
        Ok(u64_to_bigint(index))
    }

    /// Starts an election now (a PreVote round first when `pre_vote`). Throws `Error` with
    /// `code` `"ERR_ALREADY_LEADER"` on a leader or `"ERR_TERM_EXHAUSTED"` at term 2^64 - 1.
    pub fn campaign(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<(), JsValue> {
        let now = instant_from_millis(&now_ms, "now_ms")?;
        self.inner.campaign(now).map_err(BindingError::from)?;
        Ok(())
    }

    /// The next output, or `undefined` once drained.
    #[wasm_bindgen(js_name = pollOutput, unchecked_return_type = "RaftOutput | undefined")]
    pub fn poll_output(&mut self) -> Result<JsValue, JsValue> {
        match self.inner.poll_output() {
            Some(output) => output_to_js(&output),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// The earliest armed deadline (ms), or `undefined`.
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
    #[wasm_bindgen(getter, unchecked_return_type = "RaftRole")]
    pub fn role(&self) -> JsValue {
        crate::object::name(role_name(self.inner.role()))
    }

    /// Whether it acts as leader as of its latest input: it leads and, with `leader_lease`,
    /// holds a lease (a quorum acknowledged it within T less the drift bound).
    #[wasm_bindgen(getter = isActingLeader)]
    pub fn is_acting_leader(&self) -> bool {
        self.inner.is_acting_leader()
    }

    /// Its current term.
    #[wasm_bindgen(getter, unchecked_return_type = "Term")]
    pub fn term(&self) -> JsValue {
        u64_to_bigint(self.inner.term())
    }

    /// The vote it cast in the current term, or `undefined`.
    #[wasm_bindgen(getter = votedFor, unchecked_return_type = "NodeId | undefined")]
    pub fn voted_for(&self) -> JsValue {
        self.inner
            .voted_for()
            .map_or(JsValue::UNDEFINED, |id| u64_to_bigint(id.0))
    }

    /// The leader it knows for the current term (itself when leader), or `undefined`.
    #[wasm_bindgen(getter = leaderId, unchecked_return_type = "NodeId | undefined")]
    pub fn leader_id(&self) -> JsValue {
        self.inner
            .leader_id()
            .map_or(JsValue::UNDEFINED, |id| u64_to_bigint(id.0))
    }

    /// The highest index known committed (volatile: 0n after a restart).
    #[wasm_bindgen(getter = commitIndex, unchecked_return_type = "LogIndex")]
    pub fn commit_index(&self) -> JsValue {
        u64_to_bigint(self.inner.commit_index())
    }

    /// The index of its last log entry, 0n if the log is empty.
    #[wasm_bindgen(getter = lastLogIndex, unchecked_return_type = "LogIndex")]
    pub fn last_log_index(&self) -> JsValue {
        u64_to_bigint(self.inner.last_log_index())
    }

    /// The term of its last log entry, 0n if the log is empty.
    #[wasm_bindgen(getter = lastLogTerm, unchecked_return_type = "Term")]
    pub fn last_log_term(&self) -> JsValue {
        u64_to_bigint(self.inner.last_log_term())
    }

    /// A copy of its log; `log[0]` is index 1.
    #[wasm_bindgen(getter, unchecked_return_type = "RaftEntry[]")]
    pub fn log(&self) -> Result<JsValue, JsValue> {
        entries_to_js(self.inner.log())
    }

    /// The earliest armed timer and its deadline, or `undefined`.
    #[wasm_bindgen(getter = nextTimer, unchecked_return_type = "TimerInfo<RaftTimer> | undefined")]
    pub fn next_timer(&self) -> Result<JsValue, JsValue> {
        match self.inner.next_timer() {
            Some((kind, at)) => plain_object(&[
                ("kind", crate::object::name(timer_name(kind))),
                ("deadline_ms", instant_to_millis(at).into()),
            ]),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// The deadline (ms) of one timer if armed, else `undefined`.
    pub fn timer(
        &self,
        #[wasm_bindgen(unchecked_param_type = "RaftTimer")] kind: JsValue,
    ) -> Result<Option<f64>, JsValue> {
        let key = match crate::js::bounded_string(&kind, 16)
            .ok()
            .flatten()
            .as_deref()
        {
            Some("Start") => RaftTimer::Start,
            Some("Election") => RaftTimer::Election,
            Some("Heartbeat") => RaftTimer::Heartbeat,
            Some("CheckQuorum") => RaftTimer::CheckQuorum,
            Some("LeaderLease") => RaftTimer::LeaderLease,
            _ => {
                return Err(BindingError::BadVariant {
                    arg: "kind".into(),
                    expected: TIMER_NAMES,
                    got: describe(&kind),
                }
                .into());
            }
        };
        Ok(self.inner.timer(key).map(instant_to_millis))
    }

    /// Peers whose (pre-)vote it holds in the current round, itself included.
    #[wasm_bindgen(getter, unchecked_return_type = "NodeId[]")]
    pub fn votes(&self) -> JsValue {
        let votes = js_sys::Array::new();
        for id in self.inner.votes() {
            votes.push(&u64_to_bigint(id.0));
        }
        votes.into()
    }

    /// Leader only: the highest index known replicated on `peer`, else `undefined`.
    #[wasm_bindgen(js_name = matchIndex, unchecked_return_type = "LogIndex | undefined")]
    pub fn match_index(
        &self,
        #[wasm_bindgen(unchecked_param_type = "NodeId")] peer: JsValue,
    ) -> Result<JsValue, JsValue> {
        let peer = NodeId(u64_from_bigint_named(&peer, U64Arg::NodeId, "peer")?);
        Ok(self
            .inner
            .match_index(peer)
            .map_or(JsValue::UNDEFINED, u64_to_bigint))
    }

    /// Its durable state now (what applying every `Persist` so far yields): pass it to
    /// `RaftNode.restart`.
    #[wasm_bindgen(getter = persistentState, unchecked_return_type = "RaftPersistentState")]
    pub fn persistent_state(&self) -> Result<JsValue, JsValue> {
        state_to_js(&self.inner.persistent_state())
    }

    /// The effective configuration, seed included.
    #[wasm_bindgen(getter, unchecked_return_type = "RaftConfig")]
    pub fn config(&self) -> Result<JsValue, JsValue> {
        config_to_js(self.inner.config())
    }

    /// A JSON-safe summary (`bigint`s as decimal strings).
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "Record<string, unknown>")]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        let summary = plain_object(&[
            ("role", self.role()),
            ("term", self.term()),
            ("leader_id", node_or_null(&self.inner.leader_id())?),
            ("commit_index", self.commit_index()),
            ("last_log_index", self.last_log_index()),
            ("config", self.config()?),
        ])?;
        json_safe(&summary)
    }
}

/// Reads a `RaftConfigInit` (`undefined`: all defaults).
fn config_from_js(value: &JsValue) -> Result<RaftConfig, JsValue> {
    let mut c = RaftConfig::default();
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
    if let Some(t) = f.opt_duration("election_timeout_ms")? {
        c.election_timeout = t;
    }
    if let Some(t) = f.opt_duration("election_timeout_max_ms")? {
        c.election_timeout_max = Some(t);
    }
    if let Some(h) = f.opt_duration("heartbeat_interval_ms")? {
        c.heartbeat_interval = h;
    }
    if let Some(on) = f.opt_bool("pre_vote")? {
        c.pre_vote = on;
    }
    if let Some(on) = f.opt_bool("check_quorum")? {
        c.check_quorum = on;
    }
    // No more than a follower's binding reads from one AppendEntries (`crate::limits`).
    let most = u64::try_from(crate::limits::MAX_APPEND_ENTRIES).unwrap_or(u64::MAX);
    if let Some(n) = f.opt_int_from("max_entries_per_append", 1, most)? {
        c.max_entries_per_append = usize::try_from(n).unwrap_or(usize::MAX);
    }
    if let Some(n) = f.opt_int_from("max_inflight_appends", 1, u64::from(u32::MAX))? {
        c.max_inflight_appends = usize::try_from(n).unwrap_or(usize::MAX);
    }
    if let Some(on) = f.opt_bool("leader_lease")? {
        c.leader_lease = on;
    }
    if let Some(n) = f.opt_int("max_drift_ppm", MAX_DRIFT_PPM)? {
        c.max_drift_ppm = u32::try_from(n).unwrap_or(u32::MAX);
    }
    c.seed = f.opt_u64("seed", U64Arg::Seed)?.unwrap_or_else(fresh_seed);
    Ok(c)
}

/// Reads an array of node ids (`config.peers`).
pub(crate) fn peer_list(array: &js_sys::Array, path: Name) -> Result<Vec<NodeId>, JsValue> {
    each(array, &path, crate::limits::MAX_PEERS, |name, value| {
        Ok(NodeId(u64_from_bigint_named(value, U64Arg::NodeId, name)?))
    })
}

/// Node ids as a JS array of `bigint`s.
pub(crate) fn peers_to_js(peers: &[NodeId]) -> JsValue {
    let array = js_sys::Array::new();
    for id in peers {
        array.push(&u64_to_bigint(id.0));
    }
    array.into()
}

/// A [`RaftConfig`] as a JS `RaftConfig`.
fn config_to_js(c: &RaftConfig) -> Result<JsValue, JsValue> {
    plain_object(&[
        ("id", u64_to_bigint(c.id.0)),
        ("peers", peers_to_js(&c.peers)),
        (
            "election_timeout_ms",
            duration_to_millis(c.election_timeout).into(),
        ),
        (
            "election_timeout_max_ms",
            duration_to_millis(c.election_timeout_range().1).into(),
        ),
        (
            "heartbeat_interval_ms",
            duration_to_millis(c.heartbeat_interval).into(),
        ),
        ("pre_vote", c.pre_vote.into()),
        ("check_quorum", c.check_quorum.into()),
        (
            "max_entries_per_append",
            u32::try_from(c.max_entries_per_append)
                .unwrap_or(u32::MAX)
                .into(),
        ),
        (
            "max_inflight_appends",
            u32::try_from(c.max_inflight_appends)
                .unwrap_or(u32::MAX)
                .into(),
        ),
        ("leader_lease", c.leader_lease.into()),
        ("max_drift_ppm", c.max_drift_ppm.into()),
        ("seed", u64_to_bigint(c.seed)),
    ])
}

js_union!(
    /// Why a Raft leader stepped down.
    RaftSteppedDownReason = StepDownReason;
    write reason_to_js;
    HigherTerm { new_term: "Term" => bigint }
    CheckQuorumFailed {}
    _ => later_reason_to_js
);

/// A reason added to the core later (the enum is `#[non_exhaustive]`): its variant name.
fn later_reason_to_js(reason: &StepDownReason) -> Result<JsValue, JsValue> {
    plain_object(&[("type", JsValue::from_str(&format!("{reason:?}")))])
}

js_union!(
    /// A notable state change of a Raft node.
    RaftEvent = RaftEvent;
    write event_to_js;
    BecameLeader { term: "Term" => bigint }
    SteppedDown {
        term: "Term" => bigint,
        reason: "RaftSteppedDownReason" => reason_to_js,
    }
    Committed { index: "LogIndex" => bigint }
    BecameCandidate { term: "Term" => bigint }
    BecamePreCandidate { term: "Term" => bigint }
);

js_union!(
    /// One output of a RaftNode. Make each Persist durable before sending any later Send.
    RaftOutput = RaftOutput;
    write output_to_js;
    Send {
        to: "NodeId" => bigint,
        msg: "RaftMessage" => message_to_js,
    }
    Persist { op: "RaftPersistOp" => persist_op_to_js } = (RaftOutput::Persist(op))
    Event { event: "RaftEvent" => event_to_js } = (RaftOutput::Event(event))
);

/// A role's JS name.
fn role_name(role: Role) -> &'static str {
    match role {
        Role::Follower => "Follower",
        Role::PreCandidate => "PreCandidate",
        Role::Candidate => "Candidate",
        Role::Leader => "Leader",
    }
}

/// A timer's JS name.
fn timer_name(timer: RaftTimer) -> &'static str {
    match timer {
        RaftTimer::Start => "Start",
        RaftTimer::Election => "Election",
        RaftTimer::Heartbeat => "Heartbeat",
        RaftTimer::CheckQuorum => "CheckQuorum",
        RaftTimer::LeaderLease => "LeaderLease",
    }
}
