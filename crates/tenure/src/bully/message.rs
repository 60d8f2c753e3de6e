//! The four Bully messages: `Election`, `Answer`, `Coordinator` and `Heartbeat`.

use crate::id::NodeId;
use core::fmt;

/// A message between Bully nodes. Every message carries an epoch, so that a receiver can
/// tell a sender that is behind (design rule 7).
///
/// An *epoch* numbers coordinator announcements. A node that announces itself takes an
/// epoch greater than any it has seen; announcements are ordered by `(epoch, coordinator)`,
/// so two announcements that happen to share an epoch are ordered by id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BullyMessage {
    /// "I am starting an election": sent to every peer with a higher id. `epoch` is the
    /// highest epoch the sender has seen.
    Election {
        /// The sender's highest epoch seen.
        epoch: u64,
    },
    /// "I am alive and higher than you; stand back": the reply to an `Election` from a
    /// lower id. `epoch` is the highest epoch the sender has seen.
    Answer {
        /// The sender's highest epoch seen.
        epoch: u64,
    },
    /// "`coordinator` leads in `epoch`". Sent to every peer by a node that announces itself,
    /// and as the reply to a message from an older epoch, where it names the receiver's
    /// current coordinator, which may be a third node.
    Coordinator {
        /// The node announced as coordinator.
        coordinator: NodeId,
        /// The epoch of that coordinator's announcement.
        epoch: u64,
    },
    /// "I am still your coordinator in `epoch`": sent by the coordinator to every peer each
    /// `heartbeat_interval`. A follower that hears none for `failure_timeout` elects.
    Heartbeat {
        /// The epoch of the sender's announcement.
        epoch: u64,
    },
}

impl BullyMessage {
    /// The epoch the message carries.
    pub fn epoch(&self) -> u64 {
        match *self {
            BullyMessage::Election { epoch }
            | BullyMessage::Answer { epoch }
            | BullyMessage::Coordinator { epoch, .. }
            | BullyMessage::Heartbeat { epoch } => epoch,
        }
    }
}

impl fmt::Display for BullyMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BullyMessage::Election { epoch } => write!(f, "Election epoch={epoch}"),
            BullyMessage::Answer { epoch } => write!(f, "Answer epoch={epoch}"),
            BullyMessage::Coordinator { coordinator, epoch } => {
                write!(f, "Coordinator {coordinator} epoch={epoch}")
            }
            BullyMessage::Heartbeat { epoch } => write!(f, "Heartbeat epoch={epoch}"),
        }
    }
}
