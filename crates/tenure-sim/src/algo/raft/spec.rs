//! Raft's registration: its name, config keys, promises, liveness bound and run budget.

use super::{DEFAULT_PROPOSE_MS, RaftAdapter};
use crate::checker::InvariantKind;
use crate::scenario::ScenarioError;
use tenure::raft::RaftConfig;

/// Raft's registration.
pub(crate) const SPEC: crate::algo::AlgorithmSpec = crate::algo::AlgorithmSpec {
    name: "raft",
    family: "raft",
    title: "Raft",
    help: "Raft election (Ongaro §5.2, options pre_vote, check_quorum, leader_lease); \
           promises Election Safety, Log Matching, Leader Completeness",
    config_keys: &[
        "election_timeout_ms",
        "election_timeout_max_ms",
        "heartbeat_interval_ms",
        "pre_vote",
        "check_quorum",
        "propose_interval_ms",
        "leader_lease",
        "leader_lease_drift_ppm",
    ],
    promises: &[
        InvariantKind::ElectionSafety,
        InvariantKind::TermMonotonic,
        InvariantKind::LogMatching,
        InvariantKind::LeaderCompleteness,
        InvariantKind::Liveness,
    ],
    extra_procs: &[],
    own_faults: &["propose"],
    build: |s| Ok(Box::new(RaftAdapter::new(s)?)),
    liveness_bound_ms: |s| {
        let t = s
            .config
            .election_timeout_ms
            .map_or(150, |m| m.duration().as_millis());
        t.saturating_mul(20).max(3_000)
    },
    keeps_premise: crate::algo::no_premise,
    messages_per_second: |s| {
        use crate::budget::{ms_or, rate};
        let (c, d) = (&s.config, RaftConfig::default());
        let n = s.nodes.max(1);
        let peers = n.saturating_sub(1);
        let hb = ms_or(c.heartbeat_interval_ms, d.heartbeat_interval.as_millis());
        let t = ms_or(c.election_timeout_ms, d.election_timeout.as_millis());
        let propose = ms_or(c.propose_interval_ms, DEFAULT_PROPOSE_MS);
        let replication = peers
            .saturating_mul(2)
            .saturating_mul(rate(hb) + rate(propose));
        let elections = n
            .saturating_mul(peers)
            .saturating_mul(2)
            .saturating_mul(rate(t));
        replication.saturating_add(elections)
    },
    heartbeat: |s| {
        s.config
            .heartbeat_interval_ms
            .map_or(RaftConfig::default().heartbeat_interval, |m| m.duration())
    },
};

/// Refuses a workload the run could not get past: a proposal timer of 0 would fire again at
/// the same instant forever, and the run would never end. Any positive interval is a workload
/// (crates/tenure-sim/tests/compaction.rs proposes every 10 us to test the back-pressure bound).
pub(super) fn check_workload(c: &crate::scenario::AlgoConfig) -> Result<(), ScenarioError> {
    if c.propose_interval_ms.is_some_and(|m| m.micros() == 0) {
        return Err(ScenarioError::Invalid(String::from(
            "raft config: propose_interval_ms 0 must be above 0 (one proposal every so many ms)",
        )));
    }
    Ok(())
}
