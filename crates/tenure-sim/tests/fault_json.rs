//! A fault read from JSON: every type, `type` first or last, and each mistake refused with
//! the key named (the hand-written reader in `src/fault/de.rs`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

use serde_json::{Value, json};
use tenure::NodeId;
use tenure_sim::serde_words::from_text;
use tenure_sim::units::{Ms, Probability, SignedMs};
use tenure_sim::{Fault, Proc, TimedFault};

fn every_fault() -> Vec<Fault> {
    let ms = |v: u64| Ms(tenure::Duration::from_millis(v));
    let p = |v: f64| Probability::new(v).unwrap();
    let n = |v: u64| Proc::Node(NodeId(v));
    vec![
        Fault::Crash { node: NodeId(1) },
        Fault::Restart { node: NodeId(2) },
        Fault::Pause {
            target: Proc::Store,
            duration_ms: ms(5),
        },
        Fault::PauseAfterCheck {
            node: NodeId(3),
            duration_ms: ms(7),
        },
        Fault::Partition {
            groups: vec![vec![n(1), n(2)], vec![n(3), Proc::Store]],
        },
        Fault::PartitionOneWay {
            from: vec![n(1)],
            to: vec![n(2), Proc::Resource],
        },
        Fault::Isolate {
            nodes: vec![n(4), Proc::Store],
        },
        Fault::Heal {},
        Fault::LinkLoss {
            from: vec![n(1)],
            to: vec![n(2)],
            probability: p(0.25),
        },
        Fault::LinkDuplicate {
            from: vec![n(2)],
            to: vec![n(1)],
            probability: p(1.0),
        },
        Fault::LinkLatency {
            from: vec![n(1)],
            to: vec![n(3)],
            min_ms: ms(1),
            max_ms: ms(9),
        },
        Fault::ClockOffset {
            target: n(1),
            offset_ms: SignedMs(-1_500),
        },
        Fault::ClockDrift {
            target: Proc::Store,
            ppm: -200,
        },
        Fault::ClockJump {
            target: n(2),
            by_ms: ms(400),
        },
        Fault::StoreOutage {
            duration_ms: ms(300),
        },
        Fault::DropMessage { id: u64::MAX },
        Fault::Propose {
            node: NodeId(1),
            command: 42,
        },
    ]
}

#[test]
fn every_fault_type_reads_back_with_type_first_or_last() {
    for fault in every_fault() {
        // The derived writer puts `type` first; a `Value` prints its keys sorted, `type` last.
        let first = serde_json::to_string(&fault).unwrap();
        assert!(first.starts_with("{\"type\":"), "{first}");
        assert_eq!(from_text::<Fault>(&first).unwrap(), fault, "{first}");
        let last = serde_json::to_string(&serde_json::to_value(&fault).unwrap()).unwrap();
        if fault != (Fault::Heal {}) {
            assert!(!last.starts_with("{\"type\":"), "{last}");
        }
        assert_eq!(from_text::<Fault>(&last).unwrap(), fault, "{last}");
        let value: Value = serde_json::from_str(&first).unwrap();
        assert_eq!(serde_json::from_value::<Fault>(value).unwrap(), fault);
    }
}

/// The message of reading `faults` (a list of timed faults) from `text`.
fn refusal(faults: Value) -> String {
    let err = from_text::<Vec<TimedFault>>(&faults.to_string()).expect_err("refused");
    err.to_string()
        .split(" at line ")
        .next()
        .unwrap()
        .to_string()
}

fn timed(fault: Value) -> Value {
    json!([{"at_ms": 1, "fault": fault}])
}

#[test]
fn mistakes_name_the_key() {
    let cases = [
        (
            json!({"type": "crsh", "node": 1}),
            "[0].fault.type: \"crsh\" is not one of crash, restart, pause,",
        ),
        (
            json!({"node": 1}),
            "[0].fault: the key \"type\" is required",
        ),
        (
            json!({"type": "crash"}),
            "[0].fault: the key \"node\" is required",
        ),
        (
            json!({"type": "link-latency", "from": [1], "to": [2], "min_ms": 1}),
            "[0].fault: the key \"max_ms\" is required",
        ),
        (
            json!({"type": "crash", "node": 1, "nod": 2}),
            "[0].fault: unknown key \"nod\"; the keys are node",
        ),
        (
            json!({"nod": 2, "type": "crash", "node": 1}),
            "[0].fault: unknown key \"nod\"; the keys are node",
        ),
        (
            json!({"type": "crash", "node": 1, "target": 2}),
            "[0].fault: unknown key \"target\"; the keys are node",
        ),
        (
            json!({"target": 2, "node": 1, "type": "crash"}),
            "[0].fault: unknown key \"target\"; the keys are node",
        ),
        (
            json!({"type": "heal", "node": 1}),
            "[0].fault: unknown key \"node\"; this object takes no keys",
        ),
        (
            json!({"type": "crash", "node": "x"}),
            "[0].fault.node: expected a whole number 0 or more, got the string \"x\"",
        ),
        (
            json!({"type": "pause", "target": 1, "duration_ms": -5}),
            "[0].fault.duration_ms: -5 is not a time in milliseconds",
        ),
        (
            json!({"type": "partition", "groups": [[1], [2, "disk"]]}),
            "[0].fault.groups[1][1]: expected a node id",
        ),
        (
            json!({"type": 0, "node": 1}),
            "[0].fault.type: expected a fault type, got 0",
        ),
        (
            json!(["crash", 1]),
            "[0].fault: expected an object with a \"type\" key, got an array",
        ),
    ];
    for (fault, expect) in cases {
        let got = refusal(timed(fault.clone()));
        assert!(got.starts_with(expect), "{fault}: {got}");
    }
}

#[test]
fn a_repeated_key_is_refused() {
    for text in [
        r#"[{"at_ms": 1, "fault": {"type": "crash", "node": 1, "node": 2}}]"#,
        r#"[{"at_ms": 1, "fault": {"type": "crash", "type": "crash", "node": 1}}]"#,
    ] {
        let err = from_text::<Vec<TimedFault>>(text)
            .expect_err(text)
            .to_string();
        assert!(
            err.starts_with("[0].fault") && err.contains("is given twice"),
            "{err}"
        );
    }
}
