//! The timer table behind every machine's `poll_timeout`.
//!
//! Each machine keeps its timers in one [`TimerTable`] keyed by a small enum of its own
//! (`Election`, `Heartbeat`, `Renew`, `LeaseDeadline`, ...). `poll_timeout` is the table's
//! earliest deadline, and the key says what the machine is waiting for, so the playground can
//! label it (convention 3).

use crate::time::Instant;
use alloc::vec::Vec;

/// Deadlines keyed by `K`, at most one per key.
///
/// Tables are tiny (a handful of keys), so a vector beats a map here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimerTable<K> {
    entries: Vec<(K, Instant)>,
}

impl<K> Default for TimerTable<K> {
    fn default() -> Self {
        TimerTable {
            entries: Vec::new(),
        }
    }
}

impl<K: Copy + Eq> TimerTable<K> {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Arms `key` to fire at `at`, replacing any earlier deadline for the same key.
    pub fn set(&mut self, key: K, at: Instant) {
        match self.entries.iter_mut().find(|(k, _)| *k == key) {
            Some(entry) => entry.1 = at,
            None => self.entries.push((key, at)),
        }
    }

    /// Disarms `key`; a no-op if it is not armed.
    pub fn clear(&mut self, key: K) {
        self.entries.retain(|(k, _)| *k != key);
    }

    /// Disarms every timer.
    pub fn clear_all(&mut self) {
        self.entries.clear();
    }

    /// The deadline of `key`, if armed.
    pub fn get(&self, key: K) -> Option<Instant> {
        self.entries
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, at)| *at)
    }

    /// The earliest deadline and its key; ties go to the key armed first.
    pub fn next(&self) -> Option<(K, Instant)> {
        self.entries
            .iter()
            .copied()
            .reduce(|a, b| if b.1 < a.1 { b } else { a })
    }

    /// The earliest deadline, if any: what `poll_timeout` returns.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.next().map(|(_, at)| at)
    }

    /// Disarms and returns the earliest key whose deadline is `<= now`.
    ///
    /// Call it in a loop from `handle_timeout(now)` to fire every expired timer in deadline
    /// order; an early call returns `None`.
    pub fn pop_expired(&mut self, now: Instant) -> Option<K> {
        let (key, at) = self.next()?;
        if at > now {
            return None;
        }
        self.clear(key);
        Some(key)
    }

    /// Every armed timer, in arming order.
    pub fn iter(&self) -> impl Iterator<Item = (K, Instant)> + '_ {
        self.entries.iter().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum T {
        A,
        B,
    }

    #[test]
    fn next_is_the_minimum_and_pop_fires_in_order() {
        let mut t = TimerTable::new();
        t.set(T::A, Instant::from_millis(20));
        t.set(T::B, Instant::from_millis(10));
        assert_eq!(t.next(), Some((T::B, Instant::from_millis(10))));
        assert_eq!(t.pop_expired(Instant::from_millis(5)), None);
        assert_eq!(t.pop_expired(Instant::from_millis(25)), Some(T::B));
        assert_eq!(t.pop_expired(Instant::from_millis(25)), Some(T::A));
        assert_eq!(t.pop_expired(Instant::from_millis(25)), None);
    }

    #[test]
    fn set_replaces_and_clear_disarms() {
        let mut t = TimerTable::new();
        t.set(T::A, Instant::from_millis(20));
        t.set(T::A, Instant::from_millis(30));
        assert_eq!(t.get(T::A), Some(Instant::from_millis(30)));
        t.clear(T::A);
        assert_eq!(t.next_deadline(), None);
    }
}
