//! Running a campaign: one seeded run ([`run_one`]), many in parallel ([`run`]), and the
//! report they add up to.

use super::*;

/// The outcome of one run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RunOutcome {
    /// The run's seed.
    pub seed: u64,
    /// Violations by kind, promised or not.
    pub violations: BTreeMap<InvariantKind, u64>,
    /// Whether a promised invariant broke.
    pub failed: bool,
    /// Longest split-brain stretch, us.
    pub worst_split_brain_us: u64,
    /// Time from the heal to a leader, us (`None`: no leader within the bound).
    pub leader_after_heal_us: Option<u64>,
    /// Events processed.
    pub events: u64,
    /// Stale writes accepted (lease worlds).
    pub stale_writes_accepted: u64,
    /// The first violation's detail, if any.
    pub first_violation: Option<String>,
    /// Most messages sent in one simulated second.
    pub peak_messages_per_second: u64,
    /// Most events waiting in the queue, sampled every simulated second.
    pub peak_queue_len: u64,
    /// How the run broke its work budget ([`crate::budget`]), if it did; the run fails.
    pub over_budget: Option<String>,
}

/// Runs one chaos run with `seed`.
pub fn run_one(opts: &ChaosOptions, seed: u64) -> Result<RunOutcome, ScenarioError> {
    let s = scenario(opts, seed);
    let mut world = World::new(&s)?;
    // The outcome reads metrics, violations and counts only: store no events.
    world.keep_recent_events(0);
    let heal = Instant::from_millis(opts.duration_ms);
    let (peak, over_budget) =
        crate::budget::run_within(&mut world, opts.duration_ms, crate::budget::budget(&s));
    if let Some(why) = &over_budget {
        return Ok(RunOutcome {
            seed,
            violations: world.violation_counts(),
            failed: true,
            worst_split_brain_us: world.metrics().worst_split_brain_us,
            leader_after_heal_us: None,
            events: world.metrics().events,
            stale_writes_accepted: world.metrics().stale_writes_accepted,
            first_violation: Some(format!("over budget: {why}")),
            peak_messages_per_second: peak.0,
            peak_queue_len: peak.1,
            over_budget,
        });
    }
    let bound = liveness_bound_ms(&s);
    let found = world.run_until_leader(heal.saturating_add(Duration::from_millis(bound)));
    if found.is_none() {
        world.report_liveness(format!(
            "no leader within {bound} ms after the heal at {} ms",
            opts.duration_ms
        ));
    }
    world.run();
    let over_budget = over_budget.or_else(|| world.storm().map(str::to_string));
    let m = world.metrics();
    Ok(RunOutcome {
        seed,
        violations: world.violation_counts(),
        failed: world.failed() || over_budget.is_some(),
        worst_split_brain_us: m.worst_split_brain_us,
        leader_after_heal_us: found.map(|t| t.saturating_since(heal).as_micros()),
        events: m.events,
        stale_writes_accepted: m.stale_writes_accepted,
        first_violation: world
            .violations()
            .first()
            .map(|v| format!("{} at {} us: {}", v.kind.name(), v.time_us, v.detail))
            .or_else(|| {
                over_budget
                    .as_ref()
                    .map(|why| format!("over budget: {why}"))
            }),
        peak_messages_per_second: peak.0,
        peak_queue_len: peak.1,
        over_budget,
    })
}

/// A campaign's summary.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ChaosReport {
    /// The algorithm.
    pub algorithm: String,
    /// Runs done.
    pub runs: u64,
    /// Runs that broke a promised invariant.
    pub failed_runs: u64,
    /// Violations by kind over all runs, promised or not.
    pub violations: BTreeMap<InvariantKind, u64>,
    /// Runs with any split brain.
    pub runs_with_split_brain: u64,
    /// The longest split-brain stretch over all runs, us.
    pub worst_split_brain_us: u64,
    /// Stale writes accepted over all runs.
    pub stale_writes_accepted: u64,
    /// Events over all runs.
    pub events: u64,
    /// Most messages sent in one simulated second, over all runs.
    pub peak_messages_per_second: u64,
    /// Most events queued at once (sampled each simulated second), over all runs.
    pub peak_queue_len: u64,
    /// Runs that broke their work budget.
    pub over_budget_runs: u64,
    /// Failing runs: seed, first violation and the command that replays it.
    pub failures: Vec<Failure>,
}

/// One failing run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Failure {
    /// The run's seed.
    pub seed: u64,
    /// What broke first.
    pub violation: String,
    /// The one command that replays it.
    pub replay: String,
}

impl ChaosReport {
    /// Adds one run.
    pub fn add(&mut self, opts: &ChaosOptions, r: &RunOutcome) {
        self.runs = self.runs.saturating_add(1);
        for (k, v) in &r.violations {
            *self.violations.entry(*k).or_insert(0) += v;
        }
        if r.worst_split_brain_us > 0 {
            self.runs_with_split_brain = self.runs_with_split_brain.saturating_add(1);
        }
        self.worst_split_brain_us = self.worst_split_brain_us.max(r.worst_split_brain_us);
        self.stale_writes_accepted = self
            .stale_writes_accepted
            .saturating_add(r.stale_writes_accepted);
        self.events = self.events.saturating_add(r.events);
        self.peak_messages_per_second = self
            .peak_messages_per_second
            .max(r.peak_messages_per_second);
        self.peak_queue_len = self.peak_queue_len.max(r.peak_queue_len);
        if r.over_budget.is_some() {
            self.over_budget_runs = self.over_budget_runs.saturating_add(1);
        }
        if r.failed {
            self.failed_runs = self.failed_runs.saturating_add(1);
            self.failures.push(Failure {
                seed: r.seed,
                violation: r.first_violation.clone().unwrap_or_default(),
                replay: opts.replay_command(r.seed),
            });
        }
    }
}

/// Runs a whole campaign, calling `progress` after each run.
pub fn run(
    opts: &ChaosOptions,
    mut progress: impl FnMut(&RunOutcome),
) -> Result<ChaosReport, ScenarioError> {
    let mut report = ChaosReport {
        algorithm: opts.algorithm.name().to_string(),
        ..ChaosReport::default()
    };
    for i in 0..opts.runs {
        let r = run_one(opts, opts.seed.wrapping_add(i))?;
        progress(&r);
        report.add(opts, &r);
    }
    Ok(report)
}
