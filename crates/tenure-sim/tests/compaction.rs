//! Log compaction (Raft): a run compacted every few entries and the same run never compacted
//! record the same trace (hash and event count) and the same verdicts, and with compaction
//! a ten-hour run holds as many log records as a one-hour run, also with a node down for good
//! or proposals faster than replication carries (the workload's back-pressure).

#![allow(clippy::expect_used)]

use std::collections::BTreeMap;
use tenure::{Duration, Instant, NodeId};
use tenure_sim::chaos::{self, ChaosOptions};
use tenure_sim::units::Ms;
use tenure_sim::{Algorithm, Fault, InvariantKind, Scenario, TimedFault, World};

struct Ran {
    hash: u64,
    events: u64,
    verdicts: BTreeMap<InvariantKind, u64>,
    records: usize,
}

fn run(s: &Scenario, every: u64) -> Ran {
    let mut w = World::new(s).expect("valid scenario");
    w.set_log_compaction(every);
    w.keep_recent_events(0);
    w.run();
    Ran {
        hash: w.trace_hash(),
        events: w.metrics().events,
        verdicts: w.violation_counts(),
        records: w.log_records(),
    }
}

#[test]
fn compaction_changes_no_trace_event_and_no_verdict() {
    let mut compacted_somewhere = false;
    for seed in 0..8 {
        let mut opts = ChaosOptions::new(Algorithm::Raft);
        opts.duration_ms = 240_000;
        // Fast proposals: long logs within a short run.
        opts.propose_interval_ms = Some(20);
        let s = chaos::scenario(&opts, seed);
        let never = run(&s, 0);
        let often = run(&s, 3);
        assert_eq!(often.hash, never.hash, "seed {seed}: trace hash");
        assert_eq!(often.events, never.events, "seed {seed}: events");
        assert_eq!(often.verdicts, never.verdicts, "seed {seed}: verdicts");
        assert!(often.records <= never.records, "seed {seed}");
        compacted_somewhere |= often.records * 4 < never.records;
    }
    assert!(compacted_somewhere, "the runs compacted their logs");
}

#[test]
fn compaction_keeps_the_trace_of_a_run_with_a_paused_leader_and_crashes() {
    // Pauses, crashes and restarts (durable logs compacted while a node is down) under a
    // small compaction step; every fault family at once.
    let mut opts = ChaosOptions::new(Algorithm::Raft);
    opts.duration_ms = 120_000;
    opts.propose_interval_ms = Some(10);
    for seed in 100..104 {
        let s = chaos::scenario(&opts, seed);
        let never = run(&s, 0);
        let often = run(&s, 1);
        assert_eq!(
            (often.hash, often.verdicts),
            (never.hash, never.verdicts),
            "seed {seed}"
        );
    }
}

/// The most records `w` holds at any 10 s step until true time `until_ms`.
fn peak_records(w: &mut World, until_ms: u64) -> usize {
    let mut peak = w.log_records();
    let mut t = w.now().as_micros() / 1000;
    while t < until_ms {
        t = (t + 10_000).min(until_ms);
        w.run_until(Instant::from_millis(t));
        peak = peak.max(w.log_records());
    }
    peak
}

#[test]
fn a_ten_hour_run_holds_what_a_one_hour_run_holds() {
    const HOUR_MS: u64 = 3_600_000;
    let s = Scenario::new(Algorithm::Raft, 5, 7, 10 * HOUR_MS);
    let mut w = World::new(&s).expect("valid scenario");
    w.keep_recent_events(0);
    let one_hour = peak_records(&mut w, HOUR_MS);
    let ten_hours = one_hour.max(peak_records(&mut w, 10 * HOUR_MS));
    assert!(w.violations().is_empty(), "{:?}", w.violations());
    eprintln!("peak log records: {one_hour} over 1 h, {ten_hours} over 10 h");
    assert!(
        ten_hours * 10 <= one_hour * 11,
        "peak records over 1 h: {one_hour}, over 10 h: {ten_hours}"
    );
    // The measure measures: without compaction, one hour holds many times more.
    let mut never = World::new(&s).expect("valid scenario");
    never.set_log_compaction(0);
    never.keep_recent_events(0);
    never.run_until(Instant::from_millis(HOUR_MS));
    eprintln!("uncompacted after 1 h: {}", never.log_records());
    assert!(
        never.log_records() > 4 * one_hour,
        "uncompacted: {}, compacted: {one_hour}",
        never.log_records()
    );
}

/// Peak records over the first `short_ms` of `s` and over all of its `long_ms`.
fn peaks(s: &Scenario, short_ms: u64, long_ms: u64) -> (usize, usize) {
    let mut w = World::new(s).expect("valid scenario");
    w.keep_recent_events(0);
    let short = peak_records(&mut w, short_ms);
    let long = short.max(peak_records(&mut w, long_ms));
    (short, long)
}

#[test]
fn a_node_down_for_good_does_not_grow_the_logs() {
    // Compaction stops at what every node holds: with node 5 crashed from the first second,
    // nothing is compacted, and the leader's proposals (every 200 ms) grew every log by some
    // 18,000 entries an hour until the workload held back at 16,384 past the crashed node.
    const HOUR_MS: u64 = 3_600_000;
    let mut s = Scenario::new(Algorithm::Raft, 5, 3, 4 * HOUR_MS);
    s.faults.push(TimedFault {
        at_ms: Ms::from_millis(1_000),
        fault: Fault::Crash { node: NodeId(5) },
    });
    let (two_hours, four_hours) = peaks(&s, 2 * HOUR_MS, 4 * HOUR_MS);
    eprintln!("peak log records: {two_hours} over 2 h, {four_hours} over 4 h");
    assert!(
        four_hours * 10 <= two_hours * 11,
        "peak records over 2 h: {two_hours}, over 4 h: {four_hours}"
    );
}

#[test]
fn proposals_faster_than_replication_do_not_grow_the_logs() {
    // A proposal every 10 us is more than 5 nodes replicate (64 entries a message, 8 in
    // flight per peer): uncommitted entries, and committed ones the slowest followers lack,
    // piled up (110 MB at 16 s, 429 MB at 64 s) until the workload held back.
    let mut s = Scenario::new(Algorithm::Raft, 5, 5, 60_000);
    s.config.propose_interval_ms = Some(Ms(Duration::from_micros(10)));
    let (twenty_s, sixty_s) = peaks(&s, 20_000, 60_000);
    eprintln!("peak log records: {twenty_s} over 20 s, {sixty_s} over 60 s");
    assert!(
        sixty_s * 10 <= twenty_s * 11,
        "peak records over 20 s: {twenty_s}, over 60 s: {sixty_s}"
    );
}
