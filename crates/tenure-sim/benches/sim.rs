//! Simulator throughput: simulated events per second and simulated seconds per wall second,
//! for 5-node Raft and lease-fencing worlds under chaos. Prints figures; asserts nothing.

#![allow(missing_docs, clippy::expect_used)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Instant as WallInstant;
use tenure_sim::chaos::{self, ChaosOptions};
use tenure_sim::{Algorithm, Scenario, World};

const SIM_MS: u64 = 30_000;

fn chaos_scenario(algorithm: Algorithm, seed: u64) -> Scenario {
    let mut opts = ChaosOptions::new(algorithm);
    opts.duration_ms = SIM_MS;
    opts.heal_ms = 0;
    chaos::scenario(&opts, seed)
}

fn run(s: &Scenario) -> u64 {
    let mut w = World::new(s).expect("valid chaos scenario");
    w.run();
    w.metrics().events
}

fn bench(c: &mut Criterion) {
    for algorithm in [Algorithm::Raft, Algorithm::LeaseFencing] {
        let s = chaos_scenario(algorithm, 1);
        let events = run(&s);
        let mut group = c.benchmark_group(format!("chaos-{algorithm}-5-nodes-30s"));
        group.sample_size(10);
        group.throughput(Throughput::Elements(events));
        group.bench_function("events", |b| b.iter(|| black_box(run(black_box(&s)))));
        group.finish();

        // Simulated seconds per wall second over 20 different chaos seeds.
        let start = WallInstant::now();
        let mut total_events = 0u64;
        let runs = 20u64;
        for seed in 0..runs {
            total_events += run(&chaos_scenario(algorithm, seed));
        }
        let wall = start.elapsed().as_secs_f64();
        let sim_s = (runs * SIM_MS) as f64 / 1000.0;
        println!(
            "{algorithm}: {:.0} simulated s per wall s, {:.2} M events/s ({} runs x {} s of chaos, {} events)",
            sim_s / wall,
            total_events as f64 / wall / 1e6,
            runs,
            SIM_MS / 1000,
            total_events
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
