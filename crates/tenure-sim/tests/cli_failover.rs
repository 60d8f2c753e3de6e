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
        "--timeouts",
        "150-300",
        "--timeouts",
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
        "--failure-timeout",
        "200ms",
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
        "--timeouts",
        "100-200",
        "--timeouts",
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
        &["failover", "--algorithm", "bully", "--ttl", "2s"][..],
        &[
            "failover",
            "--algorithm",
            "raft",
            "--failure-timeout",
            "100ms",
        ][..],
        &[
            "failover",
            "--algorithm",
            "raft",
            "--timeouts",
            "150",
            "--ttl",
            "2s",
        ][..],
        &["failover", "--algorithm", "raft", "--latency", "30-5"][..],
        &["failover", "--algorithm", "raft", "--runs", "0"][..],
        &["failover", "--algorithm", "raft", "--runs", "100001"][..],
        &["chaos", "--algorithm", "raft", "--runs", "99999999999999"][..],
    ] {
        let out = tenure(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}
