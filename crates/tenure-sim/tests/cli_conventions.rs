//! The CLI's conventions: `--trace -` to stdout, JSON Lines from `--emit-scenario`, `--jobs`
//! bounds in words, `--families` values and exit codes in `--help`, faults and config on the
//! command line, `--json` in milliseconds with a 16-hex-digit trace hash, no progress output
//! when piped, and argument errors without Rust notation.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

use std::process::{Command, Output};

fn tenure(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tenure"))
        .args(args)
        .env_remove("TENURE_PROGRESS")
        .output()
        .expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

#[path = "../../../tests/words/words.rs"]
mod words;

#[test]
fn trace_dash_writes_json_lines_to_stdout_and_the_summary_to_stderr() {
    let out = tenure(&[
        "run",
        "--algorithm",
        "raft",
        "--nodes",
        "3",
        "--duration",
        "2s",
        "--trace",
        "-",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.len() > 50, "{}", lines.len());
    assert_eq!(lines[0]["seq"], 0);
    let summary = stderr(&out);
    assert!(
        summary.starts_with("tenure run: raft, 3 nodes"),
        "{summary}"
    );
    let events: usize = summary
        .lines()
        .find_map(|l| l.trim().strip_prefix("events"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap();
    assert_eq!(events, lines.len());
}

#[test]
fn emit_scenario_writes_one_scenario_per_line() {
    let out = tenure(&[
        "chaos",
        "--algorithm",
        "bully",
        "--runs",
        "3",
        "--duration",
        "5s",
        "--emit-scenario",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    for (i, line) in lines.iter().enumerate() {
        let s = tenure_sim::scenario::Scenario::from_json(line).unwrap();
        assert_eq!(s.seed, i as u64);
        assert_eq!(s.algorithm, tenure_sim::Algorithm::Bully);
    }
}

#[test]
fn jobs_and_counts_are_refused_in_words() {
    for (args, words) in [
        (
            &["chaos", "--algorithm", "raft", "--jobs", "0"][..],
            "--jobs 0 would run nothing: give 1 to 256 worker threads (the default is one per core)",
        ),
        // A refusal names the flag and its value once, never the value again in quotes.
        (
            &[
                "failover",
                "--algorithm",
                "raft",
                "--election-timeout-ms",
                "0-5",
            ][..],
            "--election-timeout-ms 0-5 starts below 1 ms: an election timeout is at least 1 ms",
        ),
        (
            &[
                "failover",
                "--algorithm",
                "raft",
                "--election-timeout-ms",
                "300-150",
            ][..],
            "--election-timeout-ms 300-150 is not a range whose max exceeds its min: timeouts are \
             drawn from [min, max) (design rule 6)",
        ),
        (
            &["failover", "--algorithm", "raft", "--latency-ms", "30-5"][..],
            "--latency-ms 30-5 is not a latency range: its maximum 5 is below its minimum 30",
        ),
        (
            &[
                "search",
                "--algorithm",
                "raft",
                "--property",
                "split-brain",
                "--budget",
                "lots",
            ][..],
            "--budget lots is neither a number of runs (10000) nor a time (60s)",
        ),
        (
            &[
                "search",
                "--algorithm",
                "raft",
                "--property",
                "split-brain",
                "--budget",
                "0s",
            ][..],
            "--budget 0s would search for no time: give more than 0s",
        ),
        (
            &["chaos", "--algorithm", "raft", "--jobs", "many"][..],
            "--jobs many is not a number of worker threads from 1 to 256",
        ),
        (
            &["chaos", "--algorithm", "raft", "--nodes", "x"][..],
            "--nodes x is not a number of nodes from 1 to 64",
        ),
        (
            &["chaos", "--algorithm", "raft", "--nodes", "65"][..],
            "--nodes 65 is not a number of nodes from 1 to 64",
        ),
        (
            &["run", "--algorithm", "raft", "--seed=-1"][..],
            "--seed -1 is not a seed",
        ),
        (
            &[
                "check",
                "--algorithm",
                "raft",
                "--property",
                "split-brain",
                "--steps",
                "1.5",
            ][..],
            "--steps 1.5 is not a whole number",
        ),
        (
            &[
                "failover",
                "--algorithm",
                "raft",
                "--pauses-per-hour",
                "lots",
            ][..],
            "--pauses-per-hour lots is not a rate",
        ),
        (
            &[
                "failover",
                "--algorithm",
                "lease-fencing",
                "--ttl-ms",
                "1.5",
            ][..],
            "--ttl-ms 1.5 is not a whole number of milliseconds",
        ),
        (
            &[
                "search",
                "--algorithm",
                "raft",
                "--property",
                "no-leader-for=2000",
            ][..],
            "--property no-leader-for=2000 has a duration without a unit: give one, as in \
             no-leader-for=2000ms",
        ),
        (
            &[
                "search",
                "--algorithm",
                "raft",
                "--property",
                "split-brain",
                "--budget",
                "0",
            ][..],
            "would search nothing",
        ),
        (
            &["run", "--algorithm", "raft", "--fault", "crash at=1s"][..],
            "the key \"node\" is required",
        ),
        (
            &["run", "--algorithm", "raft", "--fault", "crash node=1"][..],
            "give the time it strikes, as in at=2s",
        ),
        (
            &["run", "--algorithm", "raft", "--set", "ttl"][..],
            "is not key=value",
        ),
        (
            &[
                "run",
                "--algorithm",
                "raft",
                "--set",
                "election_timeout_ms=NaN",
            ][..],
            "`NaN` is not a number of milliseconds",
        ),
        (
            &["run", "--algorithm", "lease-fencing", "--set", "ttl_ms=inf"][..],
            "`inf` is not a number of milliseconds",
        ),
        (
            &["run", "--algorithm", "raft", "--set", "heartbeat_msx=5"][..],
            "unknown key \"heartbeat_msx\"",
        ),
        (
            &[
                "search",
                "--algorithm",
                "raft",
                "--property",
                "split-brain",
                "--config",
                "{\"ttl\": 5}",
            ][..],
            "unknown key \"ttl\"",
        ),
        (&["run", "--algorithm", "paxos"][..], "paxos"),
        // Negative values reach our parsers and are refused in words, not as clap's
        // "unexpected argument '-3' found".
        (
            &["run", "--algorithm", "raft", "--nodes", "-3"][..],
            "--nodes -3 is not a number of nodes from 1 to 64",
        ),
        (
            &["chaos", "--algorithm", "raft", "--runs", "-1"][..],
            "--runs -1 is not a number of runs from 1 to",
        ),
        (
            &["run", "--algorithm", "raft", "--duration", "-1s"][..],
            "--duration -1s",
        ),
        (
            &["failover", "--algorithm", "lease-fencing", "--ttl-ms", "-5"][..],
            "--ttl-ms -5",
        ),
        // A sub-resolution duration is refused with the resolution, not rounded.
        (
            &["run", "--algorithm", "raft", "--duration", "1.0000000001s"][..],
            "resolution is 1 ms",
        ),
        // Config rules in the scenario's keys, with the defaults named.
        (
            &[
                "run",
                "--algorithm",
                "lease-fencing",
                "--set",
                "safety_margin_ms=20000",
            ][..],
            "safety_margin_ms 20000 must be above 0 and below ttl_ms 2000 (the default)",
        ),
        // ... and in failover's flags.
        (
            &[
                "failover",
                "--algorithm",
                "lease-fencing",
                "--ttl-ms",
                "1000",
                "--safety-margin-ms",
                "1000",
            ][..],
            "--safety-margin-ms 1000 must be above 0 and below --ttl-ms 1000: 0 < --safety-margin-ms < --ttl-ms",
        ),
        (
            &["failover", "--algorithm", "raft", "--ttl-ms", "2000"][..],
            "--ttl-ms does not apply to raft: it is a knob of lease-fencing",
        ),
        // A --set names the key and has no line or column: the user typed no JSON.
        (
            &["run", "--algorithm", "raft", "--set", "pre_vote=5"][..],
            "config.pre_vote: expected true or false, got 5",
        ),
        // Duplicate keys in a worded fault, the strike time included.
        (
            &[
                "run",
                "--algorithm",
                "raft",
                "--fault",
                "crash node=1 node=2 at=1s",
            ][..],
            "the key \"node\" is given twice",
        ),
        (
            &[
                "run",
                "--algorithm",
                "raft",
                "--fault",
                "crash node=1 at=1s at=2s",
            ][..],
            "the time it strikes is given twice",
        ),
        (
            &[
                "run",
                "--algorithm",
                "raft",
                "--duration",
                "100000000000000ms",
            ][..],
            "is above the longest run, 1000000000 ms",
        ),
        (
            &["run", "no-such-file.json"][..],
            "cannot read scenario no-such-file.json: no such file",
        ),
        (
            &[
                "search",
                "--algorithm",
                "raft",
                "--property",
                "split-brain",
                "--out",
                "/nonexistent-dir/x.json",
            ][..],
            "--out /nonexistent-dir/x.json: cannot write there",
        ),
        (
            &["chaos", "--algorithm", "raft", "--set", "network.loss=0.5"][..],
            "--set network.loss: this command takes config keys",
        ),
        (
            &["chaos", "--algorithm", "raft", "--set", "ttl_ms=5"][..],
            "config key `ttl_ms` does not apply to algorithm raft",
        ),
    ] {
        let out = tenure(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(words), "{args:?}: {err}");
        words::assert_words(&format!("{args:?}"), err.trim_end());
        if let [.., flag, value] = args
            && flag.starts_with("--")
        {
            assert!(
                !err.contains(&format!("`{value}`")),
                "{args:?}: the value is quoted again after its flag: {err}"
            );
        }
        assert!(
            !err.contains(" at line "),
            "{args:?}: no JSON was typed: {err}"
        );
        assert!(!err.contains("os error"), "{args:?}: {err}");
    }
}

#[test]
fn scenario_files_keep_their_line_and_column() {
    let dir = std::env::temp_dir().join(format!("tenure-words-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.json");
    std::fs::write(
        &path,
        r#"{"version": 1, "algorithm": "raft", "nodes": "3", "seed": 0, "duration_ms": 1000}"#,
    )
    .unwrap();
    let out = tenure(&["run", path.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains(
            "nodes: expected a whole number from 1 to 64, got the string \"3\" at line 1 column"
        ),
        "{err}"
    );
}

#[test]
fn durations_take_units_on_every_duration_flag() {
    // --election-timeout-ms and --latency-ms take a plain number (ms) or a unit at each end,
    // as every -ms flag does.
    let json = |args: &[&str]| -> serde_json::Value {
        let out = tenure(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let base = ["failover", "--algorithm", "raft", "--runs", "3", "--json"];
    let plain = json(
        &[
            &base[..],
            &["--election-timeout-ms", "1000-2000", "--latency-ms", "1-5"],
        ]
        .concat(),
    );
    let units = json(
        &[
            &base[..],
            &["--election-timeout-ms", "1s", "--latency-ms", "1ms-5ms"],
        ]
        .concat(),
    );
    assert_eq!(
        plain["settings"][0]["setting"],
        units["settings"][0]["setting"]
    );
    assert_eq!(
        plain["settings"][0]["samples_ms"],
        units["settings"][0]["samples_ms"]
    );
}

#[test]
fn chaos_and_search_take_config_on_the_command_line() {
    let run = |extra: &[&str]| -> serde_json::Value {
        let args = [
            &[
                "chaos",
                "--algorithm",
                "raft",
                "--runs",
                "2",
                "--duration",
                "5s",
                "--json",
            ][..],
            extra,
        ]
        .concat();
        let out = tenure(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let plain = run(&[]);
    let slow = run(&["--set", "election_timeout_ms=1s"]);
    assert_ne!(plain["events"], slow["events"], "{plain} {slow}");
    assert_eq!(
        run(&["--config", r#"{"election_timeout_ms": 1000}"#])["events"],
        slow["events"]
    );
    let emitted = stdout(&tenure(&[
        "chaos",
        "--algorithm",
        "raft",
        "--runs",
        "1",
        "--set",
        "election_timeout_ms=1s",
        "--emit-scenario",
    ]));
    let s = tenure_sim::scenario::Scenario::from_json(emitted.trim()).unwrap();
    assert_eq!(
        s.config.election_timeout_ms,
        Some(tenure_sim::units::Ms::from_millis(1000))
    );
    let out = tenure(&[
        "search",
        "--algorithm",
        "raft",
        "--property",
        "split-brain",
        "--budget",
        "1",
        "--set",
        "election_timeout_ms=1s",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("in 1 run "),
        "one run, not \"1 runs\": {}",
        stdout(&out)
    );
}

#[test]
fn help_lists_the_families_and_the_exit_codes() {
    let help = stdout(&tenure(&["chaos", "--help"]));
    for f in tenure_sim::chaos::Family::ALL {
        assert!(help.contains(f.name()), "{f} missing from: {help}");
    }
    assert!(
        help.contains("[default: 120s]") && help.contains("[default: 5]"),
        "{help}"
    );
    let search = stdout(&tenure(&["search", "--help"]));
    assert!(
        search.contains("[default: 20s]") && search.contains("[default: 3]"),
        "{search}"
    );
    for cmd in [&["--help"][..], &["run", "--help"], &["check", "--help"]] {
        let text = stdout(&tenure(cmd));
        assert!(
            text.contains("Exit codes:") && text.contains("2  bad arguments"),
            "{text}"
        );
    }
}

#[test]
fn faults_and_config_on_the_command_line_change_the_run() {
    let base = [
        "run",
        "--algorithm",
        "raft",
        "--nodes",
        "3",
        "--seed",
        "1",
        "--duration",
        "5s",
        "--json",
    ];
    let plain: serde_json::Value = serde_json::from_slice(&tenure(&base).stdout).unwrap();
    let leader = plain["leaders"][0].as_u64().unwrap();
    let crash = format!("crash node={leader} at=2s");
    let out = tenure(&[&base[..], &["--fault", &crash]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let faulted: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_ne!(faulted["leaders"][0], leader, "{faulted}");
    assert!(
        faulted["metrics"]["elections_total"].as_u64().unwrap() >= 2,
        "{faulted}"
    );
    // The same fault as the scenario file's JSON gives the same run.
    let json_fault =
        format!(r#"{{"at_ms": 2000, "fault": {{"type": "crash", "node": {leader}}}}}"#);
    let out = tenure(&[&base[..], &["--fault", &json_fault]].concat());
    let again: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(again["trace_hash"], faulted["trace_hash"]);
    // A config key changes the run; ms and a unit say the same.
    let set = |v: &str| -> serde_json::Value {
        let out = tenure(&[&base[..], &["--set", v]].concat());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let slow = set("election_timeout_ms=1000");
    assert_ne!(slow["trace_hash"], plain["trace_hash"]);
    assert_eq!(
        set("election_timeout_ms=1s")["trace_hash"],
        slow["trace_hash"]
    );
    assert!(
        slow["metrics"]["leaderless_ms"].as_f64() > plain["metrics"]["leaderless_ms"].as_f64(),
        "{slow} {plain}"
    );
    // A fault naming a node the world does not have is refused with the scenario's words.
    let out = tenure(&[&base[..], &["--fault", "crash node=9 at=1s"]].concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not in this 3-node raft world"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn json_reports_are_in_milliseconds_with_a_hex_trace_hash() {
    let out = tenure(&[
        "run",
        "--algorithm",
        "lease-fencing",
        "--nodes",
        "3",
        "--duration",
        "3s",
        "--json",
    ]);
    let text = stdout(&out);
    assert!(!text.contains("_us\""), "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(v["metrics"]["leaderless_ms"].is_number(), "{v}");
    let hash = v["trace_hash"].as_str().unwrap();
    assert_eq!(hash.len(), 16);
    assert!(
        hash.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
        "{hash}"
    );
    let chaos = stdout(&tenure(&[
        "chaos",
        "--algorithm",
        "raft",
        "--runs",
        "2",
        "--duration",
        "5s",
        "--json",
    ]));
    assert!(
        !chaos.contains("_us\"") && chaos.contains("worst_split_brain_ms"),
        "{chaos}"
    );
}

#[test]
fn piped_runs_print_no_progress() {
    let out = tenure(&[
        "chaos",
        "--algorithm",
        "raft",
        "--runs",
        "4",
        "--duration",
        "5s",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr(&out), "", "progress goes to a terminal only");
    let out = tenure(&[
        "check",
        "--algorithm",
        "bully",
        "--property",
        "split-brain",
        "--steps",
        "2",
    ]);
    assert!(!stderr(&out).contains('\u{1b}'), "{}", stderr(&out));
}

#[test]
fn a_long_run_in_slices_has_the_unsliced_trace_hash() {
    let out = tenure(&[
        "run",
        "--algorithm",
        "raft",
        "--nodes",
        "3",
        "--seed",
        "4",
        "--duration",
        "90s",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = tenure_sim::scenario::Scenario::new(tenure_sim::Algorithm::Raft, 3, 4, 90_000);
    let mut world = tenure_sim::world::World::new(&s).unwrap();
    world.run();
    assert_eq!(v["trace_hash"], format!("{:016x}", world.trace_hash()));
}

/// `run FILE` read the whole file before looking at it: `run /dev/zero` grew without end and
/// a 300 MB file was held whole before it failed. It reads at most 8 MiB (what
/// `Simulation.fromJSON` takes) and says so.
#[test]
fn run_reads_at_most_8_mib_of_scenario_and_names_the_limit() {
    let dir = std::env::temp_dir().join(format!("tenure-cli-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.json");
    // Sparse: 9 MiB of zero bytes without writing them.
    std::fs::File::create(&big)
        .unwrap()
        .set_len(9 * 1024 * 1024)
        .unwrap();
    for path in [big.to_str().unwrap(), "/dev/zero"] {
        let out = tenure(&["run", path]);
        assert_eq!(out.status.code(), Some(2), "{path}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(&format!(
                "cannot read scenario {path}: it is larger than 8 MiB (8388608 bytes), the most a scenario file may hold"
            )),
            "{path}: {}",
            stderr(&out)
        );
    }
    let latin1 = dir.join("latin1.json");
    std::fs::write(&latin1, b"{\"version\": 1, \"x\": \"caf\xe9\"}").unwrap();
    let out = tenure(&["run", latin1.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("it is not UTF-8 text (the byte at offset 24 is not)"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Commands that take knobs through `--set` refuse `failover`'s knob flags and the spellings
/// before them with the `--set` that gives the value (clap said only "unexpected argument");
/// a timeout range becomes its two keys.
#[test]
fn knob_flags_on_set_commands_name_the_set_to_use() {
    for (args, want) in [
        (
            vec!["run", "--algorithm", "lease-fencing", "--ttl", "2000"],
            "--ttl 2000: not a flag of this command; give it as --set ttl_ms=2000: knobs are in milliseconds, and 2s works too",
        ),
        (
            vec![
                "chaos",
                "--algorithm",
                "raft",
                "--election-timeout-ms",
                "150-300",
            ],
            "give it as --set election_timeout_ms=150 --set election_timeout_max_ms=300:",
        ),
        (
            vec![
                "search",
                "--algorithm",
                "raft",
                "--property",
                "split-brain",
                "--latency",
                "5-30",
            ],
            "give it as --set network.latency_ms=5-30 (`run` only: chaos, search and check draw the network from their faults)",
        ),
        (
            // One latency is a range of one (`network.latency_ms=5` is refused as not a range).
            vec!["run", "--algorithm", "raft", "--latency", "5"],
            "give it as --set network.latency_ms=5-5 (`run` only:",
        ),
    ] {
        let out = tenure(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(want), "{args:?}: {}", stderr(&out));
    }
    // What the messages say works.
    let out = tenure(&[
        "run",
        "--algorithm",
        "raft",
        "--duration",
        "1s",
        "--set",
        "network.latency_ms=5-5",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = tenure(&[
        "run",
        "--algorithm",
        "raft",
        "--duration",
        "2s",
        "--set",
        "election_timeout_ms=150",
        "--set",
        "election_timeout_max_ms=300",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// A fault's duration with a unit that is no duration was taken as the key `duration` and
/// refused as unknown ("the keys are target, duration_ms"); a negative `--duration` named a
/// 10^15 ms bound no run has.
#[test]
fn a_bad_duration_is_named_as_a_value_not_as_an_unknown_key() {
    let out = tenure(&[
        "run",
        "--algorithm",
        "raft",
        "--fault",
        "pause target=1 duration=1e300s at=1s",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out)
            .contains("duration=1e300s: `1e300s` is not a duration: `1e300` is not a number"),
        "{}",
        stderr(&out)
    );
    let out = tenure(&["run", "--algorithm", "raft", "--duration", "-5s"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--duration -5s is not a duration: a duration is 0 or more"),
        "{}",
        stderr(&out)
    );
}

/// `--propose-every 1us` said "`1u` is not a number": the parser stripped the `s` it knew and
/// read what was left as the number. Every duration-taking flag (and a fault's `duration=`,
/// `at=`, the property's `no-leader-for=`) names a unit it does not take, with the units it
/// does; `2m` in `no-leader-for=` is read as the flags read it.
#[test]
fn a_duration_with_an_unknown_unit_names_the_unit_and_the_units_taken() {
    let units = "use ms, s, m or h (duration flags count whole milliseconds)";
    let raft = ["--algorithm", "raft"];
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["chaos", "--propose-every", "1us"],
            format!("--propose-every 1us is not a duration: unknown unit `us`; {units}"),
        ),
        (
            vec!["run", "--duration", "1sec"],
            format!("--duration 1sec is not a duration: unknown unit `sec`; {units}"),
        ),
        (
            vec!["chaos", "--heal", "5us"],
            format!("--heal 5us is not a duration: unknown unit `us`; {units}"),
        ),
        (
            vec!["check", "--property", "split-brain", "--step", "10us"],
            format!("--step 10us is not a duration: unknown unit `us`; {units}"),
        ),
        (
            vec!["failover", "--cost-run", "1d"],
            format!("--cost-run 1d is not a duration: unknown unit `d`; {units}"),
        ),
        (
            vec!["failover", "--cost-run", "1m", "--pause", "300us"],
            format!("--pause 300us is not a duration: unknown unit `us`; {units}"),
        ),
        (
            vec!["search", "--property", "no-leader-for=1us"],
            format!("--property no-leader-for=1us is not a duration: unknown unit `us`; {units}"),
        ),
        (
            vec!["run", "--fault", "pause target=1 duration=1us at=1s"],
            format!("duration=1us: `1us` is not a duration: unknown unit `us`; {units}"),
        ),
        (
            vec!["search", "--property", "split-brain", "--budget", "10us"],
            format!("--budget 10us is not a duration: unknown unit `us`; {units}"),
        ),
        (
            vec!["run", "--fault", "crash node=1 at=2us"],
            format!("`2us` is not a duration: unknown unit `us`; {units}"),
        ),
    ];
    for (args, words) in cases {
        let out = tenure(&[&args[..1], &raft[..], &args[1..]].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains(&words), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(!err.contains("is not a number"), "{err}");
    }
    // `no-leader-for=` takes every unit the duration flags take.
    let out = tenure(&[
        "search",
        "--algorithm",
        "raft",
        "--property",
        "no-leader-for=20m",
        "--budget",
        "1",
        "--duration",
        "1s",
        "--heal",
        "1s",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("no violation of no-leader-for=1200000ms"),
        "{}",
        stdout(&out)
    );
}

/// `run --config '{"ttl_ms": 2000, "ttl_ms": 3000}'` ran with the last value while a scenario
/// file's `config` refuses the same text ("the key \"ttl_ms\" is given twice"): `--config`
/// was read as a JSON value, which keeps the last of two keys. It is refused the same way,
/// naming the key, on every command that takes it; a JSON `--fault` too.
#[test]
fn a_key_given_twice_on_the_command_line_is_refused_as_in_a_scenario_file() {
    let config = r#"{"ttl_ms": 2000, "ttl_ms": 3000}"#;
    for command in ["run", "chaos", "search", "check"] {
        let mut args = vec![command, "--algorithm", "lease-fencing", "--config", config];
        if command == "search" || command == "check" {
            args.extend(["--property", "split-brain"]);
        }
        let out = tenure(&args);
        assert_eq!(out.status.code(), Some(2), "{command}: {}", stderr(&out));
        assert_eq!(
            stderr(&out),
            format!(
                "error: --config {config} is not a config object: the key \"ttl_ms\" is given \
                 twice at line 1 column 25\n"
            ),
            "{command}"
        );
    }
    // The scenario file's words for the same config.
    let dir = std::env::temp_dir().join(format!("tenure-dup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("dup.json");
    std::fs::write(
        &file,
        format!(
            r#"{{"version": 1, "algorithm": "lease-fencing", "nodes": 3, "seed": 1, "duration_ms": 1000, "config": {config}}}"#
        ),
    )
    .unwrap();
    let out = tenure(&["run", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("config: the key \"ttl_ms\" is given twice at line 1"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_dir_all(&dir).unwrap();
    // A JSON fault, at any depth.
    for (fault, words) in [
        (
            r#"{"at_ms": 1000, "at_ms": 2000, "fault": {"type": "heal"}}"#,
            "is not a fault: the key \"at_ms\" is given twice at line 1 column 23",
        ),
        (
            r#"{"at_ms": 1000, "fault": {"type": "crash", "node": 1, "node": 2}}"#,
            "is not a fault: fault: the key \"node\" is given twice at line 1 column 60",
        ),
    ] {
        let out = tenure(&["run", "--algorithm", "raft", "--fault", fault]);
        assert_eq!(out.status.code(), Some(2), "{fault}");
        assert!(stderr(&out).contains(words), "{}", stderr(&out));
    }
    // One key once is still read.
    let out = tenure(&[
        "run",
        "--algorithm",
        "lease-fencing",
        "--duration",
        "1s",
        "--config",
        r#"{"ttl_ms": 2000, "safety_margin_ms": 300}"#,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// A scenario saved with a UTF-8 byte order mark (Notepad, PowerShell's `Out-File`) was
/// refused as "expected value at line 1 column 1". RFC 8259 section 8.1 lets a parser ignore
/// one: the file runs as it does without it, and an error in it keeps its line and column.
#[test]
fn a_scenario_file_with_a_byte_order_mark_runs_as_without_it() {
    let dir = std::env::temp_dir().join(format!("tenure-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = r#"{"version": 1, "algorithm": "raft", "nodes": 3, "seed": 4, "duration_ms": 2000}"#;
    let plain = dir.join("plain.json");
    let bom = dir.join("bom.json");
    std::fs::write(&plain, text).unwrap();
    std::fs::write(&bom, format!("\u{feff}{text}")).unwrap();
    let run = |path: &std::path::Path| {
        let out = tenure(&["run", path.to_str().unwrap(), "--json"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        serde_json::from_str::<serde_json::Value>(&stdout(&out)).unwrap()
    };
    let (a, b) = (run(&plain), run(&bom));
    assert_eq!(a["trace_hash"], b["trace_hash"]);
    assert_eq!(b["seed"], 4);
    // A mistake after the mark is placed as in the same text without it.
    let bad =
        r#"{"version": 1, "algorithm": "raft", "nodes": "3", "seed": 0, "duration_ms": 1000}"#;
    std::fs::write(&bom, format!("\u{feff}{bad}")).unwrap();
    let out = tenure(&["run", bom.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("got the string \"3\" at line 1 column 48"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An error echoed a whole argument: a 100 KB `--duration` (or `--config`, a scenario path,
/// a fault) was printed back in full. A value the user gave is shown whole up to 100
/// characters, and past that as its first 40 characters, "…" and its length, on every path
/// an error takes (our parsers, the library's, clap's own, a command's).
#[test]
fn a_huge_argument_is_shortened_in_its_error() {
    let x = "x".repeat(100_000);
    let json_key = format!(r#"{{"{x}": 1}}"#);
    let duration = format!("{x}s");
    let fault = format!("crash node=1 at={x}");
    let set = format!("{x}=1");
    let flag = format!("--{x}");
    let cases: Vec<Vec<&str>> = vec![
        vec!["run", "--algorithm", "raft", "--duration", &duration],
        vec!["run", "--algorithm", &x],
        vec!["run", "--algorithm", "raft", "--config", &json_key],
        vec!["run", &x],
        vec!["run", "--algorithm", "raft", "--fault", &fault],
        vec!["run", "--algorithm", "raft", "--set", &set],
        vec!["search", "--algorithm", "raft", "--property", &x],
        vec!["chaos", "--algorithm", "raft", "--families", &x],
        vec!["run", &flag],
    ];
    for args in cases {
        let out = tenure(&args);
        assert_eq!(out.status.code(), Some(2), "{}", &args[..2].join(" "));
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{}", &err[..err.len().min(600)]);
        assert!(
            err.len() < 600,
            "{}: {} bytes: {}",
            args[..2].join(" "),
            err.len(),
            &err[..600]
        );
        assert!(err.contains("xxxx… (1000"), "{err}");
    }
    // A value of 100 characters or fewer is shown whole.
    let short = "y".repeat(100);
    let out = tenure(&["run", "--algorithm", &short]);
    assert!(
        stderr(&out).contains(&format!("--algorithm {short} is not an algorithm")),
        "{}",
        stderr(&out)
    );
}

/// `--set holder_id=18446744073709551616` said "expected a whole number 0 or more, got
/// 1.8446744073709552e+19": the value was read as a float. It is named as written, with the
/// largest whole number a scenario holds; 2^64 - 1 itself is read as written, and then held to
/// the holder id's own range (at most 2^32, so that a run's holders stay whole JS numbers).
#[test]
fn a_set_value_past_2_64_is_named_as_written() {
    let out = tenure(&[
        "run",
        "--algorithm",
        "lease-fencing",
        "--duration",
        "1s",
        "--set",
        "holder_id=18446744073709551616",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains(
            "--set holder_id=18446744073709551616: 18446744073709551616 is above 2^64 - 1 \
             (18446744073709551615), the largest whole number a scenario holds"
        ),
        "{err}"
    );
    assert!(!err.contains("e+19"), "{err}");
    let out = tenure(&[
        "run",
        "--algorithm",
        "lease-fencing",
        "--duration",
        "1s",
        "--set",
        "holder_id=18446744073709551615",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("holder_id 18446744073709551615 is not from 0 to 2 ** 32"),
        "{err}"
    );
}

/// Runs `args`, expects the usage exit code (2) and `words` in the message.
fn refused(args: &[&str], words: &str) {
    let out = tenure(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stdout(&out));
    assert!(stderr(&out).contains(words), "{args:?}: {}", stderr(&out));
}

#[test]
fn flags_that_cannot_mean_anything_are_refused_and_lists_are_trimmed() {
    // --emit-scenario prints scenarios, not a report: --json and --jobs have nothing to change.
    let emit = [
        "chaos",
        "--algorithm",
        "raft",
        "--runs",
        "1",
        "--emit-scenario",
    ];
    refused(&[&emit[..], &["--json"]].concat(), "cannot be used with");
    refused(
        &[&emit[..], &["--jobs", "3"]].concat(),
        "cannot be used with",
    );
    // A shrinker allowed no step would try nothing (JS's Search.shrink refuses 0 too).
    refused(
        &[
            "search",
            "--algorithm",
            "raft",
            "--property",
            "split-brain",
            "--shrink-steps",
            "0",
        ],
        "--shrink-steps 0 is not a whole number from 1",
    );
    // `kill, pause` names `pause`: the space after the comma is not part of the name.
    let out = tenure(&[
        "chaos",
        "--algorithm",
        "raft",
        "--runs",
        "1",
        "--duration",
        "5s",
        "--families",
        "kill, pause",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // A memory unit written in another case is named, not called missing.
    refused(&["check", "--max-memory", "16mb"], "`mb` is not a unit");
}

#[test]
fn a_run_too_long_is_refused_in_the_flags_words() {
    refused(
        &[
            "chaos",
            "--algorithm",
            "raft",
            "--duration",
            "1000000000ms",
            "--heal",
            "1000000000ms",
        ],
        "--duration 1000000000 ms plus --heal 1000000000 ms",
    );
    refused(
        &[
            "check",
            "--algorithm",
            "raft",
            "--property",
            "split-brain",
            "--steps",
            "4294967295",
        ],
        "--steps 4294967295 of --step 500 ms",
    );
}
