//! A tiny in-memory network of Bully nodes for the interaction scripts, S14 and the
//! property tests: crash/restart with persisted state, directed partitions, per-message
//! latency from a seeded PRNG, and a transcript of everything that happened.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use tenure::bully::{
    BullyConfig, BullyEvent, BullyMessage, BullyNode, BullyOutput, BullyPersisted, Role,
    StepDownReason,
};
use tenure::{Duration, Instant, NodeId, Rng};

/// A message on the wire.
#[derive(Clone, Debug)]
pub(crate) struct Envelope {
    pub(crate) from: NodeId,
    pub(crate) to: NodeId,
    pub(crate) msg: BullyMessage,
    pub(crate) deliver_at: Instant,
    seq: u64,
}

struct Slot {
    config: BullyConfig,
    /// `None` while crashed.
    node: Option<BullyNode>,
    /// What survives a crash: the last `Persist`.
    persisted: BullyPersisted,
}

/// One recorded output, with the node that produced it.
#[derive(Clone, Debug)]
pub(crate) struct Record {
    pub(crate) node: NodeId,
    pub(crate) output: BullyOutput,
}

pub(crate) struct Cluster {
    pub(crate) now: Instant,
    slots: BTreeMap<NodeId, Slot>,
    in_flight: Vec<Envelope>,
    blocked: BTreeSet<(NodeId, NodeId)>,
    /// Latency of each message, drawn from `[lo, hi)`; zero for the interaction scripts.
    latency: (Duration, Duration),
    rng: Rng,
    seq: u64,
    /// Drop the n-th (1-based) message that this node sends from now on.
    drop_nth: Option<(NodeId, usize)>,
    /// Every output of every node, in order.
    pub(crate) history: Vec<Record>,
    /// Human-readable lines since the last `take_transcript`.
    transcript: String,
}

impl Cluster {
    /// Nodes `ids`, each configured like `base` with the others as peers.
    pub(crate) fn new(ids: &[u64], base: &BullyConfig, seed: u64) -> Self {
        let slots = ids
            .iter()
            .map(|&id| {
                let config = BullyConfig {
                    id: NodeId(id),
                    peers: ids
                        .iter()
                        .filter(|&&p| p != id)
                        .map(|&p| NodeId(p))
                        .collect(),
                    seed: seed ^ id.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                    ..base.clone()
                };
                let node = BullyNode::new(config.clone()).expect("valid config");
                let slot = Slot {
                    config,
                    node: Some(node),
                    persisted: BullyPersisted::default(),
                };
                (NodeId(id), slot)
            })
            .collect();
        Cluster {
            now: Instant::ZERO,
            slots,
            in_flight: Vec::new(),
            blocked: BTreeSet::new(),
            latency: (Duration::ZERO, Duration::ZERO),
            rng: Rng::from_seed(seed),
            seq: 0,
            drop_nth: None,
            history: Vec::new(),
            transcript: String::new(),
        }
    }

    pub(crate) fn with_latency(mut self, lo: Duration, hi: Duration) -> Self {
        self.latency = (lo, hi);
        self
    }

    pub(crate) fn node(&self, id: u64) -> Option<&BullyNode> {
        self.slots.get(&NodeId(id)).and_then(|s| s.node.as_ref())
    }

    pub(crate) fn live(&self) -> impl Iterator<Item = &BullyNode> {
        self.slots.values().filter_map(|s| s.node.as_ref())
    }

    pub(crate) fn take_transcript(&mut self) -> String {
        std::mem::take(&mut self.transcript)
    }

    fn line(&mut self, s: impl AsRef<str>) {
        self.transcript.push_str(s.as_ref());
        self.transcript.push('\n');
    }

    // ----- Commands -----

    /// Fires node `id`'s next timer, moving time forward to its deadline if needed.
    pub(crate) fn tick(&mut self, id: u64) {
        let Some((timer, at)) = self.node(id).and_then(|n| n.next_timer()) else {
            self.line(format!("n{id}: no timer (crashed?)"));
            return;
        };
        self.now = self.now.max(at);
        self.line(format!("n{id}: {timer:?} fires at {}", self.now));
        self.timeout(NodeId(id));
    }

    pub(crate) fn start_election(&mut self, id: u64) {
        let now = self.now;
        if let Some(n) = self.slot_node(NodeId(id)) {
            n.start_election(now);
        }
        self.drain(NodeId(id), "");
    }

    /// Delivers every message now in flight, once, at the current time (latency ignored).
    /// Returns how many were in flight.
    pub(crate) fn deliver_all(&mut self) -> usize {
        let batch = std::mem::take(&mut self.in_flight);
        let count = batch.len();
        for env in batch {
            self.deliver(env);
        }
        count
    }

    /// Delivers rounds until nothing is in flight (at most `max_rounds`).
    pub(crate) fn stabilize(&mut self, max_rounds: usize) {
        for _ in 0..max_rounds {
            if self.deliver_all() == 0 {
                return;
            }
        }
        panic!("not stable after {max_rounds} rounds");
    }

    /// Drops every in-flight message from `from` to `to`.
    pub(crate) fn drop_link(&mut self, from: u64, to: u64) {
        let (from, to) = (NodeId(from), NodeId(to));
        let (dropped, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut self.in_flight)
            .into_iter()
            .partition(|e| e.from == from && e.to == to);
        self.in_flight = kept;
        for e in dropped {
            self.line(format!("{}->{} {} dropped", e.from, e.to, e.msg));
        }
    }

    /// Drops the `nth` (1-based) message `from` sends from now on.
    pub(crate) fn drop_nth_sent_by(&mut self, from: u64, nth: usize) {
        self.drop_nth = Some((NodeId(from), nth));
    }

    pub(crate) fn crash(&mut self, id: u64) {
        if let Some(slot) = self.slots.get_mut(&NodeId(id)) {
            slot.node = None;
        }
        self.line(format!("n{id} crashed"));
    }

    /// Rebuilds node `id` from its persisted state.
    pub(crate) fn restart(&mut self, id: u64) {
        let Some(slot) = self.slots.get_mut(&NodeId(id)) else {
            return;
        };
        let node = BullyNode::restart(slot.config.clone(), slot.persisted).expect("valid");
        slot.node = Some(node);
        let epoch = slot.persisted.epoch;
        self.line(format!("n{id} restarted with persisted epoch={epoch}"));
    }

    /// Blocks every link between different groups, both ways.
    pub(crate) fn partition(&mut self, groups: &[Vec<u64>]) {
        self.blocked.clear();
        for (i, a) in groups.iter().enumerate() {
            for (j, b) in groups.iter().enumerate() {
                if i != j {
                    for &x in a {
                        for &y in b {
                            self.blocked.insert((NodeId(x), NodeId(y)));
                        }
                    }
                }
            }
        }
    }

    pub(crate) fn heal(&mut self) {
        self.blocked.clear();
    }

    /// Runs timers and deliveries in time order until `until`.
    pub(crate) fn run_until(&mut self, until: Instant) {
        loop {
            let next_msg = self
                .in_flight
                .iter()
                .enumerate()
                .min_by_key(|(_, e)| (e.deliver_at, e.seq))
                .map(|(i, e)| (e.deliver_at, i));
            let next_timer = self
                .slots
                .iter()
                .filter_map(|(id, s)| Some((s.node.as_ref()?.poll_timeout()?, *id)))
                .min();
            match (next_msg, next_timer) {
                (Some((at, i)), t) if at <= until && t.is_none_or(|(tt, _)| at <= tt) => {
                    self.now = self.now.max(at);
                    let env = self.in_flight.swap_remove(i);
                    self.deliver(env);
                }
                (_, Some((at, id))) if at <= until => {
                    self.now = self.now.max(at);
                    self.timeout(id);
                }
                _ => break,
            }
        }
        self.now = self.now.max(until);
    }

    /// Runs until every live node agrees on the highest live id, or `limit` passes.
    /// Returns the time of convergence.
    pub(crate) fn run_until_converged(&mut self, limit: Instant) -> Option<Instant> {
        let step = Duration::from_millis(1);
        while self.now < limit {
            if self.converged().is_some() {
                return Some(self.now);
            }
            let next = self.now + step;
            self.run_until(next);
        }
        self.converged().map(|_| self.now)
    }

    // ----- Observations -----

    /// The live nodes acting as coordinator.
    pub(crate) fn coordinators(&self) -> Vec<NodeId> {
        self.live()
            .filter(|n| n.role() == Role::Coordinator)
            .map(|n| n.id())
            .collect()
    }

    /// `Some(top)` when the highest live id coordinates and every live node follows it in
    /// the same epoch.
    pub(crate) fn converged(&self) -> Option<NodeId> {
        let top = self.live().map(|n| n.id()).max()?;
        let epoch = self.node(top.0)?.coordinator_epoch();
        let agree = self
            .live()
            .all(|n| n.coordinator() == Some(top) && n.coordinator_epoch() == epoch);
        (agree && self.node(top.0)?.role() == Role::Coordinator).then_some(top)
    }

    pub(crate) fn status(&self) -> String {
        let mut s = String::new();
        for (id, slot) in &self.slots {
            let Some(n) = &slot.node else {
                writeln!(
                    s,
                    "{id}: crashed (persisted epoch={})",
                    slot.persisted.epoch
                )
                .unwrap();
                continue;
            };
            let coordinator = match (n.coordinator(), n.coordinator_epoch()) {
                (Some(c), Some(e)) => format!("{c}@{e}"),
                _ => "none".to_string(),
            };
            let timer = match n.next_timer() {
                Some((t, at)) => format!("{t:?} {at}"),
                None => "none".to_string(),
            };
            writeln!(
                s,
                "{id}: {:?} coordinator={coordinator} epoch={} timer={timer}",
                n.role(),
                n.epoch()
            )
            .unwrap();
        }
        s
    }

    // ----- Plumbing -----

    fn slot_node(&mut self, id: NodeId) -> Option<&mut BullyNode> {
        self.slots.get_mut(&id).and_then(|s| s.node.as_mut())
    }

    fn timeout(&mut self, id: NodeId) {
        let now = self.now;
        if let Some(n) = self.slot_node(id) {
            n.handle_timeout(now);
        }
        self.drain(id, "");
    }

    fn deliver(&mut self, env: Envelope) {
        let head = format!("{} <- {} {}", env.to, env.from, env.msg);
        if self.blocked.contains(&(env.from, env.to)) {
            self.line(format!("{head} dropped (partition)"));
            return;
        }
        let now = self.now;
        let Some(n) = self.slot_node(env.to) else {
            self.line(format!("{head} dropped ({} is down)", env.to));
            return;
        };
        n.handle_message(now, env.from, env.msg);
        self.line(head);
        self.drain(env.to, "  ");
    }

    /// Drains node `id`'s outputs: records them, applies Persist, routes Sends, and checks
    /// that Persist precedes every announcement that depends on it.
    fn drain(&mut self, id: NodeId, indent: &str) {
        loop {
            let Some(out) = self.slot_node(id).and_then(|n| n.poll_output()) else {
                return;
            };
            self.history.push(Record {
                node: id,
                output: out,
            });
            match out {
                BullyOutput::Persist(p) => {
                    let slot = self.slots.get_mut(&id).expect("slot");
                    assert!(
                        p.epoch >= slot.persisted.epoch,
                        "{id}: persisted epoch went back"
                    );
                    slot.persisted = p;
                    self.line(format!("{indent}{id}: Persist epoch={}", p.epoch));
                }
                BullyOutput::Event(e) => self.line(format!("{indent}{id}: {}", show_event(&e))),
                BullyOutput::Send { to, msg } => {
                    if let BullyMessage::Coordinator { coordinator, epoch } = msg
                        && coordinator == id
                    {
                        let durable = self.slots[&id].persisted.epoch;
                        assert!(
                            durable >= epoch,
                            "{id} announced {epoch} with {durable} durable"
                        );
                    }
                    self.route(id, to, msg, indent);
                }
            }
        }
    }

    fn route(&mut self, from: NodeId, to: NodeId, msg: BullyMessage, indent: &str) {
        if let Some((who, n)) = self.drop_nth
            && who == from
        {
            if n <= 1 {
                self.drop_nth = None;
                self.line(format!("{indent}{from}->{to} {msg} (lost)"));
                return;
            }
            self.drop_nth = Some((who, n - 1));
        }
        let latency = self.rng.uniform_duration(self.latency.0, self.latency.1);
        self.seq += 1;
        self.in_flight.push(Envelope {
            from,
            to,
            msg,
            deliver_at: self.now + latency,
            seq: self.seq,
        });
        self.line(format!("{indent}{from}->{to} {msg}"));
    }
}

pub(crate) fn show_event(e: &BullyEvent) -> String {
    match e {
        BullyEvent::ElectionStarted { epoch } => format!("ElectionStarted epoch={epoch}"),
        BullyEvent::BecameCoordinator { epoch } => format!("BecameCoordinator epoch={epoch}"),
        BullyEvent::CoordinatorChanged { coordinator, epoch } => {
            format!("CoordinatorChanged {coordinator} epoch={epoch}")
        }
        BullyEvent::SteppedDown { epoch, reason } => {
            let reason = match reason {
                StepDownReason::HigherCoordinator { coordinator, epoch } => {
                    format!("HigherCoordinator {coordinator}@{epoch}")
                }
                StepDownReason::ElectionStarted => "ElectionStarted".to_string(),
                other => format!("{other:?}"),
            };
            format!("SteppedDown epoch={epoch} reason={reason}")
        }
    }
}
