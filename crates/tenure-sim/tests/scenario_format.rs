//! The scenario format (docs/design.md "Scenario"): versioned JSON that round-trips, refuses
//! unknown keys and bad values with one-line errors, and replays to the same trace hash.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

use tenure::NodeId;
use tenure_sim::units::Ms;
use tenure_sim::{Algorithm, Fault, Proc, Scenario, ScenarioError, World};

fn sample() -> Scenario {
    let mut s = Scenario::new(Algorithm::Raft, 5, 7, 20_000)
        .with_fault(
            3_000,
            Fault::Partition {
                groups: vec![vec![Proc::Node(NodeId(1))], vec![Proc::Node(NodeId(2))]],
            },
        )
        .with_fault(
            4_000,
            Fault::Pause {
                target: Proc::Node(NodeId(3)),
                duration_ms: Ms::from_millis(700),
            },
        )
        .with_fault(5_000, Fault::Crash { node: NodeId(2) })
        .with_fault(6_000, Fault::Restart { node: NodeId(2) })
        .with_fault(7_000, Fault::Heal {});
    s.config.pre_vote = Some(true);
    s
}

#[test]
fn scenario_json_round_trips() {
    let s = sample();
    let text = s.to_json();
    assert_eq!(Scenario::from_json(&text).unwrap(), s);
    let lease = Scenario::new(Algorithm::LeaseFencing, 3, 1, 1_000).with_fault(
        10,
        Fault::ClockJump {
            target: Proc::Store,
            by_ms: Ms::from_millis(4_000),
        },
    );
    assert_eq!(Scenario::from_json(&lease.to_json()).unwrap(), lease);
}

#[test]
fn hand_written_scenario_parses() {
    let text = r#"{
        "version": 1, "algorithm": "lease-fencing", "nodes": 3, "seed": 9, "duration_ms": 5000,
        "config": {"ttl_ms": 1500, "write_interval_ms": 50},
        "network": {"latency_ms": [1, 5.5], "loss": 0.01},
        "faults": [
            {"at_ms": 1000, "fault": {"type": "isolate", "nodes": [1, "store"]}},
            {"at_ms": 1200.5, "fault": {"type": "clock-offset", "target": 2, "offset_ms": -300}},
            {"at_ms": 2000, "fault": {"type": "heal"}}
        ]
    }"#;
    let s = Scenario::from_json(text).unwrap();
    assert_eq!(s.faults.len(), 3);
    assert_eq!(
        s.faults[1].at_ms,
        Ms(tenure::Duration::from_micros(1_200_500))
    );
    World::new(&s).unwrap().run();
}

fn err(text: &str) -> String {
    let e: ScenarioError = Scenario::from_json(text).unwrap_err();
    let msg = e.to_string();
    assert!(!msg.contains('\n'), "one line: {msg}");
    msg
}

#[test]
fn malformed_scenarios_give_clear_one_line_errors() {
    let base = r#""version": 1, "algorithm": "raft", "nodes": 3, "seed": 1, "duration_ms": 1000"#;
    let m = err(&format!("{{{base}, \"colour\": 1}}"));
    assert!(m.contains("unknown key \"colour\""), "{m}");
    let m = err(r#"{"version": 2, "algorithm": "raft", "nodes": 3, "seed": 1, "duration_ms": 1}"#);
    assert!(m.contains("version 2 is not supported"), "{m}");
    let m = err(r#"{"version": 1, "algorithm": "paxos", "nodes": 3, "seed": 1, "duration_ms": 1}"#);
    assert!(m.contains("paxos"), "{m}");
    let m = err(r#"{"version": 1, "algorithm": "raft", "nodes": 0, "seed": 1, "duration_ms": 1}"#);
    assert!(m.contains("nodes 0"), "{m}");
    let m = err(&format!("{{{base}, \"config\": {{\"ttl_ms\": 100}}}}"));
    assert!(
        m.contains("`ttl_ms` does not apply to algorithm raft"),
        "{m}"
    );
    let m = err(&format!(
        "{{{base}, \"config\": {{\"max_drift_ppm\": 100}}}}"
    ));
    assert!(
        m.contains("`max_drift_ppm` does not apply to algorithm raft"),
        "{m}"
    );
    let m = err(&format!(
        "{{{base}, \"faults\": [{{\"at_ms\": 5, \"fault\": {{\"type\": \"crash\", \"node\": 9}}}}]}}"
    ));
    assert!(m.contains("faults[0]") && m.contains("process n9"), "{m}");
    let m = err(&format!(
        "{{{base}, \"faults\": [{{\"at_ms\": 5, \"fault\": {{\"type\": \"store-outage\", \"duration_ms\": 5}}}}]}}"
    ));
    assert!(m.contains("only to lease worlds"), "{m}");
    // A process list longer than the world is refused before any cut is applied.
    let many = vec!["1"; 1000].join(",");
    let m = err(&format!(
        "{{{base}, \"faults\": [{{\"at_ms\": 5, \"fault\": {{\"type\": \"isolate\", \"nodes\": [{many}]}}}}]}}"
    ));
    assert!(
        m.contains("isolate names 1000 processes; this world has 3"),
        "{m}"
    );
    // A fault without fields rejects unknown keys like every other (new-user review).
    let m = err(&format!(
        "{{{base}, \"faults\": [{{\"at_ms\": 5, \"fault\": {{\"type\": \"heal\", \"extra\": 1}}}}]}}"
    ));
    assert!(m.contains("unknown key \"extra\""), "{m}");
    let m = err(&format!("{{{base}, \"network\": {{\"loss\": 1.5}}}}"));
    assert!(m.contains("1.5 is not a probability"), "{m}");
    let m = err(&format!("{{{base}, \"duration_ms\": -4}}"));
    assert!(m.contains("is given twice") || m.contains("-4"), "{m}");
    let m = err("{\"version\": 1,");
    assert!(m.starts_with("scenario:"), "{m}");
}

#[test]
fn same_scenario_and_seed_replay_to_the_same_trace_hash() {
    // docs/design.md "Determinism": a scenario plus its seed replays identically.
    for algorithm in Algorithm::ALL {
        let mut s =
            tenure_sim::chaos::scenario(&tenure_sim::chaos::ChaosOptions::new(algorithm), 42);
        s.duration_ms = Ms::from_millis(30_000);
        let run = |s: &Scenario| {
            let mut w = World::new(s).unwrap();
            w.run();
            (w.trace_hash(), w.metrics())
        };
        let (a, ma) = run(&s);
        let (b, mb) = run(&Scenario::from_json(&s.to_json()).unwrap());
        assert_eq!(a, b, "{algorithm}");
        assert_eq!(ma, mb, "{algorithm}");
        s.seed = 43;
        assert_ne!(run(&s).0, a, "{algorithm}: another seed, another trace");
    }
}
