//! One Bully node, message by message (design rule 7, scenario S14), through its public
//! API as the Raft and lease machines' tests are. Clusters of Bully nodes run in the
//! simulator's world (`crates/tenure-sim/tests/bully_cluster.rs`, and the golden scripts).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use tenure::bully::*;
use tenure::{Duration, Instant, NodeId};

const N1: NodeId = NodeId(1);
const N2: NodeId = NodeId(2);
const N3: NodeId = NodeId(3);

fn config(id: u64) -> BullyConfig {
    BullyConfig {
        id: NodeId(id),
        peers: [1, 2, 3]
            .into_iter()
            .filter(|p| *p != id)
            .map(NodeId)
            .collect(),
        ..BullyConfig::default()
    }
}

fn node(id: u64) -> BullyNode {
    BullyNode::new(config(id)).unwrap()
}

fn ms(t: u64) -> Instant {
    Instant::from_millis(t)
}

fn drain(n: &mut BullyNode) -> Vec<BullyOutput> {
    core::iter::from_fn(|| n.poll_output()).collect()
}

fn send(to: NodeId, msg: BullyMessage) -> BullyOutput {
    BullyOutput::Send { to, msg }
}

fn event(e: BullyEvent) -> BullyOutput {
    BullyOutput::Event(e)
}

fn persist(epoch: u64) -> BullyOutput {
    BullyOutput::Persist(BullyPersisted { epoch })
}

fn coord(coordinator: NodeId, epoch: u64) -> BullyMessage {
    BullyMessage::Coordinator { coordinator, epoch }
}

/// A follower of `coordinator` in `epoch`, outputs drained.
fn follower_of(id: u64, coordinator: NodeId, epoch: u64) -> BullyNode {
    let mut n = node(id);
    n.handle_message(ms(0), coordinator, coord(coordinator, epoch));
    drain(&mut n);
    assert_eq!(n.coordinator(), Some(coordinator));
    n
}

/// Node 3 after announcing itself in epoch 1, outputs drained.
fn coordinator3() -> BullyNode {
    let mut n = node(3);
    n.handle_timeout(ms(0));
    drain(&mut n);
    assert_eq!(n.role(), Role::Coordinator);
    n
}

#[test]
fn new_rejects_an_invalid_config_naming_the_value() {
    let bad = BullyConfig {
        peers: vec![N1],
        ..BullyConfig::default()
    };
    assert_eq!(
        BullyNode::new(bad).unwrap_err(),
        ConfigError::SelfInPeers { id: N1 }
    );
}

#[test]
fn the_first_timeout_starts_the_node_and_a_lower_id_elects_after_its_rank_wait() {
    // Documented start: the failure detector is armed at ZERO, so the first handle_timeout
    // starts the node; a lower id waits one election_stagger per higher id (rank stagger,
    // "Message bound"), then asks every higher id.
    let mut n = node(1);
    assert_eq!(n.role(), Role::Follower);
    assert_eq!(n.coordinator(), None);
    assert_eq!(
        n.next_timer(),
        Some((BullyTimer::FailureDetector, Instant::ZERO))
    );
    n.handle_timeout(ms(10));
    assert!(
        drain(&mut n).is_empty(),
        "two higher ids: wait two staggers"
    );
    let stagger = config(1).election_stagger();
    assert_eq!(stagger, Duration::from_millis(200));
    let turn = ms(10) + stagger.saturating_mul(2);
    assert_eq!(n.next_timer(), Some((BullyTimer::FailureDetector, turn)));
    n.handle_timeout(turn);
    assert_eq!(
        drain(&mut n),
        vec![
            event(BullyEvent::ElectionStarted { epoch: 0 }),
            send(N2, BullyMessage::Election { epoch: 0 }),
            send(N3, BullyMessage::Election { epoch: 0 }),
        ]
    );
    assert_eq!(n.role(), Role::Candidate);
    assert_eq!(
        n.next_timer(),
        Some((BullyTimer::AwaitAnswer, turn + Duration::from_millis(50)))
    );
}

#[test]
fn an_announcement_during_the_start_up_wait_is_adopted_without_an_election() {
    let mut n = node(2);
    n.handle_timeout(ms(0));
    assert!(drain(&mut n).is_empty());
    n.handle_message(ms(3), N3, coord(N3, 1));
    assert_eq!(
        drain(&mut n),
        vec![
            persist(1),
            event(BullyEvent::CoordinatorChanged {
                coordinator: N3,
                epoch: 1
            })
        ]
    );
    // The detector now watches the coordinator: n3 is the next id up, so no stagger.
    let (timer, at) = n.next_timer().unwrap();
    assert_eq!(timer, BullyTimer::FailureDetector);
    assert!(at >= ms(203) && at < ms(253), "{at}");
    // A lower id's announcement during the wait is bullied at once (rule 7).
    let mut n = node(2);
    n.handle_timeout(ms(0));
    n.handle_message(ms(3), N1, coord(N1, 1));
    assert_eq!(n.role(), Role::Candidate);
    assert!(drain(&mut n).contains(&send(N3, BullyMessage::Election { epoch: 1 })));
}

#[test]
fn the_detector_waits_one_stagger_per_peer_between_the_node_and_its_coordinator() {
    let window = |id, coordinator| {
        let n = follower_of(id, coordinator, 1);
        n.next_timer().map(|(_, at)| at).unwrap()
    };
    // Next id down from the coordinator: failure_timeout + jitter [0, heartbeat).
    for (id, c) in [(2, N3), (1, N2)] {
        let at = window(id, c);
        assert!(at >= ms(200) && at < ms(250), "n{id} under {c}: {at}");
    }
    // n1 under n3 lets n2 go first: one stagger later.
    let at = window(1, N3);
    assert!(at >= ms(400) && at < ms(450), "{at}");
}

#[test]
fn the_top_id_announces_and_persists_its_epoch_before_sending() {
    // docs/design.md sans-IO contract: Persist is durable before any later Send leaves.
    let mut n = node(3);
    n.handle_timeout(ms(0));
    assert_eq!(
        drain(&mut n),
        vec![
            event(BullyEvent::ElectionStarted { epoch: 0 }),
            persist(1),
            event(BullyEvent::BecameCoordinator { epoch: 1 }),
            send(N1, coord(N3, 1)),
            send(N2, coord(N3, 1)),
        ]
    );
    assert_eq!(n.coordinator(), Some(N3));
    assert_eq!(n.coordinator_epoch(), Some(1));
    assert_eq!(n.next_timer(), Some((BullyTimer::Heartbeat, ms(50))));
    n.handle_timeout(ms(50));
    assert_eq!(
        drain(&mut n),
        vec![
            send(N1, BullyMessage::Heartbeat { epoch: 1 }),
            send(N2, BullyMessage::Heartbeat { epoch: 1 }),
        ]
    );
}

#[test]
fn no_answer_within_answer_timeout_means_announce() {
    let mut n = node(2);
    n.start_election(ms(0));
    drain(&mut n);
    n.handle_timeout(ms(49));
    assert!(drain(&mut n).is_empty(), "an early timeout is harmless");
    n.handle_timeout(ms(50));
    assert_eq!(n.role(), Role::Coordinator);
    assert_eq!(n.epoch(), 1);
}

#[test]
fn an_answer_defers_to_the_higher_node_until_its_announcement() {
    let mut n = node(1);
    n.start_election(ms(0));
    drain(&mut n);
    n.handle_message(ms(5), N2, BullyMessage::Answer { epoch: 0 });
    assert_eq!(
        n.next_timer(),
        Some((BullyTimer::AwaitCoordinator, ms(155)))
    );
    n.handle_message(ms(60), N2, coord(N2, 1));
    assert_eq!(
        drain(&mut n),
        vec![
            persist(1),
            event(BullyEvent::CoordinatorChanged {
                coordinator: N2,
                epoch: 1
            })
        ]
    );
    assert_eq!(n.role(), Role::Follower);
    assert_eq!(
        n.next_timer().map(|(t, _)| t),
        Some(BullyTimer::FailureDetector)
    );
}

#[test]
fn no_coordinator_after_an_answer_means_elect_again() {
    let mut n = node(1);
    n.start_election(ms(0));
    n.handle_message(ms(5), N2, BullyMessage::Answer { epoch: 0 });
    drain(&mut n);
    n.handle_timeout(ms(155));
    assert_eq!(
        drain(&mut n).first(),
        Some(&event(BullyEvent::ElectionStarted { epoch: 0 }))
    );
    assert_eq!(n.next_timer(), Some((BullyTimer::AwaitAnswer, ms(205))));
}

#[test]
fn an_election_from_a_lower_id_is_answered_and_taken_over() {
    let mut n = node(2);
    n.handle_message(ms(1), N1, BullyMessage::Election { epoch: 0 });
    assert_eq!(
        drain(&mut n),
        vec![
            send(N1, BullyMessage::Answer { epoch: 0 }),
            event(BullyEvent::ElectionStarted { epoch: 0 }),
            send(N3, BullyMessage::Election { epoch: 0 }),
        ]
    );
}

#[test]
fn a_coordinator_answers_an_election_and_reannounces_with_a_fresh_epoch() {
    let mut n = coordinator3();
    n.handle_message(ms(10), N1, BullyMessage::Election { epoch: 1 });
    assert_eq!(
        drain(&mut n),
        vec![
            send(N1, BullyMessage::Answer { epoch: 1 }),
            persist(2),
            event(BullyEvent::BecameCoordinator { epoch: 2 }),
            send(N1, coord(N3, 2)),
            send(N2, coord(N3, 2)),
        ]
    );
}

#[test]
fn rule7_stale_epoch_messages_are_answered_with_the_current_coordinator() {
    // design rule 7: a message from an older epoch is answered, not silently dropped.
    let mut n = follower_of(1, N3, 5);
    n.handle_message(ms(1), N2, BullyMessage::Heartbeat { epoch: 4 });
    assert_eq!(drain(&mut n), vec![send(N2, coord(N3, 5))]);
    n.handle_message(ms(2), N2, coord(N2, 3));
    assert_eq!(drain(&mut n), vec![send(N2, coord(N3, 5))]);
    n.handle_message(ms(3), N2, BullyMessage::Answer { epoch: 1 });
    assert_eq!(drain(&mut n), vec![send(N2, coord(N3, 5))]);
    // Node 2 is higher than node 1, so its stale Election is only told the news.
    let mut n = follower_of(2, N3, 5);
    n.handle_message(ms(4), N1, BullyMessage::Election { epoch: 2 });
    let out = drain(&mut n);
    assert_eq!(out.first(), Some(&send(N1, coord(N3, 5))));
    assert_eq!(
        out.get(1),
        Some(&send(N1, BullyMessage::Answer { epoch: 5 }))
    );
    // Same epoch, lower id: also older in the (epoch, id) order.
    let mut n = follower_of(1, N3, 5);
    n.handle_message(ms(5), N2, coord(N2, 5));
    assert_eq!(drain(&mut n), vec![send(N2, coord(N3, 5))]);
    assert_eq!(n.coordinator(), Some(N3));
}

#[test]
fn a_coordinator_steps_down_for_a_newer_announcement_by_a_higher_id() {
    let mut n = node(2);
    n.start_election(ms(0));
    n.handle_timeout(ms(50));
    drain(&mut n);
    assert_eq!(n.role(), Role::Coordinator);
    n.handle_message(ms(60), N3, coord(N3, 1));
    assert_eq!(
        drain(&mut n),
        vec![
            event(BullyEvent::SteppedDown {
                epoch: 1,
                reason: StepDownReason::HigherCoordinator {
                    coordinator: N3,
                    epoch: 1
                }
            }),
            event(BullyEvent::CoordinatorChanged {
                coordinator: N3,
                epoch: 1
            }),
        ]
    );
    assert_eq!(n.role(), Role::Follower);
}

#[test]
fn a_coordinator_bullies_a_newer_announcement_by_a_lower_id() {
    // The highest live id wins (rule 7): 3 re-announces above 2's epoch.
    let mut n = coordinator3();
    n.handle_message(ms(10), N2, coord(N2, 4));
    let out = drain(&mut n);
    assert_eq!(out.first(), Some(&persist(5)));
    assert!(out.contains(&send(N2, coord(N3, 5))));
    assert_eq!(n.role(), Role::Coordinator);
    assert_eq!(n.coordinator_epoch(), Some(5));
}

#[test]
fn a_follower_bullies_a_newer_announcement_by_a_lower_id() {
    let mut n = follower_of(2, N3, 1);
    n.handle_message(ms(10), N1, coord(N1, 2));
    assert_eq!(n.role(), Role::Candidate);
    assert_eq!(n.coordinator(), None);
    assert!(drain(&mut n).contains(&send(N3, BullyMessage::Election { epoch: 2 })));
}

#[test]
fn only_the_coordinators_own_heartbeat_keeps_it_alive() {
    // n1 under n3: failure_timeout, jitter, and one stagger (n2 goes first).
    let mut n = follower_of(1, N3, 1);
    let (_, first) = n.next_timer().unwrap();
    assert!(first >= ms(400) && first < ms(450), "{first}");
    // Hearsay of the current view (from node 2) does not refresh the detector.
    n.handle_message(ms(100), N2, coord(N3, 1));
    assert_eq!(n.next_timer().map(|(_, at)| at), Some(first));
    n.handle_message(ms(100), N3, BullyMessage::Heartbeat { epoch: 1 });
    let (timer, refreshed) = n.next_timer().unwrap();
    assert_eq!(timer, BullyTimer::FailureDetector);
    assert!(refreshed >= ms(500) && refreshed < ms(550), "{refreshed}");
    assert!(drain(&mut n).is_empty());
}

#[test]
fn a_silent_coordinator_is_suspected_after_the_failure_timeout() {
    let mut n = follower_of(2, N3, 1);
    let (_, at) = n.next_timer().unwrap();
    n.handle_timeout(at);
    assert_eq!(
        drain(&mut n),
        vec![
            event(BullyEvent::ElectionStarted { epoch: 1 }),
            send(N3, BullyMessage::Election { epoch: 1 }),
        ]
    );
}

#[test]
fn unknown_ids_are_ignored() {
    let mut n = follower_of(1, N2, 1);
    let before = (n.role(), n.coordinator(), n.epoch(), n.next_timer());
    n.handle_message(ms(1), NodeId(9), coord(NodeId(9), 50));
    n.handle_message(ms(1), NodeId(9), BullyMessage::Election { epoch: 50 });
    n.handle_message(ms(1), N1, BullyMessage::Heartbeat { epoch: 50 }); // itself
    n.handle_message(ms(1), N3, coord(NodeId(9), 50));
    assert!(drain(&mut n).is_empty());
    assert_eq!(
        (n.role(), n.coordinator(), n.epoch(), n.next_timer()),
        before
    );
}

#[test]
fn s14_a_restarted_node_keeps_its_epoch_and_rejoins_through_an_election() {
    // S14 (nirvik/iWant#1): the restarted top id must not act on its old coordinatorship;
    // it starts as a follower and its announcement takes an epoch above the persisted one.
    let mut n = BullyNode::restart(config(3), BullyPersisted { epoch: 7 }).unwrap();
    assert_eq!(
        (n.role(), n.coordinator(), n.epoch()),
        (Role::Follower, None, 7)
    );
    n.handle_timeout(ms(0));
    let out = drain(&mut n);
    assert_eq!(
        out.first(),
        Some(&event(BullyEvent::ElectionStarted { epoch: 7 }))
    );
    assert_eq!(out.get(1), Some(&persist(8)));
    assert_eq!(n.coordinator_epoch(), Some(8));
}

#[test]
fn start_election_on_a_coordinator_with_higher_peers_steps_down_first() {
    let mut n = node(2);
    n.start_election(ms(0));
    n.handle_timeout(ms(50));
    drain(&mut n);
    n.start_election(ms(60));
    assert_eq!(
        drain(&mut n),
        vec![
            event(BullyEvent::SteppedDown {
                epoch: 1,
                reason: StepDownReason::ElectionStarted
            }),
            event(BullyEvent::ElectionStarted { epoch: 1 }),
            send(N3, BullyMessage::Election { epoch: 1 }),
        ]
    );
}

#[test]
fn a_single_node_cluster_coordinates_itself() {
    let mut n = BullyNode::new(BullyConfig::default()).unwrap();
    n.handle_timeout(ms(0));
    assert_eq!(n.role(), Role::Coordinator);
    assert_eq!(
        drain(&mut n),
        vec![
            event(BullyEvent::ElectionStarted { epoch: 0 }),
            persist(1),
            event(BullyEvent::BecameCoordinator { epoch: 1 })
        ]
    );
    n.handle_timeout(ms(50));
    assert!(drain(&mut n).is_empty());
    assert_eq!(n.poll_timeout(), Some(ms(100)));
}

#[test]
fn s08_time_going_backwards_fires_nothing() {
    // S08 setup 1 (hashicorp/raft#108): an earlier reading counts as the latest one seen.
    let mut n = follower_of(1, N3, 1);
    n.handle_message(ms(3_600_000), N3, BullyMessage::Heartbeat { epoch: 1 });
    n.handle_timeout(ms(0));
    assert!(drain(&mut n).is_empty());
    assert_eq!(n.role(), Role::Follower);
}

#[test]
fn epochs_saturate_at_u64_max_without_panicking() {
    let mut n = coordinator3();
    n.handle_message(ms(1), N2, coord(N2, u64::MAX));
    assert_eq!(n.epoch(), u64::MAX);
    assert_eq!(n.coordinator(), Some(N3), "ties at MAX go to the higher id");
    n.handle_message(ms(2), N1, BullyMessage::Election { epoch: u64::MAX });
    assert_eq!(n.coordinator_epoch(), Some(u64::MAX));
    drain(&mut n);
    // Deadlines saturate at MAX and stay due: each call still fires each timer once.
    n.handle_timeout(Instant::MAX);
    assert_eq!(drain(&mut n).len(), 2, "one heartbeat per peer");
    n.handle_timeout(Instant::MAX);
    assert_eq!(drain(&mut n).len(), 2);
    assert_eq!(n.poll_timeout(), Some(Instant::MAX));
}

#[test]
fn an_undrained_node_keeps_a_bounded_queue_and_its_persist() {
    let mut n = coordinator3();
    for i in 0..10_000u64 {
        n.handle_message(ms(i), N1, BullyMessage::Election { epoch: i });
    }
    let out = drain(&mut n);
    assert!(out.len() <= 2 * (2 + 8), "{} outputs", out.len());
    assert_eq!(out.first(), Some(&persist(n.epoch())));
}

#[test]
fn the_failure_detector_jitter_comes_from_the_seed() {
    let deadline = |seed| {
        let mut n = BullyNode::new(BullyConfig { seed, ..config(2) }).unwrap();
        n.handle_message(ms(0), N3, coord(N3, 1));
        n.poll_timeout()
    };
    assert_eq!(deadline(1), deadline(1));
    let spread: Vec<_> = (0..20).map(deadline).collect();
    assert!(
        spread.iter().any(|d| *d != spread[0]),
        "jitter varies by seed"
    );
    assert!(
        spread
            .iter()
            .all(|d| d.is_some_and(|d| d >= ms(200) && d < ms(250)))
    );
}
