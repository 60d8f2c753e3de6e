//! Seeking and replaying, as the playground's timeline and permalinks use them: a cloned
//! world continues exactly as the original, and a run steered with `inject` replays from
//! `replay_scenario()` to the same trace hash, even when faults are injected between two
//! events of one instant or at the instant of a scheduled fault.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

use tenure::{Instant, NodeId};
use tenure_sim::{Algorithm, Fault, Proc, Scenario, World};

fn ms(t: u64) -> Instant {
    Instant::from_millis(t)
}

fn run_to_end(s: &Scenario) -> World {
    let mut w = World::new(s).unwrap();
    w.run();
    w
}

#[test]
fn a_clone_continues_exactly_as_the_original() {
    for algorithm in Algorithm::ALL {
        let s = Scenario::new(algorithm, 4, 21, 20_000).with_fault(
            3_000,
            Fault::Isolate {
                nodes: vec![Proc::Node(NodeId(1))],
            },
        );
        let mut original = World::new(&s).unwrap();
        original.run_until(ms(2_500));
        let mut copy = original.clone();
        assert_eq!(copy.trace_hash(), original.trace_hash());
        assert_eq!(copy.snapshot(), original.snapshot());
        original.run();
        copy.run();
        assert_eq!(copy.trace_hash(), original.trace_hash(), "{algorithm}");
        assert_eq!(copy.metrics(), original.metrics(), "{algorithm}");
        assert_eq!(copy.snapshot(), original.snapshot(), "{algorithm}");
    }
}

#[test]
fn a_clone_is_independent_of_its_original() {
    let mut original = World::new(&Scenario::new(Algorithm::Raft, 5, 3, 10_000)).unwrap();
    original.run_until(ms(1_000));
    let mut copy = original.clone();
    copy.inject(Fault::Crash { node: NodeId(2) }).unwrap();
    copy.run();
    original.run();
    assert_ne!(copy.trace_hash(), original.trace_hash());
    assert!(original.injected().is_empty());
    assert_eq!(copy.injected().len(), 1);
}

#[test]
fn injected_faults_replay_to_the_same_trace_hash() {
    for algorithm in Algorithm::ALL {
        let s = Scenario::new(algorithm, 5, 8, 15_000).with_fault(4_000, Fault::Heal {});
        let mut live = World::new(&s).unwrap();
        live.run_until(ms(1_000));
        live.inject(Fault::Partition {
            groups: vec![
                vec![Proc::Node(NodeId(1)), Proc::Node(NodeId(2))],
                vec![Proc::Node(NodeId(3)), Proc::Node(NodeId(4))],
            ],
        })
        .unwrap();
        // Between two events: the fault still lands after everything due at this instant.
        for _ in 0..25 {
            live.step();
        }
        live.inject(Fault::Pause {
            target: Proc::Node(NodeId(3)),
            duration_ms: tenure_sim::units::Ms::from_millis(700),
        })
        .unwrap();
        // At the instant of the scheduled heal, which applies first.
        live.run_until(ms(4_000));
        live.inject(Fault::Crash { node: NodeId(5) }).unwrap();
        live.inject(Fault::Restart { node: NodeId(5) }).unwrap();
        live.run();

        let replay = live.replay_scenario();
        assert_eq!(replay.faults.len(), 5, "{algorithm}");
        assert!(replay.faults.windows(2).all(|p| p[0].at_ms <= p[1].at_ms));
        let replayed = run_to_end(&replay);
        assert_eq!(replayed.trace_hash(), live.trace_hash(), "{algorithm}");
        assert_eq!(replayed.metrics(), live.metrics(), "{algorithm}");
        // Replaying the replay changes nothing.
        assert_eq!(replayed.replay_scenario(), replay);
    }
}

#[test]
fn a_refused_fault_is_not_recorded() {
    let mut w = World::new(&Scenario::new(Algorithm::Raft, 3, 1, 5_000)).unwrap();
    w.run_until(ms(100));
    let before = w.trace_hash();
    assert!(w.inject(Fault::Crash { node: NodeId(9) }).is_err());
    assert!(
        w.inject(Fault::StoreOutage {
            duration_ms: tenure_sim::units::Ms::from_millis(5)
        })
        .is_err()
    );
    assert!(w.injected().is_empty());
    assert_eq!(w.trace_hash(), before);
    assert_eq!(w.replay_scenario(), *w.scenario());
}
