//! The `tenure` binary: argument and scenario errors are one line with a non-zero exit code,
//! never a panic; clean runs exit 0.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

use std::process::{Command, Output};

fn tenure(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tenure"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn one_line_error(args: &[&str]) -> String {
    let out = tenure(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn argument_errors_are_one_line_and_exit_2() {
    assert!(one_line_error(&["run", "--algorithm", "paxos"]).contains("paxos"));
    assert!(one_line_error(&["run", "--algorithm", "raft", "--duration", "60"]).contains("unit"));
    assert!(
        one_line_error(&["run", "--algorithm", "raft", "--nodes", "0"])
            .contains("--nodes 0 is not a number of nodes from 1 to 64")
    );
    assert!(one_line_error(&["run", "--algorithm", "bully", "--pre-vote"]).contains("raft"));
    // A range is [min, max) now (150-155 is a narrow one); only an empty one is refused.
    assert!(
        one_line_error(&[
            "failover",
            "--algorithm",
            "raft",
            "--election-timeout-ms",
            "200-150"
        ])
        .contains("[min, max)")
    );
    assert!(
        one_line_error(&["chaos", "--algorithm", "raft", "--families", "meteor"])
            .contains("meteor")
    );
    assert!(one_line_error(&["frobnicate"]).contains("frobnicate"));
    assert!(one_line_error(&["run"]).contains("--algorithm"));
    // clap names the missing arguments on its own indented lines: they stay in the one line.
    assert!(one_line_error(&["chaos"]).contains("--algorithm <ALGORITHM>"));
}

/// Break-it pass: `partition groups=1||` ran with groups [[1], [], []] and `isolate nodes=,`
/// isolated nothing, silently. The simulator's one fault check refuses them, naming the fault
/// and the value, as it refuses them in scenario files and JS.
#[test]
fn empty_partitions_and_isolations_are_refused() {
    let run = ["run", "--algorithm", "raft", "--fault"];
    let cases = [
        (
            "partition groups=1|| at=100ms",
            "partition groups[1] is empty",
        ),
        (
            "partition groups=|1,2 at=100ms",
            "partition groups[0] is empty",
        ),
        ("isolate nodes=, at=100ms", "isolate nodes is empty"),
    ];
    for (fault, words) in cases {
        let e = one_line_error(&[&run[..], &[fault]].concat());
        assert!(e.contains(words), "{fault}: {e}");
    }
}

#[test]
fn the_trace_holds_every_event_from_the_first() {
    // Regression (new-user review): the trace sink was attached after the world was built,
    // so a lease run's t=0 Acquire sends were missing from the file.
    let dir = std::env::temp_dir().join(format!("tenure-cli-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("lease.jsonl");
    let out = tenure(&[
        "run",
        "--algorithm",
        "lease-fencing",
        "--nodes",
        "3",
        "--seed",
        "1",
        "--duration",
        "1s",
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let summary = String::from_utf8(out.stdout).unwrap();
    let events: usize = summary
        .lines()
        .find_map(|l| l.trim().strip_prefix("events"))
        .and_then(|n| n.trim().parse().ok())
        .expect("the summary counts events");
    let text = std::fs::read_to_string(&trace).unwrap();
    let seqs: Vec<u64> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["seq"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(seqs.len(), events);
    assert!(
        seqs.iter().enumerate().all(|(i, s)| *s == i as u64),
        "{seqs:?}"
    );
}

#[test]
fn scenario_file_errors_are_one_line_and_exit_2() {
    let dir = std::env::temp_dir().join(format!("tenure-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"version": 1, "algorithm": "raft", "nodes": 3, "seed": 1, "duration_ms": 10, "extra": 1}"#).unwrap();
    let err = one_line_error(&["run", bad.to_str().unwrap()]);
    assert!(err.contains("unknown key \"extra\""), "{err}");
    let err = one_line_error(&["run", dir.join("missing.json").to_str().unwrap()]);
    assert!(err.contains("cannot read scenario"), "{err}");
}

#[test]
fn an_array_where_the_format_has_an_object_is_refused_as_in_js() {
    // serde's derived structs would read these as their fields in order; the JS bindings
    // refuse them (ERR_OBJECT_TYPE), and so does the CLI, naming where.
    let dir = std::env::temp_dir().join(format!("tenure-cli-arrays-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let head = r#""version": 1, "algorithm": "raft", "nodes": 3, "seed": 1, "duration_ms": 1000"#;
    for (text, path) in [
        (
            r#"[1, "raft", 3, {}, {}, 0, 1000, []]"#.to_string(),
            "scenario: expected an object",
        ),
        (
            format!(r#"{{{head}, "config": [150]}}"#),
            "scenario: config: expected an object",
        ),
        (
            format!(r#"{{{head}, "network": [[5, 30]]}}"#),
            "scenario: network: expected an object",
        ),
        (
            format!(r#"{{{head}, "faults": [[200, {{"type": "crash", "node": 1}}]]}}"#),
            "scenario: faults[0]: expected an object",
        ),
    ] {
        let file = dir.join("arrays.json");
        std::fs::write(&file, &text).unwrap();
        let err = one_line_error(&["run", file.to_str().unwrap()]);
        assert!(
            err.contains(path) && err.contains("got an array"),
            "{text}: {err}"
        );
    }
    // Lists stay lists: latency ranges and partition groups are arrays in the format.
    let file = dir.join("lists.json");
    std::fs::write(&file, format!(r#"{{{head}, "network": {{"latency_ms": [5, 30]}}, "faults": [{{"at_ms": 200, "fault": {{"type": "partition", "groups": [[1], [2, 3]]}}}}]}}"#)).unwrap();
    assert_eq!(
        tenure(&["run", file.to_str().unwrap()]).status.code(),
        Some(0)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn clean_runs_exit_0_and_write_the_trace() {
    let dir = std::env::temp_dir().join(format!("tenure-cli-ok-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("out.jsonl");
    let out = tenure(&[
        "run",
        "--algorithm",
        "raft",
        "--nodes",
        "5",
        "--seed",
        "7",
        "--duration",
        "5s",
        "--pre-vote",
        "--check-quorum",
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let summary = String::from_utf8(out.stdout).unwrap();
    assert!(summary.contains("elections_total"), "{summary}");
    let lines = std::fs::read_to_string(&trace).unwrap();
    assert!(lines.lines().count() > 100);
    for line in lines.lines().take(50) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v.get("event").is_some() && v.get("time_ms").is_some());
    }
    let out = tenure(&[
        "chaos",
        "--algorithm",
        "lease-fencing",
        "--runs",
        "3",
        "--duration",
        "20s",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["runs"], 3);
    assert_eq!(report["failed_runs"], 0);
}

#[test]
fn hostile_values_are_refused_in_the_flags_words() {
    // An array is not read as the config's fields in order.
    let err = one_line_error(&[
        "run",
        "--algorithm",
        "raft",
        "--duration",
        "1s",
        "--config",
        "[1,2]",
    ]);
    assert!(
        err.contains("is not a config object: give a JSON object"),
        "{err}"
    );
    // A negative duration names the fault's key, not an "unknown key duration".
    let err = one_line_error(&[
        "run",
        "--algorithm",
        "lease-fencing",
        "--duration",
        "10s",
        "--fault",
        "pause target=1 duration=-3s at=5s",
    ]);
    assert!(err.contains("duration_ms"), "{err}");
    assert!(!err.contains("unknown key"), "{err}");
    // A bare -ms number past 10^15 is refused as too large, not as an empty range.
    let err = one_line_error(&[
        "failover",
        "--algorithm",
        "raft",
        "--runs",
        "1",
        "--election-timeout-ms",
        "18446744073709551615",
    ]);
    assert!(err.contains("at most 10^15"), "{err}");
    // A negative budget reaches the budget's parser, not clap's "unexpected argument '-1'".
    let err = one_line_error(&[
        "search",
        "--algorithm",
        "bully",
        "--property",
        "split-brain",
        "--budget",
        "-1s",
    ]);
    assert!(
        err.contains("--budget -1s is neither a number of runs"),
        "{err}"
    );
}

/// A config validation accepts but that storms (timers of a microsecond at 64 nodes) stops
/// with one line naming the cause and the knobs, exit 1, within a bounded memory: before the
/// bound on queued events it aborted (134) on a failed 960 MiB allocation.
#[cfg(unix)]
#[test]
fn a_message_storm_is_one_line_and_exit_1_within_bounded_memory() {
    let dir = std::env::temp_dir().join(format!("tenure-storm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("trap.json");
    std::fs::write(
        &path,
        r#"{"version":1,"algorithm":"raft","nodes":64,"seed":1,"duration_ms":10,"config":{"heartbeat_interval_ms":0.001,"election_timeout_ms":0.002,"election_timeout_max_ms":0.003},"faults":[]}"#,
    )
    .unwrap();
    let start = std::time::Instant::now();
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 1000000; exec '{}' run '{}'",
            env!("CARGO_BIN_EXE_tenure"),
            path.display()
        ))
        .output()
        .expect("sh runs");
    let _ = std::fs::remove_dir_all(&dir);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.starts_with("error: message storm: "), "{err}");
    assert!(err.contains("lengthen the timers"), "{err}");
    assert!(start.elapsed() < std::time::Duration::from_secs(60));
}

/// A fault scheduled after the scenario's end was accepted in silence, and never struck. It
/// stays accepted (a shrunk scenario is a shortened run that keeps its later faults, and
/// must still load), but `run` says on stderr, in one `note:` line, how many will not
/// happen; stdout is the report it was, the same as without those faults.
#[test]
fn faults_after_the_end_are_noted_on_stderr_and_the_report_is_unchanged() {
    let dir = std::env::temp_dir().join(format!("tenure-late-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scenario = |faults: &str| {
        format!(
            r#"{{"version": 1, "algorithm": "raft", "nodes": 3, "seed": 1, "duration_ms": 1000, "faults": [{faults}]}}"#
        )
    };
    let crash = |at: u64| format!(r#"{{"at_ms": {at}, "fault": {{"type": "crash", "node": 1}}}}"#);
    let heal = |at: u64| format!(r#"{{"at_ms": {at}, "fault": {{"type": "heal"}}}}"#);
    let run = |name: &str, faults: &str| {
        let path = dir.join(name);
        std::fs::write(&path, scenario(faults)).unwrap();
        let out = tenure(&["run", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0));
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (within, within_err) = run("within.json", &heal(500));
    assert_eq!(within_err, "");
    // A fault at the end itself still strikes: no note.
    let (_, at_end_err) = run("at-end.json", &[heal(500), heal(1000)].join(", "));
    assert_eq!(at_end_err, "");
    let (one, one_err) = run("one.json", &[heal(500), crash(5000)].join(", "));
    assert_eq!(
        one_err,
        "note: 1 fault is scheduled after the run ends at 1000 ms and will not happen\n"
    );
    assert_eq!(one, within);
    let (two, two_err) = run(
        "two.json",
        &[crash(1001), heal(500), heal(60_000)].join(", "),
    );
    assert_eq!(
        two_err,
        "note: 2 faults are scheduled after the run ends at 1000 ms and will not happen\n"
    );
    assert_eq!(two, within);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A seed of 2^64 in a scenario file was refused as "1.8446744073709552e+19 is not a whole
/// number from 0 to 2^64 - 1": serde_json reads the number as a float, so it was worded as a
/// fraction might be. It is above the largest seed, and the message says so with the number
/// as written; the same for a decimal-string seed, `--seed`, and another whole-number key.
#[test]
fn a_number_past_2_64_is_said_to_be_above_the_largest() {
    let dir = std::env::temp_dir().join(format!("tenure-u64-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = tenure(&["run", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{text}");
        let err = String::from_utf8(out.stderr).unwrap();
        let (_, words) = err.split_once(": scenario: ").unwrap();
        words.trim_end().to_string()
    };
    let max = "2^64 - 1 (18446744073709551615)";
    assert_eq!(
        run(
            "number.json",
            r#"{"version": 1, "algorithm": "raft", "nodes": 3, "seed": 18446744073709551616, "duration_ms": 1000}"#
        ),
        format!("seed: 18446744073709551616 is above the largest seed, {max} at line 1 column 76")
    );
    assert_eq!(
        run(
            "string.json",
            r#"{"version": 1, "algorithm": "raft", "nodes": 3, "seed": "18446744073709551616", "duration_ms": 1000}"#
        ),
        format!("seed: 18446744073709551616 is above the largest seed, {max} at line 1 column 78")
    );
    // `nodes`, on a later line: its own range.
    assert_eq!(
        run(
            "nodes.json",
            "{\"version\": 1, \"algorithm\": \"raft\",\n \"nodes\": 99999999999999999999999, \"seed\": 1, \"duration_ms\": 1000}"
        ),
        "nodes: 99999999999999999999999 must be a whole number from 1 to 64 at line 2 column 33"
    );
    // Another whole-number key.
    assert_eq!(
        run(
            "node.json",
            r#"{"version": 1, "algorithm": "raft", "nodes": 3, "seed": 1, "duration_ms": 1000, "faults": [{"at_ms": 0, "fault": {"type": "crash", "node": 99999999999999999999999}}]}"#
        ),
        format!(
            "faults[0].fault.node: 99999999999999999999999 is above {max}, the largest whole \
             number a scenario holds at line 1 column 162"
        )
    );
    // The largest seed itself runs, and a fraction is still not a seed.
    let path = dir.join("max.json");
    std::fs::write(
        &path,
        r#"{"version": 1, "algorithm": "raft", "nodes": 3, "seed": 18446744073709551615, "duration_ms": 1000}"#,
    )
    .unwrap();
    assert_eq!(
        tenure(&["run", path.to_str().unwrap()]).status.code(),
        Some(0)
    );
    assert!(
        run(
            "fraction.json",
            r#"{"version": 1, "algorithm": "raft", "nodes": 3, "seed": 1.5, "duration_ms": 1000}"#
        )
        .contains("1.5 is not a seed: a seed is a whole number")
    );
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        one_line_error(&[
            "run",
            "--algorithm",
            "raft",
            "--seed",
            "18446744073709551616"
        ])
        .contains(
            "--seed 18446744073709551616 is above the largest seed, 2^64 - 1 (18446744073709551615)"
        )
    );
}

/// A scenario file's seed out of range was refused in the JS bindings' notation ("from 0 to
/// 2 ** 53 - 1, or a bigint or decimal string from 0 to 2n ** 64n - 1n"), though a file is
/// JSON text and takes any seed up to 2^64 - 1. `run` says the range as `--seed` does.
#[test]
fn a_scenario_file_seed_out_of_range_is_refused_in_the_cli_words() {
    let dir = std::env::temp_dir().join(format!("tenure-seed-words-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |seed: &str| {
        let path = dir.join("s.json");
        std::fs::write(
            &path,
            format!(
                r#"{{"version": 1, "algorithm": "raft", "nodes": 3, "seed": {seed}, "duration_ms": 1000}}"#
            ),
        )
        .unwrap();
        let err = one_line_error(&["run", path.to_str().unwrap()]);
        let (_, words) = err.split_once(": scenario: ").unwrap();
        words.trim_end().to_string()
    };
    let range = "a seed is a whole number from 0 to 2^64 - 1 (18446744073709551615), written as \
                 digits or as a decimal string";
    assert_eq!(
        run("-1"),
        format!("seed: -1 is not a seed: {range} at line 1 column 58")
    );
    assert_eq!(
        run("1.5"),
        format!("seed: 1.5 is not a seed: {range} at line 1 column 59")
    );
    assert_eq!(
        run("\"12x\""),
        format!("seed: \"12x\" is not a seed: {range} at line 1 column 61")
    );
    assert_eq!(
        run("1.152921504606847e18"),
        "seed: 1.152921504606847e18 is written with a fraction or an exponent, and past \
         2^53 - 1 (9007199254740991) such a number does not hold every whole number exactly: \
         write the seed as digits alone or as a decimal string, up to 2^64 - 1 \
         (18446744073709551615) at line 1 column 76"
    );
    for seed in ["-1", "1.5", "\"12x\"", "1.152921504606847e18"] {
        let words = run(seed);
        assert!(
            !words.contains("**") && !words.contains("bigint"),
            "{seed}: {words}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A number past 2^64 in `--config` or a scenario file's config was quoted back as serde_json
/// read it, a float: `18446744073709551616` as 18446744073709552000, `1e20` as
/// 100000000000000000000 or 1e+20. The message quotes it as written.
#[test]
fn a_config_number_past_2_64_is_quoted_as_written() {
    let time = "is not a time in milliseconds: give a finite number, 0 or more, below 2^64 \
                microseconds";
    let config = |json: &str| {
        let err = one_line_error(&["run", "--algorithm", "lease-fencing", "--config", json]);
        let (_, words) = err.split_once(" is not a config object: ").unwrap();
        words.trim_end().to_string()
    };
    assert_eq!(
        config(r#"{"ttl_ms": 18446744073709551616}"#),
        format!("ttl_ms: 18446744073709551616 {time}")
    );
    assert_eq!(
        config(r#"{"ttl_ms": 123456789012345678901234567890}"#),
        format!("ttl_ms: 123456789012345678901234567890 {time}")
    );
    assert_eq!(
        config(r#"{"ttl_ms": 1e20}"#),
        format!("ttl_ms: 1e20 {time}")
    );
    assert_eq!(
        config(r#"{"ttl_ms": -1.5e300}"#),
        format!("ttl_ms: -1.5e300 {time}")
    );
    assert_eq!(
        config(r#"{"first_token": 1e20}"#),
        "first_token: expected a whole number 0 or more, got 1e20"
    );
    // Another command's --config.
    let err = one_line_error(&[
        "chaos",
        "--algorithm",
        "raft",
        "--config",
        r#"{"pre_vote": true, "election_timeout_ms": 20000000000000000000.5}"#,
    ]);
    assert!(
        err.contains(&format!(
            "election_timeout_ms: 20000000000000000000.5 {time}"
        )),
        "{err}"
    );
    // A scenario file's config and other time keys.
    let dir = std::env::temp_dir().join(format!("tenure-as-written-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.json");
    std::fs::write(
        &path,
        r#"{"version": 1, "algorithm": "lease-fencing", "nodes": 3, "seed": 1, "duration_ms": 1000, "config": {"ttl_ms": 18446744073709551616}}"#,
    )
    .unwrap();
    let err = one_line_error(&["run", path.to_str().unwrap()]);
    assert!(
        err.ends_with(&format!(
            "scenario: config.ttl_ms: 18446744073709551616 {time} at line 1 column 130\n"
        )),
        "{err}"
    );
    std::fs::write(
        &path,
        "{\"version\": 1, \"algorithm\": \"raft\", \"nodes\": 3, \"seed\": 1,\n  \"duration_ms\": 1e20}",
    )
    .unwrap();
    let err = one_line_error(&["run", path.to_str().unwrap()]);
    assert!(
        err.ends_with(&format!(
            "scenario: duration_ms: 1e20 {time} at line 2 column 21\n"
        )),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
