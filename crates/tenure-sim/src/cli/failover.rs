//! `tenure failover`: time to a new leader after the leader crashes (Raft Figure 16), for one
//! or several settings of the timeout knobs, its CDF as SVG, and the cost side: false
//! elections per hour under latency and pauses. Runs are built by
//! [`crate::failover_setting::Setting`], as the playground's failover lab builds them.

use super::CliError;
use super::args::{RaftFlags, parse_duration_ms, parse_timeouts};
use crate::cost::{self, CostReport, Disturbance};
use crate::failover::{self, FailoverReport};
use crate::failover_plot::{Series, cdf_svg};
use crate::failover_setting::Setting;
use crate::scenario::Algorithm;
use clap::Args;
use serde::Serialize;

#[derive(Debug, Args)]
pub(crate) struct FailoverArgs {
    #[arg(long, value_parser = Algorithm::from_str_arg,
          help = super::algorithm_help(), long_help = super::algorithm_long_help())]
    algorithm: Algorithm,
    /// Number of nodes.
    #[arg(long, default_value_t = 5)]
    nodes: u64,
    /// Raft election timeout range in ms, `min-max` meaning [min, max) (150-300, 150-155),
    /// or `T` meaning [T, 2T). Repeat it to overlay several settings.
    #[arg(long, value_parser = parse_timeouts)]
    timeouts: Vec<(u64, u64)>,
    /// Lease time to live (`2s`, `1500ms`). Repeat it to overlay several settings.
    #[arg(long, value_parser = parse_duration_ms)]
    ttl: Vec<u64>,
    /// Lease safety margin (`300ms`), for every --ttl.
    #[arg(long, value_parser = parse_duration_ms)]
    margin: Option<u64>,
    /// Bully failure timeout (`200ms`). Repeat it to overlay several settings.
    #[arg(long, value_parser = parse_duration_ms)]
    failure_timeout: Vec<u64>,
    /// Bully answer timeout (`50ms`).
    #[arg(long, value_parser = parse_duration_ms)]
    answer_timeout: Option<u64>,
    /// Bully coordinator timeout (`150ms`).
    #[arg(long, value_parser = parse_duration_ms)]
    coordinator_timeout: Option<u64>,
    /// One-way message latency range in ms (`5-30`), drawn uniformly.
    #[arg(long, value_parser = parse_latency)]
    latency: Option<(u64, u64)>,
    /// Number of crashes to measure per setting (1 to 100,000).
    #[arg(long, default_value_t = 100, value_parser = super::args::parse_failover_runs)]
    runs: u64,
    /// Seed of the first run; run i uses seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Write the CDF of every setting, overlaid, to this SVG file.
    #[arg(long, value_name = "FILE")]
    svg: Option<std::path::PathBuf>,
    /// Also count false elections (no crash, only latency and pauses) over this much
    /// simulated time per setting (`10m`, `1h`).
    #[arg(long, value_parser = parse_duration_ms)]
    cost_run: Option<u64>,
    /// With --cost-run: stop-the-world pauses per node per hour.
    #[arg(long, default_value_t = 6.0)]
    pauses_per_hour: f64,
    /// With --cost-run: the length of each pause.
    #[arg(long, value_parser = parse_duration_ms, default_value = "500ms")]
    pause: u64,
    #[command(flatten)]
    raft: RaftFlags,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// `10 min`, `1.5 h`, `30 s`: a simulated run's length in words.
fn span(ms: u64) -> String {
    #[allow(clippy::cast_precision_loss)]
    let v = ms as f64;
    if ms >= 3_600_000 {
        format!("{:.1} h", v / 3_600_000.0)
    } else if ms >= 60_000 {
        format!("{:.1} min", v / 60_000.0)
    } else {
        format!("{:.1} s", v / 1000.0)
    }
}

fn parse_latency(s: &str) -> Result<(u64, u64), String> {
    let num = |v: &str| {
        v.trim()
            .trim_end_matches("ms")
            .parse::<u64>()
            .map_err(|_| format!("`{s}` is not a latency range in ms, as in 5-30"))
    };
    let (lo, hi) = match s.split_once('-') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => (num(s)?, num(s)?),
    };
    if hi < lo {
        return Err(format!("latency `{s}`: the maximum is below the minimum"));
    }
    Ok((lo, hi))
}

/// One setting's results, as `--json` prints them.
#[derive(Serialize)]
struct SettingReport {
    label: String,
    setting: Setting,
    #[serde(flatten)]
    failover: FailoverReport,
    /// Every sample, ms, sorted.
    samples_ms: Vec<f64>,
    cost: Option<CostReport>,
}

impl FailoverArgs {
    /// The settings to measure: one per repeated knob value (or one with the defaults).
    fn settings(&self) -> Result<Vec<Setting>, CliError> {
        let a = self.algorithm;
        let mut base = Setting::new(a);
        base.nodes = self.nodes;
        base.pre_vote = self.raft.pre_vote();
        base.check_quorum = self.raft.check_quorum();
        base.safety_margin_ms = self.margin;
        base.answer_timeout_ms = self.answer_timeout;
        base.coordinator_timeout_ms = self.coordinator_timeout;
        base.latency_ms = self.latency.map(|(lo, hi)| [lo, hi]);
        let mut out: Vec<Setting> = Vec::new();
        for &(t, max) in &self.timeouts {
            out.push(Setting {
                election_timeout_ms: Some([t, max]),
                ..base.clone()
            });
        }
        for &ttl in &self.ttl {
            out.push(Setting {
                ttl_ms: Some(ttl),
                ..base.clone()
            });
        }
        for &f in &self.failure_timeout {
            out.push(Setting {
                failure_timeout_ms: Some(f),
                ..base.clone()
            });
        }
        let kinds = [
            !self.timeouts.is_empty(),
            !self.ttl.is_empty(),
            !self.failure_timeout.is_empty(),
        ];
        if kinds.iter().filter(|k| **k).count() > 1 {
            return Err(CliError::usage(
                "give one kind of knob to vary: --timeouts (raft), --ttl (lease) or --failure-timeout (bully)",
            ));
        }
        if out.is_empty() {
            out.push(base);
        }
        Ok(out)
    }
}

pub(crate) fn run(a: FailoverArgs) -> Result<bool, CliError> {
    a.raft.check(a.algorithm).map_err(CliError::usage)?;
    let settings = a.settings()?;
    let disturbance = a.cost_run.map(|run_ms| Disturbance {
        run_ms,
        pauses_per_hour: a.pauses_per_hour,
        pause_ms: a.pause,
    });
    let mut reports = Vec::new();
    for s in &settings {
        let scenario = s
            .scenario(a.seed)
            .map_err(|e| CliError::usage(e.to_string()))?;
        let r = failover::measure(&scenario, a.runs).map_err(|e| CliError::usage(e.to_string()))?;
        let cost = match &disturbance {
            Some(d) => {
                Some(cost::measure(&scenario, d).map_err(|e| CliError::usage(e.to_string()))?)
            }
            None => None,
        };
        reports.push(SettingReport {
            label: s.label(),
            setting: s.clone(),
            samples_ms: r
                .samples_us
                .iter()
                .copied()
                .map(crate::units::us_to_ms)
                .collect(),
            failover: r,
            cost,
        });
    }
    if let Some(path) = &a.svg {
        let series: Vec<Series> = reports
            .iter()
            .map(|r| Series {
                label: r.label.clone(),
                samples_us: r.failover.samples_us.clone(),
            })
            .collect();
        let title = format!(
            "Time to a new leader, {} nodes, {} crashes per setting",
            a.nodes, a.runs
        );
        std::fs::write(path, cdf_svg(&title, &series))
            .map_err(|e| CliError::usage(format!("cannot write {}: {e}", path.display())))?;
    }
    if a.json {
        let out = serde_json::json!({ "runs": a.runs, "seed": a.seed, "settings": reports });
        println!("{out}");
    } else {
        println!(
            "tenure failover: {}, {} nodes, {} crashes of the leader per setting, seeds {}..{}",
            a.algorithm,
            a.nodes,
            a.runs,
            a.seed,
            a.seed.saturating_add(a.runs)
        );
        for r in &reports {
            let f = &r.failover;
            println!("  {}", r.label);
            println!(
                "    time to a new leader: min {:.1} ms, median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
                f.min_ms, f.median_ms, f.p99_ms, f.max_ms
            );
            if f.failures > 0 {
                println!(
                    "    no new leader within {} ms in {} runs",
                    failover::GIVE_UP_MS,
                    f.failures
                );
            }
            if let Some(c) = &r.cost {
                println!(
                    "    false elections: {} in {} of simulated time with {} pauses of {} ms ({:.1} per hour)",
                    c.false_elections,
                    span(c.run_ms),
                    c.pauses,
                    a.pause,
                    c.false_elections_per_hour
                );
            }
        }
        if let Some(path) = &a.svg {
            println!("  plot written to {}", path.display());
        }
    }
    Ok(reports.iter().any(|r| r.failover.failures > 0))
}
