//! The chaos runner: random fault schedules from Jepsen-style families, a heal period, and a
//! liveness check.
//!
//! Run `i` of a campaign with base seed `S` uses seed `S + i` for everything: the fault
//! schedule and the world. So a failing run replays with one command:
//! `tenure chaos --algorithm A --nodes N --duration D --runs 1 --seed S+i`.

use crate::checker::InvariantKind;
use crate::fault::Fault;
use crate::process::Proc;
use crate::scenario::{Algorithm, Scenario, ScenarioError};
use crate::units::{Ms, Probability};
use crate::world::World;
use core::fmt;
use core::str::FromStr;
use serde::Serialize;
use std::collections::BTreeMap;
use tenure::{Duration, Instant, NodeId, Rng};

mod campaign;

pub use campaign::{ChaosReport, Failure, RunOutcome, run, run_one};

/// A family of faults (after Jepsen's nemeses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// Crash a random node, restart it later.
    Kill,
    /// Pause a random process (a node, or in lease worlds the store or the resource).
    Pause,
    /// Isolate one random process.
    PartitionOne,
    /// Isolate a random minority of the nodes.
    PartitionMinority,
    /// Split the nodes into two random halves.
    PartitionMajority,
    /// Each node hears only its two ring neighbours (every node sees a majority of 5).
    PartitionRing,
    /// Two halves joined only through one bridge node.
    PartitionBridge,
    /// A random process's clock jumps forward.
    ClockBump,
    /// A random process's clock runs fast or slow for a while.
    ClockDrift,
    /// The lease store answers nothing for a while (lease worlds only).
    StoreOutage,
    /// Every link delivers a share of its messages twice (1% to 50%) for a while.
    Duplicate,
    /// Every link's latency widens to up to 100 ms, so messages overtake each other.
    Reorder,
}

impl Family {
    /// Every family.
    pub const ALL: [Family; 12] = [
        Family::Kill,
        Family::Pause,
        Family::PartitionOne,
        Family::PartitionMinority,
        Family::PartitionMajority,
        Family::PartitionRing,
        Family::PartitionBridge,
        Family::ClockBump,
        Family::ClockDrift,
        Family::StoreOutage,
        Family::Duplicate,
        Family::Reorder,
    ];

    /// The kebab-case name.
    pub fn name(self) -> &'static str {
        match self {
            Family::Kill => "kill",
            Family::Pause => "pause",
            Family::PartitionOne => "partition-one",
            Family::PartitionMinority => "partition-minority",
            Family::PartitionMajority => "partition-majority",
            Family::PartitionRing => "partition-ring",
            Family::PartitionBridge => "partition-bridge",
            Family::ClockBump => "clock-bump",
            Family::ClockDrift => "clock-drift",
            Family::StoreOutage => "store-outage",
            Family::Duplicate => "duplicate",
            Family::Reorder => "reorder",
        }
    }

    /// The families that make sense for `algorithm`.
    pub fn defaults(algorithm: Algorithm) -> Vec<Family> {
        Family::ALL
            .into_iter()
            .filter(|f| algorithm.has_store() || *f != Family::StoreOutage)
            .collect()
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Family {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Family::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
                format!(
                    "`{s}` is not a fault family; the families are {}",
                    names.join(", ")
                )
            })
    }
}

/// What a campaign runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChaosOptions {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Cluster size.
    pub nodes: u64,
    /// Faulty period per run, ms of true time.
    pub duration_ms: u64,
    /// Quiet period after the last fault heals, ms; liveness must hold within it.
    pub heal_ms: u64,
    /// Seed of run 0; run `i` uses `seed + i`.
    pub seed: u64,
    /// Number of runs.
    pub runs: u64,
    /// Families to draw from.
    pub families: Vec<Family>,
    /// Raft: PreVote (None = the core default).
    pub pre_vote: Option<bool>,
    /// Raft: CheckQuorum (None = the core default).
    pub check_quorum: Option<bool>,
    /// Raft: the leader proposes this often, ms (None = the simulator's 200 ms). Chaos at
    /// 5 ms is what exposes replication storms.
    pub propose_interval_ms: Option<u64>,
    /// Algorithm parameters laid over every run's scenario (`tenure chaos --set ttl_ms=2000`);
    /// the fields above win where both are set.
    pub config: crate::scenario::AlgoConfig,
}

impl ChaosOptions {
    /// Defaults: 5 nodes, 120 s of faults, 10 s heal, seed 0, 100 runs, every family.
    pub fn new(algorithm: Algorithm) -> Self {
        ChaosOptions {
            algorithm,
            nodes: 5,
            duration_ms: 120_000,
            heal_ms: 10_000,
            seed: 0,
            runs: 100,
            families: Family::defaults(algorithm),
            pre_vote: None,
            check_quorum: None,
            propose_interval_ms: None,
            config: crate::scenario::AlgoConfig::default(),
        }
    }

    /// Refuses options that mean nothing for the algorithm, in the CLI's words: PreVote or
    /// CheckQuorum outside Raft, the store-outage family outside lease worlds. The CLI's
    /// `chaos` and `search` ask this one check; the JS `Search` asks
    /// [`ChaosOptions::validate_named`] with its own option names.
    pub fn validate(&self) -> Result<(), String> {
        self.validate_named("--pre-vote/--check-quorum")
    }

    /// [`ChaosOptions::validate`], naming the PreVote and CheckQuorum options as the caller
    /// wrote them (`pre_vote/check_quorum` for a JS `Search`).
    pub fn validate_named(&self, raft_options: &str) -> Result<(), String> {
        if (self.pre_vote.is_some() || self.check_quorum.is_some())
            && self.algorithm != Algorithm::Raft
        {
            return Err(format!(
                "{raft_options} apply to raft, not {}",
                self.algorithm
            ));
        }
        if self.families.contains(&Family::StoreOutage) && !self.algorithm.has_store() {
            return Err(format!(
                "fault family store-outage applies to lease worlds, not {}",
                self.algorithm
            ));
        }
        Ok(())
    }

    /// The one command that replays run seed `seed`.
    pub fn replay_command(&self, seed: u64) -> String {
        let mut cmd = format!(
            "tenure chaos --algorithm {} --nodes {} --duration {}ms --heal {}ms --runs 1 --seed {seed}",
            self.algorithm, self.nodes, self.duration_ms, self.heal_ms
        );
        if self.families != Family::defaults(self.algorithm) {
            let names: Vec<&str> = self.families.iter().map(|f| f.name()).collect();
            cmd.push_str(&format!(" --families {}", names.join(",")));
        }
        if let Some(v) = self.pre_vote {
            cmd.push_str(if v { " --pre-vote" } else { " --no-pre-vote" });
        }
        if let Some(v) = self.check_quorum {
            cmd.push_str(if v {
                " --check-quorum"
            } else {
                " --no-check-quorum"
            });
        }
        if let Some(ms) = self.propose_interval_ms {
            cmd.push_str(&format!(" --propose-every {ms}ms"));
        }
        if let Ok(serde_json::Value::Object(map)) = serde_json::to_value(&self.config) {
            for (key, value) in map {
                cmd.push_str(&format!(" --set {key}={value}"));
            }
        }
        cmd
    }
}

fn ms(rng: &mut Rng, lo: u64, hi: u64) -> u64 {
    rng.uniform_duration(Duration::from_millis(lo), Duration::from_millis(hi))
        .as_millis()
}

fn pick<T: Copy>(rng: &mut Rng, items: &[T]) -> Option<T> {
    let i = usize::try_from(rng.below(items.len() as u64)).ok()?;
    items.get(i).copied()
}

fn shuffled(rng: &mut Rng, mut v: Vec<Proc>) -> Vec<Proc> {
    for i in (1..v.len()).rev() {
        let j = usize::try_from(rng.below((i as u64).saturating_add(1))).unwrap_or(0);
        v.swap(i, j);
    }
    v
}

fn cut(a: &[Proc], b: &[Proc]) -> Vec<Fault> {
    vec![
        Fault::PartitionOneWay {
            from: a.to_vec(),
            to: b.to_vec(),
        },
        Fault::PartitionOneWay {
            from: b.to_vec(),
            to: a.to_vec(),
        },
    ]
}

/// The scenario of one chaos run: faults drawn with `seed`, then everything healed and
/// restarted at `duration_ms`, running on for `heal_ms`.
pub fn scenario(opts: &ChaosOptions, seed: u64) -> Scenario {
    let total = opts.duration_ms.saturating_add(opts.heal_ms);
    let mut s = Scenario::new(opts.algorithm, opts.nodes, seed, total);
    s.config = opts.config.clone();
    let reads = |key: &str| opts.algorithm.spec().config_keys.contains(&key);
    s.config.pre_vote = opts
        .pre_vote
        .filter(|_| reads("pre_vote"))
        .or(s.config.pre_vote);
    s.config.check_quorum = opts
        .check_quorum
        .filter(|_| reads("check_quorum"))
        .or(s.config.check_quorum);
    s.config.propose_interval_ms = opts
        .propose_interval_ms
        .filter(|_| reads("propose_interval_ms"))
        .map(Ms::from_millis)
        .or(s.config.propose_interval_ms);
    let mut rng = Rng::from_seed(seed ^ 0xC4A0_5C4A_05C4_A05C);
    let nodes: Vec<Proc> = (1..=opts.nodes).map(|i| Proc::Node(NodeId(i))).collect();
    let mut all = nodes.clone();
    all.extend_from_slice(opts.algorithm.spec().extra_procs);
    let families: Vec<Family> = opts
        .families
        .iter()
        .copied()
        .filter(|f| opts.algorithm.has_store() || *f != Family::StoreOutage)
        .collect();
    let n = nodes.len();
    let mut t = ms(&mut rng, 500, 2_000);
    while !families.is_empty() {
        let d = ms(&mut rng, 300, 6_000);
        let end = t.saturating_add(d);
        if end >= opts.duration_ms {
            break;
        }
        let Some(family) = pick(&mut rng, &families) else {
            break;
        };
        let mut at_start: Vec<Fault> = Vec::new();
        let mut at_end: Vec<Fault> = vec![Fault::Heal {}];
        match family {
            Family::Kill => {
                if let Some(Proc::Node(node)) = pick(&mut rng, &nodes) {
                    at_start.push(Fault::Crash { node });
                    at_end = vec![Fault::Restart { node }];
                }
            }
            Family::Pause => {
                if let Some(target) = pick(&mut rng, &all) {
                    at_start.push(Fault::Pause {
                        target,
                        duration_ms: Ms::from_millis(d),
                    });
                    at_end.clear();
                }
            }
            Family::PartitionOne => {
                let candidates = if opts.algorithm.has_store() {
                    all.clone()
                } else {
                    nodes.clone()
                };
                if let Some(p) = pick(&mut rng, &candidates) {
                    at_start.push(Fault::Isolate { nodes: vec![p] });
                }
            }
            Family::PartitionMinority => {
                let order = shuffled(&mut rng, nodes.clone());
                let k = n.saturating_sub(1) / 2;
                at_start.push(Fault::Isolate {
                    nodes: order.into_iter().take(k.max(1)).collect(),
                });
            }
            Family::PartitionMajority => {
                let mut order = shuffled(&mut rng, all.clone());
                let half = order.len() / 2;
                let other = order.split_off(half);
                // A world of one process has no two sides: the draw is made (the rest of
                // the schedule stays as it was) and no partition is injected.
                if !order.is_empty() {
                    at_start.push(Fault::Partition {
                        groups: vec![order, other],
                    });
                }
            }
            Family::PartitionRing => {
                let order = shuffled(&mut rng, nodes.clone());
                for (i, a) in order.iter().enumerate() {
                    for (j, b) in order.iter().enumerate() {
                        let dist = i.abs_diff(j).min(n.saturating_sub(i.abs_diff(j)));
                        if dist > 1 {
                            at_start.push(Fault::PartitionOneWay {
                                from: vec![*a],
                                to: vec![*b],
                            });
                        }
                    }
                }
            }
            Family::PartitionBridge => {
                let mut order = shuffled(&mut rng, nodes.clone());
                if let Some(_bridge) = order.pop() {
                    let half = order.len() / 2;
                    let other = order.split_off(half);
                    // Fewer than three nodes leave a side empty: nothing to cut (the draw
                    // is made, so the rest of the schedule is unchanged).
                    if !order.is_empty() {
                        at_start.extend(cut(&order, &other));
                    }
                }
            }
            Family::ClockBump => {
                if let Some(target) = pick(&mut rng, &all) {
                    at_start.push(Fault::ClockJump {
                        target,
                        by_ms: Ms::from_millis(ms(&mut rng, 100, 5_000)),
                    });
                    at_end.clear();
                }
            }
            Family::ClockDrift => {
                if let Some(target) = pick(&mut rng, &all) {
                    let magnitude = i32::try_from(rng.below(50_000)).unwrap_or(0);
                    let ppm = if rng.below(2) == 0 {
                        magnitude
                    } else {
                        -magnitude
                    };
                    at_start.push(Fault::ClockDrift { target, ppm });
                    at_end = vec![Fault::ClockDrift { target, ppm: 0 }];
                }
            }
            Family::StoreOutage => {
                at_start.push(Fault::StoreOutage {
                    duration_ms: Ms::from_millis(d),
                });
                at_end.clear();
            }
            Family::Duplicate => {
                let percent = ms(&mut rng, 1, 51);
                #[allow(clippy::cast_precision_loss)]
                let p = Probability::new(percent as f64 / 100.0).unwrap_or_default();
                at_start.push(Fault::LinkDuplicate {
                    from: all.clone(),
                    to: all.clone(),
                    probability: p,
                });
            }
            Family::Reorder => {
                at_start.push(Fault::LinkLatency {
                    from: all.clone(),
                    to: all.clone(),
                    min_ms: Ms::from_millis(1),
                    max_ms: Ms::from_millis(ms(&mut rng, 20, 101)),
                });
            }
        }
        for f in at_start {
            s = s.with_fault(t, f);
        }
        for f in at_end {
            s = s.with_fault(end, f);
        }
        t = end.saturating_add(ms(&mut rng, 200, 3_000));
    }
    // The heal: every link restored, every node up, every clock back to true speed.
    s = s.with_fault(opts.duration_ms, Fault::Heal {});
    for p in &all {
        if let Proc::Node(node) = p {
            s = s.with_fault(opts.duration_ms, Fault::Restart { node: *node });
        }
        s = s.with_fault(opts.duration_ms, Fault::ClockDrift { target: *p, ppm: 0 });
    }
    s
}

/// How long after the heal a leader must exist, ms (the algorithm's registration says).
pub fn liveness_bound_ms(s: &Scenario) -> u64 {
    (s.algorithm.spec().liveness_bound_ms)(s)
}
