//! The Bully state machine: one node's view, its election and its announcements.

use super::config::{BullyConfig, ConfigError};
use super::event::{BullyEvent, StepDownReason};
use super::message::BullyMessage;
use super::output::{BullyOutput, BullyPersisted};
use super::rank;
use super::role::{BullyTimer, Role};
use crate::id::NodeId;
use crate::machine::{Machine, OutputQueue};
use crate::rng::Rng;
use crate::time::{Clock, Duration, Instant};
use crate::timer::TimerTable;
use alloc::vec::Vec;
use core::cmp::Ordering;

/// A coordinator announcement the node has adopted: `coordinator` leads in `epoch`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct View {
    coordinator: NodeId,
    epoch: u64,
}

/// Where the node is in the protocol; [`Role`] is its public summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Follower,
    AwaitingAnswers,
    AwaitingCoordinator,
    Coordinator,
}

/// How an announcement compares with the node's current view, ordered by
/// `(epoch, coordinator)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Judgement {
    /// Older than the view: the sender is behind and is told the view (rule 7).
    Stale,
    /// The view itself.
    Current,
    /// Newer than the view, or the node has no view.
    Newer,
}

/// One node of the Bully algorithm, as a sans-IO state machine.
///
/// # Inputs
/// - [`handle_message(now, from, msg)`](Self::handle_message): a [`BullyMessage`] from a
///   peer. Messages from ids outside `config.peers` are ignored.
/// - [`handle_timeout(now)`](Self::handle_timeout): fires every timer due at `now`. Early or
///   spurious calls are harmless.
/// - [`start_election(now)`](Self::start_election): the driver asks for an election now.
///
/// Every `now` is the caller's monotonic clock in microseconds; a reading earlier than one
/// already seen counts as the latest one seen.
///
/// # Outputs
/// - [`poll_output()`](Self::poll_output) yields [`BullyOutput`]s: `Send { to, msg }`,
///   `Persist(BullyPersisted)` (store it durably before any later `Send` leaves) and
///   `Event(BullyEvent)`.
/// - [`poll_timeout()`](Self::poll_timeout): the next deadline. A node always has exactly
///   one timer armed; [`next_timer()`](Self::next_timer) names it.
///
/// # Call order
/// 1. Build with [`new`](Self::new) (first boot) or [`restart`](Self::restart) (with the last
///    `Persist`ed state). The node starts as a follower with no coordinator and its
///    [`BullyTimer::FailureDetector`] armed at [`Instant::ZERO`], so:
/// 2. call `handle_timeout(now)` once `now >= poll_timeout()`; the first call starts the
///    node: the highest id elects (announces) at once, a lower id first waits one
///    [`election_stagger`](BullyConfig::election_stagger) per higher id and elects only if
///    no announcement came meanwhile (S14: the top id rejoins through an election the
///    others see; a lower id adopts a higher coordinator's announcement, or bullies a
///    lower one's);
/// 3. after every input, drain `poll_output()` until `None`, persisting before sending;
/// 4. feed each arriving message to `handle_message`, and repeat from 2.
///
/// # The rules
/// - A node starting an election sends `Election` to every higher id and waits
///   `answer_timeout`. If no `Answer` comes, it announces itself: it takes the epoch
///   `epoch() + 1`, emits `Persist`, then sends `Coordinator` to every peer.
/// - A node that gets an `Election` from a lower id sends `Answer`. A follower without a view
///   (or behind the sender's epoch) starts its own election; a follower of a coordinator in
///   the sender's epoch tells it that announcement instead. A coordinator re-announces itself
///   with a fresh epoch, unless the sender is behind its epoch (it is told the current
///   announcement). An `Election` from a
///   higher id changes nothing: that node's own announcement follows, and it is adopted
///   (a coordinator steps down) when it arrives.
/// - Announcements (`Coordinator`, and `Heartbeat` as the coordinator's standing claim) are
///   ordered by `(epoch, coordinator)`. A newer one from a higher id is adopted (a coordinator
///   steps down); a newer one from a lower id is bullied: the node elects, or as coordinator
///   re-announces above it. The highest live id wins (design rule 7).
/// - Any message from an epoch older than the node's view is answered with
///   `Coordinator { coordinator, epoch }` of that view, never silently dropped (rule 7).
///
/// # Message bound
/// Elections are staggered by rank ([`BullyConfig::election_stagger`], the `rank` module):
/// before an election it starts on its own, a node waits one stagger per candidate ranked
/// above it (at start-up: every higher id, so the highest id announces at once; when its
/// failure detector fires: the peers between it and the silent coordinator). The highest
/// live node elects first and the others adopt its `Coordinator` before their turn comes.
/// In a healthy cluster (messages delivered within the slack of `coordinator_timeout` over
/// `answer_timeout`), with `n` nodes:
/// - start-up costs `n - 1` messages (the highest id's announcement), then `n - 1`
///   heartbeats per `heartbeat_interval`: `101 (n - 1)` messages in the first 5 s;
/// - a coordinator crash costs at most `2 (n - 1)`: the highest live follower asks the `k`
///   ids above it (`k <= n - 1`) and announces to its `n - 1` peers.
///
/// Under faults (lost announcements, delays beyond the slack, a detector firing out of turn)
/// a node may elect while higher ones are alive; each round is still one per epoch, not per
/// message: a coordinator re-announces for a lower id's `Election` once per epoch (a sender
/// behind its epoch is told the current announcement alone), and a follower of a coordinator
/// in the sender's epoch replies with it instead of electing. The worst case, every node
/// electing at once, is Bully's own quadratic round (Garcia-Molina, 1982): at most
/// `3 n (n - 1) / 2 + n - 1` messages, an `Election`, an `Answer` and at most one
/// `Coordinator` telling the view (to a sender the coordinator outranks, or to an answer
/// that arrived after its asker followed) per pair of nodes, plus the announcement.
///
/// The price of the stagger is time: the highest live follower elects
/// `failure_timeout` (plus jitter) plus `r` staggers after the last heartbeat it heard,
/// where `r` is the number of peers between it and the silent coordinator (0 when the
/// coordinator's next-lower neighbour is alive), and a node starting while every id above
/// it is down waits one stagger per such id.
///
/// Bully elects one coordinator only in a connected network: under a partition each side
/// may elect its own (see the [module docs](super)).
#[derive(Clone, Debug)]
pub struct BullyNode {
    config: BullyConfig,
    /// `config.peers`, sorted ascending: sends go out in id order.
    peers: Vec<NodeId>,
    clock: Clock,
    rng: Rng,
    /// The highest epoch seen or announced; persisted.
    epoch: u64,
    state: State,
    /// Whether the start-up wait is over (or was cut short by an election or announcement).
    started: bool,
    view: Option<View>,
    timers: TimerTable<BullyTimer>,
    outputs: OutputQueue<BullyMessage, BullyPersisted, BullyEvent>,
}

impl BullyNode {
    /// A node on its first boot: epoch 0, no coordinator.
    ///
    /// Errors: the first rule of [`BullyConfig::validate`] that `config` breaks.
    pub fn new(config: BullyConfig) -> Result<Self, ConfigError> {
        Self::restart(config, BullyPersisted::default())
    }

    /// A node rebuilt after a crash from the last state it `Persist`ed.
    ///
    /// Volatile state (role, coordinator, timers) starts afresh: the node is a follower with
    /// no coordinator and rejoins through an election at its first `handle_timeout`
    /// (scenario S14, nirvik/iWant#1). Its epochs continue above `persisted.epoch`.
    ///
    /// Errors: the first rule of [`BullyConfig::validate`] that `config` breaks.
    pub fn restart(config: BullyConfig, persisted: BullyPersisted) -> Result<Self, ConfigError> {
        config.validate()?;
        let mut peers = config.peers.clone();
        crate::sort::sort_by(&mut peers, |a, b| a < b);
        let mut timers = TimerTable::new();
        timers.set(BullyTimer::FailureDetector, Instant::ZERO);
        // One input sends at most one message per peer.
        let outputs = OutputQueue::new(peers.len());
        Ok(BullyNode {
            rng: Rng::for_node(config.seed, config.id),
            config,
            peers,
            clock: Clock::new(),
            epoch: persisted.epoch,
            state: State::Follower,
            started: false,
            view: None,
            timers,
            outputs,
        })
    }

    // ----- Accessors -----

    /// This node's id.
    pub fn id(&self) -> NodeId {
        self.config.id
    }

    /// The configuration the node was built with.
    pub fn config(&self) -> &BullyConfig {
        &self.config
    }

    /// The node's role.
    pub fn role(&self) -> Role {
        match self.state {
            State::Follower => Role::Follower,
            State::AwaitingAnswers | State::AwaitingCoordinator => Role::Candidate,
            State::Coordinator => Role::Coordinator,
        }
    }

    /// The coordinator in the node's view: itself when coordinator, `None` while electing
    /// or before the first election.
    pub fn coordinator(&self) -> Option<NodeId> {
        self.view.map(|v| v.coordinator)
    }

    /// The epoch of the announcement behind [`coordinator`](Self::coordinator).
    pub fn coordinator_epoch(&self) -> Option<u64> {
        self.view.map(|v| v.epoch)
    }

    /// The highest epoch the node has seen or announced. Never decreases, across restarts
    /// too when the driver persists what it is given.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// The state to hand to [`restart`](Self::restart); equal to the last `Persist` emitted.
    pub fn persisted(&self) -> BullyPersisted {
        BullyPersisted { epoch: self.epoch }
    }

    /// The armed timer and its deadline, so the playground can label what the node awaits.
    pub fn next_timer(&self) -> Option<(BullyTimer, Instant)> {
        self.timers.next()
    }

    /// The next deadline at which to call [`handle_timeout`](Self::handle_timeout).
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.timers.next_deadline()
    }

    /// The next output, oldest first; `None` once drained. Drain after every input.
    ///
    /// A driver that never drains loses the oldest `Send`s and `Event`s beyond a cap of
    /// `2 * (peers + 8)` outputs (the pending `Persist` is kept), so memory stays bounded.
    pub fn poll_output(&mut self) -> Option<BullyOutput> {
        self.outputs.pop()
    }

    // ----- Inputs -----

    /// Handles `msg` from `from` at `now`. Peers' misbehaviour (unknown ids, stale epochs,
    /// duplicates, late replies) changes state or is ignored; it is never an error.
    pub fn handle_message(&mut self, now: Instant, from: NodeId, msg: BullyMessage) {
        let now = self.clock.observe(now);
        if !self.is_peer(from) {
            return;
        }
        match msg {
            BullyMessage::Election { epoch } => self.on_election(now, from, epoch),
            BullyMessage::Answer { epoch } => self.on_answer(now, from, epoch),
            BullyMessage::Coordinator { coordinator, epoch } => {
                self.on_announcement(now, from, coordinator, epoch)
            }
            BullyMessage::Heartbeat { epoch } => self.on_announcement(now, from, from, epoch),
        }
    }

    /// Fires every timer due at `now`, in deadline order. Each kind fires at most once per
    /// call, so even deadlines saturated at [`Instant::MAX`] cannot loop.
    pub fn handle_timeout(&mut self, now: Instant) {
        let now = self.clock.observe(now);
        let mut due = self.timers.due(now);
        while let Some(timer) = due.next(&mut self.timers) {
            match timer {
                BullyTimer::Heartbeat => self.send_heartbeats(now),
                BullyTimer::FailureDetector => self.on_failure_detector(now),
                BullyTimer::AwaitAnswer if self.state == State::AwaitingAnswers => {
                    self.announce(now)
                }
                BullyTimer::AwaitCoordinator if self.state == State::AwaitingCoordinator => {
                    self.begin_election(now)
                }
                BullyTimer::AwaitAnswer | BullyTimer::AwaitCoordinator => {}
            }
        }
    }

    /// Starts an election now, whatever the role.
    ///
    /// A node with no higher peer wins at once: it announces itself with a fresh epoch (a
    /// coordinator stays one). Otherwise it sends `Election` to every higher id, and a
    /// coordinator first steps down with [`StepDownReason::ElectionStarted`].
    pub fn start_election(&mut self, now: Instant) {
        let now = self.clock.observe(now);
        self.begin_election(now);
    }

    // ----- Message handlers -----

    /// `Election` from `from`: a lower id is answered and bullied; a higher id's own
    /// announcement will follow, so its `Election` needs nothing beyond the stale check.
    fn on_election(&mut self, now: Instant, from: NodeId, epoch: u64) {
        // Where the sender stands against this node's view: behind it, or not.
        let behind = self.view.is_some_and(|v| epoch < v.epoch);
        self.observe_epoch(epoch);
        if from < self.id() && self.state == State::Coordinator {
            self.send(from, BullyMessage::Answer { epoch: self.epoch });
            if behind {
                // The sender has not heard this epoch's announcement: tell it alone. A new
                // round for it would be one round per message (a start-up storm).
                self.reply_with_view(from);
            } else {
                // One fresh announcement per epoch overrides whatever the sender saw.
                self.announce(now);
            }
            return;
        }
        self.reply_if_stale(from, epoch);
        if from < self.id() {
            self.send(from, BullyMessage::Answer { epoch: self.epoch });
            match (self.state, self.view) {
                // A follower of a higher coordinator in the sender's epoch tells it so
                // instead of starting a round of its own (a stale sender was told above).
                (State::Follower, Some(view)) if epoch == view.epoch => {
                    let msg = BullyMessage::Coordinator {
                        coordinator: view.coordinator,
                        epoch: view.epoch,
                    };
                    self.send(from, msg);
                }
                (State::Follower, Some(_)) if behind => {}
                (State::Follower, _) => self.begin_election(now),
                _ => {}
            }
        }
    }

    /// `Answer` from `from`: a higher id is alive, so wait for its announcement.
    fn on_answer(&mut self, now: Instant, from: NodeId, epoch: u64) {
        self.observe_epoch(epoch);
        self.reply_if_stale(from, epoch);
        if from > self.id() && self.state == State::AwaitingAnswers {
            self.state = State::AwaitingCoordinator;
            self.timers.clear_all();
            self.timers.set(
                BullyTimer::AwaitCoordinator,
                now.saturating_add(self.config.coordinator_timeout),
            );
        }
    }

    /// An announcement that `coordinator` leads in `epoch`, heard from `from` (a
    /// `Coordinator` message, or a `Heartbeat` where `coordinator == from`).
    fn on_announcement(&mut self, now: Instant, from: NodeId, coordinator: NodeId, epoch: u64) {
        if coordinator != self.id() && !self.is_peer(coordinator) {
            return;
        }
        self.observe_epoch(epoch);
        match self.judge(coordinator, epoch) {
            Judgement::Stale => self.reply_with_view(from),
            Judgement::Current => {
                // Only the coordinator's own word proves it alive; hearsay does not.
                if from == coordinator && self.state == State::Follower {
                    self.arm_failure_detector(now);
                }
            }
            Judgement::Newer if coordinator > self.id() => self.follow(now, coordinator, epoch),
            // A lower id (or a stale life of this node) claims to lead: bully it.
            Judgement::Newer => match self.state {
                State::Coordinator => self.announce(now),
                State::Follower => self.begin_election(now),
                State::AwaitingAnswers | State::AwaitingCoordinator => {}
            },
        }
    }

    // ----- Transitions -----

    /// The failure detector fired: elect, unless this is the node's start, where it first
    /// waits one stagger per higher id (the highest id elects at once).
    fn on_failure_detector(&mut self, now: Instant) {
        if !self.started {
            self.started = true;
            let above = rank::rank(&self.peers, self.id(), None);
            if above > 0 {
                let wait = rank::wait(above, self.config.election_stagger());
                self.timers
                    .set(BullyTimer::FailureDetector, now.saturating_add(wait));
                return;
            }
        }
        self.begin_election(now);
    }

    /// Runs an election: announce at once with no higher peer, else ask the higher ids.
    fn begin_election(&mut self, now: Instant) {
        self.started = true;
        let higher: Vec<NodeId> = self
            .peers
            .iter()
            .copied()
            .filter(|p| *p > self.id())
            .collect();
        if higher.is_empty() {
            self.push_event(BullyEvent::ElectionStarted { epoch: self.epoch });
            self.announce(now);
            return;
        }
        self.step_down(StepDownReason::ElectionStarted);
        self.push_event(BullyEvent::ElectionStarted { epoch: self.epoch });
        self.view = None;
        self.state = State::AwaitingAnswers;
        self.timers.clear_all();
        self.timers.set(
            BullyTimer::AwaitAnswer,
            now.saturating_add(self.config.answer_timeout),
        );
        let msg = BullyMessage::Election { epoch: self.epoch };
        for to in higher {
            self.send(to, msg);
        }
    }

    /// Announces this node coordinator in a fresh epoch: Persist, event, then `Coordinator`
    /// to every peer.
    fn announce(&mut self, now: Instant) {
        // Saturates at u64::MAX, where ties are broken by id; no overflow, no panic.
        self.epoch = self.epoch.saturating_add(1);
        self.outputs.push(BullyOutput::Persist(self.persisted()));
        let epoch = self.epoch;
        self.view = Some(View {
            coordinator: self.id(),
            epoch,
        });
        self.state = State::Coordinator;
        self.timers.clear_all();
        self.timers.set(
            BullyTimer::Heartbeat,
            now.saturating_add(self.config.heartbeat_interval),
        );
        self.push_event(BullyEvent::BecameCoordinator { epoch });
        self.broadcast(BullyMessage::Coordinator {
            coordinator: self.id(),
            epoch,
        });
    }

    /// Adopts `coordinator`'s announcement of `epoch`.
    fn follow(&mut self, now: Instant, coordinator: NodeId, epoch: u64) {
        self.started = true;
        self.step_down(StepDownReason::HigherCoordinator { coordinator, epoch });
        self.view = Some(View { coordinator, epoch });
        self.state = State::Follower;
        self.timers.clear_all();
        self.arm_failure_detector(now);
        self.push_event(BullyEvent::CoordinatorChanged { coordinator, epoch });
    }

    /// Emits `SteppedDown` if the node is coordinator; the caller changes the state.
    fn step_down(&mut self, reason: StepDownReason) {
        if self.state != State::Coordinator {
            return;
        }
        let epoch = self.view.map_or(self.epoch, |v| v.epoch);
        self.push_event(BullyEvent::SteppedDown { epoch, reason });
    }

    fn send_heartbeats(&mut self, now: Instant) {
        if self.state != State::Coordinator {
            return;
        }
        let epoch = self.view.map_or(self.epoch, |v| v.epoch);
        self.broadcast(BullyMessage::Heartbeat { epoch });
        self.timers.set(
            BullyTimer::Heartbeat,
            now.saturating_add(self.config.heartbeat_interval),
        );
    }

    /// Arms the detector: `failure_timeout`, plus jitter, plus one stagger per peer between
    /// this node and its coordinator (the highest live follower elects first).
    fn arm_failure_detector(&mut self, now: Instant) {
        let jitter = self
            .rng
            .uniform_duration(Duration::ZERO, self.config.heartbeat_interval);
        let coordinator = self.view.map(|v| v.coordinator);
        let above = rank::rank(&self.peers, self.id(), coordinator);
        let wait = rank::wait(above, self.config.election_stagger());
        let after = self
            .config
            .failure_timeout
            .saturating_add(jitter)
            .saturating_add(wait);
        self.timers
            .set(BullyTimer::FailureDetector, now.saturating_add(after));
    }

    // ----- Helpers -----

    fn judge(&self, coordinator: NodeId, epoch: u64) -> Judgement {
        let Some(view) = self.view else {
            return Judgement::Newer;
        };
        match (epoch, coordinator).cmp(&(view.epoch, view.coordinator)) {
            Ordering::Less => Judgement::Stale,
            Ordering::Equal => Judgement::Current,
            Ordering::Greater => Judgement::Newer,
        }
    }

    /// Raises the highest epoch seen, persisting it.
    fn observe_epoch(&mut self, epoch: u64) {
        if epoch > self.epoch {
            self.epoch = epoch;
            self.outputs.push(BullyOutput::Persist(self.persisted()));
        }
    }

    /// Rule 7 for `Election` and `Answer`: a sender behind the view is told the view.
    fn reply_if_stale(&mut self, from: NodeId, epoch: u64) {
        if self.view.is_some_and(|v| epoch < v.epoch) {
            self.reply_with_view(from);
        }
    }

    /// Sends the view to `from`, unless `from` is the coordinator it names.
    fn reply_with_view(&mut self, from: NodeId) {
        if let Some(v) = self.view.filter(|v| v.coordinator != from) {
            let msg = BullyMessage::Coordinator {
                coordinator: v.coordinator,
                epoch: v.epoch,
            };
            self.send(from, msg);
        }
    }

    fn is_peer(&self, id: NodeId) -> bool {
        self.peers.binary_search(&id).is_ok()
    }

    fn send(&mut self, to: NodeId, msg: BullyMessage) {
        self.outputs.push(BullyOutput::Send { to, msg });
    }

    fn broadcast(&mut self, msg: BullyMessage) {
        for i in 0..self.peers.len() {
            if let Some(&to) = self.peers.get(i) {
                self.send(to, msg);
            }
        }
    }

    fn push_event(&mut self, event: BullyEvent) {
        self.outputs.push(BullyOutput::Event(event));
    }
}

impl Machine for BullyNode {
    type Peer = NodeId;
    type Inbound = BullyMessage;
    type Outbound = BullyMessage;
    type Persist = BullyPersisted;
    type Event = BullyEvent;

    fn handle_message(&mut self, now: Instant, from: NodeId, msg: BullyMessage) {
        BullyNode::handle_message(self, now, from, msg);
    }
    fn handle_timeout(&mut self, now: Instant) {
        BullyNode::handle_timeout(self, now);
    }
    fn poll_output(&mut self) -> Option<BullyOutput> {
        BullyNode::poll_output(self)
    }
    fn poll_timeout(&self) -> Option<Instant> {
        BullyNode::poll_timeout(self)
    }
}
