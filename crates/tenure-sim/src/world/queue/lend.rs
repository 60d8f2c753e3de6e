//! Lending a queued event in its slot: a pop that leaves the event where it lies, so a
//! delivery reads its envelope and moves its payload to the adapter straight from the slab
//! (no copy of the whole event on the way out), and the calls that free the slot after.

use super::*;

impl Queue {
    /// Takes the earliest event out.
    #[cfg(test)] // the world pops with `pop_lent`
    pub(in crate::world) fn pop(&mut self) -> Option<(Instant, Ev)> {
        let (at, slot) = self.pop_lent()?;
        self.take(slot).map(|ev| (at, ev))
    }

    /// Takes the earliest key out and lends its event where it lies: the event stays in its
    /// slot, out of the queue's order (no key, so `in_flight`, `remove_where` and pushes
    /// never see it), until [`Queue::take`], [`Queue::take_payload`] or [`Queue::discard`]
    /// frees the slot. Every key names a slot that holds an event (a slot is emptied only
    /// with its key gone), so the first key is the event.
    pub(in crate::world) fn pop_lent(&mut self) -> Option<(Instant, usize)> {
        let k = self.pop_key()?;
        Some((Instant::from_micros(at_of(k)), slot_of(k)))
    }

    /// [`Queue::pop_lent`] of an event due no later than `t`; `None` (nothing taken) if the
    /// earliest is later or none is queued.
    pub(in crate::world) fn pop_lent_by(&mut self, t: Instant) -> Option<(Instant, usize)> {
        let k = self.pop_key_by(t.as_micros())?;
        Some((Instant::from_micros(at_of(k)), slot_of(k)))
    }

    /// Lends `ev` as [`Queue::pop_lent`] does, without queueing it: a delivery of a message
    /// that waited elsewhere (an inbox, manual mode) takes the same path as a queued one.
    pub(in crate::world) fn lend(&mut self, ev: Ev) -> usize {
        self.place(ev) as usize
    }

    /// The event lent in `slot`.
    pub(in crate::world) fn lent(&self, slot: usize) -> Option<&Ev> {
        self.slab.get(slot).and_then(Option::as_ref)
    }

    /// Takes the event lent in `slot` out and frees the slot. A slot that holds nothing is
    /// not freed again (it is free already), so the free list never names a slot twice.
    pub(in crate::world) fn take(&mut self, slot: usize) -> Option<Ev> {
        let ev = self.slab.get_mut(slot).and_then(Option::take);
        if ev.is_some() {
            self.free.push(slot as u32);
        }
        ev
    }

    /// Frees the lent `slot`, dropping its event (a message not delivered).
    #[inline(never)]
    pub(in crate::world) fn discard(&mut self, slot: usize) {
        drop(self.take(slot));
    }

    /// The payload of the message lent in `slot`, moved straight out of the slot, which is
    /// freed (`None` if the slot holds no message).
    #[cfg(test)] // the world hands the payload on with `take_payload_to`
    pub(in crate::world) fn take_payload(&mut self, slot: usize) -> Option<Payload> {
        let mut taken = None;
        self.take_payload_to(slot, |payload| taken = Some(payload));
        taken
    }

    /// Moves the payload of the message lent in `slot` straight out of the slot into `to`
    /// (not called if the slot holds no message); the slot is freed first. Handed on as an
    /// argument rather than returned in an `Option`, the payload is not copied again on its
    /// way into the adapter's input.
    pub(in crate::world) fn take_payload_to(&mut self, slot: usize, to: impl FnOnce(Payload)) {
        let Some(s) = self.slab.get_mut(slot) else {
            return;
        };
        let Some(Ev::Deliver(env)) = s else {
            return;
        };
        // Only the payload leaves the slot (taking the whole event would copy it all out
        // first); what stays behind owns nothing, so the emptied event needs no drop.
        let payload = std::mem::replace(&mut env.payload, Payload::Establish { token: 0 });
        std::mem::forget(s.take());
        self.free.push(slot as u32);
        to(payload);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_taken_payload_is_the_message_s_and_its_slot_is_freed_once() {
        use tenure::raft::{Entry, EntryData, Message};
        let mut q = Queue::default();
        let at = Instant::from_micros;
        let append = Payload::Raft(Message::AppendEntries {
            term: 2,
            prev_log_index: 1,
            prev_log_term: 1,
            entries: vec![Entry {
                term: 2,
                data: EntryData::Command(7),
            }],
            leader_commit: 1,
            context: 5,
        });
        let env = |payload| {
            Ev::Deliver(Envelope {
                id: 1,
                from: 0,
                to: 1,
                sent: Instant::ZERO,
                label: "AppendEntries",
                payload,
            })
        };
        q.push(at(1), env(append.clone()));
        q.push(
            at(2),
            Ev::Timer {
                p: 4,
                generation: 0,
            },
        );
        let (_, slot) = q.pop_lent().unwrap();
        assert_eq!(q.take_payload(slot), Some(append));
        assert!(q.lent(slot).is_none(), "the slot is empty");
        assert_eq!(q.take_payload(slot), None);
        assert!(q.take(slot).is_none());
        // The timer's slot gives no payload and stays lent until it is taken.
        let (_, timer_slot) = q.pop_lent().unwrap();
        assert_eq!(q.take_payload(timer_slot), None);
        assert!(q.take(timer_slot).is_some());
        for t in 3..6 {
            q.push(
                at(t),
                Ev::Timer {
                    p: 0,
                    generation: t,
                },
            );
        }
        assert_eq!(q.slab.len(), 3, "each freed slot is reused once");
    }
}
