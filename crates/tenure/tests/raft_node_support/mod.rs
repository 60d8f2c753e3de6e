//! Helpers for driving one RaftNode by hand in tests.
#![allow(dead_code, unreachable_pub, clippy::unwrap_used, clippy::expect_used)]

use tenure::raft::{
    Entry, EntryData, Message, PersistentState, RaftConfig, RaftEvent, RaftNode, RaftOutput,
};
use tenure::{Duration, Instant, NodeId};

pub const T: Duration = Duration::from_millis(100);

pub fn config(id: u64, n: u64) -> RaftConfig {
    RaftConfig {
        id: NodeId(id),
        peers: (1..=n).filter(|p| *p != id).map(NodeId).collect(),
        election_timeout: T,
        heartbeat_interval: Duration::from_millis(30),
        pre_vote: false,
        check_quorum: false,
        max_entries_per_append: 8,
        seed: id,
        ..RaftConfig::default()
    }
}

/// A started node (first timeout armed at t = 0), outputs drained.
pub fn node(config: RaftConfig, state: PersistentState) -> RaftNode {
    let mut n = RaftNode::restart(config, state).unwrap();
    n.handle_timeout(Instant::ZERO);
    drain(&mut n);
    n
}

pub fn drain(node: &mut RaftNode) -> Vec<RaftOutput> {
    std::iter::from_fn(|| node.poll_output()).collect()
}

pub fn sends(outs: &[RaftOutput]) -> Vec<(NodeId, Message)> {
    outs.iter()
        .filter_map(|o| match o {
            RaftOutput::Send { to, msg } => Some((*to, msg.clone())),
            _ => None,
        })
        .collect()
}

pub fn events(outs: &[RaftOutput]) -> Vec<RaftEvent> {
    outs.iter()
        .filter_map(|o| match o {
            RaftOutput::Event(e) => Some(*e),
            _ => None,
        })
        .collect()
}

pub fn entry(term: u64) -> Entry {
    Entry {
        term,
        data: EntryData::Noop,
    }
}

pub fn vote_request(term: u64, last_log_index: u64, last_log_term: u64) -> Message {
    Message::RequestVote {
        term,
        last_log_index,
        last_log_term,
        pre_vote: false,
    }
}

pub fn grant(term: u64) -> Message {
    Message::RequestVoteResponse {
        term,
        granted: true,
        pre_vote: false,
    }
}

/// The `granted` flag of the single vote response in `outs`.
pub fn vote_reply(outs: &[RaftOutput]) -> (u64, bool) {
    let replies: Vec<(u64, bool)> = sends(outs)
        .into_iter()
        .filter_map(|(_, m)| match m {
            Message::RequestVoteResponse { term, granted, .. } => Some((term, granted)),
            _ => None,
        })
        .collect();
    assert_eq!(replies.len(), 1, "expected one vote response in {outs:?}");
    replies[0]
}

/// Makes `node` (id 1) a candidate in `term + 1` through its election timeout.
pub fn fire(node: &mut RaftNode) -> Vec<RaftOutput> {
    let at = node.poll_timeout().unwrap();
    node.handle_timeout(at);
    drain(node)
}
