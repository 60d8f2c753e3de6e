//! Observation: metrics, violations, the trace hash, events, leaders and snapshots.

use super::*;
use std::collections::BTreeMap;

impl World {
    /// Metrics so far.
    pub fn metrics(&self) -> Metrics {
        let mut m = self.tracker.metrics.clone();
        m.fencing_token = self.adapter.fencing_token();
        m.events = self.log.len();
        m
    }

    /// Violations so far (the first [`MAX_VIOLATIONS`]).
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// How many violations of each kind, promised or not (a kind never violated is absent).
    /// Built on each call from the world's per-kind counters: the world keeps no map.
    pub fn violation_counts(&self) -> BTreeMap<InvariantKind, u64> {
        self.violation_counts.iter().collect()
    }

    /// Whether any invariant the algorithm promises was violated (the CLI's exit code).
    pub fn failed(&self) -> bool {
        self.violations.iter().any(|v| v.promised)
    }

    /// The stable hash of every event so far (same natively and in wasm).
    pub fn trace_hash(&self) -> u64 {
        self.log.hash()
    }

    /// Events with `seq >= cursor` still in the bounded log, and the next cursor.
    pub fn events_since(&self, cursor: u64) -> (Vec<TraceEvent>, u64) {
        self.log.since(cursor)
    }

    /// Like [`World::events_since`], only the events `keep` accepts (the others are not
    /// copied), with the same next cursor.
    pub fn events_since_where(
        &self,
        cursor: u64,
        keep: impl FnMut(&TraceEvent) -> bool,
    ) -> (Vec<TraceEvent>, u64) {
        self.log.since_where(cursor, keep)
    }

    /// The `seq` of the oldest event the bounded log still holds.
    pub fn oldest_event(&self) -> u64 {
        self.log.oldest()
    }

    /// Nodes acting as leader now: up, not paused, believing they lead.
    pub fn leaders(&self) -> Vec<NodeId> {
        (0..self.nodes)
            .filter(|&p| self.acting_leader(p))
            .filter_map(|p| match self.names.get(p) {
                Some(Proc::Node(id)) => Some(*id),
                _ => None,
            })
            .collect()
    }

    pub(super) fn acting_leader(&self, p: usize) -> bool {
        self.procs
            .get(p)
            .is_some_and(|s| s.status == ProcStatus::Up)
            && self.adapter.is_leader(p)
    }

    /// The scenario's `config` with every value the machines run with filled in (the
    /// scenario's own, or the simulator's default for a key it left out), in the scenario's
    /// keys and units (ms): what a page or a report shows without restating a default. Only
    /// the keys the algorithm reads appear.
    pub fn effective_config(&self) -> crate::scenario::AlgoConfig {
        let mut c = self.scenario.config.clone();
        self.adapter.effective_config(&mut c);
        c.retain_keys(self.scenario.algorithm.spec().config_keys);
        c
    }

    /// The world at this instant.
    pub fn snapshot(&self) -> Snapshot {
        let mut snap = self.snapshot_without_violations();
        snap.violations.clone_from(&self.violations);
        snap
    }

    /// [`World::snapshot`] with `violations` left empty: for a caller that keeps the ones it
    /// has seen (they only grow; [`World::violations`]) instead of copying up to
    /// [`MAX_VIOLATIONS`] of them every animation frame.
    pub fn snapshot_without_violations(&self) -> Snapshot {
        let nodes = (0..self.names.len()).map(|p| self.node_view(p)).collect();
        let mut in_flight: Vec<InFlight> = self
            .queue
            .in_flight()
            .map(|(at, e)| self.in_flight_view(at, e))
            .collect();
        in_flight.sort_by_key(|m| (m.arrival_us, m.id));
        let env_out = &mut VecDeque::new();
        let env_notes = &mut Vec::new();
        let env_pause = &mut None;
        let env_wakes = &mut Vec::new();
        let env = Env {
            now: self.now,
            clocks: &self.clocks,
            out: env_out,
            notes: env_notes,
            pause: env_pause,
            wakes: env_wakes,
        };
        Snapshot {
            time_us: self.now.as_micros(),
            algorithm: self.scenario.algorithm,
            nodes,
            in_flight,
            dropped: self.dropped.iter().cloned().collect(),
            blocked: self
                .network
                .blocked()
                .map(|(a, b)| (self.name(a), self.name(b)))
                .collect(),
            store: self.adapter.store_view(&env),
            resource: self.adapter.resource_view(),
            metrics: self.metrics(),
            violations: Vec::new(),
            promised: self.promised.clone(),
        }
    }

    /// Message `id` while it is on the wire: its sender, receiver, times and every field of
    /// its payload. `None` once it was delivered or dropped (or for an id never sent).
    pub fn message(&self, id: u64) -> Option<MessageDetail> {
        // The copies of a duplicated message differ only in their arrival: the one that
        // arrives first is shown (equal arrivals are equal details).
        let (at, e) = self
            .queue
            .in_flight()
            .filter(|(_, e)| e.id == id)
            .min_by_key(|&(at, _)| at)?;
        let InFlight {
            id,
            from,
            to,
            kind,
            value,
            send_us,
            arrival_us,
        } = self.in_flight_view(at, e);
        Some(MessageDetail {
            id,
            from,
            to,
            kind,
            value,
            send_us,
            arrival_us,
            payload: e.payload.clone(),
        })
    }

    /// Message `e`, due at true time `at`, as a snapshot lists it: the fields
    /// [`World::message`] shows besides the payload.
    fn in_flight_view(&self, at: Instant, e: &Envelope) -> InFlight {
        InFlight {
            id: e.id,
            from: self.name(e.from),
            to: self.name(e.to),
            kind: e.label,
            value: e.payload.value(),
            send_us: e.sent.as_micros(),
            arrival_us: at.as_micros(),
        }
    }

    pub(super) fn node_view(&self, p: usize) -> NodeView {
        let info = self.adapter.info(p);
        let clock = self.clocks.get(p).copied().unwrap_or_default();
        let to_true = |local: Instant| clock.true_time_of(self.now, local).as_micros();
        let status = match self.procs.get(p).map(|s| s.status) {
            Some(ProcStatus::Paused(_)) => Status::Paused,
            Some(ProcStatus::Crashed) => Status::Crashed,
            _ => Status::Up,
        };
        NodeView {
            id: self.name(p),
            role: info.role,
            term: info.term,
            token: info.token,
            leader: info.leader,
            status,
            clock_us: clock.read(self.now).as_micros(),
            lease_deadline_us: info.lease_deadline.map(to_true),
            lease_validity_us: info.lease_validity.map(Duration::as_micros),
            next_timer: info.next_timer.map(|(kind, at)| {
                let local_now = clock.read(self.now);
                let armed = self
                    .procs
                    .get(p)
                    .and_then(|s| s.armed)
                    .filter(|a: &Armed| a.kind == kind && a.deadline == at);
                let (armed_us, from) = armed.map_or((self.now.as_micros(), local_now), |a| {
                    (a.at.as_micros(), a.local)
                });
                TimerView {
                    kind,
                    deadline_us: to_true(at),
                    armed_us,
                    wait_us: at.saturating_since(from).as_micros(),
                }
            }),
            acting_leader: self.acting_leader(p),
            role_kind: if status == Status::Crashed {
                crate::event::RoleKind::Crashed
            } else {
                info.role.kind()
            },
            log_len: info.log_len,
            commit: info.commit,
            log: info.log,
        }
    }

    /// Notes that process `p`'s leadership may have changed (an adapter call or a status
    /// change); the next [`World::account`] looks at `p` only.
    pub(super) fn touch(&mut self, p: usize) {
        self.leading.touched.push(p);
    }

    /// Notes that any process's leadership may have changed (a fault).
    pub(super) fn touch_all(&mut self) {
        self.leading.all = true;
    }

    /// The number of acting leaders, updated for the processes touched since the last call:
    /// O(touched), not O(nodes), per event. A touched process's flag is set to what it is
    /// now, so the order they are looked at in does not matter.
    // Native builds inline this into the event loop (a call per event saved); the
    // wasm modules, built for size, keep it out of line (docs/performance.md).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn count_leaders(&mut self) -> u64 {
        if self.leading.all || self.leading.flags.len() != self.nodes {
            self.recount_leaders();
        }
        let leading = &mut self.leading;
        while let Some(p) = leading.touched.pop() {
            let now = self
                .procs
                .get(p)
                .is_some_and(|s| s.status == ProcStatus::Up)
                && self.adapter.is_leader(p);
            if let Some(flag) = leading.flags.get_mut(p)
                && *flag != now
            {
                *flag = now;
                leading.count = if now {
                    leading.count.saturating_add(1)
                } else {
                    leading.count.saturating_sub(1)
                };
            }
        }
        leading.count
    }

    /// Looks at every node (after a fault, and in a new world).
    #[cold]
    fn recount_leaders(&mut self) {
        let flags: Vec<bool> = (0..self.nodes).map(|p| self.acting_leader(p)).collect();
        let leading = &mut self.leading;
        leading.count = flags.iter().filter(|&&l| l).count() as u64;
        leading.flags = flags;
        leading.all = false;
        leading.touched.clear();
    }

    // Native builds inline this into the event loop (a call per event saved); the
    // wasm modules, built for size, keep it out of line (docs/performance.md).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(super) fn account(&mut self) {
        let leaders = self.count_leaders();
        let before = self.tracker.metrics.leaders_now;
        self.tracker.advance(self.now, leaders);
        if leaders >= 2 && before < 2 {
            // Reported once true time passes with it still open (`advance_to`): a window that
            // closes at the instant it opened is no window (docs/design.md, "split-brain window").
            self.split_since = self.now;
            self.leading.split_pending = true;
        } else if leaders < 2 && before >= 2 {
            if self.leading.split_pending {
                self.leading.split_pending = false;
            } else {
                let duration_us = self.now.saturating_since(self.split_since).as_micros();
                self.trace(TraceKind::SplitBrainEnded { duration_us });
            }
        }
    }

    /// Moves true time on to `t`; a split-brain window still open as it leaves the instant it
    /// opened at is reported first, at that instant (its start, and a violation where the
    /// algorithm promises none).
    pub(super) fn advance_to(&mut self, t: Instant) {
        if self.leading.split_pending && t > self.now {
            self.report_split();
        }
        self.now = self.now.max(t);
    }

    /// Reports the split-brain window [`World::advance_to`] found still open.
    #[cold]
    #[inline(never)]
    fn report_split(&mut self) {
        self.leading.split_pending = false;
        let leaders: Vec<Proc> = self.leaders().into_iter().map(Proc::Node).collect();
        let count = leaders.len();
        self.trace(TraceKind::SplitBrainStarted {
            leaders: leaders.clone(),
        });
        if self.promised.contains(&InvariantKind::SplitBrain) {
            self.violate(
                InvariantKind::SplitBrain,
                leaders,
                format!("{count} nodes act as leader at once with no pause or clock fault"),
            );
        }
    }

    pub(super) fn violate(&mut self, kind: InvariantKind, nodes: Vec<Proc>, detail: String) {
        let v = Violation {
            time_us: self.now.as_micros(),
            kind,
            nodes,
            detail,
            promised: self.promised.contains(&kind),
        };
        self.violation_counts.add(kind);
        self.trace(TraceKind::Violation(v.clone()));
        if self.violations.len() < MAX_VIOLATIONS {
            self.violations.push(v);
        }
    }
}

/// Which nodes act as leader, kept up to date incrementally (see [`World::account`]).
#[derive(Clone, Debug, Default)]
pub(super) struct Leading {
    flags: Vec<bool>,
    count: u64,
    touched: Vec<usize>,
    /// Recount every node (set by faults; a new world starts with no flags, so recounts too).
    all: bool,
    /// Two or more lead since `World::split_since`, an instant true time has not yet left:
    /// the window is reported when it does (`World::advance_to`), dropped if it closes first.
    split_pending: bool,
}
