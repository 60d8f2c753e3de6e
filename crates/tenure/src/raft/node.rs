//! The Raft node: state, constructors, accessors, outputs and timers. The message handlers
//! live in `election.rs` (RequestVote, PreVote) and `replication.rs` (AppendEntries).

use super::config::{ConfigError, RaftConfig};
use super::event::{RaftEvent, RaftOutput, RaftTimer, Role, StepDownReason};
use super::log::RaftLog;
use super::message::{Entry, EntryData, Message};
use super::persist::{PersistOp, PersistentState};
use super::progress::Progress;
use crate::id::NodeId;
use crate::machine::{Machine, OutputQueue};
use crate::not_leader::NotLeader;
use crate::rng::Rng;
use crate::time::{Clock, Instant};
use crate::timer::TimerTable;
use crate::vec_map::{VecMap, VecSet};
use alloc::vec;
use alloc::vec::Vec;

/// Why [`RaftNode::campaign`] did not start an election.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum CampaignError {
    /// The node already leads `term`.
    #[error("already the leader of term {term}")]
    AlreadyLeader {
        /// The term it leads.
        term: u64,
    },
    /// The term is `u64::MAX`, so there is no higher term to campaign in.
    #[error("term {term} is the largest term (2^64 - 1); no higher term exists")]
    TermExhausted {
        /// The current term.
        term: u64,
    },
}

/// A Raft node as a sans-IO state machine: election (Raft §5.2), log replication and
/// commitment (§5.3, §5.4), PreVote (dissertation §9.6) and CheckQuorum (§6.2).
///
/// # Inputs
/// - [`handle_message(now, from, msg)`](Self::handle_message): a message from a peer.
///   Messages from ids outside the configuration are ignored.
/// - [`handle_timeout(now)`](Self::handle_timeout): call when `now >= poll_timeout()`;
///   early or repeated calls are harmless.
/// - [`propose(now, command)`](Self::propose): append a command (leader only).
/// - [`campaign(now)`](Self::campaign): start an election now (PreVote first when enabled).
///
/// # Outputs
/// - [`poll_output()`](Self::poll_output): [`RaftOutput::Persist`] (make durable, in order),
///   [`RaftOutput::Send`] and [`RaftOutput::Event`]. Every `Persist` comes out before the
///   `Send` that depends on it (design rule 6, scenario S11).
/// - [`poll_timeout()`](Self::poll_timeout): the next deadline; [`next_timer`](Self::next_timer)
///   also says which [`RaftTimer`] it is.
///
/// # Call order
/// 1. Build with [`new`](Self::new), or [`restart`](Self::restart) from the last
///    [`PersistentState`] (kept up to date with [`PersistentState::apply`]).
/// 2. After every input, drain `poll_output()` until `None`: make each `Persist` durable
///    before transmitting any `Send` that follows it.
/// 3. Read `poll_timeout()` and call `handle_timeout(now)` once it is due. A fresh or
///    restarted node reports `Instant::ZERO` ([`RaftTimer::Start`]): its first input, at
///    whatever `now`, arms the first election timeout.
///
/// Times are the caller's monotonic clock in microseconds; a `now` that goes backwards is
/// treated as the latest seen. Terms saturate: a node at term `u64::MAX` follows and votes
/// but can never campaign again.
///
/// Memory stays bounded per input: at most `max_inflight_appends` messages per peer plus one
/// reply, a few `Persist` ops and events. The log grows only through `propose`, one no-op
/// per won election, and entries a leader sends (at most `max_entries_per_append` per
/// message); [`compact_log`](Self::compact_log) drops a committed prefix every voter holds.
/// There is no snapshot transfer.
///
/// # Flow control and the message bound
/// A leader tracks each follower in a probe or replicate state with a bounded window of
/// messages in flight (after etcd-io/raft). A heartbeat or a duplicate, reordered or stale
/// response never starts a second resend chain, so a healthy cluster of `n` nodes sends
/// `O(n x (heartbeat rate + proposal rate))` messages per second whatever the duplication,
/// reordering or loss: per follower, one heartbeat (or probe) per heartbeat interval, at most
/// one `AppendEntries` per proposal, and a probe when batches arrive out of order, each
/// answered once per delivered copy (a duplicating link delivers at most two). With `h`
/// heartbeats and `p` proposals per second that is at most `4 (n - 1)(h + p)` messages per
/// second. Measured at 5 nodes, `h` = 20, `p` = 200 (bound 3,520): 1,887 without
/// duplication, 2,403 at 50% and about 2,740 at 100% (the storm regressions in `tenure-sim`
/// and `npm run bench` check it).
///
/// # CheckQuorum and the leader lease
/// With `check_quorum`, a leader steps down once the quorum it last heard from is more than
/// `T` old, judged on the contact times themselves, and checked before any input is handled:
/// a leader resuming from a long pause steps down on its first input, before it sends
/// anything as leader. With `leader_lease`, it also stops *acting* as leader
/// ([`is_acting_leader`](Self::is_acting_leader)) once `T` less the drift bound has passed
/// since it sent the latest `AppendEntries` a quorum answered.
#[derive(Clone, Debug)]
pub struct RaftNode {
    pub(crate) config: RaftConfig,
    clock: Clock,
    rng: Rng,
    pub(crate) timers: TimerTable<RaftTimer>,
    outputs: OutputQueue<Message, PersistOp, RaftEvent>,
    started: bool,
    pub(crate) role: Role,
    pub(crate) term: u64,
    pub(crate) voted_for: Option<NodeId>,
    persisted_hard_state: (u64, Option<NodeId>),
    pub(crate) log: RaftLog,
    pub(crate) commit_index: u64,
    pub(crate) leader_id: Option<NodeId>,
    /// When this node last accepted AppendEntries from `leader_id`.
    pub(crate) last_leader_contact: Option<Instant>,
    /// Granted (pre-)votes in the current round, this node included.
    pub(crate) votes: VecSet<NodeId>,
    /// Leader only: one entry per peer.
    pub(crate) progress: VecMap<NodeId, Progress>,
    /// Leader with `leader_lease`: until when it acts as leader, if it holds a lease.
    pub(crate) lease_until: Option<Instant>,
    /// Leader: when it won its term (responses echoing older send times are from before).
    pub(crate) leader_since: Instant,
    /// Reused buffers (quorum arithmetic, the peer list of a heartbeat tick), empty between
    /// inputs: the common path allocates nothing per message.
    pub(crate) scratch: Scratch,
}

/// Buffers a node reuses within one input; always left empty.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    pub(crate) indexes: Vec<u64>,
    pub(crate) times: Vec<Option<Instant>>,
    pub(crate) peers: Vec<NodeId>,
}

impl RaftNode {
    /// A fresh follower at term 0 with an empty log. Errors if `config` is invalid.
    pub fn new(config: RaftConfig) -> Result<Self, ConfigError> {
        Self::restart(config, PersistentState::default())
    }

    /// A follower rebuilt from the last persisted `state`: term, vote and log survive; the
    /// commit index, role, leader and timers are volatile and start afresh (Raft Figure 2).
    /// Errors if `config` is invalid, or if `state` is not one a node persists
    /// ([`ConfigError::State`]: its log's terms decrease, or exceed its term).
    pub fn restart(config: RaftConfig, state: PersistentState) -> Result<Self, ConfigError> {
        config.validate()?;
        state.validate().map_err(ConfigError::State)?;
        let mut timers = TimerTable::new();
        timers.set(RaftTimer::Start, Instant::ZERO);
        // One input sends at most a window of appends to each peer.
        let fanout = config
            .peers
            .len()
            .saturating_mul(config.max_inflight_appends);
        Ok(RaftNode {
            rng: Rng::for_node(config.seed, config.id),
            config,
            clock: Clock::new(),
            timers,
            outputs: OutputQueue::new(fanout),
            started: false,
            role: Role::Follower,
            term: state.term,
            voted_for: state.voted_for,
            persisted_hard_state: (state.term, state.voted_for),
            log: RaftLog::from_parts(state.compacted_index, state.compacted_term, state.log),
            commit_index: 0,
            leader_id: None,
            last_leader_contact: None,
            votes: VecSet::default(),
            progress: VecMap::default(),
            lease_until: None,
            leader_since: Instant::ZERO,
            scratch: Scratch::default(),
        })
    }

    // ----- inputs -----

    /// Handles `msg` from `from` (Raft Figure 2, "Rules for Servers").
    ///
    /// A higher term makes this node a follower of that term first (§5.1), except for a
    /// PreVote request or a granted PreVote response, which never change terms (§9.6), and
    /// a RequestVote refused by leader stickiness (CheckQuorum on, §4.2.3). Unknown senders
    /// (not in `peers`) are ignored.
    pub fn handle_message(&mut self, now: Instant, from: NodeId, msg: Message) {
        let now = self.begin(now);
        if !self.config.peers.contains(&from) {
            return;
        }
        let term = msg.term();
        if term > self.term {
            match msg {
                Message::RequestVote { .. } => {}
                Message::RequestVoteResponse {
                    pre_vote: true,
                    granted: true,
                    ..
                } => {}
                Message::AppendEntries { .. } => self.become_follower(now, term, Some(from)),
                _ => self.become_follower(now, term, None),
            }
        }
        match msg {
            Message::RequestVote {
                term,
                last_log_index,
                last_log_term,
                pre_vote,
            } => {
                self.handle_request_vote(now, from, term, (last_log_index, last_log_term), pre_vote)
            }
            Message::RequestVoteResponse {
                term,
                granted,
                pre_vote,
            } => self.handle_vote_response(now, from, term, granted, pre_vote),
            Message::AppendEntries {
                term,
                prev_log_index,
                prev_log_term,
                entries,
                leader_commit,
                context,
            } => self.handle_append_entries(
                now,
                from,
                term,
                (prev_log_index, prev_log_term),
                entries,
                (leader_commit, context),
            ),
            Message::AppendEntriesResponse {
                term,
                success,
                match_index,
                context,
            } => self.handle_append_response(now, from, term, (success, match_index), context),
        }
        self.flush_hard_state();
    }

    /// Fires every timer due at `now`: an election timeout starts an election (PreVote first
    /// when enabled), a heartbeat broadcasts AppendEntries, and a CheckQuorum check steps a
    /// leader down unless a majority was heard from since the last check.
    pub fn handle_timeout(&mut self, now: Instant) {
        let now = self.begin(now);
        let mut due = self.timers.due(now);
        while let Some(key) = due.next(&mut self.timers) {
            match key {
                RaftTimer::Start => {}
                RaftTimer::Election => {
                    if self.role != Role::Leader {
                        self.start_election(now);
                    }
                }
                RaftTimer::Heartbeat => {
                    if self.role == Role::Leader {
                        self.heartbeat(now);
                        self.timers.set(
                            RaftTimer::Heartbeat,
                            now.saturating_add(self.config.heartbeat_interval),
                        );
                    }
                }
                RaftTimer::CheckQuorum => self.check_quorum(now),
                // Only marks the moment the lease ends, so a driver polls the node then.
                RaftTimer::LeaderLease => self.refresh_lease(),
            }
        }
        self.flush_hard_state();
    }

    /// Appends `command` to the leader's log and starts replicating it. Returns its index.
    ///
    /// Errors with [`NotLeader`] on any other role. Acceptance is not commitment: watch for
    /// [`RaftEvent::Committed`] with an index at or above the returned one.
    pub fn propose(&mut self, now: Instant, command: u64) -> Result<u64, NotLeader> {
        let now = self.begin(now);
        if self.role != Role::Leader {
            return Err(NotLeader::NotLeading {
                term: Some(self.term),
                leader: self.leader_id,
            });
        }
        let index = self.append_local(EntryData::Command(command));
        // Streaming peers with room in their window get it now; the others when they ack
        // or at the next heartbeat (a probing peer has its one probe outstanding).
        let peers: Vec<NodeId> = self.progress.keys().copied().collect();
        for peer in peers {
            self.maybe_send_append(now, peer, false);
        }
        self.maybe_commit();
        self.flush_hard_state();
        Ok(index)
    }

    /// Starts an election now, as if the election timeout fired: a PreVote round when
    /// `pre_vote` is on, otherwise a campaign in `term + 1` (Raft §5.2).
    ///
    /// Errors with [`CampaignError::AlreadyLeader`] on a leader and
    /// [`CampaignError::TermExhausted`] at term `u64::MAX`.
    pub fn campaign(&mut self, now: Instant) -> Result<(), CampaignError> {
        let now = self.begin(now);
        if self.role == Role::Leader {
            return Err(CampaignError::AlreadyLeader { term: self.term });
        }
        if self.term == u64::MAX {
            return Err(CampaignError::TermExhausted { term: self.term });
        }
        self.start_election(now);
        self.flush_hard_state();
        Ok(())
    }

    // ----- outputs -----

    /// The next output, `None` when drained. Drain after every input; a driver that does
    /// not loses the oldest `Send`s and `Event`s beyond `2 × (peers × max_inflight_appends
    /// + 8)` outputs ([`OutputQueue`]); `Persist` ops are never dropped.
    pub fn poll_output(&mut self) -> Option<RaftOutput> {
        self.outputs.pop()
    }

    /// The earliest armed deadline: call `handle_timeout` once the caller's clock reaches it.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.timers.next_deadline()
    }

    // ----- accessors -----

    /// This node's id.
    pub fn id(&self) -> NodeId {
        self.config.id
    }
    /// The configuration it runs with.
    pub fn config(&self) -> &RaftConfig {
        &self.config
    }
    /// Its role.
    pub fn role(&self) -> Role {
        self.role
    }
    /// Its current term.
    pub fn term(&self) -> u64 {
        self.term
    }
    /// The vote it cast in the current term.
    pub fn voted_for(&self) -> Option<NodeId> {
        self.voted_for
    }
    /// The leader it knows for the current term (itself when leader).
    pub fn leader_id(&self) -> Option<NodeId> {
        self.leader_id
    }
    /// The highest index known committed (volatile: 0 after a restart).
    pub fn commit_index(&self) -> u64 {
        self.commit_index
    }
    /// The index of its last log entry, 0 if the log is empty.
    pub fn last_log_index(&self) -> u64 {
        self.log.last_index()
    }
    /// The term of its last log entry, 0 if the log is empty.
    pub fn last_log_term(&self) -> u64 {
        self.log.last_term()
    }
    /// Its log after the compacted prefix; `log()[0]` is index
    /// [`compacted_index`](Self::compacted_index)` + 1`.
    pub fn log(&self) -> &[Entry] {
        self.log.entries()
    }
    /// The last index compacted away by [`compact_log`](Self::compact_log) (0: none).
    pub fn compacted_index(&self) -> u64 {
        self.log.offset()
    }

    /// Log compaction: forgets every entry through `index` (at most the last index), keeping
    /// only its term, so memory stays flat however long the node runs. Returns the
    /// compaction point after (it never moves back).
    ///
    /// Tenure has no InstallSnapshot message, so the caller must only compact entries that
    /// are committed and held, the same, by **every** voter's durable log: no leader will then
    /// need to send them again (a follower asked to check an index below its compaction point
    /// treats the compacted prefix as matching, as etcd-io/raft answers an append below its
    /// commit index). The driver compacts its durable copy with
    /// [`PersistentState::compact`] at the same index. The simulator computes that index
    /// from every node's log; a deployment would need the same knowledge (or snapshots).
    pub fn compact_log(&mut self, index: u64) -> u64 {
        self.log.compact(index)
    }
    /// The earliest armed timer and its deadline, to label what the node waits for.
    pub fn next_timer(&self) -> Option<(RaftTimer, Instant)> {
        self.timers.next()
    }
    /// The deadline of one timer, if armed (the playground draws each as an arc).
    pub fn timer(&self, key: RaftTimer) -> Option<Instant> {
        self.timers.get(key)
    }
    /// Peers whose (pre-)vote it holds in the current round, itself included; empty unless
    /// it is a pre-candidate or candidate.
    pub fn votes(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.votes.iter().copied()
    }
    /// Leader only: the highest index known replicated on `peer`.
    pub fn match_index(&self, peer: NodeId) -> Option<u64> {
        self.progress.get(&peer).map(|p| p.match_index)
    }
    /// Whether it acts as leader as of the latest `now` it was given: it leads and, with
    /// `leader_lease`, holds a lease (see [`lease_until`](Self::lease_until)).
    pub fn is_acting_leader(&self) -> bool {
        self.role == Role::Leader
            && (!self.config.leader_lease
                || self
                    .lease_until
                    .is_some_and(|until| self.clock.now() < until))
    }
    /// Leader with `leader_lease`: the end of its lease, if it holds or held one this term.
    pub fn lease_until(&self) -> Option<Instant> {
        self.lease_until
    }
    /// Its durable state as of now (what a driver applying every `Persist` holds once the
    /// outputs are drained).
    pub fn persistent_state(&self) -> PersistentState {
        PersistentState {
            term: self.term,
            voted_for: self.voted_for,
            log: self.log.entries().to_vec(),
            compacted_index: self.log.offset(),
            compacted_term: self.log.offset_term(),
        }
    }

    // ----- shared internals -----

    /// Clamps `now` and, on the very first input, arms the first election timeout. A leader
    /// whose CheckQuorum deadline has passed steps down here, before the input is handled,
    /// so a leader resuming from a pause sends nothing as leader (dissertation §6.2).
    fn begin(&mut self, now: Instant) -> Instant {
        let now = self.clock.observe(now);
        if !self.started {
            self.started = true;
            self.timers.clear(RaftTimer::Start);
            self.arm_election_timer(now);
        }
        if self
            .timers
            .get(RaftTimer::CheckQuorum)
            .is_some_and(|at| at <= now)
        {
            self.timers.clear(RaftTimer::CheckQuorum);
            self.check_quorum(now);
        }
        now
    }

    /// Arms the election timer at `now + rand[min, max)` (Raft §5.2, design rule 6).
    pub(crate) fn arm_election_timer(&mut self, now: Instant) {
        let (min, max) = self.config.election_timeout_range();
        let timeout = self.rng.uniform_duration(min, max);
        self.timers
            .set(RaftTimer::Election, now.saturating_add(timeout));
    }

    /// Emits a `HardState` persist if the term or vote changed since the last one.
    pub(crate) fn flush_hard_state(&mut self) {
        let current = (self.term, self.voted_for);
        if current != self.persisted_hard_state {
            self.persisted_hard_state = current;
            self.outputs.push(RaftOutput::Persist(PersistOp::HardState {
                term: self.term,
                voted_for: self.voted_for,
            }));
        }
    }

    /// Queues a log persist op, after any pending hard state.
    pub(crate) fn persist_log(&mut self, op: PersistOp) {
        self.flush_hard_state();
        self.outputs.push(RaftOutput::Persist(op));
    }

    /// Queues `msg` to `to`, after every persist it may depend on.
    pub(crate) fn send(&mut self, to: NodeId, msg: Message) {
        self.flush_hard_state();
        self.outputs.push(RaftOutput::Send { to, msg });
    }

    /// Queues an event.
    pub(crate) fn emit(&mut self, event: RaftEvent) {
        self.outputs.push(RaftOutput::Event(event));
    }

    /// Whether this node heard from a live leader within the minimum election timeout `T`
    /// (a leader counts itself). PreVote and leader stickiness refuse votes while it holds.
    pub(crate) fn in_lease(&self, now: Instant) -> bool {
        if self.role == Role::Leader {
            return true;
        }
        match (self.leader_id, self.last_leader_contact) {
            (Some(_), Some(at)) => now < at.saturating_add(self.config.election_timeout),
            _ => false,
        }
    }

    /// Becomes a follower of `term` (>= the current term) under `leader`, resetting the
    /// election timer. A leader leaving for a higher term emits `SteppedDown`.
    pub(crate) fn become_follower(&mut self, now: Instant, term: u64, leader: Option<NodeId>) {
        if term > self.term {
            if self.role == Role::Leader {
                self.emit(RaftEvent::SteppedDown {
                    term: self.term,
                    reason: StepDownReason::HigherTerm { new_term: term },
                });
            }
            self.term = term;
            self.voted_for = None;
        }
        self.role = Role::Follower;
        self.leader_id = leader;
        self.last_leader_contact = leader.map(|_| now);
        self.votes.clear();
        self.progress.clear();
        self.lease_until = None;
        self.clear_leader_timers();
        self.arm_election_timer(now);
    }

    /// Disarms the leader's timers (heartbeat, CheckQuorum, lease). Native builds take one
    /// pass over the timer table (every delivery from a leader comes here); the wasm
    /// modules, built for size, keep a `clear` per key, whose code they share with the
    /// other callers (docs/performance.md).
    #[cfg(not(target_arch = "wasm32"))]
    fn clear_leader_timers(&mut self) {
        self.timers.clear_where(is_leader_timer);
    }

    /// [`RaftNode::clear_leader_timers`] as the wasm modules build it.
    #[cfg(target_arch = "wasm32")]
    fn clear_leader_timers(&mut self) {
        self.timers.clear(RaftTimer::Heartbeat);
        self.timers.clear(RaftTimer::CheckQuorum);
        self.timers.clear(RaftTimer::LeaderLease);
    }

    /// The `k`-th latest (0-based) of the peers' values, given a quorum of `quorum()`
    /// counting this node: the time by which a quorum, this node included, is covered.
    fn quorum_time(&mut self, of: impl Fn(&Progress) -> Option<Instant>) -> Option<Instant> {
        let needed = self.config.quorum().saturating_sub(1);
        if needed == 0 {
            return Some(Instant::MAX);
        }
        let mut times = core::mem::take(&mut self.scratch.times);
        times.extend(self.progress.values().map(of));
        crate::sort::sort_by(&mut times, |a, b| a > b);
        let at = times.get(needed.saturating_sub(1)).copied().flatten();
        times.clear();
        self.scratch.times = times;
        at
    }

    /// CheckQuorum (dissertation §6.2) on contact times: step down once the latest time
    /// by which a quorum was heard from is `T` or more ago; otherwise check again then.
    pub(crate) fn check_quorum(&mut self, now: Instant) {
        if self.role != Role::Leader || !self.config.check_quorum {
            return;
        }
        let heard = self.quorum_time(|p| Some(p.last_heard));
        let deadline = heard.map(|at| at.saturating_add(self.config.election_timeout));
        match deadline {
            Some(at) if at > now => self.timers.set(RaftTimer::CheckQuorum, at),
            _ => {
                self.emit(RaftEvent::SteppedDown {
                    term: self.term,
                    reason: StepDownReason::CheckQuorumFailed,
                });
                self.become_follower(now, self.term, None);
            }
        }
    }

    /// Leader lease: the lease ends `lease_duration` after the latest send time a quorum
    /// acknowledged; the timer marks that moment.
    pub(crate) fn refresh_lease(&mut self) {
        if self.role != Role::Leader || !self.config.leader_lease {
            return;
        }
        let sent = self.quorum_time(|p| p.acked_sent_at);
        self.lease_until = sent.map(|at| at.saturating_add(self.config.lease_duration()));
        match self.lease_until {
            Some(until) if until > self.clock.now() => {
                self.timers.set(RaftTimer::LeaderLease, until);
            }
            _ => self.timers.clear(RaftTimer::LeaderLease),
        }
    }

    /// Wins the election: append the no-op of the new term (§5.4.2, S13) and announce it.
    pub(crate) fn become_leader(&mut self, now: Instant) {
        self.role = Role::Leader;
        self.leader_id = Some(self.config.id);
        self.last_leader_contact = Some(now);
        self.votes.clear();
        self.lease_until = None;
        self.leader_since = now;
        let last_index = self.log.last_index();
        let window = self.config.max_inflight_appends;
        // The votes just counted are contact: CheckQuorum's first deadline is `T` from now.
        // Inserted one by one: `collect()` would sort first (a stable sort, code the wasm
        // module would carry only for this), and the peers are distinct already.
        self.progress.clear();
        for p in &self.config.peers {
            self.progress
                .insert(*p, Progress::new(last_index, window, now));
        }
        self.timers.clear(RaftTimer::Election);
        self.timers.set(
            RaftTimer::Heartbeat,
            now.saturating_add(self.config.heartbeat_interval),
        );
        if self.config.check_quorum {
            self.timers.set(
                RaftTimer::CheckQuorum,
                now.saturating_add(self.config.election_timeout),
            );
        }
        self.emit(RaftEvent::BecameLeader { term: self.term });
        self.append_local(EntryData::Noop);
        self.refresh_lease();
        let peers: Vec<NodeId> = self.progress.keys().copied().collect();
        for peer in peers {
            self.maybe_send_append(now, peer, true);
        }
        self.maybe_commit();
    }

    /// Appends an entry of the current term to the leader's log and persists it.
    fn append_local(&mut self, data: EntryData) -> u64 {
        let entry = Entry {
            term: self.term,
            data,
        };
        let index = self.log.push(entry);
        self.persist_log(PersistOp::Append {
            first_index: index,
            entries: vec![entry],
        });
        index
    }
}

impl Machine for RaftNode {
    type Peer = NodeId;
    type Inbound = Message;
    type Outbound = Message;
    type Persist = PersistOp;
    type Event = RaftEvent;

    fn handle_message(&mut self, now: Instant, from: NodeId, msg: Message) {
        RaftNode::handle_message(self, now, from, msg);
    }
    fn handle_timeout(&mut self, now: Instant) {
        RaftNode::handle_timeout(self, now);
    }
    fn poll_output(&mut self) -> Option<RaftOutput> {
        RaftNode::poll_output(self)
    }
    fn poll_timeout(&self) -> Option<Instant> {
        RaftNode::poll_timeout(self)
    }
}

/// The timers only a leader arms: what [`RaftNode::clear_leader_timers`] disarms.
#[cfg(not(target_arch = "wasm32"))]
fn is_leader_timer(k: RaftTimer) -> bool {
    matches!(
        k,
        RaftTimer::Heartbeat | RaftTimer::CheckQuorum | RaftTimer::LeaderLease
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_leader_timers_cleared_in_one_pass_are_the_three_clears() {
        use RaftTimer::*;
        let all = [Start, Election, Heartbeat, CheckQuorum, LeaderLease];
        // Every arming order of every subset (a bit per key, rotated through the orders).
        for set in 0..32u32 {
            for first in 0..all.len() {
                let mut t = TimerTable::new();
                for i in 0..all.len() {
                    let j = (first + i) % all.len();
                    if set >> j & 1 == 1 {
                        t.set(all[j], Instant::from_millis(j as u64));
                    }
                }
                let mut each = t.clone();
                each.clear(Heartbeat);
                each.clear(CheckQuorum);
                each.clear(LeaderLease);
                t.clear_where(is_leader_timer);
                assert_eq!(t, each);
            }
        }
    }
}
