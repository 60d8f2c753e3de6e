//! [`LeaseCandidate`]: a contender for a lease, and its leader side (rules 4-5).

use super::config::{ConfigError, LeaseConfig};
use super::event::{
    CandidateEvent, CandidateOutput, CandidateState, CandidateTimer, StepDownReason, StorePeer,
};
use super::message::{RequestId, SessionId, StoreOp, StoreRequest, StoreResponse, StoreResult};
use super::pending::{Asked, Outstanding, Pending};
use crate::fencing::{FencingToken, StaleToken};
use crate::id::NodeId;
use crate::machine::{Machine, Output, OutputQueue};
use crate::not_leader::NotLeader;
use crate::rng::Rng;
use crate::time::{Clock, Duration, Instant};
use crate::timer::TimerTable;
use core::convert::Infallible;

/// What waits for `poll_output`, in the shared shape.
type Queued = OutputQueue<StoreRequest, Infallible, CandidateEvent, StorePeer>;
type Out = Output<StoreRequest, Infallible, CandidateEvent, StorePeer>;

/// Mixed into the seed for the session's PRNG stream, kept apart from the retry jitter's
/// stream so that the session leaves every jitter draw as it was.
const SESSION_STREAM: u64 = 0x5E55_10A1_D5EE_D5ED;

/// The lease the candidate holds while leader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Held {
    token: FencingToken,
    deadline: Instant,
}

/// A contender for one lease at a [`LeaseStore`](super::LeaseStore), and the leader it
/// becomes: a sans-IO state machine.
///
/// # Inputs (each takes the candidate's own clock reading `now`, us)
/// - [`campaign`](Self::campaign): start contending (`Follower`/`Stopped` -> `Campaigning`).
/// - [`handle_response`](Self::handle_response): a [`StoreResponse`] arrived.
/// - [`handle_timeout`](Self::handle_timeout): the time from [`poll_timeout`](Self::poll_timeout)
///   was reached (early or spurious calls are harmless).
/// - [`release`](Self::release): step down gracefully and ask the store to release.
/// - [`report_fenced`](Self::report_fenced): the resource rejected a write made with this
///   candidate's token.
/// - [`assert_leadership`](Self::assert_leadership): check before acting as leader.
///
/// # Outputs
/// [`poll_output`](Self::poll_output) yields [`CandidateOutput::Send`] (a [`StoreRequest`]
/// for the store) and [`CandidateOutput::Event`] (`Elected`, `SteppedDown`, `HolderClash`).
///
/// # Call order for a driver
/// 1. Construct with [`new`](Self::new) (validates the config), then call `campaign(now)`.
/// 2. After every input, drain `poll_output()` until `None`: deliver each `Send` to the store,
///    act on each `Event` (start leader work on `Elected`; stop all of it on `SteppedDown`).
/// 3. Ask `poll_timeout()` and call `handle_timeout(now)` once the clock reaches it.
/// 4. Before each leader action, call `assert_leadership(now)` and present the token it
///    returns to the resource (when [`fences_writes`](Self::fences_writes)); if the resource
///    answers [`StaleToken`], call `report_fenced(now, stale)`.
///
/// # Semantics
/// - **Session (rule 8).** Each instance draws a [`SessionId`] from its seeded PRNG when it is
///   constructed ([`session`](Self::session)) and sends it with every request: the store
///   grants to (holder, session), so a second instance configured with the same holder id is
///   kept out instead of sharing the token. Two instances built from the same config *and*
///   seed are one session by construction (that is what replay means): give each its own
///   seed, as the bindings (a fresh seed when none is given) and the simulator do. When a
///   `Held` answer names this candidate's own holder id, another session claims the identity:
///   the candidate emits [`CandidateEvent::HolderClash`] once per episode and keeps
///   contending.
/// - **Deadline (rule 4).** The local deadline is the send time of the request the store
///   granted or renewed, plus the TTL the store reports (`Granted.ttl`, `Renewed.ttl`:
///   believed even when it differs from the one asked for, as with a store that rounds up to
///   whole seconds; rule 9), minus the safety margin, or minus the drift over that TTL if it
///   is larger (rule 5 with the granted TTL). At that deadline the candidate steps down even
///   with requests pending; the moment a failure is noticed never extends it (S03). A grant
///   whose TTL does not exceed the margin, or whose deadline is already `<= now` on receipt,
///   is a failure (S02, S07): no `Elected`, the candidate keeps retrying and lets that lease
///   lapse at the store.
/// - **Requests** carry increasing [`RequestId`]s; each is tracked with its send time in a
///   bounded table. An answer to an unknown, superseded or already answered id is ignored,
///   as is one for another key.
/// - **Renewal** every `renew_interval` (default ttl/3) after the send time of the last
///   confirmed request, but no later than `max_round_trip` before the deadline (a store that
///   grants less than asked is renewed early enough); an unanswered renewal is resent every
///   `request_timeout`.
/// - **`Held`** (another holder or session's lease is valid) changes nothing: the candidate
///   retries on its retry interval, with or without the `remaining` the store may give, and
///   never judges that lease by its own TTL (rule 3).
/// - **Retries** of `Acquire` every `retry_interval` plus a seeded jitter in
///   `[0, retry_jitter)`.
/// - **After an involuntary step-down** (expired, rejected, fenced, unreachable) the
///   candidate goes back to `Campaigning` and retries after a jittered interval. After
///   [`release`](Self::release) it is `Stopped`.
/// - **Given-up tokens.** A token the candidate released, was fenced under, or had a renewal
///   rejected under is never
///   accepted again: a later grant with a token at or below it (an idempotent re-grant the
///   store made before the release arrived) is answered with another `Release`, so it can
///   neither be believed nor block the key.
/// - **Commands never fail.** A command that does not apply in the current state is a
///   documented no-op (`campaign` while campaigning or leading, `release` while not
///   contending, `report_fenced` with another token). Only `assert_leadership` refuses, with
///   [`NotLeader`].
/// - **Time** readings that go backwards are clamped (S08).
#[derive(Clone, Debug)]
pub struct LeaseCandidate {
    config: LeaseConfig,
    clock: Clock,
    rng: Rng,
    state: CandidateState,
    held: Option<Held>,
    timers: TimerTable<CandidateTimer>,
    pending: Pending,
    outputs: Queued,
    last_id: u64,
    given_up: Option<FencingToken>,
    session: SessionId,
    /// Inside a holder-clash episode: `HolderClash` was emitted and not yet cleared.
    clashing: bool,
}

impl LeaseCandidate {
    /// A `Follower` that has sent nothing. Errors when `config.validate()` does.
    pub fn new(config: LeaseConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        // The holder id is mixed into both streams, as Raft and Bully mix theirs: contenders
        // built from default seeds with different ids never share a jitter sequence.
        let session =
            SessionId(Rng::for_node(config.seed ^ SESSION_STREAM, config.holder).next_u64());
        Ok(LeaseCandidate {
            rng: Rng::for_node(config.seed, config.holder),
            session,
            clashing: false,
            config,
            clock: Clock::new(),
            state: CandidateState::Follower,
            held: None,
            timers: TimerTable::new(),
            pending: Pending::default(),
            // One input sends at most one request to the store.
            outputs: OutputQueue::new(1),
            last_id: 0,
            given_up: None,
        })
    }

    // ----- inputs -----

    /// Starts contending: sends an `Acquire` now and arms [`CandidateTimer::Retry`].
    ///
    /// A no-op while `Campaigning` or `Leader`.
    pub fn campaign(&mut self, now: Instant) {
        let now = self.enter(now);
        if matches!(
            self.state,
            CandidateState::Follower | CandidateState::Stopped
        ) {
            self.state = CandidateState::Campaigning;
            self.send_acquire(now);
            self.arm_retry(now);
        }
    }

    /// Handles the store's answer to one of this candidate's requests.
    pub fn handle_response(&mut self, now: Instant, response: &StoreResponse) {
        let now = self.enter(now);
        if response.key != self.config.key {
            return;
        }
        let Some(entry) = self.pending.take(response.id) else {
            return;
        };
        match (entry.asked, response.result) {
            (Asked::Acquire, StoreResult::Granted { token, ttl }) => {
                self.on_granted(now, entry.sent_at, token, ttl);
            }
            (Asked::Renew(asked), StoreResult::Renewed { token, ttl }) if asked == token => {
                self.on_confirmed(entry.sent_at, token, ttl);
            }
            (Asked::Renew(asked), StoreResult::Rejected { .. }) if self.token() == Some(asked) => {
                self.step_down(now, StepDownReason::RenewalRejected);
            }
            (Asked::Acquire, StoreResult::Held { holder, .. }) => self.on_held(holder),
            // Answers of the wrong shape change nothing.
            _ => {}
        }
    }

    /// Fires every timer due at `now`. Early or spurious calls are harmless.
    pub fn handle_timeout(&mut self, now: Instant) {
        let now = self.enter(now);
        // Each key fires at most once per call, so a timer re-armed at a saturated `now`
        // cannot loop.
        let mut due = self.timers.due(now);
        while let Some(timer) = due.next(&mut self.timers) {
            match (timer, self.state) {
                (CandidateTimer::Retry, CandidateState::Campaigning) => {
                    self.send_acquire(now);
                    self.arm_retry(now);
                }
                (
                    CandidateTimer::Renew | CandidateTimer::RequestTimeout,
                    CandidateState::Leader,
                ) => {
                    self.send_renew(now);
                    let at = now.saturating_add(self.config.request_timeout);
                    self.timers.set(CandidateTimer::RequestTimeout, at);
                }
                // The deadline itself was handled by `enter`.
                _ => {}
            }
        }
    }

    /// Graceful hand-over: while `Leader`, emits `SteppedDown { reason: Released }`, then
    /// sends `Release { token }`, and becomes `Stopped`. While `Campaigning`, stops
    /// contending (`Stopped`). Otherwise a no-op.
    ///
    /// The `Release` is sent once; if it is lost the store's lease lapses on its own.
    pub fn release(&mut self, now: Instant) {
        let now = self.enter(now);
        match self.state {
            CandidateState::Leader => self.step_down(now, StepDownReason::Released),
            CandidateState::Campaigning => {
                self.state = CandidateState::Stopped;
                self.timers.clear_all();
                self.pending.clear();
                self.clashing = false;
            }
            CandidateState::Follower | CandidateState::Stopped => {}
        }
    }

    /// The resource rejected a write made with this candidate's token: steps down with
    /// [`StepDownReason::Fenced`] and campaigns again after a retry interval; that token is
    /// never accepted again.
    ///
    /// Ignored unless `Leader` with `stale.presented` equal to the current token (a late
    /// report about an earlier leadership changes nothing).
    pub fn report_fenced(&mut self, now: Instant, stale: StaleToken) {
        let now = self.enter(now);
        if self.token() == Some(stale.presented) {
            self.step_down(now, StepDownReason::Fenced);
        }
    }

    /// The token to present to the resource, if this candidate may act as leader at `now`.
    ///
    /// If the local deadline has passed but its timer has not fired yet, the candidate steps
    /// down now (the event is queued) and returns [`NotLeader::DeadlinePassed`]. Otherwise
    /// [`NotLeader::NotLeading`] unless `Leader`. A passing check does not make a later write
    /// safe across a pause: only the resource's fencing does (S01).
    pub fn assert_leadership(&mut self, now: Instant) -> Result<FencingToken, NotLeader> {
        let before = self.held;
        let now = self.enter(now);
        match (self.held, before) {
            (Some(held), _) => Ok(held.token),
            (None, Some(lost)) => Err(NotLeader::DeadlinePassed {
                deadline: lost.deadline,
                now,
            }),
            (None, None) => Err(NotLeader::NotLeading {
                term: None,
                leader: None,
            }),
        }
    }

    // ----- outputs -----

    /// The next output, oldest first. Drain after every input; if the caller does not, only
    /// the newest 18 are kept (the shared [`OutputQueue`] bound for a fan-out of 1).
    pub fn poll_output(&mut self) -> Option<CandidateOutput> {
        match self.outputs.pop()? {
            Output::Send { msg, .. } => Some(CandidateOutput::Send(msg)),
            Output::Event(event) => Some(CandidateOutput::Event(event)),
            Output::Persist(never) => match never {},
        }
    }

    /// The earliest armed timer: call `handle_timeout` when the clock reaches it.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.timers.next_deadline()
    }

    // ----- accessors -----

    /// The current role.
    pub fn state(&self) -> CandidateState {
        self.state
    }

    /// The fencing token while `Leader`.
    pub fn token(&self) -> Option<FencingToken> {
        self.held.map(|h| h.token)
    }

    /// The local lease deadline (rule 4, us on this candidate's clock) while `Leader`.
    pub fn lease_deadline(&self) -> Option<Instant> {
        self.held.map(|h| h.deadline)
    }

    /// The earliest armed timer and what it is for, for labelling.
    pub fn next_timer(&self) -> Option<(CandidateTimer, Instant)> {
        self.timers.next()
    }

    /// Every armed timer, for display.
    pub fn timers(&self) -> impl Iterator<Item = (CandidateTimer, Instant)> + '_ {
        self.timers.iter()
    }

    /// How many requests await an answer (bounded).
    pub fn outstanding_requests(&self) -> usize {
        self.pending.len()
    }

    /// This instance's session, drawn from the seeded PRNG at construction (rule 8): sent
    /// with every request; the store grants to (holder, session).
    pub fn session(&self) -> SessionId {
        self.session
    }

    /// Whether the driver presents the token with each write (`config.fencing`).
    pub fn fences_writes(&self) -> bool {
        self.config.fencing
    }

    /// The configuration.
    pub fn config(&self) -> &LeaseConfig {
        &self.config
    }

    /// The latest clock reading seen.
    pub fn now(&self) -> Instant {
        self.clock.now()
    }

    // ----- internals -----

    /// Common prologue of every input: clamp time, enforce the deadline, drop spent entries.
    fn enter(&mut self, now: Instant) -> Instant {
        let now = self.clock.observe(now);
        if self.held.is_some_and(|h| now >= h.deadline) {
            let reason = if self.pending.has_renewal() {
                StepDownReason::StoreUnreachable
            } else {
                StepDownReason::LeaseExpired
            };
            self.step_down(now, reason);
        }
        self.pending.forget_spent(now, self.validity());
        now
    }

    /// `ttl - safety_margin`: how long a confirmed request keeps us leader after its send.
    fn validity(&self) -> Duration {
        self.config.ttl.saturating_sub(self.config.safety_margin)
    }

    /// The local deadline a confirmation of a request sent at `sent_at` gives, with the TTL
    /// the store reported (rules 4, 5 and 9); `None` when that TTL does not exceed the
    /// margin, which confers nothing.
    fn deadline_for(&self, sent_at: Instant, granted_ttl: Duration) -> Option<Instant> {
        let margin = self
            .config
            .safety_margin
            .max(self.config.drift_over(granted_ttl));
        if granted_ttl <= margin {
            return None;
        }
        Some(sent_at.saturating_add(granted_ttl).saturating_sub(margin))
    }

    /// When to renew after a confirmation of a request sent at `sent_at` with local
    /// `deadline`: `renew_interval` after the send, but no later than `max_round_trip`
    /// before the deadline, so that a store granting less than asked is renewed in time
    /// (rule 5 with the granted TTL); never before a third of the validity has passed.
    fn renew_at(&self, sent_at: Instant, deadline: Instant) -> Instant {
        let by_interval = sent_at.saturating_add(self.config.effective_renew_interval());
        let latest = deadline.saturating_sub(self.config.max_round_trip);
        if by_interval <= latest {
            return by_interval;
        }
        let third = deadline.saturating_since(sent_at).checked_div_or_zero(3);
        latest.max(sent_at.saturating_add(third))
    }

    /// A `Held` answer to an `Acquire`: a clash when it names our own holder id (rule 8).
    fn on_held(&mut self, holder: Option<NodeId>) {
        match holder {
            // Already reported in this episode.
            Some(h) if h == self.config.holder && self.clashing => {}
            Some(h) if h == self.config.holder => {
                self.clashing = true;
                self.emit(CandidateOutput::Event(CandidateEvent::HolderClash {
                    holder: h,
                }));
            }
            // Another holder: whoever claimed our id no longer holds the key.
            Some(_) => self.clashing = false,
            // The store did not say who holds it: neither starts nor ends an episode.
            None => {}
        }
    }

    fn on_granted(&mut self, now: Instant, sent_at: Instant, token: FencingToken, ttl: Duration) {
        if self.given_up.is_some_and(|g| token <= g) {
            self.send_release(token);
            return;
        }
        self.clashing = false;
        let Some(deadline) = self.deadline_for(sent_at, ttl).filter(|d| *d > now) else {
            return; // S02, S07: no validity left on receipt (or none granted, rule 5).
        };
        match self.state {
            CandidateState::Campaigning => {
                self.state = CandidateState::Leader;
                self.held = Some(Held { token, deadline });
                self.timers.clear_all();
                self.timers.set(CandidateTimer::LeaseDeadline, deadline);
                let renew_at = self.renew_at(sent_at, deadline);
                self.timers.set(CandidateTimer::Renew, renew_at);
                self.emit(CandidateOutput::Event(CandidateEvent::Elected {
                    token,
                    deadline,
                }));
            }
            CandidateState::Leader => self.on_confirmed(sent_at, token, ttl),
            CandidateState::Follower | CandidateState::Stopped => {}
        }
    }

    /// A grant or renewal of the current lease was confirmed: push the deadline if later.
    fn on_confirmed(&mut self, sent_at: Instant, token: FencingToken, ttl: Duration) {
        let Some(deadline) = self.deadline_for(sent_at, ttl) else {
            return;
        };
        let renew_at = self.renew_at(sent_at, deadline);
        let Some(held) = self.held.as_mut().filter(|h| h.token == token) else {
            return;
        };
        if deadline <= held.deadline {
            return;
        }
        held.deadline = deadline;
        self.timers.set(CandidateTimer::LeaseDeadline, deadline);
        self.timers.clear(CandidateTimer::RequestTimeout);
        self.timers.set(CandidateTimer::Renew, renew_at);
    }

    fn step_down(&mut self, now: Instant, reason: StepDownReason) {
        let Some(held) = self.held.take() else {
            return;
        };
        self.timers.clear_all();
        self.pending.clear();
        self.emit(CandidateOutput::Event(CandidateEvent::SteppedDown {
            token: held.token,
            reason,
        }));
        match reason {
            StepDownReason::Released => {
                self.clashing = false;
                self.give_up(held.token);
                self.send_release(held.token);
                self.state = CandidateState::Stopped;
            }
            // The store or the resource said this token is finished: never believe it again.
            StepDownReason::Fenced | StepDownReason::RenewalRejected => {
                self.give_up(held.token);
                self.recampaign(now);
            }
            _ => self.recampaign(now),
        }
    }

    fn recampaign(&mut self, now: Instant) {
        self.state = CandidateState::Campaigning;
        self.arm_retry(now);
    }

    fn give_up(&mut self, token: FencingToken) {
        self.given_up = Some(self.given_up.map_or(token, |g| g.max(token)));
    }

    fn arm_retry(&mut self, now: Instant) {
        let jitter = self
            .rng
            .uniform_duration(Duration::ZERO, self.config.retry_jitter);
        let at = now
            .saturating_add(self.config.retry_interval)
            .saturating_add(jitter);
        self.timers.set(CandidateTimer::Retry, at);
    }

    fn next_id(&mut self) -> RequestId {
        self.last_id = self.last_id.saturating_add(1);
        RequestId(self.last_id)
    }

    fn send(&mut self, op: StoreOp) -> RequestId {
        let id = self.next_id();
        self.emit(CandidateOutput::Send(StoreRequest {
            id,
            key: self.config.key.clone(),
            holder: self.config.holder,
            session: self.session,
            op,
        }));
        id
    }

    fn send_acquire(&mut self, now: Instant) {
        let id = self.send(StoreOp::Acquire {
            ttl: self.config.ttl,
        });
        self.pending.push(Outstanding {
            id,
            sent_at: now,
            asked: Asked::Acquire,
        });
    }

    fn send_renew(&mut self, now: Instant) {
        let Some(token) = self.token() else {
            return;
        };
        let id = self.send(StoreOp::Renew {
            token,
            ttl: self.config.ttl,
        });
        self.pending.push(Outstanding {
            id,
            sent_at: now,
            asked: Asked::Renew(token),
        });
    }

    /// Sends `Release { token }`; its answer is not awaited.
    fn send_release(&mut self, token: FencingToken) {
        self.send(StoreOp::Release { token });
    }

    fn emit(&mut self, output: CandidateOutput) {
        self.outputs.push(match output {
            CandidateOutput::Send(msg) => Out::Send { to: StorePeer, msg },
            CandidateOutput::Event(event) => Out::Event(event),
        });
    }
}

impl Machine for LeaseCandidate {
    type Peer = StorePeer;
    type Inbound = StoreResponse;
    type Outbound = StoreRequest;
    type Persist = Infallible;
    type Event = CandidateEvent;

    fn handle_message(&mut self, now: Instant, _from: StorePeer, msg: StoreResponse) {
        self.handle_response(now, &msg);
    }
    fn handle_timeout(&mut self, now: Instant) {
        LeaseCandidate::handle_timeout(self, now);
    }
    fn poll_output(&mut self) -> Option<Out> {
        self.outputs.pop()
    }
    fn poll_timeout(&self) -> Option<Instant> {
        LeaseCandidate::poll_timeout(self)
    }
}
