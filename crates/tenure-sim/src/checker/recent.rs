//! The lease checker's records of its most recent tokens.

use super::lease::KEEP_TOKENS;

/// A record per recent token, sorted by token: a sorted `Vec` in place of a `BTreeMap` (no
/// B-tree code in the wasm modules). Its length stays near [`KEEP_TOKENS`] (a grant trims
/// it), and tokens are granted in rising order, so a new token goes at the end; an insert
/// elsewhere moves at most those few hundred entries.
#[derive(Clone, Debug)]
pub(super) struct Recent<V>(Vec<(u64, V)>);

impl<V> Default for Recent<V> {
    fn default() -> Self {
        Recent(Vec::new())
    }
}

impl<V> Recent<V> {
    /// Where `token` is (`Ok`) or would go (`Err`).
    fn find(&self, token: u64) -> Result<usize, usize> {
        self.0.binary_search_by_key(&token, |(t, _)| *t)
    }

    pub(super) fn get(&self, token: u64) -> Option<&V> {
        let i = self.find(token).ok()?;
        self.0.get(i).map(|(_, v)| v)
    }

    /// Sets `token`'s record to `v`.
    pub(super) fn insert(&mut self, token: u64, v: V) {
        match self.find(token) {
            Ok(i) => {
                if let Some(slot) = self.0.get_mut(i) {
                    slot.1 = v;
                }
            }
            Err(i) => self.0.insert(i, (token, v)),
        }
    }

    /// Sets `token`'s record to `v` unless it has one.
    pub(super) fn insert_new(&mut self, token: u64, v: V) {
        if let Err(i) = self.find(token) {
            self.0.insert(i, (token, v));
        }
    }

    /// Forgets the lowest tokens until at most [`KEEP_TOKENS`] are left.
    pub(super) fn trim(&mut self) {
        let excess = self.0.len().saturating_sub(KEEP_TOKENS);
        self.0.drain(..excess);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random inserts and trims (tokens mostly rising, some old ones again) against the
    /// `BTreeMap` with `pop_first` that `Recent` replaced.
    #[test]
    fn recent_answers_what_the_map_did() {
        use std::collections::BTreeMap;
        let (mut recent, mut map) = (Recent::default(), BTreeMap::new());
        let mut x: u64 = 11;
        let mut next = |m: u64| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (x >> 33) % m
        };
        let mut top = 0u64;
        for round in 0..20_000u64 {
            let token = if next(4) == 0 {
                top.saturating_sub(next(400))
            } else {
                top += 1 + next(3);
                top
            };
            match next(3) {
                0 => {
                    recent.insert_new(token, round);
                    map.entry(token).or_insert(round);
                }
                _ => {
                    recent.insert(token, round);
                    map.insert(token, round);
                }
            }
            if next(2) == 0 {
                recent.trim();
                while map.len() > KEEP_TOKENS {
                    map.pop_first();
                }
            }
            let probe = top.saturating_sub(next(600));
            assert_eq!(recent.get(probe), map.get(&probe));
            assert_eq!(
                recent.0,
                map.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>()
            );
        }
    }
}
