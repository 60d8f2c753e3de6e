//! Node identifiers.

use alloc::vec::Vec;
use core::fmt;

/// Identifies a process: a Raft or Bully node, a lease contender, the store.
///
/// A plain `u64` (a `bigint` in JS). Bully orders nodes by this id: the highest live id wins
/// (design rule 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
pub struct NodeId(pub u64);

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "n{}", self.0)
    }
}

/// The first id in `ids` that already appeared earlier, if any: O(n log n), so a config
/// with a huge peer list is refused or accepted quickly rather than in quadratic time.
pub(crate) fn first_repeated(ids: &[NodeId]) -> Option<NodeId> {
    // Sorted by (id, position), every entry equal in id to the one before it is a repeat;
    // the first repeat in `ids` is the one at the least such position. (A sort rather than
    // a set: the core's one small sort, no B-tree code in the wasm module.)
    let mut order: Vec<(NodeId, usize)> = ids.iter().copied().zip(0..).collect();
    crate::sort::sort_by(&mut order, |a, b| a < b);
    let repeat = order
        .windows(2)
        .filter_map(|w| match w {
            [(a, _), (b, at)] if a == b => Some(*at),
            _ => None,
        })
        .min()?;
    ids.get(repeat).copied()
}

impl From<u64> for NodeId {
    fn from(id: u64) -> Self {
        NodeId(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_repeated_is_the_first_repeat_in_list_order() {
        let ids = |v: &[u64]| v.iter().copied().map(NodeId).collect::<Vec<_>>();
        assert_eq!(first_repeated(&ids(&[])), None);
        assert_eq!(first_repeated(&ids(&[3, 1, 2])), None);
        // 9 repeats at position 3, 1 at position 4: 9 is reported although 1 < 9.
        assert_eq!(first_repeated(&ids(&[9, 1, 5, 9, 1])), Some(NodeId(9)));
        assert_eq!(first_repeated(&ids(&[2, 7, 7, 2])), Some(NodeId(7)));
        let many: Vec<NodeId> = (0..5000).chain([4999, 7]).map(NodeId).collect();
        assert_eq!(first_repeated(&many), Some(NodeId(4999)));
    }
}
