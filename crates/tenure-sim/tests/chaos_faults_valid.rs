//! Every fault chaos draws passes the simulator's one fault check
//! (`scenario::validate_fault`), so a drawn run is never refused and its emitted scenario
//! replays. Written when that check began to refuse empty partitions and isolations
//! (break-it pass: `partition groups=1||`, `isolate nodes=,` were accepted and did nothing).
//!
//! A one-process world (Raft or Bully with one node) has no two sides to partition: the
//! partition-majority family still makes its draw there (so the rest of the schedule is
//! unchanged) but injects nothing, where it used to inject `[[], [n1]]`. Every world from
//! one process up is checked here.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

use tenure_sim::Algorithm;
use tenure_sim::chaos::{self, ChaosOptions};
use tenure_sim::scenario::validate_fault;

#[test]
fn chaos_draws_no_fault_the_simulator_refuses() {
    for algorithm in Algorithm::ALL {
        for nodes in 1..=6 {
            let mut opts = ChaosOptions::new(algorithm);
            opts.nodes = nodes;
            opts.duration_ms = 60_000;
            for seed in 0..100 {
                let s = chaos::scenario(&opts, seed);
                for tf in &s.faults {
                    assert_eq!(
                        validate_fault(&s, &tf.fault),
                        Ok(()),
                        "{algorithm} nodes {nodes} seed {seed}: {:?}",
                        tf.fault
                    );
                }
            }
        }
    }
}
