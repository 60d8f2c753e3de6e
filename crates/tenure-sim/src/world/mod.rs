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
//! # Where each idea lives
//! - `mod.rs`: the [`World`] state, construction and the run API (`step`, `run_until`, ...).
//! - `queue.rs`: scheduled events and their (time, rank, sequence) order.
//! - `heap.rs`: the 4-ary heap of the queue's keys.
//! - `process.rs`: process status, timers, pauses, and the calls into the adapter.
//! - `transport.rs`: sending through the network model, drops and delivery.
//! - `faults.rs`: `inject` and the fault interpreter.
//! - `manual.rs`: manual delivery, for scripted tests.
//! - `drive.rs`: the hooks an algorithm's own test driver uses (`algo/lease/driver.rs`).
//! - `observe.rs`: metrics, violations, the trace hash, leaders and snapshots.
//!
//! Every random choice derives from the scenario's seed, and ties in time are broken by the
//! order events were scheduled, so a scenario replays identically.

use crate::algo::{Env, Machines, Note};
use crate::checker::{InvariantKind, KindCounts, Violation};
use crate::clock::SimClock;
use crate::event::NodeEvent;
use crate::fault::{Fault, TimedFault};
use crate::message::Payload;
use crate::metrics::{Metrics, Tracker};
use crate::network::{LinkParams, Network, SendFate};
use crate::process::Proc;
use crate::scenario::{Scenario, ScenarioError, validate_fault};
use crate::snapshot::{Dropped, InFlight, MessageDetail, NodeView, Snapshot, Status, TimerView};
use crate::trace::{DEFAULT_LOG_CAPACITY, DropReason, EventLog, TraceEvent, TraceKind};
use crate::units::{Ms, ms_to_us};
use std::collections::VecDeque;
use tenure::{Duration, Instant, NodeId};

#[cfg(test)]
mod counted_tests;
mod drive;
mod faults;
mod heap;
mod manual;
#[cfg(test)]
mod message_tests;
mod observe;
mod process;
mod queue;
#[cfg(test)]
mod timer_tests;
mod transport;

pub use manual::{CampaignError, HeldMessage};
use observe::Leading;
use process::{Armed, ProcState, ProcStatus};
use queue::{Envelope, Ev, Queue};
use transport::Head;

/// Most violation records a world keeps (all are counted).
pub const MAX_VIOLATIONS: usize = 1000;
/// Most recently dropped messages a snapshot shows.
pub const RECENT_DROPS: usize = 64;
/// Most events (messages in flight, timers, resumptions, wake-ups) a world holds queued at
/// once, beyond its scenario's scheduled faults: 2^20. A world of at most 64 nodes that is
/// not in a storm holds a few thousand (Raft's chaos budget at 64 nodes and default timers
/// allows about 210k); a storm (timers of a microsecond, an election round per message)
/// grows the queue without end and would exhaust memory. At about 100 bytes an event this
/// is about 100 MB: the world stops there with [`World::storm`] set, instead of allocating.
pub const MAX_QUEUED_EVENTS: usize = 1 << 20;

/// Why `inject` refused a fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FaultError {
    /// The fault names a process that does not exist, or does not apply to this algorithm.
    #[error("fault: {0}")]
    NotApplicable(String),
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
/// The scenario it was built from never changes, so clones share it.
#[derive(Clone)]
pub struct World {
    scenario: std::sync::Arc<Scenario>,
    now: Instant,
    end: Instant,
    queue: Queue,
    names: Vec<Proc>,
    procs: Vec<ProcState>,
    clocks: Vec<SimClock>,
    nodes: usize,
    network: Network,
    adapter: Machines,
    log: EventLog,
    sink: SinkSlot,
    tracker: Tracker,
    /// What the algorithm promises; `SplitBrain` leaves once a fault breaks its premise.
    promised: Vec<InvariantKind>,
    violations: Vec<Violation>,
    violation_counts: KindCounts,
    dropped: VecDeque<Dropped>,
    next_msg: u64,
    out_buf: VecDeque<(usize, usize, Payload)>,
    wake_buf: Vec<(Duration, u64)>,
    /// Manual delivery (`manual.rs`): messages wait in `held_msgs` for the driver.
    manual: bool,
    held_msgs: Vec<Envelope>,
    note_buf: Vec<Note>,
    injected: Vec<TimedFault>,
    leading: Leading,
    /// When the current split-brain window opened (meaningful while two or more lead).
    split_since: Instant,
    /// Most events the queue may hold ([`MAX_QUEUED_EVENTS`] plus the scenario's faults).
    queue_limit: usize,
    /// Why the world stopped in a storm, once it has ([`World::storm`]).
    storm: Option<String>,
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
        let spec = scenario.algorithm.spec();
        let adapter = Machines::new((spec.build)(scenario)?);
        let mut names: Vec<Proc> = (1..=scenario.nodes)
            .map(|i| Proc::Node(NodeId(i)))
            .collect();
        names.extend_from_slice(spec.extra_procs);
        let count = names.len();
        let mut world = World {
            scenario: std::sync::Arc::new(scenario.clone()),
            now: Instant::ZERO,
            end: scenario.duration_ms.instant(),
            queue: Queue::default(),
            procs: vec![ProcState::default(); count],
            clocks: vec![SimClock::new(); count],
            names,
            nodes,
            network: Network::new(scenario.seed, params),
            adapter,
            log: EventLog::new(DEFAULT_LOG_CAPACITY),
            sink: SinkSlot::default(),
            tracker: Tracker::default(),
            promised: spec.promises.to_vec(),
            violations: Vec::new(),
            violation_counts: KindCounts::default(),
            dropped: VecDeque::new(),
            next_msg: 0,
            out_buf: VecDeque::new(),
            wake_buf: Vec::new(),
            manual: false,
            held_msgs: Vec::new(),
            note_buf: Vec::new(),
            injected: Vec::new(),
            leading: Leading::default(),
            split_since: Instant::ZERO,
            queue_limit: MAX_QUEUED_EVENTS.saturating_add(scenario.faults.len()),
            storm: None,
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

    /// Keeps the last `capacity` events for [`World::events_since`] from now on; 0 keeps
    /// none (a run that reads only metrics, violations and the trace hash, as chaos and search
    /// runs do, skips storing events). The trace hash, the event count and a trace sink are
    /// unaffected. A new world keeps [`DEFAULT_LOG_CAPACITY`].
    pub fn keep_recent_events(&mut self, capacity: usize) {
        self.log.set_capacity(capacity);
    }

    /// Sets how far (in entries) the logs of an algorithm with one (Raft) run ahead of their
    /// compaction point before every log and the checker's records are compacted; 0 never
    /// compacts. Compaction changes no trace event and no verdict, only memory; a new world
    /// compacts every 1,024 entries.
    pub fn set_log_compaction(&mut self, entries: u64) {
        self.adapter.set_log_compaction(entries);
    }

    /// Per-index records the world holds for its algorithm (log entries of every node, live
    /// and durable, and the checker's rows): flat over a run's length with compaction on.
    pub fn log_records(&self) -> usize {
        self.adapter.records()
    }

    /// Calls `sink` with every event from now on (for `--trace out.jsonl`).
    pub fn set_trace_sink(&mut self, sink: TraceSink) {
        self.sink = SinkSlot(Some(sink));
    }

    fn index_of(&self, proc: Proc) -> Option<usize> {
        self.names.iter().position(|n| *n == proc)
    }

    fn name(&self, p: usize) -> Proc {
        self.names
            .get(p)
            .copied()
            .unwrap_or(Proc::Node(crate::algo::id_of(p)))
    }

    /// Events waiting in the queue: messages in flight, armed timers, pending faults.
    pub fn queue_len(&self) -> usize {
        self.queue.len()
    }

    /// Processes the next event; `false` if none is left.
    pub fn step(&mut self) -> bool {
        let Some((at, slot)) = self.queue.pop_lent() else {
            return false;
        };
        self.process(at, slot);
        true
    }

    /// Handles the event popped for true time `at` and lent in `slot` (`step`, `run_until`).
    /// Out of line: `step` and `run_until` share it, and `run_until` pops with the test of
    /// the event's time ([`Queue::pop_lent_by`]) instead of reading the queue's head first.
    #[inline(never)]
    fn process(&mut self, at: Instant, slot: usize) {
        // The event is lent in its slot: a message's payload goes to the adapter from there;
        // every other kind is taken out (a few words) before it is handled.
        self.advance_to(at);
        if let Some(Ev::Deliver(env)) = self.queue.lent(slot) {
            let head = Head::of(env);
            self.deliver_lent(slot, head);
        } else {
            match self.queue.take(slot) {
                Some(Ev::Timer { p, generation }) => self.fire_timer(p, generation),
                Some(Ev::Resume { p, generation }) => self.resume(p, generation),
                Some(Ev::Fault(f)) => {
                    let _ = self.apply(f);
                }
                Some(Ev::Wake { p, token }) => {
                    self.call(p, |a, e| a.wake(e, token));
                    // A wake-up (a store outage ending) can change what every node may do.
                    self.touch_all();
                }
                Some(Ev::Deliver(_)) | None => {}
            }
        }
        self.account();
        if self.queue.len() > self.queue_limit {
            self.halt_storm();
        }
    }

    /// Stops the world in a storm: records why and drops every queued event, so no run
    /// goes on (`step` finds nothing left) and the memory they held is freed.
    #[cold]
    #[inline(never)]
    fn halt_storm(&mut self) {
        let queued = self.queue.len();
        self.queue = Queue::default();
        // Integer arithmetic: float formatting would grow the wasm modules.
        let us = self.now.as_micros();
        self.storm = Some(format!(
            "message storm: {queued} events queued at {}.{:03} ms, over the bound of {}; \
             lengthen the timers or use fewer nodes",
            us / 1_000,
            us % 1_000,
            self.queue_limit
        ));
    }

    /// Why the world stopped in a storm (its queue grew past [`MAX_QUEUED_EVENTS`]), if it
    /// did: nothing is queued after that, so every run stops where the storm did.
    pub fn storm(&self) -> Option<&str> {
        self.storm.as_deref()
    }

    /// Lowers (or raises) the bound on queued events, for a driver with a tighter work
    /// budget (chaos); a run that stays under it is unchanged.
    pub fn set_queue_limit(&mut self, events: usize) {
        self.queue_limit = events;
    }

    /// Processes every event up to and including true time `t`, then sets the time to `t`.
    /// A world stopped in a storm ([`World::storm`]) stays at the time it stopped: no time
    /// passed for it, and its readings (leaders, split-brain time) end there.
    pub fn run_until(&mut self, t: Instant) {
        while let Some((at, slot)) = self.queue.pop_lent_by(t) {
            self.process(at, slot);
        }
        if self.storm.is_none() {
            self.advance_to(t);
        }
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
            if self.queue.next_at().is_none_or(|at| at > deadline) {
                if self.storm.is_none() {
                    self.advance_to(deadline);
                }
                self.account();
                return None;
            }
            self.step();
        }
    }

    /// True time of the next queued event, if any.
    pub fn next_event_at(&self) -> Option<Instant> {
        self.queue.next_at()
    }

    /// Records a liveness violation found by a driver (the chaos runner).
    pub fn report_liveness(&mut self, detail: String) {
        self.violate(InvariantKind::Liveness, Vec::new(), detail);
    }

    // ----- internals -----

    // Native builds inline this into the event loop (a call per event saved); the
    // wasm modules, built for size, keep it out of line (docs/performance.md).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn schedule(&mut self, at: Instant, ev: Ev) {
        self.queue.push(at, ev);
    }

    /// Records an event. A run that keeps no events and has no sink (chaos, search) only
    /// counts and hashes it: this is inlined where each event is built, so the hash of a
    /// known kind is a few multiplies and no `TraceEvent` is made.
    #[inline(always)]
    fn trace(&mut self, kind: TraceKind) {
        let at = self.now.as_micros();
        if self.sink.0.is_none() && self.log.capacity() == 0 {
            return self.log.count(at, &kind);
        }
        self.trace_kept(at, kind);
    }

    /// [`World::trace`] for the events of every message (sends and deliveries): the event is
    /// made in the branch that takes it, so a run that only hashes it builds no `TraceKind`
    /// in memory for the kept path's call (made before the test, it cost a store a field).
    #[inline(always)]
    fn trace_with(&mut self, kind: impl FnOnce() -> TraceKind) {
        let at = self.now.as_micros();
        if self.sink.0.is_none() && self.log.capacity() == 0 {
            return self.log.count(at, &kind());
        }
        self.trace_kept(at, kind());
    }

    /// [`World::trace`] for an event that is kept or seen.
    #[inline(never)]
    fn trace_kept(&mut self, at: u64, kind: TraceKind) {
        match self.sink.0.as_mut() {
            Some(sink) => self.log.push_with(at, kind, |ev| sink(ev)),
            None => self.log.push_with(at, kind, |_| {}),
        }
    }
}

/// Parses a fractional millisecond count into a [`Duration`] (for CLI and bindings).
pub fn duration_from_ms(ms: f64) -> Option<Duration> {
    ms_to_us(ms).ok().map(Duration::from_micros)
}
