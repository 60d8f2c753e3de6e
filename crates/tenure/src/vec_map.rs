//! A sorted-vector map and set for a cluster's per-peer tables (Raft's votes and progress).
//!
//! A cluster has a handful of peers (the JS bindings accept 1,024 at most), so a sorted
//! `Vec` searched by bisection does what a `BTreeMap` did, in the same key order, and costs
//! the wasm module a fraction of B-tree code (docs/bindings.md, "Size budgets"). The lease
//! store's key table is one too: a lookup is a bisection, and only a key never seen before
//! moves the entries after it: cheap for the few keys a store holds, quadratic in all for a
//! store fed very many new keys (10,000 in falling order move some 4.5 GB in all).

use alloc::vec::Vec;

/// A map from `K` to `V` kept sorted by key: iteration is in key order, like a `BTreeMap`.
#[derive(Clone, Debug)]
pub(crate) struct VecMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K: Ord, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap {
            entries: Vec::new(),
        }
    }
}

impl<K: Ord, V> VecMap<K, V> {
    /// Where `key` is (`Ok`) or would go (`Err`).
    fn find(&self, key: &K) -> Result<usize, usize> {
        self.entries.binary_search_by(|(k, _)| k.cmp(key))
    }

    /// The value of `key`.
    pub(crate) fn get(&self, key: &K) -> Option<&V> {
        let i = self.find(key).ok()?;
        self.entries.get(i).map(|(_, v)| v)
    }

    /// The value of `key`, mutably.
    pub(crate) fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        let i = self.find(key).ok()?;
        self.entries.get_mut(i).map(|(_, v)| v)
    }

    /// Sets `key` to `value`, returning the value it replaced.
    pub(crate) fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => self
                .entries
                .get_mut(i)
                .map(|(_, v)| core::mem::replace(v, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    /// The value of `key`, inserted as `V::default()` (with a clone of `key`) if absent.
    pub(crate) fn get_or_insert_default(&mut self, key: &K) -> &mut V
    where
        K: Clone,
        V: Default,
    {
        let i = match self.find(key) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (key.clone(), V::default()));
                i
            }
        };
        // `i` was just found or just filled, so it is in bounds.
        #[allow(clippy::indexing_slicing)]
        &mut self.entries[i].1
    }

    /// The keys, in order.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &K> + '_ {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values, in key order.
    pub(crate) fn values(&self) -> impl Iterator<Item = &V> + '_ {
        self.entries.iter().map(|(_, v)| v)
    }

    /// Removes every entry (keeping the allocation).
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
    }
}

/// Serialized as a map, the form a `BTreeMap` had (the simulator's checkpoints).
#[cfg(feature = "serde")]
impl<K: serde::Serialize, V: serde::Serialize> serde::Serialize for VecMap<K, V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.entries.iter().map(|(k, v)| (k, v)))
    }
}

#[cfg(feature = "serde")]
impl<'de, K, V> serde::Deserialize<'de> for VecMap<K, V>
where
    K: serde::Deserialize<'de> + Ord,
    V: serde::Deserialize<'de>,
{
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Read through a BTreeMap: sorted, and a repeated key keeps its last value as before.
        let map = alloc::collections::BTreeMap::<K, V>::deserialize(deserializer)?;
        Ok(VecMap {
            entries: map.into_iter().collect(),
        })
    }
}

/// A set of `K` kept sorted: iteration is in order, like a `BTreeSet`.
#[derive(Clone, Debug)]
pub(crate) struct VecSet<K> {
    keys: Vec<K>,
}

impl<K: Ord> Default for VecSet<K> {
    fn default() -> Self {
        VecSet { keys: Vec::new() }
    }
}

impl<K: Ord> VecSet<K> {
    /// Adds `key`; `false` if it was there already.
    pub(crate) fn insert(&mut self, key: K) -> bool {
        match self.keys.binary_search(&key) {
            Ok(_) => false,
            Err(i) => {
                self.keys.insert(i, key);
                true
            }
        }
    }

    /// How many keys it holds.
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// The keys, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &K> + '_ {
        self.keys.iter()
    }

    /// Removes every key (keeping the allocation).
    pub(crate) fn clear(&mut self) {
        self.keys.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_keeps_key_order_and_replaces_on_insert() {
        let mut m = VecMap::default();
        for k in [5, 1, 3] {
            assert_eq!(m.insert(k, k * 10), None);
        }
        assert_eq!(m.insert(3, 33), Some(30));
        assert_eq!(m.keys().copied().collect::<Vec<_>>(), [1, 3, 5]);
        assert_eq!(m.values().copied().collect::<Vec<_>>(), [10, 33, 50]);
        if let Some(v) = m.get_mut(&5) {
            *v = 55;
        }
        assert_eq!(m.get(&5), Some(&55));
        assert_eq!(m.get(&2), None);
        m.clear();
        assert_eq!(m.keys().count(), 0);
    }

    #[test]
    fn set_refuses_duplicates_and_iterates_in_order() {
        let mut s = VecSet::default();
        assert!(s.insert(4));
        assert!(s.insert(2));
        assert!(!s.insert(4));
        assert_eq!(s.len(), 2);
        assert_eq!(s.iter().copied().collect::<Vec<_>>(), [2, 4]);
        s.clear();
        assert_eq!(s.len(), 0);
    }
}
