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
    /// The log; `log[0]` is index 1.
    pub log: Vec<Entry>,
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
                let keep = usize::try_from(first_index.saturating_sub(1)).unwrap_or(usize::MAX);
                self.log.truncate(keep);
                self.log.extend_from_slice(entries);
            }
        }
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
}
