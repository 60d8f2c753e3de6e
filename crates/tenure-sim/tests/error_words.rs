//! Every error the simulator gives a caller reads in words: each scenario and fault mistake,
//! the chaos, search and check options, the names of algorithms, families and properties, and
//! the CLI's own parsers. No message carries Rust or serde notation.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

use tenure_sim::chaos::{ChaosOptions, Family};
use tenure_sim::search::Property;
use tenure_sim::{Algorithm, Scenario, World};

#[path = "../../../tests/words/words.rs"]
mod words;
use words::assert_words;

/// A valid scenario's JSON with `edit` applied to it.
fn scenario(edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v = serde_json::to_value(Scenario::new(Algorithm::LeaseFencing, 3, 1, 5_000)).unwrap();
    edit(&mut v);
    v.to_string()
}

#[test]
fn every_scenario_mistake_reads_in_words() {
    use serde_json::json;
    let cases: Vec<(&str, String, &str)> = vec![
        ("not json", "{".into(), "the text ends within an object"),
        (
            "unknown key",
            scenario(|v| v["colour"] = json!(1)),
            "unknown key \"colour\"",
        ),
        (
            "unknown config key",
            scenario(|v| v["config"]["ttl"] = json!(1)),
            "unknown key \"ttl\"",
        ),
        (
            "missing key",
            scenario(|v| {
                v.as_object_mut().unwrap().remove("nodes");
            }),
            "the key \"nodes\" is required",
        ),
        (
            "string nodes",
            scenario(|v| v["nodes"] = json!("3")),
            "nodes: expected a whole number from 1 to 64, got the string \"3\"",
        ),
        (
            "fractional nodes",
            scenario(|v| v["nodes"] = json!(1.5)),
            "got 1.5",
        ),
        (
            "negative nodes",
            scenario(|v| v["nodes"] = json!(-1)),
            "got -1",
        ),
        (
            "unknown algorithm",
            scenario(|v| v["algorithm"] = json!("paxos")),
            "\"paxos\" is not one of",
        ),
        (
            "no nodes",
            scenario(|v| v["nodes"] = json!(0)),
            "nodes 0 must be a whole number from 1 to 64",
        ),
        (
            "version",
            scenario(|v| v["version"] = json!(99)),
            "version 99 is not supported",
        ),
        (
            "negative seed",
            scenario(|v| v["seed"] = json!(-1)),
            "-1 is not a seed: a seed is a whole number from 0 to 2 ** 53 - 1, or a bigint or decimal string from 0 to 2n ** 64n - 1n",
        ),
        (
            "float seed past 2^53",
            scenario(|v| v["seed"] = json!(1.152_921_504_606_847e18)),
            "is above 2 ** 53 - 1, where a number no longer holds",
        ),
        (
            "bool seed",
            scenario(|v| v["seed"] = json!(true)),
            "got true",
        ),
        (
            "negative duration",
            scenario(|v| v["duration_ms"] = json!(-5)),
            "-5",
        ),
        (
            "loss above 1",
            scenario(|v| v["network"]["loss"] = json!(2)),
            "network.loss: 2 is not a probability from 0 to 1",
        ),
        (
            "latency backwards",
            scenario(|v| v["network"]["latency_ms"] = json!([9, 1])),
            "min is greater than max",
        ),
        (
            "latency of three",
            scenario(|v| v["network"]["latency_ms"] = json!([1, 2, 3])),
            "more elements or text than expected",
        ),
        (
            "bool config key",
            scenario(|v| v["config"]["ttl_ms"] = json!(true)),
            "config.ttl_ms: expected a number, got true",
        ),
        (
            "sub-microsecond time",
            scenario(|v| v["duration_ms"] = json!(1000.0004)),
            "duration_ms: 1000.0004 ms is finer than 1 microsecond (0.001 ms), the resolution",
        ),
        (
            "run too long",
            scenario(|v| v["duration_ms"] = json!(1e14)),
            "is above the longest run, 1000000000 ms",
        ),
        (
            "lease rule in scenario keys, the default named",
            scenario(|v| v["config"]["safety_margin_ms"] = json!(20_000)),
            "safety_margin_ms 20000 must be above 0 and below ttl_ms 2000 (the default): \
             0 < safety_margin_ms < ttl_ms",
        ),
        (
            "raft rule in scenario keys",
            scenario(|v| {
                v["algorithm"] = json!("raft");
                v["config"] = json!({ "election_timeout_ms": 40 });
            }),
            "heartbeat_interval_ms 50 (the default) must be above 0 and below election_timeout_ms 40",
        ),
        (
            // A proposal every 0 ms would fire forever at one instant (the run never ends).
            "proposals without an interval",
            scenario(|v| {
                v["algorithm"] = json!("raft");
                v["config"] = json!({ "propose_interval_ms": 0 });
            }),
            "raft config: propose_interval_ms 0 must be above 0",
        ),
        (
            "config of another algorithm",
            scenario(|v| v["config"]["pre_vote"] = json!(true)),
            "does not apply to algorithm lease-fencing",
        ),
        (
            "unknown fault type",
            scenario(|v| v["faults"] = json!([{"at_ms": 1, "fault": {"type": "meteor"}}])),
            "\"meteor\" is not one of",
        ),
        (
            "fault missing a key",
            scenario(|v| v["faults"] = json!([{"at_ms": 1, "fault": {"type": "crash"}}])),
            "the key \"node\" is required",
        ),
        (
            "fault without type",
            scenario(|v| v["faults"] = json!([{"at_ms": 1, "fault": {"node": 1}}])),
            "\"type\"",
        ),
        (
            "fault on a missing node",
            scenario(|v| {
                v["faults"] = json!([{"at_ms": 1, "fault": {"type": "crash", "node": 9}}])
            }),
            "not in this 3-node",
        ),
        (
            "fault of another family",
            scenario(|v| {
                v["faults"] =
                    json!([{"at_ms": 1, "fault": {"type": "propose", "node": 1, "command": 1}}])
            }),
            "applies only to",
        ),
        (
            "drift out of range",
            scenario(
                |v| v["faults"] = json!([{"at_ms": 1, "fault": {"type": "clock-drift", "target": 1, "ppm": 900000}}]),
            ),
            "clock-drift ppm 900000",
        ),
        (
            "partition twice",
            scenario(|v| {
                v["faults"] =
                    json!([{"at_ms": 1, "fault": {"type": "partition", "groups": [[1], [1]]}}])
            }),
            "in two groups",
        ),
        (
            "partition of one group",
            scenario(|v| {
                v["faults"] = json!([{"at_ms": 1, "fault": {"type": "partition", "groups": [[1]]}}])
            }),
            "partition groups has 1 group; a partition needs two or more, none empty",
        ),
        (
            "partition with an empty group",
            scenario(|v| {
                v["faults"] =
                    json!([{"at_ms": 1, "fault": {"type": "partition", "groups": [[1], []]}}])
            }),
            "partition groups[1] is empty",
        ),
        (
            "isolate nobody",
            scenario(|v| {
                v["faults"] = json!([{"at_ms": 1, "fault": {"type": "isolate", "nodes": []}}])
            }),
            "isolate nodes is empty",
        ),
        (
            "one-way cut from nobody",
            scenario(|v| {
                v["faults"] = json!([{"at_ms": 1, "fault":
                    {"type": "partition-one-way", "from": [], "to": [1]}}])
            }),
            "partition-one-way from is empty; name at least one process on each side",
        ),
        (
            "link loss to nobody",
            scenario(|v| {
                v["faults"] = json!([{"at_ms": 1, "fault":
                    {"type": "link-loss", "from": [1], "to": [], "probability": 0.5}}])
            }),
            "link-loss to is empty",
        ),
        (
            "faults not a list",
            scenario(|v| v["faults"] = json!({})),
            "expected an array",
        ),
    ];
    for (what, text, expect) in cases {
        // A config rule is judged where the world is built (with the simulator's defaults).
        let err = match Scenario::from_json(&text) {
            Err(e) => e.to_string(),
            Ok(s) => World::new(&s).map(|_| ()).expect_err(what).to_string(),
        };
        assert!(err.contains(expect), "{what}: {err}");
        assert_words(what, &err);
        // Scenario data that was not text (the CLI's --set, a JS object) has no line or
        // column to point at; a file's text has.
        let value: serde_json::Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(_) => continue,
        };
        let data = match Scenario::from_value(value) {
            Err(e) => e.to_string(),
            Ok(s) => World::new(&s).map(|_| ()).expect_err(what).to_string(),
        };
        assert!(!data.contains(" at line "), "{what}: {data}");
        if err.contains(" at line ") {
            assert_eq!(err.split(" at line ").next(), Some(data.as_str()), "{what}");
        }
    }
}

#[test]
fn option_and_name_errors_read_in_words() {
    let mut bully = ChaosOptions::new(Algorithm::Bully);
    bully.pre_vote = Some(true);
    let mut store = ChaosOptions::new(Algorithm::Raft);
    store.families = vec![Family::StoreOutage];
    let mut messages = vec![
        ("pre-vote outside raft", bully.validate().unwrap_err()),
        (
            "store outage outside a lease",
            store.validate().unwrap_err(),
        ),
        ("algorithm", "paxos".parse::<Algorithm>().unwrap_err()),
        ("family", "meteor".parse::<Family>().unwrap_err()),
        ("property", "liveliness".parse::<Property>().unwrap_err()),
        (
            "bare duration",
            "no-leader-for=2000".parse::<Property>().unwrap_err(),
        ),
        (
            "zero duration",
            "no-leader-for=0s".parse::<Property>().unwrap_err(),
        ),
    ];
    for bad in ["60", "-1s", "xs", "1.5ms", "1e99s"] {
        messages.push((
            "duration",
            tenure_sim::cli::parse_duration_ms(bad).unwrap_err(),
        ));
    }
    for bad in ["150-150", "200-150", "0", "a-b"] {
        messages.push((
            "timeouts",
            tenure_sim::cli::parse_timeouts(bad).unwrap_err(),
        ));
    }
    let s = Scenario::new(Algorithm::Raft, 3, 0, 1_000);
    let mut opts = tenure_sim::search::explore::CheckOptions::new(s, Property::SplitBrain);
    opts.step_ms = 15;
    messages.push((
        "check step",
        tenure_sim::search::explore::check(&opts)
            .unwrap_err()
            .to_string(),
    ));
    let mut world = tenure_sim::World::new(&Scenario::new(Algorithm::Raft, 3, 0, 1_000)).unwrap();
    messages.push((
        "inject",
        world
            .inject(tenure_sim::Fault::StoreOutage {
                duration_ms: tenure_sim::units::Ms::from_millis(5),
            })
            .unwrap_err()
            .to_string(),
    ));
    let mut bully = tenure_sim::World::new(&Scenario::new(Algorithm::Bully, 3, 0, 1_000)).unwrap();
    let err = bully.campaign(tenure::NodeId(9)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "campaign: there is no node n9 in this world"
    );
    assert!(
        !err.to_string().starts_with("fault"),
        "its own error: {err}"
    );
    messages.push(("campaign", err.to_string()));
    for (what, message) in messages {
        assert_words(what, &message);
    }
}
