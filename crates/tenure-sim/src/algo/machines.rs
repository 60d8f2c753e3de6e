//! The world's handle on its adapter: the Raft adapter called directly, every other one
//! through `dyn Adapter`.
//!
//! The world calls its adapter several times per input (the input itself, then `timers`,
//! `is_leader`, and `on_leave` per message sent). Through `Box<dyn Adapter>` each is an
//! indirect call the compiler cannot inline; for the Raft adapter, the one the speed goals
//! are measured on (docs/performance.md), these calls are made on the concrete type, so the
//! small ones inline into the world's loop. Every other call, and every other adapter, goes
//! through [`Deref`](core::ops::Deref) to `dyn Adapter`, unchanged.

use super::raft::RaftAdapter;
use super::{Adapter, Env};
use crate::clock::SimClock;
use crate::message::Payload;
use tenure::Instant;

/// An adapter, with the Raft adapter's hot calls dispatched statically.
pub(crate) enum Machines {
    /// The Raft adapter, called on its concrete type.
    Raft(Box<RaftAdapter>),
    /// Any other adapter.
    Other(Box<dyn Adapter>),
}

impl Machines {
    /// Wraps what an algorithm spec's `build` made ([`Adapter::into_machines`]).
    pub(crate) fn new(adapter: Box<dyn Adapter>) -> Machines {
        adapter.into_machines()
    }

    /// The adapter as `dyn Adapter`, for the calls the world makes rarely.
    pub(crate) fn as_dyn(&self) -> &dyn Adapter {
        match self {
            Machines::Raft(a) => a.as_ref(),
            Machines::Other(a) => a.as_ref(),
        }
    }

    /// [`Machines::as_dyn`], mutably.
    pub(crate) fn as_dyn_mut(&mut self) -> &mut dyn Adapter {
        match self {
            Machines::Raft(a) => a.as_mut(),
            Machines::Other(a) => a.as_mut(),
        }
    }

    /// [`Adapter::deliver`].
    #[inline]
    pub(crate) fn deliver(&mut self, env: &mut Env<'_>, p: usize, from: usize, payload: Payload) {
        match self {
            Machines::Raft(a) => a.deliver(env, p, from, payload),
            Machines::Other(a) => a.deliver(env, p, from, payload),
        }
    }

    /// [`Adapter::timeout`].
    #[inline]
    pub(crate) fn timeout(&mut self, env: &mut Env<'_>, p: usize) {
        match self {
            Machines::Raft(a) => a.timeout(env, p),
            Machines::Other(a) => a.timeout(env, p),
        }
    }

    /// [`Adapter::timers`].
    #[inline]
    pub(crate) fn timers(&self, p: usize) -> (Option<Instant>, Option<(&'static str, Instant)>) {
        match self {
            Machines::Raft(a) => a.timers(p),
            Machines::Other(a) => a.timers(p),
        }
    }

    /// [`Adapter::deadline`].
    #[inline]
    pub(crate) fn deadline(&self, p: usize) -> Option<Instant> {
        match self {
            Machines::Raft(a) => a.deadline(p),
            Machines::Other(a) => a.deadline(p),
        }
    }

    /// [`Adapter::is_leader`].
    #[inline]
    pub(crate) fn is_leader(&self, p: usize) -> bool {
        match self {
            Machines::Raft(a) => a.is_leader(p),
            Machines::Other(a) => a.is_leader(p),
        }
    }

    /// [`Adapter::on_leave`].
    #[inline]
    pub(crate) fn on_leave(
        &mut self,
        now: Instant,
        clocks: &[SimClock],
        from: usize,
        payload: &mut Payload,
    ) {
        match self {
            Machines::Raft(a) => a.on_leave(now, clocks, from, payload),
            Machines::Other(a) => a.on_leave(now, clocks, from, payload),
        }
    }
}

impl Clone for Machines {
    fn clone(&self) -> Self {
        match self {
            Machines::Raft(a) => Machines::Raft(a.clone()),
            Machines::Other(a) => Machines::Other(a.clone_box()),
        }
    }
}

impl core::ops::Deref for Machines {
    type Target = dyn Adapter;

    fn deref(&self) -> &Self::Target {
        self.as_dyn()
    }
}

impl core::ops::DerefMut for Machines {
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.as_dyn_mut()
    }
}
