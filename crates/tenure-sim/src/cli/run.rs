//! `tenure run`: one scenario, a summary, optionally every event as JSON lines.

use super::CliError;
use super::args::{RaftFlags, ms, parse_duration_ms};
use super::out::{errln, outln};
use crate::scenario::{Algorithm, Scenario};
use crate::world::World;
use clap::Args;
use std::cell::RefCell;
use std::io::Write;
use std::path::PathBuf;
use std::rc::Rc;

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// A scenario JSON file (instead of --algorithm and friends).
    #[arg(conflicts_with_all = ["algorithm", "nodes", "seed", "duration"])]
    scenario: Option<PathBuf>,
    #[arg(long, value_parser = Algorithm::from_str_arg,
          help = super::algorithm_help(), long_help = super::algorithm_long_help())]
    algorithm: Option<Algorithm>,
    /// Number of nodes, 1 to 64 (default 5).
    #[arg(long, value_parser = super::args::parse_nodes)]
    nodes: Option<u64>,
    /// Seed for every random choice (default 0).
    #[arg(long, value_parser = super::args::parse_seed)]
    seed: Option<u64>,
    /// Simulated time to run: 60s, 1500ms, 2m (default 60s).
    #[arg(long, allow_hyphen_values = true, value_parser = parse_duration_ms)]
    duration: Option<u64>,
    #[command(flatten)]
    raft: RaftFlags,
    /// A fault to schedule (repeatable): words, `crash node=1 at=2s`,
    /// `partition groups=1,2|3 at=2s`, `pause target=store duration=500ms at=1s`, or the
    /// scenario file's JSON, `{"at_ms": 2000, "fault": {"type": "crash", "node": 1}}`.
    #[arg(long = "fault", value_name = "FAULT", value_parser = super::fault_text::parse_fault)]
    faults: Vec<serde_json::Value>,
    #[command(flatten)]
    config: super::config_flags::ConfigFlags,
    /// Write every event to this file as JSON Lines; `-` writes them to stdout (the summary
    /// then goes to stderr).
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
    /// Print the summary as JSON (times in ms, the trace hash as 16 hex digits).
    #[arg(long)]
    json: bool,
}

impl Algorithm {
    pub(crate) fn from_str_arg(s: &str) -> Result<Algorithm, String> {
        s.parse()
    }
}

/// The largest scenario file `run` reads, in bytes: the 8 MiB that `Simulation.fromJSON`
/// takes from JS (pkg/README.md, "Limits"). A scenario at every format limit is far smaller;
/// without a bound, `run /dev/zero` grew without end.
const MAX_SCENARIO_BYTES: u64 = 8 * 1024 * 1024;

/// Reads a scenario file of at most [`MAX_SCENARIO_BYTES`] as UTF-8 text, reading no more
/// than one byte past the limit whatever the file's size (a pipe, a device, a huge file).
fn read_scenario_text(path: &std::path::Path) -> Result<String, CliError> {
    use std::io::Read;
    let cannot =
        |why: String| CliError::usage(format!("cannot read scenario {}: {why}", path.display()));
    let file = std::fs::File::open(path).map_err(|e| cannot(super::args::io_words(&e)))?;
    let mut bytes = Vec::new();
    file.take(MAX_SCENARIO_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| cannot(super::args::io_words(&e)))?;
    if bytes.len() as u64 > MAX_SCENARIO_BYTES {
        return Err(cannot(format!(
            "it is larger than 8 MiB ({MAX_SCENARIO_BYTES} bytes), the most a scenario file may hold"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        cannot(format!(
            "it is not UTF-8 text (the byte at offset {} is not)",
            e.utf8_error().valid_up_to()
        ))
    })
}

fn scenario(a: &RunArgs) -> Result<Scenario, CliError> {
    if let Some(path) = &a.scenario {
        let text = read_scenario_text(path)?;
        let text = crate::scenario::without_bom(&text);
        let s = Scenario::from_json(text).map_err(|e| {
            let words = super::json_text::above_u64_words(&e.to_string(), text);
            let words = super::json_text::file_number_as_written(&words, text);
            let words = super::json_text::seed_words(&words);
            CliError::usage(format!("{}: {words}", path.display()))
        })?;
        a.raft.check(s.algorithm).map_err(CliError::usage)?;
        let mut s = s;
        if s.algorithm == Algorithm::Raft {
            s.config.pre_vote = a.raft.pre_vote().or(s.config.pre_vote);
            s.config.check_quorum = a.raft.check_quorum().or(s.config.check_quorum);
        }
        return with_command_line(s, a);
    }
    let Some(algorithm) = a.algorithm else {
        return Err(CliError::usage(format!(
            "give a scenario file or --algorithm ({})",
            Algorithm::NAMES.join(", ")
        )));
    };
    a.raft.check(algorithm).map_err(CliError::usage)?;
    let mut s = Scenario::new(
        algorithm,
        a.nodes.unwrap_or(5),
        a.seed.unwrap_or(0),
        a.duration.unwrap_or(60_000),
    );
    s.config.pre_vote = a.raft.pre_vote();
    s.config.check_quorum = a.raft.check_quorum();
    s.validate().map_err(|e| CliError::usage(e.to_string()))?;
    with_command_line(s, a)
}

/// `s` with `--config`, the `--set` values and `--fault`s applied, read back through the scenario
/// format (its keys, checks and messages).
fn with_command_line(s: Scenario, a: &RunArgs) -> Result<Scenario, CliError> {
    if a.config.config.is_none() && a.config.sets.is_empty() && a.faults.is_empty() {
        return Ok(s);
    }
    let mut s = s;
    if let Some(c) = &a.config.config {
        s.config = c.clone();
    }
    let mut doc = serde_json::to_value(&s).unwrap_or_default();
    for (path, value) in &a.config.sets {
        super::fault_text::apply_set(&mut doc, path, value.clone()).map_err(CliError::usage)?;
    }
    if let Some(list) = doc.get_mut("faults").and_then(|f| f.as_array_mut()) {
        list.extend(a.faults.iter().cloned());
    }
    Scenario::from_value(doc).map_err(|e| CliError::usage(format!("with --set/--fault: {e}")))
}

type Sink = Rc<RefCell<(Box<dyn Write>, Option<std::io::Error>)>>;

/// Where the summary goes: stdout, or stderr when the trace is written to stdout.
struct Out {
    to_stderr: bool,
}

impl Out {
    fn line(&self, text: &str) {
        if self.to_stderr {
            errln!("{text}");
        } else {
            outln!("{text}");
        }
    }
}

/// Runs the world to its end; a run of a minute or more goes in 200 slices of simulated
/// time, with a progress bar on a terminal (the events and their order do not depend on
/// the slicing, and the tests hold the trace hash to the unsliced run's).
fn run_world(world: &mut World) {
    let end = world.scenario().duration_ms.micros();
    if end < 60_000_000 {
        world.run();
        return;
    }
    let bar = super::progress::bar(end / 1_000_000, "simulated s");
    let slice = (end / 200).max(1);
    let mut t = world.now().as_micros();
    while t < end {
        t = t.saturating_add(slice).min(end);
        world.run_until(tenure::Instant::from_micros(t));
        if let Some(bar) = &bar {
            bar.set_position(t / 1_000_000);
        }
    }
    world.run();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
}

/// Whether `a` and `b` name one existing file (through links and `..` too).
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The note for faults scheduled after the run's end, which never strike, or `None` when
/// every fault is within the run. They are not refused: a shrunk scenario is a shortened
/// run whose later faults stay in the file, and it must still load.
fn late_faults_note(s: &Scenario) -> Option<String> {
    let end = s.duration_ms;
    let late = s.faults.iter().filter(|f| f.at_ms > end).count() as u64;
    (late > 0).then(|| {
        let verb = if late == 1 { "is" } else { "are" };
        format!(
            "note: {} {verb} scheduled after the run ends at {} and will not happen",
            super::args::count(late, "fault"),
            ms(end.micros())
        )
    })
}

pub(crate) fn run(a: RunArgs) -> Result<bool, CliError> {
    let s = scenario(&a)?;
    if let Some(note) = late_faults_note(&s) {
        errln!("{note}");
    }
    let mut world = World::new(&s).map_err(|e| CliError::usage(e.to_string()))?;
    let mut sink: Option<Sink> = None;
    let to_stdout = a.trace.as_deref() == Some(std::path::Path::new("-"));
    if let (Some(trace), Some(input)) = (&a.trace, &a.scenario)
        && same_file(trace, input)
    {
        // New-user review: `run s.json --trace s.json` replaced the scenario with its trace.
        return Err(CliError::usage(format!(
            "--trace {}: that is the scenario file being run, and the trace would replace it; \
             give another file, or --trace - for stdout",
            trace.display()
        )));
    }
    if let Some(path) = &a.trace {
        let out: Box<dyn Write> = if to_stdout {
            Box::new(std::io::BufWriter::new(std::io::stdout()))
        } else {
            let file = std::fs::File::create(path).map_err(|e| {
                CliError::usage(format!(
                    "cannot create trace file {}: {}",
                    path.display(),
                    super::args::io_words(&e)
                ))
            })?;
            Box::new(std::io::BufWriter::new(file))
        };
        let shared: Sink = Rc::new(RefCell::new((out, None)));
        // Building the world already started every process (the t=0 sends): write what the
        // event log holds so far, then every later event as it happens.
        for ev in &world.events_since(0).0 {
            write_event(&shared, ev);
        }
        let writer = Rc::clone(&shared);
        world.set_trace_sink(Box::new(move |ev| write_event(&writer, ev)));
        sink = Some(shared);
    }
    run_world(&mut world);
    if let Some(shared) = sink {
        let mut w = shared.borrow_mut();
        let flushed = w.0.flush();
        if let Some(e) = w.1.take().or(flushed.err()) {
            // A closed pipe (`| head`) is the reader's choice, not a failure.
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                return Err(CliError {
                    message: format!("writing the trace failed: {}", super::args::io_words(&e)),
                    code: 2,
                });
            }
        }
    }
    if let Some(why) = world.storm() {
        return Err(CliError {
            message: why.to_string(),
            code: 1,
        });
    }
    print_summary(
        &world,
        a.json,
        &Out {
            to_stderr: to_stdout,
        },
    );
    Ok(world.failed())
}

fn print_summary(world: &World, json: bool, out: &Out) {
    let s = world.scenario();
    let m = world.metrics();
    let leaders: Vec<String> = world.leaders().iter().map(|l| l.to_string()).collect();
    if json {
        let doc = serde_json::json!({
            "algorithm": s.algorithm,
            "nodes": s.nodes,
            "seed": s.seed,
            "duration_ms": s.duration_ms,
            "leaders": world.leaders(),
            "metrics": m,
            "violations": world.violations(),
            "failed": world.failed(),
            "trace_hash": format!("{:016x}", world.trace_hash()),
        });
        out.line(&super::json_ms::to_ms(doc).to_string());
        return;
    }
    out.line(&format!(
        "tenure run: {}, {} nodes, seed {}, {} of simulated time",
        s.algorithm,
        s.nodes,
        s.seed,
        ms(s.duration_ms.micros())
    ));
    let row = |k: &str, v: String| out.line(&format!("  {k:<24}{v}"));
    row(
        "leaders at the end",
        if leaders.is_empty() {
            "none".into()
        } else {
            leaders.join(", ")
        },
    );
    row("elections_total", m.elections_total.to_string());
    row("leadership_lost_total", m.leadership_lost_total.to_string());
    if let Some(t) = m.fencing_token {
        row("fencing token", t.to_string());
    }
    row(
        "split-brain window",
        format!(
            "{} (longest {})",
            ms(m.split_brain_us),
            ms(m.worst_split_brain_us)
        ),
    );
    row("time without a leader", ms(m.leaderless_us));
    if !m.failover_us.is_empty() {
        let v: Vec<String> = m.failover_us.iter().map(|u| ms(*u)).collect();
        row("failover after crash", v.join(", "));
    }
    if s.algorithm.has_store() {
        row(
            "writes",
            format!(
                "{} accepted, {} rejected; stale accepted {}, stale rejected {}, late {}",
                m.writes_accepted,
                m.writes_rejected,
                m.stale_writes_accepted,
                m.stale_writes_rejected,
                m.late_writes
            ),
        );
    }
    row(
        "messages",
        format!(
            "{} sent, {} delivered, {} dropped",
            m.messages_sent, m.messages_delivered, m.messages_dropped
        ),
    );
    row("events", m.events.to_string());
    row("trace hash", format!("{:016x}", world.trace_hash()));
    let counts = world.violation_counts();
    if counts.is_empty() {
        row("violations", "none".into());
    } else {
        for (k, n) in &counts {
            row("violations", super::violation_count(s.algorithm, *k, *n));
        }
        if let Some(v) = world.violations().first() {
            row(
                "first violation",
                format!("{} at {}: {}", v.kind.name(), ms(v.time_us), v.detail),
            );
        }
    }
}

/// Appends `ev` to the trace as one JSON line; the first write error is kept and later
/// events are skipped.
fn write_event(sink: &Sink, ev: &crate::trace::TraceEvent) {
    let mut w = sink.borrow_mut();
    if w.1.is_none() {
        let line = serde_json::to_string(ev).unwrap_or_default();
        if let Err(e) = writeln!(w.0, "{line}") {
            w.1 = Some(e);
        }
    }
}
