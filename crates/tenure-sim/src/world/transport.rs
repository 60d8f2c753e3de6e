//! The transport: sending through the network model, drops, delivery and inboxes.

use super::*;

impl World {
    pub(super) fn send(&mut self, from: usize, to: usize, mut payload: Payload) {
        self.adapter
            .on_leave(self.now, &self.clocks, from, &mut payload);
        let id = self.next_msg;
        self.next_msg = self.next_msg.saturating_add(1);
        let m = &mut self.tracker.metrics;
        m.messages_sent = m.messages_sent.saturating_add(1);
        let (pf, pt) = (self.name(from), self.name(to));
        match self.network.send(self.now, from, to) {
            SendFate::Deliver(at, dup) => {
                let (label, value) = payload.label_value();
                self.trace_with(|| TraceKind::Send {
                    id,
                    from: pf,
                    to: pt,
                    msg: label,
                    value,
                    arrival_us: at.as_micros(),
                    duplicate_us: dup.map(Instant::as_micros),
                });
                let sent = self.now;
                let env = move |payload| Envelope {
                    id,
                    from,
                    to,
                    sent,
                    label,
                    payload,
                };
                if self.manual {
                    return self.hold(env(payload));
                }
                if let Some(d) = dup {
                    self.schedule(d, Ev::Deliver(env(payload.clone())));
                }
                self.schedule(at, Ev::Deliver(env(payload)));
            }
            SendFate::Blocked => {
                self.drop_msg(id, from, to, payload.label(), DropReason::Partition)
            }
            SendFate::Lost => self.drop_msg(id, from, to, payload.label(), DropReason::Loss),
        }
    }

    /// Drops every copy of message `id` still on the wire (a `drop-message` fault).
    pub(super) fn drop_in_flight(&mut self, id: u64) {
        let removed = self
            .queue
            .remove_where(|ev| matches!(ev, Ev::Deliver(e) if e.id == id));
        for ev in removed {
            if let Ev::Deliver(e) = ev {
                self.drop_msg(id, e.from, e.to, e.label, DropReason::Injected);
            }
        }
    }

    pub(super) fn drop_msg(
        &mut self,
        id: u64,
        from: usize,
        to: usize,
        kind: &'static str,
        reason: DropReason,
    ) {
        let m = &mut self.tracker.metrics;
        m.messages_dropped = m.messages_dropped.saturating_add(1);
        let (from, to) = (self.name(from), self.name(to));
        self.trace(TraceKind::Drop {
            id,
            from,
            to,
            msg: kind,
            reason,
        });
        if self.dropped.len() >= RECENT_DROPS {
            self.dropped.pop_front();
        }
        self.dropped.push_back(Dropped {
            id,
            from,
            to,
            kind,
            time_us: self.now.as_micros(),
            reason,
        });
    }

    /// Delivers `env` (a message that waited outside the queue) as a queued one is.
    pub(super) fn deliver(&mut self, env: Envelope) {
        let head = Head::of(&env);
        let slot = self.queue.lend(Ev::Deliver(env));
        self.deliver_lent(slot, head);
    }

    /// Delivers the message lent in the queue's `slot` ([`Queue::pop_lent`]), whose envelope
    /// reads `head`, or drops it, freeing the slot either way.
    pub(super) fn deliver_lent(&mut self, slot: usize, head: Head) {
        let reason = if self.network.is_blocked(head.from, head.to) {
            DropReason::Partition
        } else {
            match self.procs.get_mut(head.to) {
                Some(s) => match s.status {
                    ProcStatus::Up => return self.hand_over(slot, head),
                    ProcStatus::Paused(_) => {
                        if let Some(Ev::Deliver(env)) = self.queue.take(slot) {
                            s.inbox.push_back(env);
                        }
                        return;
                    }
                    ProcStatus::Crashed => DropReason::Crashed,
                },
                // No such process: dropped untraced.
                None => return self.queue.discard(slot),
            }
        };
        self.queue.discard(slot);
        self.drop_msg(head.id, head.from, head.to, head.label, reason);
    }

    /// Hands the message lent in `slot` to its receiver; its payload moves from the slot
    /// into the adapter's input.
    pub(super) fn hand_over(&mut self, slot: usize, head: Head) {
        let m = &mut self.tracker.metrics;
        m.messages_delivered = m.messages_delivered.saturating_add(1);
        let (from, to) = (self.name(head.from), self.name(head.to));
        self.trace_with(|| TraceKind::Deliver {
            id: head.id,
            from,
            to,
            msg: head.label,
        });
        let (p, q) = (head.to, head.from);
        self.call_lending(p, |a, e, queue| {
            queue.take_payload_to(slot, |payload| a.deliver(e, p, q, payload));
        });
    }
}

/// What a delivery reads of its envelope besides the payload (copied out of the slot).
#[derive(Clone, Copy)]
pub(super) struct Head {
    id: u64,
    from: usize,
    to: usize,
    label: &'static str,
}

impl Head {
    pub(super) fn of(env: &Envelope) -> Head {
        Head {
            id: env.id,
            from: env.from,
            to: env.to,
            label: env.label,
        }
    }
}
