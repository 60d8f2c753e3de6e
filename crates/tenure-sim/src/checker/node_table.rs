//! A small map from node to record for the checkers' per-node look-ups.
//!
//! The simulator numbers its nodes `1..=n` and a checker sees them in that order, so the
//! record of node `i` nearly always sits at position `i - 1`: a look-up tries that slot and
//! compares one id, and only a table filled in some other order scans its few rows. Rows
//! are never removed. Iteration is in order of first insertion (every use is an order-free
//! fold: a minimum, a sum, one update per row).

use tenure::NodeId;

#[derive(Clone, Debug)]
pub(super) struct NodeTable<V> {
    rows: Vec<(NodeId, V)>,
}

impl<V> Default for NodeTable<V> {
    fn default() -> Self {
        NodeTable { rows: Vec::new() }
    }
}

impl<V> NodeTable<V> {
    #[inline]
    fn position(&self, node: NodeId) -> Option<usize> {
        let guess = usize::try_from(node.0.wrapping_sub(1)).unwrap_or(usize::MAX);
        if self.rows.get(guess).is_some_and(|r| r.0 == node) {
            return Some(guess);
        }
        self.rows.iter().position(|r| r.0 == node)
    }

    pub(super) fn get(&self, node: NodeId) -> Option<&V> {
        self.position(node)
            .and_then(|i| self.rows.get(i))
            .map(|r| &r.1)
    }

    pub(super) fn get_mut(&mut self, node: NodeId) -> Option<&mut V> {
        self.position(node)
            .and_then(|i| self.rows.get_mut(i))
            .map(|r| &mut r.1)
    }

    /// `node`'s record, made by `make` if it has none.
    pub(super) fn get_or_insert_with(&mut self, node: NodeId, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.position(node) {
            Some(i) => i,
            None => {
                self.rows.push((node, make()));
                self.rows.len() - 1
            }
        };
        &mut self.rows[i].1
    }

    pub(super) fn values(&self) -> impl Iterator<Item = &V> + '_ {
        self.rows.iter().map(|r| &r.1)
    }

    pub(super) fn values_mut(&mut self) -> impl Iterator<Item = &mut V> + '_ {
        self.rows.iter_mut().map(|r| &mut r.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_node_whatever_the_order_of_insertion() {
        let mut t = NodeTable::default();
        for id in [3u64, 1, 2, 7, u64::MAX, 0] {
            *t.get_or_insert_with(NodeId(id), || 0) += id;
        }
        for id in [1u64, 2, 3, 7, u64::MAX, 0] {
            assert_eq!(t.get(NodeId(id)), Some(&id), "{id}");
            let v = t.get_or_insert_with(NodeId(id), || 99);
            *v = v.wrapping_add(1);
            assert_eq!(t.get_mut(NodeId(id)).map(|v| *v), Some(id.wrapping_add(1)));
        }
        assert_eq!(t.get(NodeId(4)), None);
        assert_eq!(t.values().count(), 6);
    }
}
