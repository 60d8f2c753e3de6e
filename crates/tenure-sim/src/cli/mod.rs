//! The `tenure` command line: `run`, `chaos`, `failover`, `search` and `check` (clap; native builds only).
//!
//! Exit codes: 0 when no invariant the algorithm promises was violated, 1 when one was, 2 for
//! argument or scenario errors, which are printed as one line on stderr.

mod args;
mod chaos;
mod check;
mod failover;
mod permalink;
mod run;
mod search;

pub use args::{parse_duration_ms, parse_timeouts};
pub use permalink::permalink_hash;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Tenure: leader election you can watch, test and ship.
#[derive(Debug, Parser)]
#[command(name = "tenure", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run one scenario (a JSON file, or built from flags) and print a summary.
    Run(run::RunArgs),
    /// Run a chaos campaign: random fault schedules, a heal, a liveness check.
    Chaos(chaos::ChaosArgs),
    /// Measure the time to elect a new leader after the leader crashes (Raft Figure 16).
    Failover(failover::FailoverArgs),
    /// Search seeded fault schedules for a run that violates a property, then shrink it.
    Search(search::SearchArgs),
    /// Bounded exhaustive check: breadth-first over fault schedules; the shortest counterexample.
    Check(check::CheckArgs),
}

/// A CLI failure: a one-line message and its exit code.
#[derive(Debug)]
pub struct CliError {
    /// The message, one line.
    pub message: String,
    /// The exit code.
    pub code: u8,
}

impl CliError {
    pub(crate) fn usage(message: impl Into<String>) -> Self {
        CliError {
            message: message.into(),
            code: 2,
        }
    }
}

/// Parses `args` (program name first) and runs the command; returns the exit code.
pub fn main_with<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = e.print();
                return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    ExitCode::from(2)
                } else {
                    ExitCode::SUCCESS
                };
            }
            // One line: clap's first paragraph (the error and the arguments it names, which
            // clap puts on indented lines), without the usage block that follows it.
            let text = e.render().to_string();
            let line = text
                .lines()
                .skip_while(|l| l.trim().is_empty())
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(" ");
            let line = if line.is_empty() {
                "error: invalid arguments".into()
            } else {
                line
            };
            eprintln!("{line} (see `tenure --help`)");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Run(a) => run::run(a),
        Command::Chaos(a) => chaos::run(a),
        Command::Failover(a) => failover::run(a),
        Command::Search(a) => search::run(a),
        Command::Check(a) => check::run(a),
    };
    match result {
        Ok(failed) => {
            if failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("error: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}

/// Runs the CLI on the process's arguments.
pub fn main() -> ExitCode {
    main_with(std::env::args_os())
}

/// One summary line for `n` violations of `kind`: its name, the count, and whether
/// `algorithm` promises it (only promised kinds fail a run).
fn violation_count(
    algorithm: crate::Algorithm,
    kind: crate::checker::InvariantKind,
    n: u64,
) -> String {
    let promised = crate::checker::promises(algorithm).contains(&kind);
    let note = if promised {
        "promised: run fails"
    } else {
        "not promised"
    };
    format!("{}: {n} ({note})", kind.name())
}

/// The `--algorithm` help line: every registered name.
pub(crate) fn algorithm_help() -> String {
    format!("The algorithm: {}", crate::Algorithm::NAMES.join(", "))
}

/// The `--algorithm` long help (`--help`): each registered algorithm with its help line.
pub(crate) fn algorithm_long_help() -> String {
    let mut s = String::from("The algorithm every node runs:");
    for a in crate::Algorithm::ALL {
        s.push_str(&format!("\n  {:<16} {}", a.name(), a.spec().help));
    }
    s
}
