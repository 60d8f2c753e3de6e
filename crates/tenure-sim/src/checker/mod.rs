//! The invariant checker: what each algorithm promises, and the records of broken promises.
//!
//! Checks run on every event, incrementally: the adapters feed the per-algorithm checkers
//! ([`RaftChecker`], [`LeaseChecker`]) exactly what changed (a term, an appended run of log
//! entries, a grant at the store, a write at the resource), so a check costs what the event
//! changed, not the size of the world.

mod lease;
mod raft;

pub use lease::LeaseChecker;
pub use raft::{EntryCode, RaftChecker};

use crate::process::Proc;
use crate::scenario::Algorithm;
use serde::Serialize;

/// An invariant (or liveness property) the checker watches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum InvariantKind {
    /// Raft: at most one leader per term (Raft §5.2, Election Safety).
    ElectionSafety,
    /// Raft: a node's term never decreases, across restarts too (rule 6, S11).
    TermMonotonic,
    /// Raft: two logs with an entry of the same index and term agree up to it (§5.3).
    LogMatching,
    /// Raft: a committed entry is in the log of every later leader, and no node commits a
    /// different entry at the same index (§5.4, Leader Completeness / State Machine Safety).
    LeaderCompleteness,
    /// Lease: at most one valid holder per key, judged on the store's clock (rule 3).
    SingleValidHolder,
    /// Lease: store tokens strictly increase over grants and are never reused (rule 2).
    TokenMonotonic,
    /// Lease: the resource's highest token never decreases (rule 1).
    ResourceTokenMonotonic,
    /// Lease with fencing: no stale write is accepted (S01, S08, S15b).
    StaleWriteAccepted,
    /// Some leader exists within the stated bound after the last fault heals.
    Liveness,
}

impl InvariantKind {
    /// The kebab-case name.
    pub fn name(self) -> &'static str {
        match self {
            InvariantKind::ElectionSafety => "election-safety",
            InvariantKind::TermMonotonic => "term-monotonic",
            InvariantKind::LogMatching => "log-matching",
            InvariantKind::LeaderCompleteness => "leader-completeness",
            InvariantKind::SingleValidHolder => "single-valid-holder",
            InvariantKind::TokenMonotonic => "token-monotonic",
            InvariantKind::ResourceTokenMonotonic => "resource-token-monotonic",
            InvariantKind::StaleWriteAccepted => "stale-write-accepted",
            InvariantKind::Liveness => "liveness",
        }
    }
}

/// The invariants `algorithm` promises; a violation of one of these fails a run.
///
/// Bully promises only liveness: under a partition each side may elect a coordinator
/// (rule 7), which shows up as a split-brain window, not a violation. Without fencing the
/// lease world promises everything the store guarantees, but not that stale writes are
/// refused.
pub fn promises(algorithm: Algorithm) -> &'static [InvariantKind] {
    use InvariantKind::*;
    match algorithm {
        Algorithm::Raft => &[
            ElectionSafety,
            TermMonotonic,
            LogMatching,
            LeaderCompleteness,
            Liveness,
        ],
        Algorithm::LeaseFencing => &[
            SingleValidHolder,
            TokenMonotonic,
            ResourceTokenMonotonic,
            StaleWriteAccepted,
            Liveness,
        ],
        Algorithm::LeaseUnfenced => &[
            SingleValidHolder,
            TokenMonotonic,
            ResourceTokenMonotonic,
            Liveness,
        ],
        Algorithm::Bully => &[Liveness],
    }
}

/// A broken invariant: when, which, who, and what exactly.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Violation {
    /// True time in us.
    pub time_us: u64,
    /// Which invariant.
    pub kind: InvariantKind,
    /// The processes involved.
    pub nodes: Vec<Proc>,
    /// One line naming the values.
    pub detail: String,
    /// Whether the algorithm promises this invariant (only these fail a run).
    pub promised: bool,
}

/// A violation before the world stamps it with time and promise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Which invariant.
    pub kind: InvariantKind,
    /// The processes involved.
    pub nodes: Vec<Proc>,
    /// One line naming the values.
    pub detail: String,
}
