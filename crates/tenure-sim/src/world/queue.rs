//! The event queue: what is scheduled, and the (time, rank, sequence) order it leaves in.
//!
//! The binary heap holds only 24-byte keys: the true time, the rank and sequence packed in one
//! word, and the index of the event's slot. The events themselves (a message with its payload
//! can be a hundred bytes and more) stay put in a slab whose free slots are reused, so sifting
//! moves small keys and a run allocates no queue memory once the slab has grown to the peak.

use super::*;

#[derive(Clone, Debug)]
pub(super) struct Envelope {
    pub(super) id: u64,
    pub(super) from: usize,
    pub(super) to: usize,
    pub(super) sent: Instant,
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

/// The top bit of [`Key::order`]: 0 for ordinary events, 1 for faults. A fault applies after
/// every other event due at its instant, which is exactly when [`World::inject`] applies one.
const FAULT_RANK: u64 = 1 << 63;

/// One heap entry: when, in what order among events at the same time, and where the event is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key {
    at: u64,
    /// The rank in the top bit, the scheduling sequence number below it.
    order: u64,
    slot: u32,
}

impl PartialOrd for Key {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Key {
    // Reversed: BinaryHeap is a max-heap, the earliest (time, rank, seq) must come out first.
    // (at, order) is unique (sequence numbers are), so the slot never decides.
    fn cmp(&self, o: &Self) -> Ordering {
        (o.at, o.order).cmp(&(self.at, self.order))
    }
}

/// Scheduled events in (time, rank, sequence) order.
#[derive(Clone, Debug, Default)]
pub(super) struct Queue {
    heap: BinaryHeap<Key>,
    slab: Vec<Option<Ev>>,
    free: Vec<u32>,
    seq: u64,
}

impl Queue {
    /// Queues `ev` at true time `at`, after everything already queued for that time and rank.
    pub(super) fn push(&mut self, at: Instant, ev: Ev) {
        self.seq = self.seq.saturating_add(1);
        let rank = if matches!(ev, Ev::Fault(_)) {
            FAULT_RANK
        } else {
            0
        };
        let slot = match self.free.pop() {
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
        };
        self.heap.push(Key {
            at: at.as_micros(),
            order: rank | (self.seq & !FAULT_RANK),
            slot,
        });
    }

    /// Takes the earliest event out.
    pub(super) fn pop(&mut self) -> Option<(Instant, Ev)> {
        loop {
            let key = self.heap.pop()?;
            let ev = self.slab.get_mut(key.slot as usize).and_then(Option::take);
            self.free.push(key.slot);
            if let Some(ev) = ev {
                return Some((Instant::from_micros(key.at), ev));
            }
        }
    }

    /// True time of the earliest event.
    pub(super) fn next_at(&self) -> Option<Instant> {
        self.heap.peek().map(|k| Instant::from_micros(k.at))
    }

    /// Events queued.
    pub(super) fn len(&self) -> usize {
        self.heap.len()
    }

    /// Every queued event with its time, in no particular order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (Instant, &Ev)> + '_ {
        self.heap.iter().filter_map(|k| {
            self.slab
                .get(k.slot as usize)
                .and_then(Option::as_ref)
                .map(|ev| (Instant::from_micros(k.at), ev))
        })
    }

    /// Removes every event `remove` picks, returning them in (time, rank, sequence) order.
    pub(super) fn remove_where(&mut self, mut remove: impl FnMut(&Ev) -> bool) -> Vec<Ev> {
        let mut keys = std::mem::take(&mut self.heap).into_sorted_vec();
        // into_sorted_vec is ascending by Ord, which is reversed: the latest comes first.
        keys.reverse();
        let mut removed = Vec::new();
        let mut kept = Vec::with_capacity(keys.len());
        for key in keys {
            let slot = self.slab.get_mut(key.slot as usize);
            match slot {
                Some(s) if s.as_ref().is_some_and(&mut remove) => {
                    if let Some(ev) = s.take() {
                        removed.push(ev);
                    }
                    self.free.push(key.slot);
                }
                _ => kept.push(key),
            }
        }
        self.heap = BinaryHeap::from(kept);
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
}
