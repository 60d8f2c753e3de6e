//! The contract every machine shares (docs/design.md, "The sans-IO contract"): the
//! [`Machine`] trait, the [`Output`] shape, and the bounded [`OutputQueue`] outputs wait in.
//!
//! Each machine keeps its own inherent methods (`RaftNode::handle_message`,
//! `LeaseCandidate::handle_response`, ...) with its own types; the trait is the common shape
//! a generic driver (the simulator, a test harness) programs against.

use crate::id::NodeId;
use crate::time::Instant;
use alloc::collections::VecDeque;

/// One output of a machine, pulled with `poll_output` until `None`.
///
/// `To` is who a message goes to: a [`NodeId`] for peer-to-peer machines (Raft, Bully), the
/// store for a lease candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Output<M, P, E, To = NodeId> {
    /// Send `msg` to `to`. Every `Persist` emitted before it must be durable first.
    Send {
        /// The destination.
        to: To,
        /// The message.
        msg: M,
    },
    /// Make this state durable before any later `Send` leaves (design rule 6, S11).
    Persist(P),
    /// Something the application or the playground may want to know.
    Event(E),
}

/// The inputs and outputs every machine shares.
///
/// Call order: feed inputs with `handle_message` and `handle_timeout` (each takes the
/// caller's clock reading; an earlier `now` than one seen counts as the latest), then drain
/// `poll_output` until `None`, then sleep until `poll_timeout`.
///
/// Start-up rule: constructing a machine emits nothing and sends nothing. A Raft or Bully
/// node arms a timer at [`Instant::ZERO`], so its first `poll_timeout` is due at once and
/// the first `handle_timeout` starts it (Raft arms its randomized election timer, Bully runs
/// its failure detector). A lease candidate contends only when asked: `campaign(now)` is
/// its start, because an application decides whether a process should lead at all.
pub trait Machine {
    /// Who messages come from and go to.
    type Peer: Copy;
    /// What the machine receives.
    type Inbound;
    /// What the machine sends.
    type Outbound;
    /// What it asks to make durable ([`core::convert::Infallible`] if nothing).
    type Persist;
    /// What it reports.
    type Event;

    /// Handles `msg` from `from` at `now`. Peer misbehaviour is absorbed, never an error.
    fn handle_message(&mut self, now: Instant, from: Self::Peer, msg: Self::Inbound);
    /// Fires every timer due at `now` ([`crate::TimerTable::due`]); early calls are harmless.
    fn handle_timeout(&mut self, now: Instant);
    /// The oldest waiting output, or `None` once drained.
    fn poll_output(&mut self) -> Option<OutputOf<Self>>;
    /// The earliest armed deadline.
    fn poll_timeout(&self) -> Option<Instant>;
}

/// The [`Output`] of machine `T`.
pub type OutputOf<T> = Output<
    <T as Machine>::Outbound,
    <T as Machine>::Persist,
    <T as Machine>::Event,
    <T as Machine>::Peer,
>;

/// Whether a newer durable state makes an older, still queued one redundant.
///
/// A state snapshot (Bully's epoch) supersedes the older snapshot; an incremental operation
/// (Raft's log appends) never does.
pub trait Durable {
    /// `true` if persisting `self` in place of `older` is as good as persisting both.
    fn supersedes(&self, _older: &Self) -> bool {
        false
    }
}

impl Durable for core::convert::Infallible {}

/// The queue a machine's outputs wait in until `poll_output`: one policy for every machine.
///
/// - **Bound**: at most `2 × (fanout + 8)` outputs, where `fanout` is the most `Send`s one
///   input may queue (Bully: its peers; Raft: peers × `max_inflight_appends`; a lease
///   candidate: 1). That is room for two inputs' worth of sends, persists and events, so a
///   driver that drains after every input, as the contract asks, never reaches it.
/// - **Beyond the bound** the oldest `Send` or `Event` is dropped, as if the network lost
///   it; a `Persist` is never dropped (the machines tolerate message loss, not lost writes).
/// - **Coalescing**: a `Persist` that [`Durable::supersedes`] a queued one replaces it in
///   place, so it still leaves before every `Send` queued after the older one.
///
/// A driver that never drains therefore holds at most the bound plus the Persists (one for
/// a snapshot state, one per log write for Raft, whose log grows with them anyway).
#[derive(Clone, Debug)]
pub struct OutputQueue<M, P, E, To = NodeId> {
    items: VecDeque<Output<M, P, E, To>>,
    bound: usize,
}

impl<M, P: Durable, E, To> OutputQueue<M, P, E, To> {
    /// An empty queue for a machine whose one input queues at most `fanout` sends.
    pub fn new(fanout: usize) -> Self {
        OutputQueue {
            items: VecDeque::new(),
            bound: Self::bound_for(fanout),
        }
    }

    /// The bound, `2 × (fanout + 8)`.
    pub fn bound_for(fanout: usize) -> usize {
        fanout.saturating_add(8).saturating_mul(2)
    }

    /// This queue's bound.
    pub fn bound(&self) -> usize {
        self.bound
    }

    /// Queues `out` under the policy above.
    pub fn push(&mut self, out: Output<M, P, E, To>) {
        if let Output::Persist(new) = &out
            && let Some(slot) = self
                .items
                .iter_mut()
                .find(|o| matches!(o, Output::Persist(old) if new.supersedes(old)))
        {
            *slot = out;
            return;
        }
        if self.items.len() >= self.bound {
            let oldest = self
                .items
                .iter()
                .position(|o| !matches!(o, Output::Persist(_)));
            if let Some(i) = oldest {
                self.items.remove(i);
            }
        }
        self.items.push_back(out);
    }

    /// The oldest waiting output.
    pub fn pop(&mut self) -> Option<Output<M, P, E, To>> {
        self.items.pop_front()
    }

    /// How many outputs wait.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether none wait.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct Snap(u64);
    impl Durable for Snap {
        fn supersedes(&self, _: &Self) -> bool {
            true
        }
    }
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct Op(u64);
    impl Durable for Op {}

    type Q<P> = OutputQueue<u64, P, (), NodeId>;

    fn send<P>(n: u64) -> Output<u64, P, (), NodeId> {
        Output::Send {
            to: NodeId(2),
            msg: n,
        }
    }

    #[test]
    fn the_bound_is_two_inputs_worth() {
        assert_eq!(Q::<Op>::bound_for(2), 20);
        assert_eq!(Q::<Op>::new(0).bound(), 16);
        assert_eq!(Q::<Op>::bound_for(usize::MAX), usize::MAX);
    }

    #[test]
    fn a_superseding_persist_replaces_the_older_in_place() {
        let mut q: Q<Snap> = OutputQueue::new(1);
        q.push(Output::Persist(Snap(1)));
        q.push(send(1));
        q.push(Output::Persist(Snap(2)));
        assert_eq!(q.pop(), Some(Output::Persist(Snap(2))));
        assert_eq!(q.pop(), Some(send(1)));
        assert_eq!(q.pop(), None);
    }

    #[test]
    fn beyond_the_bound_the_oldest_send_goes_and_persists_stay() {
        let mut q: Q<Op> = OutputQueue::new(0);
        q.push(Output::Persist(Op(1)));
        q.push(Output::Persist(Op(2)));
        for n in 0..100 {
            q.push(send(n));
        }
        assert_eq!(q.len(), 16);
        assert_eq!(q.pop(), Some(Output::Persist(Op(1))));
        assert_eq!(q.pop(), Some(Output::Persist(Op(2))));
        assert_eq!(q.pop(), Some(send(86)));
    }
}
