//! Design rule 8 (docs/scenarios.md S17) in the full simulator: contenders that claim one
//! holder id are still separate sessions, so at most one leads and the fenced resource takes
//! writes from one.
//!
//! The story (apache/curator CURATOR-696; fabric8io/kubernetes-client#5733): two processes
//! deployed with the same identity were both granted the same lease and token, both renewed,
//! and the resource accepted every write of both. The checker's `token-per-session`
//! invariant would flag such a grant; here the store keeps the second session out instead.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod lease_support;

use lease_support::{MS, S, campaign, config, run_until};
use std::collections::BTreeSet;
use tenure::FencingToken;
use tenure::lease::{CandidateState, LeaseConfig};
use tenure::{Instant, NodeId};
use tenure_sim::lease::LeaseWorld;
use tenure_sim::{Algorithm, Fault, NodeEvent, Proc, Scenario, TraceKind, World};

fn same_id(seed: u64, nodes: u64) -> Scenario {
    let mut s = Scenario::new(Algorithm::LeaseFencing, nodes, seed, 30_000);
    s.config.holder_id = Some(7);
    s
}

/// Runs `w` to its end, collecting who had writes accepted and who heard of a clash.
fn watch(w: &mut World) -> (BTreeSet<Proc>, BTreeSet<Proc>) {
    let (mut writers, mut clashed, mut cursor) = (BTreeSet::new(), BTreeSet::new(), 0);
    let end = w.end();
    let mut t = Instant::ZERO;
    while t < end {
        t = t
            .saturating_add(tenure::Duration::from_millis(500))
            .min(end);
        w.run_until(t);
        let (events, next) = w.events_since(cursor);
        cursor = next;
        for e in events {
            match e.kind {
                TraceKind::Write(r) if r.accepted => {
                    writers.insert(r.from);
                }
                TraceKind::Node {
                    proc,
                    change: tenure_sim::NodeEvent::HolderClash { value },
                } => {
                    assert_eq!(value, 7, "the clash names the shared id");
                    clashed.insert(proc);
                }
                _ => {}
            }
        }
    }
    (writers, clashed)
}

#[test]
fn rule8_same_id_contenders_one_leader_one_writer() {
    for seed in 0..20 {
        let mut w = World::new(&same_id(seed, 3)).unwrap();
        let (writers, clashed) = watch(&mut w);
        let m = w.metrics();
        assert!(
            w.violations().is_empty(),
            "seed {seed}: {:?}",
            w.violations().iter().take(3).collect::<Vec<_>>()
        );
        assert_eq!(m.split_brain_us, 0, "seed {seed}: {m:?}");
        assert_eq!(
            writers.len(),
            1,
            "seed {seed}: writes accepted from {writers:?}"
        );
        assert_eq!(
            m.fencing_token,
            Some(1),
            "seed {seed}: one grant, never shared"
        );
        let writer = writers.first().copied().unwrap();
        let others: BTreeSet<Proc> = (1..=3)
            .map(|i| Proc::Node(NodeId(i)))
            .filter(|p| *p != writer)
            .collect();
        assert_eq!(
            clashed, others,
            "seed {seed}: every outsider warns once it is Held out"
        );
    }
}

#[test]
fn rule8_same_id_contenders_under_crashes_never_share_a_token() {
    // The leader crashes and restarts (a new session) while its lease is still valid on the
    // store: the others and its own new incarnation wait for it to lapse; each new grant is a
    // new token held by one session.
    for seed in 0..10 {
        let mut w = World::new(&same_id(seed, 3)).unwrap();
        w.run_until(Instant::from_millis(2_000));
        let leader = w.leaders()[0];
        w.inject(Fault::Crash { node: leader }).unwrap();
        w.run_until(Instant::from_millis(2_500));
        w.inject(Fault::Restart { node: leader }).unwrap();
        let _ = watch(&mut w);
        let m = w.metrics();
        assert!(
            w.violations().is_empty(),
            "seed {seed}: {:?}",
            w.violations().iter().take(3).collect::<Vec<_>>()
        );
        assert_eq!(m.split_brain_us, 0, "seed {seed}: {m:?}");
        assert!(m.fencing_token >= Some(2), "seed {seed}: {m:?}");
        assert_eq!(m.stale_writes_accepted, 0, "seed {seed}: {m:?}");
    }
}

#[test]
fn rule8_same_id_contenders_under_chaos_keep_every_promise() {
    // The chaos families (kills, pauses, partitions, clock faults, store outages) over five
    // contenders that all claim holder 7: no two sessions ever share a token, no stale
    // write is accepted, and a leader is back within the liveness bound after the heal.
    let mut opts = tenure_sim::chaos::ChaosOptions::new(Algorithm::LeaseFencing);
    opts.duration_ms = 30_000;
    for seed in 0..40 {
        let mut s = tenure_sim::chaos::scenario(&opts, seed);
        s.config.holder_id = Some(7);
        let mut w = World::new(&s).unwrap();
        let heal = Instant::from_millis(opts.duration_ms);
        w.run_until(heal);
        let bound = tenure_sim::chaos::liveness_bound_ms(&s);
        let back = w.run_until_leader(heal.saturating_add(tenure::Duration::from_millis(bound)));
        assert!(
            back.is_some(),
            "seed {seed}: no leader within {bound} ms of the heal"
        );
        w.run();
        let promised: Vec<_> = w
            .violations()
            .iter()
            .filter(|v| v.promised)
            .take(3)
            .collect();
        assert!(promised.is_empty(), "seed {seed}: {promised:?}");
        assert_eq!(w.metrics().stale_writes_accepted, 0, "seed {seed}");
    }
}

/// Candidates built from the core's config, all claiming holder 7, seeded apart.
fn same_id_world() -> (World, lease_support::Log) {
    let same_id = |seed| LeaseConfig { seed, ..config(7) };
    lease_support::world(vec![same_id(1), same_id(2)])
}

fn clashes(log: &lease_support::Log, id: u64) -> usize {
    log.node(id)
        .iter()
        .filter(|(_, e)| matches!(e, NodeEvent::HolderClash { .. }))
        .count()
}

#[test]
fn rule8_two_contenders_with_one_holder_id_never_lead_together() {
    let (a, b) = (NodeId(1), NodeId(2));
    let (mut w, log) = same_id_world();
    campaign(&mut w, 1);
    campaign(&mut w, 2);
    run_until(&mut w, 60 * S);
    // Only the first to reach the store ever led, under token 1, renewing all along.
    assert_eq!(log.elections(), vec![(2 * MS, 1, FencingToken(1))]);
    assert_eq!(w.candidate(a).unwrap().state(), CandidateState::Leader);
    assert_eq!(w.candidate(b).unwrap().state(), CandidateState::Campaigning);
    assert!(w.assert_leadership(b).unwrap().is_err());
    // One clash episode, however many retries were refused.
    assert_eq!(clashes(&log, 2), 1, "{:?}", log.node(2));
    assert_eq!(log.node(2)[0].1, NodeEvent::HolderClash { value: 7 });
    assert_eq!(clashes(&log, 1), 0);
    // The first releases: the second now leads under a new token, and the resource fences
    // the first's token out.
    w.release(a).unwrap();
    run_until(&mut w, 63 * S);
    let elections = log.elections();
    assert_eq!(elections.len(), 2);
    let (_, who, token) = elections[1];
    assert_eq!((who, token), (2, FencingToken(2)));
    assert!(w.write_with(b, FencingToken(2)).unwrap().is_ok());
    assert!(w.write_with(a, FencingToken(1)).unwrap().is_err());
    assert!(w.violations().is_empty(), "{:?}", w.violations());
}

#[test]
fn a_new_clash_after_leading_is_a_new_episode() {
    let (a, b) = (NodeId(1), NodeId(2));
    let (mut w, log) = same_id_world();
    campaign(&mut w, 1);
    campaign(&mut w, 2);
    run_until(&mut w, 10 * S);
    assert_eq!(clashes(&log, 2), 1);
    // a hands over; b leads (the episode ends); a comes back and is the outsider now.
    w.release(a).unwrap();
    run_until(&mut w, 13 * S);
    assert_eq!(w.candidate(b).unwrap().state(), CandidateState::Leader);
    campaign(&mut w, 1);
    run_until(&mut w, 30 * S);
    assert_eq!(clashes(&log, 1), 1);
    assert_eq!(clashes(&log, 2), 1);
    assert_eq!(w.candidate(a).unwrap().state(), CandidateState::Campaigning);
}
