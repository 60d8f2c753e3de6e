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

    /// Disarms every key `of` picks, in one pass: what a `clear` per key does, in the same
    /// order for the keys left.
    pub fn clear_where(&mut self, of: impl Fn(K) -> bool) {
        self.entries.retain(|(k, _)| !of(*k));
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

    /// The keys due at `now`, in deadline order (ties in arming order): the one way every
    /// machine fires its timers from `handle_timeout(now)`.
    ///
    /// The set is taken when this is called, and [`Due::next`] yields each key at most once,
    /// disarming it first, and skips a key an earlier handler disarmed or moved past `now`.
    /// So a timer re-armed at a saturated `now` cannot loop, and one handler can cancel
    /// another timer due at the same instant:
    ///
    /// ```
    /// # use tenure::{Instant, TimerTable};
    /// let mut timers = TimerTable::new();
    /// timers.set('b', Instant::from_millis(20));
    /// timers.set('a', Instant::from_millis(10));
    /// let mut due = timers.due(Instant::from_millis(30));
    /// let mut fired = Vec::new();
    /// while let Some(key) = due.next(&mut timers) {
    ///     fired.push(key);
    ///     timers.set(key, Instant::from_millis(30)); // re-armed at `now`: not fired again
    /// }
    /// assert_eq!(fired, ['a', 'b']);
    /// ```
    pub fn due(&self, now: Instant) -> Due<K> {
        let mut inline = [(Instant::ZERO, 0usize, None); DUE_INLINE];
        let mut n = 0;
        let mut spill = Vec::new();
        for (i, (k, at)) in self.entries.iter().enumerate() {
            if *at > now {
                continue;
            }
            match inline.get_mut(n) {
                Some(slot) => {
                    *slot = (*at, i, Some(*k));
                    n = n.saturating_add(1);
                }
                None => spill.push((*at, i, *k)),
            }
        }
        let mut due = Due {
            now,
            inline: [None; DUE_INLINE],
            len: 0,
            spill: Vec::new(),
        };
        if spill.is_empty() {
            // The common case: a handful of keys, sorted in place, no allocation.
            let found = inline.get_mut(..n).unwrap_or_default();
            crate::sort::sort_by(found, |a, b| (a.0, a.1) < (b.0, b.1));
            for (slot, (_, _, k)) in due.inline.iter_mut().zip(found.iter().rev()) {
                *slot = *k;
            }
            due.len = n;
        } else {
            spill.extend(
                inline
                    .iter()
                    .filter_map(|(at, i, k)| k.map(|k| (*at, *i, k))),
            );
            crate::sort::sort_by(&mut spill, |a, b| (a.0, a.1) < (b.0, b.1));
            due.spill = spill.into_iter().map(|(_, _, k)| k).rev().collect();
        }
        due
    }

    /// Every armed timer, in arming order.
    pub fn iter(&self) -> impl Iterator<Item = (K, Instant)> + '_ {
        self.entries.iter().copied()
    }
}

/// The keys a [`TimerTable::due`] call found due, fired one by one with [`Due::next`].
#[derive(Clone, Debug)]
#[must_use = "fire the keys with `next`"]
pub struct Due<K> {
    now: Instant,
    /// Reversed: the next key to fire is `inline[len - 1]`. Up to [`DUE_INLINE`] keys live
    /// here without allocating; a larger table's due keys go to `spill` (also reversed).
    inline: [Option<K>; DUE_INLINE],
    len: usize,
    spill: Vec<K>,
}

/// How many due keys a [`Due`] holds without allocating (every machine has fewer timers).
const DUE_INLINE: usize = 8;

impl<K: Copy + Eq> Due<K> {
    /// Disarms and returns the next key that is still due in `table`, or `None` when done.
    pub fn next(&mut self, table: &mut TimerTable<K>) -> Option<K> {
        loop {
            let key = match self.spill.pop() {
                Some(k) => k,
                None if self.len > 0 => {
                    self.len = self.len.saturating_sub(1);
                    match self.inline.get(self.len).copied().flatten() {
                        Some(k) => k,
                        None => continue,
                    }
                }
                None => return None,
            };
            if table.get(key).is_some_and(|at| at <= self.now) {
                table.clear(key);
                return Some(key);
            }
        }
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
    fn due_fires_each_key_once_in_deadline_order_and_skips_cancelled() {
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum K {
            A,
            B,
            C,
            Later,
        }
        let mut t = TimerTable::new();
        t.set(K::C, Instant::from_millis(10));
        t.set(K::A, Instant::from_millis(5));
        t.set(K::B, Instant::from_millis(10));
        t.set(K::Later, Instant::from_millis(99));
        let now = Instant::from_millis(10);
        let mut due = t.due(now);
        let mut fired = Vec::new();
        while let Some(k) = due.next(&mut t) {
            fired.push(k);
            // Re-arming at `now` does not fire again; A's handler cancels B.
            t.set(k, now);
            if k == K::A {
                t.clear(K::B);
            }
        }
        assert_eq!(fired, [K::A, K::C]);
        assert_eq!(t.get(K::Later), Some(Instant::from_millis(99)));
        assert_eq!(t.get(K::A), Some(now));
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

    #[test]
    fn clear_where_is_a_clear_per_key_picked() {
        // Tables of up to six keys armed in pseudo-random orders, each cleared of a
        // pseudo-random set both ways: the same entries, in the same order.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut step = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..2_000 {
            let mut t = TimerTable::new();
            for _ in 0..step() % 8 {
                t.set((step() % 6) as u8, Instant::from_millis(step() % 50));
            }
            let picked = step() % 64;
            let mut each = t.clone();
            for k in 0..6u8 {
                if picked >> k & 1 == 1 {
                    each.clear(k);
                }
            }
            t.clear_where(|k| picked >> k & 1 == 1);
            assert_eq!(t, each);
        }
    }
}
