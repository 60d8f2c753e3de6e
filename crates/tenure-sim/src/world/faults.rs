//! The faults: injecting one now, and the interpreter that applies scheduled and injected
//! faults to links, processes and clocks.

use super::*;

impl World {
    /// Applies `fault` at the current true time, exactly as a fault the scenario schedules
    /// at this time would be: first every event still due at this instant is processed
    /// (scheduled faults apply after the other events of their instant), then the fault.
    /// It is recorded, so [`World::replay_scenario`] lists it at this time and replays to the
    /// same trace.
    ///
    /// Errors: [`FaultError::NotApplicable`] when the fault names a process that is not in
    /// this world or does not apply to its algorithm; nothing happens then.
    pub fn inject(&mut self, fault: Fault) -> Result<(), FaultError> {
        validate_fault(&self.scenario, &fault).map_err(FaultError::NotApplicable)?;
        self.run_until(self.now);
        if let Fault::DropMessage { id } = fault
            && self.message(id).is_none()
        {
            return Err(FaultError::NotApplicable(format!(
                "drop-message: message {id} is not in flight (delivered, dropped or never sent)"
            )));
        }
        let at_ms = Ms(Duration::from_micros(self.now.as_micros()));
        self.apply(fault.clone())?;
        self.injected.push(TimedFault { at_ms, fault });
        self.account();
        Ok(())
    }

    /// The faults applied through [`World::inject`], at their true times, in order.
    pub fn injected(&self) -> &[TimedFault] {
        &self.injected
    }

    /// The scenario plus every injected fault at its time: a world built from it replays
    /// this one event for event (same trace hash). Faults are ordered by time; faults of the
    /// same instant keep the order they were applied in.
    pub fn replay_scenario(&self) -> Scenario {
        let mut s = Scenario::clone(&self.scenario);
        s.faults.extend(self.injected.iter().cloned());
        s.faults.sort_by_key(|f| f.at_ms);
        s
    }

    pub(super) fn node_index(&self, id: NodeId) -> Result<usize, FaultError> {
        self.index_of(Proc::Node(id))
            .ok_or_else(|| FaultError::NotApplicable(format!("no node {id}")))
    }

    pub(super) fn indexes(&self, procs: &[Proc]) -> Vec<usize> {
        procs.iter().filter_map(|p| self.index_of(*p)).collect()
    }

    pub(super) fn links(&mut self, from: &[Proc], to: &[Proc], f: impl Fn(&mut LinkParams)) {
        let (from, to) = (self.indexes(from), self.indexes(to));
        for &a in &from {
            for &b in &to {
                if a != b {
                    let mut params = self.network.link(a, b);
                    f(&mut params);
                    self.network.set_link(a, b, params);
                }
            }
        }
    }

    pub(super) fn apply(&mut self, fault: Fault) -> Result<(), FaultError> {
        if !(self.scenario.algorithm.spec().keeps_premise)(&self.scenario, &fault) {
            self.promised.retain(|k| *k != InvariantKind::SplitBrain);
        }
        self.trace(TraceKind::Fault {
            fault: fault.clone(),
        });
        // Faults are rare: recount every node's leadership after one.
        self.touch_all();
        match &fault {
            Fault::Crash { node } => {
                let p = self.node_index(*node)?;
                if self
                    .procs
                    .get(p)
                    .is_some_and(|s| s.status == ProcStatus::Crashed)
                {
                    return Ok(());
                }
                if self.acting_leader(p) {
                    self.tracker.leader_crashed(self.now);
                }
                if let Some(s) = self.procs.get_mut(p) {
                    s.status = ProcStatus::Crashed;
                    s.inbox.clear();
                    s.held.clear();
                    s.pause_gen = s.pause_gen.saturating_add(1);
                }
                self.call(p, |a, e| a.crash(e, p));
                self.reschedule(p, true);
                self.trace(TraceKind::Node {
                    proc: Proc::Node(*node),
                    change: NodeEvent::Crashed,
                });
            }
            Fault::Restart { node } => {
                let p = self.node_index(*node)?;
                if self
                    .procs
                    .get(p)
                    .is_some_and(|s| s.status == ProcStatus::Crashed)
                {
                    if let Some(s) = self.procs.get_mut(p) {
                        s.status = ProcStatus::Up;
                    }
                    self.trace(TraceKind::Node {
                        proc: Proc::Node(*node),
                        change: NodeEvent::Restarted,
                    });
                    self.reschedule(p, true);
                    self.call(p, |a, e| a.restart(e, p));
                }
            }
            Fault::Pause {
                target,
                duration_ms,
            } => {
                if let Some(p) = self.index_of(*target) {
                    self.pause(p, duration_ms.duration());
                }
            }
            Fault::Partition { groups } => {
                let groups: Vec<Vec<usize>> = groups.iter().map(|g| self.indexes(g)).collect();
                for (i, g) in groups.iter().enumerate() {
                    for (j, h) in groups.iter().enumerate() {
                        if i != j {
                            for &a in g {
                                for &b in h {
                                    self.network.block(a, b);
                                }
                            }
                        }
                    }
                }
            }
            Fault::PartitionOneWay { from, to } => {
                for a in self.indexes(from) {
                    for b in self.indexes(to) {
                        self.network.block(a, b);
                    }
                }
            }
            Fault::Isolate { nodes } => {
                let inside = self.indexes(nodes);
                for &a in &inside {
                    for b in 0..self.names.len() {
                        if !inside.contains(&b) {
                            self.network.block(a, b);
                            self.network.block(b, a);
                        }
                    }
                }
            }
            Fault::Heal {} => self.network.heal(),
            Fault::LinkLoss {
                from,
                to,
                probability,
            } => {
                let ppm = probability.ppm();
                self.links(from, to, |l| l.loss_ppm = ppm);
            }
            Fault::LinkDuplicate {
                from,
                to,
                probability,
            } => {
                let ppm = probability.ppm();
                self.links(from, to, |l| l.duplicate_ppm = ppm);
            }
            Fault::LinkLatency {
                from,
                to,
                min_ms,
                max_ms,
            } => {
                let (lo, hi) = (min_ms.duration(), max_ms.duration());
                self.links(from, to, |l| {
                    l.latency_min = lo;
                    l.latency_max = hi.max(lo);
                });
            }
            Fault::ClockOffset { target, offset_ms } => {
                self.clock_change(*target, |c, now| c.step(now, offset_ms.0));
            }
            Fault::ClockDrift { target, ppm } => {
                let ppm = *ppm;
                self.clock_change(*target, |c, now| c.set_drift(now, ppm));
            }
            Fault::ClockJump { target, by_ms } => {
                let by = i64::try_from(by_ms.micros()).unwrap_or(i64::MAX);
                self.clock_change(*target, |c, now| c.step(now, by));
            }
            Fault::DropMessage { id } => self.drop_in_flight(*id),
            // The algorithm's own faults (its spec's `own_faults`): the adapter names the
            // process they apply to.
            Fault::PauseAfterCheck { .. } | Fault::Propose { .. } | Fault::StoreOutage { .. } => {
                if let Some(p) = self.adapter.fault_proc(&fault) {
                    let f = fault.clone();
                    self.call(p, |a, e| {
                        a.fault(e, &f);
                    });
                }
            }
        }
        Ok(())
    }

    pub(super) fn clock_change(&mut self, target: Proc, f: impl FnOnce(&mut SimClock, Instant)) {
        let Some(p) = self.index_of(target) else {
            return;
        };
        let now = self.now;
        if let Some(c) = self.clocks.get_mut(p) {
            f(c, now);
        }
        self.reschedule(p, true);
    }
}
