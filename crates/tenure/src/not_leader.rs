//! [`NotLeader`]: the one refusal every machine gives a leader-only command.

use crate::id::NodeId;
use crate::time::Instant;

/// A leader-only command was refused: the caller must not act as leader. Raft's
/// [`RaftNode::propose`](crate::RaftNode::propose) and a lease candidate's
/// [`LeaseCandidate::assert_leadership`](crate::LeaseCandidate::assert_leadership) return it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum NotLeader {
    /// The machine is not in its leader role (ask its `role()`/`state()` for which one).
    NotLeading {
        /// Its current term (Raft); `None` for a lease candidate, which has none.
        term: Option<u64>,
        /// The leader it follows, if it knows one: forward the command there.
        leader: Option<NodeId>,
    },
    /// Lease: the local lease deadline has passed (rule 4); the candidate has just stepped
    /// down (the event is queued).
    DeadlinePassed {
        /// The local deadline (us).
        deadline: Instant,
        /// The time of the check (us).
        now: Instant,
    },
}

impl core::fmt::Display for NotLeader {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            NotLeader::NotLeading { term, leader } => {
                f.write_str("not the leader")?;
                if let Some(term) = term {
                    write!(f, " of term {term}")?;
                }
                match leader {
                    Some(l) => write!(f, "; the leader is {l}"),
                    None if term.is_some() => f.write_str("; no leader is known"),
                    None => Ok(()),
                }
            }
            NotLeader::DeadlinePassed { deadline, now } => {
                write!(f, "lease deadline {deadline} passed at {now}")
            }
        }
    }
}

impl core::error::Error for NotLeader {}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn messages_name_the_term_and_the_leader_to_forward_to() {
        let raft = NotLeader::NotLeading {
            term: Some(3),
            leader: Some(NodeId(2)),
        };
        assert_eq!(
            raft.to_string(),
            "not the leader of term 3; the leader is n2"
        );
        let alone = NotLeader::NotLeading {
            term: Some(3),
            leader: None,
        };
        assert_eq!(
            alone.to_string(),
            "not the leader of term 3; no leader is known"
        );
        let lease = NotLeader::NotLeading {
            term: None,
            leader: None,
        };
        assert_eq!(lease.to_string(), "not the leader");
    }
}
