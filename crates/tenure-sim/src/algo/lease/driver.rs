//! What a test asks of a lease world beyond faults: each candidate, the store and the
//! resource as they are now, a store that refuses renewals, a leadership check or a fenced
//! write with a chosen token at the current instant, a release, and a candidate replaced by
//! one built from a test's own [`LeaseConfig`].
//!
//! These calls are the lease's own, so they live here and not in the world: the world lends
//! its generic hooks (`World::drive`), and every call goes through them as an input of the
//! named process, so what a call makes a candidate send leaves through the network (or is
//! held in manual delivery), and what it reports is traced and judged by the checker.
//! Every method answers `None` in a world of another algorithm, for a process that is not
//! in the world, and (for the calls that feed a machine) for one that is not up.

use super::LeaseAdapter;
use crate::World;
use crate::algo::{Note, id_of};
use crate::message::Payload;
use crate::process::Proc;
use crate::trace::{WriteRecord, WriteRefusal};
use tenure::lease::{ConfigError, LeaseCandidate, LeaseConfig, LeaseKey, LeaseStore};
use tenure::{FencedResource, FencingToken, Instant, NodeId, NotLeader, StaleToken};

/// The lease calls on a [`World`] (see the module docs).
pub trait LeaseWorld {
    /// Node `node`'s candidate, while it runs (`None` once crashed).
    fn candidate(&self, node: NodeId) -> Option<&LeaseCandidate>;
    /// The lease store.
    fn lease_store(&self) -> Option<&LeaseStore>;
    /// The key the contenders compete for.
    fn lease_key(&self) -> Option<&LeaseKey>;
    /// The store's clock reading now.
    fn store_now(&self) -> Option<Instant>;
    /// The fenced resource (its value is the index of the last writer it accepted).
    fn resource(&self) -> Option<&FencedResource<u64>>;
    /// Runs `f` on the store with its clock reading now, outside the network (to plant
    /// another holder's lease, or switch the store off and on); the checker does not see
    /// what `f` does.
    fn with_store<R>(&mut self, f: impl FnOnce(&mut LeaseStore, Instant) -> R) -> Option<R>;
    /// From now on the store answers every `Renew` with `Rejected { NotHolder }` (`true`),
    /// or handles it again (`false`); returns the previous setting.
    fn refuse_renewals(&mut self, on: bool) -> Option<bool>;
    /// `node`'s `assert_leadership` at its clock's reading now.
    fn assert_leadership(&mut self, node: NodeId) -> Option<Result<FencingToken, NotLeader>>;
    /// A write presenting `token` from `node`, judged by the resource now (as a driver that
    /// skipped or passed its check writes): recorded as a write, and a refusal is reported
    /// to the candidate with `report_fenced`.
    fn write_with(
        &mut self,
        node: NodeId,
        token: FencingToken,
    ) -> Option<Result<FencingToken, StaleToken>>;
    /// The leader's path: `assert_leadership`, then [`LeaseWorld::write_with`] the token it
    /// gave; `None` also when the check fails.
    fn write_checked(&mut self, node: NodeId) -> Option<Result<FencingToken, StaleToken>> {
        let token = self.assert_leadership(node)?.ok()?;
        self.write_with(node, token)
    }
    /// `node` releases its lease.
    fn release(&mut self, node: NodeId) -> Option<()>;
    /// Replaces `node`'s candidate with a new one built from `config`, which waits for a
    /// `World::campaign`; every message from or to the old one still on the wire (or held)
    /// is dropped, so no answer meant for it reaches the new one. The world's own timings (write interval, fencing) stay. Errors: the
    /// config's own error from `LeaseCandidate::new`.
    fn replace_candidate(
        &mut self,
        node: NodeId,
        config: LeaseConfig,
    ) -> Option<Result<(), ConfigError>>;
}

fn lease(w: &World) -> Option<&LeaseAdapter> {
    w.adapter_as::<LeaseAdapter>()
}

impl LeaseWorld for World {
    fn candidate(&self, node: NodeId) -> Option<&LeaseCandidate> {
        let p = self.proc_index(Proc::Node(node))?;
        lease(self)?.cands.get(p)?.m.as_ref()
    }

    fn lease_store(&self) -> Option<&LeaseStore> {
        Some(&lease(self)?.store)
    }

    fn lease_key(&self) -> Option<&LeaseKey> {
        Some(&lease(self)?.base.key)
    }

    fn store_now(&self) -> Option<Instant> {
        lease(self)?;
        self.local_time(Proc::Store)
    }

    fn resource(&self) -> Option<&FencedResource<u64>> {
        Some(&lease(self)?.resource)
    }

    fn with_store<R>(&mut self, f: impl FnOnce(&mut LeaseStore, Instant) -> R) -> Option<R> {
        self.drive(Proc::Store, |a: &mut LeaseAdapter, env, p| {
            f(&mut a.store, env.local(p))
        })
    }

    fn refuse_renewals(&mut self, on: bool) -> Option<bool> {
        self.drive(Proc::Store, |a: &mut LeaseAdapter, _, _| {
            std::mem::replace(&mut a.refuse_renewals, on)
        })
    }

    fn assert_leadership(&mut self, node: NodeId) -> Option<Result<FencingToken, NotLeader>> {
        self.drive(Proc::Node(node), |a: &mut LeaseAdapter, env, p| {
            let now = env.local(p);
            let r = a.cands.get_mut(p)?.m.as_mut()?.assert_leadership(now);
            a.drain(env, p);
            Some(r)
        })?
    }

    fn write_with(
        &mut self,
        node: NodeId,
        token: FencingToken,
    ) -> Option<Result<FencingToken, StaleToken>> {
        self.drive(Proc::Node(node), |a: &mut LeaseAdapter, env, p| {
            let now = env.local(p);
            a.cands.get(p)?.m.as_ref()?;
            let before = a.resource.highest_token().0;
            let result = a.resource.write(token, p as u64);
            let highest = a.resource.highest_token().0;
            let accepted = result.is_ok();
            let stale = a
                .checker
                .on_write(id_of(p), token.0, accepted, highest, &mut a.found);
            env.findings(std::mem::take(&mut a.found));
            env.notes.push(Note::Write(WriteRecord {
                time_us: env.now.as_micros(),
                issued_us: env.now.as_micros(),
                from: Proc::Node(node),
                token: token.0,
                accepted,
                reason: (!accepted).then_some(WriteRefusal::StaleToken),
                stale,
                late: false,
                presented: Some(token.0),
                required: before,
            }));
            if let (Err(refused), Some(m)) = (result, a.cands.get_mut(p)?.m.as_mut()) {
                m.report_fenced(now, refused);
            }
            a.drain(env, p);
            Some(result)
        })?
    }

    fn release(&mut self, node: NodeId) -> Option<()> {
        self.drive(Proc::Node(node), |a: &mut LeaseAdapter, env, p| {
            let now = env.local(p);
            a.cands.get_mut(p)?.m.as_mut()?.release(now);
            a.drain(env, p);
            Some(())
        })?
    }

    fn replace_candidate(
        &mut self,
        node: NodeId,
        config: LeaseConfig,
    ) -> Option<Result<(), ConfigError>> {
        let built = match LeaseCandidate::new(config) {
            Ok(m) => m,
            Err(e) => return lease(self).map(|_| Err(e)),
        };
        self.drive(Proc::Node(node), |a: &mut LeaseAdapter, env, p| {
            let c = a.cands.get_mut(p)?;
            c.m = Some(built);
            c.next_write = None;
            a.drain(env, p);
            Some(())
        })??;
        self.drop_messages_of(Proc::Node(node));
        Some(Ok(()))
    }
}

/// The payload a refused renewal gets (kept here with the switch that asks for it).
pub(super) fn refused_renewal(req: &tenure::lease::StoreRequest) -> Payload {
    Payload::StoreResponse(tenure::lease::StoreResponse {
        id: req.id,
        key: req.key.clone(),
        result: tenure::lease::StoreResult::Rejected {
            reason: tenure::lease::RejectReason::NotHolder,
        },
    })
}
