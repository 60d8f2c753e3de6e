//! A teaching foil: leases without a safety margin (`lease-no-margin`).
//!
//! The holder keeps leading until `send time + ttl` on its own clock, exactly the store's
//! expiry, so it trusts every clock to run at the store's rate. The core refuses a zero
//! margin (design rule 5), so the foil runs the unfenced lease machines with the smallest
//! margin the core accepts, 1 us, and a declared drift bound of 0 ppm.
//!
//! It is judged by the premise the real lease keeps (docs/design.md, "Invariants"): no
//! pauses, no clock steps, and drift within the core's default bound. Under such drift a
//! holder whose clock runs slow still believes it leads after the store granted the lease
//! to another node: a split brain the checker reports as a broken promise, where
//! `lease-unfenced`, with its margin, holds. It was added through the checklist in
//! docs/algorithms.md.

use super::lease::{self, LEASE_FAULTS, LEASE_PROCS, LeaseAdapter};
use super::{Algorithm, AlgorithmSpec};
use crate::checker::keeps_lease_premise;
use crate::units::Ms;
use tenure::Duration;
use tenure::lease::LeaseConfig;

/// The margin the foil runs with: the least the core accepts.
pub(crate) const MARGIN: Duration = Duration::from_micros(1);

/// The foil's registration.
pub(crate) const SPEC: AlgorithmSpec = AlgorithmSpec {
    name: "lease-no-margin",
    family: "lease",
    title: "Lease without a safety margin (foil)",
    help: "a teaching foil: unfenced leases with no safety margin; promises what \
           lease-unfenced does and breaks it under clock drift",
    // Every lease key except the two the foil does without.
    config_keys: &[
        "ttl_ms",
        "renew_interval_ms",
        "retry_interval_ms",
        "write_interval_ms",
        "max_round_trip_ms",
        "holder_id",
        "first_token",
    ],
    extra_procs: LEASE_PROCS,
    own_faults: LEASE_FAULTS,
    build: |s| {
        debug_assert!(s.algorithm == Algorithm::LeaseNoMargin);
        let mut s = s.clone();
        s.config.safety_margin_ms = Some(Ms(MARGIN));
        s.config.max_drift_ppm = Some(0);
        Ok(Box::new(LeaseAdapter::new(&s)?))
    },
    // Judged by the real lease's premise, with the core's default drift bound: the foil's
    // own bound of 0 would excuse every drift.
    keeps_premise: |_, fault| keeps_lease_premise(fault, LeaseConfig::default().max_drift_ppm),
    ..lease::UNFENCED
};
