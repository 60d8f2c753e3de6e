//! Failover measurement: crash the leader of a settled cluster and time the next election
//! (the measurement of the Raft paper's Figure 16, Ongaro & Ousterhout 2014, §9.3).

use crate::fault::Fault;
use crate::scenario::{Scenario, ScenarioError};
use crate::world::World;
use serde::Serialize;
use tenure::{Duration, Instant};

/// How long the cluster runs after its first leader before the crash, ms.
pub const SETTLE_MS: u64 = 1_000;
/// Give up waiting for a leader after this long, ms.
pub const GIVE_UP_MS: u64 = 60_000;

/// The distribution of failover times over a set of runs.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FailoverReport {
    /// Runs attempted.
    pub runs: u64,
    /// Runs with no new leader within the give-up bound (or no first leader).
    pub failures: u64,
    /// Shortest time to a new leader, ms.
    pub min_ms: f64,
    /// Median, ms.
    pub median_ms: f64,
    /// 99th percentile, ms.
    pub p99_ms: f64,
    /// Longest, ms.
    pub max_ms: f64,
    /// Every sample, us, sorted.
    #[serde(skip)]
    pub samples_us: Vec<u64>,
}

/// The leader's heartbeat interval in `s` (a lease's renew interval): the crash lands at a
/// uniformly random point of it, not right after a heartbeat.
fn heartbeat_interval(s: &Scenario) -> Duration {
    let ms = (s.algorithm.spec().heartbeat)(s);
    ms.max(Duration::from_micros(1))
}

/// One measurement on the world of `s` (its faults are ignored): the time in us from the
/// leader's crash to the next leader, or `None` if there was none in time. The crash comes
/// `SETTLE_MS` after the first leader plus a uniformly random part of the heartbeat
/// interval, drawn from the scenario's seed.
pub fn measure_one(s: &Scenario) -> Result<Option<u64>, ScenarioError> {
    let mut s = s.clone();
    s.faults.clear();
    s.duration_ms = crate::units::Ms::from_millis(GIVE_UP_MS.saturating_mul(3));
    let mut w = World::new(&s)?;
    let give_up = Duration::from_millis(GIVE_UP_MS);
    if w.run_until_leader(Instant::ZERO.saturating_add(give_up))
        .is_none()
    {
        return Ok(None);
    }
    let mut rng = tenure::Rng::from_seed(s.seed ^ 0xFA11_0BE5_FA11_0BE5);
    let phase = rng.uniform_duration(Duration::ZERO, heartbeat_interval(&s));
    w.run_until(
        w.now()
            .saturating_add(Duration::from_millis(SETTLE_MS))
            .saturating_add(phase),
    );
    let Some(leader) = w.leaders().first().copied() else {
        return Ok(None);
    };
    let _ = w.inject(Fault::Crash { node: leader });
    let crashed = w.now();
    Ok(w.run_until_leader(crashed.saturating_add(give_up))
        .map(|t| t.saturating_since(crashed).as_micros()))
}

fn percentile(sorted: &[u64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    #[allow(
        clippy::cast_precision_loss,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss
    )]
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    crate::units::us_to_ms(sorted.get(i).copied().unwrap_or(0))
}

/// Measures `runs` failovers; run `i` uses seed `s.seed + i`.
pub fn measure(s: &Scenario, runs: u64) -> Result<FailoverReport, ScenarioError> {
    measure_each(s, runs, || {})
}

/// [`measure`], calling `done` after each run (the CLI's progress: one run of a large
/// cluster with short timeouts can take a minute).
pub fn measure_each(
    s: &Scenario,
    runs: u64,
    mut done: impl FnMut(),
) -> Result<FailoverReport, ScenarioError> {
    let mut samples = Vec::new();
    let mut failures = 0u64;
    for i in 0..runs {
        let mut si = s.clone();
        si.seed = s.seed.wrapping_add(i);
        match measure_one(&si)? {
            Some(us) => samples.push(us),
            None => failures = failures.saturating_add(1),
        }
        done();
    }
    samples.sort_unstable();
    Ok(FailoverReport {
        runs,
        failures,
        min_ms: percentile(&samples, 0.0),
        median_ms: percentile(&samples, 0.5),
        p99_ms: percentile(&samples, 0.99),
        max_ms: percentile(&samples, 1.0),
        samples_us: samples,
    })
}
