//! Property tests of one Bully node (convention 10): invariants over random inputs, not
//! traces. A failing case is shrunk and printed by proptest with its seed; rerun it by
//! pasting the printed values into a unit test, or with `PROPTEST_CASES=1` and the saved
//! regression file. Convergence of a whole cluster under random crashes is a property of
//! the simulator's world (`crates/tenure-sim/tests/bully_cluster.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use proptest::prelude::*;
use tenure::bully::{BullyConfig, BullyMessage, BullyNode, BullyOutput, BullyTimer, Role};
use tenure::{Instant, NodeId};

/// One input to a lone node. `from` and `coordinator` may be unknown ids (9), the node
/// itself, or peers; epochs include the extremes; times may go backwards.
#[derive(Clone, Debug)]
enum Input {
    Message {
        from: u64,
        kind: u8,
        epoch: u64,
        coordinator: u64,
        at_ms: u64,
    },
    Timeout {
        at_ms: u64,
    },
    /// `handle_timeout` exactly at `poll_timeout()`.
    FireNext,
    Start {
        at_ms: u64,
    },
}

fn epoch() -> impl Strategy<Value = u64> {
    prop_oneof![
        4 => 0..8u64,
        1 => Just(u64::MAX),
        1 => Just(u64::MAX - 1),
        1 => any::<u64>(),
    ]
}

fn input() -> impl Strategy<Value = Input> {
    let id = prop_oneof![Just(1u64), Just(2), Just(3), Just(9)];
    let at = prop_oneof![4 => 0..2_000u64, 1 => Just(u64::MAX / 1_000)];
    prop_oneof![
        6 => (id.clone(), 0..4u8, epoch(), id, at.clone()).prop_map(
            |(from, kind, epoch, coordinator, at_ms)| Input::Message {
                from,
                kind,
                epoch,
                coordinator,
                at_ms
            }
        ),
        2 => at.clone().prop_map(|at_ms| Input::Timeout { at_ms }),
        2 => Just(Input::FireNext),
        1 => at.prop_map(|at_ms| Input::Start { at_ms }),
    ]
}

fn message(kind: u8, epoch: u64, coordinator: u64) -> BullyMessage {
    match kind {
        0 => BullyMessage::Election { epoch },
        1 => BullyMessage::Answer { epoch },
        2 => BullyMessage::Coordinator {
            coordinator: NodeId(coordinator),
            epoch,
        },
        _ => BullyMessage::Heartbeat { epoch },
    }
}

fn apply(n: &mut BullyNode, input: &Input) {
    match *input {
        Input::Message {
            from,
            kind,
            epoch,
            coordinator,
            at_ms,
        } => n.handle_message(
            Instant::from_millis(at_ms),
            NodeId(from),
            message(kind, epoch, coordinator),
        ),
        Input::Timeout { at_ms } => n.handle_timeout(Instant::from_millis(at_ms)),
        Input::FireNext => {
            if let Some(at) = n.poll_timeout() {
                n.handle_timeout(at);
            }
        }
        Input::Start { at_ms } => n.start_election(Instant::from_millis(at_ms)),
    }
}

fn lone_node(id: u64) -> BullyNode {
    let peers = [1, 2, 3]
        .into_iter()
        .filter(|p| *p != id)
        .map(NodeId)
        .collect();
    BullyNode::new(BullyConfig {
        id: NodeId(id),
        peers,
        ..BullyConfig::default()
    })
    .unwrap()
}

/// The invariants of one node after an input whose outputs are `out`.
fn check_node(n: &BullyNode, out: &[BullyOutput], durable: &mut u64, last_epoch: &mut u64) {
    let peers = n.config().peers.len();
    assert!(
        out.len() <= peers + 5,
        "{} outputs from one input",
        out.len()
    );
    for o in out {
        match *o {
            BullyOutput::Persist(p) => {
                assert!(p.epoch >= *durable, "persisted epoch went back");
                *durable = p.epoch;
            }
            BullyOutput::Send { to, msg } => {
                assert!(n.config().peers.contains(&to), "send to non-peer {to}");
                if let BullyMessage::Coordinator { coordinator, epoch } = msg
                    && coordinator == n.id()
                {
                    assert!(*durable >= epoch, "announced {epoch} before persisting it");
                }
            }
            BullyOutput::Event(_) => {}
        }
    }
    assert_eq!(*durable, n.epoch(), "every raise of the epoch is persisted");
    assert!(n.epoch() >= *last_epoch, "epoch went back");
    *last_epoch = n.epoch();
    assert!(n.coordinator_epoch().is_none_or(|e| e <= n.epoch()));
    // Bully never defers to a lower id: the coordinator in view is this node or a higher one.
    assert!(n.coordinator().is_none_or(|c| c >= n.id()));
    // Role, view and the armed timer agree; a node always waits for something.
    let timer = n.next_timer().map(|(t, _)| t);
    match n.role() {
        Role::Coordinator => {
            assert_eq!(n.coordinator(), Some(n.id()));
            assert_eq!(timer, Some(BullyTimer::Heartbeat));
        }
        Role::Candidate => {
            assert_eq!(n.coordinator(), None);
            assert!(matches!(
                timer,
                Some(BullyTimer::AwaitAnswer | BullyTimer::AwaitCoordinator)
            ));
        }
        Role::Follower => {
            assert_ne!(n.coordinator(), Some(n.id()));
            assert_eq!(timer, Some(BullyTimer::FailureDetector));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// No input sequence panics; per-input outputs are bounded by the peer count;
    /// Persist precedes announcements; role, view and timer stay consistent.
    #[test]
    fn no_input_sequence_panics_and_outputs_stay_bounded(
        id in 1..=3u64,
        inputs in prop::collection::vec(input(), 0..200),
    ) {
        let mut n = lone_node(id);
        let (mut durable, mut last_epoch) = (0, 0);
        for input in &inputs {
            apply(&mut n, input);
            let out: Vec<_> = std::iter::from_fn(|| n.poll_output()).collect();
            check_node(&n, &out, &mut durable, &mut last_epoch);
        }
    }

    /// A driver that never drains cannot grow the node's memory: the queue stays at its cap
    /// of 2 * (peers + 8) and still holds the latest Persist.
    #[test]
    fn undrained_outputs_stay_bounded(
        id in 1..=3u64,
        inputs in prop::collection::vec(input(), 0..400),
    ) {
        let mut n = lone_node(id);
        for input in &inputs {
            apply(&mut n, input);
        }
        let out: Vec<_> = std::iter::from_fn(|| n.poll_output()).collect();
        prop_assert!(out.len() <= 2 * (2 + 8), "{} outputs queued", out.len());
        if n.epoch() > 0 {
            prop_assert!(out.contains(&BullyOutput::Persist(n.persisted())));
        }
    }
}
