//! The checker catches what an algorithm does not promise: Bully under a
//! partition shows a split-brain window (design rule 7, S14), and "pause after check,
//! before write" makes an unfenced lease accept a stale write that fencing rejects (S01,
//! Kleppmann 2016).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

use tenure::{Duration, Instant, NodeId};
use tenure_sim::units::Ms;
use tenure_sim::{Algorithm, Fault, InvariantKind, Proc, Scenario, World};

fn node(i: u64) -> Proc {
    Proc::Node(NodeId(i))
}

#[test]
fn s14_bully_under_partition_shows_a_split_brain_window() {
    // Rule 7: Bully has no safety under partition; each side elects its highest id.
    let s = Scenario::new(Algorithm::Bully, 5, 3, 10_000).with_fault(
        2_000,
        Fault::Partition {
            groups: vec![vec![node(1), node(2)], vec![node(3), node(4), node(5)]],
        },
    );
    let mut w = World::new(&s).unwrap();
    w.run_until(Instant::from_millis(6_000));
    assert_eq!(w.leaders(), vec![NodeId(2), NodeId(5)]);
    w.run();
    let m = w.metrics();
    assert!(
        m.split_brain_us > 1_000_000,
        "split brain {} us",
        m.split_brain_us
    );
    // Not a promise Bully makes: the run still passes.
    assert!(!w.failed());
}

/// Runs a 2-node lease world until a leader writes, then pauses that leader right after its
/// next leadership check for 5 s (longer than the 2 s TTL), and runs on to 15 s.
fn pause_after_check(algorithm: Algorithm) -> World {
    let s = Scenario::new(algorithm, 2, 11, 15_000);
    let mut w = World::new(&s).unwrap();
    w.run_until(Instant::from_millis(1_000));
    let leader = w.leaders()[0];
    w.inject(Fault::PauseAfterCheck {
        node: leader,
        duration_ms: Ms(Duration::from_secs(5)),
    })
    .unwrap();
    w.run();
    w
}

#[test]
fn s01_unfenced_lease_accepts_the_stale_write_after_pause_after_check() {
    let w = pause_after_check(Algorithm::LeaseUnfenced);
    let m = w.metrics();
    assert!(m.stale_writes_accepted >= 1, "{m:?}");
    assert!(m.late_writes >= 1, "{m:?}");
    let stale: Vec<_> = w
        .violations()
        .iter()
        .filter(|v| v.kind == InvariantKind::StaleWriteAccepted)
        .collect();
    assert!(!stale.is_empty());
    // Unfenced leases do not promise this; the run passes with the hazard on record.
    assert!(stale.iter().all(|v| !v.promised));
    assert!(!w.failed());
}

#[test]
fn s01_fencing_rejects_the_same_stale_write() {
    let w = pause_after_check(Algorithm::LeaseFencing);
    let m = w.metrics();
    assert_eq!(m.stale_writes_accepted, 0, "{m:?}");
    assert!(m.stale_writes_rejected >= 1, "{m:?}");
    assert!(w.violations().is_empty(), "{:?}", w.violations());
    // The deposed leader learnt it was fenced and stepped down (report_fenced).
    let (events, _) = w.events_since(0);
    assert!(events.iter().any(|e| matches!(
        e.kind,
        tenure_sim::TraceKind::Node {
            change: tenure_sim::NodeEvent::SteppedDown {
                reason: tenure_sim::StepDownCause::Fenced | tenure_sim::StepDownCause::LeaseExpired,
                ..
            },
            ..
        }
    )));
    assert!(m.leadership_lost_total >= 1);
}

/// The shipped demonstration scenarios (`crates/tenure-sim/scenarios/`) show what they claim.
#[test]
fn shipped_demonstration_scenarios_show_their_hazards() {
    let run = |text: &str| {
        let mut w = World::new(&Scenario::from_json(text).unwrap()).unwrap();
        w.run();
        w
    };
    let unfenced = run(include_str!(
        "../scenarios/pause-after-check-lease-unfenced.json"
    ));
    assert_eq!(unfenced.metrics().stale_writes_accepted, 1);
    let fenced = run(include_str!(
        "../scenarios/pause-after-check-lease-fencing.json"
    ));
    assert_eq!(fenced.metrics().stale_writes_accepted, 0);
    assert_eq!(fenced.metrics().stale_writes_rejected, 1);
    let jump = run(include_str!("../scenarios/s08-store-clock-jump.json"));
    assert_eq!(jump.metrics().stale_writes_accepted, 0);
    assert!(jump.metrics().stale_writes_rejected >= 1);
    let bully = run(include_str!("../scenarios/bully-partition.json"));
    assert!(bully.metrics().split_brain_us > 0);
    for w in [unfenced, fenced, jump, bully] {
        assert!(!w.failed());
    }
}
