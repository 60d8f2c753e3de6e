//! The trace hash.
//!
//! It takes each event whole: its fields are packed into a few 64-bit words (a
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

use super::TraceKind;
use crate::event::NodeEvent;
use crate::process::Proc;
use core::hash::{Hash, Hasher};

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
    /// Takes in one event at true time `time_us` (scheme 3; the module docs). Inlined where
    /// the event is built, so the match on its kind folds away.
    #[inline(always)]
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

#[cfg(test)]
mod tests {
    use super::super::{EventLog, TraceKind};
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
