//! Raft's Log Matching table: `(index, term)` to the hash of the log prefix ending there.
//!
//! Nearly every index holds entries of one term, and the indices held are the run of them
//! above the compaction point, so the table keeps the first term seen at each index of that
//! run in a `VecDeque` indexed by `index - base - 1`, and only the rest (a second term at an
//! index, written by a leader that did not win, or an index below the run) in a `HashMap`.
//! What it answers is what one `BTreeMap` of every pair would.
//!
//! The rest is a hash map, not a `BTreeMap` (no B-tree code in the wasm modules) and not a
//! sorted `Vec`: it holds what the run does not, up to the entries above the compaction point
//! of a leader cut off from its quorum (thousands), so an insert must not move the others.
//! Nothing iterates it in an order that shows: a compaction keeps the pairs above the point
//! (`retain`, one pass over the map, once per compaction).

use std::collections::{HashMap, VecDeque};

#[derive(Clone, Debug, Default)]
pub(super) struct PrefixTable {
    /// `dense[i]` holds the first `(term, hash)` recorded at index `base + i + 1`.
    base: u64,
    dense: VecDeque<(u64, u64)>,
    /// Every other recorded pair.
    rest: HashMap<(u64, u64), u64>,
}

impl PrefixTable {
    /// The row of `index` in `dense`, if it is inside the run or right after it (where the
    /// run grows: an index first seen there, as every appended entry's is, starts a row).
    #[inline]
    fn row(&self, index: u64) -> Option<usize> {
        let i = usize::try_from(index.checked_sub(self.base)?.checked_sub(1)?).ok()?;
        (i <= self.dense.len()).then_some(i)
    }

    /// The hash recorded for `(index, term)`.
    pub(super) fn get(&self, index: u64, term: u64) -> Option<u64> {
        if let Some((t, h)) = self.row(index).and_then(|i| self.dense.get(i))
            && *t == term
        {
            return Some(*h);
        }
        self.rest.get(&(index, term)).copied()
    }

    /// Records `hash` for `(index, term)`, which holds none.
    pub(super) fn insert(&mut self, index: u64, term: u64, hash: u64) {
        if self.row(index) == Some(self.dense.len()) {
            self.dense.push_back((term, hash));
        } else {
            self.rest.insert((index, term), hash);
        }
    }

    /// Forgets every pair at an index through `index`.
    pub(super) fn forget_through(&mut self, index: u64) {
        let drop = usize::try_from(index.saturating_sub(self.base))
            .unwrap_or(usize::MAX)
            .min(self.dense.len());
        self.dense.drain(..drop);
        self.base = self.base.max(index);
        self.rest.retain(|&(i, _), _| i > index);
    }

    /// Pairs recorded.
    pub(super) fn len(&self) -> usize {
        self.dense.len() + self.rest.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Random records, look-ups and compactions against one `BTreeMap` of every pair.
    #[test]
    fn answers_what_one_map_of_every_pair_answers() {
        let mut t = PrefixTable::default();
        let mut all: BTreeMap<(u64, u64), u64> = BTreeMap::new();
        let mut x: u64 = 9;
        let mut next = |m: u64| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (x >> 20) % m
        };
        let mut top = 0u64;
        let mut in_rest = 0;
        for round in 0..20_000u64 {
            let index = match next(10) {
                0 => next(top + 2),
                _ => (top + next(2)).max(1),
            };
            let term = 1 + next(3);
            assert_eq!(t.get(index, term), all.get(&(index, term)).copied());
            if let std::collections::btree_map::Entry::Vacant(e) = all.entry((index, term)) {
                e.insert(round);
                t.insert(index, term, round);
                top = top.max(index);
            }
            if round % 500 == 499 {
                let through = top.saturating_sub(next(20));
                t.forget_through(through);
                all = all.split_off(&(through + 1, 0));
            }
            assert_eq!(t.len(), all.len());
            in_rest = in_rest.max(t.rest.len());
        }
        assert!(in_rest > 0 && !t.dense.is_empty(), "both parts are used");
        for (&(index, term), &h) in &all {
            assert_eq!(t.get(index, term), Some(h));
        }
    }
}
