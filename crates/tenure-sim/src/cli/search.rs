//! `tenure search`: run seeded chaos schedules until one violates a property, shrink it,
//! and print the scenario file, its replay command and its playground link.
//!
//! Exit codes: 1 when a violation was found, 0 when none was within the budget, 2 for bad
//! arguments.

use super::CliError;
use super::args::{RaftFlags, parse_duration_ms};
use super::permalink;
use crate::chaos::{ChaosOptions, Family};
use crate::scenario::{AlgoConfig, Algorithm};
use crate::search::{Progress, Property, Search, SearchOptions, shrink};
use clap::Args;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A search budget: a number of runs or a wall-clock time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SearchBudget {
    /// At most this many runs.
    Runs(u64),
    /// At most this long.
    Time(Duration),
}

fn parse_budget(s: &str) -> Result<SearchBudget, String> {
    if let Ok(n) = s.trim().parse::<u64>() {
        return if n == 0 {
            Err("--budget must be at least 1 run".into())
        } else {
            Ok(SearchBudget::Runs(n))
        };
    }
    let ms = parse_duration_ms(s).map_err(|_| {
        format!("--budget `{s}` is neither a number of runs (10000) nor a time (60s)")
    })?;
    if ms == 0 {
        return Err("--budget must be more than 0 s".into());
    }
    Ok(SearchBudget::Time(Duration::from_millis(ms)))
}

pub(crate) fn parse_property(s: &str) -> Result<Property, String> {
    s.parse()
}

pub(crate) fn parse_config(s: &str) -> Result<AlgoConfig, String> {
    serde_json::from_str(s).map_err(|e| format!("--config is not a config object: {e}"))
}

#[derive(Debug, Args)]
pub(crate) struct SearchArgs {
    #[arg(long, value_parser = Algorithm::from_str_arg,
          help = super::algorithm_help(), long_help = super::algorithm_long_help())]
    algorithm: Algorithm,
    /// any-promised, split-brain, stale-write, no-leader-for=DURATION, or an invariant name.
    #[arg(long, value_parser = parse_property)]
    property: Property,
    /// Comma-separated fault families (default: all that apply).
    #[arg(long, value_delimiter = ',', value_parser = Family::from_str_arg)]
    families: Vec<Family>,
    /// Runs (10000) or wall time (60s).
    #[arg(long, default_value = "10000", value_parser = parse_budget)]
    budget: SearchBudget,
    /// Where to write the shrunk scenario (default: tenure-<algorithm>-<property>.json here).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Number of nodes.
    #[arg(long, default_value_t = 3)]
    nodes: u64,
    /// Faulty period of each run.
    #[arg(long, default_value = "20s", value_parser = parse_duration_ms)]
    duration: u64,
    /// Quiet period after the heal.
    #[arg(long, default_value = "5s", value_parser = parse_duration_ms)]
    heal: u64,
    /// Search seed: run i uses chaos seed seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Algorithm parameters as the scenario's `config` JSON, e.g. '{"ttl_ms": 2000}'.
    #[arg(long, value_parser = parse_config)]
    config: Option<AlgoConfig>,
    #[command(flatten)]
    raft: RaftFlags,
    /// Most candidate runs the shrinker may try.
    #[arg(long, default_value_t = 2_000)]
    shrink_steps: u64,
}

fn property_slug(p: Property) -> String {
    p.to_string()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

pub(crate) fn default_out(algorithm: Algorithm, property: Property) -> PathBuf {
    PathBuf::from(format!(
        "tenure-{algorithm}-{}.json",
        property_slug(property)
    ))
}

fn describe(p: &Progress, property: Property, wall: Duration) -> String {
    let rate = p.runs as f64 / wall.as_secs_f64().max(1e-9);
    let best = match property {
        Property::SplitBrain => format!("longest split brain {} us", p.best_score),
        Property::StaleWrite => format!("{} stale writes", p.best_score),
        Property::NoLeaderFor { .. } => format!("longest leaderless {} us", p.best_score),
        _ => format!("{} violations", p.best_score),
    };
    format!("{rate:.0} runs/s, best so far: {best}")
}

pub(crate) fn run(a: SearchArgs) -> Result<bool, CliError> {
    a.raft.check(a.algorithm).map_err(CliError::usage)?;
    let mut chaos = ChaosOptions::new(a.algorithm);
    chaos.nodes = a.nodes;
    chaos.duration_ms = a.duration;
    chaos.heal_ms = a.heal;
    chaos.seed = a.seed;
    chaos.pre_vote = a.raft.pre_vote();
    chaos.check_quorum = a.raft.check_quorum();
    if !a.families.is_empty() {
        chaos.families = a.families.clone();
    }
    let mut opts = SearchOptions::new(chaos, a.property);
    opts.config = a.config.clone().unwrap_or_default();
    opts.chaos.validate().map_err(CliError::usage)?;
    let mut search = Search::new(opts).map_err(|e| CliError::usage(e.to_string()))?;
    println!(
        "tenure search: {} for {}, {} nodes, {} ms of faults + {} ms heal, seed {}",
        a.algorithm, a.property, a.nodes, a.duration, a.heal, a.seed
    );
    let start = Instant::now();
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = match a.budget {
            SearchBudget::Runs(n) => indicatif::ProgressBar::new(n),
            SearchBudget::Time(_) => indicatif::ProgressBar::new_spinner(),
        };
        let template = match a.budget {
            SearchBudget::Runs(_) => "{bar:30} {pos}/{len} runs, {msg}",
            SearchBudget::Time(_) => "{spinner} {pos} runs in {elapsed}, {msg}",
        };
        let style = indicatif::ProgressStyle::with_template(template)
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
        bar.set_style(style);
        bar
    });
    let mut last_line = Instant::now();
    loop {
        let done = search.progress().runs;
        let batch = match a.budget {
            SearchBudget::Runs(n) if done >= n => break,
            SearchBudget::Runs(n) => (n - done).min(16),
            SearchBudget::Time(t) if start.elapsed() >= t => break,
            SearchBudget::Time(_) => 4,
        };
        let found = search
            .run_batch(batch)
            .map_err(|e| CliError::usage(e.to_string()))?;
        let line = describe(search.progress(), a.property, start.elapsed());
        if let Some(bar) = &bar {
            bar.set_position(search.progress().runs);
            bar.set_message(line);
        } else if last_line.elapsed() >= Duration::from_secs(1) || found {
            eprintln!("{} runs, {line}", search.progress().runs);
            last_line = Instant::now();
        }
        if found {
            break;
        }
    }
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let wall = start.elapsed();
    let Some(found) = search.found().cloned() else {
        println!(
            "no violation of {} in {} runs ({:.1} s, {})",
            a.property,
            search.progress().runs,
            wall.as_secs_f64(),
            describe(search.progress(), a.property, wall)
        );
        return Ok(false);
    };
    println!(
        "found: {} at {} ms in run {} (seed {}): {}",
        found.witness.kind,
        found.witness.time_us / 1_000,
        found.run,
        found.seed,
        found.witness.detail
    );
    let t0 = Instant::now();
    let report = shrink(&found.scenario, a.property, a.shrink_steps)
        .map_err(|e| CliError::usage(e.to_string()))?;
    println!(
        "shrunk: {} faults, {} nodes, {} ms -> {} faults, {} nodes, {} ms ({} steps, {:.1} ms); \
         {}/{} other seeds fail too",
        report.original.faults,
        report.original.nodes,
        report.original.duration_ms,
        report.shrunk.faults,
        report.shrunk.nodes,
        report.shrunk.duration_ms,
        report.steps,
        t0.elapsed().as_secs_f64() * 1_000.0,
        report.other_seeds_failing,
        crate::search::shrink::SEED_PROBES,
    );
    println!(
        "  violation:  {} at {} us: {}",
        report.witness.kind, report.witness.time_us, report.witness.detail
    );
    let out = a
        .out
        .unwrap_or_else(|| default_out(a.algorithm, a.property));
    permalink::emit(&report.scenario, &out, report.witness.time_us / 1_000)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_are_runs_or_time() {
        assert_eq!(parse_budget("10000"), Ok(SearchBudget::Runs(10_000)));
        assert_eq!(
            parse_budget("60s"),
            Ok(SearchBudget::Time(Duration::from_secs(60)))
        );
        assert!(parse_budget("0").is_err());
        assert!(parse_budget("0s").is_err());
        assert!(parse_budget("lots").is_err());
    }
}
