//! Tenure's core: sans-IO state machines for leader election.
//!
//! Every machine in this crate follows one contract (docs/design.md, "The sans-IO contract"):
//!
//! - **Inputs** take the caller's clock reading `now` explicitly: `handle_message(now, ..)`,
//!   `handle_timeout(now)`, and commands such as `campaign(now)`. A `now` earlier than one
//!   already seen is treated as the latest one seen ([`Clock`]).
//! - **Outputs** are pulled with `poll_output()` until it yields `None`: messages to send,
//!   state to persist (durable before any later send leaves), and events.
//! - `poll_timeout()` is the single next deadline, the minimum of a [`TimerTable`]. Calling
//!   `handle_timeout` early or spuriously is harmless.
//! - **Randomness** comes from a [`Rng`] seeded through config: same inputs, same outputs,
//!   natively and in wasm.
//! - **Caller misuse** is a typed error; a leader-only command on a machine that does not
//!   lead is refused with the one [`NotLeader`] every machine shares. **Peer behaviour** (stale terms, duplicates,
//!   unknown senders, late responses) changes state or is ignored; it never panics.
//!
//! The crate does no I/O, reads no clock, and has no global state.
//!
//! Modules:
//! - [`time`]: [`Instant`] and [`Duration`] in integer microseconds, and the clamping [`Clock`].
//! - [`machine`]: the [`Machine`] trait, the [`Output`] shape and the bounded [`OutputQueue`]
//!   every machine shares.
//! - [`timer`]: the [`TimerTable`] behind every `poll_timeout`.
//! - [`rng`]: the seeded [`Rng`].
//! - [`fencing`]: [`FencingToken`] and the [`FencedResource`] that rejects stale tokens.
//! - [`lease`]: the [`LeaseStore`] and the [`LeaseCandidate`] (lease-based election with
//!   fencing tokens).
//! - [`raft`]: [`raft::RaftNode`], Raft-style election with PreVote and CheckQuorum.
//! - [`bully`]: the Bully election with epochs ([`BullyNode`]); no safety under partition.
#![no_std]
#![cfg_attr(
    not(test),
    warn(clippy::arithmetic_side_effects, clippy::indexing_slicing)
)]

extern crate alloc;

pub mod bully;
pub mod config_words;
pub mod fencing;
pub mod id;
pub mod lease;
pub mod machine;
mod not_leader;
pub mod raft;
pub mod rng;
mod sort;
pub mod time;
pub mod timer;
mod vec_map;

pub use bully::{BullyConfig, BullyEvent, BullyMessage, BullyNode, BullyOutput};
pub use fencing::{FencedResource, FencingToken, StaleToken};
pub use id::NodeId;
pub use lease::{
    CandidateEvent, CandidateOutput, CandidateState, CandidateTimer,
    ConfigError as LeaseConfigError, LeaseCandidate, LeaseConfig, LeaseKey, LeaseStore,
    RejectReason, RequestId, StepDownReason, StoreOp, StoreRequest, StoreResponse, StoreResult,
};
pub use machine::{Durable, Machine, Output, OutputQueue};
pub use not_leader::NotLeader;
pub use raft::{RaftConfig, RaftEvent, RaftNode, RaftOutput};
pub use rng::{Rng, node_seed};
pub use time::{Clock, Duration, Instant, MillisError, ms_to_us};
pub use timer::TimerTable;
