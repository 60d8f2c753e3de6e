//! What a process reports, typed: node events, roles and why a leader stepped down.
//!
//! One form serves the trace (and its hash), the CLI's `--trace` JSON Lines, the metrics
//! (elections are counted by variant, not by matching a label) and the JS `Simulation`,
//! whose TypeScript declarations list the same variants. In JSON a node event is
//! `{ "event": "node", "proc": 2, "what": "became-leader", "value": 3 }`: `what` is the
//! variant's kebab-case name and the other keys are its fields.

use serde::Serialize;

/// Why a leader stopped leading.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StepDownCause {
    /// Lease: its lease ran out on its own clock before a renewal landed.
    LeaseExpired,
    /// Lease: the store refused the renewal (someone else holds it).
    RenewalRejected,
    /// Lease: the resource refused its token (a newer generation is installed).
    Fenced,
    /// Lease: it released the lease.
    Released,
    /// Lease: no answer from the store within the request timeout.
    StoreUnreachable,
    /// Raft: a message carried a higher term.
    HigherTerm,
    /// Raft: it heard from no quorum for an election timeout (CheckQuorum).
    CheckQuorumFailed,
    /// Bully: a node with a higher id announced itself.
    HigherCoordinator,
    /// A cause the simulator does not name (a newer core machine).
    Other,
}

/// Why a client's proposal was refused.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RefusalCause {
    /// The node does not lead.
    NotLeader,
    /// The node is down.
    Crashed,
}

/// A state change of one process, one variant per kind.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "NodeChange"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "what", rename_all = "kebab-case")]
pub enum NodeEvent {
    /// It leads: `value` is its Raft term, Bully epoch or lease fencing token.
    BecameLeader {
        /// Term, epoch or token.
        value: u64,
    },
    /// It stopped leading.
    SteppedDown {
        /// The term, epoch or token it led with.
        value: u64,
        /// Why.
        reason: StepDownCause,
    },
    /// Raft: it campaigns in term `value`.
    BecameCandidate {
        /// The term.
        value: u64,
    },
    /// Raft (PreVote): it asks whether it could win term `value`.
    BecamePreCandidate {
        /// The term it would campaign in.
        value: u64,
    },
    /// Bully: it starts an election at epoch `value`.
    ElectionStarted {
        /// The epoch.
        value: u64,
    },
    /// Bully: it follows coordinator `value` (a node id).
    CoordinatorChanged {
        /// The coordinator's node id.
        value: u64,
    },
    /// Lease: another session claims this node's holder id `value` (design rule 8).
    HolderClash {
        /// The holder id both claim.
        value: u64,
    },
    /// Lease store: request `value` was swallowed by an outage.
    RequestSwallowed {
        /// The request id.
        value: u64,
    },
    /// Lease store: an outage began.
    OutageStarted,
    /// Lease store: the outage ended.
    OutageEnded,
    /// Raft: a leader appended a client's command at log index `value`.
    Proposed {
        /// The log index.
        value: u64,
    },
    /// Raft: a client's command was refused.
    ProposalRefused {
        /// Why.
        reason: RefusalCause,
    },
    /// The process crashed.
    Crashed,
    /// The process restarted from what it persisted.
    Restarted,
    /// The process stopped for a while (its duration is `duration_ms` in JSON).
    Paused {
        /// How long.
        #[serde(rename = "duration_ms", serialize_with = "crate::units::ser_ms")]
        duration_us: u64,
    },
    /// A pause ended.
    Resumed,
}

impl NodeEvent {
    /// Whether the process won a leadership (the `elections_total` metric).
    pub fn is_election(&self) -> bool {
        matches!(self, NodeEvent::BecameLeader { .. })
    }

    /// Whether the process lost one by stepping down (part of `leadership_lost_total`).
    pub fn is_step_down(&self) -> bool {
        matches!(self, NodeEvent::SteppedDown { .. })
    }
}

/// The role a process shows in a snapshot: its core machine's own role names, plus the
/// lease world's service processes.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "RoleLabel"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize)]
pub enum Role {
    /// Raft, Bully or lease: follows a leader (or waits for one).
    #[default]
    Follower,
    /// Raft (PreVote): asking whether it could win.
    PreCandidate,
    /// Raft or Bully: campaigning.
    Candidate,
    /// Raft or lease: leads.
    Leader,
    /// Bully: leads.
    Coordinator,
    /// Lease: asking the store for the lease.
    Campaigning,
    /// Lease: stopped contending.
    Stopped,
    /// Down: waits for a restart.
    Crashed,
    /// The lease store.
    #[serde(rename = "store")]
    Store,
    /// The fenced resource.
    #[serde(rename = "resource")]
    Resource,
}

/// What a role amounts to, the same for every algorithm (the page colours by it).
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RoleKind {
    /// Leads (Raft or lease leader, Bully coordinator), whether or not it can act now.
    Leader,
    /// Campaigning (Raft candidate or pre-candidate, Bully candidate, lease campaigner).
    Candidate,
    /// Follows or waits.
    Follower,
    /// Down.
    Crashed,
    /// The store or the resource.
    Service,
}

impl Role {
    /// What the role amounts to.
    pub fn kind(self) -> RoleKind {
        match self {
            Role::Leader | Role::Coordinator => RoleKind::Leader,
            Role::Candidate | Role::PreCandidate | Role::Campaigning => RoleKind::Candidate,
            Role::Follower | Role::Stopped => RoleKind::Follower,
            Role::Crashed => RoleKind::Crashed,
            Role::Store | Role::Resource => RoleKind::Service,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_event_is_tagged_by_what_with_its_own_fields() {
        let led = serde_json::to_value(NodeEvent::BecameLeader { value: 3 }).unwrap();
        assert_eq!(
            led,
            serde_json::json!({ "what": "became-leader", "value": 3 })
        );
        let down = NodeEvent::SteppedDown {
            value: 3,
            reason: StepDownCause::CheckQuorumFailed,
        };
        assert_eq!(
            serde_json::to_value(down).unwrap(),
            serde_json::json!({ "what": "stepped-down", "value": 3, "reason": "check-quorum-failed" })
        );
        let paused = NodeEvent::Paused {
            duration_us: 250_500,
        };
        assert_eq!(
            serde_json::to_value(paused).unwrap(),
            serde_json::json!({ "what": "paused", "duration_ms": 250.5 })
        );
        assert_eq!(
            serde_json::to_value(NodeEvent::Crashed).unwrap(),
            serde_json::json!({ "what": "crashed" })
        );
    }

    #[test]
    fn roles_amount_to_the_same_kinds_across_algorithms() {
        assert_eq!(Role::Coordinator.kind(), Role::Leader.kind());
        assert_eq!(Role::Campaigning.kind(), RoleKind::Candidate);
        assert_eq!(Role::PreCandidate.kind(), RoleKind::Candidate);
        assert_eq!(Role::Stopped.kind(), RoleKind::Follower);
        assert_eq!(serde_json::to_value(Role::Store).unwrap(), "store");
        assert_eq!(
            serde_json::to_value(Role::PreCandidate).unwrap(),
            "PreCandidate"
        );
    }
}
