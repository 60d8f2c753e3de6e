//! Reports on stdout without `println!`'s panic: a reader that stops reading (`| head -1`)
//! closes the pipe, which is its choice, not a failure, so the rest of the report is dropped
//! quietly and the command ends with the exit code it would have had (as `--trace -` does).
//! Any other write error (`> /dev/full`) is kept and reported by [`failure`] as one line.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once stdout refused a write: later lines are dropped.
static CLOSED: AtomicBool = AtomicBool::new(false);
/// Set when stdout carries the command's data (`failover --svg -`): the report goes to stderr,
/// as `run --trace -` moves its summary.
static TO_STDERR: AtomicBool = AtomicBool::new(false);

/// Sends the rest of the report to stderr: stdout carries the command's data.
pub(crate) fn report_to_stderr() {
    TO_STDERR.store(true, Ordering::Relaxed);
}
/// The first write error that was not a closed pipe, in words.
static FAILED: Mutex<Option<String>> = Mutex::new(None);

/// Writes one line to stderr (what `errln!` expands to): best effort, as `eprintln!`
/// without its panic (which, with `panic = "abort"`, ended the process with 134 when stderr
/// was a closed pipe or a full disk): stderr has nowhere to report its own failure to.
pub(crate) fn err_line(args: std::fmt::Arguments<'_>) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_fmt(args).and_then(|()| err.write_all(b"\n"));
}

/// Writes one line of the report (what `outln!` expands to).
pub(crate) fn line(args: std::fmt::Arguments<'_>) {
    if TO_STDERR.load(Ordering::Relaxed) {
        err_line(args);
        return;
    }
    if CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    let written = out.write_fmt(args).and_then(|()| out.write_all(b"\n"));
    if let Err(e) = written {
        CLOSED.store(true, Ordering::Relaxed);
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            let mut failed = FAILED
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            failed.get_or_insert_with(|| super::args::io_words(&e));
        }
    }
}

/// Whether stdout has stopped taking lines (a long listing can stop early).
pub(crate) fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}

/// The report's write error, if one happened that was not a closed pipe.
pub(crate) fn failure() -> Option<String> {
    FAILED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take()
}

/// `println!` for reports: see the module.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::out::line(format_args!($($arg)*))
    };
}
pub(crate) use outln;

/// `eprintln!` for messages and progress lines, without its panic: see [`err_line`].
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::cli::out::err_line(format_args!($($arg)*))
    };
}
pub(crate) use errln;
