//! Drives [`RaftNode`]s: persisted state survives crashes, and the leader proposes commands
//! periodically so Log Matching and Leader Completeness have entries to check.

use super::seed::split;
use super::{Adapter, Env, NodeInfo, id_of, index_of};
use crate::checker::{EntryCode, Finding, RaftChecker};
use crate::event::{NodeEvent, RefusalCause, Role as SimRole, StepDownCause};
use crate::fault::Fault;
use crate::message::Payload;
use crate::scenario::{Scenario, ScenarioError};
use crate::snapshot::{LOG_TAIL, LogEntryView};
use tenure::raft::{
    Entry, EntryData, PersistOp, PersistentState, RaftConfig, RaftEvent, RaftNode, RaftOutput,
    RaftTimer, Role, StepDownReason,
};
use tenure::{Duration, Instant};

/// Default interval between the leader's proposals, ms.
pub(crate) const DEFAULT_PROPOSE_MS: u64 = 200;

/// Default log compaction step, in entries: once every node's log agrees with the committed
/// log this far past the last compaction point, every log (live and durable) and the
/// checker's records are compacted there. At one proposal per 200 ms that is every few
/// minutes of simulated time; memory stays flat however long a run lasts.
pub(crate) const DEFAULT_COMPACT_EVERY: u64 = 1024;

mod backlog;
mod compact;
mod spec;
use backlog::backlogged;
pub(crate) use spec::SPEC;

#[derive(Clone)]
struct Slot {
    node: Option<RaftNode>,
    durable: PersistentState,
    incarnation: u64,
    next_propose: Option<Instant>,
    /// The highest term the checker was shown for this node: a drain that leaves the term
    /// there skips `observe_term`, which would find nothing (the checker keeps this maximum).
    checked_term: Option<u64>,
}

/// The Raft world's machines and checker.
#[derive(Clone)]
pub(crate) struct RaftAdapter {
    base: RaftConfig,
    seed: u64,
    propose_every: Duration,
    slots: Vec<Slot>,
    checker: RaftChecker,
    next_command: u64,
    found: Vec<Finding>,
    /// Reused for each log write's entry codes: no allocation per append.
    codes: Vec<EntryCode>,
    /// Compaction step in entries (0: never compact).
    compact_every: u64,
    /// Every log is compacted through this index.
    compacted: u64,
    /// The committed length at which a drain tries to compact: `compacted + 2 x
    /// compact_every` (saturating), `u64::MAX` with compaction off (a length of 2^64 - 1
    /// entries is never reached). Kept beside the two it derives from
    /// (`set_compaction_point`), so the test after every drain is one compare.
    compact_at: u64,
}

fn code(e: &Entry) -> EntryCode {
    match e.data {
        EntryData::Noop => (e.term, 0),
        EntryData::Command(c) => (e.term, c.saturating_add(1)),
    }
}

impl RaftAdapter {
    pub(crate) fn new(s: &Scenario) -> Result<Self, ScenarioError> {
        let mut base = RaftConfig::default();
        let c = &s.config;
        if let Some(t) = c.election_timeout_ms {
            base.election_timeout = t.duration();
        }
        if let Some(h) = c.heartbeat_interval_ms {
            base.heartbeat_interval = h.duration();
        }
        if let Some(v) = c.pre_vote {
            base.pre_vote = v;
        }
        if let Some(v) = c.check_quorum {
            base.check_quorum = v;
        }
        if let Some(m) = c.election_timeout_max_ms {
            base.election_timeout_max = Some(m.duration());
        }
        if let Some(v) = c.leader_lease {
            base.leader_lease = v;
        }
        if let Some(v) = c.leader_lease_drift_ppm {
            base.max_drift_ppm = v;
        }
        spec::check_workload(c)?;
        let n = usize::try_from(s.nodes).unwrap_or(0);
        let mut adapter = RaftAdapter {
            base,
            seed: s.seed,
            propose_every: c
                .propose_interval_ms
                .map_or(Duration::from_millis(DEFAULT_PROPOSE_MS), |m| m.duration()),
            slots: Vec::with_capacity(n),
            checker: RaftChecker::new(),
            next_command: 0,
            found: Vec::new(),
            codes: Vec::new(),
            compact_every: DEFAULT_COMPACT_EVERY,
            compacted: 0,
            compact_at: u64::MAX,
        };
        adapter.set_compaction_point(0);
        // Validate the config once, up front, with the first node's view.
        adapter.config(0, n, 0).validate().map_err(|e| {
            ScenarioError::Invalid(format!(
                "raft config: {}",
                s.config
                    .config_words(&[("max_drift_ppm", "leader_lease_drift_ppm")], |c| {
                        tenure::config_words::raft(&e, c)
                    })
            ))
        })?;
        for _ in 0..n {
            adapter.slots.push(Slot {
                node: None,
                durable: PersistentState::default(),
                incarnation: 0,
                next_propose: None,
                checked_term: None,
            });
        }
        Ok(adapter)
    }

    fn config(&self, p: usize, n: usize, incarnation: u64) -> RaftConfig {
        let mut c = self.base.clone();
        c.id = id_of(p);
        c.peers = (0..n).filter(|&q| q != p).map(id_of).collect();
        c.seed = split(self.seed, p, incarnation);
        c
    }

    fn boot(&mut self, p: usize) {
        let n = self.slots.len();
        let Some(inc) = self.slots.get(p).map(|s| s.incarnation) else {
            return;
        };
        let config = self.config(p, n, inc);
        let Some(slot) = self.slots.get_mut(p) else {
            return;
        };
        // The config was validated in `new`; only the id, peers and seed differ here.
        slot.node = RaftNode::restart(config, slot.durable.clone()).ok();
        slot.next_propose = None;
    }

    fn drain(&mut self, env: &mut Env<'_>, p: usize) {
        let id = id_of(p);
        let Some(slot) = self.slots.get_mut(p) else {
            return;
        };
        let Some(node) = slot.node.as_mut() else {
            return;
        };
        while let Some(out) = node.poll_output() {
            match out {
                RaftOutput::Persist(op) => {
                    // Durable before any later Send leaves (rule 6, S11).
                    slot.durable.apply(&op);
                    if let PersistOp::Append {
                        first_index,
                        entries,
                    }
                    | PersistOp::TruncateAndAppend {
                        first_index,
                        entries,
                    } = &op
                    {
                        self.codes.clear();
                        self.codes.extend(entries.iter().map(code));
                        self.checker
                            .log_replaced(id, *first_index, &self.codes, &mut self.found);
                    }
                }
                RaftOutput::Send { to, msg } => env.send(p, index_of(to), Payload::Raft(msg)),
                RaftOutput::Event(ev) => match ev {
                    RaftEvent::BecameLeader { term } => {
                        self.checker.observe_leader(id, term, &mut self.found);
                        let now = env.local(p);
                        slot.next_propose = Some(now.saturating_add(self.propose_every));
                        env.node(p, NodeEvent::BecameLeader { value: term });
                    }
                    RaftEvent::SteppedDown { term, reason } => {
                        slot.next_propose = None;
                        let reason = match reason {
                            StepDownReason::HigherTerm { .. } => StepDownCause::HigherTerm,
                            StepDownReason::CheckQuorumFailed => StepDownCause::CheckQuorumFailed,
                            _ => StepDownCause::Other,
                        };
                        env.node(
                            p,
                            NodeEvent::SteppedDown {
                                value: term,
                                reason,
                            },
                        );
                    }
                    RaftEvent::Committed { index } => {
                        self.checker.observe_commit(id, index, &mut self.found);
                    }
                    RaftEvent::BecameCandidate { term } => {
                        env.node(p, NodeEvent::BecameCandidate { value: term });
                    }
                    RaftEvent::BecamePreCandidate { term } => {
                        env.node(p, NodeEvent::BecamePreCandidate { value: term });
                    }
                },
            }
        }
        let term = node.term();
        if slot.checked_term != Some(term) {
            self.checker.observe_term(id, term, &mut self.found);
            slot.checked_term = Some(slot.checked_term.map_or(term, |t| t.max(term)));
        }
        if node.role() != Role::Leader {
            slot.next_propose = None;
        }
        if !self.found.is_empty() {
            env.findings(std::mem::take(&mut self.found));
        }
        if self.checker.committed_len() >= self.compact_at {
            self.maybe_compact();
        }
    }
}

/// The newest [`LOG_TAIL`] entries of `log` (index `base + 1` is `log[0]`), for a snapshot.
fn log_tail(base: u64, log: &[Entry]) -> Vec<LogEntryView> {
    let start = log.len().saturating_sub(LOG_TAIL);
    log.iter()
        .enumerate()
        .skip(start)
        .map(|(i, e)| LogEntryView {
            index: base.saturating_add(i as u64).saturating_add(1),
            term: e.term,
            command: match e.data {
                EntryData::Noop => None,
                EntryData::Command(c) => Some(c),
            },
        })
        .collect()
}

fn role_of(r: Role) -> SimRole {
    match r {
        Role::Follower => SimRole::Follower,
        Role::PreCandidate => SimRole::PreCandidate,
        Role::Candidate => SimRole::Candidate,
        Role::Leader => SimRole::Leader,
    }
}

fn timer_label(t: RaftTimer) -> &'static str {
    match t {
        RaftTimer::Start => "Start",
        RaftTimer::Election => "Election",
        RaftTimer::Heartbeat => "Heartbeat",
        RaftTimer::CheckQuorum => "CheckQuorum",
        RaftTimer::LeaderLease => "LeaderLease",
    }
}

impl Adapter for RaftAdapter {
    fn clone_box(&self) -> Box<dyn Adapter> {
        Box::new(self.clone())
    }

    fn into_machines(self: Box<Self>) -> super::Machines {
        super::Machines::Raft(self)
    }

    fn start(&mut self, env: &mut Env<'_>, p: usize) {
        self.boot(p);
        self.drain(env, p);
    }

    fn deliver(&mut self, env: &mut Env<'_>, p: usize, from: usize, payload: Payload) {
        let Payload::Raft(msg) = payload else {
            return;
        };
        let now = env.local(p);
        if let Some(node) = self.slots.get_mut(p).and_then(|s| s.node.as_mut()) {
            node.handle_message(now, id_of(from), msg);
        }
        self.drain(env, p);
    }

    fn timeout(&mut self, env: &mut Env<'_>, p: usize) {
        let now = env.local(p);
        let every = self.propose_every;
        let n = self.slots.len();
        let Some(slot) = self.slots.get_mut(p) else {
            return;
        };
        let Some(node) = slot.node.as_mut() else {
            return;
        };
        if slot.next_propose.is_some_and(|t| t <= now) {
            if !backlogged(&self.checker, self.compacted, n, node.last_log_index()) {
                self.next_command = self.next_command.saturating_add(1);
                let _ = node.propose(now, self.next_command);
            }
            slot.next_propose = Some(now.saturating_add(every));
        }
        if node.poll_timeout().is_some_and(|t| t <= now) {
            node.handle_timeout(now);
        }
        self.drain(env, p);
    }

    fn campaign(&mut self, env: &mut Env<'_>, p: usize) -> Result<(), String> {
        let now = env.local(p);
        let node = self.slots.get_mut(p).and_then(|s| s.node.as_mut());
        let refused = node.ok_or("crashed")?.campaign(now).err();
        self.drain(env, p);
        refused.map_or(Ok(()), |e| Err(e.to_string()))
    }

    fn deadline(&self, p: usize) -> Option<Instant> {
        let slot = self.slots.get(p)?;
        let node = slot.node.as_ref()?;
        match (node.poll_timeout(), slot.next_propose) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn next_timer(&self, p: usize) -> Option<(&'static str, Instant)> {
        let node = self.slots.get(p)?.node.as_ref()?;
        node.next_timer().map(|(k, at)| (timer_label(k), at))
    }

    fn timers(&self, p: usize) -> (Option<Instant>, Option<(&'static str, Instant)>) {
        let Some((slot, node)) = self
            .slots
            .get(p)
            .and_then(|s| s.node.as_ref().map(|n| (s, n)))
        else {
            return (None, None);
        };
        let next = node.next_timer();
        let deadline = match (next.map(|(_, at)| at), slot.next_propose) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        (deadline, next.map(|(k, at)| (timer_label(k), at)))
    }

    fn crash(&mut self, _env: &mut Env<'_>, p: usize) {
        if let Some(slot) = self.slots.get_mut(p) {
            slot.node = None;
            slot.next_propose = None;
        }
    }

    fn restart(&mut self, env: &mut Env<'_>, p: usize) {
        if let Some(slot) = self.slots.get_mut(p) {
            slot.incarnation = slot.incarnation.saturating_add(1);
        }
        self.checker.observe_restart(id_of(p));
        self.boot(p);
        self.drain(env, p);
    }

    fn effective_config(&self, c: &mut crate::scenario::AlgoConfig) {
        use crate::units::Ms;
        let b = &self.base;
        c.election_timeout_ms = Some(Ms(b.election_timeout));
        c.election_timeout_max_ms = Some(Ms(b
            .election_timeout_max
            .unwrap_or(b.election_timeout.saturating_mul(2))));
        c.heartbeat_interval_ms = Some(Ms(b.heartbeat_interval));
        c.pre_vote = Some(b.pre_vote);
        c.check_quorum = Some(b.check_quorum);
        c.propose_interval_ms = Some(Ms(self.propose_every));
        c.leader_lease = Some(b.leader_lease);
        c.leader_lease_drift_ppm = Some(b.max_drift_ppm);
    }

    fn is_leader(&self, p: usize) -> bool {
        self.slots
            .get(p)
            .and_then(|s| s.node.as_ref())
            .is_some_and(RaftNode::is_acting_leader)
    }

    fn info(&self, p: usize) -> NodeInfo {
        let Some(slot) = self.slots.get(p) else {
            return NodeInfo::default();
        };
        let Some(node) = slot.node.as_ref() else {
            return NodeInfo {
                role: SimRole::Crashed,
                term: Some(slot.durable.term),
                log_len: Some(
                    slot.durable
                        .compacted_index
                        .saturating_add(slot.durable.log.len() as u64),
                ),
                log: Some(log_tail(slot.durable.compacted_index, &slot.durable.log)),
                ..NodeInfo::default()
            };
        };
        NodeInfo {
            role: role_of(node.role()),
            term: Some(node.term()),
            leader: node.leader_id().map(|l| l.0),
            next_timer: self.next_timer(p),
            log_len: Some(node.last_log_index()),
            commit: Some(node.commit_index()),
            log: Some(log_tail(node.compacted_index(), node.log())),
            ..NodeInfo::default()
        }
    }

    fn set_log_compaction(&mut self, every: u64) {
        self.compact_every = every;
        self.set_compaction_point(self.compacted);
    }

    fn records(&self) -> usize {
        let logs: usize = self
            .slots
            .iter()
            .map(|s| s.durable.log.len() + s.node.as_ref().map_or(0, |n| n.log().len()))
            .sum();
        logs + self.checker.records()
    }

    fn fault(&mut self, env: &mut Env<'_>, fault: &Fault) -> bool {
        let Fault::Propose { node, command } = fault else {
            return false;
        };
        let p = index_of(*node);
        let now = env.local(p);
        let Some(slot) = self.slots.get_mut(p) else {
            return false;
        };
        match slot.node.as_mut().map(|n| n.propose(now, *command)) {
            Some(Ok(index)) => env.node(p, NodeEvent::Proposed { value: index }),
            Some(Err(_)) => env.node(
                p,
                NodeEvent::ProposalRefused {
                    reason: RefusalCause::NotLeader,
                },
            ),
            None => env.node(
                p,
                NodeEvent::ProposalRefused {
                    reason: RefusalCause::Crashed,
                },
            ),
        }
        self.drain(env, p);
        true
    }
}
