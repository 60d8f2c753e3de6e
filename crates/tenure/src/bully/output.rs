//! What a Bully node hands its driver: the [`BullyOutput`] enum, the [`BullyPersisted`]
//! state, and the bounded queue they wait in.

use super::event::BullyEvent;
use super::message::BullyMessage;
use crate::id::NodeId;
use alloc::collections::VecDeque;

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

/// One output, pulled with [`BullyNode::poll_output`](super::BullyNode::poll_output).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BullyOutput {
    /// Send `msg` to `to`. Loss, delay and duplication are tolerated.
    Send {
        /// The destination.
        to: NodeId,
        /// The message.
        msg: BullyMessage,
    },
    /// Store this durably before any later `Send` leaves.
    Persist(BullyPersisted),
    /// Report an event.
    Event(BullyEvent),
}

/// The outputs waiting for `poll_output`, bounded so that a driver that forgets to drain
/// cannot grow memory without bound.
///
/// At most one `Persist` waits at a time: a newer one replaces it in place, so it still
/// leaves before every `Send` queued after the older one (persisting a higher epoch early is
/// harmless). Beyond `cap` entries the oldest `Send` or `Event` is dropped; a driver that
/// drains after every input, as the contract asks, never reaches the cap.
#[derive(Clone, Debug)]
pub(super) struct OutputQueue {
    items: VecDeque<BullyOutput>,
    cap: usize,
}

impl OutputQueue {
    /// An empty queue holding at most `cap` outputs (at least 1).
    pub(super) fn new(cap: usize) -> Self {
        OutputQueue {
            items: VecDeque::new(),
            cap: cap.max(1),
        }
    }

    /// Queues `out`, coalescing `Persist` and dropping the oldest other output when full.
    pub(super) fn push(&mut self, out: BullyOutput) {
        if let BullyOutput::Persist(_) = out
            && let Some(slot) = self
                .items
                .iter_mut()
                .find(|o| matches!(o, BullyOutput::Persist(_)))
        {
            *slot = out;
            return;
        }
        if self.items.len() >= self.cap {
            let oldest = self
                .items
                .iter()
                .position(|o| !matches!(o, BullyOutput::Persist(_)));
            if let Some(i) = oldest {
                self.items.remove(i);
            }
        }
        self.items.push_back(out);
    }

    /// The oldest waiting output.
    pub(super) fn pop(&mut self) -> Option<BullyOutput> {
        self.items.pop_front()
    }

    /// How many outputs wait.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.items.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn send(epoch: u64) -> BullyOutput {
        BullyOutput::Send {
            to: NodeId(2),
            msg: BullyMessage::Heartbeat { epoch },
        }
    }

    #[test]
    fn persist_is_coalesced_in_place_ahead_of_later_sends() {
        let mut q = OutputQueue::new(10);
        q.push(BullyOutput::Persist(BullyPersisted { epoch: 1 }));
        q.push(send(1));
        q.push(BullyOutput::Persist(BullyPersisted { epoch: 2 }));
        q.push(send(2));
        assert_eq!(
            q.pop(),
            Some(BullyOutput::Persist(BullyPersisted { epoch: 2 }))
        );
        assert_eq!(q.pop(), Some(send(1)));
        assert_eq!(q.pop(), Some(send(2)));
        assert_eq!(q.pop(), None);
    }

    #[test]
    fn an_undrained_queue_stays_at_its_cap_and_keeps_the_persist() {
        let mut q = OutputQueue::new(4);
        q.push(BullyOutput::Persist(BullyPersisted { epoch: 9 }));
        for e in 0..100 {
            q.push(send(e));
        }
        assert_eq!(q.len(), 4);
        assert_eq!(
            q.pop(),
            Some(BullyOutput::Persist(BullyPersisted { epoch: 9 }))
        );
        assert_eq!(q.pop(), Some(send(97)));
    }
}
