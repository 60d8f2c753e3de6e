//! The world's driving API, as the playground uses it: step, run_until, inject, snapshot,
//! the event log with its cursor, and the trace hash.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

use tenure::{Instant, NodeId};
use tenure_sim::snapshot::Status;
use tenure_sim::trace::DEFAULT_LOG_CAPACITY;
use tenure_sim::units::Ms;
use tenure_sim::{Algorithm, Fault, Proc, Scenario, World};

#[test]
fn events_since_pages_through_the_log_with_a_cursor() {
    let mut w = World::new(&Scenario::new(Algorithm::Raft, 3, 1, 10_000)).unwrap();
    w.run_until(Instant::from_millis(500));
    let (first, cursor) = w.events_since(0);
    assert_eq!(first.first().map(|e| e.seq), Some(0));
    assert_eq!(first.last().map(|e| e.seq + 1), Some(cursor));
    let (none, same) = w.events_since(cursor);
    assert!(none.is_empty());
    assert_eq!(same, cursor);
    assert!(w.step());
    let (next, _) = w.events_since(cursor);
    assert!(next.iter().all(|e| e.seq >= cursor));
    assert!(first.windows(2).all(|p| p[0].time_us <= p[1].time_us));
}

#[test]
fn events_since_where_is_the_filtered_page_and_names_match_the_serde_tags() {
    let mut w = World::new(&Scenario::new(Algorithm::Raft, 5, 3, 10_000)).unwrap();
    w.run_until(Instant::from_millis(1_500));
    w.inject(Fault::Crash { node: NodeId(1) }).unwrap();
    w.run_until(Instant::from_millis(3_000));
    let (all, cursor) = w.events_since(0);
    for ev in &all {
        let json = serde_json::to_value(ev).unwrap();
        assert_eq!(json["event"], ev.kind.name(), "{json}");
    }
    let nodes_only = |e: &tenure_sim::TraceEvent| e.kind.name() == "node";
    let (some, same) = w.events_since_where(17, nodes_only);
    assert_eq!(same, cursor);
    let want: Vec<_> = all
        .iter()
        .filter(|e| e.seq >= 17)
        .filter(|e| nodes_only(e))
        .cloned()
        .collect();
    assert!(!want.is_empty());
    assert_eq!(some, want);
    assert_eq!(w.oldest_event(), 0);
}

#[test]
fn the_event_log_stays_bounded_in_long_runs() {
    let mut w = World::new(&Scenario::new(Algorithm::Raft, 5, 2, 120_000)).unwrap();
    w.run();
    let (events, cursor) = w.events_since(0);
    assert!(cursor > DEFAULT_LOG_CAPACITY as u64);
    assert_eq!(events.len(), DEFAULT_LOG_CAPACITY);
    assert_eq!(events.last().map(|e| e.seq + 1), Some(cursor));
}

#[test]
fn snapshot_shows_nodes_messages_and_injected_faults() {
    let mut w = World::new(&Scenario::new(Algorithm::LeaseFencing, 3, 4, 10_000)).unwrap();
    w.run_until(Instant::from_millis(2_000));
    let snap = w.snapshot();
    assert_eq!(
        snap.nodes.len(),
        5,
        "3 contenders, the store and the resource"
    );
    let leader = w.leaders()[0];
    let view = snap
        .nodes
        .iter()
        .find(|n| n.id == Proc::Node(leader))
        .unwrap();
    assert_eq!(view.role, tenure_sim::Role::Leader);
    assert_eq!(view.role_kind, tenure_sim::RoleKind::Leader);
    assert!(view.acting_leader, "the lease holder acts as leader");
    assert!(view.lease_deadline_us.unwrap() > snap.time_us);
    // Its timer: armed in the past, due in the future, and (no drift) deadline = armed + wait.
    let timer = view.next_timer.clone().unwrap();
    assert!(
        timer.armed_us <= snap.time_us && timer.deadline_us > snap.time_us,
        "{timer:?}"
    );
    assert!(timer.wait_us > 0);
    assert_eq!(
        timer.armed_us + timer.wait_us,
        timer.deadline_us,
        "{timer:?}"
    );
    let followers = snap
        .nodes
        .iter()
        .filter(|n| matches!(n.id, Proc::Node(_)) && n.id != Proc::Node(leader));
    for f in followers {
        assert!(!f.acting_leader, "{f:?}");
    }
    let store = snap.store.clone().unwrap();
    assert_eq!(store.holder, Some(leader.0));
    assert!(snap.in_flight.iter().all(|m| m.send_us <= m.arrival_us));
    w.inject(Fault::Crash { node: leader }).unwrap();
    w.inject(Fault::Pause {
        target: Proc::Store,
        duration_ms: Ms::from_millis(100),
    })
    .unwrap();
    let snap = w.snapshot();
    let crashed = snap
        .nodes
        .iter()
        .find(|n| n.id == Proc::Node(leader))
        .unwrap();
    assert_eq!(crashed.status, Status::Crashed);
    let store = snap.nodes.iter().find(|n| n.id == Proc::Store).unwrap();
    assert_eq!(store.status, Status::Paused);
    assert!(w.inject(Fault::Crash { node: NodeId(9) }).is_err());
    assert!(
        w.inject(Fault::StoreOutage {
            duration_ms: Ms::from_millis(1)
        })
        .is_ok()
    );
    w.run();
    assert!(w.metrics().failover_us.len() == 1, "{:?}", w.metrics());
}

#[test]
fn raft_restart_keeps_persisted_terms() {
    // Rule 6 / S11: what was persisted survives a crash; terms never go back.
    let mut w = World::new(&Scenario::new(Algorithm::Raft, 3, 9, 20_000)).unwrap();
    w.run_until(Instant::from_millis(2_000));
    let leader = w.leaders()[0];
    let term = w.snapshot().nodes[(leader.0 - 1) as usize].term;
    w.inject(Fault::Crash { node: leader }).unwrap();
    w.run_until(Instant::from_millis(4_000));
    w.inject(Fault::Restart { node: leader }).unwrap();
    let after = w.snapshot().nodes[(leader.0 - 1) as usize].term;
    assert!(after >= term);
    w.run();
    assert!(w.violations().is_empty(), "{:?}", w.violations());
    assert_eq!(w.leaders().len(), 1);
}

#[test]
fn effective_config_fills_every_default_in_the_scenarios_keys() {
    // A lease scenario that sets only the TTL: the renew interval follows it (a third),
    // the rest are the simulator's defaults, and keys of other algorithms never appear.
    let mut s = Scenario::new(Algorithm::LeaseFencing, 3, 1, 1_000);
    s.config.ttl_ms = Some(Ms::from_millis(3_000));
    let c = World::new(&s).unwrap().effective_config();
    let j = serde_json::to_value(&c).unwrap();
    assert_eq!(j["ttl_ms"], 3000.0);
    assert_eq!(j["renew_interval_ms"], 1000.0);
    assert_eq!(j["safety_margin_ms"], 300.0);
    assert_eq!(j["write_interval_ms"], 100.0);
    assert!(j.get("heartbeat_interval_ms").is_none(), "{j}");
    // The foil has no margin key: it is not shown, though it runs with 1 us.
    let s = Scenario::new(Algorithm::LeaseNoMargin, 3, 1, 1_000);
    let j = serde_json::to_value(World::new(&s).unwrap().effective_config()).unwrap();
    assert!(j.get("safety_margin_ms").is_none(), "{j}");
    assert_eq!(j["ttl_ms"], 2000.0);
    // Raft: what the page narrates (heartbeats, client proposals) and the timeout range.
    let s = Scenario::new(Algorithm::Raft, 3, 1, 1_000);
    let j = serde_json::to_value(World::new(&s).unwrap().effective_config()).unwrap();
    assert_eq!(j["propose_interval_ms"], 200.0);
    assert_eq!(
        j["election_timeout_max_ms"].as_f64().unwrap(),
        2.0 * j["election_timeout_ms"].as_f64().unwrap()
    );
    assert!(j["heartbeat_interval_ms"].as_f64().unwrap() > 0.0);
    // Bully: its four timings. Every effective config builds the same world again.
    let s = Scenario::new(Algorithm::Bully, 3, 1, 1_000);
    let w = World::new(&s).unwrap();
    let j = serde_json::to_value(w.effective_config()).unwrap();
    assert_eq!(j.as_object().unwrap().len(), 4, "{j}");
    for algorithm in Algorithm::ALL {
        let s = Scenario::new(algorithm, 3, 1, 5_000);
        let mut again = s.clone();
        again.config = World::new(&s).unwrap().effective_config();
        let (mut a, mut b) = (World::new(&s).unwrap(), World::new(&again).unwrap());
        a.run();
        b.run();
        assert_eq!(a.trace_hash(), b.trace_hash(), "{}", algorithm.name());
    }
}
