//! Calls an algorithm's own driver (`algo/<name>/driver.rs`) makes on a world for a test:
//! its adapter as the concrete type, and one input run as the world runs every input. The
//! world stays ignorant of what the calls mean; the algorithm's module gives them names.

use super::*;
use std::any::Any;

impl World {
    /// The world's adapter as `A`, if it is one.
    pub(crate) fn adapter_as<A: Any>(&self) -> Option<&A> {
        (self.adapter.as_dyn() as &dyn Any).downcast_ref::<A>()
    }

    /// Runs `f` as one input of process `proc` on the adapter as `A`, exactly as the world
    /// runs a delivery or a timer: what it sends leaves through the network (or is held),
    /// what it reports is traced and judged, its timers are rescheduled. `None` when the
    /// adapter is not an `A`, or `proc` is not in this world or not up.
    pub(crate) fn drive<A: Any, R>(
        &mut self,
        proc: Proc,
        f: impl FnOnce(&mut A, &mut Env<'_>, usize) -> R,
    ) -> Option<R> {
        let p = self.index_of(proc)?;
        if self.procs.get(p).map(|s| s.status) != Some(ProcStatus::Up) {
            return None;
        }
        (self.adapter.as_dyn_mut() as &mut dyn Any).downcast_mut::<A>()?;
        let mut result = None;
        self.call(p, |a, env| {
            if let Some(a) = (a.as_dyn_mut() as &mut dyn Any).downcast_mut::<A>() {
                result = Some(f(a, env, p));
            }
        });
        self.account();
        result
    }

    /// Process `proc`'s clock reading now.
    pub fn local_time(&self, proc: Proc) -> Option<Instant> {
        let p = self.index_of(proc)?;
        self.clocks.get(p).map(|c| c.read(self.now))
    }

    /// Whether `proc` is up, paused or crashed (`None` if it is not in this world): what a
    /// snapshot says of it, without building one.
    pub fn status(&self, proc: Proc) -> Option<Status> {
        let p = self.index_of(proc)?;
        Some(match self.procs.get(p)?.status {
            ProcStatus::Up => Status::Up,
            ProcStatus::Paused(_) => Status::Paused,
            ProcStatus::Crashed => Status::Crashed,
        })
    }

    /// The index of `proc` in this world, for an algorithm's driver.
    pub(crate) fn proc_index(&self, proc: Proc) -> Option<usize> {
        self.index_of(proc)
    }

    /// Drops every message from or to `proc` still on the wire or held (a driver replacing
    /// a process's machine: nothing the old machine asked, and no answer meant for it,
    /// reaches anyone); returns how many.
    pub(crate) fn drop_messages_of(&mut self, proc: Proc) -> usize {
        let Some(p) = self.index_of(proc) else {
            return 0;
        };
        let mut n = self.drop_held(|from, to| from == proc || to == proc);
        let removed = self
            .queue
            .remove_where(|ev| matches!(ev, Ev::Deliver(e) if e.from == p || e.to == p));
        for ev in removed {
            if let Ev::Deliver(e) = ev {
                n += 1;
                self.drop_msg(e.id, e.from, e.to, e.label, DropReason::Injected);
            }
        }
        n
    }
}
