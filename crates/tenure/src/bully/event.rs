//! The events a Bully node reports: elections, announcements, view changes, step-downs.

use crate::id::NodeId;

/// Something the driver or the playground should know about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BullyEvent {
    /// The node started an election in `epoch` (the highest epoch it had seen).
    ElectionStarted {
        /// The node's highest epoch seen when it started.
        epoch: u64,
    },
    /// The node announced itself coordinator in the new `epoch`. Emitted for every
    /// announcement, including a sitting coordinator's re-announcement with a fresh epoch.
    BecameCoordinator {
        /// The epoch of the announcement.
        epoch: u64,
    },
    /// The node adopted `coordinator`'s announcement of `epoch` as its view.
    CoordinatorChanged {
        /// The coordinator the node now follows.
        coordinator: NodeId,
        /// The epoch of that coordinator's announcement.
        epoch: u64,
    },
    /// The node stopped being coordinator of `epoch`.
    SteppedDown {
        /// The epoch the node had announced.
        epoch: u64,
        /// Why.
        reason: StepDownReason,
    },
}

/// Why a coordinator stopped being one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum StepDownReason {
    /// A newer announcement, by a higher id, arrived (the highest live id wins, rule 7).
    HigherCoordinator {
        /// The node announced.
        coordinator: NodeId,
        /// Its epoch.
        epoch: u64,
    },
    /// The driver called `start_election` and higher ids are configured, so the node asks
    /// them before it may announce itself again.
    ElectionStarted,
}
