//! The Bully algorithm (Garcia-Molina, 1982) as a sans-IO state machine, with epochs.
//!
//! Ids are ordered and the highest live id wins (design rule 7). A node that misses its
//! coordinator's heartbeats starts an election: it sends `Election` to every higher id. A live
//! higher node replies `Answer` and takes over the election; a node that hears no `Answer`
//! within `answer_timeout` announces itself with `Coordinator` to every peer and then sends
//! `Heartbeat`s. Every announcement carries an *epoch* greater than any its sender has seen
//! (persisted, so it survives restarts), and a message from an epoch older than the receiver's
//! view is answered with the receiver's current coordinator and epoch rather than dropped.
//! A restarted node rejoins through an election that the others see (scenario S14,
//! nirvik/iWant#1), or by adopting the announcement of a higher coordinator it hears first.
//!
//! Elections are staggered by rank, so a healthy election costs O(n) messages rather than
//! Bully's classic O(n^2): before electing on its own, a node waits one
//! [`election_stagger`](BullyConfig::election_stagger) per candidate ranked above it, the
//! highest live node goes first, and the others hear its `Coordinator` before their turn
//! ([`BullyNode`], "Message bound"). See [`BullyNode`] for the inputs, outputs and call
//! order.
//!
//! # What Bully does not promise
//!
//! **Bully elects one coordinator only in a connected network.** It has no quorum: under a
//! partition each side elects the highest id it can reach, so two (or more) nodes may act
//! as coordinator at once, each in good faith. When the partition heals, heartbeats cross,
//! the lower coordinator is bullied, and the views converge on the highest live id again.
//! Tenure's simulator reports the overlap as a split-brain window; use a lease with fencing
//! tokens, or Raft, where that matters. The test
//! `s14_partition_allows_two_coordinators_documented_limitation` pins this behaviour down.
//!
//! Timeouts also make Bully a failure *suspicion* protocol: a coordinator that is only slow
//! is replaced, and bullies its way back when it is heard again.

mod config;
mod event;
mod message;
mod node;
mod output;
mod rank;
mod role;

pub use config::{BullyConfig, ConfigError};
pub use event::{BullyEvent, StepDownReason};
pub use message::BullyMessage;
pub use node::BullyNode;
pub use output::{BullyOutput, BullyPersisted};
pub use role::{BullyTimer, Role};
