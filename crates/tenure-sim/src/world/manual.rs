//! Manual delivery: the world holds every message a process sends until the driver delivers
//! or drops it, so a scripted test decides the interleaving (as etcd-io/raft's interaction
//! tests do) while timers, clocks, faults and the checker run exactly as in a free run.

use super::*;

/// A message held for manual delivery.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldMessage {
    /// Message id, as in the trace.
    pub id: u64,
    /// Sender.
    pub from: Proc,
    /// Receiver.
    pub to: Proc,
    /// Message kind (`RequestVote`, `Acquire`, ...).
    pub kind: &'static str,
    /// Term, epoch or token it carries.
    pub value: Option<u64>,
    /// Every field, as the algorithm sent it.
    pub payload: Payload,
}

impl World {
    /// Turns manual delivery on or off. While on, a message that leaves its sender (and is
    /// not dropped by the network: a blocked link or a loss still drops it) waits until
    /// [`World::deliver_held`] or [`World::drop_held`]; a duplicate the link makes is not
    /// kept (the script delivers a message as often as it wants by not dropping it).
    /// Turning it on also holds every message already in flight, in arrival order; turning
    /// it off sends every held message on its way, arriving now.
    pub fn set_manual_delivery(&mut self, on: bool) {
        self.manual = on;
        if on {
            // In (time, rank, sequence) order: the order they would have arrived in.
            let in_flight = self.queue.remove_where(|ev| matches!(ev, Ev::Deliver(_)));
            // Ids kept sorted (a `Vec`, not a `BTreeSet`: no B-tree code in the wasm modules);
            // the messages in flight are bounded by the storm bound, and this runs once per
            // switch, not per event.
            let mut seen: Vec<u64> = Vec::new();
            for ev in in_flight {
                if let Ev::Deliver(env) = ev
                    && let Err(i) = seen.binary_search(&env.id)
                {
                    seen.insert(i, env.id);
                    self.held_msgs.push(env);
                }
            }
        } else {
            for env in std::mem::take(&mut self.held_msgs) {
                self.schedule(self.now, Ev::Deliver(env));
            }
        }
    }

    /// Whether messages wait for [`World::deliver_held`].
    pub fn manual_delivery(&self) -> bool {
        self.manual
    }

    /// The held messages, oldest first.
    pub fn held(&self) -> Vec<HeldMessage> {
        self.held_msgs
            .iter()
            .map(|e| HeldMessage {
                id: e.id,
                from: self.name(e.from),
                to: self.name(e.to),
                kind: e.label,
                value: e.payload.value(),
                payload: e.payload.clone(),
            })
            .collect()
    }

    /// Delivers, oldest first, every message held now whose `(from, to)` `pick` accepts, as
    /// the network would (a link blocked since, or a crashed receiver, drops it; a paused
    /// one queues it). Messages these deliveries cause stay held. Returns how many left.
    pub fn deliver_held(&mut self, mut pick: impl FnMut(Proc, Proc) -> bool) -> usize {
        let chosen = self.take_held(&mut pick);
        let n = chosen.len();
        for env in chosen {
            self.deliver(env);
        }
        self.account();
        n
    }

    /// Drops every held message whose `(from, to)` `pick` accepts; returns how many.
    pub fn drop_held(&mut self, mut pick: impl FnMut(Proc, Proc) -> bool) -> usize {
        let chosen = self.take_held(&mut pick);
        self.drop_all(chosen)
    }

    fn drop_held_where(&mut self, pick: impl Fn(&Envelope) -> bool) -> usize {
        let (chosen, kept) = std::mem::take(&mut self.held_msgs)
            .into_iter()
            .partition(|e| pick(e));
        self.held_msgs = kept;
        self.drop_all(chosen)
    }

    fn drop_all(&mut self, chosen: Vec<Envelope>) -> usize {
        let n = chosen.len();
        for env in chosen {
            self.drop_msg(env.id, env.from, env.to, env.label, DropReason::Injected);
        }
        self.account();
        n
    }

    /// Delivers the held message `id` alone, as [`World::deliver_held`] delivers; `false`
    /// if no message `id` is held.
    pub fn deliver_held_id(&mut self, id: u64) -> bool {
        let Some(k) = self.held_msgs.iter().position(|e| e.id == id) else {
            return false;
        };
        let env = self.held_msgs.remove(k);
        self.deliver(env);
        self.account();
        true
    }

    /// Holds a second copy of the held message `id`, after every other (a duplicate the
    /// network makes); `false` if no message `id` is held.
    pub fn duplicate_held(&mut self, id: u64) -> bool {
        let Some(env) = self.held_msgs.iter().find(|e| e.id == id).cloned() else {
            return false;
        };
        self.held_msgs.push(env);
        true
    }

    /// Drops the held message `id` (every held copy); `false` if none is held.
    pub fn drop_held_id(&mut self, id: u64) -> bool {
        self.drop_held_where(|e| e.id == id) > 0
    }

    /// Asks `node` to start an election now, as its application may (Raft's `campaign`,
    /// Bully's `start_election`); what it sends is held or sent as any message is. Refused
    /// for a node that is not up, for a refusal of the machine's own (a Raft leader), and
    /// for algorithms without such a call. A lease contender campaigns from the start, and
    /// again when asked (after a release, or a machine a test put in with
    /// `tenure_sim::lease::LeaseWorld::replace_candidate`).
    pub fn campaign(&mut self, node: NodeId) -> Result<(), CampaignError> {
        let p = self
            .names
            .iter()
            .position(|n| *n == Proc::Node(node))
            .filter(|p| *p < self.nodes)
            .ok_or(CampaignError::NoSuchNode { node })?;
        if self.procs.get(p).map(|s| s.status) != Some(ProcStatus::Up) {
            return Err(CampaignError::NotUp { node });
        }
        let mut refused = None;
        self.call(p, |a, e| refused = a.campaign(e, p).err());
        self.account();
        match refused {
            Some(why) => Err(CampaignError::Refused {
                node,
                why: why.to_string(),
            }),
            None => Ok(()),
        }
    }

    fn take_held(&mut self, pick: &mut impl FnMut(Proc, Proc) -> bool) -> Vec<Envelope> {
        let (names, held) = (&self.names, std::mem::take(&mut self.held_msgs));
        let name = |p: usize| {
            names
                .get(p)
                .copied()
                .unwrap_or(Proc::Node(crate::algo::id_of(p)))
        };
        let (chosen, kept) = held
            .into_iter()
            .partition(|e| pick(name(e.from), name(e.to)));
        self.held_msgs = kept;
        chosen
    }

    /// Holds `env` (manual mode) instead of scheduling its arrival.
    pub(super) fn hold(&mut self, env: Envelope) {
        self.held_msgs.push(env);
    }
}

/// Why [`World::campaign`] was refused; one line each, naming the node.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CampaignError {
    /// The world has no election node with this id.
    #[error("campaign: there is no node {node} in this world")]
    NoSuchNode {
        /// The node asked.
        node: NodeId,
    },
    /// The node is crashed or paused.
    #[error("campaign: {node} is not up")]
    NotUp {
        /// The node asked.
        node: NodeId,
    },
    /// The machine refused (a Raft leader, or an algorithm without such a call).
    #[error("campaign: {node} refused: {why}")]
    Refused {
        /// The node asked.
        node: NodeId,
        /// The machine's reason.
        why: String,
    },
}
