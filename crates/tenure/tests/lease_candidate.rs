//! Unit behaviour of `LeaseCandidate` driven by hand: rule 4 edges, ids, duplicates,
//! command no-ops, clamping and determinism.

#![allow(clippy::unwrap_used)]

use tenure::lease::{
    CandidateEvent, CandidateOutput, CandidateState, CandidateTimer, LeaseCandidate, LeaseConfig,
    LeaseKey, NotLeader, RejectReason, RequestId, StepDownReason, StoreOp, StoreRequest,
    StoreResponse, StoreResult,
};
use tenure::{Duration, FencingToken, Instant, StaleToken};

fn t(ms: u64) -> Instant {
    Instant::from_millis(ms)
}

fn cfg() -> LeaseConfig {
    // ttl 1000 ms, margin 100 ms, renew every 333.333 ms, resend after 100 ms.
    LeaseConfig {
        ttl: Duration::from_millis(1_000),
        safety_margin: Duration::from_millis(100),
        max_round_trip: Duration::from_millis(200),
        retry_interval: Duration::from_millis(200),
        retry_jitter: Duration::from_millis(50),
        request_timeout: Duration::from_millis(100),
        ..LeaseConfig::default()
    }
}

fn drain(c: &mut LeaseCandidate) -> Vec<CandidateOutput> {
    std::iter::from_fn(|| c.poll_output()).collect()
}

fn sends(out: &[CandidateOutput]) -> Vec<StoreRequest> {
    out.iter()
        .filter_map(|o| match o {
            CandidateOutput::Send(r) => Some(r.clone()),
            CandidateOutput::Event(_) => None,
        })
        .collect()
}

fn events(out: &[CandidateOutput]) -> Vec<CandidateEvent> {
    out.iter()
        .filter_map(|o| match o {
            CandidateOutput::Event(e) => Some(*e),
            CandidateOutput::Send(_) => None,
        })
        .collect()
}

fn answer(req: &StoreRequest, result: StoreResult) -> StoreResponse {
    StoreResponse {
        id: req.id,
        key: req.key.clone(),
        result,
    }
}

fn granted(token: u64) -> StoreResult {
    StoreResult::Granted {
        token: FencingToken(token),
        ttl: Duration::from_millis(1_000),
    }
}

/// A candidate elected under `token` with an acquire sent at 0 and answered at 10 ms.
fn leader(token: u64) -> LeaseCandidate {
    let mut c = LeaseCandidate::new(cfg()).unwrap();
    c.campaign(t(0));
    let acq = sends(&drain(&mut c)).remove(0);
    c.handle_response(t(10), &answer(&acq, granted(token)));
    drain(&mut c);
    assert_eq!(c.state(), CandidateState::Leader);
    c
}

#[test]
fn s07_grant_with_remaining_validity_at_or_below_the_margin_is_a_failure() {
    // S07 (node-redlock#169, #296) and rule 5: remaining validity ttl - (now - sent) must
    // exceed the margin, i.e. the deadline sent + ttl - margin must be after receipt.
    for (receipt, elected) in [(900, false), (899, true)] {
        let mut c = LeaseCandidate::new(cfg()).unwrap();
        c.campaign(t(0));
        let acq = sends(&drain(&mut c)).remove(0);
        c.handle_response(t(receipt), &answer(&acq, granted(1)));
        let ev = events(&drain(&mut c));
        assert_eq!(!ev.is_empty(), elected, "receipt at {receipt} ms: {ev:?}");
        if elected {
            assert_eq!(
                ev,
                vec![CandidateEvent::Elected {
                    token: FencingToken(1),
                    deadline: t(900)
                }]
            );
        } else {
            assert_eq!(c.state(), CandidateState::Campaigning);
        }
    }
}

#[test]
fn the_granted_ttl_is_believed_shorter_or_longer() {
    // Rules 4 and 9: the deadline counts the TTL the store recorded (etcd rounds a ttl up to
    // whole seconds), not the one asked for; a longer one is covered by the margin or, if
    // larger, the drift over that TTL (rule 5: 1 % of 50 s = 500 ms > the 100 ms margin).
    // A granted TTL at or below the margin confers nothing: no Elected (rule 5).
    let cases = [
        (500, Some(400)),
        (5_000, Some(4_900)),
        (50_000, Some(49_500)),
        (100, None),
        (60, None),
    ];
    for (granted_ms, deadline) in cases {
        let mut c = LeaseCandidate::new(cfg()).unwrap();
        c.campaign(t(0));
        let acq = sends(&drain(&mut c)).remove(0);
        let ttl = Duration::from_millis(granted_ms);
        c.handle_response(
            t(10),
            &answer(
                &acq,
                StoreResult::Granted {
                    token: FencingToken(1),
                    ttl,
                },
            ),
        );
        assert_eq!(
            c.lease_deadline(),
            deadline.map(t),
            "granted {granted_ms} ms"
        );
        let elected = events(&drain(&mut c));
        assert_eq!(
            elected.len(),
            usize::from(deadline.is_some()),
            "{elected:?}"
        );
    }
}

#[test]
fn a_short_grant_is_renewed_a_round_trip_before_its_deadline() {
    // Rule 5 with the granted TTL: renew_interval (333 ms) + max_round_trip (200 ms) does not
    // fit in a 500 ms grant's 400 ms validity, so the renewal moves up to deadline - rtt.
    let mut c = LeaseCandidate::new(cfg()).unwrap();
    c.campaign(t(0));
    let acq = sends(&drain(&mut c)).remove(0);
    let short = StoreResult::Granted {
        token: FencingToken(1),
        ttl: Duration::from_millis(500),
    };
    c.handle_response(t(10), &answer(&acq, short));
    let renew_at = c
        .timers()
        .find(|(k, _)| *k == CandidateTimer::Renew)
        .unwrap()
        .1;
    assert_eq!(renew_at, t(200));
    // A grant so short that even that is spent renews at a third of its validity.
    let mut c = LeaseCandidate::new(cfg()).unwrap();
    c.campaign(t(0));
    let acq = sends(&drain(&mut c)).remove(0);
    let tiny = StoreResult::Granted {
        token: FencingToken(1),
        ttl: Duration::from_millis(250),
    };
    c.handle_response(t(10), &answer(&acq, tiny));
    let renew_at = c
        .timers()
        .find(|(k, _)| *k == CandidateTimer::Renew)
        .unwrap()
        .1;
    assert_eq!(renew_at, t(50));
}

#[test]
fn rule4_renewal_extends_from_its_send_time_and_duplicates_are_harmless() {
    let mut c = leader(3);
    assert_eq!(c.lease_deadline(), Some(t(900)));
    let renew_at = c
        .timers()
        .find(|(k, _)| *k == CandidateTimer::Renew)
        .unwrap()
        .1;
    assert_eq!(renew_at, Instant::from_micros(333_333));
    c.handle_timeout(renew_at);
    let r = sends(&drain(&mut c)).remove(0);
    assert_eq!(
        r.op,
        StoreOp::Renew {
            token: FencingToken(3),
            ttl: Duration::from_millis(1_000)
        }
    );
    let ok = answer(
        &r,
        StoreResult::Renewed {
            token: FencingToken(3),
            ttl: Duration::from_millis(1_000),
        },
    );
    c.handle_response(t(800), &ok);
    assert_eq!(
        c.lease_deadline(),
        Some(renew_at + Duration::from_millis(900))
    );
    // The same answer again, an answer for an unknown id, or for another key: no change.
    c.handle_response(t(801), &ok);
    c.handle_response(
        t(801),
        &StoreResponse {
            id: RequestId(999),
            ..ok.clone()
        },
    );
    c.handle_response(
        t(801),
        &StoreResponse {
            key: LeaseKey::from("other"),
            ..ok.clone()
        },
    );
    assert!(drain(&mut c).is_empty());
    assert_eq!(
        c.lease_deadline(),
        Some(renew_at + Duration::from_millis(900))
    );
}

#[test]
fn unanswered_renewals_are_resent_every_request_timeout_with_fresh_ids() {
    let mut c = leader(1);
    let mut ids = Vec::new();
    let mut now = Instant::from_micros(333_333);
    for _ in 0..5 {
        c.handle_timeout(now);
        let s = sends(&drain(&mut c));
        assert_eq!(s.len(), 1);
        ids.push(s[0].id);
        now = c.poll_timeout().unwrap();
        assert!(now < t(900) || c.next_timer().unwrap().0 == CandidateTimer::LeaseDeadline);
        if now >= t(900) {
            break;
        }
    }
    assert!(ids.windows(2).all(|p| p[0] < p[1]), "{ids:?}");
    c.handle_timeout(t(900));
    assert_eq!(
        events(&drain(&mut c)),
        vec![CandidateEvent::SteppedDown {
            token: FencingToken(1),
            reason: StepDownReason::StoreUnreachable
        }]
    );
}

#[test]
fn deadline_without_a_renewal_outstanding_is_lease_expired() {
    let mut c = leader(1);
    c.handle_timeout(t(2_000)); // a late wake-up: the deadline is handled before any renewal
    let out = drain(&mut c);
    assert!(
        sends(&out).is_empty(),
        "no renewal after the deadline: {out:?}"
    );
    assert_eq!(
        events(&out),
        vec![CandidateEvent::SteppedDown {
            token: FencingToken(1),
            reason: StepDownReason::LeaseExpired
        }]
    );
    assert_eq!(c.state(), CandidateState::Campaigning);
    assert_eq!(c.next_timer().unwrap().0, CandidateTimer::Retry);
}

#[test]
fn s08_time_going_backwards_neither_expires_nor_extends() {
    // S08 setup 1 (hashicorp/raft#108): a reading 1 h in the past is clamped.
    let mut c = leader(1);
    c.handle_timeout(t(100));
    let before = (c.state(), c.lease_deadline(), c.poll_timeout());
    c.handle_timeout(Instant::ZERO);
    assert_eq!(c.assert_leadership(Instant::ZERO), Ok(FencingToken(1)));
    assert_eq!((c.state(), c.lease_deadline(), c.poll_timeout()), before);
    assert!(drain(&mut c).is_empty());
    assert_eq!(c.now(), t(100));
    // Going far forward then back: still stepped down, nothing revived.
    let mut c = leader(1);
    c.handle_timeout(t(3_600_000));
    c.handle_timeout(t(10));
    assert_eq!(c.state(), CandidateState::Campaigning);
    assert!(matches!(
        c.assert_leadership(t(10)),
        Err(NotLeader::NotLeading { .. })
    ));
}

#[test]
fn renewal_rejected_steps_down_at_once_and_the_token_is_never_believed_again() {
    // S04 and S07 ("renewing a lease that has already expired on the store fails").
    let mut c = leader(5);
    c.handle_timeout(Instant::from_micros(333_333));
    let r = sends(&drain(&mut c)).remove(0);
    c.handle_response(
        t(340),
        &answer(
            &r,
            StoreResult::Rejected {
                reason: RejectReason::Expired,
            },
        ),
    );
    assert_eq!(
        events(&drain(&mut c)),
        vec![CandidateEvent::SteppedDown {
            token: FencingToken(5),
            reason: StepDownReason::RenewalRejected
        }]
    );
    // Retry: the store (wrongly or through a race) grants 5 again: released, not believed.
    let retry = c.poll_timeout().unwrap();
    c.handle_timeout(retry);
    let acq = sends(&drain(&mut c)).remove(0);
    c.handle_response(retry, &answer(&acq, granted(5)));
    let out = drain(&mut c);
    assert!(events(&out).is_empty());
    assert_eq!(
        sends(&out)[0].op,
        StoreOp::Release {
            token: FencingToken(5)
        }
    );
    assert_eq!(c.state(), CandidateState::Campaigning);
}

#[test]
fn release_emits_the_step_down_before_the_release_request() {
    let mut c = leader(2);
    c.release(t(100));
    let out = drain(&mut c);
    assert_eq!(
        events(&out),
        vec![CandidateEvent::SteppedDown {
            token: FencingToken(2),
            reason: StepDownReason::Released
        }]
    );
    assert!(matches!(out[0], CandidateOutput::Event(_)));
    assert_eq!(
        sends(&out)[0].op,
        StoreOp::Release {
            token: FencingToken(2)
        }
    );
    assert_eq!(c.state(), CandidateState::Stopped);
    assert_eq!(
        c.poll_timeout(),
        None,
        "a stopped candidate waits for nothing"
    );
    // campaign restarts it.
    c.campaign(t(200));
    assert_eq!(c.state(), CandidateState::Campaigning);
}

#[test]
fn commands_that_do_not_apply_are_documented_no_ops() {
    let mut c = LeaseCandidate::new(cfg()).unwrap();
    c.release(t(0));
    c.report_fenced(
        t(0),
        StaleToken {
            presented: FencingToken(1),
            required: FencingToken(2),
        },
    );
    c.handle_timeout(t(0));
    assert!(drain(&mut c).is_empty());
    assert_eq!(c.state(), CandidateState::Follower);
    assert_eq!(
        c.assert_leadership(t(0)),
        Err(NotLeader::NotLeading {
            term: None,
            leader: None
        })
    );
    c.campaign(t(0));
    assert_eq!(sends(&drain(&mut c)).len(), 1);
    c.campaign(t(1)); // already campaigning
    assert!(drain(&mut c).is_empty());
    c.release(t(2)); // stop campaigning
    assert_eq!(c.state(), CandidateState::Stopped);
    assert!(drain(&mut c).is_empty());

    let mut c = leader(4);
    c.campaign(t(20)); // already leading
    // A fenced report about another token (an older leadership) changes nothing.
    c.report_fenced(
        t(20),
        StaleToken {
            presented: FencingToken(3),
            required: FencingToken(9),
        },
    );
    assert!(drain(&mut c).is_empty());
    assert_eq!(c.assert_leadership(t(20)), Ok(FencingToken(4)));
    c.report_fenced(
        t(21),
        StaleToken {
            presented: FencingToken(4),
            required: FencingToken(9),
        },
    );
    assert_eq!(
        events(&drain(&mut c)),
        vec![CandidateEvent::SteppedDown {
            token: FencingToken(4),
            reason: StepDownReason::Fenced
        }]
    );
}

#[test]
fn held_does_not_stop_retries_and_retries_are_jittered_by_the_seed() {
    // Rule 3: another holder's lease is never judged by our TTL; we just retry.
    let retries = |seed: u64| {
        let mut c = LeaseCandidate::new(LeaseConfig { seed, ..cfg() }).unwrap();
        c.campaign(t(0));
        let mut at = Vec::new();
        for _ in 0..20 {
            let acq = sends(&drain(&mut c)).remove(0);
            let now = c.now();
            c.handle_response(
                now,
                &answer(
                    &acq,
                    StoreResult::Held {
                        holder: Some(tenure::NodeId(9)),
                        remaining: Some(Duration::from_secs(60)),
                    },
                ),
            );
            let next = c.poll_timeout().unwrap();
            at.push(next.saturating_since(now));
            c.handle_timeout(next);
        }
        at
    };
    let a = retries(1);
    assert_eq!(a, retries(1), "same seed, same schedule");
    assert_ne!(a, retries(2));
    assert!(
        a.iter()
            .all(|d| *d >= Duration::from_millis(200) && *d < Duration::from_millis(250))
    );
}

#[test]
fn outputs_and_outstanding_requests_stay_bounded_when_nobody_drains() {
    let mut c = LeaseCandidate::new(cfg()).unwrap();
    c.campaign(t(0));
    for ms in 1..10_000 {
        c.handle_timeout(t(ms * 300));
    }
    assert!(c.outstanding_requests() <= 16);
    // The output queue's bound, `2 × (fanout + 8)` with one store to send to: 18 (docs/design.md,
    // "One output-queue policy"); a candidate persists nothing, so nothing is kept beyond it.
    let bound = tenure::OutputQueue::<(), core::convert::Infallible, ()>::bound_for(1);
    assert_eq!(bound, 18);
    let left = drain(&mut c).len();
    assert!(left <= bound, "{left} outputs queued, bound {bound}");
}

#[test]
fn config_errors_surface_from_the_constructor() {
    let bad = LeaseConfig {
        safety_margin: Duration::ZERO,
        ..cfg()
    };
    let err = LeaseCandidate::new(bad).unwrap_err();
    assert_eq!(
        err.to_string(),
        "safety_margin 0ms must be above 0 and below ttl 1000ms (0 < safety_margin < ttl, \
         design rule 5)"
    );
}
