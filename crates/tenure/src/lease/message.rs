//! The wire shapes between a [`LeaseCandidate`](super::LeaseCandidate) and a
//! [`LeaseStore`](super::LeaseStore): one request type, one response type.

use crate::fencing::FencingToken;
use crate::id::NodeId;
use crate::time::Duration;
use alloc::string::String;
use core::fmt;

/// Names one lease: the store keeps one holder per key, so per-partition leadership is one
/// key per partition.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
pub struct LeaseKey(pub String);

impl From<&str> for LeaseKey {
    fn from(key: &str) -> Self {
        LeaseKey(String::from(key))
    }
}

impl fmt::Display for LeaseKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Correlates a response with the request it answers.
///
/// Chosen by the candidate, strictly increasing from 1 per candidate; the store echoes it.
/// A response whose id the candidate no longer tracks (superseded, duplicated, or from before
/// a step-down) is ignored (design rule 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
pub struct RequestId(pub u64);

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}", self.0)
    }
}

/// The session of one contender instance: with the holder id, whom a lease belongs to
/// (design rule 8).
///
/// Each [`LeaseCandidate`](super::LeaseCandidate) draws its own from its seeded PRNG when it
/// is constructed, so two processes that claim the same holder id (a copied config, a default
/// id) are still two sessions: the store grants a lease to a (holder, session) pair and keeps
/// any other session out while it is valid, the lesson of Apache Curator's CURATOR-696. The
/// value is opaque: stores compare it for equality and never interpret it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
pub struct SessionId(pub u64);

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "session {:016x}", self.0)
    }
}

/// What a request asks the store to do with `key` on behalf of `holder`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum StoreOp {
    /// Take the lease for `ttl` (us): "SET NX PX" with a token increment.
    Acquire {
        /// Requested lease length in microseconds, counted on the store's clock.
        ttl: Duration,
    },
    /// Extend the lease held under `token` to `ttl` (us) from the store's now.
    Renew {
        /// The token of the lease being renewed.
        token: FencingToken,
        /// New lease length in microseconds, counted on the store's clock.
        ttl: Duration,
    },
    /// End the lease held under `token` now.
    Release {
        /// The token of the lease being released.
        token: FencingToken,
    },
}

/// A request from a contender to the store.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StoreRequest {
    /// Echoed in the response.
    pub id: RequestId,
    /// The lease this request is about.
    pub key: LeaseKey,
    /// The contender making the request: the id it was configured with.
    pub holder: NodeId,
    /// The requesting instance's session: a lease belongs to (`holder`, `session`), and
    /// `Renew`/`Release` must name both (design rule 8).
    pub session: SessionId,
    /// What to do.
    pub op: StoreOp,
}

/// Why the store refused a `Renew` or `Release`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum RejectReason {
    /// The key has no lease, or its lease belongs to another holder or another session of
    /// the same holder (rule 8).
    NotHolder,
    /// The requester holds the key, but under a different token.
    TokenMismatch,
    /// The requester's lease under this token has expired on the store's clock (rule 3) or
    /// was released.
    Expired,
    /// The key has issued `u64::MAX` tokens and can issue no new one without reuse (rule 2).
    TokensExhausted,
    /// The store refused without saying why (an adapter whose backend gives no reason;
    /// design rule 9). A candidate treats it like any other refusal.
    Unknown,
}

impl fmt::Display for RejectReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RejectReason::NotHolder => "not the holder",
            RejectReason::TokenMismatch => "token mismatch",
            RejectReason::Expired => "expired",
            RejectReason::TokensExhausted => "tokens exhausted",
            RejectReason::Unknown => "refused for an unknown reason",
        })
    }
}

/// The store's verdict on one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum StoreResult {
    /// `Acquire` succeeded: the requester holds the key under `token` for `ttl` (us).
    Granted {
        /// The lease's fencing token.
        token: FencingToken,
        /// The TTL the store recorded with the lease, in microseconds: the one the candidate
        /// believes, even when it differs from the one asked for (a store that rounds up to
        /// whole seconds; design rule 9).
        ttl: Duration,
    },
    /// `Acquire` refused: another (holder, session) has a valid lease, for `remaining` (us,
    /// store clock). Both parts are optional (design rule 9): a store may not know or say
    /// them. A `holder` equal to the requester's own id means another session claims the
    /// same identity (rule 8).
    Held {
        /// The current holder, when the store says.
        holder: Option<NodeId>,
        /// Validity left on the store's clock, in microseconds, when the store says.
        remaining: Option<Duration>,
    },
    /// `Renew` succeeded: same `token`, valid `ttl` (us) from the store's now.
    Renewed {
        /// The lease's fencing token (unchanged by renewal, rule 2).
        token: FencingToken,
        /// The TTL now recorded with the lease, in microseconds.
        ttl: Duration,
    },
    /// `Release` succeeded: the lease has ended.
    Released,
    /// `Renew` or `Release` refused.
    Rejected {
        /// Why.
        reason: RejectReason,
    },
}

/// The store's answer to one [`StoreRequest`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StoreResponse {
    /// The request's id, echoed.
    pub id: RequestId,
    /// The request's key, echoed.
    pub key: LeaseKey,
    /// The verdict.
    pub result: StoreResult,
}
