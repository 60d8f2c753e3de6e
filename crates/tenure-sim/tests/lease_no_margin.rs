//! The teaching foil `lease-no-margin`: unfenced leases with no safety margin. Without clock
//! faults it keeps every promise the unfenced lease makes; under a drift the real lease's
//! margin covers (design rule 5), a holder with a slow clock outlives its lease and the
//! checker reports the split brain as a broken promise, where `lease-unfenced` holds.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

use tenure::{Instant, NodeId};
use tenure_sim::chaos::{self, ChaosOptions, Family};
use tenure_sim::units::Ms;
use tenure_sim::{Algorithm, Fault, InvariantKind, Proc, Scenario, World};

/// A world of `algorithm` whose first leader `n` then runs slow by the largest drift the
/// lease's default bound tolerates (two clocks at ±5 000 ppm differ by 10 000 ppm) and loses
/// the store; the others keep retrying every 10 ms.
fn slow_holder_cut_from_the_store(algorithm: Algorithm) -> World {
    let mut s = Scenario::new(algorithm, 3, 11, 30_000);
    s.config.ttl_ms = Some(Ms::from_millis(10_000));
    s.config.retry_interval_ms = Some(Ms::from_millis(10));
    let mut w = World::new(&s).unwrap();
    w.run_until(Instant::from_millis(1_000));
    let leader = w.leaders()[0];
    w.inject(Fault::ClockDrift {
        target: Proc::Node(leader),
        ppm: -5_000,
    })
    .unwrap();
    w.run_until(Instant::from_millis(5_000));
    w.inject(Fault::PartitionOneWay {
        from: vec![Proc::Node(leader)],
        to: vec![Proc::Store],
    })
    .unwrap();
    w.run();
    w
}

#[test]
fn drift_within_the_bound_breaks_the_foil_but_not_the_lease() {
    let foil = slow_holder_cut_from_the_store(Algorithm::LeaseNoMargin);
    let m = foil.metrics();
    assert!(m.split_brain_us > 0, "{m:?}");
    assert!(foil.failed(), "the foil promised no split brain");
    let v = foil
        .violations()
        .iter()
        .find(|v| v.kind == InvariantKind::SplitBrain)
        .expect("a split-brain violation");
    assert!(v.promised, "{v:?}");
    assert!(!v.nodes.is_empty(), "{v:?}");
    // The store's promise is not the one that breaks: one valid holder on its clock.
    assert!(
        foil.violations()
            .iter()
            .all(|v| v.kind == InvariantKind::SplitBrain || !v.promised),
        "{:?}",
        foil.violations()
    );

    let lease = slow_holder_cut_from_the_store(Algorithm::LeaseUnfenced);
    assert_eq!(lease.metrics().split_brain_us, 0, "{:?}", lease.metrics());
    assert!(!lease.failed(), "{:?}", lease.violations());
}

#[test]
fn without_clock_faults_the_foil_hands_over_cleanly() {
    // S06: the holder is cut off from everyone, steps down at its local deadline (send time
    // + ttl on a clock that keeps time), and the next leader comes after the store expired
    // the lease.
    let s = Scenario::new(Algorithm::LeaseNoMargin, 3, 5, 20_000);
    let mut w = World::new(&s).unwrap();
    w.run_until(Instant::from_millis(1_000));
    let leader = w.leaders()[0];
    w.inject(Fault::Isolate {
        nodes: vec![Proc::Node(leader)],
    })
    .unwrap();
    w.run();
    let m = w.metrics();
    assert_eq!(m.split_brain_us, 0, "{m:?}");
    assert!(m.elections_total >= 2, "{m:?}");
    assert!(!w.leaders().contains(&leader));
    assert!(w.violations().is_empty(), "{:?}", w.violations());
}

#[test]
fn a_pause_voids_the_promise_as_it_does_the_lease() {
    let s = Scenario::new(Algorithm::LeaseNoMargin, 3, 7, 12_000).with_fault(
        1_500,
        Fault::PauseAfterCheck {
            node: NodeId(1),
            duration_ms: Ms::from_millis(4_000),
        },
    );
    let mut w = World::new(&s).unwrap();
    w.run();
    assert!(!w.failed(), "{:?}", w.violations());
    assert!(w.violations().iter().all(|v| !v.promised));
}

#[test]
fn the_foil_reads_only_its_own_config_keys() {
    let base =
        r#""version": 1, "algorithm": "lease-no-margin", "nodes": 3, "seed": 1, "duration_ms": 10"#;
    for key in ["safety_margin_ms", "max_drift_ppm", "heartbeat_interval_ms"] {
        let text = format!("{{{base}, \"config\": {{\"{key}\": 1}}}}");
        let e = Scenario::from_json(&text).unwrap_err().to_string();
        assert!(
            e.contains(&format!(
                "`{key}` does not apply to algorithm lease-no-margin"
            )),
            "{e}"
        );
    }
    let ok = format!("{{{base}, \"config\": {{\"ttl_ms\": 3000, \"first_token\": 5}}}}");
    let s = Scenario::from_json(&ok).unwrap();
    assert_eq!(s.algorithm, Algorithm::LeaseNoMargin);
    assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
    // Store faults apply: the world has the store and the resource.
    assert!(s.has_proc(Proc::Store) && s.has_proc(Proc::Resource));
    let mut w = World::new(&s).unwrap();
    w.inject(Fault::StoreOutage {
        duration_ms: Ms::from_millis(5),
    })
    .unwrap();
    assert!(w.snapshot().store.is_some());
}

fn campaign(algorithm: Algorithm, families: Vec<Family>, runs: u64) -> chaos::ChaosReport {
    let mut opts = ChaosOptions::new(algorithm);
    opts.nodes = 3;
    opts.runs = runs;
    opts.duration_ms = 20_000;
    opts.heal_ms = 10_000;
    opts.seed = 0xF011;
    opts.families = families;
    chaos::run(&opts, |_| {}).unwrap()
}

#[test]
fn chaos_without_clock_faults_finds_nothing() {
    let families = vec![
        Family::Kill,
        Family::PartitionOne,
        Family::PartitionMajority,
        Family::StoreOutage,
        Family::Duplicate,
        Family::Reorder,
    ];
    let r = campaign(Algorithm::LeaseNoMargin, families, 40);
    assert_eq!(r.runs, 40);
    assert_eq!(r.failed_runs, 0, "{:?}", r.violations);
    assert_eq!(r.over_budget_runs, 0);
}

/// Chaos schedules of isolations (the partition-one family) in worlds where every node's
/// clock runs 5 000 ppm slow from the start, the most the lease's default bound tolerates
/// (against the store's true clock), with a 4 s TTL (a 20 ms overlap for a slow clock) and
/// contenders retrying every 20 ms: how many runs break a promise, and the kinds.
fn drift_chaos(algorithm: Algorithm, runs: u64) -> (u64, Vec<InvariantKind>) {
    let mut opts = ChaosOptions::new(algorithm);
    opts.nodes = 3;
    opts.duration_ms = 20_000;
    opts.heal_ms = 20_000;
    opts.families = vec![Family::PartitionOne];
    let mut failed = 0;
    let mut kinds = Vec::new();
    for seed in 0..runs {
        let mut s = chaos::scenario(&opts, 0xD21F7 + seed);
        s.config.ttl_ms = Some(Ms::from_millis(4_000));
        s.config.retry_interval_ms = Some(Ms::from_millis(20));
        for node in 1..=3 {
            s = s.with_fault(
                0,
                Fault::ClockDrift {
                    target: Proc::Node(NodeId(node)),
                    ppm: -5_000,
                },
            );
        }
        s.faults.sort_by_key(|f| f.at_ms);
        let mut w = World::new(&s).unwrap();
        w.run();
        if w.failed() {
            failed += 1;
            kinds.extend(w.violations().iter().filter(|v| v.promised).map(|v| v.kind));
        }
    }
    (failed, kinds)
}

#[test]
fn chaos_with_clock_drift_finds_the_foil_out_and_the_lease_holds() {
    let (failed, kinds) = drift_chaos(Algorithm::LeaseNoMargin, 60);
    eprintln!("foil: {failed} of 60 runs broke a promise");
    assert!(failed > 0, "no run of the foil broke a promise");
    assert!(
        kinds.iter().all(|k| *k == InvariantKind::SplitBrain),
        "{kinds:?}"
    );
    let (failed, kinds) = drift_chaos(Algorithm::LeaseUnfenced, 60);
    assert_eq!(failed, 0, "{kinds:?}");
}
