//! Scenarios S01-S08, S15 and S16 of `docs/scenarios.md` for the lease machines,
//! driven through the minimal world in `lease_world` (true time in us, per-process clocks).

#![allow(clippy::unwrap_used)] // test setup helpers outside #[test] fns

mod lease_world;

use lease_world::{MS, S, World, config, ms};
use tenure::lease::{
    CandidateEvent, CandidateState, LeaseConfig, NotLeader, SessionId, StepDownReason, StoreOp,
    StoreRequest, StoreResult,
};
use tenure::{FencingToken, Instant, NodeId, StaleToken};

/// Makes the store's next grant for the key carry `next` (a dummy holder takes and releases
/// the lease `next - 1` times).
fn preseed(w: &mut World, next: u64) {
    let key = w.key();
    for id in 1..next {
        let at = w.store_now();
        for op in [
            StoreOp::Acquire { ttl: ms(1) },
            StoreOp::Release {
                token: FencingToken(id),
            },
        ] {
            let req = StoreRequest {
                id: tenure::RequestId(0),
                key: key.clone(),
                holder: NodeId(999),
                session: SessionId(0),
                op,
            };
            w.store.handle(at, &req).unwrap();
        }
    }
}

fn stepped_down(w: &World, i: usize) -> Vec<(u64, StepDownReason)> {
    w.nodes[i]
        .events
        .iter()
        .filter_map(|(t, e)| match e {
            CandidateEvent::SteppedDown { reason, .. } => Some((*t, *reason)),
            _ => None,
        })
        .collect()
}

#[test]
fn s01_paused_holder_writes_late_and_is_fenced() {
    // S01 (Kleppmann, "How to do distributed locking", 2016): C1 holds 33, pauses 1 s..15 s;
    // C2 gets 34 at 11 s and writes at 12 s; C1 resumes and writes with 33.
    let mut w = World::new();
    preseed(&mut w, 33);
    let c1 = w.add(config(1));
    let c2 = w.add(config(2));
    w.campaign(c1);
    w.run_until(S);
    let checked = w.assert_leadership(c1);
    assert_eq!(
        checked,
        Ok(FencingToken(33)),
        "C1 checks, then pauses before writing"
    );
    w.nodes[c1].paused_until = 15 * S;
    w.run_until(11 * S);
    w.campaign(c2);
    w.run_until(12 * S);
    assert_eq!(w.nodes[c2].elected_tokens(), vec![34]);
    assert_eq!(w.write_checked(c2, "from C2"), Some(Ok(FencingToken(34))));
    w.run_until(15 * S - 1);
    w.t = 15 * S; // C1 resumes; none of its timers has run yet
    // Its own check fails on resume (its deadline was 9 s), and it steps down.
    let again = w.assert_leadership(c1);
    assert!(
        matches!(again, Err(NotLeader::DeadlinePassed { deadline, .. })
            if deadline == Instant::from_millis(9_000)),
        "{again:?}"
    );
    assert_eq!(
        stepped_down(&w, c1),
        vec![(15 * S, StepDownReason::LeaseExpired)]
    );
    // "Pause after check, before write": the write with the token checked at 1 s is
    // rejected by the resource whatever C1 believes.
    let late = w.write_with(c1, FencingToken(33), "late write from C1");
    assert_eq!(
        late,
        Err(StaleToken {
            presented: FencingToken(33),
            required: FencingToken(34)
        })
    );
    assert_eq!(w.resource.highest_token(), FencingToken(34));
    assert_eq!(w.resource.value().map(String::as_str), Some("from C2"));
}

#[test]
fn s01_without_fencing_the_machine_is_the_same_but_writes_are_unguarded() {
    // S01, "fencing: false" mode: identical outputs; only `fences_writes` differs, so the
    // playground's driver writes without a token and the late write lands.
    let run = |fencing: bool| {
        let mut w = World::new();
        let c1 = w.add(LeaseConfig {
            fencing,
            ..config(1)
        });
        w.campaign(c1);
        w.run_until(30 * S);
        (w.log, w.nodes[c1].cand.fences_writes())
    };
    let (fenced, f) = run(true);
    let (unfenced, u) = run(false);
    assert_eq!(fenced, unfenced);
    assert!(f && !u);
}

#[test]
fn s02_late_grant_never_elects() {
    // S02 (etcd-io/etcd#9921, #11456; node-redlock#296): the network holds C1's acquire so
    // the store grants at 6 s; the answer reaches C1 at 12 s. Validity counted from the send
    // time (0 + 5 s - margin) is spent: no leader event. The store's lease lapses at 11 s.
    let mut w = World::new();
    let cfg = LeaseConfig {
        ttl: ms(5_000),
        safety_margin: ms(500),
        retry_interval: ms(20_000),
        ..config(1)
    };
    let c1 = w.add(cfg);
    let c2 = w.add(LeaseConfig {
        ttl: ms(5_000),
        safety_margin: ms(500),
        ..config(2)
    });
    w.nodes[c1].req_delay = 6 * S;
    w.nodes[c1].resp_delay = 6 * S;
    w.campaign(c1);
    w.run_until(12 * S + MS);
    assert!(w.nodes[c1].events.is_empty(), "{:?}", w.nodes[c1].events);
    assert_eq!(w.nodes[c1].cand.state(), CandidateState::Campaigning);
    let lease = w.store.lease(&w.key()).unwrap();
    assert_eq!(
        (lease.holder, lease.expires_at),
        (NodeId(1), Instant::from_millis(11_000))
    );
    assert!(
        !lease.released,
        "the late grant is left to lapse, not released"
    );
    w.campaign(c2);
    w.run_until(13 * S);
    assert_eq!(w.nodes[c2].elected_tokens(), vec![2]);
}

#[test]
fn s03_deadline_counts_from_send_time() {
    // S03 (apache/curator#980): ttl 30 s; the last acknowledged request was sent at 0 and
    // processed at 0.2 s; everything after is lost. C1 steps down at 30 s - margin (27 s),
    // strictly before the store's expiry at 30.2 s, however late it notices.
    let mut w = World::new();
    let cfg = LeaseConfig {
        ttl: ms(30_000),
        safety_margin: ms(3_000),
        ..config(1)
    };
    let c1 = w.add(cfg);
    w.nodes[c1].req_delay = 200 * MS;
    w.campaign(c1);
    w.run_until(500 * MS);
    assert_eq!(
        w.nodes[c1].cand.lease_deadline(),
        Some(Instant::from_millis(27_000))
    );
    w.nodes[c1].cut = true;
    w.run_until(27 * S - 1);
    assert_eq!(w.nodes[c1].cand.state(), CandidateState::Leader);
    w.run_until(27 * S);
    assert_eq!(
        stepped_down(&w, c1),
        vec![(27 * S, StepDownReason::StoreUnreachable)]
    );
    let expiry = w.store.lease(&w.key()).unwrap().expires_at;
    assert_eq!(expiry, Instant::from_millis(30_200));
    assert!(Instant::from_micros(27 * S) < expiry);
}

#[test]
fn s03_a_late_answer_never_extends_the_deadline() {
    // S03 (apache/curator#980): an answer that arrives after the deadline is ignored; the
    // moment of receipt never moves the deadline (rule 4).
    let mut w = World::new();
    let c1 = w.add(config(1));
    w.campaign(c1);
    w.run_until(S);
    let deadline = w.nodes[c1].cand.lease_deadline().unwrap();
    assert_eq!(deadline, Instant::from_millis(9_000));
    w.nodes[c1].resp_delay = 6 * S; // the renewal sent at 3.333 s is answered at 9.334 s
    w.run_until(deadline.as_micros() - 1);
    assert_eq!(w.nodes[c1].cand.lease_deadline(), Some(deadline));
    w.run_until(deadline.as_micros());
    assert_eq!(
        stepped_down(&w, c1),
        vec![(9 * S, StepDownReason::StoreUnreachable)]
    );
    w.run_until(9_500 * MS);
    assert_eq!(w.nodes[c1].cand.state(), CandidateState::Campaigning);
    assert_eq!(w.nodes[c1].elected_tokens(), vec![1]);
}

#[test]
fn s04_renewals_rejected_stop_leader_work_at_once() {
    // S04 (kubernetes/kubernetes#23731, cilium/cilium#42920): every renewal is refused.
    let mut w = World::new();
    let c1 = w.add(config(1));
    w.reject_renewals = true;
    w.campaign(c1);
    w.run_until(4 * S);
    let downs = stepped_down(&w, c1);
    assert_eq!(downs.len(), 1);
    let (at, reason) = downs[0];
    assert_eq!(reason, StepDownReason::RenewalRejected);
    // The first renewal leaves at 3.333 s and is refused on arrival: step down at once.
    assert_eq!(at, 3_333_333 + 2 * MS);
    assert!(w.assert_leadership(c1).is_err());
    // After each step-down, no leader-only output until a new election.
    w.run_until(60 * S);
    let mut leading = false;
    for line in &w.log {
        if line.contains("n0 Elected") {
            leading = true;
        } else if line.contains("n0 SteppedDown") {
            leading = false;
        } else if line.contains("n0 send Renew") {
            assert!(
                leading,
                "renewal sent while not leading: {line}\n{:#?}",
                w.log
            );
        }
    }
    // The refused token is never believed again: every election has a fresh token.
    let tokens = w.nodes[c1].elected_tokens();
    assert!(tokens.windows(2).all(|p| p[0] < p[1]), "{tokens:?}");
}

#[test]
fn s04_store_outage_steps_down_by_the_deadline() {
    // S04: the store answers nothing; the local deadline (9 s) is the latest step-down.
    let mut w = World::new();
    let c1 = w.add(config(1));
    w.campaign(c1);
    w.run_until(S);
    w.store.set_available(false);
    w.run_until(20 * S);
    assert_eq!(
        stepped_down(&w, c1),
        vec![(9 * S, StepDownReason::StoreUnreachable)]
    );
    assert_eq!(w.nodes[c1].elected_tokens(), vec![1]);
}

#[test]
fn s05_the_holders_ttl_rules() {
    // S05 (kubernetes/kubernetes#47671): H holds with ttl 30 s; C (ttl 10 s) tries every 2 s
    // and is refused until H's 30 s lease lapses on the store clock.
    let mut w = World::new();
    let h = w.add(LeaseConfig {
        ttl: ms(30_000),
        safety_margin: ms(3_000),
        ..config(1)
    });
    let c = w.add(LeaseConfig {
        retry_interval: ms(2_000),
        retry_jitter: ms(0),
        ..config(2)
    });
    w.campaign(h);
    w.run_until(10 * MS);
    w.nodes[h].cut = true; // H stops renewing; its lease runs to 30.001 s
    w.campaign(c);
    w.run_until(29 * S);
    assert!(w.nodes[c].events.is_empty());
    w.run_until(40 * S);
    let (at, _) = w.nodes[c].events[0];
    assert!(
        (30 * S + MS..=32 * S + 2 * MS).contains(&at),
        "elected at {at}"
    );
    assert_eq!(w.nodes[c].elected_tokens(), vec![2]);
}

#[test]
fn s06_partitioned_holder_never_overlaps_the_next_leader() {
    // S06 (hashicorp/consul#18271, #9788): the holder is cut off at 1 s; nothing ever
    // answers. It steps down at its local deadline; C2's leadership, gained after the store
    // expires the lease, never overlaps in true time. Clocks drift within the bound: the
    // holder runs 0.5 % slow and the store 0.4 % fast (ratio > 1 - 1 %).
    let mut w = World::new();
    w.store_clock.rate_ppm = 4_000;
    let c1 = w.add(config(1));
    let c2 = w.add(config(2));
    w.nodes[c1].clock.rate_ppm = -5_000;
    w.campaign(c1);
    w.run_until(S);
    w.nodes[c1].cut = true;
    w.campaign(c2);
    w.run_until(40 * S);
    let downs = stepped_down(&w, c1);
    assert_eq!(downs[0].1, StepDownReason::StoreUnreachable);
    let first = w.leader_intervals(c1)[0];
    let second = w.leader_intervals(c2)[0];
    assert!(first.1 <= second.0, "c1 {first:?} overlaps c2 {second:?}");
}

#[test]
fn s07_validity_counts_from_the_retry_that_was_granted() {
    // S07 (node-redlock#169, #296; go-redsync/redsync#37): ttl 1000, retries every 200; the
    // grant answers the attempt sent at 1200, so the deadline is 1200 + 1000 - margin.
    let mut w = World::new();
    let cfg = LeaseConfig {
        ttl: ms(1_000),
        safety_margin: ms(100),
        max_round_trip: ms(200),
        retry_interval: ms(200),
        retry_jitter: ms(0),
        request_timeout: ms(200),
        ..config(1)
    };
    let c1 = w.add(cfg);
    // Another holder's lease runs on the store until 1150 ms.
    let key = w.key();
    let hold = StoreRequest {
        id: tenure::RequestId(1),
        key,
        holder: NodeId(9),
        session: SessionId(0),
        op: StoreOp::Acquire { ttl: ms(1_150) },
    };
    assert!(matches!(
        w.store.handle(Instant::ZERO, &hold).unwrap().result,
        StoreResult::Granted { .. }
    ));
    w.campaign(c1);
    w.run_until(1_300 * MS);
    let (at, event) = w.nodes[c1].events[0];
    assert_eq!(at, 1_202 * MS);
    assert_eq!(
        event,
        CandidateEvent::Elected {
            token: FencingToken(2),
            deadline: Instant::from_millis(2_100)
        }
    );
}

#[test]
fn s08_store_clock_jump_is_caught_by_fencing() {
    // S08 setup 2 (hashicorp/raft#108, etcd-io/etcd#12291): the store's clock jumps forward
    // by 2 x ttl while C1 holds 7; C2 gets 8 and writes; C1's write with 7 arrives after.
    // Margins cannot catch this; the resource does, and C1 steps down as fenced.
    let mut w = World::new();
    preseed(&mut w, 7);
    let c1 = w.add(config(1));
    let c2 = w.add(config(2));
    w.campaign(c1);
    w.run_until(S);
    assert_eq!(w.write_checked(c1, "c1 early"), Some(Ok(FencingToken(7))));
    w.store_clock.offset_us += 20 * S as i64;
    w.campaign(c2);
    w.run_until(2 * S);
    assert_eq!(w.write_checked(c2, "c2"), Some(Ok(FencingToken(8))));
    // C1 still believes it leads: only the fence stops it.
    let late = w.write_checked(c1, "c1 late");
    assert_eq!(
        late,
        Some(Err(StaleToken {
            presented: FencingToken(7),
            required: FencingToken(8)
        }))
    );
    assert_eq!(stepped_down(&w, c1), vec![(2 * S, StepDownReason::Fenced)]);
    assert_eq!(w.resource.value().map(String::as_str), Some("c2"));
}

#[test]
fn s15a_partitioned_leader_is_superseded_and_its_writes_rejected() {
    // S15 (a), docs/scenarios.md: partition the leader; the next token is greater and
    // the old token's write fails with reason "stale fencing token".
    let mut w = World::new();
    let a = w.add(config(1));
    let b = w.add(config(2));
    w.campaign(a);
    w.run_until(S);
    let first = w.nodes[a].cand.token().unwrap();
    w.nodes[a].cut = true;
    w.campaign(b);
    w.run_until(20 * S);
    let second = w.nodes[b].cand.token().unwrap();
    assert!(second > first);
    w.write_checked(b, "b").unwrap().unwrap();
    let stale = w.resource.write(first, "a".into()).unwrap_err();
    assert_eq!(StaleToken::REASON, "stale fencing token");
    assert!(stale.to_string().starts_with(StaleToken::REASON));
}

#[test]
fn s15c_blocked_from_the_store_for_one_lease_period_is_no_longer_leader() {
    // S15 (c) "self-demotes when renewal fails".
    let mut w = World::new();
    let a = w.add(config(1));
    w.campaign(a);
    w.run_until(S);
    w.nodes[a].cut = true;
    w.run_until(S + 10 * S);
    assert_ne!(w.nodes[a].cand.state(), CandidateState::Leader);
    assert!(w.assert_leadership(a).is_err());
}

#[test]
fn s16_generation_hand_off_and_no_grant_without_the_store() {
    // S16 (docs/scenarios.md): A leads with 41 and pauses; its lease lapses. B gets
    // 42, establishes it at the resource before acting; A's command with 41 is rejected.
    // If the store loses its majority (unavailable), no grant is issued and work waits.
    let mut w = World::new();
    preseed(&mut w, 41);
    let a = w.add(config(1));
    let b = w.add(config(2));
    w.campaign(a);
    w.run_until(S);
    assert_eq!(
        w.write_checked(a, "upgrade by A"),
        Some(Ok(FencingToken(41)))
    );
    w.nodes[a].paused_until = 30 * S;
    w.campaign(b);
    w.run_until(20 * S);
    let token = w.nodes[b].cand.token().unwrap();
    assert_eq!(token, FencingToken(42));
    assert_eq!(w.resource.establish(token), Ok(token));
    w.run_until(30 * S);
    assert_eq!(
        w.write_with(a, FencingToken(41), "late command by A"),
        Err(StaleToken {
            presented: FencingToken(41),
            required: FencingToken(42)
        })
    );
    // The coordinator loses its majority: B's lease ends and nobody gets a new one.
    w.store.set_available(false);
    w.run_until(60 * S);
    for n in [a, b] {
        assert_ne!(w.nodes[n].cand.state(), CandidateState::Leader);
        assert!(w.assert_leadership(n).is_err());
    }
    assert_eq!(w.store.last_token(&w.key()), Some(FencingToken(42)));
    // Requests pile up in the network, not in the machines.
    assert!(w.nodes.iter().all(|n| n.cand.outstanding_requests() <= 16));
}

#[test]
#[allow(clippy::needless_range_loop)] // i indexes nodes, tokens and the world together
fn s15b_seeded_chaos_never_two_believing_leaders_and_fenced_stale_writes() {
    // S15 (b) "never permits two simultaneous leaders": a small seeded version of
    // the simulator's 120 s chaos run (partitions, pauses, restarts). Every 10 ms: no two
    // running nodes believe they lead, a believing node holds the store's valid lease, each
    // new leader establishes its token before acting (S16), and a node that checked before a
    // pause and writes after it is rejected whenever a newer token was established.
    let mut stale_rejected = 0;
    for seed in 0..20u64 {
        let mut rng = tenure::Rng::from_seed(seed);
        let mut w = World::new();
        for i in 0..3 {
            w.add(LeaseConfig {
                seed: seed * 10 + i,
                ..config(i + 1)
            });
        }
        for i in 0..3 {
            w.campaign(i);
        }
        let mut checked_before_pause: Vec<Option<FencingToken>> = vec![None; 3];
        let mut seen_elections = 0;
        let mut highest = FencingToken(0);
        while w.t < 120 * S {
            let next = w.t + 10 * MS;
            w.run_until(next);
            for &(_, _, token) in &w.elections[seen_elections..] {
                let _ = w.resource.establish(token);
            }
            seen_elections = w.elections.len();
            for i in 0..3 {
                let running = w.nodes[i].paused_until <= w.t;
                match rng.below(1_000) {
                    0..=2 => w.nodes[i].cut = !w.nodes[i].cut,
                    3 if running => {
                        checked_before_pause[i] = w.assert_leadership(i).ok();
                        w.nodes[i].paused_until = w.t + 300 * MS + rng.below(15 * S);
                    }
                    4 if running => {
                        // Restart: volatile state is lost; the new process campaigns.
                        let cfg = w.nodes[i].cand.config().clone();
                        w.nodes[i].cand = tenure::lease::LeaseCandidate::new(cfg).unwrap();
                        w.campaign(i);
                    }
                    _ => {}
                }
                if w.nodes[i].paused_until <= w.t {
                    if let Some(token) = checked_before_pause[i].take() {
                        let established = w.resource.highest_token();
                        let r = w.write_with(i, token, "after pause");
                        if token < established {
                            assert!(r.is_err(), "seed {seed}: stale write with {token} accepted");
                            stale_rejected += 1;
                        }
                    } else if w.nodes[i].cand.state() == CandidateState::Leader {
                        let _ = w.write_checked(i, "work");
                    }
                }
            }
            let store_now = w.store_now();
            let believers: Vec<usize> = (0..3)
                .filter(|&i| {
                    w.nodes[i].paused_until <= w.t
                        && w.nodes[i].cand.state() == CandidateState::Leader
                })
                .collect();
            assert!(
                believers.len() <= 1,
                "seed {seed} t={}: leaders {believers:?}",
                w.t
            );
            for &i in &believers {
                let holder = w.store.holder(&w.key(), store_now).map(|(h, t, _)| (h, t));
                let me = (
                    w.nodes[i].cand.config().holder,
                    w.nodes[i].cand.token().unwrap(),
                );
                assert_eq!(holder, Some(me), "seed {seed} t={}", w.t);
            }
            assert!(w.resource.highest_token() >= highest);
            highest = w.resource.highest_token();
        }
        assert!(
            w.elections.len() > 1,
            "seed {seed}: chaos should cause hand-overs"
        );
    }
    assert!(
        stale_rejected > 0,
        "the pause-after-check fault was exercised"
    );
}
