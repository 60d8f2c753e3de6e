//! Recent trace events in a ring buffer, with the running hash of all of them.

use super::{TraceEvent, TraceHasher, TraceKind};
use core::hash::Hasher;
use std::collections::VecDeque;

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

    /// Records an event that nothing keeps or sees (capacity 0, no sink): it is counted and
    /// hashed from `kind` alone, never built into a [`TraceEvent`]. The hash is the one
    /// [`EventLog::push_with`] takes.
    #[inline(always)]
    pub fn count(&mut self, time_us: u64, kind: &TraceKind) {
        self.next_seq = self.next_seq.saturating_add(1);
        self.hasher.event(time_us, kind);
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
