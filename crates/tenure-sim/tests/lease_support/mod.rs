//! What the lease cluster tests share: a lease world with the core's default timings and a
//! fixed 1 ms each way, its candidates put in by the test (they wait for
//! `World::campaign`), and readers for what the world recorded. The world does the rest:
//! network, clocks, pauses, the store, the resource and the checker.
#![allow(dead_code, unreachable_pub, clippy::unwrap_used, clippy::expect_used)]

use std::cell::RefCell;
use std::rc::Rc;
use tenure::lease::LeaseConfig;
use tenure::{Duration, FencingToken, Instant, NodeId};
use tenure_sim::lease::LeaseWorld;
use tenure_sim::units::Ms;
use tenure_sim::{
    Algorithm, Fault, NodeEvent, Proc, Scenario, StepDownCause, TraceEvent, TraceKind, World,
};

pub const MS: u64 = 1_000;
pub const S: u64 = 1_000_000;

pub fn ms(v: u64) -> Duration {
    Duration::from_millis(v)
}

/// The core's default config for holder `holder`, seeded with it.
pub fn config(holder: u64) -> LeaseConfig {
    LeaseConfig {
        holder: NodeId(holder),
        seed: holder,
        ..LeaseConfig::default()
    }
}

/// Every trace event of a world, from the first.
#[derive(Clone, Default)]
pub struct Log(Rc<RefCell<Vec<TraceEvent>>>);

impl Log {
    pub fn events(&self) -> Vec<TraceEvent> {
        self.0.borrow().clone()
    }

    /// (true time, event) of each state change of node `id`.
    pub fn node(&self, id: u64) -> Vec<(u64, NodeEvent)> {
        self.0
            .borrow()
            .iter()
            .filter_map(|e| match e.kind {
                TraceKind::Node { proc, change } if proc == Proc::Node(NodeId(id)) => {
                    Some((e.time_us, change))
                }
                _ => None,
            })
            .collect()
    }

    /// The tokens node `id` was elected under, in order.
    pub fn elected_tokens(&self, id: u64) -> Vec<u64> {
        self.node(id)
            .into_iter()
            .filter_map(|(_, e)| match e {
                NodeEvent::BecameLeader { value } => Some(value),
                _ => None,
            })
            .collect()
    }

    /// (true time, cause) of each step-down of node `id`.
    pub fn stepped_down(&self, id: u64) -> Vec<(u64, StepDownCause)> {
        self.node(id)
            .into_iter()
            .filter_map(|(t, e)| match e {
                NodeEvent::SteppedDown { reason, .. } => Some((t, reason)),
                _ => None,
            })
            .collect()
    }

    /// Every election in the order it happened: (true time, node id, token).
    pub fn elections(&self) -> Vec<(u64, u64, FencingToken)> {
        self.0
            .borrow()
            .iter()
            .filter_map(|e| match e.kind {
                TraceKind::Node {
                    proc: Proc::Node(id),
                    change: NodeEvent::BecameLeader { value },
                } => Some((e.time_us, id.0, FencingToken(value))),
                _ => None,
            })
            .collect()
    }

    /// True-time intervals during which node `id` believed it led: [elected, stepped down).
    pub fn leader_intervals(&self, id: u64) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        let mut start = None;
        for (t, e) in self.node(id) {
            match e {
                NodeEvent::BecameLeader { .. } => start = Some(t),
                NodeEvent::SteppedDown { .. } => {
                    if let Some(s) = start.take() {
                        out.push((s, t));
                    }
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            out.push((s, u64::MAX));
        }
        out
    }
}

/// A lease world of `algorithm` whose scenario config is the core's defaults, with 1 ms
/// latency each way, the leader's periodic write once an hour (its first write after an
/// election still goes out), the store's first grant `first_token`, and one candidate per
/// config, each waiting for a campaign.
pub fn world_of(algorithm: Algorithm, first_token: u64, configs: Vec<LeaseConfig>) -> (World, Log) {
    let d = LeaseConfig::default();
    let mut s = Scenario::new(algorithm, configs.len() as u64, 1, 3_600_000);
    s.network.latency_ms = [Ms::from_millis(1), Ms::from_millis(1)];
    let c = &mut s.config;
    c.ttl_ms = Some(Ms(d.ttl));
    c.safety_margin_ms = Some(Ms(d.safety_margin));
    c.max_round_trip_ms = Some(Ms(d.max_round_trip));
    c.retry_interval_ms = Some(Ms(d.retry_interval));
    c.write_interval_ms = Some(Ms::from_millis(3_600_000));
    c.first_token = Some(first_token);
    let mut w = World::new(&s).unwrap();
    let log = Log::default();
    let sink = log.clone();
    w.set_trace_sink(Box::new(move |e| sink.0.borrow_mut().push(e.clone())));
    for (i, config) in configs.into_iter().enumerate() {
        w.replace_candidate(NodeId(i as u64 + 1), config)
            .expect("a lease world")
            .expect("a valid config");
    }
    (w, log)
}

/// [`world_of`] with fencing and the store's first grant 1.
pub fn world(configs: Vec<LeaseConfig>) -> (World, Log) {
    world_of(Algorithm::LeaseFencing, 1, configs)
}

pub fn campaign(w: &mut World, id: u64) {
    w.campaign(NodeId(id)).unwrap();
}

pub fn run_until(w: &mut World, t: u64) {
    w.run_until(Instant::from_micros(t));
}

pub fn inject(w: &mut World, fault: Fault) {
    w.inject(fault).unwrap();
}

/// Node `id`'s requests to the store take `to_store` ms and the answers `from_store` ms.
pub fn delays(w: &mut World, id: u64, to_store: Option<u64>, from_store: Option<u64>) {
    let node = vec![Proc::Node(NodeId(id))];
    let store = vec![Proc::Store];
    for (from, to, d) in [
        (node.clone(), store.clone(), to_store),
        (store, node, from_store),
    ] {
        if let Some(d) = d {
            let d = Ms::from_millis(d);
            inject(
                w,
                Fault::LinkLatency {
                    from,
                    to,
                    min_ms: d,
                    max_ms: d,
                },
            );
        }
    }
}

/// Cuts node `id` off from every other process (the store and the resource).
pub fn cut(w: &mut World, id: u64) {
    inject(
        w,
        Fault::Isolate {
            nodes: vec![Proc::Node(NodeId(id))],
        },
    );
}

pub fn pause(w: &mut World, id: u64, for_us: u64) {
    inject(
        w,
        Fault::Pause {
            target: Proc::Node(NodeId(id)),
            duration_ms: Ms(Duration::from_micros(for_us)),
        },
    );
}

pub fn state(w: &World, id: u64) -> Option<tenure::lease::CandidateState> {
    w.candidate(NodeId(id)).map(|c| c.state())
}
