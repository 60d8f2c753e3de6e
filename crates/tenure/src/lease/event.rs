//! What a [`LeaseCandidate`](super::LeaseCandidate) emits and shows: outputs, events, states
//! and timer keys.

use super::message::StoreRequest;
use crate::fencing::FencingToken;
use crate::id::NodeId;
use crate::time::Instant;

/// One output of a candidate, pulled with `poll_output`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CandidateOutput {
    /// Deliver this request to the store.
    Send(StoreRequest),
    /// Something the application must act on.
    Event(CandidateEvent),
}

/// The store, as the one peer a candidate talks to: the [`Machine::Peer`] of a
/// [`LeaseCandidate`](super::LeaseCandidate).
///
/// [`Machine::Peer`]: crate::machine::Machine::Peer
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StorePeer;

/// A leadership change, or a warning the application should surface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum CandidateEvent {
    /// This contender now leads under `token` until at least `deadline` (its own clock, us;
    /// rule 4). Present `token` with every write to the fenced resource.
    Elected {
        /// The fencing token of the lease.
        token: FencingToken,
        /// The local lease deadline at election time (us).
        deadline: Instant,
    },
    /// This contender no longer leads: stop all leader work now (S04).
    SteppedDown {
        /// The token it led under.
        token: FencingToken,
        /// Why.
        reason: StepDownReason,
    },
    /// The store says the lease is held by `holder`, which is this contender's own id, in
    /// another session: two instances claim one identity (design rule 8, CURATOR-696), or a
    /// previous instance's lease has not lapsed yet (a restart within one TTL). The store
    /// keeps this one out, so it is safe; a clash that persists is a deployment error to
    /// report. The candidate keeps contending. Emitted once per clash episode, which ends when the
    /// candidate is granted the lease, hears of another holder, or stops contending.
    HolderClash {
        /// The contested holder id (this candidate's own).
        holder: NodeId,
    },
}

/// Why a leader stepped down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum StepDownReason {
    /// The local deadline (rule 4) passed with no renewal outstanding.
    LeaseExpired,
    /// The store refused a renewal of the current lease (S04).
    RenewalRejected,
    /// The resource rejected a write with this lease's token (reported by the caller).
    Fenced,
    /// The caller released the lease.
    Released,
    /// The local deadline passed while renewals went unanswered (S06, S15c).
    StoreUnreachable,
}

/// A candidate's role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Role {
    /// Not contending yet: `campaign` has not been called.
    Follower,
    /// Trying to acquire the lease, with retries.
    Campaigning,
    /// Holding the lease, renewing it.
    Leader,
    /// Not contending after `release`; `campaign` starts again.
    Stopped,
}

/// The name [`Role`] had before the naming pass (Raft and Bully say `Role`); kept so code
/// written against it still compiles, and exported at the crate root under this name.
pub type CandidateState = Role;

/// What a candidate is waiting for: the keys of its timer table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CandidateTimer {
    /// Next acquisition attempt (campaigning).
    Retry,
    /// Next periodic renewal (leader).
    Renew,
    /// A renewal went unanswered: send a fresh one (leader).
    RequestTimeout,
    /// The local lease deadline, rule 4 (leader).
    LeaseDeadline,
}
