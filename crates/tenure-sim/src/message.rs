//! What travels on the simulated network: every algorithm's messages plus the lease world's
//! store requests and resource writes.

use serde::Serialize;
use tenure::bully::BullyMessage;
use tenure::lease::{StoreOp, StoreRequest, StoreResponse, StoreResult};
use tenure::raft::Message as RaftMessage;

/// A message in flight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Payload {
    /// Raft node to Raft node.
    Raft(RaftMessage),
    /// Bully node to Bully node.
    Bully(BullyMessage),
    /// Lease contender to the store.
    StoreRequest(StoreRequest),
    /// The store's answer.
    StoreResponse(StoreResponse),
    /// A new leader installs its token at the resource before it writes (rule 1, S16).
    Establish {
        /// The leader's fencing token.
        token: u64,
    },
    /// The resource's answer to `Establish`.
    Established {
        /// The token that was presented.
        token: u64,
        /// Whether it was installed.
        accepted: bool,
        /// The resource's highest token after.
        required: u64,
    },
    /// The leader's periodic write, as the seed's `LeaderWorker` does.
    Write {
        /// The writer's token (presented only when `fenced`).
        token: u64,
        /// Whether the token is presented (fencing mode).
        fenced: bool,
        /// Simulator bookkeeping: true time the write left its node, in us.
        issued_us: u64,
        /// Simulator bookkeeping: whether it left after its lease ended in true time.
        late: bool,
    },
    /// The resource's verdict on a write.
    WriteResult {
        /// The token the write carried.
        token: u64,
        /// Whether it was accepted.
        accepted: bool,
        /// The resource's highest token (the `required` of a rejection).
        required: u64,
    },
}

impl Payload {
    /// A short label for traces and the playground.
    #[inline]
    pub fn label(&self) -> &'static str {
        match self {
            Payload::Raft(m) => match m {
                RaftMessage::RequestVote { pre_vote: true, .. } => "PreVote",
                RaftMessage::RequestVote { .. } => "RequestVote",
                RaftMessage::RequestVoteResponse { pre_vote: true, .. } => "PreVoteResponse",
                RaftMessage::RequestVoteResponse { .. } => "RequestVoteResponse",
                RaftMessage::AppendEntries { entries, .. } if entries.is_empty() => "Heartbeat",
                RaftMessage::AppendEntries { .. } => "AppendEntries",
                RaftMessage::AppendEntriesResponse { .. } => "AppendEntriesResponse",
            },
            Payload::Bully(m) => match m {
                BullyMessage::Election { .. } => "Election",
                BullyMessage::Answer { .. } => "Answer",
                BullyMessage::Coordinator { .. } => "Coordinator",
                BullyMessage::Heartbeat { .. } => "Heartbeat",
            },
            Payload::StoreRequest(r) => match r.op {
                StoreOp::Acquire { .. } => "Acquire",
                StoreOp::Renew { .. } => "Renew",
                StoreOp::Release { .. } => "Release",
            },
            Payload::StoreResponse(r) => match r.result {
                StoreResult::Granted { .. } => "Granted",
                StoreResult::Held { .. } => "Held",
                StoreResult::Renewed { .. } => "Renewed",
                StoreResult::Released => "Released",
                StoreResult::Rejected { .. } => "Rejected",
            },
            Payload::Establish { .. } => "Establish",
            Payload::Established { .. } => "Established",
            Payload::Write { .. } => "Write",
            Payload::WriteResult { .. } => "WriteResult",
        }
    }

    /// [`Payload::label`] and [`Payload::value`] together, as every send traces them: a Raft
    /// message (nearly every send of a Raft run) takes one match for both, not one each.
    #[inline]
    pub fn label_value(&self) -> (&'static str, Option<u64>) {
        let Payload::Raft(m) = self else {
            return (self.label(), self.value());
        };
        match m {
            RaftMessage::RequestVote { term, pre_vote, .. } => (
                if *pre_vote { "PreVote" } else { "RequestVote" },
                Some(*term),
            ),
            RaftMessage::RequestVoteResponse { term, pre_vote, .. } => (
                if *pre_vote {
                    "PreVoteResponse"
                } else {
                    "RequestVoteResponse"
                },
                Some(*term),
            ),
            RaftMessage::AppendEntries { term, entries, .. } => (
                if entries.is_empty() {
                    "Heartbeat"
                } else {
                    "AppendEntries"
                },
                Some(*term),
            ),
            RaftMessage::AppendEntriesResponse { term, .. } => {
                ("AppendEntriesResponse", Some(*term))
            }
        }
    }

    /// The term, epoch or token the message carries, if any.
    pub fn value(&self) -> Option<u64> {
        match self {
            Payload::Raft(m) => Some(m.term()),
            Payload::Bully(m) => Some(m.epoch()),
            Payload::StoreRequest(r) => match r.op {
                StoreOp::Acquire { .. } => None,
                StoreOp::Renew { token, .. } | StoreOp::Release { token } => Some(token.0),
            },
            Payload::StoreResponse(r) => match r.result {
                StoreResult::Granted { token, .. } | StoreResult::Renewed { token, .. } => {
                    Some(token.0)
                }
                _ => None,
            },
            Payload::Establish { token }
            | Payload::Established { token, .. }
            | Payload::Write { token, .. }
            | Payload::WriteResult { token, .. } => Some(*token),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tenure::raft::{Entry, EntryData};

    #[test]
    fn label_value_is_label_and_value() {
        let entry = Entry {
            term: 2,
            data: EntryData::Noop,
        };
        let mut raft = Vec::new();
        for pre_vote in [false, true] {
            raft.push(RaftMessage::RequestVote {
                term: 3,
                last_log_index: 1,
                last_log_term: 1,
                pre_vote,
            });
            raft.push(RaftMessage::RequestVoteResponse {
                term: 4,
                granted: pre_vote,
                pre_vote,
            });
        }
        for entries in [Vec::new(), vec![entry]] {
            raft.push(RaftMessage::AppendEntries {
                term: 5,
                prev_log_index: 0,
                prev_log_term: 0,
                entries,
                leader_commit: 0,
                context: 7,
            });
        }
        raft.push(RaftMessage::AppendEntriesResponse {
            term: 6,
            success: true,
            match_index: 1,
            context: 7,
        });
        let mut payloads: Vec<Payload> = raft.into_iter().map(Payload::Raft).collect();
        payloads.push(Payload::Establish { token: 9 });
        payloads.push(Payload::Write {
            token: 1,
            fenced: true,
            issued_us: 0,
            late: false,
        });
        for p in &payloads {
            assert_eq!(p.label_value(), (p.label(), p.value()), "{p:?}");
        }
    }
}
