//! Adapters: drive each core machine through its sans-IO interface.
//!
//! An adapter owns the machines of one world (every node, plus the store and resource in a
//! lease world) and speaks to the world through [`Env`]: it feeds each input with the
//! process's *local* clock reading, drains `poll_output` completely, turns `Send`s into
//! network messages, applies every `Persist` to a durable copy before later sends leave,
//! and reports state changes and checker findings. The world asks it for each process's next
//! deadline (on the local clock) and schedules it in true time.

mod bully;
mod lease;
mod lease_no_margin;
mod machines;
mod raft;
mod seed;
mod spec;

#[cfg(feature = "cli")] // only the exhaustive explorer (search/explore.rs) reads it
pub(crate) use self::lease::DEFAULT_TTL_MS;
pub use self::lease::LeaseWorld;
pub(crate) use self::machines::Machines;
pub use self::spec::AlgorithmSpec;
pub(crate) use self::spec::no_premise;

use crate::scenario::Algorithm;

/// Every algorithm the simulator runs, in CLI order: the only list (docs/algorithms.md).
/// An [`Algorithm`] is an index into it.
pub(crate) const REGISTRY: &[&AlgorithmSpec] = &[
    &lease::FENCING,
    &lease::UNFENCED,
    &raft::SPEC,
    &bully::SPEC,
    &lease_no_margin::SPEC,
];

#[allow(non_upper_case_globals)] // named like the variants of the enum they replace
impl Algorithm {
    /// Lease-based election; the leader presents its fencing token to the resource.
    pub const LeaseFencing: Algorithm = Algorithm(0);
    /// The same leases, but writes carry no token and the resource accepts everything.
    pub const LeaseUnfenced: Algorithm = Algorithm(1);
    /// Raft-style election (options `pre_vote`, `check_quorum`, `leader_lease`).
    pub const Raft: Algorithm = Algorithm(2);
    /// The Bully algorithm.
    pub const Bully: Algorithm = Algorithm(3);
    /// A teaching foil: unfenced leases with no safety margin, which trust clocks to agree.
    pub const LeaseNoMargin: Algorithm = Algorithm(4);
}

use crate::checker::Finding;
use crate::clock::SimClock;
use crate::event::{NodeEvent, Role};
use crate::fault::Fault;
use crate::message::Payload;
use crate::snapshot::{ResourceView, StoreView};
use crate::trace::WriteRecord;
use tenure::NodeId;
use tenure::{Duration, Instant};

/// Something an adapter reports for the trace and the metrics.
#[derive(Clone, Debug)]
pub(crate) enum Note {
    /// A state change of process `p`.
    Node { p: usize, change: NodeEvent },
    /// The resource judged a write.
    Write(WriteRecord),
    /// A checker finding.
    Finding(Finding),
}

/// What the world lends an adapter for one input.
pub(crate) struct Env<'a> {
    /// True time, us.
    pub now: Instant,
    /// Every process's clock.
    pub clocks: &'a [SimClock],
    /// Messages to send: `(from, to, payload)`.
    pub out: &'a mut std::collections::VecDeque<(usize, usize, Payload)>,
    /// Notes for the trace, the metrics and the checker.
    pub notes: &'a mut Vec<Note>,
    /// Set by a process that pauses itself (pause after check): `(p, duration)`.
    pub pause: &'a mut Option<(usize, Duration)>,
    /// Wake-ups asked for: `(after, token)`, in true time (see [`Adapter::wake`]).
    pub wakes: &'a mut Vec<(Duration, u64)>,
}

impl Env<'_> {
    /// Process `p`'s clock reading now.
    pub(crate) fn local(&self, p: usize) -> Instant {
        self.clocks.get(p).map_or(self.now, |c| c.read(self.now))
    }

    /// Queues a message.
    pub(crate) fn send(&mut self, from: usize, to: usize, payload: Payload) {
        self.out.push_back((from, to, payload));
    }

    /// Reports a state change.
    pub(crate) fn node(&mut self, p: usize, change: NodeEvent) {
        self.notes.push(Note::Node { p, change });
    }

    /// Asks the world to call [`Adapter::wake`] for this process with `token` after `after`
    /// of true time (a store outage's end).
    pub(crate) fn wake_after(&mut self, after: Duration, token: u64) {
        self.wakes.push((after, token));
    }

    /// Reports checker findings.
    pub(crate) fn findings(&mut self, found: Vec<Finding>) {
        self.notes.extend(found.into_iter().map(Note::Finding));
    }
}

/// What a node shows in a snapshot, on its own clock.
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeInfo {
    pub role: Role,
    pub term: Option<u64>,
    pub token: Option<u64>,
    pub leader: Option<u64>,
    pub lease_deadline: Option<Instant>,
    /// A lease contender's validity span (ttl - safety margin) on its own clock.
    pub lease_validity: Option<Duration>,
    pub next_timer: Option<(&'static str, Instant)>,
    pub log_len: Option<u64>,
    pub commit: Option<u64>,
    pub log: Option<Vec<crate::snapshot::LogEntryView>>,
}

/// One algorithm's machines in one world. Process indexes: nodes `0..nodes`, then (lease
/// worlds) the store and the resource.
pub(crate) trait Adapter: std::any::Any {
    /// A copy of every machine and the checker (for [`crate::World`]'s `clone`).
    fn clone_box(&self) -> Box<dyn Adapter>;
    /// This adapter as the world holds it: the Raft adapter for static dispatch of its hot
    /// calls, any other as `dyn Adapter` (`machines.rs`).
    fn into_machines(self: Box<Self>) -> Machines;
    /// Starts process `p` at the beginning of the run.
    fn start(&mut self, env: &mut Env<'_>, p: usize);
    /// Delivers `payload` from `from` to `p`.
    fn deliver(&mut self, env: &mut Env<'_>, p: usize, from: usize, payload: Payload);
    /// Fires `p`'s due timers.
    fn timeout(&mut self, env: &mut Env<'_>, p: usize);
    /// `p`'s next deadline on its own clock.
    fn deadline(&self, p: usize) -> Option<Instant>;
    /// `p`'s machine's next timer (its kind and deadline on `p`'s clock), cheap: the world
    /// asks after every input to note when each timer was armed.
    fn next_timer(&self, p: usize) -> Option<(&'static str, Instant)>;
    /// [`deadline`](Adapter::deadline) and [`next_timer`](Adapter::next_timer) together, as
    /// the world asks for both after every input (an adapter may answer both in one look).
    fn timers(&self, p: usize) -> (Option<Instant>, Option<(&'static str, Instant)>) {
        (self.deadline(p), self.next_timer(p))
    }
    /// `p` crashes: volatile state is lost.
    fn crash(&mut self, env: &mut Env<'_>, p: usize);
    /// `p` restarts from what it persisted.
    fn restart(&mut self, env: &mut Env<'_>, p: usize);
    /// Called when a message actually leaves `from` (after any pause), to stamp it.
    fn on_leave(
        &mut self,
        _now: Instant,
        _clocks: &[SimClock],
        _from: usize,
        _payload: &mut Payload,
    ) {
    }
    /// The process an algorithm-specific fault (one of the spec's `own_faults`) applies to.
    fn fault_proc(&self, fault: &Fault) -> Option<usize> {
        match fault {
            Fault::PauseAfterCheck { node, .. } | Fault::Propose { node, .. } => {
                Some(index_of(*node))
            }
            _ => None,
        }
    }
    /// Applies an algorithm-specific fault; `false` if it does not apply here.
    fn fault(&mut self, _env: &mut Env<'_>, _fault: &Fault) -> bool {
        false
    }
    /// Asks node `p` to start an election now, as its application may (Raft's `campaign`,
    /// Bully's `start_election`, a lease candidate's `campaign`); `Err` with the refusal, or
    /// where the algorithm has none.
    fn campaign(&mut self, _env: &mut Env<'_>, _p: usize) -> Result<(), String> {
        Err("this algorithm has no campaign call".into())
    }
    /// A wake-up the adapter asked for with [`Env::wake_after`] is due.
    fn wake(&mut self, _env: &mut Env<'_>, _token: u64) {}
    /// Whether `p` believes it leads.
    fn is_leader(&self, p: usize) -> bool;
    /// `p`'s view for a snapshot.
    fn info(&self, p: usize) -> NodeInfo;
    /// The store, in lease worlds.
    fn store_view(&self, _env: &Env<'_>) -> Option<StoreView> {
        None
    }
    /// The resource, in lease worlds.
    fn resource_view(&self) -> Option<ResourceView> {
        None
    }
    /// The current fencing token (the store's last grant), in lease worlds.
    fn fencing_token(&self) -> Option<u64> {
        None
    }
    /// Writes into `c` every config value its machines run with (the scenario's, or the
    /// default it filled in), in the scenario's keys.
    fn effective_config(&self, _c: &mut crate::scenario::AlgoConfig) {}
    /// Sets the log compaction step in entries (0: never), for algorithms with a log.
    fn set_log_compaction(&mut self, _every: u64) {}
    /// Per-index records held (log entries, checker rows): what log compaction bounds.
    fn records(&self) -> usize {
        0
    }
}

impl Clone for Box<dyn Adapter> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The node id of process index `p` (nodes are `n1..=nN` at indexes `0..N`).
pub(crate) fn id_of(p: usize) -> NodeId {
    NodeId((p as u64).saturating_add(1))
}

/// The process index of node `id`; `usize::MAX` (no process) for id 0.
pub(crate) fn index_of(id: NodeId) -> usize {
    usize::try_from(id.0.saturating_sub(1)).unwrap_or(usize::MAX)
}
