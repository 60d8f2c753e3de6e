//! `tenure failover`: several settings overlaid, the SVG plot, the cost side, and one-line
//! errors for knobs of another algorithm.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

use std::process::{Command, Output};

fn tenure(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tenure"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = tenure(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn two_timeout_ranges_give_two_settings_and_a_plot_with_two_lines() {
    let dir = std::env::temp_dir().join(format!("tenure-failover-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("cdf.svg");
    let v = json(&[
        "failover",
        "--algorithm",
        "raft",
        "--election-timeout-ms",
        "150-300",
        "--election-timeout-ms",
        "150-155",
        "--runs",
        "12",
        "--seed",
        "3",
        "--json",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let settings = v["settings"].as_array().unwrap();
    assert_eq!(settings.len(), 2);
    assert_eq!(settings[0]["label"], "raft 150-300 ms");
    for s in settings {
        let samples = s["samples_ms"].as_array().unwrap();
        assert_eq!(samples.len() as u64 + s["failures"].as_u64().unwrap(), 12);
        let first = samples.first().unwrap().as_f64().unwrap();
        let last = samples.last().unwrap().as_f64().unwrap();
        assert!((s["min_ms"].as_f64().unwrap() - first).abs() < 1e-9);
        assert!((s["max_ms"].as_f64().unwrap() - last).abs() < 1e-9);
        // A new leader needs at least one election timeout after the crash is noticed.
        assert!(first >= 100.0, "{first}");
    }
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_eq!(text.matches("<path class=\"series\"").count(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_same_seeds_give_the_same_numbers() {
    let args = [
        "failover",
        "--algorithm",
        "bully",
        "--failure-timeout-ms",
        "200",
        "--runs",
        "8",
        "--json",
    ];
    assert_eq!(json(&args), json(&args));
}

#[test]
fn the_cost_side_counts_false_elections_and_shorter_timeouts_pay_more() {
    let v = json(&[
        "failover",
        "--algorithm",
        "raft",
        "--election-timeout-ms",
        "100-200",
        "--election-timeout-ms",
        "1000-2000",
        "--runs",
        "2",
        "--cost-run",
        "10m",
        "--pauses-per-hour",
        "60",
        "--pause",
        "400ms",
        "--json",
    ]);
    let s = v["settings"].as_array().unwrap();
    let fast = s[0]["cost"]["false_elections"].as_u64().unwrap();
    let slow = s[1]["cost"]["false_elections"].as_u64().unwrap();
    assert!(fast > 0, "{v}");
    assert_eq!(slow, 0, "{v}");
    assert!(s[0]["cost"]["pauses"].as_u64().unwrap() > 0);
}

#[test]
fn knobs_of_another_algorithm_and_mixed_knobs_are_one_line_errors() {
    for args in [
        &["failover", "--algorithm", "bully", "--ttl-ms", "2000"][..],
        &[
            "failover",
            "--algorithm",
            "raft",
            "--failure-timeout-ms",
            "100",
        ][..],
        &[
            "failover",
            "--algorithm",
            "raft",
            "--election-timeout-ms",
            "150",
            "--ttl-ms",
            "2000",
        ][..],
        &["failover", "--algorithm", "raft", "--latency-ms", "30-5"][..],
        &["failover", "--algorithm", "raft", "--runs", "0"][..],
        &["failover", "--algorithm", "raft", "--runs", "100001"][..],
        &["chaos", "--algorithm", "raft", "--runs", "99999999999999"][..],
        // The spellings before the knob names are refused, naming the new one.
        &["failover", "--algorithm", "raft", "--timeouts", "150-300"][..],
        &["failover", "--algorithm", "lease-fencing", "--ttl", "2s"][..],
        &[
            "failover",
            "--algorithm",
            "lease-fencing",
            "--margin",
            "300ms",
        ][..],
        &["failover", "--algorithm", "raft", "--latency", "5-30"][..],
    ] {
        let out = tenure(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn old_flag_spellings_name_the_new_ones() {
    for (old, new) in [
        ("--timeouts", "--election-timeout-ms"),
        ("--ttl", "--ttl-ms"),
        ("--margin", "--safety-margin-ms"),
        ("--failure-timeout", "--failure-timeout-ms"),
        ("--answer-timeout", "--answer-timeout-ms"),
        ("--coordinator-timeout", "--coordinator-timeout-ms"),
        ("--latency", "--latency-ms"),
    ] {
        let out = tenure(&["failover", "--algorithm", "raft", old, "1"]);
        assert_eq!(out.status.code(), Some(2), "{old}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(&format!("{old} was renamed {new}")), "{err}");
    }
}

#[test]
fn no_successful_failover_reports_na_not_zero() {
    // Two nodes with one crashed leave no majority: Raft elects no new leader.
    let args = [
        "failover",
        "--algorithm",
        "raft",
        "--nodes",
        "2",
        "--runs",
        "2",
    ];
    let out = tenure(&[&args[..], &["--json"]].concat());
    assert_eq!(
        out.status.code(),
        Some(1),
        "a crash with no new leader exits 1"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &v["settings"][0];
    assert_eq!(s["failures"], 2, "{v}");
    assert!(s["min_ms"].is_null() && s["median_ms"].is_null(), "{v}");
    let out = tenure(&args);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("time to a new leader: n/a"), "{text}");
    assert!(!text.contains("min 0.0 ms"), "{text}");
}

/// `--pauses-per-hour` and `--pause` shape the cost run only; without `--cost-run` they were
/// ignored in silence (a new-user trial asked for 30 pauses an hour and got no cost side).
#[test]
fn pause_flags_without_a_cost_run_are_refused_naming_it() {
    for flag in [["--pauses-per-hour", "30"], ["--pause", "2s"]] {
        let out = tenure(
            &[
                &["failover", "--algorithm", "raft", "--runs", "5"][..],
                &flag[..],
            ]
            .concat(),
        );
        assert_eq!(out.status.code(), Some(2), "{flag:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(&format!(
                "{} sets the pauses of the cost run; add --cost-run",
                flag[0]
            )),
            "{err}"
        );
    }
}

/// New-user review: `--svg -` wrote a file named "-". `-` is stdout, as in `run --trace -`:
/// the plot alone on stdout, the report on stderr, and no file.
#[test]
fn svg_dash_writes_the_plot_to_stdout_and_the_report_to_stderr() {
    let dir = std::env::temp_dir().join(format!("tenure-failover-dash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tenure"))
        .args([
            "failover",
            "--algorithm",
            "raft",
            "--runs",
            "5",
            "--svg",
            "-",
        ])
        .current_dir(&dir)
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{stdout}"
    );
    assert!(stdout.trim_end().ends_with("</svg>"), "{stdout}");
    assert!(stderr.contains("time to a new leader"), "{stderr}");
    assert!(stderr.contains("plot written to stdout"), "{stderr}");
    assert!(!dir.join("-").exists(), "a file named - was written");
}

/// The cost line's rate said "(36.0 per hour)" after a count of pauses, so it read as pauses
/// per hour as well as false elections per hour; it is false elections per hour of simulated
/// time (`false_elections_per_hour`), and the line says so.
#[test]
fn the_cost_rate_says_what_it_counts_per_hour() {
    let out = tenure(&[
        "failover",
        "--algorithm",
        "raft",
        "--election-timeout-ms",
        "100-200",
        "--runs",
        "2",
        "--cost-run",
        "10m",
        "--pauses-per-hour",
        "60",
        "--pause",
        "400ms",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("false elections:"))
        .unwrap_or_else(|| panic!("no cost line in {text}"));
    assert!(
        line.ends_with(" false elections per simulated hour)"),
        "{line}"
    );
}

/// `--cost-run 0s` said "the run must last 1 ms to 86400000 ms, not 0 ms", and `--pause 2h`
/// "a pause must last at most one hour, not 7200000 ms": the simulator's words, naming no
/// flag. Each cost flag is refused with the flag, the value as given and its range.
#[test]
fn cost_flags_out_of_range_name_the_flag_the_value_and_the_range() {
    for (flag, value, words) in [
        (
            "--cost-run",
            "0s",
            "error: --cost-run 0s is not a cost run from 1ms to 24h (86400000 ms, a day of \
             simulated time)",
        ),
        (
            "--cost-run",
            "25h",
            "error: --cost-run 25h is not a cost run from 1ms to 24h (86400000 ms, a day of \
             simulated time)",
        ),
        (
            "--pause",
            "2h",
            "error: --pause 2h is not a pause from 0ms to 1h (3600000 ms)",
        ),
        (
            "--pauses-per-hour",
            "5000",
            "error: --pauses-per-hour 5000 is not a rate from 0 to 3600 pauses per node per hour \
             (6, 0.5)",
        ),
    ] {
        let mut args = vec!["failover", "--algorithm", "raft", "--runs", "2"];
        if flag != "--cost-run" {
            args.extend(["--cost-run", "1m"]);
        }
        args.extend([flag, value]);
        let out = tenure(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end(), words, "{args:?}");
    }
}
