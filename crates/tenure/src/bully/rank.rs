//! The rank stagger: why a healthy Bully election costs O(n) messages, not O(n^2).
//!
//! Classic Bully lets every node that suspects the coordinator elect at once, so a cluster
//! starting together (or losing its coordinator) runs `n` overlapping elections: each node asks
//! every higher id and is answered, O(n^2) messages (Garcia-Molina, 1982). Here a
//! node waits, before an election it starts on its own (at start-up, or when its failure
//! detector fires), one [`election_stagger`](super::BullyConfig::election_stagger) per live
//! candidate ranked above it. The highest live node therefore elects first and its
//! `Coordinator` reaches the others before their own waits run out, so they follow without
//! sending anything. This is the priority-by-delay rule replica sets use to let the preferred
//! node win a takeover (MongoDB's priority takeover), applied to Bully's id order.

use crate::id::NodeId;
use crate::time::Duration;

/// How many of `peers` rank above `id` as candidates: higher than `id` and, when `below` is
/// given (the coordinator that stopped answering), lower than it (nodes above a coordinator
/// would lead if they were alive). `peers` is sorted ascending.
pub(super) fn rank(peers: &[NodeId], id: NodeId, below: Option<NodeId>) -> u64 {
    let above = peers
        .iter()
        .filter(|p| **p > id && below.is_none_or(|top| **p < top))
        .count();
    u64::try_from(above).unwrap_or(u64::MAX)
}

/// The wait for `rank` candidates ranked above: `rank * stagger`, saturating.
pub(super) fn wait(rank: u64, stagger: Duration) -> Duration {
    stagger.saturating_mul(rank)
}
