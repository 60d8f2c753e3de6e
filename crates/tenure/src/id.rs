//! Node identifiers.

use alloc::collections::BTreeSet;
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
    let mut seen = BTreeSet::new();
    ids.iter().copied().find(|id| !seen.insert(*id))
}

impl From<u64> for NodeId {
    fn from(id: u64) -> Self {
        NodeId(id)
    }
}
