//! Design rule 8, holder identity is a session (docs/scenarios.md S17), and the answers rule 9
//! lets a store give.
//!
//! The story (apache/curator CURATOR-696; fabric8io/kubernetes-client#5733): two processes
//! started with the same identity both acquired "their" lease, both renewed it, and both
//! believed they led. Here one candidate configured with holder 7 is fed the answers a store
//! gives: its session, a clash named with or without `remaining`, an unexplained refusal.
//! Two such candidates contending at one store run in the simulator's world
//! (`crates/tenure-sim/tests/lease_identity.rs`).

#![allow(clippy::unwrap_used, clippy::panic)] // helpers outside #[test] fns

use tenure::lease::{
    CandidateEvent, CandidateOutput, CandidateState, LeaseCandidate, LeaseConfig, RejectReason,
    SessionId, StepDownReason, StoreRequest, StoreResponse, StoreResult,
};
use tenure::{Duration, FencingToken, Instant, NodeId};

fn same_id(seed: u64) -> LeaseConfig {
    LeaseConfig {
        holder: NodeId(7),
        seed,
        ..LeaseConfig::default()
    }
}

#[test]
fn sessions_come_from_the_seed_and_differ_between_seeds() {
    let a = LeaseCandidate::new(same_id(1)).unwrap();
    let again = LeaseCandidate::new(same_id(1)).unwrap();
    let b = LeaseCandidate::new(same_id(2)).unwrap();
    assert_eq!(
        a.session(),
        again.session(),
        "replay: same seed, same session"
    );
    assert_ne!(a.session(), b.session());
    let mut a = a;
    a.campaign(Instant::ZERO);
    match a.poll_output() {
        Some(CandidateOutput::Send(req)) => assert_eq!(req.session, a.session()),
        other => panic!("expected the Acquire, got {other:?}"),
    }
}

/// Default seeds differ per node: the holder id is mixed into the seed, as Raft and Bully mix
/// theirs, so contenders built from `LeaseConfig::default()` with different ids draw different
/// sessions and different retry jitter (a shared jitter sequence makes them collide on every
/// retry).
#[test]
fn default_seeded_contenders_with_different_ids_draw_different_streams() {
    let with_holder = |id| LeaseConfig {
        holder: NodeId(id),
        ..LeaseConfig::default()
    };
    let sessions: Vec<_> = (1..=4)
        .map(|id| LeaseCandidate::new(with_holder(id)).unwrap().session())
        .collect();
    for (i, s) in sessions.iter().enumerate() {
        assert!(
            !sessions[..i].contains(s),
            "holder {} repeats a session",
            i + 1
        );
    }
    // The first retry after a Held answer is jittered differently for holders 1 and 2.
    let retry_at = |id| {
        let mut c = LeaseCandidate::new(with_holder(id)).unwrap();
        c.campaign(Instant::ZERO);
        let Some(CandidateOutput::Send(req)) = c.poll_output() else {
            panic!("expected the Acquire");
        };
        let held = StoreResult::Held {
            holder: Some(NodeId(99)),
            remaining: Some(Duration::from_secs(5)),
        };
        c.handle_response(Instant::ZERO, &answer(&req, held));
        c.poll_timeout()
    };
    assert_ne!(retry_at(1), retry_at(2));
}

/// A candidate whose Acquire was sent at 0, and that request.
fn campaigning() -> (LeaseCandidate, StoreRequest) {
    let mut c = LeaseCandidate::new(same_id(3)).unwrap();
    c.campaign(Instant::ZERO);
    let Some(CandidateOutput::Send(req)) = c.poll_output() else {
        panic!("no Acquire");
    };
    (c, req)
}

fn answer(req: &StoreRequest, result: StoreResult) -> StoreResponse {
    StoreResponse {
        id: req.id,
        key: req.key.clone(),
        result,
    }
}

#[test]
fn held_without_holder_or_remaining_retries_on_the_interval() {
    // Rule 9: a store may not say who holds the key or for how long.
    let (mut c, req) = campaigning();
    let retry = c.poll_timeout().unwrap();
    let held = StoreResult::Held {
        holder: None,
        remaining: None,
    };
    c.handle_response(Instant::from_millis(5), &answer(&req, held));
    assert!(
        c.poll_output().is_none(),
        "no event: an unnamed holder is no clash"
    );
    assert_eq!(c.state(), CandidateState::Campaigning);
    assert_eq!(c.poll_timeout(), Some(retry), "the retry timer stands");
    c.handle_timeout(retry);
    let Some(CandidateOutput::Send(again)) = c.poll_output() else {
        panic!("no retry");
    };
    assert!(again.id > req.id);
    assert_eq!(again.session, req.session);
}

#[test]
fn a_clash_named_without_remaining_is_still_a_clash() {
    let (mut c, req) = campaigning();
    let held = StoreResult::Held {
        holder: Some(NodeId(7)),
        remaining: None,
    };
    c.handle_response(Instant::from_millis(5), &answer(&req, held));
    assert_eq!(
        c.poll_output(),
        Some(CandidateOutput::Event(CandidateEvent::HolderClash {
            holder: NodeId(7)
        }))
    );
}

#[test]
fn an_unexplained_refusal_of_a_renewal_steps_down() {
    // Rule 9: `Rejected { reason: Unknown }` is a refusal like any other.
    let (mut c, req) = campaigning();
    let granted = StoreResult::Granted {
        token: FencingToken(4),
        ttl: Duration::from_secs(10),
    };
    c.handle_response(Instant::from_millis(5), &answer(&req, granted));
    while c.poll_output().is_some() {}
    let renew_at = c.poll_timeout().unwrap();
    c.handle_timeout(renew_at);
    let Some(CandidateOutput::Send(renew)) = c.poll_output() else {
        panic!("no Renew");
    };
    let refused = StoreResult::Rejected {
        reason: RejectReason::Unknown,
    };
    c.handle_response(renew_at, &answer(&renew, refused));
    assert_eq!(
        c.poll_output(),
        Some(CandidateOutput::Event(CandidateEvent::SteppedDown {
            token: FencingToken(4),
            reason: StepDownReason::RenewalRejected
        }))
    );
    assert_eq!(c.state(), CandidateState::Campaigning);
}

#[test]
fn the_session_is_kept_across_step_downs_and_campaigns() {
    let (mut c, req) = campaigning();
    let session: SessionId = c.session();
    assert_eq!(req.session, session);
    c.release(Instant::from_millis(1));
    c.campaign(Instant::from_millis(2));
    let Some(CandidateOutput::Send(again)) = c.poll_output() else {
        panic!("no Acquire");
    };
    assert_eq!(again.session, session);
}
