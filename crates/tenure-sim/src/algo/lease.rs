//! Drives the lease world: N [`LeaseCandidate`]s, the [`LeaseStore`] and a
//! [`FencedResource`], each a process with its own clock, all reached over the network.
//!
//! The leader does the seed's `LeaderWorker` work: every `write_interval` on its clock it
//! calls `assert_leadership(now)` and, if that passes, sends a write to the resource with
//! its token (presented only with fencing). A rejection comes back and is reported with
//! `report_fenced`. With fencing, a new leader first installs its token with `establish`
//! and writes only after the resource confirms (rule 1, S16). The fault "pause after
//! check" pauses the node between a passing check and the write leaving (S01).

use super::seed::split;
use super::{Adapter, Env, NodeInfo, Note, id_of};
use crate::checker::{Finding, LeaseChecker};
use crate::clock::SimClock;
use crate::event::{NodeEvent, Role as SimRole};
use crate::fault::Fault;
use crate::message::Payload;
use crate::process::Proc;
use crate::scenario::{Algorithm, Scenario, ScenarioError};
use crate::snapshot::{ResourceView, StoreView};
use crate::trace::{WriteRecord, WriteRefusal};
use crate::units::Ms;
use std::collections::VecDeque;
use tenure::lease::{
    CandidateEvent, CandidateOutput, CandidateState, LeaseCandidate, LeaseConfig, LeaseStore,
    StoreResult,
};
use tenure::{Duration, FencedResource, FencingToken, Instant, NodeId, StaleToken};

/// Simulator defaults, shorter than the core's so a two-minute run sees many terms.
pub(crate) const DEFAULT_TTL_MS: u64 = 2_000;
/// Default safety margin, ms.
pub(crate) const DEFAULT_MARGIN_MS: u64 = 300;
/// Default retry interval, ms.
pub(crate) const DEFAULT_RETRY_MS: u64 = 250;
/// Default leader write interval, ms.
pub(crate) const DEFAULT_WRITE_MS: u64 = 100;
mod driver;
mod labels;
mod resource;
mod spec;
mod store;

pub use driver::LeaseWorld;

pub(crate) use spec::{FENCING, LEASE_FAULTS, LEASE_PROCS, UNFENCED};

use labels::{cause_of, timer_label};
use store::{check_holder_id, first_store};

/// Default bound on a request's round trip, ms (rule 5).
pub(crate) const DEFAULT_ROUND_TRIP_MS: u64 = 500;
/// Writes a snapshot shows.
const RECENT_WRITES: usize = 32;

#[derive(Clone, Default)]
struct Cand {
    m: Option<LeaseCandidate>,
    incarnation: u64,
    /// Next write on the candidate's clock, while leading and established.
    next_write: Option<Instant>,
    pause_after_check: Option<Duration>,
}

/// The lease world's machines and checker.
#[derive(Clone)]
pub(crate) struct LeaseAdapter {
    fencing: bool,
    base: LeaseConfig,
    /// The holder id every contender claims (`config.holder_id`), else each its node id.
    holder_id: Option<NodeId>,
    seed: u64,
    write_every: Duration,
    cands: Vec<Cand>,
    store: LeaseStore,
    resource: FencedResource<u64>,
    writes: VecDeque<WriteRecord>,
    checker: LeaseChecker,
    found: Vec<Finding>,
    /// The current store outage's number: only its wake-up ends it.
    outage_gen: u64,
    /// The store answers every renewal with a refusal (a test's switch, `driver.rs`).
    refuse_renewals: bool,
}

impl LeaseAdapter {
    pub(crate) fn new(s: &Scenario) -> Result<Self, ScenarioError> {
        let c = &s.config;
        let ms = |v: Option<crate::units::Ms>, d: u64| {
            v.map_or(Duration::from_millis(d), |m| m.duration())
        };
        let base = LeaseConfig {
            ttl: ms(c.ttl_ms, DEFAULT_TTL_MS),
            safety_margin: ms(c.safety_margin_ms, DEFAULT_MARGIN_MS),
            renew_interval: c.renew_interval_ms.map(|m| m.duration()),
            max_round_trip: ms(c.max_round_trip_ms, DEFAULT_ROUND_TRIP_MS),
            max_drift_ppm: c
                .max_drift_ppm
                .unwrap_or(LeaseConfig::default().max_drift_ppm),
            retry_interval: ms(c.retry_interval_ms, DEFAULT_RETRY_MS),
            retry_jitter: ms(c.retry_interval_ms, DEFAULT_RETRY_MS),
            request_timeout: Duration::from_millis(400),
            fencing: s.algorithm == Algorithm::LeaseFencing,
            ..LeaseConfig::default()
        };
        base.validate().map_err(|e| {
            ScenarioError::Invalid(format!(
                "lease config: {}",
                s.config
                    .config_words(&[], |c| tenure::config_words::lease(&e, c))
            ))
        })?;
        let n = usize::try_from(s.nodes).unwrap_or(0);
        let store = first_store(&base, c.first_token)?;
        check_holder_id(c.holder_id)?;
        Ok(LeaseAdapter {
            fencing: base.fencing,
            base,
            holder_id: c.holder_id.map(NodeId),
            seed: s.seed,
            write_every: ms(c.write_interval_ms, DEFAULT_WRITE_MS).max(Duration::from_micros(1)),
            cands: (0..n).map(|_| Cand::default()).collect(),
            store,
            resource: FencedResource::new(),
            writes: VecDeque::new(),
            checker: LeaseChecker::new(),
            found: Vec::new(),
            outage_gen: 0,
            refuse_renewals: false,
        })
    }

    fn store_idx(&self) -> usize {
        self.cands.len()
    }

    fn resource_idx(&self) -> usize {
        self.cands.len().saturating_add(1)
    }

    fn boot(&mut self, env: &mut Env<'_>, p: usize) {
        let now = env.local(p);
        let mut config = self.base.clone();
        config.holder = self.holder_id.unwrap_or_else(|| id_of(p));
        let Some(c) = self.cands.get_mut(p) else {
            return;
        };
        config.seed = split(self.seed, p, c.incarnation);
        c.m = LeaseCandidate::new(config).ok();
        c.next_write = None;
        if let Some(m) = c.m.as_mut() {
            m.campaign(now);
        }
        self.drain(env, p);
    }

    fn drain(&mut self, env: &mut Env<'_>, p: usize) {
        let (store, resource, fencing) = (self.store_idx(), self.resource_idx(), self.fencing);
        let now = env.local(p);
        let every = self.write_every;
        let Some(c) = self.cands.get_mut(p) else {
            return;
        };
        let Some(m) = c.m.as_mut() else {
            return;
        };
        while let Some(out) = m.poll_output() {
            match out {
                CandidateOutput::Send(req) => env.send(p, store, Payload::StoreRequest(req)),
                CandidateOutput::Event(CandidateEvent::Elected { token, .. }) => {
                    env.node(p, NodeEvent::BecameLeader { value: token.0 });
                    if fencing {
                        // Install the generation first; write once it is confirmed (S16).
                        c.next_write = None;
                        env.send(p, resource, Payload::Establish { token: token.0 });
                    } else {
                        c.next_write = Some(now);
                    }
                }
                CandidateOutput::Event(CandidateEvent::SteppedDown { token, reason }) => {
                    c.next_write = None;
                    env.node(
                        p,
                        NodeEvent::SteppedDown {
                            value: token.0,
                            reason: cause_of(reason),
                        },
                    );
                }
                CandidateOutput::Event(CandidateEvent::HolderClash { holder }) => {
                    // Another session claims this node's holder id (rule 8).
                    env.node(p, NodeEvent::HolderClash { value: holder.0 });
                }
                CandidateOutput::Event(_) => {}
            }
        }
        if m.state() != CandidateState::Leader {
            c.next_write = None;
        }
        let _ = every;
    }

    fn deliver_to_candidate(&mut self, env: &mut Env<'_>, p: usize, payload: Payload) {
        let now = env.local(p);
        let Some(c) = self.cands.get_mut(p) else {
            return;
        };
        let Some(m) = c.m.as_mut() else {
            return;
        };
        let stale = |token: u64, required: u64| StaleToken {
            presented: FencingToken(token),
            required: FencingToken(required),
        };
        match payload {
            Payload::StoreResponse(resp) => m.handle_response(now, &resp),
            Payload::Established {
                token,
                accepted,
                required,
            } => {
                if accepted && m.token() == Some(FencingToken(token)) {
                    c.next_write = Some(now);
                } else if !accepted {
                    m.report_fenced(now, stale(token, required));
                }
            }
            Payload::WriteResult {
                token,
                accepted: false,
                required,
            } => m.report_fenced(now, stale(token, required)),
            _ => {}
        }
        self.drain(env, p);
    }
}

impl Adapter for LeaseAdapter {
    fn clone_box(&self) -> Box<dyn Adapter> {
        Box::new(self.clone())
    }

    fn into_machines(self: Box<Self>) -> super::Machines {
        super::Machines::Other(self)
    }

    fn start(&mut self, env: &mut Env<'_>, p: usize) {
        if p < self.cands.len() {
            self.boot(env, p);
        }
    }

    fn deliver(&mut self, env: &mut Env<'_>, p: usize, from: usize, payload: Payload) {
        if p == self.store_idx() {
            self.deliver_to_store(env, from, payload);
        } else if p == self.resource_idx() {
            self.deliver_to_resource(env, from, payload);
        } else {
            self.deliver_to_candidate(env, p, payload);
        }
    }

    fn campaign(&mut self, env: &mut Env<'_>, p: usize) -> Result<(), String> {
        let now = env.local(p);
        let m = self.cands.get_mut(p).and_then(|c| c.m.as_mut());
        m.ok_or_else(|| String::from("no running candidate"))?
            .campaign(now);
        self.drain(env, p);
        Ok(())
    }

    fn timeout(&mut self, env: &mut Env<'_>, p: usize) {
        let now = env.local(p);
        let (resource, fencing, every) = (self.resource_idx(), self.fencing, self.write_every);
        let Some(c) = self.cands.get_mut(p) else {
            return;
        };
        let Some(m) = c.m.as_mut() else {
            return;
        };
        if c.next_write.is_some_and(|t| t <= now) {
            // The seed's LeaderWorker: check, then write with the token.
            match m.assert_leadership(now) {
                Ok(token) => {
                    if let Some(d) = c.pause_after_check.take() {
                        *env.pause = Some((p, d));
                    }
                    env.send(
                        p,
                        resource,
                        Payload::Write {
                            token: token.0,
                            fenced: fencing,
                            issued_us: 0,
                            late: false,
                        },
                    );
                    c.next_write = Some(now.saturating_add(every));
                }
                Err(_) => c.next_write = None,
            }
        }
        if m.poll_timeout().is_some_and(|t| t <= now) {
            m.handle_timeout(now);
        }
        self.drain(env, p);
    }

    fn deadline(&self, p: usize) -> Option<Instant> {
        let c = self.cands.get(p)?;
        let m = c.m.as_ref()?;
        match (m.poll_timeout(), c.next_write) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn next_timer(&self, p: usize) -> Option<(&'static str, Instant)> {
        let m = self.cands.get(p)?.m.as_ref()?;
        m.next_timer().map(|(k, at)| (timer_label(k), at))
    }

    fn crash(&mut self, _env: &mut Env<'_>, p: usize) {
        if let Some(c) = self.cands.get_mut(p) {
            c.m = None;
            c.next_write = None;
        }
    }

    fn restart(&mut self, env: &mut Env<'_>, p: usize) {
        if let Some(c) = self.cands.get_mut(p) {
            c.incarnation = c.incarnation.saturating_add(1);
        }
        self.boot(env, p);
    }

    fn on_leave(&mut self, now: Instant, clocks: &[SimClock], _from: usize, payload: &mut Payload) {
        if let Payload::Write {
            token,
            issued_us,
            late,
            ..
        } = payload
        {
            let store_now = clocks.get(self.store_idx()).map_or(now, |c| c.read(now));
            *issued_us = now.as_micros();
            *late = self.checker.is_late(*token, store_now);
        }
    }

    fn fault(&mut self, env: &mut Env<'_>, fault: &Fault) -> bool {
        match fault {
            Fault::PauseAfterCheck { node, duration_ms } => {
                let p = usize::try_from(node.0.saturating_sub(1)).unwrap_or(usize::MAX);
                match self.cands.get_mut(p) {
                    Some(c) => {
                        c.pause_after_check = Some(duration_ms.duration());
                        true
                    }
                    None => false,
                }
            }
            Fault::StoreOutage { duration_ms } => {
                self.store.set_available(false);
                env.node(self.store_idx(), NodeEvent::OutageStarted);
                // A later outage supersedes this one's end.
                self.outage_gen = self.outage_gen.saturating_add(1);
                env.wake_after(duration_ms.duration(), self.outage_gen);
                true
            }
            _ => false,
        }
    }

    fn fault_proc(&self, fault: &Fault) -> Option<usize> {
        match fault {
            Fault::StoreOutage { .. } => Some(self.store_idx()),
            Fault::PauseAfterCheck { node, .. } => Some(super::index_of(*node)),
            _ => None,
        }
    }

    fn wake(&mut self, env: &mut Env<'_>, token: u64) {
        if token == self.outage_gen {
            self.store.set_available(true);
            env.node(self.store_idx(), NodeEvent::OutageEnded);
        }
    }

    fn is_leader(&self, p: usize) -> bool {
        self.cands
            .get(p)
            .and_then(|c| c.m.as_ref())
            .is_some_and(|m| m.state() == CandidateState::Leader)
    }

    fn info(&self, p: usize) -> NodeInfo {
        if p == self.store_idx() {
            return NodeInfo {
                role: SimRole::Store,
                token: self.store.last_token(&self.base.key).map(|t| t.0),
                ..NodeInfo::default()
            };
        }
        if p == self.resource_idx() {
            return NodeInfo {
                role: SimRole::Resource,
                token: Some(self.resource.highest_token().0),
                ..NodeInfo::default()
            };
        }
        let Some(m) = self.cands.get(p).and_then(|c| c.m.as_ref()) else {
            return NodeInfo {
                role: SimRole::Crashed,
                ..NodeInfo::default()
            };
        };
        NodeInfo {
            role: match m.state() {
                CandidateState::Follower => SimRole::Follower,
                CandidateState::Campaigning => SimRole::Campaigning,
                CandidateState::Leader => SimRole::Leader,
                CandidateState::Stopped => SimRole::Stopped,
            },
            token: m.token().map(|t| t.0),
            lease_deadline: m.lease_deadline(),
            lease_validity: Some(m.config().ttl.saturating_sub(m.config().safety_margin)),
            next_timer: self.next_timer(p),
            ..NodeInfo::default()
        }
    }

    fn store_view(&self, env: &Env<'_>) -> Option<StoreView> {
        Some(self.store_view_now(env))
    }

    fn resource_view(&self) -> Option<ResourceView> {
        Some(ResourceView {
            highest_token: if self.fencing {
                self.resource.highest_token().0
            } else {
                self.checker.highest_seen()
            },
            fenced: self.fencing,
            recent_writes: self.writes.iter().copied().collect(),
        })
    }

    fn effective_config(&self, c: &mut crate::scenario::AlgoConfig) {
        let b = &self.base;
        c.ttl_ms = Some(Ms(b.ttl));
        c.safety_margin_ms = Some(Ms(b.safety_margin));
        c.renew_interval_ms = Some(Ms(b.effective_renew_interval()));
        c.retry_interval_ms = Some(Ms(b.retry_interval));
        c.write_interval_ms = Some(Ms(self.write_every));
        c.max_drift_ppm = Some(b.max_drift_ppm);
        c.max_round_trip_ms = Some(Ms(b.max_round_trip));
    }

    fn fencing_token(&self) -> Option<u64> {
        self.store.last_token(&self.base.key).map(|t| t.0)
    }
}
