//! Lease scenarios from `docs/scenarios.md` run in the full simulator, with
//! the store and the resource as processes behind the network.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

use tenure::{Instant, NodeId};
use tenure_sim::units::Ms;
use tenure_sim::{Algorithm, Fault, Proc, Scenario, World};

fn settled(algorithm: Algorithm, seed: u64) -> (World, NodeId) {
    let s = Scenario::new(algorithm, 3, seed, 20_000);
    let mut w = World::new(&s).unwrap();
    w.run_until(Instant::from_millis(1_000));
    let leader = w.leaders()[0];
    (w, leader)
}

#[test]
fn s06_partitioned_holder_steps_down_before_anyone_else_leads() {
    // hashicorp/consul#18271, #9788: the holder is cut off from the store and hears nothing.
    // It steps down at its local deadline; the next leader, elected after the store expires
    // the lease, never overlaps with it in true time.
    let (mut w, leader) = settled(Algorithm::LeaseFencing, 5);
    w.inject(Fault::Isolate {
        nodes: vec![Proc::Node(leader)],
    })
    .unwrap();
    w.run();
    let m = w.metrics();
    assert_eq!(m.split_brain_us, 0, "{m:?}");
    assert!(m.elections_total >= 2, "{m:?}");
    assert!(!w.leaders().contains(&leader));
    let (events, _) = w.events_since(0);
    let stepped = events.iter().any(|e| {
        matches!(e.kind, tenure_sim::TraceKind::Node { proc, change: tenure_sim::NodeEvent::SteppedDown { reason: tenure_sim::StepDownCause::StoreUnreachable, .. } } if proc == Proc::Node(leader))
    });
    assert!(stepped);
    assert!(w.violations().is_empty());
}

fn s08_store_clock_jump(algorithm: Algorithm) -> World {
    // hashicorp/raft#108, etcd-io/etcd#12291: the store's clock jumps forward by 2 x ttl
    // while C1 holds; C2 gets the next token and writes; C1's writes with the old token
    // keep arriving until it learns it is deposed.
    let (mut w, _leader) = settled(algorithm, 8);
    w.inject(Fault::ClockJump {
        target: Proc::Store,
        by_ms: Ms::from_millis(4_000),
    })
    .unwrap();
    w.run();
    w
}

#[test]
fn s08_store_clock_jump_is_caught_by_fencing() {
    let w = s08_store_clock_jump(Algorithm::LeaseFencing);
    let m = w.metrics();
    assert!(m.fencing_token >= Some(2), "{m:?}");
    assert!(
        m.split_brain_us > 0,
        "the jump makes two leaders for a while: {m:?}"
    );
    assert_eq!(m.stale_writes_accepted, 0, "{m:?}");
    assert!(m.stale_writes_rejected >= 1, "{m:?}");
    assert!(w.violations().is_empty(), "{:?}", w.violations());
}

#[test]
fn s08_store_clock_jump_without_fencing_lets_stale_writes_in() {
    let w = s08_store_clock_jump(Algorithm::LeaseUnfenced);
    assert!(w.metrics().stale_writes_accepted >= 1, "{:?}", w.metrics());
    assert!(!w.failed(), "unfenced leases do not promise this");
}
