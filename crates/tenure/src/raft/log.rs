//! The in-memory Raft log: 1-based indexes, with term 0 at index 0 (Raft §5.3), and a
//! compacted prefix: entries through `offset` are gone, only the last one's term is kept
//! (the shape etcd-io/raft's `raftLog` gives a log behind a snapshot).

use super::message::Entry;
use alloc::vec::Vec;

/// A Raft log. Index `i` (1-based) is `entries[i - offset - 1]`; indexes `1..=offset` were
/// compacted away (`offset_term` is the term at `offset`); index 0 is the empty prefix.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct RaftLog {
    offset: u64,
    offset_term: u64,
    entries: Vec<Entry>,
}

fn to_usize(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

impl RaftLog {
    /// A log holding `entries` after the compacted prefix `1..=offset` (term `offset_term`
    /// at `offset`).
    pub(crate) fn from_parts(offset: u64, offset_term: u64, entries: Vec<Entry>) -> Self {
        RaftLog {
            offset,
            offset_term: if offset == 0 { 0 } else { offset_term },
            entries,
        }
    }

    /// The entries after the compacted prefix, the first at index `offset() + 1`.
    pub(crate) fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The last compacted index (0: nothing compacted).
    pub(crate) fn offset(&self) -> u64 {
        self.offset
    }

    /// The term at [`offset`](Self::offset).
    pub(crate) fn offset_term(&self) -> u64 {
        self.offset_term
    }

    /// The index of the last entry, 0 if empty.
    pub(crate) fn last_index(&self) -> u64 {
        let held = u64::try_from(self.entries.len()).unwrap_or(u64::MAX);
        self.offset.saturating_add(held)
    }

    /// The term of the last entry, 0 if empty.
    pub(crate) fn last_term(&self) -> u64 {
        self.entries.last().map_or(self.offset_term, |e| e.term)
    }

    /// The term at `index`: `Some(0)` at index 0, the kept term at the compaction point,
    /// `None` below it (compacted) or past the end.
    pub(crate) fn term_at(&self, index: u64) -> Option<u64> {
        if index == self.offset {
            return Some(self.offset_term);
        }
        self.get(index).map(|e| e.term)
    }

    /// The entry at `index` (1-based), if held.
    pub(crate) fn get(&self, index: u64) -> Option<&Entry> {
        let i = to_usize(index.checked_sub(self.offset)?.checked_sub(1)?);
        self.entries.get(i)
    }

    /// Up to `max` entries starting at `from` (1-based, above the compaction point); empty
    /// past the end.
    pub(crate) fn slice_from(&self, from: u64, max: usize) -> Vec<Entry> {
        let start = to_usize(from.saturating_sub(self.offset).saturating_sub(1));
        self.entries
            .get(start..)
            .unwrap_or(&[])
            .iter()
            .take(max)
            .copied()
            .collect()
    }

    /// Appends one entry and returns its index.
    pub(crate) fn push(&mut self, entry: Entry) -> u64 {
        self.entries.push(entry);
        self.last_index()
    }

    /// Drops every held entry at index `>= from` (1-based); the compacted prefix stays.
    pub(crate) fn truncate_from(&mut self, from: u64) {
        let keep = to_usize(from.saturating_sub(self.offset).saturating_sub(1));
        self.entries.truncate(keep);
    }

    /// Forgets every entry through `index` (at most the last index), keeping its term.
    /// Returns the compaction point after.
    pub(crate) fn compact(&mut self, index: u64) -> u64 {
        let index = index.min(self.last_index());
        if index > self.offset {
            let term = self.term_at(index).unwrap_or(self.offset_term);
            self.entries
                .drain(..to_usize(index.saturating_sub(self.offset)));
            self.offset = index;
            self.offset_term = term;
        }
        self.offset
    }

    /// Whether a log ending at (`last_index`, `last_term`) is at least as up-to-date as this
    /// one: a later last term wins, and with equal terms the longer log wins (Raft §5.4.1).
    pub(crate) fn is_up_to_date(&self, last_index: u64, last_term: u64) -> bool {
        let mine = self.last_term();
        last_term > mine || (last_term == mine && last_index >= self.last_index())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::message::EntryData;

    fn e(term: u64) -> Entry {
        Entry {
            term,
            data: EntryData::Noop,
        }
    }

    #[test]
    fn indexes_are_one_based_with_term_zero_at_index_zero() {
        let log = RaftLog::from_parts(0, 0, alloc::vec![e(1), e(2)]);
        assert_eq!(log.term_at(0), Some(0));
        assert_eq!(log.term_at(1), Some(1));
        assert_eq!(log.term_at(2), Some(2));
        assert_eq!(log.term_at(3), None);
        assert_eq!(log.term_at(u64::MAX), None);
        assert_eq!(log.slice_from(2, 10), alloc::vec![e(2)]);
        assert_eq!(log.slice_from(u64::MAX, 10), alloc::vec![]);
    }

    #[test]
    fn up_to_date_compares_last_term_then_length() {
        // Raft §5.4.1, the election restriction.
        let log = RaftLog::from_parts(0, 0, alloc::vec![e(1), e(3)]);
        assert!(
            log.is_up_to_date(1, 4),
            "later last term wins even if shorter"
        );
        assert!(log.is_up_to_date(2, 3), "equal term, equal length");
        assert!(!log.is_up_to_date(1, 3), "equal term, shorter");
        assert!(
            !log.is_up_to_date(9, 2),
            "earlier last term loses even if longer"
        );
    }

    #[test]
    fn a_compacted_log_keeps_its_indexes_and_the_term_at_the_compaction_point() {
        let mut log = RaftLog::from_parts(0, 0, alloc::vec![e(1), e(1), e(2), e(3)]);
        assert_eq!(log.compact(2), 2);
        assert_eq!(log.compact(1), 2, "compaction never moves back");
        assert_eq!((log.offset(), log.offset_term()), (2, 1));
        assert_eq!(log.last_index(), 4);
        assert_eq!(log.term_at(1), None, "compacted");
        assert_eq!(log.term_at(2), Some(1));
        assert_eq!(log.term_at(3), Some(2));
        assert_eq!(log.slice_from(3, 10), alloc::vec![e(2), e(3)]);
        log.truncate_from(4);
        assert_eq!(log.push(e(4)), 4);
        assert_eq!(log.compact(99), 4, "at most the last index");
        assert_eq!((log.last_index(), log.last_term()), (4, 4));
        assert!(log.entries().is_empty());
        assert!(log.is_up_to_date(4, 4) && !log.is_up_to_date(3, 4));
    }
}
