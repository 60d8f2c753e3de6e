//! The processes: their status (up, paused, crashed), timers, inboxes, and the calls into
//! the algorithm adapter with their outputs and notes.

use super::*;

#[derive(Clone, Debug, Default)]
pub(super) struct ProcState {
    pub(super) status: ProcStatus,
    pub(super) timer_at: Option<Instant>,
    /// While `timer_at` is set: a deadline on the process's clock whose true time is no
    /// earlier than `timer_at` (the one it was computed from, or a later one found to fire
    /// no earlier). A clock change forces a reschedule, which clears `timer_at`.
    pub(super) timer_local: Instant,
    pub(super) timer_gen: u64,
    pub(super) pause_gen: u64,
    pub(super) inbox: VecDeque<Envelope>,
    pub(super) held: Vec<(usize, Payload)>,
    /// The machine's next timer as last seen, and when it was armed (for snapshots).
    pub(super) armed: Option<Armed>,
}

/// A timer and the moment it was armed: its kind and deadline (on the process's clock), the
/// process's clock reading then, and the true time then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Armed {
    pub(super) kind: &'static str,
    pub(super) deadline: Instant,
    pub(super) local: Instant,
    pub(super) at: Instant,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum ProcStatus {
    #[default]
    Up,
    Paused(Instant),
    Crashed,
}

impl World {
    /// Runs one adapter input for process `p`, then sends, records and reschedules.
    pub(super) fn call(&mut self, p: usize, f: impl FnOnce(&mut Machines, &mut Env<'_>)) {
        self.call_lending(p, |a, env, _| f(a, env));
    }

    /// [`World::call`], the input also given the queue, from which a delivery moves the
    /// payload of the message lent in its slot ([`Queue::take_payload_to`]).
    pub(super) fn call_lending(
        &mut self,
        p: usize,
        f: impl FnOnce(&mut Machines, &mut Env<'_>, &mut Queue),
    ) {
        let mut pause = None;
        {
            // The adapter and the buffers are disjoint fields: the buffers are lent in place,
            // not taken out and put back around every input.
            let mut env = Env {
                now: self.now,
                clocks: &self.clocks,
                out: &mut self.out_buf,
                notes: &mut self.note_buf,
                pause: &mut pause,
                wakes: &mut self.wake_buf,
            };
            f(&mut self.adapter, &mut env, &mut self.queue);
        }
        self.settle(p, pause);
    }

    /// What follows every adapter input, whatever its kind: the leader check, the notes, a
    /// pause, the sends, the reschedule and the wake-ups. `call` is generic over its input, so
    /// each kind of input has its own copy of `call`; this part is one function they share in
    /// the wasm modules (built for size), and inlined into each in native builds, as it was.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn settle(&mut self, p: usize, pause: Option<(usize, Duration)>) {
        self.touch(p);
        // Most inputs note nothing and ask for no wake-up, and many send nothing: only a
        // buffer that holds something is taken out to be drained (and put back for reuse).
        if !self.note_buf.is_empty() {
            let mut notes = std::mem::take(&mut self.note_buf);
            for note in notes.drain(..) {
                self.note(note);
            }
            self.note_buf = notes;
        }
        if let Some((q, d)) = pause {
            self.pause(q, d);
        }
        // Sends leave in the order they were queued, popped off the front of the buffer in
        // place: no drain to drop and no buffer to take out and put back (sending queues
        // nothing here).
        while let Some((from, to, payload)) = self.out_buf.pop_front() {
            match self.procs.get_mut(from) {
                Some(s) if matches!(s.status, ProcStatus::Paused(_)) => {
                    s.held.push((to, payload));
                }
                _ => self.send(from, to, payload),
            }
        }
        self.reschedule(p, false);
        if !self.wake_buf.is_empty() {
            let mut wakes = std::mem::take(&mut self.wake_buf);
            for (after, token) in wakes.drain(..) {
                self.schedule(self.now.saturating_add(after), Ev::Wake { p, token });
            }
            self.wake_buf = wakes;
        }
    }

    pub(super) fn note(&mut self, note: Note) {
        match note {
            Note::Node { p, change } => {
                let m = &mut self.tracker.metrics;
                if change.is_election() {
                    m.elections_total = m.elections_total.saturating_add(1);
                } else if change.is_step_down() {
                    m.leadership_lost_total = m.leadership_lost_total.saturating_add(1);
                }
                let proc = self.name(p);
                self.trace(TraceKind::Node { proc, change });
            }
            Note::Write(w) => {
                self.tracker.write(&w);
                self.trace(TraceKind::Write(w));
            }
            Note::Finding(f) => self.violate(f.kind, f.nodes, f.detail),
        }
    }

    /// Makes sure a timer event is queued for `p`'s next deadline. Events are lazy: one that
    /// fires early just re-queues itself, so a deadline pushed later costs nothing here.
    pub(super) fn reschedule(&mut self, p: usize, force: bool) {
        let (deadline, timer) = self.adapter.timers(p);
        let now = self.now;
        let Some(state) = self.procs.get_mut(p) else {
            return;
        };
        state.armed = match (timer, state.armed) {
            (None, _) => None,
            // The same timer still armed: kinds are static labels, so the pointer test
            // nearly always decides before the bytes are compared.
            (Some((kind, at)), Some(a))
                if a.deadline == at && (core::ptr::eq(a.kind, kind) || a.kind == kind) =>
            {
                Some(a)
            }
            (Some((kind, deadline)), _) => Some(Armed {
                kind,
                deadline,
                local: self.clocks.get(p).map_or(now, |c| c.read(now)),
                at: now,
            }),
        };
        if force {
            state.timer_at = None;
            state.timer_gen = state.timer_gen.saturating_add(1);
        }
        let Some(local) = deadline else {
            return;
        };
        // The true time of a deadline only grows with the deadline and with `now` (the clock
        // is monotone), so a deadline no earlier than `timer_local` is due no earlier than
        // the queued event: most inputs leave the deadline where it was or push it later,
        // and skip the clock's inverse.
        if state.timer_at.is_some() && state.timer_local <= local {
            return;
        }
        let at = self
            .clocks
            .get(p)
            .copied()
            .unwrap_or_default()
            .true_time_of(now, local);
        if state.timer_at.is_some_and(|t| t <= at) {
            state.timer_local = local;
            return;
        }
        state.timer_at = Some(at);
        state.timer_local = local;
        state.timer_gen = state.timer_gen.saturating_add(1);
        let generation = state.timer_gen;
        self.schedule(at, Ev::Timer { p, generation });
    }

    pub(super) fn fire_timer(&mut self, p: usize, generation: u64) {
        let Some(state) = self.procs.get_mut(p) else {
            return;
        };
        if state.timer_gen != generation {
            return;
        }
        state.timer_at = None;
        if state.status != ProcStatus::Up {
            return;
        }
        let due = self.adapter.deadline(p).is_some_and(|local| {
            self.clocks
                .get(p)
                .is_some_and(|c| c.read(self.now) >= local)
        });
        if due {
            let proc = self.name(p);
            self.trace(TraceKind::Timeout { proc });
            self.call(p, |a, e| a.timeout(e, p));
        } else {
            self.reschedule(p, false);
        }
    }

    pub(super) fn pause(&mut self, p: usize, d: Duration) {
        let now = self.now;
        let Some(state) = self.procs.get_mut(p) else {
            return;
        };
        let until = match state.status {
            ProcStatus::Crashed => return,
            ProcStatus::Paused(u) => u.max(now.saturating_add(d)),
            ProcStatus::Up => now.saturating_add(d),
        };
        state.status = ProcStatus::Paused(until);
        state.pause_gen = state.pause_gen.saturating_add(1);
        let generation = state.pause_gen;
        self.touch(p);
        self.schedule(until, Ev::Resume { p, generation });
        let proc = self.name(p);
        self.trace(TraceKind::Node {
            proc,
            change: NodeEvent::Paused {
                duration_us: d.as_micros(),
            },
        });
    }

    pub(super) fn resume(&mut self, p: usize, generation: u64) {
        let Some(state) = self.procs.get_mut(p) else {
            return;
        };
        if state.pause_gen != generation || !matches!(state.status, ProcStatus::Paused(_)) {
            return;
        }
        state.status = ProcStatus::Up;
        let held = std::mem::take(&mut state.held);
        let inbox = std::mem::take(&mut state.inbox);
        self.touch(p);
        let proc = self.name(p);
        self.trace(TraceKind::Node {
            proc,
            change: NodeEvent::Resumed,
        });
        for (to, payload) in held {
            self.send(p, to, payload);
        }
        for env in inbox {
            // A process may pause itself again while draining; keep the rest queued.
            match self.procs.get_mut(p) {
                Some(s) if s.status == ProcStatus::Up => {
                    let head = Head::of(&env);
                    let slot = self.queue.lend(Ev::Deliver(env));
                    self.hand_over(slot, head);
                }
                Some(s) => s.inbox.push_back(env),
                None => {}
            }
        }
        self.reschedule(p, true);
    }
}
