//! The invariant checker: what each algorithm promises, and the records of broken promises.
//!
//! Checks run on every event, incrementally: the adapters feed the per-algorithm checkers
//! ([`RaftChecker`], [`LeaseChecker`]) exactly what changed (a term, an appended run of log
//! entries, a grant at the store, a write at the resource), so a check costs what the event
//! changed, not the size of the world.

mod lease;
mod node_table;
mod prefix_table;
mod raft;
mod recent;

pub use lease::LeaseChecker;
pub use raft::{EntryCode, RaftChecker};

use crate::fault::Fault;
use crate::process::Proc;
use crate::scenario::Algorithm;
use serde::Serialize;

/// An invariant (or liveness property) the checker watches.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
    /// Lease: no two sessions ever hold the same token, even under one holder id (rule 8,
    /// CURATOR-696).
    TokenPerSession,
    /// Lease with fencing: no stale write is accepted (S01, S08, S15b).
    StaleWriteAccepted,
    /// Lease: never two nodes acting as leader at once, in true time. Promised only while
    /// the lease's premise holds (docs/design.md, "Invariants"): no process pause and every clock
    /// within the configured drift bound; see [`keeps_lease_premise`].
    SplitBrain,
    /// Some leader exists within the stated bound after the last fault heals.
    Liveness,
}

impl InvariantKind {
    /// Every kind, in declaration order (the `Ord` order): `ALL[k as usize] == k`.
    pub(crate) const ALL: [InvariantKind; 11] = [
        InvariantKind::ElectionSafety,
        InvariantKind::TermMonotonic,
        InvariantKind::LogMatching,
        InvariantKind::LeaderCompleteness,
        InvariantKind::SingleValidHolder,
        InvariantKind::TokenMonotonic,
        InvariantKind::ResourceTokenMonotonic,
        InvariantKind::TokenPerSession,
        InvariantKind::StaleWriteAccepted,
        InvariantKind::SplitBrain,
        InvariantKind::Liveness,
    ];

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
            InvariantKind::TokenPerSession => "token-per-session",
            InvariantKind::StaleWriteAccepted => "stale-write-accepted",
            InvariantKind::SplitBrain => "split-brain",
            InvariantKind::Liveness => "liveness",
        }
    }
}

/// The invariants `algorithm` promises (its registration's `promises`); a violation of one
/// of these fails a run.
///
/// Bully promises only liveness: under a partition each side may elect a coordinator
/// (rule 7), which shows up as a split-brain window, not a violation. Without fencing the
/// lease world promises everything the store guarantees, but not that stale writes are
/// refused.
pub fn promises(algorithm: Algorithm) -> &'static [InvariantKind] {
    algorithm.spec().promises
}

/// Whether a lease world still promises [`InvariantKind::SplitBrain`] after `fault`.
///
/// A lease bounds leadership in time only if clocks measure time (docs/design.md: the split-brain
/// window is a violation "within the drift bound and without pauses"; rule 5). Pauses, clock
/// steps (an offset, or a jump such as S08's store clock) and a drift beyond half the bound
/// (two clocks drifting apart at it add up to the bound) break that premise for the rest of
/// the run; every other fault keeps it, since the deadline counts from send time (rule 4).
pub fn keeps_lease_premise(fault: &Fault, max_drift_ppm: u32) -> bool {
    match fault {
        Fault::Pause { .. }
        | Fault::PauseAfterCheck { .. }
        | Fault::ClockOffset { .. }
        | Fault::ClockJump { .. } => false,
        Fault::ClockDrift { ppm, .. } => ppm.unsigned_abs().saturating_mul(2) <= max_drift_ppm,
        _ => true,
    }
}

/// A broken invariant: when, which, who, and what exactly.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Violation {
    /// True time.
    #[serde(rename = "time_ms", serialize_with = "crate::units::ser_ms")]
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

/// How many violations of each kind: one counter per kind, indexed by the kind. A fixed
/// array in place of the ordered map it was (no B-tree code in the wasm modules); read in
/// kind order, which was the map's.
#[derive(Clone, Debug, Default)]
pub(crate) struct KindCounts([u64; InvariantKind::ALL.len()]);

impl KindCounts {
    /// Counts one violation of `kind`.
    pub(crate) fn add(&mut self, kind: InvariantKind) {
        if let Some(n) = self.0.get_mut(kind as usize) {
            *n += 1;
        }
    }

    /// The kinds counted at least once, with their counts, in kind order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (InvariantKind, u64)> + use<> {
        InvariantKind::ALL
            .into_iter()
            .zip(self.0)
            .filter(|&(_, n)| n > 0)
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::Ms;
    use tenure::NodeId;

    #[test]
    fn all_lists_every_kind_at_its_index() {
        for (i, k) in InvariantKind::ALL.into_iter().enumerate() {
            assert_eq!(k as usize, i, "{k:?}");
            // A kind added to the enum fails to compile here: add it to `ALL` too.
            match k {
                InvariantKind::ElectionSafety
                | InvariantKind::TermMonotonic
                | InvariantKind::LogMatching
                | InvariantKind::LeaderCompleteness
                | InvariantKind::SingleValidHolder
                | InvariantKind::TokenMonotonic
                | InvariantKind::ResourceTokenMonotonic
                | InvariantKind::TokenPerSession
                | InvariantKind::StaleWriteAccepted
                | InvariantKind::SplitBrain
                | InvariantKind::Liveness => {}
            }
        }
        assert!(InvariantKind::ALL.is_sorted());
        let mut counts = KindCounts::default();
        for k in [
            InvariantKind::Liveness,
            InvariantKind::ElectionSafety,
            InvariantKind::Liveness,
        ] {
            counts.add(k);
        }
        assert_eq!(
            counts.iter().collect::<Vec<_>>(),
            [
                (InvariantKind::ElectionSafety, 1),
                (InvariantKind::Liveness, 2)
            ]
        );
    }

    #[test]
    fn pauses_and_clock_steps_break_the_lease_premise() {
        let pause = Fault::Pause {
            target: Proc::Node(NodeId(1)),
            duration_ms: Ms::from_millis(100),
        };
        let jump = Fault::ClockJump {
            target: Proc::Store,
            by_ms: Ms::from_millis(4_000),
        };
        assert!(!keeps_lease_premise(&pause, 10_000));
        assert!(!keeps_lease_premise(&jump, 10_000));
        assert!(keeps_lease_premise(&Fault::Heal {}, 10_000));
        assert!(keeps_lease_premise(
            &Fault::Crash { node: NodeId(1) },
            10_000
        ));
    }

    #[test]
    fn drift_keeps_the_premise_up_to_half_the_bound() {
        // Two clocks drifting apart at bound/2 each differ in rate by the whole bound.
        let drift = |ppm| Fault::ClockDrift {
            target: Proc::Node(NodeId(1)),
            ppm,
        };
        assert!(keeps_lease_premise(&drift(5_000), 10_000));
        assert!(keeps_lease_premise(&drift(-5_000), 10_000));
        assert!(!keeps_lease_premise(&drift(5_001), 10_000));
        assert!(!keeps_lease_premise(&drift(i32::MIN), 10_000));
    }

    #[test]
    fn lease_worlds_promise_no_split_brain_and_bully_does_not() {
        assert!(promises(Algorithm::LeaseFencing).contains(&InvariantKind::SplitBrain));
        assert!(promises(Algorithm::LeaseUnfenced).contains(&InvariantKind::SplitBrain));
        assert!(!promises(Algorithm::Bully).contains(&InvariantKind::SplitBrain));
        assert!(!promises(Algorithm::Raft).contains(&InvariantKind::SplitBrain));
    }
}
