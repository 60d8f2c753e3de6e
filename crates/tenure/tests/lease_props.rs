//! Property test of one lease candidate fed arbitrary inputs: times (including going
//! backwards and `u64::MAX`), ids, tokens and store results. Nothing panics, the output
//! queue holds at most its bound (`2 × (fanout + 8)`, 18 for a candidate, also when the driver
//! drains only now and then), the request table stays bounded, and a leader's deadline is
//! always ahead of its clock. The cluster properties (random interleavings of candidates and a store, clock
//! drift, pauses, outages) run in the simulator's world: `crates/tenure-sim/tests/lease_props.rs`.
//!
//! proptest prints the failing input list; `PROPTEST_CASES=n` scales the run.

#[path = "support/lease_config.rs"]
mod lease_config;

use lease_config::lease_config;
use proptest::prelude::*;
use tenure::lease::CandidateState;
use tenure::{Duration, FencingToken, NodeId};

/// The candidate's output-queue bound (docs/design.md, "One output-queue policy"):
/// `2 × (fanout + 8)` with a fanout of 1 (one input sends at most one request to its one
/// store), 18 outputs.
fn queue_bound() -> usize {
    tenure::OutputQueue::<(), core::convert::Infallible, ()>::bound_for(1)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    #[test]
    fn candidate_never_panics_on_arbitrary_inputs(
        seed in any::<u64>(),
        inputs in proptest::collection::vec((0u8..6, any::<u64>(), any::<u64>(), any::<u64>()), 1..200),
        drain_every in prop_oneof![Just(1usize), 2usize..100],
        steady in any::<bool>(),
    ) {
        // Arbitrary times (including going backwards and u64::MAX), ids, tokens and results;
        // in `steady` runs the times instead advance by up to 400 ms an input, so timers fire
        // and requests are resent as in a real run.
        use tenure::lease::{LeaseCandidate, RejectReason, RequestId, StoreResponse, StoreResult};
        use tenure::{Instant, StaleToken};
        let mut c = LeaseCandidate::new(lease_config(1, seed)).unwrap();
        let bound = queue_bound();
        let mut clock = 0u64;
        for (i, (kind, a, b, t)) in inputs.into_iter().enumerate() {
            clock += t % 400_000;
            let now = Instant::from_micros(if steady { clock } else { t });
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
            prop_assert!(c.outstanding_requests() <= 16);
            if c.state() == CandidateState::Leader {
                prop_assert!(c.lease_deadline().unwrap() > c.now());
            }
            // Half the runs drain after every input, as the contract asks; the others every
            // `drain_every` inputs, so outputs pile up: the queue still holds no more than its
            // bound (the candidate persists nothing that could exceed it).
            if (i + 1) % drain_every == 0 {
                let mut drained = 0;
                while c.poll_output().is_some() { drained += 1; }
                prop_assert!(drained <= bound, "{drained} outputs queued, bound {bound}");
            }
        }
    }
}
