//! The `tenure` command line: `run`, `chaos`, `failover`, `search` and `check` (clap; native builds only).
//!
//! Exit codes ([`EXIT_CODES`], printed by `--help`): 0 when no invariant the algorithm
//! promises was violated (and, for `search`/`check`, no counterexample was found), 1 when
//! one was, 2 for argument or scenario errors, which are printed as one line on stderr.
//! Reports go to stdout; progress bars go to stderr and only when it is a terminal.

mod args;
mod chaos;
mod check;
mod config_flags;
mod failover;
mod fault_text;
mod json_ms;
mod json_text;
mod memory_size;
mod out;
mod permalink;
mod progress;
mod run;
mod search;
mod shown;

pub use args::{parse_duration_ms, parse_timeouts};
pub use permalink::permalink_hash;

use clap::{Parser, Subcommand};
use out::errln;
use std::process::ExitCode;

/// What each exit code means, as `--help` prints it.
pub const EXIT_CODES: &str = "Exit codes:
  0  no invariant the algorithm promises was violated (search, check: nothing found)
  1  a promised invariant was violated (search, check: a counterexample was found;
     failover: a crash left no new leader within the bound; run: a message storm
     stopped the world, one line on stderr)
  2  bad arguments or scenario, one line on stderr (search, check: a message storm)";

/// Tenure: leader election you can watch, test and ship.
#[derive(Debug, Parser)]
#[command(name = "tenure", version, about, after_help = EXIT_CODES)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run one scenario (a JSON file, or built from flags) and print a summary.
    #[command(after_help = EXIT_CODES, allow_negative_numbers = true)]
    Run(run::RunArgs),
    /// Run a chaos campaign: random fault schedules, a heal, a liveness check.
    #[command(
        after_help = EXIT_CODES,
        allow_negative_numbers = true,
        mut_arg("nodes", |a| a.default_value("5")),
        mut_arg("duration", |a| a.default_value("120s")),
        mut_arg("heal", |a| a.default_value("10s"))
    )]
    Chaos(chaos::ChaosArgs),
    /// Measure the time to elect a new leader after the leader crashes (Raft Figure 16).
    #[command(after_help = EXIT_CODES, allow_negative_numbers = true)]
    Failover(failover::FailoverArgs),
    /// Search seeded fault schedules for a run that violates a property, then shrink it.
    #[command(
        after_help = EXIT_CODES,
        allow_negative_numbers = true,
        mut_arg("nodes", |a| a.default_value("3")),
        mut_arg("duration", |a| a.default_value("20s")),
        mut_arg("heal", |a| a.default_value("5s"))
    )]
    Search(search::SearchArgs),
    /// Bounded exhaustive check: breadth-first over fault schedules; the shortest counterexample.
    #[command(after_help = EXIT_CODES, allow_negative_numbers = true)]
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
    // Every error line shows a long value the user gave shortened (`shown::shorten_values`).
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let say = |line: &str| shown::shorten_values(line, &args[1.min(args.len())..]);
    let cli = match Cli::try_parse_from(&args) {
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
            if let Some(line) = value_error(&e) {
                errln!("error: {}", say(&line));
                return ExitCode::from(2);
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
            errln!("{} (see `tenure --help`)", say(&line));
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
    if let Some(words) = out::failure() {
        errln!("error: writing the report to stdout failed: {words}");
        return ExitCode::from(2);
    }
    match result {
        Ok(failed) => {
            if failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            errln!("error: {}", say(&e.message));
            ExitCode::from(e.code)
        }
    }
}

/// A value one of our parsers refused, as `--nodes -3 is not a number of nodes from 1 to 64`
/// (the flag, the value, and the parser's words) rather than clap's "invalid value '-3' for
/// '--nodes <NODES>'".
fn value_error(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let text = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        _ => None,
    };
    let arg = text(ContextKind::InvalidArg)?;
    let value = text(ContextKind::InvalidValue)?;
    let why = std::error::Error::source(e)?.to_string();
    let flag = arg.split_once(" <").map_or(arg.as_str(), |(f, _)| f);
    let flag = flag.split_once('=').map_or(flag, |(f, _)| f);
    // "`-3` is not a number of nodes ..." after "--nodes -3" needs the value only once: a
    // parser's words start with the value they refuse, quoted, which the flag's text replaces.
    let quoted = format!("`{value}` ");
    let value = shown::shown(&value);
    Some(match why.strip_prefix(&quoted) {
        Some(rest) => format!("{flag} {value} {rest}"),
        None => format!("{flag} {value}: {why}"),
    })
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
