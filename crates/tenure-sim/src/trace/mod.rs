//! The trace: every event of a run as a serde record, a bounded log of recent ones with a
//! cursor ([`EventLog`], `log.rs`), and a stable 64-bit hash over all of them
//! ([`TraceHasher`], `hash.rs`, where the scheme is described).

use crate::checker::Violation;
use crate::event::NodeEvent;
use crate::fault::Fault;
use crate::process::Proc;
use serde::Serialize;

/// Why a message was not delivered.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DropReason {
    /// The link was blocked by a partition (at send or at delivery).
    Partition,
    /// Lost by the link's loss probability.
    Loss,
    /// The receiver had crashed.
    Crashed,
    /// The store was in an outage and swallowed the request.
    Outage,
    /// A `drop-message` fault removed it from the wire.
    Injected,
}

/// What happened, one variant per kind of event.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum TraceKind {
    /// A message left `from`; it arrives at its arrival time (and again at the duplicate's).
    Send {
        /// Message id, unique in the run.
        id: u64,
        /// Sender.
        from: Proc,
        /// Receiver.
        to: Proc,
        /// Message kind (`RequestVote`, `AppendEntries`, `Acquire`, `Write`, ...).
        #[cfg_attr(feature = "ts", ts(type = "MessageKind"))]
        msg: &'static str,
        /// Term, epoch or token the message carries, if any.
        value: Option<u64>,
        /// True arrival time.
        #[serde(rename = "arrival_ms", serialize_with = "crate::units::ser_ms")]
        arrival_us: u64,
        /// True arrival time of a duplicate, if the link duplicated it.
        #[serde(rename = "duplicate_ms", serialize_with = "crate::units::ser_opt_ms")]
        duplicate_us: Option<u64>,
    },
    /// A message reached its receiver.
    Deliver {
        /// Message id.
        id: u64,
        /// Sender.
        from: Proc,
        /// Receiver.
        to: Proc,
        /// Message kind.
        #[cfg_attr(feature = "ts", ts(type = "MessageKind"))]
        msg: &'static str,
    },
    /// A message was dropped.
    Drop {
        /// Message id.
        id: u64,
        /// Sender.
        from: Proc,
        /// Receiver.
        to: Proc,
        /// Message kind.
        #[cfg_attr(feature = "ts", ts(type = "MessageKind"))]
        msg: &'static str,
        /// Why.
        reason: DropReason,
    },
    /// A process's timer fired.
    Timeout {
        /// The process.
        proc: Proc,
    },
    /// A state change of a process (`what` in JSON: `became-leader`, `stepped-down`, ...).
    Node {
        /// The process.
        proc: Proc,
        /// What happened, with its own fields.
        #[serde(flatten)]
        change: NodeEvent,
    },
    /// Two or more nodes act as leader at once (up, not paused, believing they lead): a
    /// split-brain window opened at this event's time. Recorded once true time moves on with
    /// the window still open (then at the instant it opened, after that instant's other
    /// events), so a window that closes within the instant it opened is never reported
    /// (docs/design.md, "split-brain window"); whether or not the algorithm promises against
    /// it, the checker's `split-brain` violation is separate.
    SplitBrainStarted {
        /// The nodes acting as leader.
        leaders: Vec<Proc>,
    },
    /// Fewer than two nodes act as leader again: the window that opened at the last
    /// `split-brain-started` closes.
    SplitBrainEnded {
        /// How long it lasted (`duration_ms` in JSON).
        #[serde(rename = "duration_ms", serialize_with = "crate::units::ser_ms")]
        duration_us: u64,
    },
    /// The resource judged a write (lease worlds).
    Write(WriteRecord),
    /// A fault was applied.
    Fault {
        /// The fault.
        fault: Fault,
    },
    /// An invariant was violated.
    Violation(Violation),
}

impl TraceKind {
    /// Every event name, as the `event` tag of the serde form spells it, in variant order.
    pub const NAMES: [&'static str; 10] = [
        "send",
        "deliver",
        "drop",
        "timeout",
        "node",
        "split-brain-started",
        "split-brain-ended",
        "write",
        "fault",
        "violation",
    ];

    /// This event's name: its `event` tag in the serde form (one of [`TraceKind::NAMES`]).
    pub const fn name(&self) -> &'static str {
        Self::NAMES[self.index()]
    }

    /// This event's position in [`TraceKind::NAMES`].
    pub const fn index(&self) -> usize {
        match self {
            TraceKind::Send { .. } => 0,
            TraceKind::Deliver { .. } => 1,
            TraceKind::Drop { .. } => 2,
            TraceKind::Timeout { .. } => 3,
            TraceKind::Node { .. } => 4,
            TraceKind::SplitBrainStarted { .. } => 5,
            TraceKind::SplitBrainEnded { .. } => 6,
            TraceKind::Write(_) => 7,
            TraceKind::Fault { .. } => 8,
            TraceKind::Violation(_) => 9,
        }
    }
}

/// Why the fenced resource refused a write.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum WriteRefusal {
    /// Its token is below the highest the resource has seen ([`tenure::StaleToken`]).
    #[serde(rename = "stale fencing token")]
    StaleToken,
}

/// One write judged by the fenced resource.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ResourceWrite"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct WriteRecord {
    /// True time the resource judged it.
    #[serde(rename = "time_ms", serialize_with = "crate::units::ser_ms")]
    pub time_us: u64,
    /// True time the write left its node.
    #[serde(rename = "issued_ms", serialize_with = "crate::units::ser_ms")]
    pub issued_us: u64,
    /// The writer.
    pub from: Proc,
    /// The writer's fencing token (presented only with fencing; always recorded here).
    pub token: u64,
    /// Whether the resource accepted it.
    pub accepted: bool,
    /// Why it was refused, `None` when accepted: always a stale fencing token, the
    /// resource's only refusal (design rule 1).
    pub reason: Option<WriteRefusal>,
    /// Stale: its token is below one the resource had already seen (with fencing this is
    /// exactly what gets rejected; without, the simulator keeps the count on the side).
    pub stale: bool,
    /// Late: it left its node after its lease had ended in true time (judged on the store's
    /// clock from the store's grant and renew records).
    pub late: bool,
    /// The token presented, `None` in unfenced mode.
    pub presented: Option<u64>,
    /// The highest token the resource had seen before this write.
    pub required: u64,
}

/// One event: a sequence number, the true time in us, and what happened.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct TraceEvent {
    /// Position in the run, from 0.
    pub seq: u64,
    /// True time.
    #[serde(rename = "time_ms", serialize_with = "crate::units::ser_ms")]
    pub time_us: u64,
    /// What happened.
    #[serde(flatten)]
    pub kind: TraceKind,
}

mod hash;
mod log;

pub use hash::{TRACE_HASH_SCHEME, TraceHasher, hash_hex};
pub use log::{DEFAULT_LOG_CAPACITY, EventLog};
