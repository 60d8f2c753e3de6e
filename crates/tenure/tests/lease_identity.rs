//! Design rule 8, holder identity is a session (docs/scenarios.md S17), and the answers rule 9
//! lets a store give.
//!
//! The story (apache/curator CURATOR-696; fabric8io/kubernetes-client#5733): two processes
//! started with the same identity both acquired "their" lease, both renewed it, and both
//! believed they led. Here two candidates configured with holder 7 contend at one store; the
//! store grants to (holder, session), so the second is `Held` out, hears its own id named and
//! raises `HolderClash`, and never gets the first one's token.

#![allow(clippy::unwrap_used, clippy::panic)] // helpers outside #[test] fns

mod lease_world;

use lease_world::{MS, S, World, config};
use tenure::lease::{
    CandidateEvent, CandidateOutput, CandidateState, LeaseCandidate, LeaseConfig, RejectReason,
    SessionId, StepDownReason, StoreRequest, StoreResponse, StoreResult,
};
use tenure::{Duration, FencingToken, Instant, NodeId};

fn same_id(seed: u64) -> LeaseConfig {
    LeaseConfig { seed, ..config(7) }
}

fn clashes(w: &World, i: usize) -> usize {
    w.nodes[i]
        .events
        .iter()
        .filter(|(_, e)| matches!(e, CandidateEvent::HolderClash { .. }))
        .count()
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

#[test]
fn rule8_two_contenders_with_one_holder_id_never_lead_together() {
    let mut w = World::new();
    let a = w.add(same_id(1));
    let b = w.add(same_id(2));
    w.campaign(a);
    w.campaign(b);
    w.run_until(60 * S);
    // Only the first to reach the store ever led, under token 1, renewing all along.
    assert_eq!(w.elections, vec![(2 * MS, a, FencingToken(1))]);
    assert_eq!(w.nodes[a].cand.state(), CandidateState::Leader);
    assert_eq!(w.nodes[b].cand.state(), CandidateState::Campaigning);
    assert!(w.assert_leadership(b).is_err());
    // One clash episode, however many retries were refused.
    assert_eq!(clashes(&w, b), 1, "{:?}", w.nodes[b].events);
    assert_eq!(
        w.nodes[b].events[0].1,
        CandidateEvent::HolderClash { holder: NodeId(7) }
    );
    assert_eq!(clashes(&w, a), 0);
    // The first releases: the second now leads under a new token, and the resource fences
    // the first's token out.
    w.release(a);
    w.run_until(63 * S);
    assert_eq!(w.elections.len(), 2);
    let (_, who, token) = w.elections[1];
    assert_eq!((who, token), (b, FencingToken(2)));
    assert!(w.write_with(b, FencingToken(2), "b").is_ok());
    assert!(w.write_with(a, FencingToken(1), "a").is_err());
}

#[test]
fn a_new_clash_after_leading_is_a_new_episode() {
    let mut w = World::new();
    let a = w.add(same_id(1));
    let b = w.add(same_id(2));
    w.campaign(a);
    w.campaign(b);
    w.run_until(10 * S);
    assert_eq!(clashes(&w, b), 1);
    // a hands over; b leads (the episode ends); a comes back and is the outsider now.
    w.release(a);
    w.run_until(13 * S);
    assert_eq!(w.nodes[b].cand.state(), CandidateState::Leader);
    w.campaign(a);
    w.run_until(30 * S);
    assert_eq!(clashes(&w, a), 1);
    assert_eq!(clashes(&w, b), 1);
    assert_eq!(w.nodes[a].cand.state(), CandidateState::Campaigning);
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
