//! The periodic workload's back-pressure: when the simulated leader holds back its proposals.

use super::{DEFAULT_COMPACT_EVERY, id_of};
use crate::checker::RaftChecker;

/// The periodic workload's back-pressure, in entries: a leader whose log runs this many
/// entries past what every node's log holds of the committed log skips its proposals until
/// the others catch up, as a client of etcd's raft gets `ErrProposalDropped` past
/// `MaxUncommittedEntriesSize`. Logs are compacted only through what every node holds (no
/// snapshot transfer), so without it a proposal interval shorter than replication can carry
/// (uncommitted entries, and committed ones a lagging follower still needs), a leader cut
/// off from its quorum without CheckQuorum, or a node down for good would grow every log,
/// and what each compaction moves, for as long as the run lasts. The measure is the
/// checker's, not the compaction point, so a run compacted or not proposes the same.
/// Sixteen compaction steps: at the default interval, some 55 minutes of proposals.
const MAX_RETAINED: u64 = 16 * DEFAULT_COMPACT_EVERY;

/// Whether a leader whose log ends at `last` holds back its next proposal ([`MAX_RETAINED`]):
/// its log runs that far past the least of the `n` nodes' agreement with the committed log.
/// Each agreement is at least the compaction point `compacted`, so below the bound from there
/// no node is looked at.
pub(super) fn backlogged(checker: &RaftChecker, compacted: u64, n: usize, last: u64) -> bool {
    if last.saturating_sub(compacted) < MAX_RETAINED {
        return false;
    }
    let least = (0..n)
        .map(|p| checker.agrees_through(id_of(p)))
        .min()
        .unwrap_or(0);
    last.saturating_sub(least) >= MAX_RETAINED
}
