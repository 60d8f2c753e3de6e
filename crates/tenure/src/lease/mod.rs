//! Lease-based election with fencing tokens: a [`LeaseStore`] and [`LeaseCandidate`]s.
//!
//! The store is a consensus-backed coordination store reduced to a pure state machine: one
//! lease per [`LeaseKey`], a fencing token that grows by one on each new grant (docs/design.md
//! rule 2), and expiry judged on the store's own clock with the TTL recorded with the lease
//! (rule 3). A candidate contends for one key, renews while it leads, and steps down at a
//! local deadline counted from the *send time* of the last confirmed request (rule 4), which
//! its config's safety margin keeps ahead of the store's expiry as long as clock rates stay
//! within `max_drift_ppm` (rule 5). The token it leads under goes with every write to a
//! [`FencedResource`](crate::FencedResource), which rejects stale leaders whatever they
//! believe (rule 1, S01).
//!
//! # Timeline: a grant, two renewals and a step-down
//!
//! Defaults: ttl = 10 s, safety_margin = 1 s, renew_interval = ttl/3 (3 333 333 us),
//! request_timeout = 1 s. Times are microseconds on each process's own clock (here the two
//! clocks agree), and each message takes 200 000 us one way.
//!
//! ```text
//! candidate (us)        store (us)
//! 0          Acquire r1 ------------------> 200_000  Granted #7, expires 10_200_000
//! 400_000    <-- Granted #7                          (rule 2: new grant, token+1)
//!            Elected { #7, deadline = 0 + 10_000_000 - 1_000_000 = 9_000_000 }  (rule 4)
//! 3_333_333  Renew r2 #7 ------------------> 3_533_333  Renewed, expires 13_533_333
//! 3_733_333  <-- Renewed #7                             (rule 2: same token)
//!            deadline = 3_333_333 + 9_000_000 = 12_333_333 (send time, not receipt)
//! 6_666_666  Renew r3 #7 ----X (lost)
//! 7_666_666  Renew r4 #7 ----X (request_timeout: resend, also lost)
//! 8_666_666  Renew r5 #7 ----X ...
//! 12_333_333 LeaseDeadline fires, renewals unanswered:
//!            SteppedDown { #7, StoreUnreachable }; no leader output after this (S04, S06)
//!                                          13_533_333  lease #7 expires on the store's
//!                                                      clock (rule 3); the next grant is #8
//! ```
//!
//! The gap between 12_333_333 on the candidate and 13_533_333 on the store is the margin
//! plus the request's one-way delay: it absorbs clock-rate drift up to
//! `ttl * max_drift_ppm / 1e6` (rule 5). A paused or skewed process can still outlive it,
//! which is why writes carry the token (S01, S08).
//!
//! # Where each part lives
//! The submodules are private, as Raft's and Bully's are; every type is re-exported here.
//! - `message`: [`StoreRequest`], [`StoreResponse`] and their parts.
//! - `store`: [`LeaseStore`].
//! - `config`: [`LeaseConfig`] and [`ConfigError`] (rule 5).
//! - `candidate`: [`LeaseCandidate`].
//! - `event`: [`CandidateOutput`], [`CandidateEvent`], [`StepDownReason`], [`Role`],
//!   [`CandidateTimer`].
//! - [`NotLeader`] (shared with Raft, `crate::NotLeader`): what `assert_leadership` refuses
//!   with.

mod candidate;
mod config;
mod event;
mod message;
mod pending;
mod store;

pub use crate::not_leader::NotLeader;
pub use candidate::LeaseCandidate;
pub use config::{ConfigError, LeaseConfig};
pub use event::{
    CandidateEvent, CandidateOutput, CandidateState, CandidateTimer, Role, StepDownReason,
    StorePeer,
};
pub use message::{
    LeaseKey, RejectReason, RequestId, SessionId, StoreOp, StoreRequest, StoreResponse, StoreResult,
};
pub use store::{LeaseRecord, LeaseStore};
