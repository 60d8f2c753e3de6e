//! Errors of the lease candidate's commands.

use super::event::CandidateState;
use crate::time::Instant;

/// The state in words, for [`NotLeader`]'s message.
fn state_words(state: CandidateState) -> &'static str {
    match state {
        CandidateState::Follower => "a follower (campaign has not been called)",
        CandidateState::Campaigning => "campaigning (it does not hold the lease)",
        CandidateState::Leader => "the leader",
        CandidateState::Stopped => "stopped (after release)",
    }
}

/// `assert_leadership` refused: the caller must not act as leader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum NotLeader {
    /// The candidate is not in the leader state.
    #[error("not leader: the candidate is {}", state_words(*.state))]
    NotLeading {
        /// The state it is in.
        state: CandidateState,
    },
    /// The local lease deadline has passed (rule 4); the candidate has just stepped down.
    #[error("lease deadline {deadline} passed at {now}")]
    DeadlinePassed {
        /// The local deadline (us).
        deadline: Instant,
        /// The time of the check (us).
        now: Instant,
    },
}
