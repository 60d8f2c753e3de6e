//! The bounded exhaustive check: breadth-first over fault schedules in discrete time steps,
//! returning the *shortest* counterexample (fewest steps, then fewest faults).
//!
//! A state is a world at step `k` (true time `k * step_ms`) plus the faults used so far.
//! From each state the successors are: wait one step, or inject one of the candidate faults
//! ([`default_actions`]) and then wait one step; at most `max_faults` faults per path. The
//! property is watched in [`CHUNK_MS`] slices during each step.
//!
//! States are deduplicated within a level by a fingerprint of what the world shows (each
//! process's role, term, token, leader, status, clock, lease deadline and next timer; the
//! messages in flight; the cut links; the store and the resource) plus the faults used.
//! Two worlds with the same fingerprint can still differ in what the snapshot leaves out (the
//! seeded network generator's position, a pause-after-check waiting for its check), so the
//! check is exhaustive over the fingerprints, for the scenario's one seed; every
//! counterexample it returns is an ordinary scenario, replayed from scratch before it is
//! reported. Native builds only (it is not in the wasm bindings).

use super::property::{CHUNK_MS, Monitor, Property, Witness, evaluate};
use crate::fault::{Fault, TimedFault};
use crate::process::Proc;
use crate::scenario::{Scenario, ScenarioError};
use crate::snapshot::Status;
use crate::units::Ms;
use crate::world::World;
use serde::Serialize;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use tenure::{Instant, NodeId};

/// What a check explores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckOptions {
    /// Algorithm, nodes, config, network and seed; `duration_ms` and `faults` are ignored.
    pub scenario: Scenario,
    /// What to look for.
    pub property: Property,
    /// Length of one step, ms (a multiple of the monitor's 10 ms slice).
    pub step_ms: u64,
    /// Steps to explore (the time horizon is `steps * step_ms`).
    pub steps: u32,
    /// Most faults on one path.
    pub max_faults: u32,
    /// The candidate faults.
    pub actions: Vec<Fault>,
    /// Stop after this many states (the result says it was cut short).
    pub max_states: u64,
    /// Stop when the memory the check holds reaches this many bytes (the result says it was
    /// cut short): the process's resident set where the system reports it (Linux), else an
    /// estimate of the states kept. A state holds a whole world, whose size grows with the
    /// nodes and the messages in flight, so `max_states` alone does not bound the bytes.
    pub max_memory_bytes: u64,
}

/// The default memory bound, 2 GiB.
pub const DEFAULT_MAX_MEMORY_BYTES: u64 = 2 << 30;

/// What cut a check short.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CutShortBy {
    /// [`CheckOptions::max_states`] states were explored.
    MaxStates,
    /// The memory held reached [`CheckOptions::max_memory_bytes`].
    MaxMemory,
}

impl CheckOptions {
    /// 500 ms steps, 8 steps (4 s), 2 faults, [`default_actions`], at most 200,000 states
    /// and [`DEFAULT_MAX_MEMORY_BYTES`].
    pub fn new(scenario: Scenario, property: Property) -> CheckOptions {
        let actions = default_actions(&scenario);
        CheckOptions {
            scenario,
            property,
            step_ms: 500,
            steps: 8,
            max_faults: 2,
            actions,
            max_states: 200_000,
            max_memory_bytes: DEFAULT_MAX_MEMORY_BYTES,
        }
    }
}

/// The candidate faults for `s`: crash and restart each node, isolate each process, heal;
/// in lease worlds also a pause right after a leadership check, as long as the lease's time
/// to live plus a second (S01); in Raft and Bully worlds a pause of a node for two election
/// timeouts.
pub fn default_actions(s: &Scenario) -> Vec<Fault> {
    let mut v = Vec::new();
    let nodes: Vec<NodeId> = (1..=s.nodes).map(NodeId).collect();
    for &node in &nodes {
        v.push(Fault::Crash { node });
        v.push(Fault::Restart { node });
        v.push(Fault::Isolate {
            nodes: vec![Proc::Node(node)],
        });
    }
    if s.algorithm.has_store() {
        v.push(Fault::Isolate {
            nodes: vec![Proc::Store],
        });
        let ttl = s
            .config
            .ttl_ms
            .map_or(crate::algo::DEFAULT_TTL_MS, |m| m.duration().as_millis());
        for &node in &nodes {
            v.push(Fault::PauseAfterCheck {
                node,
                duration_ms: Ms::from_millis(ttl.saturating_add(1_000)),
            });
        }
    } else {
        for &node in &nodes {
            v.push(Fault::Pause {
                target: Proc::Node(node),
                duration_ms: Ms::from_millis(1_000),
            });
        }
    }
    v.push(Fault::Heal {});
    v
}

/// A counterexample: the shortest path to a violation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Counterexample {
    /// Steps taken (the violation happened during the last one).
    pub depth: u32,
    /// The scenario that replays it.
    pub scenario: Scenario,
    /// The violation.
    pub witness: Witness,
}

/// What a check did and found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// Successor states computed (each one step of simulation).
    pub states_explored: u64,
    /// Distinct fingerprints kept: successor states no other successor of the same depth
    /// matched. The initial state is neither explored nor counted here, so this is at most
    /// `states_explored` (it counted the initial state and read "explored 2, unique 3").
    pub unique_states: u64,
    /// Deepest level finished.
    pub depth_reached: u32,
    /// Whether `max_states` or `max_memory_bytes` cut the check short (then "nothing found"
    /// proves less).
    pub truncated: bool,
    /// Which bound cut it short, if one did.
    pub cut_short_by: Option<CutShortBy>,
    /// The shortest counterexample, if any.
    pub counterexample: Option<Counterexample>,
}

#[derive(Clone)]
struct Node {
    world: World,
    monitor: Monitor,
    faults: Vec<TimedFault>,
}

/// The fingerprint of `n`, and the length of the text it was taken from (the fallback
/// memory estimate's measure of a state).
fn fingerprint(n: &Node) -> (u64, usize) {
    let snap = n.world.snapshot();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let parts = (
        &snap.nodes,
        &snap.in_flight,
        &snap.blocked,
        &snap.store,
        snap.resource.as_ref().map(|r| (r.highest_token, r.fenced)),
    );
    let text = serde_json::to_string(&parts).unwrap_or_default();
    text.hash(&mut h);
    n.faults.len().hash(&mut h);
    (h.finish(), text.len())
}

/// States explored between two readings of the memory held.
const MEMORY_EVERY: u64 = 16;

/// Bytes of a kept state per byte of its fingerprint's text, for the estimate used where the
/// resident set cannot be read (the resident set measured on Linux at a level's end, over
/// that level's text: 10 to 11 for Raft, Bully and `lease-fencing` at 3 to 16 nodes; 16
/// leaves a margin).
const ESTIMATE_PER_TEXT_BYTE: u64 = 16;

/// The process's resident set in bytes, where the system reports it (`/proc/self/status`).
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line
        .trim_start_matches("VmRSS:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb.saturating_mul(1_024))
}

fn applicable(world: &World, fault: &Fault) -> bool {
    let status = |node: NodeId| {
        world
            .snapshot()
            .nodes
            .iter()
            .find(|v| v.id == Proc::Node(node))
            .map(|v| v.status)
    };
    match fault {
        Fault::Crash { node } => status(*node) == Some(Status::Up),
        Fault::Restart { node } => status(*node) == Some(Status::Crashed),
        _ => true,
    }
}

/// Runs the check.
///
/// Errors: the base scenario is invalid, `step_ms` is not a positive multiple of 10, or a
/// candidate fault does not apply to the scenario's world.
pub fn check(opts: &CheckOptions) -> Result<CheckReport, ScenarioError> {
    check_with(opts, &mut |_| {})
}

/// [`check`], calling `progress` with the report so far after every state explored (the
/// CLI's progress bar; the result does not depend on it).
pub fn check_with(
    opts: &CheckOptions,
    progress: &mut dyn FnMut(&CheckReport),
) -> Result<CheckReport, ScenarioError> {
    if opts.step_ms == 0 || !opts.step_ms.is_multiple_of(CHUNK_MS) {
        return Err(ScenarioError::Invalid(format!(
            "check step {} ms is not a positive multiple of {CHUNK_MS} ms",
            opts.step_ms
        )));
    }
    opts.property.check_applies(opts.scenario.algorithm)?;
    let horizon = opts.step_ms.saturating_mul(u64::from(opts.steps));
    let mut base = opts.scenario.clone();
    base.faults.clear();
    base.duration_ms = Ms::from_millis(horizon.max(1));
    let mut world = World::new(&base)?;
    // Every state holds a world; the monitor and the fingerprint read snapshots, metrics and
    // violations, never the event log, so no state keeps events (4,096 per world otherwise).
    world.keep_recent_events(0);
    for f in &opts.actions {
        let mut probe = base.clone();
        probe.faults = vec![TimedFault {
            at_ms: Ms::from_millis(0),
            fault: f.clone(),
        }];
        probe.validate()?;
    }
    let mut report = CheckReport {
        states_explored: 0,
        unique_states: 0,
        depth_reached: 0,
        truncated: false,
        cut_short_by: None,
        counterexample: None,
    };
    let measured = resident_bytes().is_some();
    // The estimate, where the resident set cannot be read: the states kept, in both levels.
    let mut estimate: u64 = 0;
    let mut level = vec![Node {
        world,
        monitor: Monitor::new(opts.property),
        faults: Vec::new(),
    }];
    for depth in 1..=opts.steps {
        let until = opts.step_ms.saturating_mul(u64::from(depth));
        let mut seen: HashSet<u64> = HashSet::new();
        let mut next = Vec::new();
        let mut found: Vec<(Vec<TimedFault>, Witness)> = Vec::new();
        let level_estimate = estimate;
        for node in &level {
            let mut choices: Vec<Option<&Fault>> = vec![None];
            if node.faults.len() < opts.max_faults as usize {
                choices.extend(opts.actions.iter().map(Some));
            }
            for choice in choices {
                if report.states_explored >= opts.max_states {
                    report.truncated = true;
                    report.cut_short_by = Some(CutShortBy::MaxStates);
                    break;
                }
                if report.states_explored.is_multiple_of(MEMORY_EVERY) {
                    let held = if measured {
                        resident_bytes().unwrap_or(0)
                    } else {
                        estimate
                    };
                    if held >= opts.max_memory_bytes {
                        report.truncated = true;
                        report.cut_short_by = Some(CutShortBy::MaxMemory);
                        break;
                    }
                }
                let mut n = node.clone();
                if let Some(f) = choice {
                    if !applicable(&n.world, f) || n.world.inject(f.clone()).is_err() {
                        continue;
                    }
                    n.faults.push(TimedFault {
                        at_ms: Ms::from_millis(n.world.now().as_micros() / 1_000),
                        fault: f.clone(),
                    });
                }
                report.states_explored += 1;
                progress(&report);
                let mut witness = None;
                let mut t = n.world.now().as_micros() / 1_000;
                while t < until && witness.is_none() {
                    t = t.saturating_add(CHUNK_MS).min(until);
                    n.world.run_until(Instant::from_millis(t));
                    witness = n.monitor.observe(&n.world);
                }
                if let Some(why) = n.world.storm() {
                    return Err(ScenarioError::Storm(why.to_string()));
                }
                if let Some(w) = witness {
                    found.push((n.faults.clone(), w));
                } else {
                    let (print, text_len) = fingerprint(&n);
                    if seen.insert(print) {
                        estimate = estimate.saturating_add(
                            (text_len as u64).saturating_mul(ESTIMATE_PER_TEXT_BYTE),
                        );
                        next.push(n);
                    }
                }
            }
            if report.truncated {
                break;
            }
        }
        report.unique_states = report.unique_states.saturating_add(seen.len() as u64);
        // The level just explored is dropped for the next one.
        estimate = estimate.saturating_sub(level_estimate);
        report.depth_reached = depth;
        found.sort_by_key(|(faults, w)| (faults.len(), w.time_us));
        for (faults, _) in found {
            let mut s = base.clone();
            s.faults = faults;
            let witness_end = |w: &Witness| w.time_us.div_ceil(1_000).saturating_add(1);
            let first = evaluate(&s, opts.property, false)?;
            if let Some(w) = first.witness {
                s.duration_ms = Ms::from_millis(witness_end(&w).min(horizon.max(1)));
                report.counterexample = Some(Counterexample {
                    depth,
                    scenario: s,
                    witness: w,
                });
                return Ok(report);
            }
        }
        if report.truncated || next.is_empty() {
            break;
        }
        level = next;
    }
    Ok(report)
}
