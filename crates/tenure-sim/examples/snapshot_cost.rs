//! The native cost of `World::snapshot()`, the figure `npm run bench` (bench/simulation.mjs)
//! prints beside the JS `Simulation.snapshot()`: the bench's scenario (latency 5-30 ms, a
//! partition at 4 s, a pause at 6 s, a heal at 9 s) for Raft and lease-fencing at 5 and 25
//! nodes, a snapshot after every 16 ms of simulated time (one 60 Hz frame) from 3 s on, 625
//! times. Prints one line per world, `algorithm nodes median_ns p95_ns`; asserts nothing.
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
            samples.sort_unstable();
            let q = |f: f64| samples[((samples.len() as f64 * f) as usize).min(samples.len() - 1)];
            println!("{algorithm} {nodes} {} {}", q(0.5), q(0.95));
        }
    }
}
