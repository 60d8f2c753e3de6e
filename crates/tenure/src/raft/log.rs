//! The in-memory Raft log: 1-based indexes, with term 0 at index 0 (Raft §5.3).

use super::message::Entry;
use alloc::vec::Vec;

/// A Raft log. Index `i` (1-based) is `entries[i - 1]`; index 0 is the empty prefix.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct RaftLog {
    entries: Vec<Entry>,
}

impl RaftLog {
    /// A log holding `entries`, the first at index 1.
    pub(crate) fn from_entries(entries: Vec<Entry>) -> Self {
        RaftLog { entries }
    }

    /// Every entry, the first at index 1.
    pub(crate) fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The index of the last entry, 0 if empty.
    pub(crate) fn last_index(&self) -> u64 {
        u64::try_from(self.entries.len()).unwrap_or(u64::MAX)
    }

    /// The term of the last entry, 0 if empty.
    pub(crate) fn last_term(&self) -> u64 {
        self.entries.last().map_or(0, |e| e.term)
    }

    /// The term at `index`: `Some(0)` at index 0, `None` past the end.
    pub(crate) fn term_at(&self, index: u64) -> Option<u64> {
        if index == 0 {
            return Some(0);
        }
        self.get(index).map(|e| e.term)
    }

    /// The entry at `index` (1-based).
    pub(crate) fn get(&self, index: u64) -> Option<&Entry> {
        let i = usize::try_from(index.checked_sub(1)?).ok()?;
        self.entries.get(i)
    }

    /// Up to `max` entries starting at `from` (1-based); empty past the end.
    pub(crate) fn slice_from(&self, from: u64, max: usize) -> Vec<Entry> {
        let start = usize::try_from(from.saturating_sub(1)).unwrap_or(usize::MAX);
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

    /// Drops every entry at index `>= from` (1-based).
    pub(crate) fn truncate_from(&mut self, from: u64) {
        let keep = usize::try_from(from.saturating_sub(1)).unwrap_or(usize::MAX);
        self.entries.truncate(keep);
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
        let log = RaftLog::from_entries(alloc::vec![e(1), e(2)]);
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
        let log = RaftLog::from_entries(alloc::vec![e(1), e(3)]);
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
}
