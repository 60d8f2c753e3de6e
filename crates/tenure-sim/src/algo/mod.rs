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
mod raft;
mod seed;

pub(crate) use self::bully::BullyAdapter;
pub(crate) use self::lease::{DEFAULT_RETRY_MS, DEFAULT_TTL_MS, DEFAULT_WRITE_MS, LeaseAdapter};
pub(crate) use self::raft::{DEFAULT_PROPOSE_MS, RaftAdapter};

use crate::checker::Finding;
use crate::clock::SimClock;
use crate::fault::Fault;
use crate::message::Payload;
use crate::snapshot::{ResourceView, StoreView};
use crate::trace::WriteRecord;
use tenure::NodeId;
use tenure::{Duration, Instant};

/// Something an adapter reports for the trace and the metrics.
#[derive(Clone, Debug)]
pub(crate) enum Note {
    /// A state change of process `p` (`became-leader`, `stepped-down`, ...).
    Node {
        p: usize,
        what: &'static str,
        value: Option<u64>,
        reason: Option<&'static str>,
    },
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
    pub out: &'a mut Vec<(usize, usize, Payload)>,
    /// Notes for the trace, the metrics and the checker.
    pub notes: &'a mut Vec<Note>,
    /// Set by a process that pauses itself (pause after check): `(p, duration)`.
    pub pause: &'a mut Option<(usize, Duration)>,
}

impl Env<'_> {
    /// Process `p`'s clock reading now.
    pub(crate) fn local(&self, p: usize) -> Instant {
        self.clocks.get(p).map_or(self.now, |c| c.read(self.now))
    }

    /// Queues a message.
    pub(crate) fn send(&mut self, from: usize, to: usize, payload: Payload) {
        self.out.push((from, to, payload));
    }

    /// Reports a state change.
    pub(crate) fn node(
        &mut self,
        p: usize,
        what: &'static str,
        value: Option<u64>,
        reason: Option<&'static str>,
    ) {
        self.notes.push(Note::Node {
            p,
            what,
            value,
            reason,
        });
    }

    /// Reports checker findings.
    pub(crate) fn findings(&mut self, found: Vec<Finding>) {
        self.notes.extend(found.into_iter().map(Note::Finding));
    }
}

/// What a node shows in a snapshot, on its own clock.
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeInfo {
    pub role: &'static str,
    pub term: Option<u64>,
    pub token: Option<u64>,
    pub leader: Option<u64>,
    pub lease_deadline: Option<Instant>,
    pub next_timer: Option<(&'static str, Instant)>,
    pub log_len: Option<u64>,
    pub commit: Option<u64>,
    pub log: Option<Vec<crate::snapshot::LogEntryView>>,
}

/// One algorithm's machines in one world. Process indexes: nodes `0..nodes`, then (lease
/// worlds) the store and the resource.
pub(crate) trait Adapter {
    /// A copy of every machine and the checker (for [`crate::World`]'s `clone`).
    fn clone_box(&self) -> Box<dyn Adapter>;
    /// Starts process `p` at the beginning of the run.
    fn start(&mut self, env: &mut Env<'_>, p: usize);
    /// Delivers `payload` from `from` to `p`.
    fn deliver(&mut self, env: &mut Env<'_>, p: usize, from: usize, payload: Payload);
    /// Fires `p`'s due timers.
    fn timeout(&mut self, env: &mut Env<'_>, p: usize);
    /// `p`'s next deadline on its own clock.
    fn deadline(&self, p: usize) -> Option<Instant>;
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
    /// A store outage started by [`Fault::StoreOutage`] ends.
    fn end_store_outage(&mut self) {}
    /// Applies an algorithm-specific fault; `false` if it does not apply here.
    fn fault(&mut self, _env: &mut Env<'_>, _fault: &Fault) -> bool {
        false
    }
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
