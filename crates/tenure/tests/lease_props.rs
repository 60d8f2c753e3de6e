//! Property tests over random interleavings of the lease machines: requests,
//! responses, timeouts, duplicates, reorderings, losses, pauses, outages and clock drift
//! within the configured bound. Invariants (docs/design.md "Invariants", lease):
//! - the store never has two valid holders for a key: a new token is only issued once the
//!   previous lease is expired or released on the store's clock (rules 2-3);
//! - store tokens strictly increase, and a different holder is only ever elected under a
//!   greater token;
//! - a running candidate that believes it leads holds the store's valid lease under its token
//!   and its own session (rule 4, with drift within `max_drift_ppm`, rule 5; rule 8), also
//!   when every candidate claims the same holder id (CURATOR-696);
//! - nothing panics, and the machines' tables stay bounded.
//!
//! proptest prints the failing action list; `PROPTEST_CASES=n` scales the run.

#![allow(clippy::unwrap_used)]

mod lease_world;

use lease_world::{MS, Msg, World, ms};
use proptest::prelude::*;
use tenure::lease::{CandidateState, LeaseConfig};
use tenure::{FencingToken, NodeId};

const NODES: usize = 3;
/// Messages are only delivered by explicit actions.
const NEVER: u64 = u64::MAX / 4;

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

fn lease_config(holder: u64, seed: u64) -> LeaseConfig {
    LeaseConfig {
        holder: NodeId(holder),
        ttl: ms(1_000),
        safety_margin: ms(100),
        max_round_trip: ms(200),
        retry_interval: ms(100),
        retry_jitter: ms(50),
        request_timeout: ms(100),
        seed,
        ..LeaseConfig::default()
    }
}

/// Three candidates, each with holder id `i + 1`, or all with holder 7 when `same_id`.
fn world(rates: &[i64], offsets: &[i64], seed: u64, same_id: bool) -> World {
    let mut w = World::new();
    w.store_clock.rate_ppm = rates[NODES];
    w.store_clock.offset_us = offsets[NODES];
    for i in 0..NODES {
        let holder = if same_id { 7 } else { i as u64 + 1 };
        let n = w.add(lease_config(holder, seed.wrapping_add(i as u64)));
        w.nodes[n].clock.rate_ppm = rates[i];
        w.nodes[n].clock.offset_us = offsets[i];
        w.nodes[n].req_delay = NEVER;
        w.nodes[n].resp_delay = NEVER;
    }
    w
}

fn apply(w: &mut World, a: &Action) {
    let pick = |len: usize, k: usize| (len > 0).then(|| k % len);
    match *a {
        Action::Advance(dt) => w.run_until(w.t + dt),
        Action::Deliver(k) => {
            if let Some(k) = pick(w.net.len(), k) {
                let paused = match &w.net[k].msg {
                    Msg::Resp { to, .. } => w.nodes[*to].paused_until > w.t,
                    Msg::Req { .. } => false,
                };
                if !paused {
                    let m = w.net.remove(k);
                    w.deliver(m.msg);
                }
            }
        }
        Action::Duplicate(k) => {
            if let Some(k) = pick(w.net.len(), k) {
                let m = w.net[k].clone();
                w.net.push(m);
            }
        }
        Action::Drop(k) => {
            if let Some(k) = pick(w.net.len(), k) {
                w.net.remove(k);
            }
        }
        Action::Campaign(i) if w.nodes[i].paused_until <= w.t => w.campaign(i),
        Action::Release(i) if w.nodes[i].paused_until <= w.t => w.release(i),
        Action::Pause(i, d) => w.nodes[i].paused_until = w.nodes[i].paused_until.max(w.t + d),
        Action::Outage(down) => w.store.set_available(!down),
        Action::Write(i) if w.nodes[i].paused_until <= w.t => {
            let _ = w.write_checked(i, "w");
        }
        _ => {}
    }
    // Bound the network so long runs stay cheap (dropping is a legal fault).
    if w.net.len() > 64 {
        w.net.remove(0);
    }
}

fn check(w: &World, before: Option<tenure::lease::LeaseRecord>) -> Result<(), TestCaseError> {
    let key = w.key();
    let after = w.store.lease(&key);
    let store_now = w.store_now();
    if let (Some(b), Some(a)) = (before, after)
        && a.token != b.token
    {
        prop_assert!(a.token > b.token, "tokens must increase: {b:?} -> {a:?}");
        prop_assert!(
            !b.is_valid(store_now),
            "new grant {a:?} while {b:?} still valid at {store_now}"
        );
    }
    for (i, n) in w.nodes.iter().enumerate() {
        prop_assert!(n.cand.outstanding_requests() <= 16);
        if n.paused_until > w.t || n.cand.state() != CandidateState::Leader {
            continue;
        }
        let token = n.cand.token().unwrap();
        let holder = w.store.holder(&key, store_now);
        prop_assert_eq!(
            holder.map(|(h, t, _)| (h, t)),
            Some((n.cand.config().holder, token)),
            "node {} believes it leads under {} at t={}us (local {}, deadline {:?}) but the \
             store says {:?}",
            i,
            token,
            w.t,
            w.local(i),
            n.cand.lease_deadline(),
            after
        );
        prop_assert_eq!(
            after.map(|l| l.session),
            Some(n.cand.session()),
            "node {} leads under {} but the lease is another session's",
            i,
            token
        );
    }
    Ok(())
}

/// Elections in true-time order: a different holder only ever under a greater token.
fn check_elections(w: &World) -> Result<(), TestCaseError> {
    let all = &w.elections;
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
        let mut w = world(&rates, &offsets, seed, same_id);
        for i in 0..NODES {
            w.campaign(i);
        }
        for a in &actions {
            let before = w.store.lease(&w.key());
            apply(&mut w, a);
            check(&w, before)?;
        }
        check_elections(&w)?;
    }

    #[test]
    fn candidate_never_panics_on_arbitrary_inputs(
        seed in any::<u64>(),
        inputs in proptest::collection::vec((0u8..6, any::<u64>(), any::<u64>(), any::<u64>()), 1..200),
    ) {
        // Arbitrary times (including going backwards and u64::MAX), ids, tokens and results.
        use tenure::lease::{LeaseCandidate, RejectReason, RequestId, StoreResponse, StoreResult};
        use tenure::{Duration, Instant, StaleToken};
        let mut c = LeaseCandidate::new(lease_config(1, seed)).unwrap();
        for (kind, a, b, t) in inputs {
            let now = Instant::from_micros(t);
            let result = match b % 5 {
                0 => StoreResult::Granted { token: FencingToken(a % 8), ttl: Duration::from_micros(b) },
                1 => StoreResult::Renewed { token: FencingToken(a % 8), ttl: Duration::from_micros(b) },
                // The holder may be absent, our own id (a clash) or another; so may `remaining`.
                2 => StoreResult::Held {
                    holder: (a % 3 != 0).then_some(NodeId(a % 4)),
                    remaining: (t % 2 == 0).then_some(Duration::from_micros(b)),
                },
                3 => StoreResult::Released,
                _ if a % 2 == 0 => StoreResult::Rejected { reason: RejectReason::Unknown },
                _ => StoreResult::Rejected { reason: RejectReason::Expired },
            };
            match kind {
                0 => c.campaign(now),
                1 => c.handle_response(now, &StoreResponse { id: RequestId(a % 32), key: c.config().key.clone(), result }),
                2 => c.handle_timeout(now),
                3 => c.release(now),
                4 => c.report_fenced(now, StaleToken { presented: FencingToken(a % 8), required: FencingToken(b) }),
                _ => { let _ = c.assert_leadership(now); }
            }
            let mut drained = 0;
            while c.poll_output().is_some() { drained += 1; }
            prop_assert!(drained <= 64);
            prop_assert!(c.outstanding_requests() <= 16);
            if c.state() == CandidateState::Leader {
                prop_assert!(c.lease_deadline().unwrap() > c.now());
            }
        }
    }
}
