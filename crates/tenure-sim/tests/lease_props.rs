//! Property tests over random interleavings of the lease machines in the simulator's world,
//! in manual delivery: requests, responses, timeouts, duplicates, reorderings, losses,
//! pauses, outages and clock drift within the configured bound. Invariants
//! (docs/design.md "Invariants", lease):
//! - the store never has two valid holders for a key: a new token is only issued once the
//!   previous lease is expired or released on the store's clock (rules 2-3);
//! - store tokens strictly increase, and a different holder is only ever elected under a
//!   greater token;
//! - a running candidate that believes it leads holds the store's valid lease under its token
//!   and its own session (rule 4, with drift within `max_drift_ppm`, rule 5; rule 8), also
//!   when every candidate claims the same holder id (CURATOR-696);
//! - nothing panics, the machines' tables stay bounded, and the world's checker finds no
//!   broken promise.
//!
//! proptest prints the failing action list; `PROPTEST_CASES=n` scales the run. One machine
//! fed arbitrary inputs is the core's test (`crates/tenure/tests/lease_props.rs`).

#![allow(clippy::unwrap_used)]

#[path = "../../tenure/tests/support/lease_config.rs"]
mod lease_config;
mod lease_support;

use lease_config::lease_config;

use lease_support::{Log, MS, campaign, inject, world};
use proptest::prelude::*;
use tenure::lease::{CandidateState, LeaseRecord};
use tenure::{Duration, NodeId};
use tenure_sim::lease::LeaseWorld;
use tenure_sim::snapshot::Status;
use tenure_sim::units::{Ms, SignedMs};
use tenure_sim::{Fault, Proc, World};

const NODES: usize = 3;

#[derive(Clone, Debug)]
enum Action {
    Advance(u64),
    Deliver(usize),
    Duplicate(usize),
    Drop(usize),
    Campaign(usize),
    Release(usize),
    Pause(usize, u64),
    Outage(bool),
    Write(usize),
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        4 => (0..400 * MS).prop_map(Action::Advance),
        8 => any::<usize>().prop_map(Action::Deliver),
        1 => any::<usize>().prop_map(Action::Duplicate),
        2 => any::<usize>().prop_map(Action::Drop),
        2 => (0..NODES).prop_map(Action::Campaign),
        1 => (0..NODES).prop_map(Action::Release),
        1 => ((0..NODES), (0..3_000 * MS)).prop_map(|(i, d)| Action::Pause(i, d)),
        1 => any::<bool>().prop_map(Action::Outage),
        2 => (0..NODES).prop_map(Action::Write),
    ]
}

fn node(i: usize) -> NodeId {
    NodeId(i as u64 + 1)
}

fn up(w: &World, proc: Proc) -> bool {
    w.status(proc) == Some(Status::Up)
}

/// Three candidates, each with holder id `i + 1`, or all with holder 7 when `same_id`;
/// every message waits for an action.
fn interleaved_world(rates: &[i64], offsets: &[i64], seed: u64, same_id: bool) -> (World, Log) {
    let configs = (0..NODES)
        .map(|i| {
            let holder = if same_id { 7 } else { i as u64 + 1 };
            lease_config(holder, seed.wrapping_add(i as u64))
        })
        .collect();
    let (mut w, log) = world(configs);
    w.set_manual_delivery(true);
    let procs = (0..NODES).map(|i| Proc::Node(node(i))).chain([Proc::Store]);
    for (k, target) in procs.enumerate() {
        let ppm = i32::try_from(rates[k]).unwrap();
        inject(&mut w, Fault::ClockDrift { target, ppm });
        let offset_ms = SignedMs(offsets[k]);
        inject(&mut w, Fault::ClockOffset { target, offset_ms });
    }
    (w, log)
}

fn apply(w: &mut World, a: &Action) {
    let held = w.held();
    let pick = |k: usize| (!held.is_empty()).then(|| &held[k % held.len()]);
    match *a {
        Action::Advance(dt) => w.run_until(w.now() + Duration::from_micros(dt)),
        Action::Deliver(k) => {
            // An answer for a paused node waits on the wire, as in the original story.
            if let Some(m) = pick(k)
                && (m.to == Proc::Store || m.to == Proc::Resource || up(w, m.to))
            {
                w.deliver_held_id(m.id);
            }
        }
        Action::Duplicate(k) => {
            if let Some(m) = pick(k) {
                w.duplicate_held(m.id);
            }
        }
        Action::Drop(k) => {
            if let Some(m) = pick(k) {
                w.drop_held_id(m.id);
            }
        }
        Action::Campaign(i) if up(w, Proc::Node(node(i))) => campaign(w, node(i).0),
        Action::Release(i) if up(w, Proc::Node(node(i))) => {
            w.release(node(i)).unwrap();
        }
        Action::Pause(i, d) if d > 0 => inject(
            w,
            Fault::Pause {
                target: Proc::Node(node(i)),
                duration_ms: Ms(Duration::from_micros(d)),
            },
        ),
        Action::Outage(down) => {
            w.with_store(|s, _| s.set_available(!down)).unwrap();
        }
        Action::Write(i) if up(w, Proc::Node(node(i))) => {
            let _ = w.write_checked(node(i));
        }
        _ => {}
    }
    // Bound the network so long runs stay cheap (dropping is a legal fault).
    let held = w.held();
    if held.len() > 64 {
        w.drop_held_id(held[0].id);
    }
}

fn lease_now(w: &World) -> Option<LeaseRecord> {
    w.lease_store().unwrap().lease(w.lease_key().unwrap())
}

fn check(w: &World, before: Option<LeaseRecord>) -> Result<(), TestCaseError> {
    let key = w.lease_key().unwrap();
    let store = w.lease_store().unwrap();
    let after = store.lease(key);
    let store_now = w.store_now().unwrap();
    if let (Some(b), Some(a)) = (before, after)
        && a.token != b.token
    {
        prop_assert!(a.token > b.token, "tokens must increase: {b:?} -> {a:?}");
        prop_assert!(
            !b.is_valid(store_now),
            "new grant {a:?} while {b:?} still valid at {store_now}"
        );
    }
    for i in 0..NODES {
        let n = w.candidate(node(i)).unwrap();
        prop_assert!(n.outstanding_requests() <= 16);
        if !up(w, Proc::Node(node(i))) || n.state() != CandidateState::Leader {
            continue;
        }
        let token = n.token().unwrap();
        let holder = store.holder(key, store_now);
        prop_assert_eq!(
            holder.map(|(h, t, _)| (h, t)),
            Some((n.config().holder, token)),
            "node {} believes it leads under {} at t={} (local {:?}, deadline {:?}) but the \
             store says {:?}",
            i,
            token,
            w.now(),
            w.local_time(Proc::Node(node(i))),
            n.lease_deadline(),
            after
        );
        prop_assert_eq!(
            after.map(|l| l.session),
            Some(n.session()),
            "node {} leads under {} but the lease is another session's",
            i,
            token
        );
    }
    Ok(())
}

/// Elections in true-time order: a different holder only ever under a greater token.
fn check_elections(log: &Log) -> Result<(), TestCaseError> {
    let all = log.elections();
    for pair in all.windows(2) {
        let ((_, i, a), (_, j, b)) = (pair[0], pair[1]);
        prop_assert!(b >= a, "elections went backwards: {pair:?}");
        if i != j {
            prop_assert!(b > a, "two holders elected under one token: {pair:?}");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    #[test]
    fn lease_invariants_hold_under_random_interleavings(
        // Each clock within +-4000 ppm of true time: any candidate/store rate ratio stays
        // above 1 - 1 % (max_drift_ppm = 10 000, rule 5).
        rates in proptest::collection::vec(-4_000i64..=4_000, NODES + 1),
        offsets in proptest::collection::vec(0i64..5_000_000, NODES + 1),
        seed in any::<u64>(),
        same_id in any::<bool>(),
        actions in proptest::collection::vec(action(), 1..300),
    ) {
        let (mut w, log) = interleaved_world(&rates, &offsets, seed, same_id);
        for i in 0..NODES {
            campaign(&mut w, node(i).0);
        }
        for a in &actions {
            let before = lease_now(&w);
            apply(&mut w, a);
            check(&w, before)?;
        }
        check_elections(&log)?;
        let promised: Vec<_> = w.violations().iter().filter(|v| v.promised).take(3).collect();
        prop_assert!(promised.is_empty(), "{:?}", promised);
    }
}
