//! A small Raft test cluster: nodes, an in-flight message list, partitions, crash/restart
//! from the persisted state, and invariant checks on every output (tests only).
//!
//! The full simulator lives in tenure-sim; this harness only serves the core's own tests.
#![allow(
    dead_code,
    unreachable_pub,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

pub mod format;

use std::collections::{BTreeMap, BTreeSet};
use tenure::raft::{
    Entry, Message, PersistentState, RaftConfig, RaftEvent, RaftNode, RaftOutput, RaftTimer, Role,
};
use tenure::{Duration, Instant, NodeId};

/// A message on the wire.
#[derive(Clone, Debug)]
pub struct Flight {
    pub from: NodeId,
    pub to: NodeId,
    pub msg: Message,
    /// When the timed driver delivers it; the scripted driver ignores it.
    pub deliver_at: Instant,
}

/// A cluster of Raft nodes with checks of the Raft safety properties.
pub struct Cluster {
    pub now: Instant,
    pub configs: BTreeMap<NodeId, RaftConfig>,
    /// `None` while crashed.
    pub nodes: BTreeMap<NodeId, Option<RaftNode>>,
    /// What each node made durable, by applying its `Persist` outputs in order.
    pub durable: BTreeMap<NodeId, PersistentState>,
    pub inflight: Vec<Flight>,
    /// Blocked directed links (from, to).
    pub blocked: BTreeSet<(NodeId, NodeId)>,
    /// Election safety (Raft §5.2): leaders seen per term.
    pub leaders: BTreeMap<u64, BTreeSet<NodeId>>,
    /// Entries known committed, by index (State Machine Safety, Raft §5.4.3).
    pub committed: BTreeMap<u64, Entry>,
    /// Highest term each node ever reported, across restarts.
    pub max_term: BTreeMap<NodeId, u64>,
    /// Every output, formatted, since the last `take_trace`.
    pub trace: Vec<String>,
    /// Largest number of outputs a single input produced.
    pub max_outputs_per_input: usize,
    /// The timed network of [`Cluster::run_until`]; `None` for scripted delivery.
    pub net: Option<Net>,
}

/// A seeded network: latency drawn from `[min, max)`, loss in percent.
pub struct Net {
    pub rng: tenure::Rng,
    pub min_latency: Duration,
    pub max_latency: Duration,
    pub loss_percent: u64,
}

impl Cluster {
    /// `n` nodes with ids 1..=n; `tweak` adjusts each node's config (seed = id by default).
    pub fn new(n: u64, tweak: impl Fn(&mut RaftConfig)) -> Self {
        let ids: Vec<NodeId> = (1..=n).map(NodeId).collect();
        let mut cluster = Cluster {
            now: Instant::ZERO,
            configs: BTreeMap::new(),
            nodes: BTreeMap::new(),
            durable: BTreeMap::new(),
            inflight: Vec::new(),
            blocked: BTreeSet::new(),
            leaders: BTreeMap::new(),
            committed: BTreeMap::new(),
            max_term: BTreeMap::new(),
            trace: Vec::new(),
            max_outputs_per_input: 0,
            net: None,
        };
        for id in &ids {
            let mut config = RaftConfig {
                id: *id,
                peers: ids.iter().copied().filter(|p| p != id).collect(),
                election_timeout: Duration::from_millis(100),
                heartbeat_interval: Duration::from_millis(30),
                pre_vote: false,
                check_quorum: false,
                max_entries_per_append: 8,
                seed: id.0,
                ..RaftConfig::default()
            };
            tweak(&mut config);
            let node = RaftNode::new(config.clone()).expect("valid config");
            cluster.configs.insert(*id, config);
            cluster.nodes.insert(*id, Some(node));
            cluster.durable.insert(*id, PersistentState::default());
        }
        // Arm every node's first election timeout at t = 0.
        for id in ids {
            cluster.with_node(id, |node, now| node.handle_timeout(now));
        }
        cluster
    }

    pub fn ids(&self) -> Vec<NodeId> {
        self.nodes.keys().copied().collect()
    }

    pub fn node(&self, id: NodeId) -> Option<&RaftNode> {
        self.nodes.get(&id).and_then(|n| n.as_ref())
    }

    /// Runs `f` on a live node at the current time, then drains and checks its outputs.
    pub fn with_node<R>(
        &mut self,
        id: NodeId,
        f: impl FnOnce(&mut RaftNode, Instant) -> R,
    ) -> Option<R> {
        let now = self.now;
        let node = self.nodes.get_mut(&id)?.as_mut()?;
        let r = f(node, now);
        self.drain(id);
        Some(r)
    }

    /// Pulls every output of `id`, applying `Persist` to its durable state, queueing `Send`
    /// and checking the invariants each output must respect.
    pub fn drain(&mut self, id: NodeId) {
        let mut count = 0;
        loop {
            let Some(node) = self.nodes.get_mut(&id).and_then(|n| n.as_mut()) else {
                return;
            };
            let Some(out) = node.poll_output() else { break };
            count += 1;
            self.trace.push(format!("{id}: {}", format::output(&out)));
            match out {
                RaftOutput::Persist(op) => self.durable.get_mut(&id).unwrap().apply(&op),
                RaftOutput::Send { to, msg } => {
                    self.check_send_is_durable(id, to, &msg);
                    let deliver_at = match &mut self.net {
                        Some(net) => {
                            self.now + net.rng.uniform_duration(net.min_latency, net.max_latency)
                        }
                        None => self.now,
                    };
                    self.inflight.push(Flight {
                        from: id,
                        to,
                        msg,
                        deliver_at,
                    });
                }
                RaftOutput::Event(event) => self.check_event(id, event),
            }
        }
        self.max_outputs_per_input = self.max_outputs_per_input.max(count);
        let node = self.node(id).unwrap();
        assert_eq!(
            self.durable[&id],
            node.persistent_state(),
            "{id}: durable state differs from the node's once drained"
        );
        let term = node.term();
        let max = self.max_term.entry(id).or_insert(0);
        assert!(term >= *max, "{id}: term went down from {max} to {term}");
        *max = term;
    }

    /// design rule 6 / S11: whatever a message depends on is durable before it leaves.
    fn check_send_is_durable(&self, id: NodeId, to: NodeId, msg: &Message) {
        let d = &self.durable[&id];
        let pre_vote = matches!(msg, Message::RequestVote { pre_vote: true, .. });
        if !pre_vote && !matches!(msg, Message::RequestVoteResponse { pre_vote: true, .. }) {
            assert!(
                d.term >= msg.term(),
                "{id}: sent term {} before persisting it",
                msg.term()
            );
        }
        match msg {
            Message::RequestVoteResponse {
                granted: true,
                pre_vote: false,
                term,
            } => {
                assert_eq!(
                    (d.term, d.voted_for),
                    (*term, Some(to)),
                    "{id}: vote not durable"
                );
            }
            Message::RequestVote {
                pre_vote: false,
                term,
                ..
            } => {
                assert_eq!(
                    (d.term, d.voted_for),
                    (*term, Some(id)),
                    "{id}: self-vote not durable"
                );
            }
            Message::AppendEntriesResponse {
                success: true,
                match_index,
                ..
            } => {
                assert!(
                    d.log.len() as u64 >= *match_index,
                    "{id}: acked entries not durable"
                );
            }
            _ => {}
        }
    }

    fn check_event(&mut self, id: NodeId, event: RaftEvent) {
        match event {
            RaftEvent::BecameLeader { term } => {
                let leaders = self.leaders.entry(term).or_default();
                leaders.insert(id);
                assert_eq!(
                    leaders.len(),
                    1,
                    "election safety (§5.2): term {term} has leaders {leaders:?}"
                );
                // Leader completeness (§5.4): every committed entry is in the new leader's log.
                let log = self.node(id).unwrap().log().to_vec();
                for (index, entry) in &self.committed {
                    assert_eq!(
                        log.get(*index as usize - 1),
                        Some(entry),
                        "leader completeness (§5.4): {id} leads term {term} without committed index {index}"
                    );
                }
            }
            RaftEvent::Committed { index } => {
                let log = self.node(id).unwrap().log().to_vec();
                for i in 1..=index {
                    let entry = log[i as usize - 1];
                    let known = *self.committed.entry(i).or_insert(entry);
                    assert_eq!(
                        known, entry,
                        "state machine safety (§5.4.3): {id} committed a different entry at {i}"
                    );
                }
            }
            _ => {}
        }
    }

    /// Delivers one in-flight message (by position) if its link is open and `to` is alive.
    /// Returns whether it was delivered.
    pub fn deliver_at(&mut self, pos: usize) -> bool {
        let flight = self.inflight.remove(pos);
        if self.blocked.contains(&(flight.from, flight.to)) || self.node(flight.to).is_none() {
            self.trace.push(format!(
                "{}->{}: dropped {}",
                flight.from,
                flight.to,
                format::message(&flight.msg)
            ));
            return false;
        }
        self.trace.push(format!(
            "{}->{}: {}",
            flight.from,
            flight.to,
            format::message(&flight.msg)
        ));
        let (from, msg) = (flight.from, flight.msg);
        self.with_node(flight.to, |node, now| node.handle_message(now, from, msg));
        true
    }

    /// Delivers everything in flight now, in order (one round; replies stay in flight).
    pub fn deliver_round(&mut self) {
        let n = self.inflight.len();
        for _ in 0..n {
            self.deliver_at(0);
        }
    }

    /// Delivers rounds until nothing is in flight (bounded).
    pub fn stabilize(&mut self) {
        for _ in 0..100 {
            if self.inflight.is_empty() {
                return;
            }
            self.deliver_round();
        }
        panic!("stabilize: messages still in flight after 100 rounds");
    }

    /// Advances time to `id`'s next deadline (if later than now) and fires its timers.
    pub fn fire_next_timer(&mut self, id: NodeId) {
        if let Some(at) = self.node(id).and_then(|n| n.poll_timeout()) {
            self.now = self.now.max(at);
        }
        self.with_node(id, |node, now| node.handle_timeout(now));
    }

    /// Advances time to `id`'s `key` timer (if armed and later than now) and fires every
    /// timer of `id` that is due. Returns false if the timer is not armed.
    pub fn fire(&mut self, id: NodeId, key: RaftTimer) -> bool {
        let Some(at) = self.node(id).and_then(|n| n.timer(key)) else {
            return false;
        };
        self.now = self.now.max(at);
        self.with_node(id, |node, now| node.handle_timeout(now));
        true
    }

    /// Advances time by `d` without firing anything.
    pub fn advance(&mut self, d: Duration) {
        self.now = self.now + d;
    }

    /// Blocks every link between different groups, both ways.
    pub fn partition(&mut self, groups: &[Vec<NodeId>]) {
        self.blocked.clear();
        for (i, a) in groups.iter().enumerate() {
            for (j, b) in groups.iter().enumerate() {
                if i != j {
                    for x in a {
                        for y in b {
                            self.blocked.insert((*x, *y));
                        }
                    }
                }
            }
        }
    }

    pub fn heal(&mut self) {
        self.blocked.clear();
    }

    /// Crashes `id`: volatile state and its undelivered outputs are lost.
    pub fn crash(&mut self, id: NodeId) {
        self.nodes.insert(id, None);
        self.trace.push(format!("{id}: crashed"));
    }

    /// Restarts `id` from what it made durable.
    pub fn restart(&mut self, id: NodeId) {
        let node = RaftNode::restart(self.configs[&id].clone(), self.durable[&id].clone())
            .expect("valid config");
        self.nodes.insert(id, Some(node));
        self.trace.push(format!("{id}: restarted"));
        self.with_node(id, |node, now| node.handle_timeout(now));
    }

    /// The unique leader of the highest term that has one, among live nodes.
    pub fn leader(&self) -> Option<NodeId> {
        self.nodes
            .values()
            .flatten()
            .filter(|n| n.role() == Role::Leader)
            .max_by_key(|n| n.term())
            .map(|n| n.id())
    }

    /// A leader that a quorum of live nodes (itself included) follows in its term.
    pub fn stable_leader(&self) -> Option<NodeId> {
        let leader = self.node(self.leader()?)?;
        let followers = self
            .nodes
            .values()
            .flatten()
            .filter(|n| n.term() == leader.term() && n.leader_id() == Some(leader.id()))
            .count();
        (followers >= leader.config().quorum()).then_some(leader.id())
    }

    /// Timed run: delivers messages at their time (dropping `loss_percent` of them and any
    /// on a blocked link) and fires node timers, in time order, until `end` or `stop`.
    /// Returns the time `stop` first held. The trace is not kept.
    pub fn run_until(&mut self, end: Instant, stop: impl Fn(&Cluster) -> bool) -> Option<Instant> {
        loop {
            self.trace.clear();
            if stop(self) {
                return Some(self.now);
            }
            let next_msg = self
                .inflight
                .iter()
                .enumerate()
                .min_by_key(|(_, f)| f.deliver_at)
                .map(|(i, f)| (f.deliver_at, i));
            let next_timer = self
                .nodes
                .iter()
                .filter_map(|(id, n)| Some((n.as_ref()?.poll_timeout()?, *id)))
                .min();
            let msg_first = match (next_msg, next_timer) {
                (None, None) => return None,
                (Some((m, _)), Some((t, _))) => m <= t,
                (m, _) => m.is_some(),
            };
            let at = if msg_first {
                next_msg.unwrap().0
            } else {
                next_timer.unwrap().0
            };
            if at > end {
                self.now = self.now.max(end);
                return None;
            }
            self.now = self.now.max(at);
            if msg_first {
                let pos = next_msg.unwrap().1;
                let lost = match &mut self.net {
                    Some(net) => net.rng.below(100) < net.loss_percent,
                    None => false,
                };
                if lost {
                    self.inflight.remove(pos);
                } else {
                    self.deliver_at(pos);
                }
            } else {
                let id = next_timer.unwrap().1;
                self.with_node(id, |node, now| node.handle_timeout(now));
            }
        }
    }

    /// Enables the timed network.
    pub fn with_net(mut self, seed: u64, min_ms: u64, max_ms: u64, loss_percent: u64) -> Self {
        self.net = Some(Net {
            rng: tenure::Rng::from_seed(seed),
            min_latency: Duration::from_millis(min_ms),
            max_latency: Duration::from_millis(max_ms),
            loss_percent,
        });
        self
    }

    pub fn take_trace(&mut self) -> Vec<String> {
        std::mem::take(&mut self.trace)
    }
}
