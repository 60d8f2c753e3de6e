//! Properties from the Raft paper (Ongaro and Ousterhout, 2014), each test citing its
//! section, checked on single nodes driven by hand. Cluster-wide properties (election safety,
//! leader completeness) are checked by the simulator's checker on every event of the sweeps in
//! `crates/tenure-sim/tests/raft_cluster.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod raft_node_support;

use raft_node_support::*;
use tenure::raft::{
    CampaignError, EntryData, Message, PersistentState, RaftEvent, RaftNode, RaftTimer, Role,
};
use tenure::{Duration, Instant, NodeId};

#[test]
fn election_safety_one_vote_per_term_5_2() {
    // §5.2: "each server will vote for at most one candidate in a given term", which makes
    // two leaders in one term impossible (a majority cannot vote twice).
    let mut n = node(config(3, 3), PersistentState::default());
    n.handle_message(Instant::ZERO, NodeId(1), vote_request(1, 0, 0));
    assert_eq!(vote_reply(&drain(&mut n)), (1, true));
    n.handle_message(Instant::ZERO, NodeId(2), vote_request(1, 0, 0));
    assert_eq!(vote_reply(&drain(&mut n)), (1, false));
    assert_eq!(n.voted_for(), Some(NodeId(1)));
    // A new term frees the vote.
    n.handle_message(Instant::ZERO, NodeId(2), vote_request(2, 0, 0));
    assert_eq!(vote_reply(&drain(&mut n)), (2, true));
}

#[test]
fn vote_requires_a_log_at_least_as_up_to_date_5_4_1() {
    // §5.4.1: compare last terms; with equal last terms the longer log is more up to date.
    // The voter's log ends at index 3 with term 2.
    let state = PersistentState {
        term: 2,
        voted_for: None,
        log: vec![entry(1), entry(1), entry(2)],
        ..PersistentState::default()
    };
    let cases = [
        ((5, 1), false, "longer log, older last term"),
        ((2, 2), false, "same last term, shorter"),
        ((3, 2), true, "same last term, same length"),
        ((4, 2), true, "same last term, longer"),
        ((1, 3), true, "newer last term, shorter"),
    ];
    for ((last_index, last_term), expected, why) in cases {
        let mut n = node(config(3, 3), state.clone());
        n.handle_message(
            Instant::ZERO,
            NodeId(1),
            vote_request(3, last_index, last_term),
        );
        assert_eq!(vote_reply(&drain(&mut n)), (3, expected), "{why}");
    }
}

#[test]
fn election_timeout_is_uniform_over_t_to_2t_5_2() {
    // §5.2 and design rule 6: timeouts are drawn uniformly from [T, 2T) with the seeded
    // PRNG, so split votes are rare and resolve quickly. Draw over many seeds and re-arms.
    let mut draws = Vec::new();
    for seed in 0..500 {
        let mut cfg = config(1, 3);
        cfg.seed = seed;
        let start = Instant::from_millis(1_000);
        let mut n = RaftNode::new(cfg).unwrap();
        assert_eq!(n.next_timer(), Some((RaftTimer::Start, Instant::ZERO)));
        n.handle_timeout(start);
        let first = n.timer(RaftTimer::Election).unwrap();
        draws.push(first.saturating_since(start));
        // Each new election re-draws from [T, 2T) relative to its start.
        n.handle_timeout(first);
        draws.push(
            n.timer(RaftTimer::Election)
                .unwrap()
                .saturating_since(first),
        );
    }
    let two_t = T.saturating_mul(2);
    assert!(
        draws.iter().all(|d| *d >= T && *d < two_t),
        "a draw left [T, 2T)"
    );
    // Uniform: each tenth of the range gets roughly a tenth of the 1000 draws.
    let width = T.as_micros();
    let mut buckets = [0u32; 10];
    for d in &draws {
        buckets[((d.as_micros() - width) * 10 / width) as usize] += 1;
    }
    assert!(
        buckets.iter().all(|b| (60..=140).contains(b)),
        "not uniform: {buckets:?}"
    );
    // Same seed, same draws (determinism).
    let a = RaftNode::new(config(1, 3)).unwrap();
    let b = RaftNode::new(config(1, 3)).unwrap();
    let (mut a, mut b) = (a, b);
    a.handle_timeout(Instant::ZERO);
    b.handle_timeout(Instant::ZERO);
    assert_eq!(a.poll_timeout(), b.poll_timeout());
}

#[test]
fn candidate_wins_with_a_majority_and_appends_a_noop_5_2() {
    // §5.2: a candidate wins with votes from a majority; §5.4.2/§8: it appends a no-op.
    let mut n = node(config(1, 5), PersistentState::default());
    let outs = fire(&mut n);
    assert_eq!(events(&outs), vec![RaftEvent::BecameCandidate { term: 1 }]);
    assert_eq!(sends(&outs).len(), 4);
    n.handle_message(Instant::from_millis(200), NodeId(2), grant(1));
    assert_eq!(n.role(), Role::Candidate, "2 of 5 is not a majority");
    n.handle_message(Instant::from_millis(200), NodeId(3), grant(1));
    assert_eq!(n.role(), Role::Leader);
    assert_eq!(
        n.log().last().map(|e| (e.term, e.data)),
        Some((1, EntryData::Noop))
    );
    assert!(events(&drain(&mut n)).contains(&RaftEvent::BecameLeader { term: 1 }));
    assert_eq!(
        n.campaign(Instant::from_millis(200)),
        Err(CampaignError::AlreadyLeader { term: 1 })
    );
}

#[test]
fn append_entries_consistency_check_and_conflict_truncation_5_3() {
    // §5.3: a follower refuses entries whose predecessor does not match, and replaces a
    // conflicting suffix with the leader's entries.
    let state = PersistentState {
        term: 2,
        voted_for: None,
        log: vec![entry(1), entry(2), entry(2)],
        ..PersistentState::default()
    };
    let mut n = node(config(2, 3), state);
    let append =
        |prev_log_index, prev_log_term, entries: Vec<_>, leader_commit| Message::AppendEntries {
            term: 3,
            prev_log_index,
            prev_log_term,
            entries,
            leader_commit,
            context: 0,
        };
    n.handle_message(Instant::ZERO, NodeId(1), append(5, 3, vec![], 0));
    let refused = sends(&drain(&mut n));
    assert!(matches!(
        refused[0].1,
        Message::AppendEntriesResponse { success: false, .. }
    ));
    n.handle_message(Instant::ZERO, NodeId(1), append(1, 1, vec![entry(3)], 2));
    let outs = drain(&mut n);
    assert!(matches!(
        sends(&outs)[0].1,
        Message::AppendEntriesResponse {
            success: true,
            match_index: 2,
            ..
        }
    ));
    assert_eq!(
        n.log(),
        &[entry(1), entry(3)],
        "conflicting suffix replaced"
    );
    assert_eq!(
        n.commit_index(),
        2,
        "commit follows leader_commit within matched entries"
    );
    assert_eq!(n.leader_id(), Some(NodeId(1)));
}

#[test]
fn heartbeat_resets_the_election_timer_5_2() {
    // §5.2: a follower stays follower while it receives valid AppendEntries.
    let mut n = node(config(2, 3), PersistentState::default());
    let mut now = Instant::ZERO;
    for _ in 0..20 {
        now = now + Duration::from_millis(50);
        n.handle_message(
            now,
            NodeId(1),
            Message::AppendEntries {
                term: 1,
                prev_log_index: 0,
                prev_log_term: 0,
                entries: vec![],
                leader_commit: 0,
                context: 0,
            },
        );
        n.handle_timeout(now);
        drain(&mut n);
        assert_eq!(n.role(), Role::Follower);
        assert!(n.poll_timeout().unwrap() >= now + T);
    }
}
