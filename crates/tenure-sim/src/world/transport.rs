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
                self.trace(TraceKind::Send {
                    id,
                    from: pf,
                    to: pt,
                    msg: label,
                    value,
                    arrival_us: at.as_micros(),
                    duplicate_us: dup.map(Instant::as_micros),
                });
                let env = Envelope {
                    id,
                    from,
                    to,
                    sent: self.now,
                    label,
                    payload,
                };
                if self.hold(&env) {
                    return;
                }
                if let Some(d) = dup {
                    self.schedule(d, Ev::Deliver(env.clone()));
                }
                self.schedule(at, Ev::Deliver(env));
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

    pub(super) fn deliver(&mut self, env: Envelope) {
        if self.network.is_blocked(env.from, env.to) {
            return self.drop_msg(env.id, env.from, env.to, env.label, DropReason::Partition);
        }
        let Some(state) = self.procs.get_mut(env.to) else {
            return;
        };
        match state.status {
            ProcStatus::Crashed => {
                self.drop_msg(env.id, env.from, env.to, env.label, DropReason::Crashed);
            }
            ProcStatus::Paused(_) => state.inbox.push_back(env),
            ProcStatus::Up => self.hand_over(env),
        }
    }

    pub(super) fn hand_over(&mut self, env: Envelope) {
        let m = &mut self.tracker.metrics;
        m.messages_delivered = m.messages_delivered.saturating_add(1);
        let (from, to) = (self.name(env.from), self.name(env.to));
        self.trace(TraceKind::Deliver {
            id: env.id,
            from,
            to,
            msg: env.label,
        });
        let (p, q) = (env.to, env.from);
        self.call(p, |a, e| a.deliver(e, p, q, env.payload));
    }
}
