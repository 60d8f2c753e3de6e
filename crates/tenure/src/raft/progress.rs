//! A leader's view of one follower: what it holds, what is in flight to it, and when it was
//! last heard. The flow control follows the probe/replicate states of etcd-io/raft
//! (`tracker/progress.go`, `tracker/inflights.go`), rewritten for Tenure's messages.
//!
//! # Why it bounds the traffic
//! Every `AppendEntries` a leader sends to one follower has exactly one of four causes:
//!
//! 1. a heartbeat tick: at most one message per follower per `heartbeat_interval`;
//! 2. a proposal: at most one message per follower per proposal, and only in
//!    [`ProgressState::Replicate`] with room in the window;
//! 3. an acknowledgement that advanced `match_index` (a response that says nothing new, such
//!    as a duplicate, sends nothing), which sends only entries never sent before in this
//!    replicate run, at most `max_inflight_appends` messages outstanding;
//! 4. a rejection that moved `next_index` down (probing), at most one probe outstanding; a
//!    duplicate or reordered rejection no longer moves it and sends nothing.
//!
//! No response ever sends more than the new information it carries, so duplication and
//! reordering cannot fork resend chains, and the leader's rate per follower is at most
//! `heartbeat rate + proposal rate` plus the probes of a log repair. The cluster's rate is
//! therefore `O(nodes x (heartbeat rate + proposal rate))`, each request answered by at most
//! one response per delivered copy.

use crate::time::Instant;
use alloc::collections::VecDeque;

/// How the leader sends to a follower (etcd-io/raft `StateProbe` / `StateReplicate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ProgressState {
    /// Where the follower's log matches is unknown: at most one `AppendEntries` is
    /// outstanding, and `next_index` moves down on each fresh rejection.
    Probe,
    /// The follower is known to match up to `match_index`: entries stream optimistically,
    /// `next_index` runs ahead, and at most `max_inflight_appends` messages are outstanding.
    Replicate,
}

/// The last index of each `AppendEntries` in flight, oldest first, at most `cap` of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Inflights {
    last_indexes: VecDeque<u64>,
    cap: usize,
}

impl Inflights {
    pub(crate) fn new(cap: usize) -> Self {
        Inflights {
            last_indexes: VecDeque::new(),
            cap: cap.max(1),
        }
    }

    pub(crate) fn is_full(&self) -> bool {
        self.last_indexes.len() >= self.cap
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.last_indexes.is_empty()
    }

    /// Records a message carrying entries up to `last_index`; refused when full.
    pub(crate) fn add(&mut self, last_index: u64) -> bool {
        if self.is_full() {
            return false;
        }
        self.last_indexes.push_back(last_index);
        true
    }

    /// Frees every message whose entries are all at or below `index` (acknowledged).
    pub(crate) fn free_to(&mut self, index: u64) {
        while self.last_indexes.front().is_some_and(|&last| last <= index) {
            self.last_indexes.pop_front();
        }
    }

    pub(crate) fn clear(&mut self) {
        self.last_indexes.clear();
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.last_indexes.len()
    }
}

/// A leader's view of one follower (Raft Figure 2, "Volatile state on leaders", with the
/// flow control of etcd-io/raft).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Progress {
    /// Highest index known to be replicated on the follower.
    pub(crate) match_index: u64,
    /// Index of the next entry to send; always in `match_index + 1 ..= last_index + 1`.
    pub(crate) next_index: u64,
    pub(crate) state: ProgressState,
    /// Probe: an `AppendEntries` is outstanding (cleared by its answer or the next tick).
    pub(crate) probe_sent: bool,
    /// Replicate: the messages in flight.
    pub(crate) inflights: Inflights,
    /// Replicate: `match_index` advanced since the last heartbeat tick.
    pub(crate) progressed: bool,
    /// Replicate: at the last tick, messages were in flight and none had been answered.
    pub(crate) stalled: bool,
    /// When the leader last heard from the follower in this term, on its own clock
    /// (CheckQuorum judges these contact times, dissertation §6.2).
    pub(crate) last_heard: Instant,
    /// The latest send time (leader's clock) of an `AppendEntries` the follower answered
    /// in this term: the follower reset its election timer no earlier (leader lease).
    pub(crate) acked_sent_at: Option<Instant>,
}

impl Progress {
    /// A follower of a leader just elected at `now` whose last index is `last_index`.
    pub(crate) fn new(last_index: u64, window: usize, now: Instant) -> Self {
        Progress {
            match_index: 0,
            next_index: last_index.saturating_add(1),
            state: ProgressState::Probe,
            probe_sent: false,
            inflights: Inflights::new(window),
            progressed: false,
            stalled: false,
            last_heard: now,
            acked_sent_at: None,
        }
    }

    /// Whether the leader may send it entries now.
    pub(crate) fn is_paused(&self) -> bool {
        match self.state {
            ProgressState::Probe => self.probe_sent,
            ProgressState::Replicate => self.inflights.is_full(),
        }
    }

    /// Back to probing from `next_index` (at least `match_index + 1`).
    pub(crate) fn become_probe(&mut self, next_index: u64) {
        self.state = ProgressState::Probe;
        self.next_index = next_index.max(self.match_index.saturating_add(1));
        self.probe_sent = false;
        self.stalled = false;
        self.inflights.clear();
    }

    /// Streaming from `match_index + 1` onwards (or from `next_index` if already ahead).
    pub(crate) fn become_replicate(&mut self) {
        self.state = ProgressState::Replicate;
        self.next_index = self.next_index.max(self.match_index.saturating_add(1));
        self.probe_sent = false;
        self.inflights.clear();
    }

    /// Records an acknowledgement of everything up to `index`. Returns whether it told the
    /// leader anything new (a higher `match_index`).
    pub(crate) fn acknowledge(&mut self, index: u64) -> bool {
        if index <= self.match_index {
            return false;
        }
        self.match_index = index;
        self.next_index = self.next_index.max(index.saturating_add(1));
        self.inflights.free_to(index);
        self.progressed = true;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_is_bounded_and_freed_by_acknowledgements() {
        let mut w = Inflights::new(2);
        assert!(w.add(3));
        assert!(w.add(5));
        assert!(w.is_full());
        assert!(!w.add(7));
        w.free_to(4);
        assert_eq!(w.len(), 1);
        w.free_to(5);
        assert!(w.is_empty());
    }

    #[test]
    fn a_repeated_acknowledgement_is_not_news() {
        let mut p = Progress::new(10, 4, Instant::ZERO);
        p.become_replicate();
        assert!(p.acknowledge(4));
        assert!(!p.acknowledge(4));
        assert!(!p.acknowledge(2));
        assert_eq!(p.next_index, 11);
        p.become_probe(3);
        assert_eq!(p.next_index, 5, "never below match_index + 1");
    }
}
