//! What a Raft node reports: outputs, events, roles and timer keys.

use super::message::Message;
use super::persist::PersistOp;

/// One output of a [`RaftNode`](super::RaftNode), pulled with `poll_output`: the shared
/// [`Output`](crate::machine::Output) shape. `Persist` ops must be durable before any later
/// `Send` leaves (design rule 6, S11).
pub type RaftOutput = crate::machine::Output<Message, PersistOp, RaftEvent>;

/// A notable state change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RaftEvent {
    /// This node won the election for `term` (Raft §5.2).
    BecameLeader {
        /// The term it leads.
        term: u64,
    },
    /// This node stopped being leader of `term`.
    SteppedDown {
        /// The term it led.
        term: u64,
        /// Why.
        reason: StepDownReason,
    },
    /// The commit index advanced to `index` (Raft §5.3, §5.4.2).
    Committed {
        /// The new commit index.
        index: u64,
    },
    /// This node started an election for `term` (Raft §5.2).
    BecameCandidate {
        /// The term it campaigns in.
        term: u64,
    },
    /// This node started a PreVote round; it would campaign in `term + 1` (dissertation §9.6).
    BecamePreCandidate {
        /// Its current term, unchanged by the PreVote.
        term: u64,
    },
}

/// The name this type had before the naming pass (the lease and Bully machines say
/// `StepDownReason`); kept so code written against it still compiles.
pub type SteppedDownReason = StepDownReason;

/// Why a leader stepped down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum StepDownReason {
    /// A message carried a higher term (Raft §5.1).
    HigherTerm {
        /// The higher term, which the node now follows.
        new_term: u64,
    },
    /// CheckQuorum: no majority heard from within an election timeout (dissertation §6.2).
    CheckQuorumFailed,
}

/// The role of a node (Raft §5.1, plus the PreVote pre-candidate of dissertation §9.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Role {
    /// Follows a leader, or waits for one.
    Follower,
    /// Runs a PreVote round without raising its term.
    PreCandidate,
    /// Campaigns for votes in its current term.
    Candidate,
    /// Leads its current term.
    Leader,
}

/// What a node is waiting for: the key of each armed timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RaftTimer {
    /// A fresh or restarted node arms its timers at the first `now` it sees; this key is
    /// armed at `Instant::ZERO` until then, so a driver calls `handle_timeout` at once.
    Start,
    /// Follower, pre-candidate or candidate: start an election when it fires (Raft §5.2).
    Election,
    /// Leader: send AppendEntries to every peer.
    Heartbeat,
    /// Leader with CheckQuorum: step down unless a majority was heard from within `T`.
    CheckQuorum,
    /// Leader with `leader_lease`: the lease ends; the node stops acting as leader then.
    LeaderLease,
}
