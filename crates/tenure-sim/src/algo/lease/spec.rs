//! The lease algorithms' registrations: the store and the resource as extra processes, the
//! store outage as their own fault, and the lease premise that the split-brain promise
//! rests on.

use super::{DEFAULT_RETRY_MS, DEFAULT_TTL_MS, DEFAULT_WRITE_MS, LeaseAdapter};
use crate::algo::AlgorithmSpec;
use crate::checker::{InvariantKind, keeps_lease_premise};
use crate::fault::Fault;
use crate::process::Proc;
use crate::scenario::Scenario;
use tenure::Duration;
use tenure::lease::LeaseConfig;

/// Every key a lease world reads.
pub(crate) const LEASE_KEYS: &[&str] = &[
    "ttl_ms",
    "safety_margin_ms",
    "renew_interval_ms",
    "retry_interval_ms",
    "write_interval_ms",
    "max_drift_ppm",
    "max_round_trip_ms",
    "holder_id",
    "first_token",
];

/// What every lease world promises, fenced or not.
macro_rules! lease_promises {
    ($($extra:ident),*) => {
        &[
            InvariantKind::SingleValidHolder,
            InvariantKind::TokenMonotonic,
            InvariantKind::ResourceTokenMonotonic,
            InvariantKind::TokenPerSession,
            $(InvariantKind::$extra,)*
            InvariantKind::SplitBrain,
            InvariantKind::Liveness,
        ]
    };
}

/// The processes a lease world adds after its nodes.
pub(crate) const LEASE_PROCS: &[Proc] = &[Proc::Store, Proc::Resource];
/// The faults only lease worlds take.
pub(crate) const LEASE_FAULTS: &[&str] = &["pause-after-check", "store-outage"];

/// Lease with fencing.
pub(crate) const FENCING: AlgorithmSpec = AlgorithmSpec {
    name: "lease-fencing",
    family: "lease",
    title: "Lease with fencing",
    help: "leases from a store, the leader presents its fencing token to the resource; \
           promises one valid holder and no stale write accepted",
    promises: lease_promises!(StaleWriteAccepted),
    ..UNFENCED
};

/// Lease without fencing.
pub(crate) const UNFENCED: AlgorithmSpec = AlgorithmSpec {
    name: "lease-unfenced",
    family: "lease",
    title: "Lease without fencing",
    help: "the same leases, but writes carry no token and the resource accepts everything",
    config_keys: LEASE_KEYS,
    promises: lease_promises!(),
    extra_procs: LEASE_PROCS,
    own_faults: LEASE_FAULTS,
    build: |s| Ok(Box::new(LeaseAdapter::new(s)?)),
    liveness_bound_ms,
    keeps_premise,
    messages_per_second,
    heartbeat,
};

/// How long after the heal a lease world must have a leader: three TTLs and two seconds.
pub(crate) fn liveness_bound_ms(s: &Scenario) -> u64 {
    let ttl = s
        .config
        .ttl_ms
        .map_or(DEFAULT_TTL_MS, |m| m.duration().as_millis());
    ttl.saturating_mul(3).saturating_add(2_000)
}

/// The lease premise with the scenario's drift bound (default: the core's).
pub(crate) fn keeps_premise(s: &Scenario, fault: &Fault) -> bool {
    let bound = s
        .config
        .max_drift_ppm
        .unwrap_or(LeaseConfig::default().max_drift_ppm);
    keeps_lease_premise(fault, bound)
}

/// Each contender sends at most one request per renew, retry or write interval and gets one
/// answer per delivered copy.
pub(crate) fn messages_per_second(s: &Scenario) -> u64 {
    use crate::budget::{ms_or, rate};
    let c = &s.config;
    let ttl = ms_or(c.ttl_ms, DEFAULT_TTL_MS);
    let renew = ms_or(c.renew_interval_ms, ttl / 3);
    let retry = ms_or(c.retry_interval_ms, DEFAULT_RETRY_MS);
    let write = ms_or(c.write_interval_ms, DEFAULT_WRITE_MS);
    s.nodes
        .max(1)
        .saturating_mul(2)
        .saturating_mul(rate(renew) + rate(retry) + rate(write))
}

/// A lease's heartbeat is its renew interval (default a third of the TTL).
pub(crate) fn heartbeat(s: &Scenario) -> Duration {
    let c = &s.config;
    let ttl = c
        .ttl_ms
        .map_or(Duration::from_millis(DEFAULT_TTL_MS), |m| m.duration());
    c.renew_interval_ms
        .map_or(Duration::from_micros(ttl.as_micros() / 3), |m| m.duration())
}
