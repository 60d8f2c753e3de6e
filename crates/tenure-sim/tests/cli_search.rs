//! `tenure search` and `tenure check`: bad arguments are one line and exit 2; a hit exits 1
//! and prints the scenario file (written to the current folder by default), its replay
//! command and its permalink; the replay command reproduces the violation.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

use std::path::Path;
use std::process::{Command, Output};

fn tenure_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tenure"))
        .args(args)
        .current_dir(dir)
        .env("TENURE_PLAYGROUND", "http://example.test/")
        .output()
        .expect("the binary runs")
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tenure-cli-search-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn one_line_error(args: &[&str]) -> String {
    let out = tenure_in(&std::env::temp_dir(), args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn bad_search_and_check_arguments_are_one_line() {
    let s = ["search", "--algorithm", "bully"];
    assert!(
        one_line_error(&[&s[..], &["--property", "splitbrain"]].concat()).contains("splitbrain")
    );
    assert!(
        one_line_error(&[&s[..], &["--property", "no-leader-for=0s"]].concat())
            .contains("needs a duration above 0")
    );
    // Break-it pass: half a millisecond was told it "needs a duration above 0 with a unit";
    // it is named as finer than the 1 ms resolution, as the duration flags name it.
    let fine = one_line_error(&[&s[..], &["--property", "no-leader-for=0.5ms"]].concat());
    assert!(
        fine.contains("no-leader-for=0.5ms is finer than 1 ms"),
        "{fine}"
    );
    assert!(
        one_line_error(&[&s[..], &["--property", "split-brain", "--budget", "0"]].concat())
            .contains("budget")
    );
    assert!(
        one_line_error(&[&s[..], &["--property", "split-brain", "--budget", "lots"]].concat())
            .contains("lots")
    );
    assert!(
        one_line_error(
            &[
                &s[..],
                &["--property", "split-brain", "--families", "store-outage"]
            ]
            .concat()
        )
        .contains("lease")
    );
    assert!(
        one_line_error(
            &[
                &s[..],
                &["--property", "split-brain", "--config", "{\"ttl_ms\": 5}"]
            ]
            .concat()
        )
        .contains("ttl_ms")
    );
    assert!(
        one_line_error(&[&s[..], &["--property", "split-brain", "--nodes", "0"]].concat())
            .contains("nodes")
    );
    // New-user review: a huge duration was told it "needs a duration above 0 with a unit".
    for huge in [
        "no-leader-for=2000000000s",
        "no-leader-for=99999999999999999999ms",
    ] {
        let e = one_line_error(&[&s[..], &["--property", huge]].concat());
        assert!(
            e.contains(&format!("--property {huge}")) && e.contains("from 1ms to 1000000000ms"),
            "{e}"
        );
    }
    // `-` is stdout for `run --trace` and `failover --svg`; a scenario file must be a file
    // (the replay command names it), so `--out -` is refused rather than written as "-".
    for cmd in [&s[..], &["check", "--algorithm", "bully"][..]] {
        let e = one_line_error(&[cmd, &["--property", "split-brain", "--out", "-"]].concat());
        assert!(
            e.contains("--out -") && e.contains("give a file name"),
            "{e}"
        );
    }
    let c = ["check", "--algorithm", "bully", "--property", "split-brain"];
    assert!(one_line_error(&[&c[..], &["--step", "15ms"]].concat()).contains("multiple of 10"));
    assert!(one_line_error(&[&c[..], &["--steps", "0"]].concat()).contains("steps"));
    // New-user review: `--max-states 0` was taken, and explored nothing.
    assert!(
        one_line_error(&[&c[..], &["--max-states", "0"]].concat())
            .contains("--max-states 0 would explore nothing: give at least 1")
    );
    for bad in ["2048", "1MiB", "lots"] {
        let e = one_line_error(&[&c[..], &["--max-memory", bad]].concat());
        assert!(
            e.contains(&format!("--max-memory {bad}")) && e.contains("from 16MiB to 1TiB"),
            "{e}"
        );
    }
}

/// New-user review: `tenure check --nodes 64` grew to 11 GB. Every state kept holds a whole
/// world, so `--max-states` did not bound the bytes; `--max-memory` (2GiB by default) does,
/// and the report says it cut the check short.
#[test]
fn check_memory_is_bounded_and_the_report_says_so() {
    let args = [
        "check",
        "--algorithm",
        "raft",
        "--property",
        "any-promised",
        "--nodes",
        "64",
        "--max-memory",
        "64MiB",
    ];
    let out = tenure_in(&std::env::temp_dir(), &args);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("(cut short by --max-memory 64MiB"), "{text}");
    assert!(text.contains("not a proof for these bounds"), "{text}");
    let out = tenure_in(&std::env::temp_dir(), &[&args[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["cut_short_by"], "max-memory", "{v}");
    assert_eq!(v["truncated"], true, "{v}");
}

#[test]
fn a_hit_prints_the_file_the_replay_and_the_link_and_the_replay_reproduces_it() {
    let dir = scratch("hit");
    let out = tenure_in(
        &dir,
        &[
            "search",
            "--algorithm",
            "bully",
            "--property",
            "split-brain",
            "--budget",
            "50",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "a violation found exits 1");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("shrunk: "), "{text}");
    assert!(
        text.contains("replay:     tenure run tenure-bully-split-brain.json"),
        "{text}"
    );
    assert!(
        text.contains("playground: http://example.test/#s="),
        "{text}"
    );
    // Piped: plain progress lines on stderr, no bar escapes.
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("runs/s") && !err.contains('\u{1b}'), "{err}");
    // Default out is in the current folder, and it replays with a split-brain window.
    assert!(dir.join("tenure-bully-split-brain.json").exists());
    let run = tenure_in(&dir, &["run", "tenure-bully-split-brain.json", "--json"]);
    let summary: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert!(
        summary["metrics"]["split_brain_ms"].as_f64().unwrap_or(0.0) > 0.0,
        "{summary}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_honest_none_exits_0() {
    let dir = scratch("none");
    let out = tenure_in(
        &dir,
        &[
            "search",
            "--algorithm",
            "lease-fencing",
            "--property",
            "any-promised",
            "--budget",
            "20",
            "--duration",
            "5s",
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("no violation of any-promised in 20 runs"),
        "{text}"
    );
    let check = tenure_in(
        &dir,
        &[
            "check",
            "--algorithm",
            "lease-fencing",
            "--property",
            "stale-write",
            "--steps",
            "3",
            "--json",
        ],
    );
    assert_eq!(check.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert!(report["counterexample"].is_null());
    assert!(report["states_explored"].as_u64().unwrap() > 10);
    assert!(report["states_per_second"].as_f64().unwrap() > 0.0);
    std::fs::remove_dir_all(&dir).ok();
}

/// The fault types of a scenario file, in order, as the format names them.
fn fault_types(path: &Path) -> Vec<String> {
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    s["faults"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["fault"]["type"].as_str().unwrap().to_string())
        .collect()
}

/// The number after `word` in `text` (`states explored 2694` -> 2694).
fn number_after(text: &str, word: &str) -> u64 {
    let at = text.find(word).expect(word) + word.len();
    text[at..]
        .trim_start()
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// 2694 as 2,694, as the README writes counts.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The README's table of what `search` and `check` find is what they print: a new-user trial
/// found every row stale after the chaos generator changed. Each row is rebuilt here from the
/// commands the README gives (3 nodes, their default budgets) and must appear as written.
#[test]
fn the_readmes_search_and_check_table_is_what_the_commands_print() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let dir = scratch("readme");
    let rows = [
        (
            "Bully split brain",
            "bully",
            &["--property", "split-brain", "--budget", "10000"][..],
            "split-brain",
        ),
        (
            "stale write, `lease-unfenced`",
            "lease-unfenced",
            &[
                "--property",
                "stale-write",
                "--families",
                "pause,clock-bump",
            ][..],
            "stale-write",
        ),
        (
            "Raft without CheckQuorum, deposed leader",
            "raft",
            &["--no-check-quorum", "--property", "split-brain"][..],
            "split-brain",
        ),
    ];
    for (label, algorithm, search_args, property) in rows {
        let out = tenure_in(
            &dir,
            &[&["search", "--algorithm", algorithm][..], search_args].concat(),
        );
        assert_eq!(out.status.code(), Some(1), "{label}");
        let text = String::from_utf8(out.stdout).unwrap();
        let run = number_after(&text, "in run");
        let before = number_after(&text, "shrunk:");
        let after = number_after(&text, "->");
        let found = fault_types(&dir.join(format!("tenure-{algorithm}-{property}.json")));
        let mut check = vec!["check", "--algorithm", algorithm, "--property", property];
        if algorithm == "lease-unfenced" {
            check.extend(["--steps", "8", "--faults", "2"]);
        }
        if algorithm == "raft" {
            check.push("--no-check-quorum");
        }
        let out = tenure_in(&dir, &check);
        assert_eq!(out.status.code(), Some(1), "{label}");
        let text = String::from_utf8(out.stdout).unwrap();
        let depth = number_after(&text, "shortest counterexample: depth");
        let states = number_after(&text, "states explored");
        let shortest = fault_types(&dir.join(format!("tenure-{algorithm}-{property}-check.json")));
        let row = format!(
            "| {label} | run {run}, {before} -> {after} ({}) | depth {depth}, {} ({}), {} states |",
            found.join(", "),
            match shortest.len() {
                1 => "1 fault".to_string(),
                n => format!("{n} faults"),
            },
            shortest.join(", "),
            thousands(states),
        );
        assert!(readme.contains(&row), "README.md lacks the row\n{row}");
    }
    // The fenced lease: nothing found either way.
    let out = tenure_in(
        &dir,
        &[
            "search",
            "--algorithm",
            "lease-fencing",
            "--property",
            "any-promised",
            "--budget",
            "30",
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    let out = tenure_in(
        &dir,
        &[
            "check",
            "--algorithm",
            "lease-fencing",
            "--property",
            "any-promised",
        ],
    );
    let states = number_after(&String::from_utf8(out.stdout).unwrap(), "states explored");
    let row = format!(
        "| `lease-fencing`, any promised invariant | none in 30 runs | none in {} states |",
        thousands(states)
    );
    assert!(readme.contains(&row), "README.md lacks the row\n{row}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// New-user review: `search --out notes.txt` replaced the notes without a word, and `run
/// s.json --trace s.json` replaced the scenario with its trace. An output replaces a scenario
/// (the last run's counterexample) and says so; a file that is not a scenario, and the input
/// of `run`, are refused before anything runs and left as they were.
#[test]
fn an_output_replaces_only_a_scenario_and_says_so() {
    let dir = scratch("replace");
    let search = [
        "search",
        "--algorithm",
        "bully",
        "--property",
        "split-brain",
        "--budget",
        "100",
    ];
    let stderr = |o: &Output| String::from_utf8(o.stderr.clone()).unwrap();
    std::fs::write(dir.join("notes.txt"), "my notes\n").unwrap();
    let out = tenure_in(&dir, &[&search[..], &["--out", "notes.txt"]].concat());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--out notes.txt: the file exists and is not a Tenure scenario"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "my notes\n"
    );

    let default = dir.join("tenure-bully-split-brain.json");
    std::fs::write(&default, "my notes\n").unwrap();
    let out = tenure_in(&dir, &search);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--out tenure-bully-split-brain.json (the default): the file exists"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_file(&default).unwrap();

    for replaced in [false, true] {
        let out = tenure_in(&dir, &search);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            text.contains("tenure-bully-split-brain.json (replaced the scenario that was there)"),
            replaced,
            "{text}"
        );
    }

    // A scenario saved with a byte order mark is a scenario too (it runs), so it is replaced.
    let with_bom = format!("\u{feff}{}", std::fs::read_to_string(&default).unwrap());
    std::fs::write(&default, with_bom).unwrap();
    let out = tenure_in(&dir, &search);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("(replaced the scenario that was there)")
    );

    let before = std::fs::read_to_string(&default).unwrap();
    let out = tenure_in(
        &dir,
        &[
            "run",
            "tenure-bully-split-brain.json",
            "--trace",
            "./tenure-bully-split-brain.json",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("that is the scenario file being run"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&default).unwrap(), before);
}
