//! `tenure failover`: time to a new leader after the leader crashes (Raft Figure 16), for one
//! or several settings of the timeout knobs, its CDF as SVG, and the cost side: false
//! elections per hour under latency and pauses. Runs are built by
//! [`crate::failover_setting::Setting`], as the playground's failover lab builds them.

use super::CliError;
use super::args::{RaftFlags, parse_duration_ms, parse_ms_knob, parse_timeouts, renamed};
use super::out::outln;
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
    #[arg(long, default_value_t = 5, value_parser = super::args::parse_nodes)]
    nodes: u64,
    /// Raft election timeouts in ms, `min-max` meaning [min, max) (150-300, 150-155, 1s-2s),
    /// or `T` meaning [T, 2T) (150, 1s): the machine's election_timeout_ms and
    /// election_timeout_max_ms.
    /// Repeat it to overlay several settings.
    #[arg(long, value_name = "MIN-MAX", value_parser = parse_timeouts)]
    election_timeout_ms: Vec<(u64, u64)>,
    /// Lease time to live in ms (2000, or 2s). Repeat it to overlay several settings.
    #[arg(long, value_name = "MS", value_parser = parse_ms_knob)]
    ttl_ms: Vec<u64>,
    /// Lease safety margin in ms (300), for every --ttl-ms.
    #[arg(long, value_name = "MS", value_parser = parse_ms_knob)]
    safety_margin_ms: Option<u64>,
    /// Bully failure timeout in ms (200). Repeat it to overlay several settings.
    #[arg(long, value_name = "MS", value_parser = parse_ms_knob)]
    failure_timeout_ms: Vec<u64>,
    /// Bully answer timeout in ms (50).
    #[arg(long, value_name = "MS", value_parser = parse_ms_knob)]
    answer_timeout_ms: Option<u64>,
    /// Bully coordinator timeout in ms (150).
    #[arg(long, value_name = "MS", value_parser = parse_ms_knob)]
    coordinator_timeout_ms: Option<u64>,
    /// One-way message latency range in ms (`5-30`, `5ms-1s`), drawn uniformly: the scenario's
    /// network.latency_ms.
    #[arg(long, value_name = "MIN-MAX", value_parser = parse_latency)]
    latency_ms: Option<(u64, u64)>,
    // The spellings before the knob names; each is refused with the new name.
    #[arg(long, hide = true, value_parser = renamed("--timeouts", "--election-timeout-ms"))]
    timeouts: Option<String>,
    #[arg(long, hide = true, value_parser = renamed("--ttl", "--ttl-ms"))]
    ttl: Option<String>,
    #[arg(long, hide = true, value_parser = renamed("--margin", "--safety-margin-ms"))]
    margin: Option<String>,
    #[arg(long, hide = true, value_parser = renamed("--failure-timeout", "--failure-timeout-ms"))]
    failure_timeout: Option<String>,
    #[arg(long, hide = true, value_parser = renamed("--answer-timeout", "--answer-timeout-ms"))]
    answer_timeout: Option<String>,
    #[arg(long, hide = true, value_parser = renamed("--coordinator-timeout", "--coordinator-timeout-ms"))]
    coordinator_timeout: Option<String>,
    #[arg(long, hide = true, value_parser = renamed("--latency", "--latency-ms"))]
    latency: Option<String>,
    /// Number of crashes to measure per setting (1 to 100,000).
    #[arg(long, default_value_t = 100, value_parser = super::args::parse_failover_runs)]
    runs: u64,
    /// Seed of the first run; run i uses seed + i.
    #[arg(long, default_value_t = 0, value_parser = super::args::parse_seed)]
    seed: u64,
    /// Write the CDF of every setting, overlaid, to this SVG file; `-` writes it to stdout
    /// (the report then goes to stderr, as with `run --trace -`).
    #[arg(long, value_name = "FILE")]
    svg: Option<std::path::PathBuf>,
    /// Also count false elections (no crash, only latency and pauses) over this much
    /// simulated time per setting (`10m`, `1h`; 1ms to 24h).
    #[arg(long, allow_hyphen_values = true, value_parser = parse_cost_run)]
    cost_run: Option<u64>,
    /// With --cost-run: stop-the-world pauses per node per hour, 0 to 3600 [default: 6].
    #[arg(long, value_parser = parse_pauses_per_hour)]
    pauses_per_hour: Option<f64>,
    /// With --cost-run: the length of each pause, 0ms to 1h [default: 500ms].
    #[arg(long, allow_hyphen_values = true, value_parser = parse_pause)]
    pause: Option<u64>,
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

/// `--cost-run`: a duration from 1 ms to [`cost::MAX_RUN_MS`] (a day), refused with the
/// flag, the value and the range rather than the simulator's "the run must last ...".
fn parse_cost_run(s: &str) -> Result<u64, String> {
    let ms = parse_duration_ms(s)?;
    if ms == 0 || ms > cost::MAX_RUN_MS {
        return Err(format!(
            "`{s}` is not a cost run from 1ms to 24h ({} ms, a day of simulated time)",
            cost::MAX_RUN_MS
        ));
    }
    Ok(ms)
}

/// `--pause`: a duration from 0 (no pauses) to [`cost::MAX_PAUSE_MS`] (an hour).
fn parse_pause(s: &str) -> Result<u64, String> {
    let ms = parse_duration_ms(s)?;
    if ms > cost::MAX_PAUSE_MS {
        return Err(format!(
            "`{s}` is not a pause from 0ms to 1h ({} ms)",
            cost::MAX_PAUSE_MS
        ));
    }
    Ok(ms)
}

/// `--pauses-per-hour`: a rate from 0 to [`cost::MAX_PAUSES_PER_HOUR`] pauses per node per hour.
fn parse_pauses_per_hour(s: &str) -> Result<f64, String> {
    let max = cost::MAX_PAUSES_PER_HOUR;
    match super::args::parse_rate(s) {
        Ok(v) if v <= max => Ok(v),
        _ => Err(format!(
            "`{s}` is not a rate from 0 to {max} pauses per node per hour (6, 0.5)"
        )),
    }
}

fn parse_latency(s: &str) -> Result<(u64, u64), String> {
    let num = |v: &str| {
        parse_ms_knob(v)
            .map_err(|_| format!("`{s}` is not a latency range in ms, as in 5-30, 10 or 5ms-1s"))
    };
    let (lo, hi) = match s.split_once('-') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => (num(s)?, num(s)?),
    };
    if hi < lo {
        return Err(format!(
            "`{s}` is not a latency range: its maximum {hi} is below its minimum {lo}"
        ));
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
        base.safety_margin_ms = self.safety_margin_ms;
        base.answer_timeout_ms = self.answer_timeout_ms;
        base.coordinator_timeout_ms = self.coordinator_timeout_ms;
        base.latency_ms = self.latency_ms.map(|(lo, hi)| [lo, hi]);
        let mut out: Vec<Setting> = Vec::new();
        for &(t, max) in &self.election_timeout_ms {
            out.push(Setting {
                election_timeout_ms: Some([t, max]),
                ..base.clone()
            });
        }
        for &ttl in &self.ttl_ms {
            out.push(Setting {
                ttl_ms: Some(ttl),
                ..base.clone()
            });
        }
        for &f in &self.failure_timeout_ms {
            out.push(Setting {
                failure_timeout_ms: Some(f),
                ..base.clone()
            });
        }
        let kinds = [
            !self.election_timeout_ms.is_empty(),
            !self.ttl_ms.is_empty(),
            !self.failure_timeout_ms.is_empty(),
        ];
        if kinds.iter().filter(|k| **k).count() > 1 {
            return Err(CliError::usage(
                "give one kind of knob to vary: --election-timeout-ms (raft), --ttl-ms (lease) or --failure-timeout-ms (bully)",
            ));
        }
        if out.is_empty() {
            out.push(base);
        }
        Ok(out)
    }
}

/// The setting keys that are flags of `failover`, in a message spelled as the flags
/// (`ttl_ms` -> `--ttl-ms`): the simulator words its refusals in the setting's keys.
fn flag_words(message: &str) -> String {
    const FLAGS: [&str; 9] = [
        "election_timeout_ms",
        "ttl_ms",
        "safety_margin_ms",
        "failure_timeout_ms",
        "answer_timeout_ms",
        "coordinator_timeout_ms",
        "latency_ms",
        "pre_vote",
        "check_quorum",
    ];
    let mut out = String::with_capacity(message.len() + 16);
    let mut rest = message;
    'scan: while !rest.is_empty() {
        let boundary = out
            .chars()
            .last()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'));
        if boundary {
            for flag in FLAGS {
                if let Some(tail) = rest.strip_prefix(flag)
                    && !tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                {
                    out.push_str("--");
                    out.push_str(&flag.replace('_', "-"));
                    rest = tail;
                    continue 'scan;
                }
            }
        }
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            out.push(c);
        }
        rest = chars.as_str();
    }
    out
}

/// A scenario error of a failover setting, with the setting's keys spelled as flags.
fn setting_error(e: &dyn std::fmt::Display) -> CliError {
    let text = e.to_string();
    CliError::usage(flag_words(text.strip_prefix("scenario: ").unwrap_or(&text)))
}

/// Stop-the-world pauses per node per hour in a cost run, unless `--pauses-per-hour` says.
const DEFAULT_PAUSES_PER_HOUR: f64 = 6.0;
/// The length of each cost-run pause, ms, unless `--pause` says.
const DEFAULT_PAUSE_MS: u64 = 500;

pub(crate) fn run(a: FailoverArgs) -> Result<bool, CliError> {
    a.raft.check(a.algorithm).map_err(CliError::usage)?;
    let settings = a.settings()?;
    let svg_to_stdout = a.svg.as_deref() == Some(std::path::Path::new("-"));
    if let Some(path) = &a.svg
        && !svg_to_stdout
    {
        super::args::check_out_path(path, "--svg").map_err(CliError::usage)?;
    }
    if a.cost_run.is_none() {
        // Without a cost run nothing pauses: the flags would be ignored in silence.
        let given = [
            ("--pauses-per-hour", a.pauses_per_hour.is_some()),
            ("--pause", a.pause.is_some()),
        ];
        if let Some((flag, _)) = given.iter().find(|(_, set)| *set) {
            return Err(CliError::usage(format!(
                "{flag} sets the pauses of the cost run; add --cost-run (e.g. --cost-run 10m) to \
                 count false elections under them"
            )));
        }
    }
    let disturbance = a.cost_run.map(|run_ms| Disturbance {
        run_ms,
        pauses_per_hour: a.pauses_per_hour.unwrap_or(DEFAULT_PAUSES_PER_HOUR),
        pause_ms: a.pause.unwrap_or(DEFAULT_PAUSE_MS),
    });
    let mut reports = Vec::new();
    // One step per crash measured, not per setting: a run of a large cluster with short
    // timeouts can take a minute, and a bar that moved per setting sat still for hours.
    let bar = super::progress::bar((settings.len() as u64).saturating_mul(a.runs), "crashes");
    for s in &settings {
        if let Some(bar) = &bar {
            bar.set_message(format!(", measuring {}", s.label()));
        }
        let scenario = s.scenario(a.seed).map_err(|e| setting_error(&e))?;
        let r = failover::measure_each(&scenario, a.runs, || {
            if let Some(bar) = &bar {
                bar.inc(1);
            }
        })
        .map_err(|e| setting_error(&e))?;
        let cost = match &disturbance {
            Some(d) => Some(cost::measure(&scenario, d).map_err(|e| setting_error(&e))?),
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
    if let Some(bar) = bar {
        bar.finish_and_clear();
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
        let svg = cdf_svg(&title, &series);
        if svg_to_stdout {
            // New-user review: `--svg -` wrote a file named "-". Now `-` is stdout, as for
            // `run --trace -`; the plot goes out whole before the report, which moves to stderr.
            outln!("{}", svg.trim_end());
            super::out::report_to_stderr();
        } else {
            std::fs::write(path, svg).map_err(|e| {
                CliError::usage(format!(
                    "cannot write {}: {}",
                    path.display(),
                    super::args::io_words(&e)
                ))
            })?;
        }
    }
    if a.json {
        let mut out = serde_json::json!({ "runs": a.runs, "seed": a.seed, "settings": reports });
        // No crash was followed by a new leader: there is no time to report (null, not 0).
        if let Some(list) = out["settings"].as_array_mut() {
            for (r, v) in reports.iter().zip(list) {
                if r.failover.samples_us.is_empty() {
                    for key in ["min_ms", "median_ms", "p99_ms", "max_ms"] {
                        v[key] = serde_json::Value::Null;
                    }
                }
            }
        }
        outln!("{}", super::json_ms::to_ms(out));
    } else {
        outln!(
            "tenure failover: {}, {} nodes, {} crashes of the leader per setting, seeds {} to {}",
            a.algorithm,
            a.nodes,
            a.runs,
            a.seed,
            a.seed.saturating_add(a.runs.saturating_sub(1))
        );
        for r in &reports {
            let f = &r.failover;
            outln!("  {}", r.label);
            if f.samples_us.is_empty() {
                outln!("    time to a new leader: n/a (no crash was followed by a new leader)");
            } else {
                outln!(
                    "    time to a new leader: min {:.1} ms, median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
                    f.min_ms,
                    f.median_ms,
                    f.p99_ms,
                    f.max_ms
                );
            }
            if f.failures > 0 {
                outln!(
                    "    no new leader within {} ms in {}",
                    failover::GIVE_UP_MS,
                    super::args::count(f.failures, "run")
                );
            }
            if let Some(c) = &r.cost {
                outln!(
                    "    false elections: {} in {} of simulated time with {} pauses of {} ms ({:.1} false elections per simulated hour)",
                    c.false_elections,
                    span(c.run_ms),
                    c.pauses,
                    a.pause.unwrap_or(DEFAULT_PAUSE_MS),
                    c.false_elections_per_hour
                );
            }
        }
        if let Some(path) = &a.svg {
            if svg_to_stdout {
                outln!("  plot written to stdout");
            } else {
                outln!("  plot written to {}", path.display());
            }
        }
    }
    Ok(reports.iter().any(|r| r.failover.failures > 0))
}
