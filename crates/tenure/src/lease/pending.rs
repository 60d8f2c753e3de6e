//! The bounded table of a candidate's outstanding requests, keyed by [`RequestId`].

use super::message::RequestId;
use crate::fencing::FencingToken;
use crate::time::{Duration, Instant};
use alloc::collections::VecDeque;

/// At most this many requests are tracked; the oldest is forgotten first (its answer is then
/// ignored, which is always safe).
pub(crate) const MAX_OUTSTANDING: usize = 16;

/// What an outstanding request asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Asked {
    Acquire,
    Renew(FencingToken),
}

/// One outstanding request and its send time on the candidate's clock (rule 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Outstanding {
    pub(crate) id: RequestId,
    pub(crate) sent_at: Instant,
    pub(crate) asked: Asked,
}

/// Outstanding requests, oldest first, never more than [`MAX_OUTSTANDING`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Pending {
    entries: VecDeque<Outstanding>,
}

impl Pending {
    pub(crate) fn push(&mut self, entry: Outstanding) {
        while self.entries.len() >= MAX_OUTSTANDING {
            self.entries.pop_front();
        }
        self.entries.push_back(entry);
    }

    /// Removes and returns the entry for `id`: a second answer to the same id finds nothing.
    pub(crate) fn take(&mut self, id: RequestId) -> Option<Outstanding> {
        let index = self.entries.iter().position(|e| e.id == id)?;
        self.entries.remove(index)
    }

    /// Forgets entries with `sent_at + validity <= now`: an answer to them would confer no
    /// time at all (rule 4), so they only cost memory.
    pub(crate) fn forget_spent(&mut self, now: Instant, validity: Duration) {
        self.entries
            .retain(|e| e.sent_at.saturating_add(validity) > now);
    }

    pub(crate) fn has_renewal(&self) -> bool {
        self.entries
            .iter()
            .any(|e| matches!(e.asked, Asked::Renew(_)))
    }

    pub(crate) fn clear(&mut self) {
        self.entries.clear();
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }
}
