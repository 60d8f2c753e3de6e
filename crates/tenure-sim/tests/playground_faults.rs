//! What the playground's touchable views need from the world: a message's detail, dropping
//! one message by id (recorded, so the replay drops the same one), a client's command to a
//! Raft node, the Raft log in the snapshot, and a store that starts at a given token.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

use tenure::{Instant, NodeId};
use tenure_sim::trace::{DropReason, TraceKind};
use tenure_sim::{Algorithm, Fault, FaultError, NodeEvent, Proc, Scenario, World};

fn raft(seed: u64) -> World {
    World::new(&Scenario::new(Algorithm::Raft, 3, seed, 5_000)).unwrap()
}

#[test]
fn dropping_a_message_by_id_drops_it_changes_the_run_and_replays() {
    let mut w = raft(3);
    w.run_until(Instant::from_millis(900));
    while w.snapshot().in_flight.is_empty() {
        assert!(w.step());
    }
    let untouched = {
        let mut u = w.clone();
        u.run();
        u.trace_hash()
    };
    let m = w.snapshot().in_flight[0].clone();
    let detail = w.message(m.id).expect("in flight");
    assert_eq!(
        (detail.from, detail.to, detail.kind),
        (m.from, m.to, m.kind)
    );
    assert!(serde_json::to_value(&detail).unwrap()["payload"].is_object());
    w.inject(Fault::DropMessage { id: m.id }).unwrap();
    assert!(w.message(m.id).is_none());
    let (events, _) = w.events_since(0);
    assert!(events.iter().any(|e| matches!(e.kind,
        TraceKind::Drop { id, reason: DropReason::Injected, .. } if id == m.id)));
    assert!(
        events
            .iter()
            .all(|e| !matches!(e.kind, TraceKind::Deliver { id, .. } if id == m.id))
    );
    let again = w.inject(Fault::DropMessage { id: m.id });
    assert!(matches!(again, Err(FaultError::NotApplicable(ref s)) if s.contains("not in flight")));
    w.run();
    assert_ne!(w.trace_hash(), untouched, "the drop changes the run");
    let mut replay = World::new(&w.replay_scenario()).unwrap();
    replay.run();
    assert_eq!(
        replay.trace_hash(),
        w.trace_hash(),
        "the replay drops the same message"
    );
}

#[test]
fn a_proposed_command_reaches_the_leaders_log_and_commits() {
    let mut w = raft(5);
    w.run_until(Instant::from_millis(1_500));
    let leader = w.leaders()[0];
    let follower = NodeId(if leader.0 == 1 { 2 } else { 1 });
    w.inject(Fault::Propose {
        node: follower,
        command: 4242,
    })
    .unwrap();
    w.inject(Fault::Propose {
        node: leader,
        command: 4242,
    })
    .unwrap();
    let (events, _) = w.events_since(0);
    let whats: Vec<_> = events
        .iter()
        .filter_map(|e| match e.kind {
            TraceKind::Node {
                proc,
                change: NodeEvent::Proposed { .. },
            } => Some((proc, "proposed")),
            TraceKind::Node {
                proc,
                change: NodeEvent::ProposalRefused { .. },
            } => Some((proc, "proposal-refused")),
            _ => None,
        })
        .collect();
    assert_eq!(
        whats,
        [
            (Proc::Node(follower), "proposal-refused"),
            (Proc::Node(leader), "proposed")
        ]
    );
    let index_of = |w: &World, id: NodeId| {
        let snap = w.snapshot();
        let n = snap
            .nodes
            .iter()
            .find(|n| n.id == Proc::Node(id))
            .cloned()
            .unwrap();
        let at = n
            .log
            .unwrap()
            .iter()
            .find(|e| e.command == Some(4242))
            .map(|e| e.index);
        (at, n.commit.unwrap())
    };
    let (at, commit) = index_of(&w, leader);
    let at = at.expect("in the leader's log");
    assert!(commit < at, "not committed yet");
    w.run_until(Instant::from_millis(1_800));
    let committed = [1, 2, 3]
        .into_iter()
        .filter(|&i| index_of(&w, NodeId(i)).0 == Some(at))
        .count();
    assert!(committed >= 2, "replicated on a majority");
    assert!(index_of(&w, leader).1 >= at, "committed");
    let lease = Scenario::new(Algorithm::LeaseFencing, 3, 1, 1_000);
    let err = World::new(&lease)
        .unwrap()
        .inject(Fault::Propose {
            node: NodeId(1),
            command: 1,
        })
        .unwrap_err();
    assert!(err.to_string().contains("only to raft"), "{err}");
}

#[test]
fn the_store_can_start_at_a_given_token() {
    let mut s = Scenario::new(Algorithm::LeaseFencing, 3, 7, 3_000);
    s.config.first_token = Some(41);
    let mut w = World::new(&s).unwrap();
    w.run_until(Instant::from_millis(1_000));
    assert_eq!(w.snapshot().store.unwrap().token, Some(41));
    assert!(!w.failed());
    s.config.first_token = Some(0);
    assert!(
        World::new(&s)
            .unwrap_err()
            .to_string()
            .contains("first_token 0")
    );
    let mut raft = Scenario::new(Algorithm::Raft, 3, 7, 3_000);
    raft.config.first_token = Some(5);
    assert!(World::new(&raft).is_err());
}

/// Tokens and holder ids a scenario chooses stay far below 2^53, so every one a run shows is a
/// whole JS number in `tenure/sim`: the store starts at 2^32 at most, and a holder id is 2^32
/// at most.
#[test]
fn chosen_tokens_and_holder_ids_stay_whole_js_numbers() {
    let mut s = Scenario::new(Algorithm::LeaseFencing, 3, 7, 3_000);
    s.config.first_token = Some(1 << 32);
    s.config.holder_id = Some(1 << 32);
    let mut w = World::new(&s).unwrap();
    w.run_until(Instant::from_millis(1_000));
    assert_eq!(w.snapshot().store.unwrap().token, Some(1 << 32));
    for (key, value) in [("first_token", (1u64 << 32) + 1), ("first_token", u64::MAX)] {
        s.config.first_token = Some(value);
        let err = World::new(&s).unwrap_err().to_string();
        assert!(
            err.contains(&format!("{key} {value} is not from 1 to 2 ** 32")),
            "{err}"
        );
    }
    s.config.first_token = None;
    s.config.holder_id = Some((1 << 32) + 1);
    let err = World::new(&s).unwrap_err().to_string();
    assert!(
        err.contains("holder_id 4294967297 is not from 0 to 2 ** 32"),
        "{err}"
    );
}
