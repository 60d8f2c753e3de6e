//! The event queue: what is scheduled, and the (time, rank, sequence) order it leaves in.

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

#[derive(Clone, Debug)]
pub(super) struct Scheduled {
    pub(super) at: Instant,
    /// 0 for ordinary events, 1 for faults: a fault applies after every other event due at
    /// its instant, which is exactly when [`World::inject`] applies one (see there).
    pub(super) rank: u8,
    pub(super) seq: u64,
    pub(super) ev: Ev,
}

impl Scheduled {
    pub(super) fn key(&self) -> (Instant, u8, u64) {
        (self.at, self.rank, self.seq)
    }
}

impl PartialEq for Scheduled {
    fn eq(&self, o: &Self) -> bool {
        self.key() == o.key()
    }
}
impl Eq for Scheduled {}
impl PartialOrd for Scheduled {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Scheduled {
    // Reversed: BinaryHeap is a max-heap, the earliest (time, rank, seq) must come out first.
    fn cmp(&self, o: &Self) -> Ordering {
        o.key().cmp(&self.key())
    }
}
