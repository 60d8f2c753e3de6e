//! The `tenure` binary's reports on stdout: a reader that stops reading (`| head -1`) ends the
//! output quietly, with the exit code the command would have had, never a panic; a stdout that
//! refuses writes (a full disk) is one error line and exit 2; a stderr that refuses writes
//! changes no exit code.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// Runs `args`, reads one line of stdout, closes the pipe, and returns (exit code, stderr).
fn read_one_line_then_close(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tenure"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(!first.is_empty(), "{args:?}: no first line");
    // The reader is dropped here: the pipe is closed with most of the output unread.
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn a_closed_pipe_ends_the_output_without_a_panic() {
    // 20,000 scenarios are megabytes: far more than a pipe buffers, so writes go on after
    // the reader has gone.
    let args = [
        "chaos",
        "--algorithm",
        "bully",
        "--runs",
        "20000",
        "--duration",
        "5s",
        "--emit-scenario",
    ];
    let (code, err) = read_one_line_then_close(&args);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn a_stdout_that_refuses_writes_is_one_error_line() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // no /dev/full on this system: nothing to check
    };
    let out = Command::new(env!("CARGO_BIN_EXE_tenure"))
        .args(["run", "--algorithm", "raft", "--duration", "1s"])
        .stdout(full)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("writing the report to stdout failed: the disk is full"),
        "{err}"
    );
}

#[test]
fn a_stderr_that_refuses_writes_leaves_the_exit_code_alone() {
    // `eprintln!` panicked on a failed write, and with `panic = "abort"` every refusal (exit 2)
    // or report moved to stderr became an abort (134). Messages to stderr are best effort.
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // no /dev/full on this system: nothing to check
    };
    let refused = Command::new(env!("CARGO_BIN_EXE_tenure"))
        .args(["run", "--algorithm", "nope"])
        .stderr(full.try_clone().unwrap())
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2), "a usage error stays exit 2");
    // The summary goes to stderr when the trace takes stdout.
    let traced = Command::new(env!("CARGO_BIN_EXE_tenure"))
        .args([
            "run",
            "--algorithm",
            "raft",
            "--duration",
            "1s",
            "--trace",
            "-",
        ])
        .stderr(full)
        .output()
        .unwrap();
    assert_eq!(traced.status.code(), Some(0));
    assert!(!traced.stdout.is_empty(), "the trace is written");
    // A stderr pipe whose reader has gone.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tenure"))
        .args(["run", "--algorithm", "nope"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    assert_eq!(child.wait().unwrap().code(), Some(2));
}
