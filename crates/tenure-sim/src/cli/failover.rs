//! `tenure failover`: time to a new leader after the leader crashes (Raft Figure 16).

use super::CliError;
use super::args::{RaftFlags, parse_timeouts};
use crate::failover;
use crate::scenario::{Algorithm, Scenario};
use crate::units::Ms;
use clap::Args;

#[derive(Debug, Args)]
pub(crate) struct FailoverArgs {
    #[arg(long, value_parser = Algorithm::from_str_arg,
          help = super::algorithm_help(), long_help = super::algorithm_long_help())]
    algorithm: Algorithm,
    /// Number of nodes.
    #[arg(long, default_value_t = 5)]
    nodes: u64,
    /// Raft election timeout range in ms, `min-max` meaning [min, max) (150-300, 150-155),
    /// or `T` meaning [T, 2T).
    #[arg(long, value_parser = parse_timeouts)]
    timeouts: Option<(u64, u64)>,
    /// Number of crashes to measure.
    #[arg(long, default_value_t = 100)]
    runs: u64,
    /// Seed of the first run; run i uses seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    raft: RaftFlags,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(a: FailoverArgs) -> Result<bool, CliError> {
    a.raft.check(a.algorithm).map_err(CliError::usage)?;
    if a.timeouts.is_some() && a.algorithm != Algorithm::Raft {
        return Err(CliError::usage(format!(
            "--timeouts applies to raft, not {}",
            a.algorithm
        )));
    }
    if a.runs == 0 {
        return Err(CliError::usage("--runs must be at least 1"));
    }
    let mut s = Scenario::new(a.algorithm, a.nodes, a.seed, 60_000);
    if let Some((t, max)) = a.timeouts {
        s.config.election_timeout_ms = Some(Ms::from_millis(t));
        s.config.election_timeout_max_ms = Some(Ms::from_millis(max));
        // Heartbeats well inside the election timeout, as in the paper's setup.
        s.config.heartbeat_ms = Some(Ms(tenure::Duration::from_micros(
            t.saturating_mul(1000) / 3,
        )
        .max(tenure::Duration::from_micros(1))));
    }
    s.config.pre_vote = a.raft.pre_vote();
    s.config.check_quorum = a.raft.check_quorum();
    s.validate().map_err(|e| CliError::usage(e.to_string()))?;
    let r = failover::measure(&s, a.runs).map_err(|e| CliError::usage(e.to_string()))?;
    if a.json {
        println!("{}", serde_json::to_string(&r).unwrap_or_default());
    } else {
        println!(
            "tenure failover: {}, {} nodes, {} crashes of the leader{}",
            a.algorithm,
            a.nodes,
            r.runs,
            a.timeouts
                .map(|(t, max)| format!(", election timeout [{t}, {max}) ms"))
                .unwrap_or_default()
        );
        println!(
            "  time to a new leader: min {:.1} ms, median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            r.min_ms, r.median_ms, r.p99_ms, r.max_ms
        );
        if r.failures > 0 {
            println!(
                "  no new leader within {} ms in {} runs",
                failover::GIVE_UP_MS,
                r.failures
            );
        }
    }
    Ok(r.failures > 0)
}
