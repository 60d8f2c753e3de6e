//! A serde picture of the world at one instant, cheap to build, for the playground.

use crate::checker::{InvariantKind, Violation};
use crate::event::{Role, RoleKind};
use crate::message::Payload;
use crate::metrics::Metrics;
use crate::process::Proc;
use crate::scenario::Algorithm;
use crate::trace::{DropReason, WriteRecord};
use serde::Serialize;

/// Whether a process runs.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ProcStatus"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Running.
    Up,
    /// Paused: does nothing until it resumes.
    Paused,
    /// Crashed: waits for a restart.
    Crashed,
}

/// A timer a process waits on.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "TimerSnapshot"))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TimerView {
    /// What it waits for (`Election`, `Heartbeat`, `Renew`, `LeaseDeadline`, `Write`, ...).
    #[cfg_attr(feature = "ts", ts(type = "TimerKind"))]
    pub kind: &'static str,
    /// When it fires, in true time (an estimate through the process's clock).
    #[serde(rename = "deadline_ms", serialize_with = "crate::units::ser_ms")]
    pub deadline_us: u64,
    /// When it was armed, in true time.
    #[serde(rename = "armed_ms", serialize_with = "crate::units::ser_ms")]
    pub armed_us: u64,
    /// Its full wait on the process's clock, from arming to deadline: the part of it
    /// still left is how far the timer has run down.
    #[serde(rename = "wait_ms", serialize_with = "crate::units::ser_ms")]
    pub wait_us: u64,
}

/// One process.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "NodeSnapshot"))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NodeView {
    /// The process.
    pub id: Proc,
    /// Its machine's role (`Leader`, `Follower`, `Candidate`, `Coordinator`, `store`, ...).
    pub role: Role,
    /// What the role amounts to, the same words for every algorithm (`crashed` when down).
    pub role_kind: RoleKind,
    /// Whether it acts as leader now: up, not paused, believing it leads (what the
    /// `leaders_now` metric and split brain count).
    pub acting_leader: bool,
    /// Raft term or Bully epoch.
    pub term: Option<u64>,
    /// Lease fencing token held.
    pub token: Option<u64>,
    /// The node it believes leads.
    pub leader: Option<u64>,
    /// Up, paused or crashed.
    pub status: Status,
    /// Its clock reading.
    #[serde(rename = "clock_ms", serialize_with = "crate::units::ser_ms")]
    pub clock_us: u64,
    /// Its lease deadline converted to true time, lease contenders that lead.
    #[serde(
        rename = "lease_deadline_ms",
        serialize_with = "crate::units::ser_opt_ms"
    )]
    pub lease_deadline_us: Option<u64>,
    /// Lease contenders: how long a lease is valid on its own clock, counted from the send
    /// time of the request that won or renewed it (ttl - safety margin): the full span of
    /// the time left until `lease_deadline_ms`.
    #[serde(
        rename = "lease_validity_ms",
        serialize_with = "crate::units::ser_opt_ms"
    )]
    pub lease_validity_us: Option<u64>,
    /// Its next timer.
    pub next_timer: Option<TimerView>,
    /// Raft: log length.
    pub log_len: Option<u64>,
    /// Raft: commit index.
    pub commit: Option<u64>,
    /// Raft: the last entries of its log (up to [`LOG_TAIL`]), oldest first.
    pub log: Option<Vec<LogEntryView>>,
}

/// Most log entries a snapshot shows per Raft node: the newest ones.
pub const LOG_TAIL: usize = 24;

/// One Raft log entry.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "LogEntry"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LogEntryView {
    /// Its index, from 1.
    pub index: u64,
    /// The term of the leader that appended it.
    pub term: u64,
    /// The client's command; `None` for the no-op a new leader appends.
    pub command: Option<u64>,
}

/// A message on the wire.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "InFlightMessage"))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InFlight {
    /// Message id.
    pub id: u64,
    /// Sender.
    pub from: Proc,
    /// Receiver.
    pub to: Proc,
    /// Kind label.
    #[cfg_attr(feature = "ts", ts(type = "MessageKind"))]
    pub kind: &'static str,
    /// Term, epoch or token carried.
    pub value: Option<u64>,
    /// True send time.
    #[serde(rename = "send_ms", serialize_with = "crate::units::ser_ms")]
    pub send_us: u64,
    /// True arrival time.
    #[serde(rename = "arrival_ms", serialize_with = "crate::units::ser_ms")]
    pub arrival_us: u64,
}

/// One message on the wire with its whole payload (`World::message`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MessageDetail {
    /// Message id.
    pub id: u64,
    /// Sender.
    pub from: Proc,
    /// Receiver.
    pub to: Proc,
    /// Kind label.
    pub kind: &'static str,
    /// Term, epoch or token carried.
    pub value: Option<u64>,
    /// True send time.
    #[serde(rename = "send_ms", serialize_with = "crate::units::ser_ms")]
    pub send_us: u64,
    /// True arrival time.
    #[serde(rename = "arrival_ms", serialize_with = "crate::units::ser_ms")]
    pub arrival_us: u64,
    /// Every field, as the algorithm sent it.
    pub payload: Payload,
}

/// A recently dropped message.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "DroppedMessage"))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Dropped {
    /// Message id.
    pub id: u64,
    /// Sender.
    pub from: Proc,
    /// Receiver.
    pub to: Proc,
    /// Kind label.
    #[cfg_attr(feature = "ts", ts(type = "MessageKind"))]
    pub kind: &'static str,
    /// True time of the drop.
    #[serde(rename = "time_ms", serialize_with = "crate::units::ser_ms")]
    pub time_us: u64,
    /// Why.
    pub reason: DropReason,
}

/// The lease store.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "StoreSnapshot"))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StoreView {
    /// The valid holder on the store's clock, if any.
    pub holder: Option<u64>,
    /// Its token.
    pub token: Option<u64>,
    /// Its expiry on the store's clock.
    #[serde(rename = "expiry_ms", serialize_with = "crate::units::ser_opt_ms")]
    pub expiry_us: Option<u64>,
    /// That expiry in true time (an estimate through the store's clock).
    #[serde(rename = "expiry_true_ms", serialize_with = "crate::units::ser_opt_ms")]
    pub expiry_true_us: Option<u64>,
    /// The TTL the valid holder's lease was granted or last renewed with (the full span of
    /// the time left until `expiry_ms`).
    #[serde(rename = "ttl_ms", serialize_with = "crate::units::ser_opt_ms")]
    pub ttl_us: Option<u64>,
    /// The last token issued.
    pub last_token: Option<u64>,
    /// False during an outage.
    pub available: bool,
}

/// The fenced resource.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ResourceSnapshot"))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResourceView {
    /// Highest token seen (rule 1).
    pub highest_token: u64,
    /// Whether it checks tokens (lease-fencing) or accepts everything (lease-unfenced).
    pub fenced: bool,
    /// The latest writes, oldest first.
    pub recent_writes: Vec<WriteRecord>,
}

/// The world at one instant.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Snapshot {
    /// True time.
    #[serde(rename = "time_ms", serialize_with = "crate::units::ser_ms")]
    pub time_us: u64,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Every process, nodes first, then store and resource.
    pub nodes: Vec<NodeView>,
    /// Messages in flight.
    pub in_flight: Vec<InFlight>,
    /// Recently dropped messages, oldest first.
    pub dropped: Vec<Dropped>,
    /// Blocked directed links `(from, to)`.
    pub blocked: Vec<(Proc, Proc)>,
    /// The store, lease worlds.
    pub store: Option<StoreView>,
    /// The resource, lease worlds.
    pub resource: Option<ResourceView>,
    /// Metrics so far.
    pub metrics: Metrics,
    /// Violations so far (the first ones, up to a cap).
    pub violations: Vec<Violation>,
    /// The invariants the algorithm promises now: its registration's list, less
    /// [`InvariantKind::SplitBrain`] once a fault broke the premise it rests on.
    pub promised: Vec<InvariantKind>,
}
