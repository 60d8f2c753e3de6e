//! A Bully node's role and the timers it can be waiting on.

/// What a node currently is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Role {
    /// Follows the coordinator it last adopted (or, right after start, none yet).
    Follower,
    /// Runs an election: waits for an `Answer` from a higher id, or, once one answered,
    /// for the `Coordinator` announcement. The armed [`BullyTimer`] says which.
    Candidate,
    /// Announced itself and sends heartbeats.
    Coordinator,
}

/// The timers a Bully node keeps, one deadline each; `poll_timeout` is the earliest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BullyTimer {
    /// Coordinator: time to send the next `Heartbeat` to every peer.
    Heartbeat,
    /// Follower: no word from the coordinator for `failure_timeout` (plus jitter), so elect.
    /// Armed at [`Instant::ZERO`](crate::Instant::ZERO) on construction, so the first
    /// `handle_timeout` starts the initial election.
    FailureDetector,
    /// Candidate: no `Answer` from a higher id within `answer_timeout`, so announce.
    AwaitAnswer,
    /// Candidate that got an `Answer`: no `Coordinator` within `coordinator_timeout`, so
    /// elect again.
    AwaitCoordinator,
}
