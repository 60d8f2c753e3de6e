//! The native cost of `World::snapshot()`, the figure `npm run bench` (bench/simulation.mjs)
//! prints beside the JS `Simulation.snapshot()`: the bench's scenario (latency 5-30 ms, a
//! partition at 4 s, a pause at 6 s, a heal at 9 s) for Raft and lease-fencing at 5 and 25
//! nodes, a snapshot after every 16 ms of simulated time (one 60 Hz frame) from 3 s on, 625
//! times. Prints one line per world, `algorithm nodes median_ns p95_ns`; then the same for a
//! one-hour 5-node Raft scenario with 5,000 faults queued from the start (a heal every 720 ms),
//! 100 snapshots one frame apart from 600 s on, as `raft-5000-faults 5 median_ns p95_ns`:
//! faults wait in a heap of their own, which the walk over the messages in flight never
//! reads, so this costs what the 5-node line costs.
//! Asserts nothing.
//!
//! `cargo run --release -p tenure-sim --example snapshot_cost`

#![allow(missing_docs, clippy::expect_used)]

use std::hint::black_box;
use std::time::Instant as WallInstant;
use tenure::Instant;
use tenure_sim::{Scenario, World};

fn main() {
    for algorithm in ["raft", "lease-fencing"] {
        for nodes in [5, 25] {
            let json = format!(
                r#"{{"version":1,"algorithm":"{algorithm}","nodes":{nodes},"seed":1,"duration_ms":60000,
                   "network":{{"latency_ms":[5,30]}},"faults":[
                   {{"at_ms":4000,"fault":{{"type":"partition","groups":[[1,2],[3,4]]}}}},
                   {{"at_ms":6000,"fault":{{"type":"pause","target":3,"duration_ms":1500}}}},
                   {{"at_ms":9000,"fault":{{"type":"heal"}}}}]}}"#
            );
            let scenario: Scenario = serde_json::from_str(&json).expect("the bench scenario");
            let mut world = World::new(&scenario).expect("a valid scenario");
            world.run_until(Instant::from_micros(3_000_000));
            let mut samples = Vec::with_capacity(625);
            for frame in 1..=625u64 {
                world.run_until(Instant::from_micros(3_000_000 + frame * 16_000));
                let start = WallInstant::now();
                black_box(world.snapshot());
                samples.push(start.elapsed().as_nanos());
            }
            print_quantiles(&format!("{algorithm} {nodes}"), samples);
        }
    }
    let faults: Vec<String> = (1..=5_000u64)
        .map(|i| format!(r#"{{"at_ms":{},"fault":{{"type":"heal"}}}}"#, i * 720))
        .collect();
    let json = format!(
        r#"{{"version":1,"algorithm":"raft","nodes":5,"seed":1,"duration_ms":3600000,
           "network":{{"latency_ms":[5,30]}},"faults":[{}]}}"#,
        faults.join(",")
    );
    let scenario: Scenario = serde_json::from_str(&json).expect("the one-hour scenario");
    let mut world = World::new(&scenario).expect("a valid scenario");
    world.run_until(Instant::from_micros(600_000_000));
    let mut samples = Vec::with_capacity(100);
    for frame in 1..=100u64 {
        world.run_until(Instant::from_micros(600_000_000 + frame * 16_000));
        let start = WallInstant::now();
        black_box(world.snapshot());
        samples.push(start.elapsed().as_nanos());
    }
    print_quantiles("raft-5000-faults 5", samples);
}

/// Prints `label median_ns p95_ns`.
fn print_quantiles(label: &str, mut samples: Vec<u128>) {
    samples.sort_unstable();
    let q = |f: f64| samples[((samples.len() as f64 * f) as usize).min(samples.len() - 1)];
    println!("{label} {} {}", q(0.5), q(0.95));
}
