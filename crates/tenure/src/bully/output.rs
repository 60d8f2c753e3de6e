//! What a Bully node hands its driver: the [`BullyOutput`] enum, the [`BullyPersisted`]
//! state (the queue they wait in is the shared [`OutputQueue`](crate::machine::OutputQueue)).

use super::event::BullyEvent;
use super::message::BullyMessage;
use crate::machine::{Durable, Output};

/// The state a node must keep across restarts: `Persist` it durably before sending the
/// messages that follow it, and pass it to [`BullyNode::restart`](super::BullyNode::restart).
///
/// Keeping the highest epoch seen means a restarted node never announces an epoch it, or
/// anyone it heard from, already used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BullyPersisted {
    /// The highest epoch the node has seen or announced.
    pub epoch: u64,
}

/// One output, pulled with [`BullyNode::poll_output`](super::BullyNode::poll_output): the
/// shared [`Output`](crate::machine::Output) shape. Loss, delay and duplication of `Send`s
/// are tolerated; a `Persist` is stored durably before any later `Send` leaves.
pub type BullyOutput = Output<BullyMessage, BullyPersisted, BullyEvent>;

/// The epoch is a snapshot: the newer one makes an older, still queued one redundant
/// (persisting a higher epoch early is harmless).
impl Durable for BullyPersisted {
    fn supersedes(&self, _older: &Self) -> bool {
        true
    }
}
