//! `tenure check`: the bounded exhaustive check, breadth-first over fault schedules in
//! discrete steps; prints states explored, unique states, states/s and the shortest
//! counterexample (file, replay command, playground link).
//!
//! Exit codes: 1 when a counterexample was found, 0 when none within the bounds, 2 for bad
//! arguments.

use super::CliError;
use super::args::{RaftFlags, parse_duration_ms};
use super::out::outln;
use super::permalink;
use super::search::{default_out, parse_property};
use crate::scenario::{Algorithm, Scenario};
use crate::search::Property;
use crate::search::explore::{CheckOptions, CutShortBy, check_with};
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    #[arg(long, value_parser = Algorithm::from_str_arg,
          help = super::algorithm_help(), long_help = super::algorithm_long_help())]
    algorithm: Algorithm,
    /// any-promised, split-brain, stale-write, no-leader-for=DURATION, or an invariant name.
    #[arg(long, value_parser = parse_property)]
    property: Property,
    /// Number of nodes (1 to 64); every state holds a world of them, so more nodes fill
    /// --max-memory sooner.
    #[arg(long, default_value_t = 3, value_parser = super::args::parse_nodes)]
    nodes: u64,
    /// Length of one step (a multiple of 10ms: 500ms, 1s).
    #[arg(long, default_value = "500ms", allow_hyphen_values = true, value_parser = parse_duration_ms)]
    step: u64,
    /// Steps to explore.
    #[arg(long, default_value_t = 8, value_parser = super::args::parse_small_count)]
    steps: u32,
    /// Most faults on one path.
    #[arg(long, default_value_t = 2, value_parser = super::args::parse_small_count)]
    faults: u32,
    /// Stop after this many states (1 or more); the report says when it cut the check short.
    #[arg(long, default_value_t = 200_000, value_parser = super::args::parse_count)]
    max_states: u64,
    /// Stop when the check's memory (its resident set) reaches this much: 512MiB, 4GiB
    /// (16MiB to 1TiB). Every state kept holds a whole world, larger with more nodes, so
    /// --max-states alone does not bound the bytes; like --max-states, the report says when
    /// it cut the check short.
    #[arg(long, default_value = "2GiB", value_parser = super::memory_size::parse_memory)]
    max_memory: u64,
    /// The seed of the network's and the machines' random draws.
    #[arg(long, default_value_t = 0, value_parser = super::args::parse_seed)]
    seed: u64,
    #[command(flatten)]
    config: super::config_flags::ConfigFlags,
    #[command(flatten)]
    raft: RaftFlags,
    /// Where to write the counterexample (default: tenure-<algorithm>-<property>.json here).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// Where the counterexample goes without `--out`: `tenure-<algorithm>-<property>-check.json`.
fn default_check_out(a: &CheckArgs) -> PathBuf {
    let mut p = default_out(a.algorithm, a.property);
    p.set_file_name(format!(
        "{}-check.json",
        p.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    ));
    p
}

pub(crate) fn run(a: CheckArgs) -> Result<bool, CliError> {
    a.raft.check(a.algorithm).map_err(CliError::usage)?;
    if let Some(out) = &a.out {
        super::args::check_out_path(out, "--out").map_err(CliError::usage)?;
    }
    // Before the check, not after it: a refusal at the end would lose what it found.
    let out = a.out.clone().unwrap_or_else(|| default_check_out(&a));
    permalink::check_replaceable(&out, a.out.is_some()).map_err(CliError::usage)?;
    if a.steps == 0 {
        return Err(CliError::usage(
            "--steps 0 would explore nothing: give at least 1",
        ));
    }
    if a.max_states == 0 {
        return Err(CliError::usage(
            "--max-states 0 would explore nothing: give at least 1 (the default is 200000)",
        ));
    }
    let run_ms = u64::from(a.steps).saturating_mul(a.step);
    if run_ms > crate::scenario::MAX_DURATION_MS {
        return Err(CliError::usage(format!(
            "--steps {} of --step {} ms make a run of {run_ms} ms, above the longest run, {} \
             ms: take fewer or shorter steps",
            a.steps,
            a.step,
            crate::scenario::MAX_DURATION_MS
        )));
    }
    let mut s = Scenario::new(a.algorithm, a.nodes, a.seed, 1);
    s.config = a
        .config
        .config(&crate::scenario::AlgoConfig::default(), "check")
        .map_err(CliError::usage)?;
    if a.algorithm == Algorithm::Raft {
        s.config.pre_vote = a.raft.pre_vote().or(s.config.pre_vote);
        s.config.check_quorum = a.raft.check_quorum().or(s.config.check_quorum);
    }
    let mut opts = CheckOptions::new(s, a.property);
    opts.step_ms = a.step;
    opts.steps = a.steps;
    opts.max_faults = a.faults;
    opts.max_states = a.max_states;
    opts.max_memory_bytes = a.max_memory;
    let start = Instant::now();
    let bar = super::progress::spinner(format!(
        "exploring {} steps of {} ms, up to {} faults",
        a.steps, a.step, a.faults
    ));
    let mut last = 0u64;
    let report = check_with(&opts, &mut |r| {
        if let Some(bar) = &bar
            && r.states_explored >= last.saturating_add(64)
        {
            last = r.states_explored;
            bar.set_message(format!(
                "{} states explored, depth {} of {}, {} unique",
                r.states_explored,
                r.depth_reached.saturating_add(1),
                a.steps,
                r.unique_states
            ));
        }
    })
    .map_err(|e| CliError::usage(e.to_string()))?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let wall = start.elapsed().as_secs_f64();
    #[allow(clippy::cast_precision_loss)]
    let rate = report.states_explored as f64 / wall.max(1e-9);
    if a.json {
        let mut v = serde_json::to_value(&report).unwrap_or_default();
        if let Some(o) = v.as_object_mut() {
            o.insert("states_per_second".into(), serde_json::json!(rate.round()));
        }
        outln!("{}", super::json_ms::to_ms(v));
    } else {
        outln!(
            "tenure check: {} for {}, {} nodes, {} of {} ms, up to {}, seed {}",
            a.algorithm,
            a.property,
            a.nodes,
            super::args::count(u64::from(a.steps), "step"),
            a.step,
            super::args::count(u64::from(a.faults), "fault"),
            a.seed
        );
        outln!(
            "  states explored {}, unique {}, {:.0} states/s, depth reached {}{}",
            report.states_explored,
            report.unique_states,
            rate,
            report.depth_reached,
            match report.cut_short_by {
                Some(CutShortBy::MaxStates) =>
                    format!(" (cut short by --max-states {})", a.max_states),
                Some(CutShortBy::MaxMemory) => format!(
                    " (cut short by --max-memory {}: the states kept filled it; raise it, or \
                     lower --nodes, --steps or --faults)",
                    super::memory_size::memory_words(a.max_memory)
                ),
                None => String::new(),
            }
        );
    }
    let Some(cx) = &report.counterexample else {
        if !a.json {
            if report.truncated {
                outln!(
                    "no violation of {} in the states explored before the check was cut short \
                     (not a proof for these bounds)",
                    a.property
                );
            } else {
                outln!("no violation of {} within these bounds", a.property);
            }
        }
        return Ok(false);
    };
    if !a.json {
        outln!(
            "shortest counterexample: depth {} ({} ms), {} faults: {} at {}: {}",
            cx.depth,
            u64::from(cx.depth).saturating_mul(a.step),
            cx.scenario.faults.len(),
            cx.witness.kind,
            super::args::ms(cx.witness.time_us),
            cx.witness.detail
        );
        permalink::emit(&cx.scenario, &out, cx.witness.time_us / 1_000)?;
    }
    Ok(true)
}
