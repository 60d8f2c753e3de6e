//! Raft-style leader election with log replication, as a sans-IO state machine.
//!
//! [`RaftNode`] implements the election and replication rules of the Raft paper (Ongaro and
//! Ousterhout, 2014, §5), with PreVote (Ongaro's dissertation §9.6) and CheckQuorum (§6.2)
//! as options, under Tenure's decided semantics (design rule 6):
//!
//! - term and vote are persisted before the messages that depend on them;
//! - each voter counts once per term, and responses from older terms are ignored;
//! - a new leader appends a no-op and commits only entries of its current term;
//! - the election timeout is drawn uniformly from `[min, max)` (default `[T, 2T)`) with the
//!   seeded PRNG, whose seed mixes in the node's id.
//!
//! A leader keeps per-follower flow control (probe and replicate states with a bounded
//! window, after etcd-io/raft), so a healthy cluster sends `O(nodes x (heartbeat rate +
//! proposal rate))` messages per second whatever the duplication, reordering or loss
//! ([`RaftNode`], "Flow control and the message bound").
//!
//! Not included: membership changes, snapshots/log compaction, leadership transfer and
//! read-index; the log carries `u64` commands for the playground and the simulator.
//!
//! ```
//! use tenure::raft::{RaftConfig, RaftNode, RaftOutput, Role};
//! use tenure::{Instant, NodeId};
//!
//! // A single-node cluster elects itself as soon as its first election timeout fires.
//! let mut node = RaftNode::new(RaftConfig::default()).unwrap();
//! node.handle_timeout(Instant::ZERO); // arms the first election timeout
//! let due = node.poll_timeout().unwrap();
//! node.handle_timeout(due);
//! assert_eq!(node.role(), Role::Leader);
//! while let Some(out) = node.poll_output() {
//!     if let RaftOutput::Persist(op) = out { /* make `op` durable */ }
//! }
//! ```

mod config;
mod election;
mod event;
mod log;
mod message;
mod node;
mod persist;
mod progress;
mod replication;

pub use crate::not_leader::NotLeader;
pub use config::{ConfigError, RaftConfig};
pub use event::{RaftEvent, RaftOutput, RaftTimer, Role, StepDownReason, SteppedDownReason};
pub use message::{Entry, EntryData, Message};
pub use node::{CampaignError, RaftNode};
pub use persist::{PersistOp, PersistentState, StateError};
