//! Chaos that would have caught the storms: the duplicate and reorder families with kills,
//! pauses and partitions, and for Raft a command every 5 ms. Every run is held to its work
//! budget (`tenure_sim::budget`: messages per simulated second and queued events) and
//! fails when over it, besides breaking no promised invariant and electing a leader within
//! the liveness bound after the heal.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use tenure_sim::Algorithm;
use tenure_sim::chaos::{self, ChaosOptions, Family};

const SEEDS: u64 = 200;

fn sweep(algorithm: Algorithm, propose_ms: Option<u64>) {
    let mut opts = ChaosOptions::new(algorithm);
    opts.runs = SEEDS;
    opts.duration_ms = 20_000;
    opts.heal_ms = 10_000;
    opts.seed = 0x570_4A00;
    opts.propose_interval_ms = propose_ms;
    opts.families = vec![
        Family::Duplicate,
        Family::Reorder,
        Family::Kill,
        Family::Pause,
        Family::PartitionOne,
        Family::PartitionMajority,
    ];
    let r = chaos::run(&opts, |_| {}).expect("chaos scenarios are valid");
    for f in &r.failures {
        eprintln!("seed {}: {}\n  replay: {}", f.seed, f.violation, f.replay);
    }
    let budget = tenure_sim::budget::budget(&chaos::scenario(&opts, opts.seed));
    eprintln!(
        "{algorithm}: peak {} messages per simulated second (budget {}), peak queue {} (budget {})",
        r.peak_messages_per_second, budget.messages_per_second, r.peak_queue_len, budget.queue_len
    );
    assert_eq!(r.runs, SEEDS);
    assert_eq!(
        r.over_budget_runs, 0,
        "{algorithm}: runs over their work budget"
    );
    assert_eq!(r.failed_runs, 0, "{algorithm}: {:?}", r.violations);
    assert!(r.peak_messages_per_second > 0);
}

#[test]
fn raft_with_a_command_every_5ms_stays_within_budget_under_duplication_and_reordering() {
    sweep(Algorithm::Raft, Some(5));
}

#[test]
fn bully_stays_within_budget_under_duplication_and_reordering() {
    sweep(Algorithm::Bully, None);
}

#[test]
fn leases_stay_within_budget_under_duplication_and_reordering() {
    sweep(Algorithm::LeaseFencing, None);
    sweep(Algorithm::LeaseUnfenced, None);
}

#[test]
fn a_storm_fails_the_run() {
    // The budget is not vacuous: a world sending far more than it allows is refused. A Raft
    // budget for a 5 ms proposal rate, judged against a 1 ms one on 50% duplicated links.
    use tenure_sim::units::{Ms, Probability};
    use tenure_sim::{Scenario, World};
    let mut s = Scenario::new(Algorithm::Raft, 5, 1, 2_000);
    s.config.propose_interval_ms = Some(Ms::from_millis(5));
    let b = tenure_sim::budget::budget(&s);
    s.config.propose_interval_ms = Some(Ms::from_millis(1));
    s.config.heartbeat_interval_ms = Some(Ms::from_millis(1));
    s.network.duplicate = Probability::new(0.5).unwrap();
    let mut w = World::new(&s).unwrap();
    w.run_until(tenure::Instant::from_millis(1_000));
    let sent = w.metrics().messages_sent;
    assert!(
        sent > b.messages_per_second,
        "{sent} <= {}",
        b.messages_per_second
    );
}
