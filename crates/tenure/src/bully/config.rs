//! Configuration of a Bully node: identity, peers and the four timeouts.

use crate::id::NodeId;
use crate::time::Duration;
use alloc::vec::Vec;

/// Configuration of one [`BullyNode`](super::BullyNode).
///
/// A plain struct with [`Default`]; [`BullyNode::new`](super::BullyNode::new) calls
/// [`validate`](Self::validate) and refuses an invalid one. All durations are in
/// microseconds ([`Duration`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BullyConfig {
    /// This node's id. Ids are ordered: the highest live id wins (design rule 7).
    pub id: NodeId,
    /// Every other member of the cluster, in any order, without `id` and without duplicates.
    /// Messages from ids not listed here are ignored.
    pub peers: Vec<NodeId>,
    /// How often a coordinator sends `Heartbeat` to every peer, in us. Must be `> 0`.
    pub heartbeat_interval: Duration,
    /// How long a follower waits without hearing its coordinator before it starts an
    /// election, in us. Must exceed `heartbeat_interval`. The detector fires after this
    /// plus a jitter drawn from `[0, heartbeat_interval)` with the seeded PRNG, plus one
    /// [`election_stagger`](Self::election_stagger) per peer between this node and the
    /// coordinator (so the highest live follower elects first).
    pub failure_timeout: Duration,
    /// How long a candidate waits for an `Answer` from a higher id before it announces
    /// itself coordinator, in us. Must be `> 0`.
    pub answer_timeout: Duration,
    /// How long a candidate that got an `Answer` waits for the `Coordinator` announcement
    /// before it starts a new election, in us. Must exceed `answer_timeout`, because the
    /// higher node that answered runs its own election (up to `answer_timeout`) first.
    pub coordinator_timeout: Duration,
    /// Seed of the PRNG behind the failure-detector jitter, mixed with `id`
    /// ([`node_seed`](crate::node_seed)), so nodes given one seed draw different jitter.
    /// Same seed and id, same behaviour. Default 0.
    pub seed: u64,
}

impl Default for BullyConfig {
    /// Node 1 alone, heartbeat 50 ms, failure timeout 200 ms, answer timeout 50 ms,
    /// coordinator timeout 150 ms, seed 0.
    fn default() -> Self {
        BullyConfig {
            id: NodeId(1),
            peers: Vec::new(),
            heartbeat_interval: Duration::from_millis(50),
            failure_timeout: Duration::from_millis(200),
            answer_timeout: Duration::from_millis(50),
            coordinator_timeout: Duration::from_millis(150),
            seed: 0,
        }
    }
}

/// Why a [`BullyConfig`] was refused (caller misuse).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum ConfigError {
    /// `peers` contains the node's own id.
    #[error("peers must not contain the node's own id {id}")]
    SelfInPeers {
        /// The node's id.
        id: NodeId,
    },
    /// `peers` lists the same id twice.
    #[error("peers lists {peer} more than once")]
    DuplicatePeer {
        /// The repeated id.
        peer: NodeId,
    },
    /// `heartbeat_interval` is zero.
    #[error("heartbeat_interval {heartbeat_interval} must be above 0")]
    HeartbeatIntervalZero {
        /// The value given.
        heartbeat_interval: Duration,
    },
    /// `failure_timeout` does not exceed `heartbeat_interval`.
    #[error(
        "failure_timeout {failure_timeout} must be above heartbeat_interval {heartbeat_interval}"
    )]
    FailureTimeoutTooShort {
        /// The value given.
        failure_timeout: Duration,
        /// The heartbeat interval it must exceed.
        heartbeat_interval: Duration,
    },
    /// `answer_timeout` is zero.
    #[error("answer_timeout {answer_timeout} must be above 0")]
    AnswerTimeoutZero {
        /// The value given.
        answer_timeout: Duration,
    },
    /// `coordinator_timeout` does not exceed `answer_timeout`.
    #[error(
        "coordinator_timeout {coordinator_timeout} must be above answer_timeout {answer_timeout}"
    )]
    CoordinatorTimeoutTooShort {
        /// The value given.
        coordinator_timeout: Duration,
        /// The answer timeout it must exceed.
        answer_timeout: Duration,
    },
}

impl BullyConfig {
    /// The wait per higher-ranked candidate before a node elects on its own, in us:
    /// `coordinator_timeout + heartbeat_interval`.
    ///
    /// A node with `r` live candidates ranked above it (higher ids; below the silent
    /// coordinator when its failure detector fired) waits `r` staggers before it elects, so
    /// the highest live node elects first and the others hear its `Coordinator` before their
    /// turn. One stagger covers what lies between two neighbours' turns: the higher node's
    /// `answer_timeout` and the delivery of its announcement (the slack of
    /// `coordinator_timeout` over `answer_timeout`), and the failure-detector jitter
    /// (`[0, heartbeat_interval)`). 200 ms with the defaults.
    pub fn election_stagger(&self) -> Duration {
        self.coordinator_timeout
            .saturating_add(self.heartbeat_interval)
    }

    /// Checks the rules documented on each field; the first violation is returned.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.peers.contains(&self.id) {
            return Err(ConfigError::SelfInPeers { id: self.id });
        }
        if let Some(peer) = crate::id::first_repeated(&self.peers) {
            return Err(ConfigError::DuplicatePeer { peer });
        }
        if self.heartbeat_interval == Duration::ZERO {
            return Err(ConfigError::HeartbeatIntervalZero {
                heartbeat_interval: self.heartbeat_interval,
            });
        }
        if self.failure_timeout <= self.heartbeat_interval {
            return Err(ConfigError::FailureTimeoutTooShort {
                failure_timeout: self.failure_timeout,
                heartbeat_interval: self.heartbeat_interval,
            });
        }
        if self.answer_timeout == Duration::ZERO {
            return Err(ConfigError::AnswerTimeoutZero {
                answer_timeout: self.answer_timeout,
            });
        }
        if self.coordinator_timeout <= self.answer_timeout {
            return Err(ConfigError::CoordinatorTimeoutTooShort {
                coordinator_timeout: self.coordinator_timeout,
                answer_timeout: self.answer_timeout,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    #[test]
    fn default_is_valid() {
        assert_eq!(BullyConfig::default().validate(), Ok(()));
    }

    #[test]
    fn peers_must_exclude_self_and_duplicates() {
        let mut c = BullyConfig {
            peers: vec![NodeId(2), NodeId(1)],
            ..BullyConfig::default()
        };
        assert_eq!(
            c.validate(),
            Err(ConfigError::SelfInPeers { id: NodeId(1) })
        );
        c.peers = vec![NodeId(2), NodeId(3), NodeId(2)];
        let err = c.validate().unwrap_err();
        assert_eq!(err, ConfigError::DuplicatePeer { peer: NodeId(2) });
        assert_eq!(err.to_string(), "peers lists n2 more than once");
    }

    #[test]
    fn timeouts_must_be_ordered_and_errors_name_the_values() {
        let c = BullyConfig {
            heartbeat_interval: Duration::from_millis(100),
            failure_timeout: Duration::from_millis(100),
            ..BullyConfig::default()
        };
        assert_eq!(
            c.validate().unwrap_err().to_string(),
            "failure_timeout 100ms must be above heartbeat_interval 100ms"
        );
        let c = BullyConfig {
            heartbeat_interval: Duration::ZERO,
            ..BullyConfig::default()
        };
        assert!(matches!(
            c.validate(),
            Err(ConfigError::HeartbeatIntervalZero { .. })
        ));
        let c = BullyConfig {
            answer_timeout: Duration::ZERO,
            ..BullyConfig::default()
        };
        assert!(matches!(
            c.validate(),
            Err(ConfigError::AnswerTimeoutZero { .. })
        ));
        let c = BullyConfig {
            coordinator_timeout: Duration::from_millis(50),
            ..BullyConfig::default()
        };
        assert_eq!(
            c.validate().unwrap_err().to_string(),
            "coordinator_timeout 50ms must be above answer_timeout 50ms"
        );
    }
}
