//! What a Raft node must make durable, as incremental operations (Raft Figure 2,
//! "Persistent state on all servers"; design rule 6; scenario S11).

use super::message::Entry;
use crate::id::NodeId;
use alloc::vec::Vec;

/// One change to durable state, emitted as `RaftOutput::Persist` before any `Send` that
/// depends on it. Apply them in order with [`PersistentState::apply`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PersistOp {
    /// The current term and the vote cast in it (the "hard state").
    HardState {
        /// The current term.
        term: u64,
        /// Who this node voted for in `term`, if anyone.
        voted_for: Option<NodeId>,
    },
    /// New entries at the end of the log; `first_index` is the old last index + 1.
    Append {
        /// The 1-based index of `entries[0]`.
        first_index: u64,
        /// The entries to add.
        entries: Vec<Entry>,
    },
    /// A conflicting suffix is replaced: drop every entry at index `>= first_index`, then
    /// append `entries` (Raft §5.3, step 3 of the AppendEntries receiver).
    TruncateAndAppend {
        /// The first index dropped, and the 1-based index of `entries[0]`.
        first_index: u64,
        /// The entries that replace the suffix.
        entries: Vec<Entry>,
    },
}

/// Log writes are incremental: none makes an older one redundant.
impl crate::machine::Durable for PersistOp {}

/// The durable state of one node: term, vote and log. A restart rebuilds a node from it
/// (`RaftNode::restart`); everything else is volatile.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PersistentState {
    /// The latest term seen.
    pub term: u64,
    /// The vote cast in `term`, if any.
    pub voted_for: Option<NodeId>,
    /// The log after the compacted prefix; `log[0]` is index `compacted_index + 1`.
    pub log: Vec<Entry>,
    /// Entries `1..=compacted_index` were compacted away (0: none; see
    /// `RaftNode::compact_log`).
    #[cfg_attr(feature = "serde", serde(default))]
    pub compacted_index: u64,
    /// The term of entry `compacted_index` (0 when nothing was compacted).
    #[cfg_attr(feature = "serde", serde(default))]
    pub compacted_term: u64,
}

impl PersistentState {
    /// Applies one operation, as a driver does for each `Persist` it makes durable.
    ///
    /// Total: an `Append` or `TruncateAndAppend` whose `first_index` lies past the end
    /// (which a node never emits) appends at the end rather than leaving a gap.
    pub fn apply(&mut self, op: &PersistOp) {
        match op {
            PersistOp::HardState { term, voted_for } => {
                self.term = *term;
                self.voted_for = *voted_for;
            }
            PersistOp::Append {
                first_index,
                entries,
            }
            | PersistOp::TruncateAndAppend {
                first_index,
                entries,
            } => {
                let keep = first_index
                    .saturating_sub(self.compacted_index)
                    .saturating_sub(1);
                self.log
                    .truncate(usize::try_from(keep).unwrap_or(usize::MAX));
                self.log.extend_from_slice(entries);
            }
        }
    }

    /// Forgets every entry through `index` (at most the last), keeping its term, as
    /// `RaftNode::compact_log` does to the node's own log.
    pub fn compact(&mut self, index: u64) {
        let held = u64::try_from(self.log.len()).unwrap_or(u64::MAX);
        let index = index.min(self.compacted_index.saturating_add(held));
        if index <= self.compacted_index {
            return;
        }
        let drop =
            usize::try_from(index.saturating_sub(self.compacted_index)).unwrap_or(usize::MAX);
        if let Some(last) = self.log.get(drop.saturating_sub(1)) {
            self.compacted_term = last.term;
        }
        self.log.drain(..drop.min(self.log.len()));
        self.compacted_index = index;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::message::EntryData;

    fn e(term: u64, c: u64) -> Entry {
        Entry {
            term,
            data: EntryData::Command(c),
        }
    }

    #[test]
    fn apply_replays_hard_state_appends_and_truncations() {
        let mut s = PersistentState::default();
        s.apply(&PersistOp::HardState {
            term: 2,
            voted_for: Some(NodeId(3)),
        });
        s.apply(&PersistOp::Append {
            first_index: 1,
            entries: alloc::vec![e(1, 10), e(2, 20), e(2, 30)],
        });
        s.apply(&PersistOp::TruncateAndAppend {
            first_index: 2,
            entries: alloc::vec![e(3, 40)],
        });
        assert_eq!(s.term, 2);
        assert_eq!(s.voted_for, Some(NodeId(3)));
        assert_eq!(s.log, alloc::vec![e(1, 10), e(3, 40)]);
        // A gap is never created, even from a malformed op.
        s.apply(&PersistOp::Append {
            first_index: u64::MAX,
            entries: alloc::vec![e(3, 50)],
        });
        assert_eq!(s.log.len(), 3);
    }

    #[test]
    fn compact_keeps_indexes_for_later_appends() {
        let mut s = PersistentState::default();
        s.apply(&PersistOp::Append {
            first_index: 1,
            entries: alloc::vec![e(1, 10), e(2, 20), e(2, 30)],
        });
        s.compact(2);
        s.compact(1); // never moves back
        assert_eq!((s.compacted_index, s.compacted_term), (2, 2));
        assert_eq!(s.log, alloc::vec![e(2, 30)]);
        s.apply(&PersistOp::TruncateAndAppend {
            first_index: 3,
            entries: alloc::vec![e(3, 40), e(3, 50)],
        });
        assert_eq!(s.log, alloc::vec![e(3, 40), e(3, 50)]);
        s.compact(99); // at most the last index
        assert_eq!((s.compacted_index, s.compacted_term), (4, 3));
        assert!(s.log.is_empty());
    }
}

/// Why [`RaftNode::restart`](super::RaftNode::restart) refused a persisted state: it holds a
/// log that no Raft node writes, so a node restarted from it could break Log Matching.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum StateError {
    /// An entry's term is below the term of the entry before it (or of the compacted
    /// prefix): the terms along a Raft log never decrease (Raft §5.3).
    #[error(
        "log[{position}].term {term} is below the term {previous} before it: a log's terms \
         never fall (Raft §5.3)"
    )]
    TermDecreases {
        /// The entry's position in `log` (0-based).
        position: u64,
        /// Its term.
        term: u64,
        /// The term before it.
        previous: u64,
    },
    /// An entry's term is above the persisted term: a node takes a term (a `HardState`
    /// persisted first) before it appends entries of that term (Raft Figure 2).
    #[error(
        "log[{position}].term {term} is above the persisted term {current}: no node appends \
         entries of a term it has not taken (Raft Figure 2)"
    )]
    TermAboveCurrent {
        /// The entry's position in `log` (0-based).
        position: u64,
        /// Its term.
        term: u64,
        /// The persisted term.
        current: u64,
    },
}

impl PersistentState {
    /// Checks what every state a node persisted satisfies: the log's terms never decrease
    /// (from `compacted_term` on) and none is above `term`. [`PersistentState::apply`] of a
    /// node's own operations, in order, always passes.
    pub fn validate(&self) -> Result<(), StateError> {
        let mut previous = self.compacted_term;
        for (position, entry) in (0u64..).zip(&self.log) {
            if entry.term < previous {
                return Err(StateError::TermDecreases {
                    position,
                    term: entry.term,
                    previous,
                });
            }
            if entry.term > self.term {
                return Err(StateError::TermAboveCurrent {
                    position,
                    term: entry.term,
                    current: self.term,
                });
            }
            previous = entry.term;
        }
        Ok(())
    }
}
