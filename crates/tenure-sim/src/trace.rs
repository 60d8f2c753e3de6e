//! The trace: every event of a run as a serde record, a bounded log of recent ones with a
//! cursor, and a stable 64-bit hash over all of them.
//!
//! The hash takes each event whole: its fields are packed into a few 64-bit words (a
//! process is its node id, or a high bit for the store and the resource; a message label is
//! its length and its first and last eight bytes; an enum is its variant's position), the
//! words are folded in pairs by independent 64 x 64 -> 128-bit multiplies (the high and low
//! halves xored), and the pairs' xor enters the running state by one more fold. Rare events
//! (split-brain windows, writes, faults, violations) are first reduced to one word by their
//! `Hash` encoding, one word per step. Every integer is widened to a `u64`, so a 32-bit wasm
//! build and a 64-bit native build agree. The hash is versioned: the state starts from
//! [`TRACE_HASH_SCHEME`] and the scenario format version, and a hash is comparable only
//! between builds of the same scheme (older schemes are not kept). An event's position is
//! not hashed: it is implied by the order the events enter.

use crate::checker::Violation;
use crate::event::NodeEvent;
use crate::fault::Fault;
use crate::process::Proc;
use core::hash::{Hash, Hasher};
use serde::Serialize;
use std::collections::VecDeque;

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
    /// Two or more nodes began acting as leader at once (up, not paused, believing they
    /// lead): a split-brain window opens. Recorded whether or not the algorithm promises
    /// against it; the checker's `split-brain` violation is separate.
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

/// A trace hash as the CLI, scenario files and JS write it: 16 lowercase hex digits.
pub fn hash_hex(hash: u64) -> String {
    format!("{hash:016x}")
}

/// The trace hash's scheme: 1 was byte-wise FNV-1a; 2 mixed one word per step; 3 folds each
/// event's packed words in pairs (see the module docs).
pub const TRACE_HASH_SCHEME: u64 = 3;

/// A word-at-a-time hasher with the same output on every target: the running trace hash
/// ([`TraceHasher::event`]) and, as a [`Hasher`], the one-word digest of a rare event.
///
/// As a [`Hasher`], each word `w` updates the state `h` to `(rotl(h, 5) ^ w) * K` (the
/// multiply spreads low bits up, the rotation brings high bits back down for the next word);
/// `finish` applies a final avalanche so every input bit reaches every output bit.
#[derive(Clone, Copy, Debug)]
pub struct TraceHasher(u64);

const MIX: u64 = 0x9e37_79b9_7f4a_7c15;

/// One odd constant per word position of an event (the digits of pi, then of e): a field
/// moved to another position hashes differently, and a zero field still multiplies.
const LANE: [u64; 10] = [
    0x243f_6a88_85a3_08d3,
    0x1319_8a2e_0370_7345,
    0xa409_3822_299f_31d1,
    0x082e_fa98_ec4e_6c89,
    0x4528_21e6_38d0_1377,
    0xbe54_66cf_34e9_0c6d,
    0xc0ac_29b7_c97c_50dd,
    0x3f84_d5b5_b547_0917,
    0xb7e1_5162_8aed_2a6b,
    0xbf71_5880_9cf4_f3c7,
];

/// `a x b` as 128 bits, its halves xored: one multiply mixes every bit of both words.
#[inline(always)]
fn fold(a: u64, b: u64) -> u64 {
    let m = u128::from(a) * u128::from(b);
    (m as u64) ^ ((m >> 64) as u64)
}

/// A process as one word: a node its id, the store and the resource a high bit each.
#[inline(always)]
fn proc_word(p: Proc) -> u64 {
    match p {
        Proc::Node(id) => id.0,
        Proc::Store => 1 << 62,
        Proc::Resource => 1 << 63,
    }
}

/// Two processes as one word (injective for ids below 2^32).
#[inline(always)]
fn procs_word(a: Proc, b: Proc) -> u64 {
    proc_word(a) ^ proc_word(b).rotate_left(32)
}

/// A message label as two words: its first eight bytes with its length in the top byte's
/// place, and its last eight bytes (labels are fixed names; these tell them all apart).
#[inline(always)]
fn label_words(s: &str) -> (u64, u64) {
    let b = s.as_bytes();
    let len = b.len() as u64;
    match (b.first_chunk::<8>(), b.last_chunk::<8>()) {
        (Some(first), Some(last)) => (
            u64::from_le_bytes(*first) ^ len.rotate_right(8),
            u64::from_le_bytes(*last),
        ),
        _ => {
            let mut w = [0u8; 8];
            for (d, c) in w.iter_mut().zip(b) {
                *d = *c;
            }
            (u64::from_le_bytes(w) ^ len.rotate_right(8), 0)
        }
    }
}

/// A node event as two words: its variant (and cause) and its value.
#[inline(always)]
fn node_words(e: &NodeEvent) -> (u64, u64) {
    match *e {
        NodeEvent::BecameLeader { value } => (1, value),
        NodeEvent::SteppedDown { value, reason } => (2 | (reason as u64) << 8, value),
        NodeEvent::BecameCandidate { value } => (3, value),
        NodeEvent::BecamePreCandidate { value } => (4, value),
        NodeEvent::ElectionStarted { value } => (5, value),
        NodeEvent::CoordinatorChanged { value } => (6, value),
        NodeEvent::HolderClash { value } => (7, value),
        NodeEvent::RequestSwallowed { value } => (8, value),
        NodeEvent::OutageStarted => (9, 0),
        NodeEvent::OutageEnded => (10, 0),
        NodeEvent::Proposed { value } => (11, value),
        NodeEvent::ProposalRefused { reason } => (12 | (reason as u64) << 8, 0),
        NodeEvent::Crashed => (13, 0),
        NodeEvent::Restarted => (14, 0),
        NodeEvent::Paused { duration_us } => (15, duration_us),
        NodeEvent::Resumed => (16, 0),
    }
}

impl Default for TraceHasher {
    fn default() -> Self {
        let mut h = TraceHasher(0xcbf2_9ce4_8422_2325);
        h.write_u64(TRACE_HASH_SCHEME << 32 | u64::from(crate::scenario::SCENARIO_VERSION));
        h
    }
}

impl TraceHasher {
    /// Takes in one event at true time `time_us` (scheme 3; the module docs).
    pub fn event(&mut self, time_us: u64, kind: &TraceKind) {
        // The kind's position, from 1, in the low byte of the word that names the event.
        let tag = kind.index() as u64 + 1;
        match kind {
            TraceKind::Send {
                id,
                from,
                to,
                msg,
                value,
                arrival_us,
                duplicate_us,
            } => {
                let (l0, l1) = label_words(msg);
                let flags =
                    u64::from(value.is_some()) << 8 | u64::from(duplicate_us.is_some()) << 9;
                self.absorb([
                    time_us,
                    *id,
                    procs_word(*from, *to),
                    tag | flags,
                    value.unwrap_or(0),
                    *arrival_us,
                    duplicate_us.unwrap_or(0),
                    l0,
                    l1,
                ]);
            }
            TraceKind::Deliver { id, from, to, msg } => {
                let (l0, l1) = label_words(msg);
                self.absorb([time_us, *id, procs_word(*from, *to), tag, l0, l1]);
            }
            TraceKind::Drop {
                id,
                from,
                to,
                msg,
                reason,
            } => {
                let (l0, l1) = label_words(msg);
                let head = tag | (*reason as u64) << 8;
                self.absorb([time_us, *id, procs_word(*from, *to), head, l0, l1]);
            }
            TraceKind::Timeout { proc } => self.absorb([time_us, tag, proc_word(*proc)]),
            TraceKind::Node { proc, change } => {
                let (what, value) = node_words(change);
                self.absorb([time_us, tag | what << 8, proc_word(*proc), value]);
            }
            _ => {
                let mut rare = TraceHasher(MIX);
                kind.hash(&mut rare);
                self.absorb([time_us, tag, rare.0]);
            }
        }
    }

    /// Folds `words` in pairs (each word xored with its lane's constant) and the pairs' xor
    /// into the state.
    #[inline(always)]
    fn absorb<const N: usize>(&mut self, words: [u64; N]) {
        let mut acc = 0u64;
        let mut i = 0;
        while i < N {
            let a = words[i] ^ LANE[i % LANE.len()];
            let b = if i + 1 < N {
                words[i + 1] ^ LANE[(i + 1) % LANE.len()]
            } else {
                LANE[(i + 1) % LANE.len()]
            };
            acc ^= fold(a, b);
            i += 2;
        }
        self.0 = fold(self.0 ^ acc, MIX);
    }
}

impl Hasher for TraceHasher {
    fn finish(&self) -> u64 {
        // The 64-bit finaliser of MurmurHash3.
        let mut x = self.0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        x ^ (x >> 33)
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            // The tail's length in the top byte: "ab" and "ab\0" differ.
            self.write_u64(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 56));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(MIX);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn write_i8(&mut self, i: i8) {
        self.write_i64(i64::from(i));
    }
    fn write_i16(&mut self, i: i16) {
        self.write_i64(i64::from(i));
    }
    fn write_i32(&mut self, i: i32) {
        self.write_i64(i64::from(i));
    }
    fn write_i64(&mut self, i: i64) {
        self.write_u64(i as u64);
    }
    fn write_isize(&mut self, i: isize) {
        self.write_i64(i as i64);
    }
}

/// Default number of recent events the log keeps.
pub const DEFAULT_LOG_CAPACITY: usize = 4096;

/// Recent events in a ring buffer, plus the running hash of all events.
///
/// With capacity 0 the log keeps no event at all, only the count and the hash: a chaos or
/// search run that never reads events back pays for hashing, not for storing (see
/// [`EventLog::set_capacity`]).
#[derive(Clone, Debug)]
pub struct EventLog {
    events: VecDeque<TraceEvent>,
    capacity: usize,
    next_seq: u64,
    hasher: TraceHasher,
}

impl EventLog {
    /// A log keeping the last `capacity` events (0: none, the hash and count only).
    pub fn new(capacity: usize) -> Self {
        EventLog {
            events: VecDeque::with_capacity(capacity.min(1 << 16)),
            capacity,
            next_seq: 0,
            hasher: TraceHasher::default(),
        }
    }

    /// Keeps at most the last `capacity` events from now on (0: none); events already over
    /// the new capacity are dropped, oldest first. The hash and count are unaffected.
    pub fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity;
        while self.events.len() > capacity {
            self.events.pop_front();
        }
        if capacity == 0 {
            self.events = VecDeque::new();
        }
    }

    /// How many recent events the log keeps.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Records an event at true time `time_us`; returns it (`None` with capacity 0).
    pub fn push(&mut self, time_us: u64, kind: TraceKind) -> Option<&TraceEvent> {
        let mut kept = None;
        self.push_with(time_us, kind, |ev| kept = Some(ev.seq));
        kept.and_then(|_| self.events.back())
    }

    /// Records an event at true time `time_us`, lending it to `see` first (a trace sink).
    pub fn push_with(&mut self, time_us: u64, kind: TraceKind, see: impl FnOnce(&TraceEvent)) {
        let ev = TraceEvent {
            seq: self.next_seq,
            time_us,
            kind,
        };
        self.next_seq = self.next_seq.saturating_add(1);
        self.hasher.event(time_us, &ev.kind);
        if self.capacity == 0 {
            return see(&ev);
        }
        if self.events.len() >= self.capacity {
            self.events.pop_front();
        }
        self.events.push_back(ev);
        if let Some(ev) = self.events.back() {
            see(ev);
        }
    }

    /// Events with `seq >= cursor` still held, and the cursor to pass next time. Events older
    /// than the buffer are gone; a caller notices by the first `seq` being above `cursor`.
    pub fn since(&self, cursor: u64) -> (Vec<TraceEvent>, u64) {
        self.since_where(cursor, |_| true)
    }

    /// Like [`EventLog::since`], keeping only the events `keep` accepts: the others are never
    /// copied. The cursor returned is the same (past every event held, kept or not).
    pub fn since_where(
        &self,
        cursor: u64,
        mut keep: impl FnMut(&TraceEvent) -> bool,
    ) -> (Vec<TraceEvent>, u64) {
        let oldest = self.events.front().map_or(self.next_seq, |e| e.seq);
        let skip = usize::try_from(cursor.saturating_sub(oldest)).unwrap_or(usize::MAX);
        let out: Vec<TraceEvent> = self
            .events
            .iter()
            .skip(skip)
            .filter(|e| keep(e))
            .cloned()
            .collect();
        (out, self.next_seq)
    }

    /// The `seq` of the oldest event still held (the next one's when none is).
    pub fn oldest(&self) -> u64 {
        self.events.front().map_or(self.next_seq, |e| e.seq)
    }

    /// The hash of every event recorded so far.
    pub fn hash(&self) -> u64 {
        self.hasher.finish()
    }

    /// How many events have been recorded.
    pub fn len(&self) -> u64 {
        self.next_seq
    }

    /// Whether nothing has been recorded.
    pub fn is_empty(&self) -> bool {
        self.next_seq == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::StepDownCause;
    use tenure::NodeId;

    fn hash_of(events: &[(u64, TraceKind)]) -> u64 {
        let mut log = EventLog::new(0);
        for (t, k) in events {
            log.push(*t, k.clone());
        }
        log.hash()
    }

    fn send(id: u64, from: u64, to: u64, msg: &'static str, value: Option<u64>) -> TraceKind {
        TraceKind::Send {
            id,
            from: Proc::Node(NodeId(from)),
            to: Proc::Node(NodeId(to)),
            msg,
            value,
            arrival_us: 900,
            duplicate_us: None,
        }
    }

    #[test]
    fn every_field_of_a_hot_event_reaches_the_hash() {
        let base = hash_of(&[(10, send(1, 1, 2, "AppendEntries", Some(3)))]);
        let variants = [
            (11, send(1, 1, 2, "AppendEntries", Some(3))),
            (10, send(2, 1, 2, "AppendEntries", Some(3))),
            (10, send(1, 2, 1, "AppendEntries", Some(3))),
            (10, send(1, 1, 3, "AppendEntries", Some(3))),
            (10, send(1, 1, 2, "AppendEntriesResponse", Some(3))),
            (10, send(1, 1, 2, "Heartbeat", Some(3))),
            (10, send(1, 1, 2, "AppendEntries", Some(4))),
            (10, send(1, 1, 2, "AppendEntries", None)),
            (10, send(1, 1, 2, "AppendEntries", Some(0))),
            (
                10,
                TraceKind::Deliver {
                    id: 1,
                    from: Proc::Node(NodeId(1)),
                    to: Proc::Node(NodeId(2)),
                    msg: "AppendEntries",
                },
            ),
        ];
        let mut seen = vec![base];
        for (t, k) in variants {
            let h = hash_of(&[(t, k.clone())]);
            assert!(!seen.contains(&h), "{k:?} at {t} collides");
            seen.push(h);
        }
        // Short labels (under eight bytes) and the duplicate time count too.
        let a = hash_of(&[(10, send(1, 1, 2, "Write", None))]);
        let b = hash_of(&[(10, send(1, 1, 2, "Renew", None))]);
        assert_ne!(a, b);
        let mut dup = send(1, 1, 2, "Write", None);
        if let TraceKind::Send { duplicate_us, .. } = &mut dup {
            *duplicate_us = Some(950);
        }
        assert_ne!(hash_of(&[(10, dup)]), a);
    }

    #[test]
    fn node_events_order_and_rare_events_reach_the_hash() {
        let n1 = Proc::Node(NodeId(1));
        let led = TraceKind::Node {
            proc: n1,
            change: NodeEvent::BecameLeader { value: 2 },
        };
        let down = TraceKind::Node {
            proc: n1,
            change: NodeEvent::SteppedDown {
                value: 2,
                reason: StepDownCause::HigherTerm,
            },
        };
        let quorum = TraceKind::Node {
            proc: n1,
            change: NodeEvent::SteppedDown {
                value: 2,
                reason: StepDownCause::CheckQuorumFailed,
            },
        };
        let forward = hash_of(&[(5, led.clone()), (5, down.clone())]);
        assert_ne!(forward, hash_of(&[(5, down.clone()), (5, led.clone())]));
        assert_ne!(
            hash_of(&[(5, down)]),
            hash_of(&[(5, quorum)]),
            "the cause counts"
        );
        let ended = |us| TraceKind::SplitBrainEnded { duration_us: us };
        assert_ne!(hash_of(&[(5, ended(1))]), hash_of(&[(5, ended(2))]));
        assert_ne!(
            hash_of(&[]),
            hash_of(&[(0, TraceKind::Timeout { proc: n1 })])
        );
    }
}
