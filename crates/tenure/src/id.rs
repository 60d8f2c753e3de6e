//! Node identifiers.

use core::fmt;

/// Identifies a process: a Raft or Bully node, a lease contender, the store.
///
/// A plain `u64` (a `bigint` in JS). Bully orders nodes by this id: the highest live id wins
/// (DESIGN.md rule 7).
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

impl From<u64> for NodeId {
    fn from(id: u64) -> Self {
        NodeId(id)
    }
}
