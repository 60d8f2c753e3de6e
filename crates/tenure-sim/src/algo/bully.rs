//! Drives [`BullyNode`]s; the highest epoch each node persisted survives its crashes.

use super::seed::split;
use super::{Adapter, Env, NodeInfo, id_of, index_of};
use crate::event::{NodeEvent, Role as SimRole, StepDownCause};
use crate::message::Payload;
use crate::scenario::{Scenario, ScenarioError};
use tenure::Instant;
use tenure::bully::{
    BullyConfig, BullyEvent, BullyNode, BullyOutput, BullyPersisted, BullyTimer, Role,
};

#[derive(Clone)]
struct Slot {
    node: Option<BullyNode>,
    durable: BullyPersisted,
    incarnation: u64,
}

/// The Bully world's machines.
#[derive(Clone)]
pub(crate) struct BullyAdapter {
    base: BullyConfig,
    seed: u64,
    slots: Vec<Slot>,
}

impl BullyAdapter {
    pub(crate) fn new(s: &Scenario) -> Result<Self, ScenarioError> {
        let mut base = BullyConfig::default();
        let c = &s.config;
        if let Some(v) = c.heartbeat_interval_ms {
            base.heartbeat_interval = v.duration();
        }
        if let Some(v) = c.failure_timeout_ms {
            base.failure_timeout = v.duration();
        }
        if let Some(v) = c.answer_timeout_ms {
            base.answer_timeout = v.duration();
        }
        if let Some(v) = c.coordinator_timeout_ms {
            base.coordinator_timeout = v.duration();
        }
        let n = usize::try_from(s.nodes).unwrap_or(0);
        let adapter = BullyAdapter {
            base,
            seed: s.seed,
            slots: (0..n)
                .map(|_| Slot {
                    node: None,
                    durable: BullyPersisted::default(),
                    incarnation: 0,
                })
                .collect(),
        };
        adapter.config(0, 0).validate().map_err(|e| {
            ScenarioError::Invalid(format!(
                "bully config: {}",
                s.config
                    .config_words(&[], |c| tenure::config_words::bully(&e, c))
            ))
        })?;
        Ok(adapter)
    }

    fn config(&self, p: usize, incarnation: u64) -> BullyConfig {
        let mut c = self.base.clone();
        c.id = id_of(p);
        c.peers = (0..self.slots.len().max(1))
            .filter(|&q| q != p)
            .map(id_of)
            .collect();
        c.seed = split(self.seed, p, incarnation);
        c
    }

    fn boot(&mut self, p: usize) {
        let Some(inc) = self.slots.get(p).map(|s| s.incarnation) else {
            return;
        };
        let config = self.config(p, inc);
        if let Some(slot) = self.slots.get_mut(p) {
            slot.node = BullyNode::restart(config, slot.durable).ok();
        }
    }

    fn drain(&mut self, env: &mut Env<'_>, p: usize, was_leader: bool) {
        let Some(slot) = self.slots.get_mut(p) else {
            return;
        };
        let Some(node) = slot.node.as_mut() else {
            return;
        };
        let mut leader = was_leader;
        while let Some(out) = node.poll_output() {
            match out {
                BullyOutput::Persist(state) => slot.durable = state,
                BullyOutput::Send { to, msg } => env.send(p, index_of(to), Payload::Bully(msg)),
                BullyOutput::Event(ev) => match ev {
                    BullyEvent::BecameCoordinator { epoch } => {
                        // A sitting coordinator re-announces with fresh epochs; count a
                        // leadership once.
                        if !leader {
                            env.node(p, NodeEvent::BecameLeader { value: epoch });
                        }
                        leader = true;
                    }
                    BullyEvent::SteppedDown { epoch, .. } => {
                        leader = false;
                        env.node(
                            p,
                            NodeEvent::SteppedDown {
                                value: epoch,
                                reason: StepDownCause::HigherCoordinator,
                            },
                        );
                    }
                    BullyEvent::CoordinatorChanged { coordinator, .. } => {
                        env.node(
                            p,
                            NodeEvent::CoordinatorChanged {
                                value: coordinator.0,
                            },
                        );
                    }
                    BullyEvent::ElectionStarted { epoch } => {
                        env.node(p, NodeEvent::ElectionStarted { value: epoch });
                    }
                },
            }
        }
    }
}

impl Adapter for BullyAdapter {
    fn clone_box(&self) -> Box<dyn Adapter> {
        Box::new(self.clone())
    }

    fn into_machines(self: Box<Self>) -> super::Machines {
        super::Machines::Other(self)
    }

    fn start(&mut self, env: &mut Env<'_>, p: usize) {
        self.boot(p);
        self.drain(env, p, false);
    }

    fn deliver(&mut self, env: &mut Env<'_>, p: usize, from: usize, payload: Payload) {
        let Payload::Bully(msg) = payload else {
            return;
        };
        let now = env.local(p);
        let was = self.is_leader(p);
        if let Some(node) = self.slots.get_mut(p).and_then(|s| s.node.as_mut()) {
            node.handle_message(now, id_of(from), msg);
        }
        self.drain(env, p, was);
    }

    fn timeout(&mut self, env: &mut Env<'_>, p: usize) {
        let now = env.local(p);
        let was = self.is_leader(p);
        if let Some(node) = self.slots.get_mut(p).and_then(|s| s.node.as_mut()) {
            node.handle_timeout(now);
        }
        self.drain(env, p, was);
    }

    fn campaign(&mut self, env: &mut Env<'_>, p: usize) -> Result<(), String> {
        let now = env.local(p);
        let was = self.is_leader(p);
        let node = self.slots.get_mut(p).and_then(|s| s.node.as_mut());
        node.ok_or("crashed")?.start_election(now);
        self.drain(env, p, was);
        Ok(())
    }

    fn deadline(&self, p: usize) -> Option<Instant> {
        self.slots.get(p)?.node.as_ref()?.poll_timeout()
    }

    fn next_timer(&self, p: usize) -> Option<(&'static str, Instant)> {
        let node = self.slots.get(p)?.node.as_ref()?;
        node.next_timer().map(|(k, at)| {
            let label = match k {
                BullyTimer::Heartbeat => "Heartbeat",
                BullyTimer::FailureDetector => "FailureDetector",
                BullyTimer::AwaitAnswer => "AwaitAnswer",
                BullyTimer::AwaitCoordinator => "AwaitCoordinator",
            };
            (label, at)
        })
    }

    fn crash(&mut self, _env: &mut Env<'_>, p: usize) {
        if let Some(slot) = self.slots.get_mut(p) {
            slot.node = None;
        }
    }

    fn restart(&mut self, env: &mut Env<'_>, p: usize) {
        if let Some(slot) = self.slots.get_mut(p) {
            slot.incarnation = slot.incarnation.saturating_add(1);
        }
        self.boot(p);
        self.drain(env, p, false);
    }

    fn effective_config(&self, c: &mut crate::scenario::AlgoConfig) {
        use crate::units::Ms;
        let b = &self.base;
        c.heartbeat_interval_ms = Some(Ms(b.heartbeat_interval));
        c.failure_timeout_ms = Some(Ms(b.failure_timeout));
        c.answer_timeout_ms = Some(Ms(b.answer_timeout));
        c.coordinator_timeout_ms = Some(Ms(b.coordinator_timeout));
    }

    fn is_leader(&self, p: usize) -> bool {
        self.slots
            .get(p)
            .and_then(|s| s.node.as_ref())
            .is_some_and(|n| n.role() == Role::Coordinator)
    }

    fn info(&self, p: usize) -> NodeInfo {
        let Some(slot) = self.slots.get(p) else {
            return NodeInfo::default();
        };
        let Some(node) = slot.node.as_ref() else {
            return NodeInfo {
                role: SimRole::Crashed,
                term: Some(slot.durable.epoch),
                ..NodeInfo::default()
            };
        };
        NodeInfo {
            role: match node.role() {
                Role::Follower => SimRole::Follower,
                Role::Candidate => SimRole::Candidate,
                Role::Coordinator => SimRole::Coordinator,
            },
            term: Some(node.epoch()),
            leader: node.coordinator().map(|c| c.0),
            next_timer: self.next_timer(p),
            ..NodeInfo::default()
        }
    }
}

/// Bully's registration. It promises only liveness: under a partition each side may elect
/// a coordinator (rule 7), which shows as a split-brain window, not a violation.
pub(crate) const SPEC: super::AlgorithmSpec = super::AlgorithmSpec {
    name: "bully",
    family: "bully",
    title: "Bully",
    help: "the Bully algorithm (Garcia-Molina 1982): the highest live id coordinates; \
           promises only liveness",
    config_keys: &[
        "heartbeat_interval_ms",
        "failure_timeout_ms",
        "answer_timeout_ms",
        "coordinator_timeout_ms",
    ],
    promises: &[crate::checker::InvariantKind::Liveness],
    extra_procs: &[],
    own_faults: &[],
    build: |s| Ok(Box::new(BullyAdapter::new(s)?)),
    liveness_bound_ms: |_| 3_000,
    keeps_premise: super::no_premise,
    messages_per_second: |s| {
        use crate::budget::{ms_or, rate};
        let (c, d) = (&s.config, BullyConfig::default());
        let n = s.nodes.max(1);
        let peers = n.saturating_sub(1);
        let hb = ms_or(c.heartbeat_interval_ms, d.heartbeat_interval.as_millis());
        let answer = ms_or(c.answer_timeout_ms, d.answer_timeout.as_millis());
        let heartbeats = peers.saturating_mul(rate(hb));
        let rounds = n
            .saturating_mul(peers)
            .saturating_mul(2)
            .saturating_mul(rate(answer));
        heartbeats.saturating_add(rounds)
    },
    heartbeat: |s| {
        s.config
            .heartbeat_interval_ms
            .map_or(BullyConfig::default().heartbeat_interval, |m| m.duration())
    },
};
