//! Faults: what a scenario schedules and what `World::inject` applies at the current time.
//!
//! In JSON a fault is an object tagged by `"type"` (kebab-case), for example
//! `{"type": "crash", "node": 3}` or `{"type": "partition", "groups": [[1, 2], [3, 4, "store"]]}`.
//! Durations are milliseconds; processes are node ids or `"store"` / `"resource"`
//! ([`Proc`]).

use crate::process::Proc;
use crate::units::{Ms, Probability, SignedMs};
use serde::{Deserialize, Serialize};
use tenure::NodeId;

mod de;

/// One fault (docs/design.md "The simulator", Faults).
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
// Deserialize is written by hand (`de.rs`): one pass, keys named in errors, no buffering.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
#[non_exhaustive]
pub enum Fault {
    /// The node stops; its volatile state is lost, what it persisted survives.
    Crash {
        /// The node to crash.
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        node: NodeId,
    },
    /// A crashed node starts again from its persisted state (no-op if it is up).
    Restart {
        /// The node to restart.
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        node: NodeId,
    },
    /// The process does nothing for `duration_ms`: messages to it queue, its timers fire late
    /// on resume, and it wakes with stale beliefs.
    Pause {
        /// The process to pause (a node, the store or the resource).
        target: Proc,
        /// How long, in ms.
        duration_ms: Ms,
    },
    /// Lease worlds: the node pauses for `duration_ms` right after its next successful
    /// leadership check, before the write it checked for leaves (S01).
    PauseAfterCheck {
        /// The lease contender.
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        node: NodeId,
        /// How long, in ms.
        duration_ms: Ms,
    },
    /// Symmetric partition: links between different groups are cut both ways; processes in
    /// no group keep their links.
    Partition {
        /// Disjoint groups of processes.
        groups: Vec<Vec<Proc>>,
    },
    /// One-way cut: messages from every process in `from` to every process in `to` are lost.
    PartitionOneWay {
        /// Senders whose messages are cut.
        from: Vec<Proc>,
        /// Receivers that no longer hear them.
        to: Vec<Proc>,
    },
    /// Cuts every link between each listed process and every process not listed.
    Isolate {
        /// The processes to cut off from the rest.
        nodes: Vec<Proc>,
    },
    /// Unblocks every link and restores default link behaviour (loss, duplication, latency).
    Heal {},
    /// Sets the loss probability on every link from `from` to `to`.
    LinkLoss {
        /// Senders.
        from: Vec<Proc>,
        /// Receivers.
        to: Vec<Proc>,
        /// Probability in `[0, 1]`.
        probability: Probability,
    },
    /// Sets the duplication probability on every link from `from` to `to`.
    LinkDuplicate {
        /// Senders.
        from: Vec<Proc>,
        /// Receivers.
        to: Vec<Proc>,
        /// Probability in `[0, 1]`.
        probability: Probability,
    },
    /// Sets the latency range on every link from `from` to `to`.
    LinkLatency {
        /// Senders.
        from: Vec<Proc>,
        /// Receivers.
        to: Vec<Proc>,
        /// Shortest delay in ms.
        min_ms: Ms,
        /// Longest delay in ms.
        max_ms: Ms,
    },
    /// Steps the process's clock by `offset_ms` (may be negative; a backward step holds the
    /// reading, the clock stays monotone).
    ClockOffset {
        /// Whose clock.
        target: Proc,
        /// Signed step in ms.
        offset_ms: SignedMs,
    },
    /// From now on the process's clock runs at `1 + ppm / 10^6` times true speed.
    ClockDrift {
        /// Whose clock.
        target: Proc,
        /// Rate error in parts per million, within ±500000.
        ppm: i32,
    },
    /// The process's clock jumps forward by `by_ms` (S08 setup 2 when aimed at the store).
    ClockJump {
        /// Whose clock.
        target: Proc,
        /// Jump in ms.
        by_ms: Ms,
    },
    /// Lease worlds: the store answers nothing for `duration_ms` (requests are swallowed).
    StoreOutage {
        /// How long, in ms.
        duration_ms: Ms,
    },
    /// The network loses one message in flight, chosen by its id (the `id` of its `send`
    /// event; ids replay with the scenario). Every copy of it still on the wire is dropped
    /// with reason `injected`. A message that is no longer in flight is an error for
    /// `World::inject`; scheduled in a scenario, it changes nothing.
    DropMessage {
        /// The message's id.
        id: u64,
    },
    /// Raft worlds: a client asks `node` to append `command` to the log. A leader appends it
    /// (trace: `proposed`, with the entry's index); any other node refuses it
    /// (`proposal-refused`, reason `not-leader`, or `crashed`).
    Propose {
        /// The node the client asks.
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        node: NodeId,
        /// The command, an opaque number (shown in the log view).
        command: u64,
    },
}

impl Fault {
    /// The fault's `type` tag, for labels.
    pub fn label(&self) -> &'static str {
        match self {
            Fault::Crash { .. } => "crash",
            Fault::Restart { .. } => "restart",
            Fault::Pause { .. } => "pause",
            Fault::PauseAfterCheck { .. } => "pause-after-check",
            Fault::Partition { .. } => "partition",
            Fault::PartitionOneWay { .. } => "partition-one-way",
            Fault::Isolate { .. } => "isolate",
            Fault::Heal {} => "heal",
            Fault::LinkLoss { .. } => "link-loss",
            Fault::LinkDuplicate { .. } => "link-duplicate",
            Fault::LinkLatency { .. } => "link-latency",
            Fault::ClockOffset { .. } => "clock-offset",
            Fault::ClockDrift { .. } => "clock-drift",
            Fault::ClockJump { .. } => "clock-jump",
            Fault::StoreOutage { .. } => "store-outage",
            Fault::DropMessage { .. } => "drop-message",
            Fault::Propose { .. } => "propose",
        }
    }

    /// Every process the fault names.
    pub fn procs(&self) -> Vec<Proc> {
        match self {
            Fault::Crash { node }
            | Fault::Restart { node }
            | Fault::PauseAfterCheck { node, .. }
            | Fault::Propose { node, .. } => {
                vec![Proc::Node(*node)]
            }
            Fault::Pause { target, .. }
            | Fault::ClockOffset { target, .. }
            | Fault::ClockDrift { target, .. }
            | Fault::ClockJump { target, .. } => vec![*target],
            Fault::Partition { groups } => groups.iter().flatten().copied().collect(),
            Fault::PartitionOneWay { from, to }
            | Fault::LinkLoss { from, to, .. }
            | Fault::LinkDuplicate { from, to, .. }
            | Fault::LinkLatency { from, to, .. } => from.iter().chain(to).copied().collect(),
            Fault::Isolate { nodes } => nodes.clone(),
            Fault::Heal {} | Fault::StoreOutage { .. } | Fault::DropMessage { .. } => Vec::new(),
        }
    }
}

/// A fault scheduled at a true time (ms since the start of the run).
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimedFault {
    /// When, in ms of true time.
    pub at_ms: Ms,
    /// What.
    pub fault: Fault,
}
