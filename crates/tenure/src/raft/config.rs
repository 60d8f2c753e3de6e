//! Configuration of a Raft node, checked by [`RaftConfig::validate`].

use crate::id::NodeId;
use crate::time::Duration;
use alloc::vec::Vec;

/// Configuration of one Raft node. Every constructor calls [`validate`](Self::validate).
///
/// The cluster is `id` plus `peers`, all voters; a quorum is a strict majority of it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RaftConfig {
    /// This node's id. Must not appear in `peers`.
    pub id: NodeId,
    /// The other voters, without duplicates. Messages from any other id are ignored.
    pub peers: Vec<NodeId>,
    /// The base election timeout `T`, in microseconds. Each election timeout is drawn
    /// uniformly from `[T, 2T)` (Raft §5.2, design rule 6). `T` is also the "minimum
    /// election timeout" of PreVote and leader stickiness, and the CheckQuorum period.
    /// Must be > 0.
    pub election_timeout: Duration,
    /// How often a leader sends AppendEntries (heartbeats), in microseconds.
    /// Must be > 0 and < `election_timeout`.
    pub heartbeat_interval: Duration,
    /// PreVote (Ongaro's dissertation §9.6): a node first asks whether it could win before
    /// raising its term, so a node that was cut off does not disrupt a healthy leader.
    pub pre_vote: bool,
    /// CheckQuorum (dissertation §6.2): a leader that has not heard from a majority within
    /// `election_timeout` steps down; followers that heard from a leader within
    /// `election_timeout` refuse votes for a higher term (leader stickiness, §4.2.3).
    pub check_quorum: bool,
    /// The most entries one AppendEntries carries, and the most a follower accepts from one.
    /// Must be >= 1.
    pub max_entries_per_append: usize,
    /// Seed of the PRNG that draws election timeouts.
    pub seed: u64,
}

impl Default for RaftConfig {
    /// Node 1 alone, `T` = 150 ms, heartbeats every 50 ms, PreVote and CheckQuorum on,
    /// 64 entries per AppendEntries, seed 0.
    fn default() -> Self {
        RaftConfig {
            id: NodeId(1),
            peers: Vec::new(),
            election_timeout: Duration::from_millis(150),
            heartbeat_interval: Duration::from_millis(50),
            pre_vote: true,
            check_quorum: true,
            max_entries_per_append: 64,
            seed: 0,
        }
    }
}

/// Why a [`RaftConfig`] was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum ConfigError {
    /// `election_timeout` is zero.
    #[error("election_timeout must be > 0, got {election_timeout}")]
    ElectionTimeoutZero {
        /// The configured value.
        election_timeout: Duration,
    },
    /// `heartbeat_interval` is zero or not below `election_timeout`.
    #[error(
        "heartbeat_interval must be > 0 and < election_timeout, got heartbeat_interval = {heartbeat_interval}, election_timeout = {election_timeout}"
    )]
    HeartbeatInterval {
        /// The configured heartbeat interval.
        heartbeat_interval: Duration,
        /// The configured election timeout.
        election_timeout: Duration,
    },
    /// `max_entries_per_append` is zero.
    #[error("max_entries_per_append must be >= 1, got 0")]
    MaxEntriesPerAppendZero,
    /// `peers` contains the node's own id.
    #[error("peers must not contain the node's own id {id}")]
    SelfInPeers {
        /// The node's id.
        id: NodeId,
    },
    /// `peers` lists an id twice.
    #[error("peers lists {id} more than once")]
    DuplicatePeer {
        /// The repeated id.
        id: NodeId,
    },
}

impl RaftConfig {
    /// Checks the rules stated on each field; the first violation is returned.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.election_timeout == Duration::ZERO {
            return Err(ConfigError::ElectionTimeoutZero {
                election_timeout: self.election_timeout,
            });
        }
        if self.heartbeat_interval == Duration::ZERO
            || self.heartbeat_interval >= self.election_timeout
        {
            return Err(ConfigError::HeartbeatInterval {
                heartbeat_interval: self.heartbeat_interval,
                election_timeout: self.election_timeout,
            });
        }
        if self.max_entries_per_append == 0 {
            return Err(ConfigError::MaxEntriesPerAppendZero);
        }
        if self.peers.contains(&self.id) {
            return Err(ConfigError::SelfInPeers { id: self.id });
        }
        if let Some(id) = crate::id::first_repeated(&self.peers) {
            return Err(ConfigError::DuplicatePeer { id });
        }
        Ok(())
    }

    /// Votes needed to win: a strict majority of `peers.len() + 1`.
    pub fn quorum(&self) -> usize {
        (self.peers.len().saturating_add(1) / 2).saturating_add(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    fn three() -> RaftConfig {
        RaftConfig {
            peers: vec![NodeId(2), NodeId(3)],
            ..RaftConfig::default()
        }
    }

    #[test]
    fn default_and_three_node_configs_are_valid() {
        assert_eq!(RaftConfig::default().validate(), Ok(()));
        assert_eq!(three().validate(), Ok(()));
        assert_eq!(RaftConfig::default().quorum(), 1);
        assert_eq!(three().quorum(), 2);
    }

    #[test]
    fn errors_name_the_offending_values() {
        let c = RaftConfig {
            heartbeat_interval: Duration::from_millis(150),
            ..three()
        };
        let err = c.validate().unwrap_err();
        assert_eq!(
            err.to_string(),
            "heartbeat_interval must be > 0 and < election_timeout, got heartbeat_interval = 150ms, election_timeout = 150ms"
        );
        let c = RaftConfig {
            peers: vec![NodeId(2), NodeId(1)],
            ..three()
        };
        assert_eq!(
            c.validate(),
            Err(ConfigError::SelfInPeers { id: NodeId(1) })
        );
        let c = RaftConfig {
            peers: vec![NodeId(2), NodeId(2)],
            ..three()
        };
        assert_eq!(
            c.validate(),
            Err(ConfigError::DuplicatePeer { id: NodeId(2) })
        );
        let c = RaftConfig {
            election_timeout: Duration::ZERO,
            ..three()
        };
        assert!(matches!(
            c.validate(),
            Err(ConfigError::ElectionTimeoutZero { .. })
        ));
        let c = RaftConfig {
            max_entries_per_append: 0,
            ..three()
        };
        assert_eq!(c.validate(), Err(ConfigError::MaxEntriesPerAppendZero));
    }
}
