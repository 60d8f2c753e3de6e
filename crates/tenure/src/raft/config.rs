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
    /// The minimum election timeout `T`, in microseconds. Each election timeout is drawn
    /// uniformly from `[T, election_timeout_max)` (Raft §5.2, design rule 6). `T` is also
    /// the "minimum election timeout" of PreVote and leader stickiness, the CheckQuorum
    /// deadline and the leader lease's length. Must be > 0.
    pub election_timeout: Duration,
    /// The (exclusive) upper end of the election-timeout range, in microseconds; `None`
    /// means `2T`. Must exceed `election_timeout`. A narrow range (`[150, 155)` ms) makes
    /// split votes likely: Raft §9.3 measures exactly that.
    pub election_timeout_max: Option<Duration>,
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
    /// Flow control: the most `AppendEntries` carrying entries that may be unacknowledged
    /// to one follower (etcd-io/raft `MaxInflightMsgs`). Must be >= 1.
    pub max_inflight_appends: usize,
    /// Leader lease: the leader acts as leader ([`RaftNode::is_acting_leader`]) only while
    /// a quorum acknowledged, within `T` less the drift bound, an `AppendEntries` it sent
    /// (times measured from the *send*, design rule 4). Followers refuse votes for `T`
    /// after hearing the leader (leader stickiness), so under the premise (clock rates
    /// within `max_drift_ppm`, no voter restarting with a lost memory of its leader) no two
    /// nodes act as leader at once, even when one is paused. Needs `check_quorum`.
    ///
    /// [`RaftNode::is_acting_leader`]: super::RaftNode::is_acting_leader
    pub leader_lease: bool,
    /// The clock-rate difference the leader lease allows for, in parts per million: the
    /// lease lasts `T - T * max_drift_ppm / 1e6`. Must be < 1 000 000.
    pub max_drift_ppm: u32,
    /// Seed of the PRNG that draws election timeouts. The node mixes its own `id` in
    /// ([`node_seed`](crate::node_seed)), so nodes built from one seed draw different
    /// timeouts.
    pub seed: u64,
}

impl Default for RaftConfig {
    /// Node 1 alone, election timeouts in `[150, 300)` ms, heartbeats every 50 ms, PreVote
    /// and CheckQuorum on, 64 entries per AppendEntries, 8 in flight, no leader lease
    /// (drift bound 10 000 ppm when enabled), seed 0.
    fn default() -> Self {
        RaftConfig {
            id: NodeId(1),
            peers: Vec::new(),
            election_timeout: Duration::from_millis(150),
            election_timeout_max: None,
            heartbeat_interval: Duration::from_millis(50),
            pre_vote: true,
            check_quorum: true,
            max_entries_per_append: 64,
            max_inflight_appends: 8,
            leader_lease: false,
            max_drift_ppm: 10_000,
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
    #[error("election_timeout {election_timeout} must be above 0")]
    ElectionTimeoutZero {
        /// The configured value.
        election_timeout: Duration,
    },
    /// `heartbeat_interval` is zero or not below `election_timeout`.
    #[error(
        "heartbeat_interval {heartbeat_interval} must be above 0 and below election_timeout \
         {election_timeout} (0 < heartbeat_interval < election_timeout)"
    )]
    HeartbeatInterval {
        /// The configured heartbeat interval.
        heartbeat_interval: Duration,
        /// The configured election timeout.
        election_timeout: Duration,
    },
    /// `max_entries_per_append` is zero.
    #[error("max_entries_per_append 0 must be at least 1")]
    MaxEntriesPerAppendZero,
    /// `election_timeout_max` does not exceed `election_timeout`.
    #[error(
        "election_timeout_max {election_timeout_max} must be above election_timeout \
         {election_timeout} (timeouts are drawn from election_timeout up to, not including, \
         election_timeout_max)"
    )]
    ElectionTimeoutRange {
        /// The configured minimum.
        election_timeout: Duration,
        /// The configured maximum.
        election_timeout_max: Duration,
    },
    /// `max_inflight_appends` is zero.
    #[error("max_inflight_appends 0 must be at least 1")]
    MaxInflightAppendsZero,
    /// `leader_lease` is on without `check_quorum`: without leader stickiness followers
    /// vote at once, so no lease holds.
    #[error(
        "leader_lease true needs check_quorum true (followers must refuse votes while they \
         hear a leader)"
    )]
    LeaderLeaseNeedsCheckQuorum,
    /// `max_drift_ppm` is 1 000 000 or more.
    #[error("max_drift_ppm {max_drift_ppm} must be 0 to 999999")]
    MaxDrift {
        /// The configured bound.
        max_drift_ppm: u32,
    },
    /// `peers` contains the node's own id.
    #[error("peers must not contain the node's own id {id}")]
    SelfInPeers {
        /// The node's id.
        id: NodeId,
    },
    /// `peers` lists an id twice.
    #[error("peers lists {peer} more than once")]
    DuplicatePeer {
        /// The repeated id.
        peer: NodeId,
    },
    /// `RaftNode::restart` was given a persisted state no node writes
    /// ([`PersistentState::validate`](super::PersistentState::validate)).
    #[error("persisted state: {0}")]
    State(super::StateError),
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
        if let Some(max) = self
            .election_timeout_max
            .filter(|m| *m <= self.election_timeout)
        {
            return Err(ConfigError::ElectionTimeoutRange {
                election_timeout: self.election_timeout,
                election_timeout_max: max,
            });
        }
        if self.max_inflight_appends == 0 {
            return Err(ConfigError::MaxInflightAppendsZero);
        }
        if self.leader_lease && !self.check_quorum {
            return Err(ConfigError::LeaderLeaseNeedsCheckQuorum);
        }
        if self.max_drift_ppm >= 1_000_000 {
            return Err(ConfigError::MaxDrift {
                max_drift_ppm: self.max_drift_ppm,
            });
        }
        if self.peers.contains(&self.id) {
            return Err(ConfigError::SelfInPeers { id: self.id });
        }
        if let Some(peer) = crate::id::first_repeated(&self.peers) {
            return Err(ConfigError::DuplicatePeer { peer });
        }
        Ok(())
    }

    /// The election-timeout range `[min, max)`: `[T, election_timeout_max)`, `[T, 2T)` by
    /// default (design rule 6).
    pub fn election_timeout_range(&self) -> (Duration, Duration) {
        let t = self.election_timeout;
        (t, self.election_timeout_max.unwrap_or(t.saturating_mul(2)))
    }

    /// How long a leader lease lasts after the send time of a quorum's acknowledgement:
    /// `T` less the drift bound over `T`.
    pub fn lease_duration(&self) -> Duration {
        let t = self.election_timeout.as_micros();
        let drift = t.saturating_mul(u64::from(self.max_drift_ppm)) / 1_000_000;
        Duration::from_micros(t.saturating_sub(drift).saturating_sub(1))
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
            "heartbeat_interval 150ms must be above 0 and below election_timeout 150ms \
             (0 < heartbeat_interval < election_timeout)"
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
            Err(ConfigError::DuplicatePeer { peer: NodeId(2) })
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
        let c = RaftConfig {
            election_timeout_max: Some(Duration::from_millis(150)),
            ..three()
        };
        assert_eq!(
            c.validate().unwrap_err().to_string(),
            "election_timeout_max 150ms must be above election_timeout 150ms (timeouts are \
             drawn from election_timeout up to, not including, election_timeout_max)"
        );
        let c = RaftConfig {
            leader_lease: true,
            check_quorum: false,
            ..three()
        };
        assert_eq!(c.validate(), Err(ConfigError::LeaderLeaseNeedsCheckQuorum));
        let c = RaftConfig {
            max_inflight_appends: 0,
            ..three()
        };
        assert_eq!(c.validate(), Err(ConfigError::MaxInflightAppendsZero));
        let c = RaftConfig {
            max_drift_ppm: 1_000_000,
            ..three()
        };
        assert!(matches!(c.validate(), Err(ConfigError::MaxDrift { .. })));
    }

    #[test]
    fn the_timeout_range_defaults_to_t_2t_and_the_lease_is_shorter_than_t() {
        let c = three();
        let t = Duration::from_millis(150);
        assert_eq!(c.election_timeout_range(), (t, Duration::from_millis(300)));
        let narrow = RaftConfig {
            election_timeout_max: Some(Duration::from_millis(155)),
            ..three()
        };
        assert_eq!(
            narrow.election_timeout_range().1,
            Duration::from_millis(155)
        );
        // 150 ms less 1% drift, less 1 us so that the lease ends strictly before T.
        assert_eq!(c.lease_duration(), Duration::from_micros(148_499));
    }
}
