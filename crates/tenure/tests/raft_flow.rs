//! Flow control, CheckQuorum on contact times and the leader lease, driven by hand on one
//! leader (node 1 of 3). The rules are those of `RaftNode`'s docs, after etcd-io/raft's
//! probe/replicate progress and Ongaro's dissertation §6.2.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

mod raft_node_support;

use raft_node_support::*;
use tenure::raft::{
    Message, PersistentState, RaftConfig, RaftEvent, RaftNode, RaftTimer, Role, StepDownReason,
};
use tenure::{Duration, Instant, NodeId};

/// Node 1 of 3 leading term 1 at t = 0, its no-op probe sent and drained.
fn leader(tweak: impl FnOnce(&mut RaftConfig)) -> RaftNode {
    let mut c = config(1, 3);
    tweak(&mut c);
    let mut n = node(c, PersistentState::default());
    n.campaign(Instant::ZERO).unwrap();
    n.handle_message(Instant::ZERO, NodeId(2), grant(1));
    assert_eq!(n.role(), Role::Leader);
    drain(&mut n);
    n
}

fn ack(match_index: u64, context: u64) -> Message {
    Message::AppendEntriesResponse {
        term: 1,
        success: true,
        match_index,
        context,
    }
}

fn appends_to(outs: &[tenure::raft::RaftOutput], peer: u64) -> usize {
    sends(outs)
        .iter()
        .filter(|(to, m)| *to == NodeId(peer) && matches!(m, Message::AppendEntries { .. }))
        .count()
}

#[test]
fn duplicate_and_stale_acknowledgements_send_nothing() {
    let mut n = leader(|_| {});
    let t = Instant::from_millis(1);
    n.handle_message(t, NodeId(2), ack(1, 0));
    drain(&mut n);
    n.propose(t, 7).unwrap();
    assert_eq!(appends_to(&drain(&mut n), 2), 1, "streaming: sent at once");
    n.handle_message(t, NodeId(2), ack(2, 0));
    assert!(
        drain(&mut n)
            .iter()
            .all(|o| !matches!(o, tenure::raft::RaftOutput::Send { .. }))
    );
    // The same answer again, and an older one: nothing new, nothing sent.
    for m in [ack(2, 0), ack(1, 0), ack(2, 0)] {
        n.handle_message(t, NodeId(2), m);
        assert!(sends(&drain(&mut n)).is_empty());
    }
}

#[test]
fn a_heartbeat_sends_exactly_one_message_per_follower() {
    let mut n = leader(|_| {});
    n.handle_message(Instant::ZERO, NodeId(2), ack(1, 0));
    for i in 0..20 {
        n.propose(Instant::ZERO, i).unwrap();
    }
    drain(&mut n);
    // Node 2 streams with 20 entries unacknowledged; node 3 never answered its probe.
    let at = n.timer(RaftTimer::Heartbeat).unwrap();
    n.handle_timeout(at);
    let outs = drain(&mut n);
    assert_eq!(appends_to(&outs, 2), 1);
    assert_eq!(appends_to(&outs, 3), 1);
}

#[test]
fn the_in_flight_window_is_bounded() {
    let mut n = leader(|c| {
        c.max_entries_per_append = 1;
        c.max_inflight_appends = 4;
    });
    n.handle_message(Instant::ZERO, NodeId(2), ack(1, 0));
    drain(&mut n);
    let mut sent = 0;
    for i in 0..100 {
        n.propose(Instant::ZERO, i).unwrap();
        sent += appends_to(&drain(&mut n), 2);
    }
    assert_eq!(sent, 4, "four messages in flight, then the window is full");
    // An acknowledgement of two of them frees two slots.
    n.handle_message(Instant::ZERO, NodeId(2), ack(3, 0));
    assert_eq!(appends_to(&drain(&mut n), 2), 2);
}

#[test]
fn a_leader_past_its_check_quorum_deadline_steps_down_before_sending() {
    let mut n = leader(|c| c.check_quorum = true);
    n.handle_message(Instant::ZERO, NodeId(2), ack(1, 0));
    drain(&mut n);
    // Paused for two election timeouts: its first input after resuming is a message.
    let resume = Instant::ZERO + T.saturating_mul(2);
    n.handle_message(resume, NodeId(3), ack(1, 0));
    let outs = drain(&mut n);
    assert_eq!(
        events(&outs).first(),
        Some(&RaftEvent::SteppedDown {
            term: 1,
            reason: StepDownReason::CheckQuorumFailed
        })
    );
    assert!(sends(&outs).is_empty(), "nothing sent as leader: {outs:?}");
    assert_eq!(n.role(), Role::Follower);
}

#[test]
fn check_quorum_passes_on_recent_contact_and_fails_t_after_the_last() {
    let mut n = leader(|c| c.check_quorum = true);
    let heard = Instant::from_millis(60);
    n.handle_message(heard, NodeId(2), ack(1, 0));
    drain(&mut n);
    // The deadline moves to T after that contact.
    n.handle_timeout(Instant::ZERO + T);
    assert_eq!(n.role(), Role::Leader);
    assert_eq!(n.timer(RaftTimer::CheckQuorum), Some(heard + T));
    n.handle_timeout(heard + T);
    assert_eq!(n.role(), Role::Follower);
}

#[test]
fn the_lease_runs_from_the_send_time_a_quorum_acknowledged() {
    let mut n = leader(|c| {
        c.check_quorum = true;
        c.leader_lease = true;
    });
    assert!(!n.is_acting_leader(), "no lease before a quorum answers");
    // The no-op probe left at t = 0; its answer arrives 90 ms later, echoing the send time.
    n.handle_message(Instant::from_millis(90), NodeId(2), ack(1, 0));
    drain(&mut n);
    let lease = n.config().lease_duration();
    assert_eq!(
        lease,
        Duration::from_micros(98_999),
        "T = 100 ms less 1% drift, less 1 us"
    );
    assert_eq!(n.lease_until(), Some(Instant::ZERO + lease));
    assert!(n.is_acting_leader());
    assert_eq!(n.timer(RaftTimer::LeaderLease), Some(Instant::ZERO + lease));
    // At the lease's end it stops acting, though it still leads until CheckQuorum.
    n.handle_timeout(Instant::ZERO + lease);
    assert!(!n.is_acting_leader());
    // A later heartbeat's answer renews it from that heartbeat's send time.
    let sent = Instant::from_millis(95);
    n.handle_message(
        sent + Duration::from_millis(2),
        NodeId(3),
        ack(1, sent.as_micros()),
    );
    drain(&mut n);
    assert_eq!(n.lease_until(), Some(sent + lease));
    assert!(n.is_acting_leader());
    // An echo from the future or from before the term counts for nothing.
    n.handle_message(sent + Duration::from_millis(3), NodeId(2), ack(1, u64::MAX));
    assert_eq!(n.lease_until(), Some(sent + lease));
}

#[test]
fn the_election_timeout_is_drawn_from_the_configured_range() {
    let mut c = config(2, 3);
    c.election_timeout_max = Some(T + Duration::from_millis(5));
    let mut n = RaftNode::new(c).unwrap();
    for i in 0..50u64 {
        let now = Instant::from_millis(i * 1_000);
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
        drain(&mut n);
        let wait = n.timer(RaftTimer::Election).unwrap().saturating_since(now);
        assert!(wait >= T && wait < T + Duration::from_millis(5), "{wait}");
    }
}
