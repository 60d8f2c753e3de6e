//! The cost side of short timeouts: elections in a cluster where no node crashes, caused by
//! message latency and stop-the-world pauses alone ("false elections"). A faster failover
//! (shorter election timeout, shorter lease) buys more of them.

use crate::fault::{Fault, TimedFault};
use crate::process::Proc;
use crate::scenario::{Scenario, ScenarioError};
use crate::units::Ms;
use crate::world::World;
use serde::{Deserialize, Serialize};
use tenure::Duration;

/// Longest run `measure` accepts, simulated ms (one day).
pub const MAX_RUN_MS: u64 = 86_400_000;
/// Most pauses per node per hour `measure` accepts.
pub const MAX_PAUSES_PER_HOUR: f64 = 3_600.0;
/// Longest pause `measure` accepts, simulated ms (one hour).
pub const MAX_PAUSE_MS: u64 = 3_600_000;

/// How the stable cluster is disturbed: pauses of every node at a Poisson rate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Disturbance {
    /// Simulated time to run, ms.
    pub run_ms: u64,
    /// Stop-the-world pauses per node per hour (a Poisson process per node).
    pub pauses_per_hour: f64,
    /// Length of each pause, ms.
    pub pause_ms: u64,
}

/// False elections over one run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CostReport {
    /// Simulated time run, ms.
    pub run_ms: u64,
    /// Pauses injected.
    pub pauses: u64,
    /// Leaderships won in the run (`elections_total`).
    pub elections: u64,
    /// Leaderships won after the first: none was needed, since no node crashed.
    pub false_elections: u64,
    /// `false_elections` per hour of simulated time.
    pub false_elections_per_hour: f64,
    /// Total time with no node acting as leader, ms.
    pub leaderless_ms: f64,
}

/// Why a disturbance cannot be measured.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CostError {
    /// The scenario is invalid.
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// A value out of range, in the caller's words.
    #[error("{0}")]
    Range(String),
}

/// The pause schedule for `s` under `d`: per node, exponential gaps of mean `1/rate`, each
/// pause starting after the previous one ended. Drawn from the scenario's seed.
pub fn pause_schedule(s: &Scenario, d: &Disturbance) -> Vec<TimedFault> {
    let mut out = Vec::new();
    if d.pauses_per_hour <= 0.0 || d.pause_ms == 0 {
        return out;
    }
    let mean_gap_ms = 3_600_000.0 / d.pauses_per_hour;
    let mut rng = tenure::Rng::from_seed(s.seed ^ 0xC057_0F5E_1EC7_1045);
    for id in 1..=s.nodes {
        let mut t = 0.0_f64;
        loop {
            // Uniform in (0, 1] from 53 random bits, then an exponential gap.
            #[allow(clippy::cast_precision_loss)]
            let u = ((rng.next_u64() >> 11) as f64 + 1.0) / 9_007_199_254_740_992.0;
            t += -u.ln() * mean_gap_ms;
            #[allow(clippy::cast_precision_loss)]
            if t >= d.run_ms as f64 {
                break;
            }
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let at = t.round() as u64;
            out.push(TimedFault {
                at_ms: Ms::from_millis(at),
                fault: Fault::Pause {
                    target: Proc::Node(tenure::NodeId(id)),
                    duration_ms: Ms::from_millis(d.pause_ms),
                },
            });
            #[allow(clippy::cast_precision_loss)]
            {
                t += d.pause_ms as f64;
            }
        }
    }
    out.sort_by_key(|f| f.at_ms);
    out
}

/// Runs `s` (its own faults replaced by the pause schedule) for `d.run_ms` and counts the
/// elections after the first.
pub fn measure(s: &Scenario, d: &Disturbance) -> Result<CostReport, CostError> {
    if d.run_ms == 0 || d.run_ms > MAX_RUN_MS {
        return Err(CostError::Range(format!(
            "the run must last 1 ms to {MAX_RUN_MS} ms, not {} ms",
            d.run_ms
        )));
    }
    if !d.pauses_per_hour.is_finite() || !(0.0..=MAX_PAUSES_PER_HOUR).contains(&d.pauses_per_hour) {
        return Err(CostError::Range(format!(
            "pauses per node per hour must be between 0 and {MAX_PAUSES_PER_HOUR}, not {}",
            d.pauses_per_hour
        )));
    }
    if d.pause_ms > MAX_PAUSE_MS {
        return Err(CostError::Range(format!(
            "a pause must last at most one hour, not {} ms",
            d.pause_ms
        )));
    }
    let mut s = s.clone();
    s.duration_ms = Ms::from_millis(d.run_ms);
    s.faults = pause_schedule(&s, d);
    s.validate()?;
    let mut w = World::new(&s)?;
    w.run_until(tenure::Instant::ZERO.saturating_add(Duration::from_millis(d.run_ms)));
    let m = w.metrics();
    let false_elections = m.elections_total.saturating_sub(1);
    #[allow(clippy::cast_precision_loss)]
    let per_hour = false_elections as f64 * 3_600_000.0 / d.run_ms as f64;
    Ok(CostReport {
        run_ms: d.run_ms,
        pauses: s.faults.len() as u64,
        elections: m.elections_total,
        false_elections,
        false_elections_per_hour: per_hour,
        leaderless_ms: crate::units::us_to_ms(m.leaderless_us),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Algorithm;

    fn raft(t: u64) -> Scenario {
        let mut s = Scenario::new(Algorithm::Raft, 5, 3, 1);
        s.config.election_timeout_ms = Some(Ms::from_millis(t));
        s.config.heartbeat_interval_ms = Some(Ms::from_millis((t / 3).max(1)));
        s
    }

    #[test]
    fn no_pauses_and_steady_links_make_no_false_election() {
        let d = Disturbance {
            run_ms: 60_000,
            pauses_per_hour: 0.0,
            pause_ms: 0,
        };
        let r = measure(&raft(150), &d).unwrap();
        assert_eq!(r.false_elections, 0, "{r:?}");
        assert_eq!(r.elections, 1);
    }

    #[test]
    fn pauses_longer_than_the_timeout_cost_elections_and_shorter_timeouts_cost_more() {
        let d = Disturbance {
            run_ms: 600_000,
            pauses_per_hour: 60.0,
            pause_ms: 400,
        };
        let short = measure(&raft(100), &d).unwrap();
        let long = measure(&raft(1_000), &d).unwrap();
        assert!(short.pauses > 0);
        assert!(short.false_elections > 0, "{short:?}");
        assert_eq!(long.false_elections, 0, "{long:?}");
    }

    #[test]
    fn the_schedule_follows_the_seed_and_the_rate() {
        let d = Disturbance {
            run_ms: 3_600_000,
            pauses_per_hour: 100.0,
            pause_ms: 10,
        };
        let a = pause_schedule(&raft(150), &d);
        assert_eq!(a, pause_schedule(&raft(150), &d));
        // 5 nodes at 100 an hour: about 500 (Poisson, sd about 22).
        assert!((400..600).contains(&a.len()), "{}", a.len());
    }

    #[test]
    fn out_of_range_values_are_refused_in_words() {
        let bad = Disturbance {
            run_ms: 0,
            pauses_per_hour: 1.0,
            pause_ms: 1,
        };
        assert!(matches!(
            measure(&raft(150), &bad),
            Err(CostError::Range(_))
        ));
        let nan = Disturbance {
            run_ms: 1,
            pauses_per_hour: f64::NAN,
            pause_ms: 1,
        };
        assert!(
            measure(&raft(150), &nan)
                .unwrap_err()
                .to_string()
                .contains("pauses per node")
        );
    }
}
