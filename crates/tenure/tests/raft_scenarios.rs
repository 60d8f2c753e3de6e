//! Raft scenarios S11, S12 and S13 from `docs/scenarios.md` on single nodes driven by hand,
//! plus robustness against peers: unknown ids and terms at `u64::MAX`. S09 and S10 need a
//! cluster: they run in the simulator's world (`crates/tenure-sim/tests/raft_cluster.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod raft_node_support;

use raft_node_support::*;
use tenure::raft::{
    CampaignError, Message, PersistOp, PersistentState, RaftEvent, RaftOutput, Role,
};
use tenure::{Instant, NodeId};

#[test]
fn s11_vote_is_persisted_before_the_reply_and_survives_restart() {
    // S11 (vesoft-inc/nebula#3415, ktoso/akka-raft#56): n3 votes for n1 in term 4 and
    // crashes right after emitting the reply. After restart it must refuse n2 in term 4.
    let mut n3 = node(
        config(3, 3),
        PersistentState {
            term: 3,
            ..Default::default()
        },
    );
    n3.handle_message(Instant::ZERO, NodeId(1), vote_request(4, 0, 0));
    let outs = drain(&mut n3);
    let persist = outs.iter().position(|o| {
        *o == RaftOutput::Persist(PersistOp::HardState {
            term: 4,
            voted_for: Some(NodeId(1)),
        })
    });
    let reply = outs
        .iter()
        .position(|o| matches!(o, RaftOutput::Send { .. }));
    assert!(
        persist.is_some() && persist < reply,
        "Persist must precede the vote: {outs:?}"
    );
    // Crash: only what was persisted survives.
    let mut durable = PersistentState::default();
    for o in &outs {
        if let RaftOutput::Persist(op) = o {
            durable.apply(op);
        }
    }
    let mut n3 = node(config(3, 3), durable);
    assert_eq!(n3.term(), 4, "term never decreases across a restart");
    n3.handle_message(Instant::ZERO, NodeId(2), vote_request(4, 0, 0));
    assert_eq!(
        vote_reply(&drain(&mut n3)),
        (4, false),
        "a second vote in term 4"
    );
}

#[test]
fn s12_each_voter_counts_once() {
    // S12 (xnnyygn/xraft#27, ktoso/akka-raft#45): five nodes; n1 campaigns in term 3. n2's
    // grant is delivered twice and a grant for n1's term-2 request arrives late: n1 must
    // not lead with only {n1, n2}.
    let mut n1 = node(
        config(1, 5),
        PersistentState {
            term: 2,
            ..Default::default()
        },
    );
    n1.campaign(Instant::ZERO).unwrap();
    drain(&mut n1);
    assert_eq!(n1.term(), 3);
    n1.handle_message(Instant::ZERO, NodeId(2), grant(3));
    n1.handle_message(Instant::ZERO, NodeId(2), grant(3));
    n1.handle_message(Instant::ZERO, NodeId(3), grant(2));
    n1.handle_message(Instant::ZERO, NodeId(4), grant(2));
    assert_eq!(n1.role(), Role::Candidate);
    assert_eq!(n1.votes().collect::<Vec<_>>(), vec![NodeId(1), NodeId(2)]);
    n1.handle_message(Instant::ZERO, NodeId(3), grant(3));
    assert_eq!(n1.role(), Role::Leader, "three distinct voters of five");

    // A repeated RequestVote from the candidate already voted for is granted again,
    // harmlessly: same vote, no second persist.
    let mut n2 = node(config(2, 5), PersistentState::default());
    n2.handle_message(Instant::ZERO, NodeId(1), vote_request(3, 0, 0));
    assert_eq!(vote_reply(&drain(&mut n2)), (3, true));
    n2.handle_message(Instant::ZERO, NodeId(1), vote_request(3, 0, 0));
    let outs = drain(&mut n2);
    assert_eq!(vote_reply(&outs), (3, true));
    assert!(!outs.iter().any(|o| matches!(o, RaftOutput::Persist(_))));
    assert_eq!(n2.voted_for(), Some(NodeId(1)));
}

#[test]
fn s13_leader_never_commits_an_older_term_entry_by_counting_replicas() {
    // S13 (Raft §5.4.2, Figure 8; logcabin/logcabin#44): n1 holds an entry of term 2 that
    // only it and n2 store. It becomes leader of term 4 and appends its no-op. n2 acking the
    // term-2 entry makes it stored on a majority, but it must not commit by counting; only
    // when the term-4 no-op is on a majority are both committed.
    let state = PersistentState {
        term: 3,
        voted_for: None,
        log: vec![entry(1), entry(2)],
        ..PersistentState::default()
    };
    let mut n1 = node(config(1, 3), state);
    n1.campaign(Instant::ZERO).unwrap();
    n1.handle_message(Instant::ZERO, NodeId(3), grant(4));
    assert_eq!(n1.role(), Role::Leader);
    assert_eq!(
        n1.log(),
        &[entry(1), entry(2), entry(4)],
        "a no-op of term 4 first"
    );
    drain(&mut n1);
    let ack = |match_index| Message::AppendEntriesResponse {
        term: 4,
        success: true,
        match_index,
        context: 0,
    };
    n1.handle_message(Instant::ZERO, NodeId(2), ack(2));
    assert_eq!(
        n1.commit_index(),
        0,
        "index 2 (term 2) is on a majority but not committable"
    );
    assert!(events(&drain(&mut n1)).is_empty());
    n1.handle_message(Instant::ZERO, NodeId(2), ack(3));
    assert_eq!(n1.commit_index(), 3);
    assert_eq!(
        events(&drain(&mut n1)),
        vec![RaftEvent::Committed { index: 3 }]
    );
}

#[test]
fn messages_from_unknown_ids_are_ignored() {
    // Issue 4, robustness: a message from an id outside the configuration (or from itself)
    // changes nothing and produces nothing.
    let mut n = node(config(1, 3), PersistentState::default());
    let before = (n.term(), n.role(), n.poll_timeout());
    for from in [NodeId(1), NodeId(4), NodeId(u64::MAX)] {
        n.handle_message(Instant::ZERO, from, vote_request(7, 9, 9));
        n.handle_message(Instant::ZERO, from, grant(7));
        assert!(drain(&mut n).is_empty());
    }
    assert_eq!((n.term(), n.role(), n.poll_timeout()), before);
}

#[test]
fn term_at_u64_max_saturates_and_never_campaigns() {
    // Issue 4, robustness: a term far ahead is adopted per §5.1 without overflow; a node at
    // u64::MAX follows and votes but cannot campaign (there is no higher term).
    let mut n = node(config(2, 3), PersistentState::default());
    n.handle_message(
        Instant::ZERO,
        NodeId(1),
        Message::AppendEntries {
            term: u64::MAX,
            prev_log_index: u64::MAX,
            prev_log_term: u64::MAX,
            entries: vec![],
            leader_commit: u64::MAX,
            context: 0,
        },
    );
    drain(&mut n);
    assert_eq!(n.term(), u64::MAX);
    assert_eq!(n.commit_index(), 0);
    let at = n.poll_timeout().unwrap();
    n.handle_timeout(at);
    assert_eq!(n.role(), Role::Follower);
    assert!(
        drain(&mut n)
            .iter()
            .all(|o| !matches!(o, RaftOutput::Send { .. }))
    );
    assert!(
        n.poll_timeout().unwrap() > at,
        "the election timer is re-armed"
    );
    assert_eq!(
        n.campaign(at),
        Err(CampaignError::TermExhausted { term: u64::MAX })
    );
    let mut pre = node(
        RaftConfigExt::pre_vote(config(3, 3)),
        PersistentState {
            term: u64::MAX,
            ..Default::default()
        },
    );
    let at = pre.poll_timeout().unwrap();
    pre.handle_timeout(at);
    assert_eq!(pre.role(), Role::Follower);
}

trait RaftConfigExt {
    fn pre_vote(self) -> Self;
}
impl RaftConfigExt for tenure::raft::RaftConfig {
    fn pre_vote(mut self) -> Self {
        self.pre_vote = true;
        self
    }
}

/// A persisted log no node writes is refused by `restart`, naming the entry: terms along a
/// log never decrease (Raft §5.3), and a node takes a term before it appends entries of it
/// (Figure 2). A restart from such a log could break Log Matching; it was accepted before.
#[test]
fn restart_refuses_a_persisted_log_no_node_writes() {
    use tenure::raft::{ConfigError, RaftNode, StateError};
    let state = |term, log, compacted_term| PersistentState {
        term,
        voted_for: None,
        log,
        compacted_index: u64::from(compacted_term > 0),
        compacted_term,
    };
    let refused = |s: PersistentState| RaftNode::restart(config(1, 3), s).err();
    assert_eq!(
        refused(state(5, vec![entry(5), entry(2)], 0)),
        Some(ConfigError::State(StateError::TermDecreases {
            position: 1,
            term: 2,
            previous: 5
        }))
    );
    assert_eq!(
        refused(state(5, vec![entry(3)], 4)),
        Some(ConfigError::State(StateError::TermDecreases {
            position: 0,
            term: 3,
            previous: 4
        }))
    );
    let above = refused(state(2, vec![entry(1), entry(3)], 0));
    assert_eq!(
        above.as_ref().map(ToString::to_string).as_deref(),
        Some(
            "persisted state: log[1].term 3 is above the persisted term 2: no node appends \
             entries of a term it has not taken (Raft Figure 2)"
        )
    );
    // What nodes do write is taken: equal terms, a rise, a compacted prefix below.
    assert!(refused(state(4, vec![entry(2), entry(2), entry(4)], 1)).is_none());
}

/// An AppendEntries carrying entries no leader sends (a term above the message's, or terms
/// that fall along the log) is ignored: appending them would persist a log `restart`
/// refuses. The property test found a node at term 0 appending an entry of term 1.
#[test]
fn append_entries_with_entries_no_leader_sends_are_ignored() {
    use tenure::raft::{Entry, EntryData, RaftNode};
    let entry = |term| Entry {
        term,
        data: EntryData::Noop,
    };
    for (term, entries) in [
        (0, vec![entry(1)]),
        (5, vec![entry(5), entry(2)]),
        (3, vec![entry(2)]),
    ] {
        let mut n = RaftNode::restart(
            config(1, 3),
            PersistentState {
                term: 0,
                ..Default::default()
            },
        )
        .unwrap();
        let prev_log_term = if term == 3 { 3 } else { 0 };
        n.handle_message(
            Instant::ZERO,
            NodeId(2),
            Message::AppendEntries {
                term,
                prev_log_index: 0,
                prev_log_term,
                entries,
                leader_commit: 0,
                context: 0,
            },
        );
        assert_eq!(n.log().len(), 0, "term {term}");
        // A higher term is still taken (Raft §5.1), but nothing is appended or answered.
        let outs: Vec<RaftOutput> = std::iter::from_fn(|| n.poll_output()).collect();
        assert!(
            outs.iter()
                .all(|o| matches!(o, RaftOutput::Persist(PersistOp::HardState { .. }))),
            "term {term}: {outs:?}"
        );
        assert_eq!(n.persistent_state().validate(), Ok(()));
    }
}
