//! The event queue: what is scheduled, and the (time, rank, sequence) order it leaves in.
//!
//! The 4-ary heap (`heap.rs`) holds 16-byte keys, one `u128` each, whose integer order is the
//! queue's order: the true time in the top 64 bits, then the rank (one bit), the scheduling sequence
//! number (31 bits) and the index of the event's slot (32 bits). Sifting compares one integer
//! and moves 16 bytes. The events themselves (a message with its payload can be a hundred
//! bytes and more) stay put in a slab whose free slots are reused, so a run allocates no queue
//! memory once the slab has grown to the peak. When the 31-bit sequence runs out (after two
//! billion events scheduled), the keys still queued are renumbered in their order.
//!
//! Faults (rank 1) wait in a heap of their own. A run queues its whole fault schedule up
//! front, so most of what is queued is faults far ahead, while nearly every pop and push is a
//! message, timer or wake-up: kept apart, those sift through a heap a few times smaller. A pop
//! takes the lesser of the two heaps' least keys, and the keys are the same as in one heap,
//! so the order (ties included) is the one a single heap gives.
//!
//! The world pops an event by borrowing its slot (`lend.rs`): a message's payload moves from
//! the slot straight into the adapter's input, not through a copy of the whole event.

use super::heap::QuadHeap;
use super::*;

mod lend;

#[derive(Clone, Debug)]
pub(super) struct Envelope {
    pub(super) id: u64,
    pub(super) from: usize,
    pub(super) to: usize,
    pub(super) sent: Instant,
    /// `payload.label()`, taken once when the message is sent: its delivery or drop is
    /// traced with the same label, without matching on the payload again.
    pub(super) label: &'static str,
    pub(super) payload: Payload,
}

#[derive(Clone, Debug)]
pub(super) enum Ev {
    Deliver(Envelope),
    Timer {
        p: usize,
        generation: u64,
    },
    Resume {
        p: usize,
        generation: u64,
    },
    Fault(Fault),
    /// A wake-up an adapter asked for (`Env::wake_after`).
    Wake {
        p: usize,
        token: u64,
    },
}

/// The rank bit of a key: 0 for ordinary events, 1 for faults. A fault applies after every
/// other event due at its instant, which is exactly when [`World::inject`] applies one.
const FAULT_RANK: u128 = 1 << 63;
/// Sequence numbers run in `1..SEQ_END` (31 bits above the slot's 32).
const SEQ_END: u64 = 1 << 31;

fn key(at: u64, rank: u128, seq: u64, slot: u32) -> u128 {
    u128::from(at) << 64 | rank | u128::from(seq) << 32 | u128::from(slot)
}

fn at_of(k: u128) -> u64 {
    (k >> 64) as u64
}

fn slot_of(k: u128) -> usize {
    (k as u32) as usize
}

/// Scheduled events in (time, rank, sequence) order.
///
/// Reading the messages in flight (a snapshot, every animation frame) walks the rank-0 heap
/// only: messages, at most one timer per process, resumptions and wake-ups, never the
/// faults an hour-long scenario queues up front by the thousand.
#[derive(Clone, Debug, Default)]
pub(super) struct Queue {
    /// Keys of rank 0: messages, timers, resumptions, wake-ups.
    heap: QuadHeap,
    /// Keys of rank 1: faults.
    faults: QuadHeap,
    slab: Vec<Option<Ev>>,
    free: Vec<u32>,
    seq: u64,
}

impl Queue {
    /// Queues `ev` at true time `at`, after everything already queued for that time and rank.
    // Native builds inline this into the event loop (a call per event saved); the
    // wasm modules, built for size, keep it out of line (docs/performance.md).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(super) fn push(&mut self, at: Instant, ev: Ev) {
        if self.seq + 1 >= SEQ_END {
            self.renumber();
        }
        self.seq += 1;
        let rank = if matches!(ev, Ev::Fault(_)) {
            FAULT_RANK
        } else {
            0
        };
        let slot = self.place(ev);
        let k = key(at.as_micros(), rank, self.seq, slot);
        if rank == 0 {
            self.heap.push(k);
        } else {
            self.faults.push(k);
        }
    }

    /// Puts `ev` in a free slot (or a new one) and returns the slot, with no key.
    // Inlined into `push` in native builds; the wasm modules share one copy with `lend`.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn place(&mut self, ev: Ev) -> u32 {
        match self.free.pop() {
            Some(slot) => {
                if let Some(s) = self.slab.get_mut(slot as usize) {
                    *s = Some(ev);
                }
                slot
            }
            None => {
                // More than 4 G events queued at once is far past any work budget.
                let slot = u32::try_from(self.slab.len()).unwrap_or(u32::MAX);
                self.slab.push(Some(ev));
                slot
            }
        }
    }

    /// Gives the queued keys the sequence numbers `1..=len` in their order, so new keys can
    /// follow them. Once in two billion pushes: out of line, so `push` stays small.
    #[cold]
    #[inline(never)]
    fn renumber(&mut self) {
        let mut keys = self.take_sorted();
        let mut seq = 0;
        for k in &mut keys {
            seq += 1;
            *k = key(at_of(*k), *k & FAULT_RANK, seq, slot_of(*k) as u32);
        }
        self.seq = seq;
        self.put_back(keys);
    }

    /// Every queued key, least first, leaving both heaps empty.
    fn take_sorted(&mut self) -> Vec<u128> {
        let mut keys = std::mem::take(&mut self.heap).into_sorted();
        keys.extend(std::mem::take(&mut self.faults).into_sorted());
        keys.sort_unstable();
        keys
    }

    /// Queues `keys` (sorted ascending) again, each in its rank's heap.
    fn put_back(&mut self, keys: Vec<u128>) {
        let (faults, rest): (Vec<u128>, Vec<u128>) =
            keys.into_iter().partition(|k| k & FAULT_RANK != 0);
        self.heap = QuadHeap::from_vec(rest);
        self.faults = QuadHeap::from_vec(faults);
    }

    /// Takes the least key out of either heap.
    #[inline(always)]
    fn pop_key(&mut self) -> Option<u128> {
        self.pop_key_by(u64::MAX)
    }

    /// Takes the least key out of either heap if its time is no later than `t` (`at_of`
    /// units): one look at the heaps' tops for the test and the pop, where `run_until` read
    /// `next_at` and then popped. One call of the heap's pop, on the heap chosen: one copy
    /// where it is inlined.
    #[inline(always)]
    fn pop_key_by(&mut self, t: u64) -> Option<u128> {
        let (least, from_faults) = match (self.heap.peek(), self.faults.peek()) {
            (Some(e), Some(f)) if f < e => (f, true),
            (Some(e), _) => (e, false),
            (None, Some(f)) => (f, true),
            (None, None) => return None,
        };
        if at_of(least) > t {
            return None;
        }
        let heap = if from_faults {
            &mut self.faults
        } else {
            &mut self.heap
        };
        heap.pop()
    }

    /// True time of the earliest event.
    pub(super) fn next_at(&self) -> Option<Instant> {
        let least = match (self.heap.peek(), self.faults.peek()) {
            (Some(e), Some(f)) => Some(e.min(f)),
            (e, f) => e.or(f),
        };
        least.map(|k| Instant::from_micros(at_of(k)))
    }

    /// Events queued.
    pub(super) fn len(&self) -> usize {
        self.heap.len() + self.faults.len()
    }

    /// Every queued event with its time, in no particular order.
    #[cfg(test)] // the tests' walk of the whole queue
    pub(super) fn iter(&self) -> impl Iterator<Item = (Instant, &Ev)> + '_ {
        self.heap.iter().chain(self.faults.iter()).filter_map(|k| {
            self.slab
                .get(slot_of(k))
                .and_then(Option::as_ref)
                .map(|ev| (Instant::from_micros(at_of(k)), ev))
        })
    }

    /// Every queued message with its time, in no particular order: as [`Queue::iter`]
    /// filtered to `Ev::Deliver`, walking the rank-0 heap alone (faults are never messages).
    pub(super) fn in_flight(&self) -> impl Iterator<Item = (Instant, &Envelope)> + '_ {
        self.heap.iter().filter_map(
            |k| match self.slab.get(slot_of(k)).and_then(Option::as_ref) {
                Some(Ev::Deliver(env)) => Some((Instant::from_micros(at_of(k)), env)),
                _ => None,
            },
        )
    }

    /// Removes every event `remove` picks, returning them in (time, rank, sequence) order.
    pub(super) fn remove_where(&mut self, mut remove: impl FnMut(&Ev) -> bool) -> Vec<Ev> {
        let keys = self.take_sorted();
        let mut removed = Vec::new();
        let mut kept = Vec::with_capacity(keys.len());
        for key in keys {
            let slot = slot_of(key);
            match self.slab.get_mut(slot) {
                Some(s) if s.as_ref().is_some_and(&mut remove) => {
                    if let Some(ev) = s.take() {
                        removed.push(ev);
                    }
                    self.free.push(slot as u32);
                }
                _ => kept.push(key),
            }
        }
        self.put_back(kept);
        removed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timer(p: usize) -> Ev {
        Ev::Timer { p, generation: 0 }
    }

    fn p_of(ev: &Ev) -> usize {
        match ev {
            Ev::Timer { p, .. } => *p,
            _ => usize::MAX,
        }
    }

    #[test]
    fn pops_by_time_then_rank_then_order_of_scheduling_and_reuses_slots() {
        let mut q = Queue::default();
        let at = Instant::from_micros;
        q.push(at(5), Ev::Fault(Fault::Heal {}));
        q.push(at(5), timer(1));
        q.push(at(3), timer(2));
        q.push(at(5), timer(3));
        let first: Vec<String> = (0..2)
            .filter_map(|_| q.pop())
            .map(|(t, ev)| format!("{}:{}", t.as_micros(), p_of(&ev)))
            .collect();
        assert_eq!(first, ["3:2", "5:1"]);
        q.push(at(4), timer(4));
        assert_eq!(q.slab.len(), 4, "a freed slot is reused");
        let rest: Vec<(u64, usize)> = std::iter::from_fn(|| q.pop())
            .map(|(t, ev)| (t.as_micros(), p_of(&ev)))
            .collect();
        assert_eq!(rest, [(4, 4), (5, 3), (5, usize::MAX)]);
        assert_eq!(q.len(), 0);
    }

    /// A slot taken twice is freed once: two later events never share it.
    #[test]
    fn a_slot_taken_twice_is_freed_once() {
        let mut q = Queue::default();
        let at = Instant::from_micros;
        q.push(at(1), timer(1));
        let (_, slot) = q.pop_lent().unwrap();
        assert!(q.take(slot).is_some());
        assert!(q.take(slot).is_none());
        q.push(at(2), timer(2));
        q.push(at(3), timer(3));
        assert_eq!(
            q.slab.len(),
            2,
            "the freed slot is reused once, then the slab grows"
        );
        let ps: Vec<usize> = std::iter::from_fn(|| q.pop())
            .map(|(_, ev)| p_of(&ev))
            .collect();
        assert_eq!(ps, [2, 3]);
    }

    #[test]
    fn renumbering_when_the_sequence_runs_out_keeps_the_order() {
        let mut q = Queue::default();
        let at = Instant::from_micros;
        q.seq = SEQ_END - 4;
        q.push(at(7), timer(1));
        q.push(at(7), Ev::Fault(Fault::Heal {}));
        q.push(at(7), timer(2));
        // The sequence is spent: these renumber what is queued, then follow it.
        q.push(at(7), timer(3));
        q.push(at(6), timer(4));
        q.push(at(7), timer(5));
        assert!(q.seq < 10, "renumbered from 1: {}", q.seq);
        let order: Vec<usize> = std::iter::from_fn(|| q.pop())
            .map(|(_, ev)| p_of(&ev))
            .collect();
        assert_eq!(order, [4, 1, 2, 3, 5, usize::MAX]);
    }

    #[test]
    fn remove_where_keeps_the_order_of_the_rest() {
        let mut q = Queue::default();
        for p in 0..6 {
            q.push(Instant::from_micros(10 - p as u64), timer(p));
        }
        let removed: Vec<usize> = q
            .remove_where(|ev| p_of(ev).is_multiple_of(2))
            .iter()
            .map(p_of)
            .collect();
        assert_eq!(removed, [4, 2, 0]);
        let rest: Vec<usize> = std::iter::from_fn(|| q.pop())
            .map(|(_, ev)| p_of(&ev))
            .collect();
        assert_eq!(rest, [5, 3, 1]);
    }

    fn message(id: u64) -> Ev {
        Ev::Deliver(Envelope {
            id,
            from: 0,
            to: 1,
            sent: Instant::ZERO,
            label: "Establish",
            payload: Payload::Establish { token: id },
        })
    }

    /// Messages as (true time in microseconds, id).
    type Times = Vec<(u64, u64)>;

    /// The messages in flight, as the whole queue shows them and as `in_flight` does.
    fn both_views(q: &Queue) -> (Times, Times) {
        let mut scanned: Times = q
            .iter()
            .filter_map(|(at, ev)| match ev {
                Ev::Deliver(e) => Some((at.as_micros(), e.id)),
                _ => None,
            })
            .collect();
        let mut in_flight: Times = q
            .in_flight()
            .map(|(at, e)| (at.as_micros(), e.id))
            .collect();
        scanned.sort_unstable();
        in_flight.sort_unstable();
        (scanned, in_flight)
    }

    #[test]
    fn the_messages_in_flight_are_the_queued_messages_through_pushes_pops_and_removals() {
        let mut q = Queue::default();
        let mut x: u64 = 11;
        for round in 0..600u64 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let at = Instant::from_micros(round + (x >> 58));
            match x >> 61 {
                0..=3 => q.push(at, message(round)),
                4 => q.push(at, Ev::Fault(Fault::Heal {})),
                _ => q.push(at, timer(round as usize)),
            }
            if round % 3 == 0 {
                q.pop();
            }
            if round % 50 == 49 {
                q.remove_where(|ev| matches!(ev, Ev::Deliver(e) if e.id % 7 == 0));
            }
            let (scanned, in_flight) = both_views(&q);
            assert_eq!(in_flight, scanned, "round {round}");
        }
        assert!(q.in_flight().count() > 10, "the test keeps messages queued");
        while q.pop().is_some() {
            let (scanned, in_flight) = both_views(&q);
            assert_eq!(in_flight, scanned);
        }
        assert_eq!(q.in_flight().count(), 0);
    }

    /// Pops, pushes and removals at random, with many ties in time, against a reference that
    /// sorts (time, rank, order of scheduling) from scratch: faults and the other events sit
    /// in two heaps, and the order must be the one a single ordering gives.
    #[test]
    fn pops_in_the_order_of_a_sorted_reference_through_random_pushes_pops_and_removals() {
        let mut q = Queue::default();
        // (time, is a fault, order of scheduling, id)
        let mut reference: Vec<(u64, bool, u64, usize)> = Vec::new();
        let mut x: u64 = 5;
        let mut next = |m: u64| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (x >> 17) % m
        };
        let id_of = |ev: &Ev| match ev {
            Ev::Timer { p, .. } => *p,
            Ev::Fault(Fault::Crash { node }) => node.0 as usize,
            _ => usize::MAX,
        };
        let mut now = 0;
        let mut popped = 0;
        let mut most_faults = 0;
        for id in 0..5_000usize {
            let spread = if next(4) == 0 { 1_000 } else { 8 };
            let at = now + next(spread);
            let fault = next(3) == 0;
            let ev = if fault {
                Ev::Fault(Fault::Crash {
                    node: tenure::NodeId(id as u64),
                })
            } else {
                timer(id)
            };
            q.push(Instant::from_micros(at), ev);
            reference.push((at, fault, id as u64, id));
            for _ in 0..next(3) {
                reference.sort_unstable();
                let want = (!reference.is_empty()).then(|| reference.remove(0));
                let want_at = want.map(|w| Instant::from_micros(w.0));
                assert_eq!(q.next_at(), want_at);
                let got = q.pop().map(|(t, ev)| (t.as_micros(), id_of(&ev)));
                assert_eq!(got, want.map(|w| (w.0, w.3)), "pop {popped}");
                if let Some((t, _)) = got {
                    now = t;
                }
                popped += 1;
            }
            if id % 700 == 699 {
                let removed: Vec<usize> = q
                    .remove_where(|ev| id_of(ev) % 5 == 0)
                    .iter()
                    .map(id_of)
                    .collect();
                reference.sort_unstable();
                let want: Vec<usize> = reference
                    .iter()
                    .filter(|r| r.3 % 5 == 0)
                    .map(|r| r.3)
                    .collect();
                assert_eq!(removed, want);
                reference.retain(|r| r.3 % 5 != 0);
            }
            assert_eq!(q.len(), reference.len());
            most_faults = most_faults.max(q.faults.len());
        }
        assert!(
            popped > 2_000 && most_faults > 5,
            "both heaps are used: {most_faults}"
        );
        reference.sort_unstable();
        let rest: Vec<usize> = std::iter::from_fn(|| q.pop())
            .map(|(_, ev)| id_of(&ev))
            .collect();
        assert_eq!(rest, reference.iter().map(|r| r.3).collect::<Vec<_>>());
    }
}
