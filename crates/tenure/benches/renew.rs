//! The native cost of the lease renew round trip that bench/lease.mjs times from JS:
//! `handle_timeout`, `poll_output` (the Renew), `LeaseStore::handle`, `handle_response`,
//! `poll_output` (nothing), on a leader whose store always renews. Built with the `release`
//! (speed) profile that `cargo bench` uses; criterion warms up before it measures. Prints
//! figures; asserts nothing.

#![allow(missing_docs, clippy::expect_used, clippy::panic)]

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tenure::lease::{CandidateOutput, CandidateState, LeaseConfig};
use tenure::{Instant, LeaseCandidate, LeaseStore};

/// A leader (holder 1, seed 1, the default config) and the store that granted it.
fn leader() -> (LeaseCandidate, LeaseStore) {
    let config = LeaseConfig {
        seed: 1,
        ..LeaseConfig::default()
    };
    let mut candidate = LeaseCandidate::new(config).expect("the default config is valid");
    let mut store = LeaseStore::default();
    let now = Instant::from_micros(0);
    candidate.campaign(now);
    while let Some(out) = candidate.poll_output() {
        if let CandidateOutput::Send(request) = out {
            let response = store.handle(now, &request).expect("the store is available");
            candidate.handle_response(now, &response);
        }
    }
    (candidate, store)
}

/// One renew round trip, as bench/lease.mjs makes it.
fn renew(candidate: &mut LeaseCandidate, store: &mut LeaseStore) {
    let t = candidate
        .poll_timeout()
        .expect("a leader has a renew timer");
    candidate.handle_timeout(t);
    while let Some(out) = candidate.poll_output() {
        if let CandidateOutput::Send(request) = out {
            let response = store.handle(t, black_box(&request));
            if let Some(response) = response {
                candidate.handle_response(t, black_box(&response));
            }
        }
    }
}

fn bench(c: &mut Criterion) {
    let (mut candidate, mut store) = leader();
    c.bench_function("lease renew round trip", |b| {
        b.iter(|| renew(&mut candidate, &mut store));
    });
    if candidate.state() != CandidateState::Leader {
        panic!("the benchmark lost leadership: {:?}", candidate.state());
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
