//! `tenure chaos`: a campaign of random fault schedules, on every core.

use super::CliError;
use super::args::{ChaosFlags, ms, parse_duration_ms};
use super::out::outln;
use crate::chaos::{self, ChaosOptions, ChaosReport, Family, RunOutcome};
use crate::scenario::Algorithm;
use clap::Args;

#[derive(Debug, Args)]
pub(crate) struct ChaosArgs {
    #[command(flatten)]
    chaos: ChaosFlags,
    /// Number of runs (1 to 10,000,000).
    #[arg(long, default_value_t = 100, value_parser = super::args::parse_chaos_runs)]
    runs: u64,
    /// Raft: the leader proposes a command this often (default 200ms); 5ms is a storm test.
    #[arg(long, allow_hyphen_values = true, value_parser = parse_duration_ms)]
    propose_every: Option<u64>,
    /// Worker threads, 1 to 256 (default: one per core).
    #[arg(long, value_parser = super::args::parse_jobs)]
    jobs: Option<usize>,
    /// Print the report as JSON (times in ms).
    #[arg(long)]
    json: bool,
    /// Print each run's scenario instead of running it, one JSON object per line (JSON
    /// Lines: `--runs 3 --emit-scenario > runs.jsonl`).
    #[arg(long, conflicts_with_all = ["json", "jobs"])]
    emit_scenario: bool,
}

impl Family {
    /// One name of a `--families` list: `kill, pause` names `pause`, not ` pause`.
    pub(crate) fn from_str_arg(s: &str) -> Result<Family, String> {
        s.trim().parse()
    }
}

/// Every run of the campaign on a pool of `jobs` threads (rayon's work stealing: a long run
/// does not hold up the others), in seed order, with the CPU time they took.
fn outcomes(opts: &ChaosOptions, jobs: usize) -> Result<(Vec<RunOutcome>, Cpu), CliError> {
    use rayon::prelude::*;
    let bar = super::progress::bar(opts.runs, "runs");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.clamp(1, super::args::MAX_JOBS))
        .build()
        .map_err(|e| CliError::usage(format!("--jobs: cannot start the threads: {e}")))?;
    let runs: Vec<(RunOutcome, Cpu)> = pool
        .install(|| {
            (0..opts.runs)
                .into_par_iter()
                .map(|i| {
                    let start = Cpu::now();
                    let r = chaos::run_one(opts, opts.seed.wrapping_add(i))?;
                    if let Some(bar) = &bar {
                        bar.inc(1);
                    }
                    Ok((r, Cpu::now().since(start)))
                })
                .collect::<Result<Vec<_>, crate::scenario::ScenarioError>>()
        })
        .map_err(|e| CliError::usage(e.to_string()))?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let total = runs.iter().fold(Cpu::default(), |t, (_, c)| t.plus(*c));
    Ok((runs.into_iter().map(|(r, _)| r).collect(), total))
}

/// Time a thread spent on a CPU: the kernel's count where it has one (Linux's
/// `/proc/thread-self/schedstat`, ns), else wall time (then "per core" assumes one core per
/// thread).
#[derive(Clone, Copy, Debug, Default)]
struct Cpu {
    ns: u64,
    wall: bool,
}

impl Cpu {
    fn now() -> Cpu {
        let kernel = std::fs::read_to_string("/proc/thread-self/schedstat")
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok());
        match kernel {
            Some(ns) => Cpu { ns, wall: false },
            None => Cpu {
                ns: u64::try_from(wall_epoch().elapsed().as_nanos()).unwrap_or(u64::MAX),
                wall: true,
            },
        }
    }

    fn since(self, start: Cpu) -> Cpu {
        Cpu {
            ns: self.ns.saturating_sub(start.ns),
            wall: self.wall || start.wall,
        }
    }

    fn plus(self, o: Cpu) -> Cpu {
        Cpu {
            ns: self.ns.saturating_add(o.ns),
            wall: self.wall || o.wall,
        }
    }

    fn seconds(self) -> f64 {
        self.ns as f64 / 1e9
    }
}

fn wall_epoch() -> std::time::Instant {
    static EPOCH: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    *EPOCH.get_or_init(std::time::Instant::now)
}

pub(crate) fn run(a: ChaosArgs) -> Result<bool, CliError> {
    let mut opts = a.chaos.options().map_err(CliError::usage)?;
    opts.runs = a.runs;
    if let Some(ms) = a.propose_every {
        if opts.algorithm != Algorithm::Raft {
            return Err(CliError::usage(format!(
                "--propose-every applies to raft, not {}",
                opts.algorithm
            )));
        }
        if ms == 0 {
            return Err(CliError::usage("--propose-every 0ms must be at least 1ms"));
        }
        opts.propose_interval_ms = Some(ms);
    }
    let probe = chaos::scenario(&opts, opts.seed);
    probe
        .validate()
        .map_err(|e| CliError::usage(e.to_string()))?;
    if a.emit_scenario {
        for i in 0..opts.runs {
            let s = chaos::scenario(&opts, opts.seed.wrapping_add(i));
            outln!("{}", serde_json::to_string(&s).unwrap_or_default());
            if super::out::closed() {
                break; // the reader stopped reading (`| head`): the rest would be dropped
            }
        }
        return Ok(false);
    }
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let start = std::time::Instant::now();
    let mut report = ChaosReport {
        algorithm: opts.algorithm.name().to_string(),
        ..ChaosReport::default()
    };
    let (runs, cpu) = outcomes(&opts, jobs)?;
    for r in &runs {
        report.add(&opts, r);
    }
    let wall = start.elapsed();
    let speed = Speed {
        jobs: jobs.clamp(1, super::args::MAX_JOBS),
        wall_s: wall.as_secs_f64(),
        cpu,
    };
    if a.json {
        let v = serde_json::to_value(&report).unwrap_or_default();
        outln!("{}", super::json_ms::to_ms(v));
    } else {
        print(&opts, &report, &speed);
    }
    Ok(report.failed_runs > 0)
}

/// How fast a campaign ran.
struct Speed {
    jobs: usize,
    wall_s: f64,
    cpu: Cpu,
}

fn print(opts: &ChaosOptions, r: &ChaosReport, speed: &Speed) {
    outln!(
        "tenure chaos: {}, {} nodes, {} x {} of faults + {} heal, seeds {} to {}",
        opts.algorithm,
        opts.nodes,
        super::args::count(r.runs, "run"),
        ms(opts.duration_ms.saturating_mul(1000)),
        ms(opts.heal_ms.saturating_mul(1000)),
        opts.seed,
        opts.seed.wrapping_add(r.runs.saturating_sub(1)),
    );
    let row = |k: &str, v: String| outln!("  {k:<24}{v}");
    row("runs", r.runs.to_string());
    row("failed runs", r.failed_runs.to_string());
    if r.violations.is_empty() {
        row("violations", "none".into());
    }
    for (k, n) in &r.violations {
        row("violations", super::violation_count(opts.algorithm, *k, *n));
    }
    row(
        "split brain",
        format!(
            "in {}, worst window {}",
            super::args::count(r.runs_with_split_brain, "run"),
            ms(r.worst_split_brain_us)
        ),
    );
    if opts.algorithm.has_store() {
        row("stale writes accepted", r.stale_writes_accepted.to_string());
    }
    let budget = crate::budget::budget(&chaos::scenario(opts, opts.seed));
    row(
        "messages per sim second",
        format!(
            "peak {} (budget {}), {} over budget",
            r.peak_messages_per_second,
            budget.messages_per_second,
            super::args::count(r.over_budget_runs, "run")
        ),
    );
    row(
        "queued events",
        format!("peak {} (budget {})", r.peak_queue_len, budget.queue_len),
    );
    row(
        "events",
        format!("{} in {:.1} s wall", r.events, speed.wall_s),
    );
    let runs = r.runs as f64;
    let cpu_s = speed.cpu.seconds();
    let unit = if speed.cpu.wall {
        "s of thread wall time"
    } else {
        "CPU s"
    };
    // Under a millisecond the thread clocks say little (a short run read 0 ns and printed a
    // billion runs per core): the figure is left out rather than made up.
    let per_core = if cpu_s >= 1e-3 {
        format!("{:.1} per core ({cpu_s:.1} {unit})", runs / cpu_s)
    } else {
        let time = if speed.cpu.wall {
            "thread wall time"
        } else {
            "CPU time"
        };
        format!("per core: too short to measure (under 1 ms of {time})")
    };
    row(
        "runs per second",
        format!(
            "{:.1} total on {} threads, {per_core}",
            runs / speed.wall_s.max(1e-9),
            speed.jobs,
        ),
    );
    for (i, f) in r.failures.iter().enumerate() {
        outln!("FAIL seed {}: {}", f.seed, f.violation);
        outln!("  chaos:      {}", f.replay);
        // The run's scenario, its `tenure run` replay and its playground link (the first
        // few failures; the chaos command above replays any of them).
        if i < 5 {
            let s = chaos::scenario(opts, f.seed);
            let path = std::path::PathBuf::from(format!(
                "tenure-chaos-{}-seed-{}.json",
                opts.algorithm, f.seed
            ));
            if let Err(e) = super::permalink::emit(&s, &path, 0) {
                outln!("  {}", e.message);
            }
        }
    }
}
