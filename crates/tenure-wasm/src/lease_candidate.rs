//! The exported `LeaseCandidate` class: the core's [`tenure::LeaseCandidate`] (a contender
//! for one lease, and the leader it becomes; design rules 4-5) driven from JS.

use tenure::lease::{
    CandidateEvent, CandidateOutput, CandidateState, CandidateTimer, LeaseConfig, LeaseKey,
    NotLeader,
};
use tenure::{FencingToken, NodeId, StaleToken};
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::convert::{duration_to_millis, instant_from_millis, instant_to_millis, u64_to_bigint};
use crate::error::{BindingError, U64Arg};
use crate::lease_fast::{self, KeyCache};
use crate::lease_message::{request_to_js, response_from_js};
use crate::object::{json_safe, plain_object};
use crate::read::{Fields, MAX_DRIFT_PPM};
use crate::seed::fresh_seed;
use crate::shape::{bigint, js_union};

#[wasm_bindgen(typescript_custom_section)]
const TS_LEASE_CANDIDATE: &'static str = r#"
/**
 * Settings of a LeaseCandidate; every key is optional (absent, undefined or null: the default,
 * in brackets). Times in ms.
 * The constructor checks design rule 5 (0 < safety_margin_ms < ttl_ms; renew interval +
 * max round trip fit in ttl - margin; the margin covers the drift over one ttl).
 */
export interface LeaseConfigInit {
  /**
   * This contender's id, sent as `holder` [1n]. Two instances may share it by mistake: each
   * still has its own `session`, drawn from its seed, and the store keeps the second out
   * (design rule 8).
   */
  holder?: NodeId | null;
  /** The lease contended for ["leader"]. */
  key?: string | null;
  /** Lease length asked of the store [10000]. */
  ttl_ms?: number | null;
  /** Subtracted from the ttl to get the local deadline (rule 4) [1000]. */
  safety_margin_ms?: number | null;
  /** Time from a confirmed request's send time to the next renewal [null: ttl / 3]. */
  renew_interval_ms?: number | null;
  /** Longest expected round trip to the store [1000]. */
  max_round_trip_ms?: number | null;
  /** Bound on clock-rate difference with the store, parts per million, < 1e6 [10000]. */
  max_drift_ppm?: number | null;
  /** Base time between acquisition attempts [1000]. */
  retry_interval_ms?: number | null;
  /** Extra per-attempt delay drawn from [0, retry_jitter_ms) [500]. */
  retry_jitter_ms?: number | null;
  /** How long a renewal waits for its answer before a fresh one is sent [1000]. */
  request_timeout_ms?: number | null;
  /** Whether writes present the token (false shows the hazard; the machine is the same) [true]. */
  fencing?: boolean | null;
  /**
   * Seed of the PRNG behind the retry jitter and the session, mixed with `holder` [fresh from
   * crypto.getRandomValues, reported in `config`]. Two candidates given the same seed and
   * holder are one session: give each instance its own seed.
   */
  seed?: bigint | null;
}

/** A LeaseCandidate's full, effective settings (`candidate.config`); pass it back to replay. */
export interface LeaseConfig {
  holder: NodeId;
  key: string;
  ttl_ms: number;
  safety_margin_ms: number;
  renew_interval_ms: number | null;
  max_round_trip_ms: number;
  max_drift_ppm: number;
  retry_interval_ms: number;
  retry_jitter_ms: number;
  request_timeout_ms: number;
  fencing: boolean;
  seed: bigint;
}

/** A LeaseCandidate's role. */
export type CandidateState = "Follower" | "Campaigning" | "Leader" | "Stopped";

/** Why a leader stepped down. */
export type StepDownReason =
  | "LeaseExpired"
  | "RenewalRejected"
  | "Fenced"
  | "Released"
  | "StoreUnreachable";

/** What a LeaseCandidate is waiting for. */
export type CandidateTimer = "Retry" | "Renew" | "RequestTimeout" | "LeaseDeadline";

/** An armed timer and its deadline (the machine's clock, ms). */
export interface TimerInfo<K extends string> {
  kind: K;
  deadline_ms: number;
}

/** Result of LeaseCandidate.assertLeadership: the token to present, or why not. */
export type LeadershipCheck =
  | { leader: true; token: FencingToken }
  | { leader: false; reason: "NotLeading"; state: CandidateState }
  /** The local deadline passed; the candidate has just stepped down (event queued). */
  | { leader: false; reason: "DeadlinePassed"; deadline_ms: number; now_ms: number };

/** What reportFenced takes: the rejection a FencedResource returned. */
export interface FencedReport {
  accepted?: false;
  reason?: "stale fencing token";
  presented: FencingToken;
  required: FencingToken;
}
"#;

const CONFIG_KEYS: &[&str] = &[
    "holder",
    "key",
    "ttl_ms",
    "safety_margin_ms",
    "renew_interval_ms",
    "max_round_trip_ms",
    "max_drift_ppm",
    "retry_interval_ms",
    "retry_jitter_ms",
    "request_timeout_ms",
    "fencing",
    "seed",
];

const FENCED_KEYS: &[&str] = &["accepted", "reason", "presented", "required"];

/// A contender for one lease at a `LeaseStore`, and the leader it becomes (sans-IO).
///
/// Inputs, each with the candidate's own clock reading `now_ms`: `campaign`,
/// `handleResponse`, `handleTimeout`, `release`, `reportFenced`, `assertLeadership`.
/// After every input drain `pollOutput()` until `undefined`: deliver each `Send`'s request
/// to the store (its response back through `handleResponse`), act on each `Event`. Call
/// `handleTimeout(now_ms)` once the clock reaches `pollTimeout()`. Before each leader action
/// call `assertLeadership(now_ms)` and present its token to the resource.
///
/// The local deadline counts from the *send time* of the request the store granted or
/// renewed, minus the safety margin (design rule 4); at it the candidate steps down even
/// with requests pending.
#[wasm_bindgen]
pub struct LeaseCandidate {
    inner: tenure::LeaseCandidate,
    /// The configured key, in JS and in Rust (`lease_fast`).
    key: KeyCache,
}

#[wasm_bindgen]
impl LeaseCandidate {
    /// A `Follower` that has sent nothing. `config` keys are all optional; unknown keys,
    /// bad values and configs that break rule 5 throw (`ERR_CONFIG` carries the core's
    /// message naming the values).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "LeaseConfigInit")] config: JsValue,
    ) -> Result<LeaseCandidate, JsValue> {
        let parsed = config_from_js(&config)?;
        let inner = tenure::LeaseCandidate::new(parsed)
            .map_err(|e| BindingError::lease_config(&e, &config))?;
        let key = KeyCache::new(&inner.config().key);
        Ok(LeaseCandidate { inner, key })
    }

    /// Starts contending: sends an `Acquire` and arms the retry timer. A no-op while
    /// campaigning or leading.
    pub fn campaign(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<(), JsValue> {
        let now = instant_from_millis(&now_ms, "now_ms")?;
        self.inner.campaign(now);
        Ok(())
    }

    /// The store's answer to one of this candidate's requests. Answers to unknown,
    /// superseded or already answered request ids (and other keys) are ignored.
    #[wasm_bindgen(js_name = handleResponse)]
    pub fn handle_response(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now_ms: JsValue,
        #[wasm_bindgen(unchecked_param_type = "StoreResponse")] response: JsValue,
    ) -> Result<(), JsValue> {
        let now = lease_fast::instant(&now_ms, "now_ms")?;
        let strict;
        let response = match lease_fast::read_response(&response, &mut self.key) {
            Some(response) => response,
            None => {
                strict = response_from_js(&response, "response")?;
                &strict
            }
        };
        self.inner.handle_response(now, response);
        Ok(())
    }

    /// Fires every timer due at `now_ms`; early or spurious calls are harmless.
    #[wasm_bindgen(js_name = handleTimeout)]
    pub fn handle_timeout(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<(), JsValue> {
        let now = lease_fast::instant(&now_ms, "now_ms")?;
        self.inner.handle_timeout(now);
        Ok(())
    }

    /// Graceful hand-over: a leader steps down (`Released`) and asks the store to release;
    /// a campaigning candidate stops. Otherwise a no-op.
    pub fn release(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<(), JsValue> {
        let now = instant_from_millis(&now_ms, "now_ms")?;
        self.inner.release(now);
        Ok(())
    }

    /// The resource rejected a write made with this candidate's token: pass the rejection
    /// `FencedResource.write` returned. A leader under `presented` steps down (`Fenced`);
    /// anything else is ignored.
    #[wasm_bindgen(js_name = reportFenced)]
    pub fn report_fenced(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now_ms: JsValue,
        #[wasm_bindgen(unchecked_param_type = "FencedReport")] rejection: JsValue,
    ) -> Result<(), JsValue> {
        let now = instant_from_millis(&now_ms, "now_ms")?;
        let f = Fields::new(&rejection, "rejection", FENCED_KEYS)?;
        if f.opt_bool("accepted")? == Some(true) {
            return Err(BindingError::BadVariant {
                arg: f.path_of("accepted"),
                expected: &["false"],
                got: String::from("boolean true"),
            }
            .into());
        }
        if f.opt_string("reason")?.is_some() {
            f.variant("reason", &[StaleToken::REASON])?;
        }
        let stale = StaleToken {
            presented: FencingToken(f.u64("presented", U64Arg::Token)?),
            required: FencingToken(f.u64("required", U64Arg::Token)?),
        };
        self.inner.report_fenced(now, stale);
        Ok(())
    }

    /// `{ leader: true, token }` when this candidate may act as leader at `now_ms`, else
    /// `{ leader: false, reason, ... }` (a normal outcome, not thrown). If the local deadline
    /// has passed, the candidate steps down now (the event is queued). A passing check does
    /// not make a later write safe across a pause: only the resource's fencing does (S01).
    #[wasm_bindgen(js_name = assertLeadership, unchecked_return_type = "LeadershipCheck")]
    pub fn assert_leadership(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<JsValue, JsValue> {
        let now = instant_from_millis(&now_ms, "now_ms")?;
        match self.inner.assert_leadership(now) {
            Ok(token) => {
                plain_object(&[("leader", JsValue::TRUE), ("token", u64_to_bigint(token.0))])
            }
            Err(NotLeader::DeadlinePassed { deadline, now }) => plain_object(&[
                ("leader", JsValue::FALSE),
                ("reason", crate::object::name("DeadlinePassed")),
                ("deadline_ms", instant_to_millis(deadline).into()),
                ("now_ms", instant_to_millis(now).into()),
            ]),
            // `NotLeading`, and any refusal a later core adds.
            Err(_) => plain_object(&[
                ("leader", JsValue::FALSE),
                ("reason", crate::object::name("NotLeading")),
                ("state", crate::object::name(state_name(self.inner.state()))),
            ]),
        }
    }

    /// The next output, oldest first, or `undefined` once drained.
    #[wasm_bindgen(js_name = pollOutput, unchecked_return_type = "CandidateOutput | undefined")]
    pub fn poll_output(&mut self) -> JsValue {
        // Infallible, so the value comes back as is: a `Result` return is two values, which
        // the engine hands to the glue as a fresh array on every call.
        match self.inner.poll_output() {
            Some(CandidateOutput::Send(request)) => lease_fast::send(&request, &self.key),
            // Building a plain object cannot fail (`object::plain_object` is always `Ok`).
            Some(output) => output_to_js(&output).unwrap_or(JsValue::UNDEFINED),
            None => JsValue::UNDEFINED,
        }
    }

    /// The earliest armed timer (ms), or `undefined`: call `handleTimeout` when reached.
    #[wasm_bindgen(js_name = pollTimeout)]
    pub fn poll_timeout(&self) -> Option<f64> {
        self.inner.poll_timeout().map(instant_to_millis)
    }

    /// The current role.
    #[wasm_bindgen(getter, unchecked_return_type = "CandidateState")]
    pub fn state(&self) -> JsValue {
        crate::object::name(state_name(self.inner.state()))
    }

    /// The fencing token while `Leader`, else `undefined`.
    #[wasm_bindgen(getter, unchecked_return_type = "FencingToken | undefined")]
    pub fn token(&self) -> JsValue {
        self.inner
            .token()
            .map_or(JsValue::UNDEFINED, |t| u64_to_bigint(t.0))
    }

    /// The local lease deadline (rule 4; ms on this candidate's clock) while `Leader`.
    #[wasm_bindgen(getter = leaseDeadline)]
    pub fn lease_deadline(&self) -> Option<f64> {
        self.inner.lease_deadline().map(instant_to_millis)
    }

    /// The earliest armed timer and what it is for, or `undefined`.
    #[wasm_bindgen(
        getter = nextTimer,
        unchecked_return_type = "TimerInfo<CandidateTimer> | undefined"
    )]
    pub fn next_timer(&self) -> Result<JsValue, JsValue> {
        match self.inner.next_timer() {
            Some((kind, at)) => timer_to_js(kind, at),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Every armed timer, for display.
    #[wasm_bindgen(getter, unchecked_return_type = "TimerInfo<CandidateTimer>[]")]
    pub fn timers(&self) -> Result<JsValue, JsValue> {
        let all = js_sys::Array::new();
        for (kind, at) in self.inner.timers() {
            all.push(&timer_to_js(kind, at)?);
        }
        Ok(all.into())
    }

    /// How many requests await an answer (bounded).
    #[wasm_bindgen(getter = outstandingRequests)]
    pub fn outstanding_requests(&self) -> usize {
        self.inner.outstanding_requests()
    }

    /// This instance's session (a `bigint`), drawn from its seed at construction and sent
    /// with every request: the store grants to (holder, session) (design rule 8).
    #[wasm_bindgen(getter, unchecked_return_type = "SessionId")]
    pub fn session(&self) -> JsValue {
        u64_to_bigint(self.inner.session().0)
    }

    /// Whether writes present the token (`config.fencing`).
    #[wasm_bindgen(getter = fencesWrites)]
    pub fn fences_writes(&self) -> bool {
        self.inner.fences_writes()
    }

    /// The effective configuration, seed included; `new LeaseCandidate(c.config)` replays.
    #[wasm_bindgen(getter, unchecked_return_type = "LeaseConfig")]
    pub fn config(&self) -> Result<JsValue, JsValue> {
        config_to_js(self.inner.config())
    }

    /// The latest clock reading seen, in ms.
    #[wasm_bindgen(getter)]
    pub fn now(&self) -> f64 {
        instant_to_millis(self.inner.now())
    }

    /// A JSON-safe summary (`bigint`s as decimal strings): state, token, deadline, config.
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "Record<string, unknown>")]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        let summary = plain_object(&[
            ("state", self.state()),
            ("token", self.token()),
            ("session", self.session()),
            ("lease_deadline_ms", self.lease_deadline().into()),
            ("config", self.config()?),
        ])?;
        json_safe(&summary)
    }
}

/// Reads a `LeaseConfigInit` (`undefined` means all defaults).
fn config_from_js(value: &JsValue) -> Result<LeaseConfig, JsValue> {
    let mut c = LeaseConfig::default();
    if value.is_undefined() {
        c.seed = fresh_seed();
        return Ok(c);
    }
    let f = Fields::new(value, "config", CONFIG_KEYS)?;
    if let Some(holder) = f.opt_u64("holder", U64Arg::NodeId)? {
        c.holder = NodeId(holder);
    }
    if let Some(key) = f.opt_string("key")? {
        c.key = LeaseKey(key);
    }
    if let Some(ttl) = f.opt_duration("ttl_ms")? {
        c.ttl = ttl;
    }
    if let Some(margin) = f.opt_duration("safety_margin_ms")? {
        c.safety_margin = margin;
    }
    c.renew_interval = f.opt_duration("renew_interval_ms")?;
    if let Some(rtt) = f.opt_duration("max_round_trip_ms")? {
        c.max_round_trip = rtt;
    }
    if let Some(ppm) = f.opt_int("max_drift_ppm", MAX_DRIFT_PPM)? {
        c.max_drift_ppm = u32::try_from(ppm).unwrap_or(u32::MAX);
    }
    if let Some(retry) = f.opt_duration("retry_interval_ms")? {
        c.retry_interval = retry;
    }
    if let Some(jitter) = f.opt_duration("retry_jitter_ms")? {
        c.retry_jitter = jitter;
    }
    if let Some(timeout) = f.opt_duration("request_timeout_ms")? {
        c.request_timeout = timeout;
    }
    if let Some(fencing) = f.opt_bool("fencing")? {
        c.fencing = fencing;
    }
    c.seed = f.opt_u64("seed", U64Arg::Seed)?.unwrap_or_else(fresh_seed);
    Ok(c)
}

/// A [`LeaseConfig`] as a JS `LeaseConfig`.
fn config_to_js(c: &LeaseConfig) -> Result<JsValue, JsValue> {
    plain_object(&[
        ("holder", u64_to_bigint(c.holder.0)),
        ("key", JsValue::from_str(&c.key.0)),
        ("ttl_ms", duration_to_millis(c.ttl).into()),
        (
            "safety_margin_ms",
            duration_to_millis(c.safety_margin).into(),
        ),
        (
            "renew_interval_ms",
            c.renew_interval
                .map_or(JsValue::NULL, |d| duration_to_millis(d).into()),
        ),
        (
            "max_round_trip_ms",
            duration_to_millis(c.max_round_trip).into(),
        ),
        ("max_drift_ppm", c.max_drift_ppm.into()),
        (
            "retry_interval_ms",
            duration_to_millis(c.retry_interval).into(),
        ),
        ("retry_jitter_ms", duration_to_millis(c.retry_jitter).into()),
        (
            "request_timeout_ms",
            duration_to_millis(c.request_timeout).into(),
        ),
        ("fencing", c.fencing.into()),
        ("seed", u64_to_bigint(c.seed)),
    ])
}

js_union!(
    /// A leadership change of a LeaseCandidate, or a warning to surface.
    CandidateEvent = CandidateEvent;
    write event_to_js;
    /// Leads under `token` until at least `deadline_ms` (its own clock, rule 4).
    Elected {
        token: "FencingToken" => bigint,
        deadline_ms: "number" => millis_at,
    } = (CandidateEvent::Elected { token, deadline: deadline_ms })
    /// No longer leads: stop all leader work now (S04).
    SteppedDown {
        token: "FencingToken" => bigint,
        reason: "StepDownReason" => reason_name,
    }
    /// The store says `holder`, this candidate's own id, holds the lease in another session:
    /// two instances claim one identity (design rule 8, CURATOR-696), or a previous instance's
    /// lease has not lapsed yet (a restart within one ttl). This one is kept out and keeps
    /// contending; emitted once per clash episode (it ends when this candidate is
    /// granted, hears of another holder, or stops).
    HolderClash { holder: "NodeId" => bigint }
    _ => later_event_to_js
);

/// An instant as a number of ms on the candidate's clock.
fn millis_at(at: &tenure::Instant) -> Result<JsValue, JsValue> {
    Ok(instant_to_millis(*at).into())
}

/// A step-down reason's JS name: its variant name (unit variants), which also covers
/// reasons added to the core later.
fn reason_name(reason: &tenure::lease::StepDownReason) -> Result<JsValue, JsValue> {
    Ok(JsValue::from_str(&format!("{reason:?}")))
}

/// An event added to the core later (the enum is `#[non_exhaustive]`): its variant name.
fn later_event_to_js(event: &CandidateEvent) -> Result<JsValue, JsValue> {
    plain_object(&[(
        "type",
        JsValue::from_str(
            format!("{event:?}")
                .split([' ', '{'])
                .next()
                .unwrap_or("Unknown"),
        ),
    )])
}

js_union!(
    /// One output of a LeaseCandidate: deliver `request` to the store, or act on `event`.
    CandidateOutput = CandidateOutput;
    write output_to_js;
    Send { request: "StoreRequest" => request_to_js } = (CandidateOutput::Send(request))
    Event { event: "CandidateEvent" => event_to_js } = (CandidateOutput::Event(event))
);

/// A candidate state's JS name.
fn state_name(state: CandidateState) -> &'static str {
    match state {
        CandidateState::Follower => "Follower",
        CandidateState::Campaigning => "Campaigning",
        CandidateState::Leader => "Leader",
        CandidateState::Stopped => "Stopped",
    }
}

/// `{ kind, deadline_ms }` of one timer.
fn timer_to_js(kind: CandidateTimer, at: tenure::Instant) -> Result<JsValue, JsValue> {
    let kind = match kind {
        CandidateTimer::Retry => "Retry",
        CandidateTimer::Renew => "Renew",
        CandidateTimer::RequestTimeout => "RequestTimeout",
        CandidateTimer::LeaseDeadline => "LeaseDeadline",
    };
    plain_object(&[
        ("kind", crate::object::name(kind)),
        ("deadline_ms", instant_to_millis(at).into()),
    ])
}
