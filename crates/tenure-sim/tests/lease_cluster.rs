//! Scenarios S01-S08, S15 and S16 of `docs/scenarios.md` for the lease machines, in the
//! simulator's world: candidates built from the core's config, a store and a fenced
//! resource behind a 1 ms network, per-process clocks, pauses and cuts as the world's
//! faults, and the lease's own calls (`tenure_sim::lease::LeaseWorld`) for a check or a
//! write with a chosen token at a chosen instant.

#![allow(clippy::unwrap_used)] // test setup helpers outside #[test] fns

mod lease_support;

use lease_support::{
    Log, MS, S, campaign, config, cut, delays, inject, ms, pause, run_until, state, world, world_of,
};
use tenure::lease::{
    CandidateState, LeaseConfig, NotLeader, SessionId, StoreOp, StoreRequest, StoreResult,
};
use tenure::{FencingToken, Instant, NodeId, StaleToken};
use tenure_sim::lease::LeaseWorld;
use tenure_sim::snapshot::Status;
use tenure_sim::units::Ms;
use tenure_sim::{Algorithm, Fault, NodeEvent, Proc, StepDownCause, TraceKind, World};

const N1: NodeId = NodeId(1);
const N2: NodeId = NodeId(2);

fn key(w: &World) -> tenure::lease::LeaseKey {
    w.lease_key().unwrap().clone()
}

/// The index the resource records for node `id`'s writes.
fn writer(id: u64) -> u64 {
    id - 1
}

#[test]
fn s01_paused_holder_writes_late_and_is_fenced() {
    // S01 (Kleppmann, "How to do distributed locking", 2016): C1 holds 33, pauses 1 s..15 s;
    // C2 gets 34 at 11 s and writes at 12 s; C1 resumes and writes with 33.
    let (mut w, log) = world_of(Algorithm::LeaseFencing, 33, vec![config(1), config(2)]);
    campaign(&mut w, 1);
    run_until(&mut w, S);
    let checked = w.assert_leadership(N1).unwrap();
    assert_eq!(
        checked,
        Ok(FencingToken(33)),
        "C1 checks, then pauses before writing"
    );
    pause(&mut w, 1, 14 * S);
    run_until(&mut w, 11 * S);
    campaign(&mut w, 2);
    run_until(&mut w, 12 * S);
    assert_eq!(log.elected_tokens(2), vec![34]);
    assert_eq!(w.write_checked(N2), Some(Ok(FencingToken(34))));
    // C1 resumes at 15 s: step up to its resumption, before any of its timers runs.
    run_until(&mut w, 15 * S - 1);
    while w.status(Proc::Node(N1)) == Some(Status::Paused) {
        assert!(w.step());
    }
    assert_eq!(w.now(), Instant::from_micros(15 * S));
    // Its own check fails on resume (its deadline was 9 s), and it steps down.
    let again = w.assert_leadership(N1).unwrap();
    assert!(
        matches!(again, Err(NotLeader::DeadlinePassed { deadline, .. })
            if deadline == Instant::from_millis(9_000)),
        "{again:?}"
    );
    assert_eq!(
        log.stepped_down(1),
        vec![(15 * S, StepDownCause::LeaseExpired)]
    );
    // "Pause after check, before write": the write with the token checked at 1 s is
    // rejected by the resource whatever C1 believes.
    let late = w.write_with(N1, FencingToken(33)).unwrap();
    assert_eq!(
        late,
        Err(StaleToken {
            presented: FencingToken(33),
            required: FencingToken(34)
        })
    );
    let resource = w.resource().unwrap();
    assert_eq!(resource.highest_token(), FencingToken(34));
    assert_eq!(resource.value(), Some(&writer(2)), "the last write is C2's");
}

/// What the candidate did, as the store saw it: every message to or from the store and
/// every state change of a node, with its time.
fn candidate_story(log: &Log) -> Vec<String> {
    log.events()
        .into_iter()
        .filter_map(|e| match e.kind {
            TraceKind::Send { from, to, msg, .. } | TraceKind::Deliver { from, to, msg, .. }
                if from == Proc::Store || to == Proc::Store =>
            {
                Some(format!("{} {from}->{to} {msg}", e.time_us))
            }
            TraceKind::Node { proc, change } => Some(format!("{} {proc} {change:?}", e.time_us)),
            _ => None,
        })
        .collect()
}

#[test]
fn s01_without_fencing_the_machine_is_the_same_but_writes_are_unguarded() {
    // S01, "fencing: false" mode: identical outputs; only `fences_writes` differs, so the
    // world's leader writes without a token and the resource takes every write.
    let run = |fencing: bool| {
        let algorithm = if fencing {
            Algorithm::LeaseFencing
        } else {
            Algorithm::LeaseUnfenced
        };
        let (mut w, log) = world_of(
            algorithm,
            1,
            vec![LeaseConfig {
                fencing,
                ..config(1)
            }],
        );
        campaign(&mut w, 1);
        run_until(&mut w, 30 * S);
        (
            candidate_story(&log),
            w.candidate(N1).unwrap().fences_writes(),
        )
    };
    let (fenced, f) = run(true);
    let (unfenced, u) = run(false);
    assert!(fenced.len() > 10, "{fenced:#?}");
    assert_eq!(fenced, unfenced);
    assert!(f && !u);
}

#[test]
fn s02_late_grant_never_elects() {
    // S02 (etcd-io/etcd#9921, #11456; node-redlock#296): the network holds C1's acquire so
    // the store grants at 6 s; the answer reaches C1 at 12 s. Validity counted from the send
    // time (0 + 5 s - margin) is spent: no leader event. The store's lease lapses at 11 s.
    let cfg = LeaseConfig {
        ttl: ms(5_000),
        safety_margin: ms(500),
        retry_interval: ms(20_000),
        ..config(1)
    };
    let other = LeaseConfig {
        ttl: ms(5_000),
        safety_margin: ms(500),
        ..config(2)
    };
    let (mut w, log) = world(vec![cfg, other]);
    delays(&mut w, 1, Some(6_000), Some(6_000));
    campaign(&mut w, 1);
    run_until(&mut w, 12 * S + MS);
    assert!(log.node(1).is_empty(), "{:?}", log.node(1));
    assert_eq!(state(&w, 1), Some(CandidateState::Campaigning));
    let lease = w.lease_store().unwrap().lease(&key(&w)).unwrap();
    assert_eq!(
        (lease.holder, lease.expires_at),
        (NodeId(1), Instant::from_millis(11_000))
    );
    assert!(
        !lease.released,
        "the late grant is left to lapse, not released"
    );
    campaign(&mut w, 2);
    run_until(&mut w, 13 * S);
    assert_eq!(log.elected_tokens(2), vec![2]);
}

#[test]
fn s03_deadline_counts_from_send_time() {
    // S03 (apache/curator#980): ttl 30 s; the last acknowledged request was sent at 0 and
    // processed at 0.2 s; everything after is lost. C1 steps down at 30 s - margin (27 s),
    // strictly before the store's expiry at 30.2 s, however late it notices.
    let cfg = LeaseConfig {
        ttl: ms(30_000),
        safety_margin: ms(3_000),
        ..config(1)
    };
    let (mut w, log) = world(vec![cfg]);
    delays(&mut w, 1, Some(200), None);
    campaign(&mut w, 1);
    run_until(&mut w, 500 * MS);
    assert_eq!(
        w.candidate(N1).unwrap().lease_deadline(),
        Some(Instant::from_millis(27_000))
    );
    cut(&mut w, 1);
    run_until(&mut w, 27 * S - 1);
    assert_eq!(state(&w, 1), Some(CandidateState::Leader));
    run_until(&mut w, 27 * S);
    assert_eq!(
        log.stepped_down(1),
        vec![(27 * S, StepDownCause::StoreUnreachable)]
    );
    let expiry = w.lease_store().unwrap().lease(&key(&w)).unwrap().expires_at;
    assert_eq!(expiry, Instant::from_millis(30_200));
    assert!(Instant::from_micros(27 * S) < expiry);
}

#[test]
fn s03_a_late_answer_never_extends_the_deadline() {
    // S03 (apache/curator#980): an answer that arrives after the deadline is ignored; the
    // moment of receipt never moves the deadline (rule 4).
    let (mut w, log) = world(vec![config(1)]);
    campaign(&mut w, 1);
    run_until(&mut w, S);
    let deadline = w.candidate(N1).unwrap().lease_deadline().unwrap();
    assert_eq!(deadline, Instant::from_millis(9_000));
    delays(&mut w, 1, None, Some(6_000)); // the renewal sent at 3.333 s is answered at 9.334 s
    run_until(&mut w, deadline.as_micros() - 1);
    assert_eq!(w.candidate(N1).unwrap().lease_deadline(), Some(deadline));
    run_until(&mut w, deadline.as_micros());
    assert_eq!(
        log.stepped_down(1),
        vec![(9 * S, StepDownCause::StoreUnreachable)]
    );
    run_until(&mut w, 9_500 * MS);
    assert_eq!(state(&w, 1), Some(CandidateState::Campaigning));
    assert_eq!(log.elected_tokens(1), vec![1]);
}

#[test]
fn s04_renewals_rejected_stop_leader_work_at_once() {
    // S04 (kubernetes/kubernetes#23731, cilium/cilium#42920): every renewal is refused.
    let (mut w, log) = world(vec![config(1)]);
    assert_eq!(w.refuse_renewals(true), Some(false));
    campaign(&mut w, 1);
    run_until(&mut w, 4 * S);
    let downs = log.stepped_down(1);
    assert_eq!(downs.len(), 1);
    let (at, reason) = downs[0];
    assert_eq!(reason, StepDownCause::RenewalRejected);
    // The first renewal leaves at 3.333 s and is refused on arrival: step down at once.
    assert_eq!(at, 3_333_333 + 2 * MS);
    assert!(w.assert_leadership(N1).unwrap().is_err());
    // After each step-down, no leader-only output until a new election.
    run_until(&mut w, 60 * S);
    let mut leading = false;
    let mut renewals = 0;
    for e in log.events() {
        match e.kind {
            TraceKind::Node {
                proc: Proc::Node(N1),
                change,
            } => match change {
                NodeEvent::BecameLeader { .. } => leading = true,
                NodeEvent::SteppedDown { .. } => leading = false,
                _ => {}
            },
            TraceKind::Send {
                from: Proc::Node(N1),
                msg: "Renew",
                ..
            } => {
                renewals += 1;
                assert!(leading, "renewal sent while not leading at {}", e.time_us);
            }
            _ => {}
        }
    }
    assert!(renewals > 1, "{renewals} renewals");
    // The refused token is never believed again: every election has a fresh token.
    let tokens = log.elected_tokens(1);
    assert!(tokens.len() > 1, "{tokens:?}");
    assert!(tokens.windows(2).all(|p| p[0] < p[1]), "{tokens:?}");
}

#[test]
fn s04_store_outage_steps_down_by_the_deadline() {
    // S04: the store answers nothing; the local deadline (9 s) is the latest step-down.
    let (mut w, log) = world(vec![config(1)]);
    campaign(&mut w, 1);
    run_until(&mut w, S);
    inject(
        &mut w,
        Fault::StoreOutage {
            duration_ms: Ms::from_millis(3_600_000),
        },
    );
    run_until(&mut w, 20 * S);
    assert_eq!(
        log.stepped_down(1),
        vec![(9 * S, StepDownCause::StoreUnreachable)]
    );
    assert_eq!(log.elected_tokens(1), vec![1]);
}

#[test]
fn s05_the_holders_ttl_rules() {
    // S05 (kubernetes/kubernetes#47671): H holds with ttl 30 s; C (ttl 10 s) tries every 2 s
    // and is refused until H's 30 s lease lapses on the store clock.
    let h = LeaseConfig {
        ttl: ms(30_000),
        safety_margin: ms(3_000),
        ..config(1)
    };
    let c = LeaseConfig {
        retry_interval: ms(2_000),
        retry_jitter: ms(0),
        ..config(2)
    };
    let (mut w, log) = world(vec![h, c]);
    campaign(&mut w, 1);
    run_until(&mut w, 10 * MS);
    cut(&mut w, 1); // H stops renewing; its lease runs to 30.001 s
    campaign(&mut w, 2);
    run_until(&mut w, 29 * S);
    assert!(log.node(2).is_empty());
    run_until(&mut w, 40 * S);
    let (at, _) = log.node(2)[0];
    assert!(
        (30 * S + MS..=32 * S + 2 * MS).contains(&at),
        "elected at {at}"
    );
    assert_eq!(log.elected_tokens(2), vec![2]);
}

#[test]
fn s06_partitioned_holder_never_overlaps_the_next_leader() {
    // S06 (hashicorp/consul#18271, #9788): the holder is cut off at 1 s; nothing ever
    // answers. It steps down at its local deadline; C2's leadership, gained after the store
    // expires the lease, never overlaps in true time. Clocks drift within the bound: the
    // holder runs 0.5 % slow and the store 0.4 % fast (ratio > 1 - 1 %).
    let (mut w, log) = world(vec![config(1), config(2)]);
    for (target, ppm) in [(Proc::Store, 4_000), (Proc::Node(N1), -5_000)] {
        inject(&mut w, Fault::ClockDrift { target, ppm });
    }
    campaign(&mut w, 1);
    run_until(&mut w, S);
    cut(&mut w, 1);
    campaign(&mut w, 2);
    run_until(&mut w, 40 * S);
    let downs = log.stepped_down(1);
    assert_eq!(downs[0].1, StepDownCause::StoreUnreachable);
    let first = log.leader_intervals(1)[0];
    let second = log.leader_intervals(2)[0];
    assert!(first.1 <= second.0, "c1 {first:?} overlaps c2 {second:?}");
    assert!(w.violations().is_empty(), "{:?}", w.violations());
}

#[test]
fn s07_validity_counts_from_the_retry_that_was_granted() {
    // S07 (node-redlock#169, #296; go-redsync/redsync#37): ttl 1000, retries every 200; the
    // grant answers the attempt sent at 1200, so the deadline is 1200 + 1000 - margin.
    let cfg = LeaseConfig {
        ttl: ms(1_000),
        safety_margin: ms(100),
        max_round_trip: ms(200),
        retry_interval: ms(200),
        retry_jitter: ms(0),
        request_timeout: ms(200),
        ..config(1)
    };
    let (mut w, log) = world(vec![cfg]);
    // Another holder's lease runs on the store until 1150 ms.
    let hold = StoreRequest {
        id: tenure::RequestId(1),
        key: key(&w),
        holder: NodeId(9),
        session: SessionId(0),
        op: StoreOp::Acquire { ttl: ms(1_150) },
    };
    let planted = w
        .with_store(|store, now| {
            assert_eq!(now, Instant::ZERO);
            store.handle(now, &hold)
        })
        .unwrap();
    assert!(matches!(
        planted.unwrap().result,
        StoreResult::Granted { .. }
    ));
    campaign(&mut w, 1);
    run_until(&mut w, 1_300 * MS);
    let (at, event) = log.node(1)[0];
    assert_eq!(at, 1_202 * MS);
    assert_eq!(event, NodeEvent::BecameLeader { value: 2 });
    assert_eq!(
        w.candidate(N1).unwrap().lease_deadline(),
        Some(Instant::from_millis(2_100))
    );
}

#[test]
fn s08_store_clock_jump_is_caught_by_fencing() {
    // S08 setup 2 (hashicorp/raft#108, etcd-io/etcd#12291): the store's clock jumps forward
    // by 2 x ttl while C1 holds 7; C2 gets 8 and writes; C1's write with 7 arrives after.
    // Margins cannot catch this; the resource does, and C1 steps down as fenced.
    let (mut w, log) = world_of(Algorithm::LeaseFencing, 7, vec![config(1), config(2)]);
    campaign(&mut w, 1);
    run_until(&mut w, S);
    assert_eq!(w.write_checked(N1), Some(Ok(FencingToken(7))));
    inject(
        &mut w,
        Fault::ClockJump {
            target: Proc::Store,
            by_ms: Ms::from_millis(20_000),
        },
    );
    campaign(&mut w, 2);
    run_until(&mut w, 2 * S);
    assert_eq!(w.write_checked(N2), Some(Ok(FencingToken(8))));
    // C1 still believes it leads: only the fence stops it.
    assert_eq!(state(&w, 1), Some(CandidateState::Leader));
    let late = w.write_checked(N1);
    assert_eq!(
        late,
        Some(Err(StaleToken {
            presented: FencingToken(7),
            required: FencingToken(8)
        }))
    );
    assert_eq!(log.stepped_down(1), vec![(2 * S, StepDownCause::Fenced)]);
    assert_eq!(w.resource().unwrap().value(), Some(&writer(2)));
}

#[test]
fn s15a_partitioned_leader_is_superseded_and_its_writes_rejected() {
    // S15 (a), docs/scenarios.md: partition the leader; the next token is greater and
    // the old token's write fails with reason "stale fencing token".
    let (mut w, _log) = world(vec![config(1), config(2)]);
    campaign(&mut w, 1);
    run_until(&mut w, S);
    let first = w.candidate(N1).unwrap().token().unwrap();
    cut(&mut w, 1);
    campaign(&mut w, 2);
    run_until(&mut w, 20 * S);
    let second = w.candidate(N2).unwrap().token().unwrap();
    assert!(second > first);
    w.write_checked(N2).unwrap().unwrap();
    let stale = w.write_with(N1, first).unwrap().unwrap_err();
    assert_eq!(StaleToken::REASON, "stale fencing token");
    assert!(stale.to_string().starts_with(StaleToken::REASON));
}

#[test]
fn s15c_blocked_from_the_store_for_one_lease_period_is_no_longer_leader() {
    // S15 (c) "self-demotes when renewal fails".
    let (mut w, _log) = world(vec![config(1)]);
    campaign(&mut w, 1);
    run_until(&mut w, S);
    cut(&mut w, 1);
    run_until(&mut w, S + 10 * S);
    assert_ne!(state(&w, 1), Some(CandidateState::Leader));
    assert!(w.assert_leadership(N1).unwrap().is_err());
}

#[test]
fn s16_generation_hand_off_and_no_grant_without_the_store() {
    // S16 (docs/scenarios.md): A leads with 41 and pauses; its lease lapses. B gets
    // 42, establishes it at the resource before acting; A's command with 41 is rejected.
    // If the store loses its majority (unavailable), no grant is issued and work waits.
    let (mut w, log) = world_of(Algorithm::LeaseFencing, 41, vec![config(1), config(2)]);
    campaign(&mut w, 1);
    run_until(&mut w, S);
    assert_eq!(w.write_checked(NodeId(1)), Some(Ok(FencingToken(41))));
    pause(&mut w, 1, 29 * S);
    campaign(&mut w, 2);
    run_until(&mut w, 20 * S);
    let token = w.candidate(N2).unwrap().token().unwrap();
    assert_eq!(token, FencingToken(42));
    // The world's leader installs its generation before its first write (S16).
    let established = log.events().into_iter().find_map(|e| match e.kind {
        TraceKind::Send {
            from: Proc::Resource,
            to: Proc::Node(N2),
            msg: "Established",
            value,
            ..
        } => Some(value),
        _ => None,
    });
    assert_eq!(established, Some(Some(42)));
    assert_eq!(w.resource().unwrap().highest_token(), token);
    run_until(&mut w, 30 * S);
    assert_eq!(w.status(Proc::Node(N1)), Some(Status::Up));
    assert_eq!(
        w.write_with(N1, FencingToken(41)),
        Some(Err(StaleToken {
            presented: FencingToken(41),
            required: FencingToken(42)
        }))
    );
    // The coordinator loses its majority: B's lease ends and nobody gets a new one.
    inject(
        &mut w,
        Fault::StoreOutage {
            duration_ms: Ms::from_millis(3_600_000),
        },
    );
    run_until(&mut w, 60 * S);
    for n in [N1, N2] {
        assert_ne!(state(&w, n.0), Some(CandidateState::Leader));
        assert!(w.assert_leadership(n).unwrap().is_err());
    }
    let k = key(&w);
    assert_eq!(
        w.lease_store().unwrap().last_token(&k),
        Some(FencingToken(42))
    );
    // Requests pile up in the network, not in the machines.
    for n in [N1, N2] {
        assert!(w.candidate(n).unwrap().outstanding_requests() <= 16);
    }
}

#[test]
fn s15b_seeded_chaos_never_two_believing_leaders_and_fenced_stale_writes() {
    // S15 (b) "never permits two simultaneous leaders": a small seeded version of
    // the simulator's 120 s chaos run (cuts, pauses, restarts). Every 10 ms: no two
    // running nodes believe they lead, a believing node holds the store's valid lease, each
    // new leader establishes its token before acting (S16, the world's leader does), and a
    // node that checked before a pause and writes after it is rejected whenever a newer
    // token was established.
    let mut stale_rejected = 0;
    for seed in 0..20u64 {
        let mut rng = tenure::Rng::from_seed(seed);
        let configs: Vec<LeaseConfig> = (0..3)
            .map(|i| LeaseConfig {
                seed: seed * 10 + i,
                ..config(i + 1)
            })
            .collect();
        let (mut w, log) = world(configs.clone());
        for i in 1..=3 {
            campaign(&mut w, i);
        }
        let mut checked_before_pause: Vec<Option<FencingToken>> = vec![None; 3];
        let mut cuts = [false; 3];
        let mut highest = FencingToken(0);
        while w.now() < Instant::from_micros(120 * S) {
            let next = w.now().as_micros() + 10 * MS;
            run_until(&mut w, next);
            for i in 0..3 {
                let node = NodeId(i as u64 + 1);
                let running = w.status(Proc::Node(node)) == Some(Status::Up);
                match rng.below(1_000) {
                    0..=2 => {
                        cuts[i] = !cuts[i];
                        inject(&mut w, Fault::Heal {});
                        let cut_off: Vec<Proc> = (0..3)
                            .filter(|&j| cuts[j])
                            .map(|j| Proc::Node(NodeId(j as u64 + 1)))
                            .collect();
                        if !cut_off.is_empty() {
                            inject(&mut w, Fault::Isolate { nodes: cut_off });
                        }
                    }
                    3 if running => {
                        checked_before_pause[i] = w.assert_leadership(node).unwrap().ok();
                        pause(&mut w, node.0, 300 * MS + rng.below(15 * S));
                    }
                    4 if running => {
                        // Restart: volatile state is lost; the new process campaigns.
                        w.replace_candidate(node, configs[i].clone())
                            .unwrap()
                            .unwrap();
                        campaign(&mut w, node.0);
                    }
                    _ => {}
                }
                if w.status(Proc::Node(node)) == Some(Status::Up) {
                    if let Some(token) = checked_before_pause[i].take() {
                        let established = w.resource().unwrap().highest_token();
                        let r = w.write_with(node, token).unwrap();
                        if token < established {
                            assert!(r.is_err(), "seed {seed}: stale write with {token} accepted");
                            stale_rejected += 1;
                        }
                    } else if state(&w, node.0) == Some(CandidateState::Leader) {
                        let _ = w.write_checked(node);
                    }
                }
            }
            let store_now = w.store_now().unwrap();
            let believers: Vec<NodeId> = (1..=3)
                .map(NodeId)
                .filter(|&n| {
                    w.status(Proc::Node(n)) == Some(Status::Up)
                        && state(&w, n.0) == Some(CandidateState::Leader)
                })
                .collect();
            assert!(
                believers.len() <= 1,
                "seed {seed} t={}: leaders {believers:?}",
                w.now()
            );
            for &n in &believers {
                let k = key(&w);
                let holder = w
                    .lease_store()
                    .unwrap()
                    .holder(&k, store_now)
                    .map(|(h, t, _)| (h, t));
                let c = w.candidate(n).unwrap();
                let me = (c.config().holder, c.token().unwrap());
                assert_eq!(holder, Some(me), "seed {seed} t={}", w.now());
            }
            let now_highest = w.resource().unwrap().highest_token();
            assert!(now_highest >= highest);
            highest = now_highest;
        }
        assert!(
            log.elections().len() > 1,
            "seed {seed}: chaos should cause hand-overs"
        );
        let promised: Vec<_> = w.violations().iter().filter(|v| v.promised).collect();
        assert!(promised.is_empty(), "seed {seed}: {promised:?}");
    }
    assert!(
        stale_rejected > 0,
        "the pause-after-check fault was exercised"
    );
}
