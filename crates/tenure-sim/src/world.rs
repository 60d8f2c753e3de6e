//! The world: true time, an event queue ordered by (time, sequence), the processes, the
//! network and the faults.
//!
//! # Driving a world
//! - [`World::new`] builds it from a [`Scenario`] and starts every process at true time 0.
//! - [`World::step`] processes one event; [`World::run_until`] processes every event up to a
//!   true time; [`World::run`] runs to the scenario's end.
//! - [`World::inject`] applies a fault now, as a scheduled one would be.
//! - [`World::snapshot`], [`World::events_since`], [`World::metrics`],
//!   [`World::violations`] and [`World::trace_hash`] read it.
//!
//! Every random choice derives from the scenario's seed, and ties in time are broken by the
//! order events were scheduled, so a scenario replays identically.

use crate::algo::{Adapter, BullyAdapter, Env, LeaseAdapter, Note, RaftAdapter};
use crate::checker::{InvariantKind, Violation, keeps_lease_premise, promises};
use crate::clock::SimClock;
use crate::fault::{Fault, TimedFault};
use crate::message::Payload;
use crate::metrics::{Metrics, Tracker};
use crate::network::{LinkParams, Network, SendFate};
use crate::process::Proc;
use crate::scenario::{Algorithm, Scenario, ScenarioError, validate_fault};
use crate::snapshot::{Dropped, InFlight, MessageDetail, NodeView, Snapshot, Status, TimerView};
use crate::trace::{DEFAULT_LOG_CAPACITY, DropReason, EventLog, TraceEvent, TraceKind};
use crate::units::{Ms, ms_to_us};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};
use tenure::{Duration, Instant, NodeId};

/// Most violation records a world keeps (all are counted).
pub const MAX_VIOLATIONS: usize = 1000;
/// Most recently dropped messages a snapshot shows.
pub const RECENT_DROPS: usize = 64;

/// Why `inject` refused a fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FaultError {
    /// The fault names a process that does not exist, or does not apply to this algorithm.
    #[error("fault: {0}")]
    NotApplicable(String),
}

#[derive(Clone, Debug)]
struct Envelope {
    id: u64,
    from: usize,
    to: usize,
    sent: Instant,
    payload: Payload,
}

#[derive(Clone, Debug)]
enum Ev {
    Deliver(Envelope),
    Timer { p: usize, generation: u64 },
    Resume { p: usize, generation: u64 },
    Fault(Fault),
    OutageEnd { generation: u64 },
}

#[derive(Clone, Debug)]
struct Scheduled {
    at: Instant,
    /// 0 for ordinary events, 1 for faults: a fault applies after every other event due at
    /// its instant, which is exactly when [`World::inject`] applies one (see there).
    rank: u8,
    seq: u64,
    ev: Ev,
}

impl Scheduled {
    fn key(&self) -> (Instant, u8, u64) {
        (self.at, self.rank, self.seq)
    }
}

impl PartialEq for Scheduled {
    fn eq(&self, o: &Self) -> bool {
        self.key() == o.key()
    }
}
impl Eq for Scheduled {}
impl PartialOrd for Scheduled {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Scheduled {
    // Reversed: BinaryHeap is a max-heap, the earliest (time, rank, seq) must come out first.
    fn cmp(&self, o: &Self) -> Ordering {
        o.key().cmp(&self.key())
    }
}

#[derive(Clone, Debug, Default)]
struct ProcState {
    status: ProcStatus,
    timer_at: Option<Instant>,
    timer_gen: u64,
    pause_gen: u64,
    inbox: VecDeque<Envelope>,
    held: Vec<(usize, Payload)>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum ProcStatus {
    #[default]
    Up,
    Paused(Instant),
    Crashed,
}

/// Receives every trace event as it is recorded.
pub type TraceSink = Box<dyn FnMut(&TraceEvent)>;

/// Holds the trace sink; a cloned world starts without one (a sink writes one run's file).
#[derive(Default)]
struct SinkSlot(Option<TraceSink>);

impl Clone for SinkSlot {
    fn clone(&self) -> Self {
        SinkSlot(None)
    }
}

/// A simulated world built from a [`Scenario`].
///
/// `clone()` copies the whole world (machines, clocks, network, queue, checker, metrics and
/// the recent-event log, but not a trace sink): a checkpoint that continues exactly as the
/// original would, for scrubbing back through a run without replaying it from the start.
#[derive(Clone)]
pub struct World {
    scenario: Scenario,
    now: Instant,
    end: Instant,
    seq: u64,
    queue: BinaryHeap<Scheduled>,
    names: Vec<Proc>,
    procs: Vec<ProcState>,
    clocks: Vec<SimClock>,
    nodes: usize,
    network: Network,
    adapter: Box<dyn Adapter>,
    log: EventLog,
    sink: SinkSlot,
    tracker: Tracker,
    /// What the algorithm promises; `SplitBrain` leaves once a fault breaks the lease premise.
    promised: Vec<InvariantKind>,
    violations: Vec<Violation>,
    violation_counts: BTreeMap<InvariantKind, u64>,
    dropped: VecDeque<Dropped>,
    next_msg: u64,
    outage_gen: u64,
    out_buf: Vec<(usize, usize, Payload)>,
    note_buf: Vec<Note>,
    injected: Vec<TimedFault>,
}

impl core::fmt::Debug for World {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("World")
            .field("algorithm", &self.scenario.algorithm)
            .field("now", &self.now)
            .field("events", &self.log.len())
            .finish_non_exhaustive()
    }
}

impl World {
    /// Builds and starts the world of `scenario` (validated first).
    pub fn new(scenario: &Scenario) -> Result<World, ScenarioError> {
        scenario.validate()?;
        let params: LinkParams = scenario.network.params().map_err(ScenarioError::Invalid)?;
        let nodes = usize::try_from(scenario.nodes).unwrap_or(0);
        let adapter: Box<dyn Adapter> = match scenario.algorithm {
            Algorithm::Raft => Box::new(RaftAdapter::new(scenario)?),
            Algorithm::Bully => Box::new(BullyAdapter::new(scenario)?),
            Algorithm::LeaseFencing | Algorithm::LeaseUnfenced => {
                Box::new(LeaseAdapter::new(scenario)?)
            }
        };
        let mut names: Vec<Proc> = (1..=scenario.nodes)
            .map(|i| Proc::Node(NodeId(i)))
            .collect();
        if scenario.algorithm.is_lease() {
            names.push(Proc::Store);
            names.push(Proc::Resource);
        }
        let count = names.len();
        let mut world = World {
            scenario: scenario.clone(),
            now: Instant::ZERO,
            end: scenario.duration_ms.instant(),
            seq: 0,
            queue: BinaryHeap::new(),
            procs: vec![ProcState::default(); count],
            clocks: vec![SimClock::new(); count],
            names,
            nodes,
            network: Network::new(scenario.seed, params),
            adapter,
            log: EventLog::new(DEFAULT_LOG_CAPACITY),
            sink: SinkSlot::default(),
            tracker: Tracker::default(),
            promised: promises(scenario.algorithm).to_vec(),
            violations: Vec::new(),
            violation_counts: BTreeMap::new(),
            dropped: VecDeque::new(),
            next_msg: 0,
            outage_gen: 0,
            out_buf: Vec::new(),
            note_buf: Vec::new(),
            injected: Vec::new(),
        };
        for tf in &scenario.faults {
            world.schedule(tf.at_ms.instant(), Ev::Fault(tf.fault.clone()));
        }
        for p in 0..count {
            world.call(p, |a, env| a.start(env, p));
        }
        world.account();
        Ok(world)
    }

    // ----- reading -----

    /// The scenario the world was built from.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Current true time.
    pub fn now(&self) -> Instant {
        self.now
    }

    /// The scenario's end (its `duration_ms`) in true time.
    pub fn end(&self) -> Instant {
        self.end
    }

    /// Metrics so far.
    pub fn metrics(&self) -> Metrics {
        let mut m = self.tracker.metrics.clone();
        m.fencing_token = self.adapter.fencing_token();
        m.events = self.log.len();
        m
    }

    /// Violations so far (the first [`MAX_VIOLATIONS`]).
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// How many violations of each kind, promised or not.
    pub fn violation_counts(&self) -> &BTreeMap<InvariantKind, u64> {
        &self.violation_counts
    }

    /// Whether any invariant the algorithm promises was violated (the CLI's exit code).
    pub fn failed(&self) -> bool {
        self.violations.iter().any(|v| v.promised)
    }

    /// The stable hash of every event so far (same natively and in wasm).
    pub fn trace_hash(&self) -> u64 {
        self.log.hash()
    }

    /// Events with `seq >= cursor` still in the bounded log, and the next cursor.
    pub fn events_since(&self, cursor: u64) -> (Vec<TraceEvent>, u64) {
        self.log.since(cursor)
    }

    /// Calls `sink` with every event from now on (for `--trace out.jsonl`).
    pub fn set_trace_sink(&mut self, sink: TraceSink) {
        self.sink = SinkSlot(Some(sink));
    }

    /// Nodes acting as leader now: up, not paused, believing they lead.
    pub fn leaders(&self) -> Vec<NodeId> {
        (0..self.nodes)
            .filter(|&p| self.acting_leader(p))
            .filter_map(|p| match self.names.get(p) {
                Some(Proc::Node(id)) => Some(*id),
                _ => None,
            })
            .collect()
    }

    fn acting_leader(&self, p: usize) -> bool {
        self.procs
            .get(p)
            .is_some_and(|s| s.status == ProcStatus::Up)
            && self.adapter.is_leader(p)
    }

    fn index_of(&self, proc: Proc) -> Option<usize> {
        self.names.iter().position(|n| *n == proc)
    }

    fn name(&self, p: usize) -> Proc {
        self.names.get(p).copied().unwrap_or(Proc::Store)
    }

    /// The world at this instant.
    pub fn snapshot(&self) -> Snapshot {
        let nodes = (0..self.names.len()).map(|p| self.node_view(p)).collect();
        let mut in_flight: Vec<InFlight> = self
            .queue
            .iter()
            .filter_map(|s| match &s.ev {
                Ev::Deliver(e) => Some(InFlight {
                    id: e.id,
                    from: self.name(e.from),
                    to: self.name(e.to),
                    kind: e.payload.label(),
                    value: e.payload.value(),
                    send_us: e.sent.as_micros(),
                    arrival_us: s.at.as_micros(),
                }),
                _ => None,
            })
            .collect();
        in_flight.sort_by_key(|m| (m.arrival_us, m.id));
        let env_out = &mut Vec::new();
        let env_notes = &mut Vec::new();
        let env_pause = &mut None;
        let env = Env {
            now: self.now,
            clocks: &self.clocks,
            out: env_out,
            notes: env_notes,
            pause: env_pause,
        };
        Snapshot {
            time_us: self.now.as_micros(),
            algorithm: self.scenario.algorithm,
            nodes,
            in_flight,
            dropped: self.dropped.iter().cloned().collect(),
            blocked: self
                .network
                .blocked()
                .map(|(a, b)| (self.name(a), self.name(b)))
                .collect(),
            store: self.adapter.store_view(&env),
            resource: self.adapter.resource_view(),
            metrics: self.metrics(),
            violations: self.violations.clone(),
        }
    }

    /// Message `id` while it is on the wire: its sender, receiver, times and every field of
    /// its payload. `None` once it was delivered or dropped (or for an id never sent).
    pub fn message(&self, id: u64) -> Option<MessageDetail> {
        self.queue.iter().find_map(|s| match &s.ev {
            Ev::Deliver(e) if e.id == id => Some(MessageDetail {
                id,
                from: self.name(e.from),
                to: self.name(e.to),
                kind: e.payload.label(),
                value: e.payload.value(),
                send_us: e.sent.as_micros(),
                arrival_us: s.at.as_micros(),
                payload: e.payload.clone(),
            }),
            _ => None,
        })
    }

    fn node_view(&self, p: usize) -> NodeView {
        let info = self.adapter.info(p);
        let clock = self.clocks.get(p).copied().unwrap_or_default();
        let to_true = |local: Instant| clock.true_time_of(self.now, local).as_micros();
        let status = match self.procs.get(p).map(|s| s.status) {
            Some(ProcStatus::Paused(_)) => Status::Paused,
            Some(ProcStatus::Crashed) => Status::Crashed,
            _ => Status::Up,
        };
        NodeView {
            id: self.name(p),
            role: info.role,
            term: info.term,
            token: info.token,
            leader: info.leader,
            status,
            clock_us: clock.read(self.now).as_micros(),
            lease_deadline_us: info.lease_deadline.map(to_true),
            next_timer: info.next_timer.map(|(kind, at)| TimerView {
                kind,
                deadline_us: to_true(at),
            }),
            log_len: info.log_len,
            commit: info.commit,
            log: info.log,
        }
    }

    // ----- running -----

    /// Events waiting in the queue: messages in flight, armed timers, pending faults.
    pub fn queue_len(&self) -> usize {
        self.queue.len()
    }

    /// Processes the next event; `false` if none is left.
    pub fn step(&mut self) -> bool {
        let Some(s) = self.queue.pop() else {
            return false;
        };
        self.now = self.now.max(s.at);
        match s.ev {
            Ev::Deliver(env) => self.deliver(env),
            Ev::Timer { p, generation } => self.fire_timer(p, generation),
            Ev::Resume { p, generation } => self.resume(p, generation),
            Ev::Fault(f) => {
                let _ = self.apply(f);
            }
            Ev::OutageEnd { generation } => {
                if generation == self.outage_gen {
                    self.adapter.end_store_outage();
                    self.trace(TraceKind::Node {
                        proc: Proc::Store,
                        what: "outage-ended",
                        value: None,
                        reason: None,
                    });
                }
            }
        }
        self.account();
        true
    }

    /// Processes every event up to and including true time `t`, then sets the time to `t`.
    pub fn run_until(&mut self, t: Instant) {
        while self.queue.peek().is_some_and(|s| s.at <= t) {
            self.step();
        }
        self.now = self.now.max(t);
        self.account();
    }

    /// Runs to the scenario's end.
    pub fn run(&mut self) {
        self.run_until(self.end);
    }

    /// Runs until some node acts as leader or true time `deadline` passes; returns when.
    pub fn run_until_leader(&mut self, deadline: Instant) -> Option<Instant> {
        loop {
            if self.tracker.metrics.leaders_now > 0 {
                return Some(self.now);
            }
            if self.queue.peek().is_none_or(|s| s.at > deadline) {
                self.now = self.now.max(deadline);
                self.account();
                return None;
            }
            self.step();
        }
    }

    /// Applies `fault` at the current true time, exactly as a fault the scenario schedules
    /// at this time would be: first every event still due at this instant is processed
    /// (scheduled faults apply after the other events of their instant), then the fault.
    /// It is recorded, so [`World::replay_scenario`] lists it at this time and replays to the
    /// same trace.
    ///
    /// Errors: [`FaultError::NotApplicable`] when the fault names a process that is not in
    /// this world or does not apply to its algorithm; nothing happens then.
    pub fn inject(&mut self, fault: Fault) -> Result<(), FaultError> {
        validate_fault(&self.scenario, &fault).map_err(FaultError::NotApplicable)?;
        self.run_until(self.now);
        if let Fault::DropMessage { id } = fault
            && self.message(id).is_none()
        {
            return Err(FaultError::NotApplicable(format!(
                "drop-message: message {id} is not in flight (delivered, dropped or never sent)"
            )));
        }
        let at_ms = Ms(Duration::from_micros(self.now.as_micros()));
        self.apply(fault.clone())?;
        self.injected.push(TimedFault { at_ms, fault });
        self.account();
        Ok(())
    }

    /// The faults applied through [`World::inject`], at their true times, in order.
    pub fn injected(&self) -> &[TimedFault] {
        &self.injected
    }

    /// The scenario plus every injected fault at its time: a world built from it replays
    /// this one event for event (same trace hash). Faults are ordered by time; faults of the
    /// same instant keep the order they were applied in.
    pub fn replay_scenario(&self) -> Scenario {
        let mut s = self.scenario.clone();
        s.faults.extend(self.injected.iter().cloned());
        s.faults.sort_by_key(|f| f.at_ms);
        s
    }

    /// True time of the next queued event, if any.
    pub fn next_event_at(&self) -> Option<Instant> {
        self.queue.peek().map(|s| s.at)
    }

    /// Records a liveness violation found by a driver (the chaos runner).
    pub fn report_liveness(&mut self, detail: String) {
        self.violate(InvariantKind::Liveness, Vec::new(), detail);
    }

    // ----- internals -----

    fn schedule(&mut self, at: Instant, ev: Ev) {
        self.seq = self.seq.saturating_add(1);
        let rank = u8::from(matches!(ev, Ev::Fault(_)));
        self.queue.push(Scheduled {
            at,
            rank,
            seq: self.seq,
            ev,
        });
    }

    fn trace(&mut self, kind: TraceKind) {
        let ev = self.log.push(self.now.as_micros(), kind);
        if let (Some(sink), Some(ev)) = (self.sink.0.as_mut(), ev) {
            sink(ev);
        }
    }

    fn account(&mut self) {
        let leaders = (0..self.nodes).filter(|&p| self.acting_leader(p)).count() as u64;
        let before = self.tracker.metrics.leaders_now;
        self.tracker.advance(self.now, leaders);
        if leaders >= 2 && before < 2 && self.promised.contains(&InvariantKind::SplitBrain) {
            let nodes = self.leaders().into_iter().map(Proc::Node).collect();
            self.violate(
                InvariantKind::SplitBrain,
                nodes,
                format!("{leaders} nodes act as leader at once with no pause or clock fault"),
            );
        }
    }

    fn violate(&mut self, kind: InvariantKind, nodes: Vec<Proc>, detail: String) {
        let v = Violation {
            time_us: self.now.as_micros(),
            kind,
            nodes,
            detail,
            promised: self.promised.contains(&kind),
        };
        *self.violation_counts.entry(kind).or_insert(0) += 1;
        self.trace(TraceKind::Violation(v.clone()));
        if self.violations.len() < MAX_VIOLATIONS {
            self.violations.push(v);
        }
    }

    /// Runs one adapter input for process `p`, then sends, records and reschedules.
    fn call(&mut self, p: usize, f: impl FnOnce(&mut dyn Adapter, &mut Env<'_>)) {
        let mut out = std::mem::take(&mut self.out_buf);
        let mut notes = std::mem::take(&mut self.note_buf);
        let mut pause = None;
        {
            let mut env = Env {
                now: self.now,
                clocks: &self.clocks,
                out: &mut out,
                notes: &mut notes,
                pause: &mut pause,
            };
            f(self.adapter.as_mut(), &mut env);
        }
        for note in notes.drain(..) {
            self.note(note);
        }
        if let Some((q, d)) = pause {
            self.pause(q, d);
        }
        for (from, to, payload) in out.drain(..) {
            match self.procs.get_mut(from) {
                Some(s) if matches!(s.status, ProcStatus::Paused(_)) => s.held.push((to, payload)),
                _ => self.send(from, to, payload),
            }
        }
        self.out_buf = out;
        self.note_buf = notes;
        self.reschedule(p, false);
    }

    fn note(&mut self, note: Note) {
        match note {
            Note::Node {
                p,
                what,
                value,
                reason,
            } => {
                let m = &mut self.tracker.metrics;
                match what {
                    "became-leader" => m.elections_total = m.elections_total.saturating_add(1),
                    "stepped-down" => {
                        m.leadership_lost_total = m.leadership_lost_total.saturating_add(1);
                    }
                    _ => {}
                }
                let proc = self.name(p);
                self.trace(TraceKind::Node {
                    proc,
                    what,
                    value,
                    reason,
                });
            }
            Note::Write(w) => {
                self.tracker.write(&w);
                self.trace(TraceKind::Write(w));
            }
            Note::Finding(f) => self.violate(f.kind, f.nodes, f.detail),
        }
    }

    fn send(&mut self, from: usize, to: usize, mut payload: Payload) {
        self.adapter
            .on_leave(self.now, &self.clocks, from, &mut payload);
        let id = self.next_msg;
        self.next_msg = self.next_msg.saturating_add(1);
        let m = &mut self.tracker.metrics;
        m.messages_sent = m.messages_sent.saturating_add(1);
        let (pf, pt) = (self.name(from), self.name(to));
        match self.network.send(self.now, from, to) {
            SendFate::Deliver(at, dup) => {
                self.trace(TraceKind::Send {
                    id,
                    from: pf,
                    to: pt,
                    msg: payload.label(),
                    value: payload.value(),
                    arrival_us: at.as_micros(),
                    duplicate_us: dup.map(Instant::as_micros),
                });
                let env = Envelope {
                    id,
                    from,
                    to,
                    sent: self.now,
                    payload,
                };
                if let Some(d) = dup {
                    self.schedule(d, Ev::Deliver(env.clone()));
                }
                self.schedule(at, Ev::Deliver(env));
            }
            SendFate::Blocked => {
                self.drop_msg(id, from, to, payload.label(), DropReason::Partition)
            }
            SendFate::Lost => self.drop_msg(id, from, to, payload.label(), DropReason::Loss),
        }
    }

    fn drop_msg(
        &mut self,
        id: u64,
        from: usize,
        to: usize,
        kind: &'static str,
        reason: DropReason,
    ) {
        let m = &mut self.tracker.metrics;
        m.messages_dropped = m.messages_dropped.saturating_add(1);
        let (from, to) = (self.name(from), self.name(to));
        self.trace(TraceKind::Drop {
            id,
            from,
            to,
            msg: kind,
            reason,
        });
        if self.dropped.len() >= RECENT_DROPS {
            self.dropped.pop_front();
        }
        self.dropped.push_back(Dropped {
            id,
            from,
            to,
            kind,
            time_us: self.now.as_micros(),
            reason,
        });
    }

    fn deliver(&mut self, env: Envelope) {
        if self.network.is_blocked(env.from, env.to) {
            return self.drop_msg(
                env.id,
                env.from,
                env.to,
                env.payload.label(),
                DropReason::Partition,
            );
        }
        let Some(state) = self.procs.get_mut(env.to) else {
            return;
        };
        match state.status {
            ProcStatus::Crashed => {
                self.drop_msg(
                    env.id,
                    env.from,
                    env.to,
                    env.payload.label(),
                    DropReason::Crashed,
                );
            }
            ProcStatus::Paused(_) => state.inbox.push_back(env),
            ProcStatus::Up => self.hand_over(env),
        }
    }

    fn hand_over(&mut self, env: Envelope) {
        let m = &mut self.tracker.metrics;
        m.messages_delivered = m.messages_delivered.saturating_add(1);
        let (from, to) = (self.name(env.from), self.name(env.to));
        self.trace(TraceKind::Deliver {
            id: env.id,
            from,
            to,
            msg: env.payload.label(),
        });
        let (p, q) = (env.to, env.from);
        self.call(p, |a, e| a.deliver(e, p, q, env.payload));
    }

    /// Makes sure a timer event is queued for `p`'s next deadline. Events are lazy: one that
    /// fires early just re-queues itself, so a deadline pushed later costs nothing here.
    fn reschedule(&mut self, p: usize, force: bool) {
        let deadline = self.adapter.deadline(p);
        let clock = self.clocks.get(p).copied().unwrap_or_default();
        let now = self.now;
        let Some(state) = self.procs.get_mut(p) else {
            return;
        };
        if force {
            state.timer_at = None;
            state.timer_gen = state.timer_gen.saturating_add(1);
        }
        let Some(local) = deadline else {
            return;
        };
        let at = clock.true_time_of(now, local);
        if state.timer_at.is_some_and(|t| t <= at) {
            return;
        }
        state.timer_at = Some(at);
        state.timer_gen = state.timer_gen.saturating_add(1);
        let generation = state.timer_gen;
        self.schedule(at, Ev::Timer { p, generation });
    }

    fn fire_timer(&mut self, p: usize, generation: u64) {
        let Some(state) = self.procs.get_mut(p) else {
            return;
        };
        if state.timer_gen != generation {
            return;
        }
        state.timer_at = None;
        if state.status != ProcStatus::Up {
            return;
        }
        let due = self.adapter.deadline(p).is_some_and(|local| {
            self.clocks
                .get(p)
                .is_some_and(|c| c.read(self.now) >= local)
        });
        if due {
            let proc = self.name(p);
            self.trace(TraceKind::Timeout { proc });
            self.call(p, |a, e| a.timeout(e, p));
        } else {
            self.reschedule(p, false);
        }
    }

    fn pause(&mut self, p: usize, d: Duration) {
        let now = self.now;
        let Some(state) = self.procs.get_mut(p) else {
            return;
        };
        let until = match state.status {
            ProcStatus::Crashed => return,
            ProcStatus::Paused(u) => u.max(now.saturating_add(d)),
            ProcStatus::Up => now.saturating_add(d),
        };
        state.status = ProcStatus::Paused(until);
        state.pause_gen = state.pause_gen.saturating_add(1);
        let generation = state.pause_gen;
        self.schedule(until, Ev::Resume { p, generation });
        let proc = self.name(p);
        self.trace(TraceKind::Node {
            proc,
            what: "paused",
            value: Some(d.as_micros()),
            reason: None,
        });
    }

    fn resume(&mut self, p: usize, generation: u64) {
        let Some(state) = self.procs.get_mut(p) else {
            return;
        };
        if state.pause_gen != generation || !matches!(state.status, ProcStatus::Paused(_)) {
            return;
        }
        state.status = ProcStatus::Up;
        let held = std::mem::take(&mut state.held);
        let inbox = std::mem::take(&mut state.inbox);
        let proc = self.name(p);
        self.trace(TraceKind::Node {
            proc,
            what: "resumed",
            value: None,
            reason: None,
        });
        for (to, payload) in held {
            self.send(p, to, payload);
        }
        for env in inbox {
            // A process may pause itself again while draining; keep the rest queued.
            match self.procs.get_mut(p) {
                Some(s) if s.status == ProcStatus::Up => self.hand_over(env),
                Some(s) => s.inbox.push_back(env),
                None => {}
            }
        }
        self.reschedule(p, true);
    }

    fn node_index(&self, id: NodeId) -> Result<usize, FaultError> {
        self.index_of(Proc::Node(id))
            .ok_or_else(|| FaultError::NotApplicable(format!("no node {id}")))
    }

    fn indexes(&self, procs: &[Proc]) -> Vec<usize> {
        procs.iter().filter_map(|p| self.index_of(*p)).collect()
    }

    fn links(&mut self, from: &[Proc], to: &[Proc], f: impl Fn(&mut LinkParams)) {
        let (from, to) = (self.indexes(from), self.indexes(to));
        for &a in &from {
            for &b in &to {
                if a != b {
                    let mut params = self.network.link(a, b);
                    f(&mut params);
                    self.network.set_link(a, b, params);
                }
            }
        }
    }

    fn apply(&mut self, fault: Fault) -> Result<(), FaultError> {
        let drift_bound = self
            .scenario
            .config
            .max_drift_ppm
            .unwrap_or(tenure::LeaseConfig::default().max_drift_ppm);
        if !keeps_lease_premise(&fault, drift_bound) {
            self.promised.retain(|k| *k != InvariantKind::SplitBrain);
        }
        self.trace(TraceKind::Fault {
            fault: fault.clone(),
        });
        match &fault {
            Fault::Crash { node } => {
                let p = self.node_index(*node)?;
                if self
                    .procs
                    .get(p)
                    .is_some_and(|s| s.status == ProcStatus::Crashed)
                {
                    return Ok(());
                }
                if self.acting_leader(p) {
                    self.tracker.leader_crashed(self.now);
                }
                if let Some(s) = self.procs.get_mut(p) {
                    s.status = ProcStatus::Crashed;
                    s.inbox.clear();
                    s.held.clear();
                    s.pause_gen = s.pause_gen.saturating_add(1);
                }
                self.call(p, |a, e| a.crash(e, p));
                self.reschedule(p, true);
                self.trace(TraceKind::Node {
                    proc: Proc::Node(*node),
                    what: "crashed",
                    value: None,
                    reason: None,
                });
            }
            Fault::Restart { node } => {
                let p = self.node_index(*node)?;
                if self
                    .procs
                    .get(p)
                    .is_some_and(|s| s.status == ProcStatus::Crashed)
                {
                    if let Some(s) = self.procs.get_mut(p) {
                        s.status = ProcStatus::Up;
                    }
                    self.trace(TraceKind::Node {
                        proc: Proc::Node(*node),
                        what: "restarted",
                        value: None,
                        reason: None,
                    });
                    self.reschedule(p, true);
                    self.call(p, |a, e| a.restart(e, p));
                }
            }
            Fault::Pause {
                target,
                duration_ms,
            } => {
                if let Some(p) = self.index_of(*target) {
                    self.pause(p, duration_ms.duration());
                }
            }
            Fault::Partition { groups } => {
                let groups: Vec<Vec<usize>> = groups.iter().map(|g| self.indexes(g)).collect();
                for (i, g) in groups.iter().enumerate() {
                    for (j, h) in groups.iter().enumerate() {
                        if i != j {
                            for &a in g {
                                for &b in h {
                                    self.network.block(a, b);
                                }
                            }
                        }
                    }
                }
            }
            Fault::PartitionOneWay { from, to } => {
                for a in self.indexes(from) {
                    for b in self.indexes(to) {
                        self.network.block(a, b);
                    }
                }
            }
            Fault::Isolate { nodes } => {
                let inside = self.indexes(nodes);
                for &a in &inside {
                    for b in 0..self.names.len() {
                        if !inside.contains(&b) {
                            self.network.block(a, b);
                            self.network.block(b, a);
                        }
                    }
                }
            }
            Fault::Heal {} => self.network.heal(),
            Fault::LinkLoss {
                from,
                to,
                probability,
            } => {
                let ppm = probability.ppm();
                self.links(from, to, |l| l.loss_ppm = ppm);
            }
            Fault::LinkDuplicate {
                from,
                to,
                probability,
            } => {
                let ppm = probability.ppm();
                self.links(from, to, |l| l.duplicate_ppm = ppm);
            }
            Fault::LinkLatency {
                from,
                to,
                min_ms,
                max_ms,
            } => {
                let (lo, hi) = (min_ms.duration(), max_ms.duration());
                self.links(from, to, |l| {
                    l.latency_min = lo;
                    l.latency_max = hi.max(lo);
                });
            }
            Fault::ClockOffset { target, offset_ms } => {
                self.clock_change(*target, |c, now| c.step(now, offset_ms.0));
            }
            Fault::ClockDrift { target, ppm } => {
                let ppm = *ppm;
                self.clock_change(*target, |c, now| c.set_drift(now, ppm));
            }
            Fault::ClockJump { target, by_ms } => {
                let by = i64::try_from(by_ms.micros()).unwrap_or(i64::MAX);
                self.clock_change(*target, |c, now| c.step(now, by));
            }
            Fault::StoreOutage { duration_ms } => {
                let mut handled = false;
                let f = fault.clone();
                let store = self.index_of(Proc::Store).unwrap_or(0);
                self.call(store, |a, e| handled = a.fault(e, &f));
                if handled {
                    self.outage_gen = self.outage_gen.saturating_add(1);
                    let generation = self.outage_gen;
                    self.schedule(
                        self.now.saturating_add(duration_ms.duration()),
                        Ev::OutageEnd { generation },
                    );
                }
            }
            Fault::DropMessage { id } => self.drop_in_flight(*id),
            Fault::PauseAfterCheck { node, .. } | Fault::Propose { node, .. } => {
                let p = self.node_index(*node)?;
                let f = fault.clone();
                self.call(p, |a, e| {
                    a.fault(e, &f);
                });
            }
        }
        Ok(())
    }

    /// Drops every copy of message `id` still on the wire (a `drop-message` fault).
    fn drop_in_flight(&mut self, id: u64) {
        let mut removed = Vec::new();
        let queue = std::mem::take(&mut self.queue);
        self.queue = queue
            .into_iter()
            .filter(|s| match &s.ev {
                Ev::Deliver(e) if e.id == id => {
                    removed.push((e.from, e.to, e.payload.label()));
                    false
                }
                _ => true,
            })
            .collect();
        for (from, to, kind) in removed {
            self.drop_msg(id, from, to, kind, DropReason::Injected);
        }
    }

    fn clock_change(&mut self, target: Proc, f: impl FnOnce(&mut SimClock, Instant)) {
        let Some(p) = self.index_of(target) else {
            return;
        };
        let now = self.now;
        if let Some(c) = self.clocks.get_mut(p) {
            f(c, now);
        }
        self.reschedule(p, true);
    }
}

/// Parses a fractional millisecond count into a [`Duration`] (for CLI and bindings).
pub fn duration_from_ms(ms: f64) -> Option<Duration> {
    ms_to_us(ms).ok().map(Duration::from_micros)
}
