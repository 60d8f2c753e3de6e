//! Shrinking a failing scenario while it still violates the same property.
//!
//! 1. Cut the run just after the violation.
//! 2. Delta debugging over the fault list (Zeller and Hildebrandt, "Simplifying and Isolating
//!    Failure-Inducing Input", IEEE TSE 2002: ddmin), keeping a 1-minimal list.
//! 3. Numeric shrinking, each by binary search for the smallest value that still fails:
//!    shift the whole schedule earlier, then each fault earlier, shorter pauses and outages,
//!    smaller clock jumps and drifts, narrower latency ranges.
//! 4. Fewer processes in each fault, then fewer nodes.
//!
//! Passes repeat until nothing changes or the step budget is spent. Every candidate is run
//! from scratch, so the result is an ordinary scenario that replays exactly. "Same property"
//! means the same witness kind: an `any-promised` search stays on the invariant it found.

use super::property::{Property, Witness, evaluate};
use crate::fault::{Fault, TimedFault};
use crate::process::Proc;
use crate::scenario::{Scenario, ScenarioError};
use crate::units::Ms;
use serde::Serialize;
use tenure::NodeId;

/// How big a scenario is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Size {
    /// Scheduled faults.
    pub faults: usize,
    /// Election nodes.
    pub nodes: u64,
    /// Length of the run, ms.
    pub duration_ms: u64,
    /// Bytes of its pretty JSON.
    pub json_bytes: usize,
}

impl Size {
    /// The size of `s`.
    pub fn of(s: &Scenario) -> Size {
        Size {
            faults: s.faults.len(),
            nodes: s.nodes,
            duration_ms: s.duration_ms.duration().as_millis(),
            json_bytes: s.to_json().len(),
        }
    }
}

/// The result of shrinking.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShrinkReport {
    /// The shrunk scenario.
    pub scenario: Scenario,
    /// Its violation.
    pub witness: Witness,
    /// The size before.
    pub original: Size,
    /// The size after.
    pub shrunk: Size,
    /// Candidate runs tried.
    pub steps: u64,
    /// Candidates that still failed and were kept.
    pub accepted: u64,
    /// Of [`SEED_PROBES`] other seeds, how many still violate the property with the shrunk
    /// faults: all of them means the counterexample does not depend on the seed's draws.
    pub other_seeds_failing: u32,
}

/// Other seeds tried on the shrunk scenario.
pub const SEED_PROBES: u32 = 8;

struct Shrinker {
    property: Property,
    kind: String,
    steps: u64,
    accepted: u64,
    max_steps: u64,
    best: Scenario,
    witness: Witness,
}

impl Shrinker {
    /// Whether `s` still fails the same way; if so it becomes the best.
    fn try_keep(&mut self, s: Scenario) -> bool {
        if self.steps >= self.max_steps || s.validate().is_err() {
            return false;
        }
        self.steps = self.steps.saturating_add(1);
        match evaluate(&s, self.property, false) {
            Ok(out) => match out.witness {
                Some(w) if w.kind == self.kind => {
                    self.best = s;
                    self.witness = w;
                    self.accepted = self.accepted.saturating_add(1);
                    true
                }
                _ => false,
            },
            Err(_) => false,
        }
    }

    /// Ends the run 1 ms after the witness (and drops faults scheduled after that).
    fn cut(&mut self) -> bool {
        let end_ms = self.witness.time_us.div_ceil(1_000).saturating_add(1);
        if end_ms >= self.best.duration_ms.duration().as_millis() {
            return false;
        }
        let mut s = self.best.clone();
        s.duration_ms = Ms::from_millis(end_ms);
        s.faults
            .retain(|f| f.at_ms.duration().as_millis() <= end_ms);
        self.try_keep(s)
    }

    fn with_faults(&self, faults: Vec<TimedFault>) -> Scenario {
        let mut s = self.best.clone();
        s.faults = faults;
        s
    }

    /// ddmin over the fault list.
    fn ddmin(&mut self) -> bool {
        let mut changed = false;
        let mut n = 2usize;
        loop {
            let faults = self.best.faults.clone();
            let len = faults.len();
            if len == 0 || self.steps >= self.max_steps {
                break;
            }
            if len == 1 {
                // Can the run fail with no fault at all?
                changed |= self.try_keep(self.with_faults(Vec::new()));
                break;
            }
            let n_now = n.min(len);
            let chunk = len.div_ceil(n_now);
            let parts: Vec<Vec<TimedFault>> = faults.chunks(chunk).map(<[_]>::to_vec).collect();
            let mut reduced = false;
            for part in &parts {
                if self.try_keep(self.with_faults(part.clone())) {
                    n = 2;
                    reduced = true;
                    break;
                }
            }
            if !reduced && parts.len() > 2 {
                for i in 0..parts.len() {
                    let rest: Vec<TimedFault> = parts
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| *j != i)
                        .flat_map(|(_, p)| p.iter().cloned())
                        .collect();
                    if self.try_keep(self.with_faults(rest)) {
                        n = n.saturating_sub(1).max(2);
                        reduced = true;
                        break;
                    }
                }
            }
            if reduced {
                changed = true;
                continue;
            }
            if n_now >= len {
                break;
            }
            n = n.saturating_mul(2).min(len);
        }
        changed
    }

    /// Binary search for the smallest `v` in `[lo, cur]` for which `make(v)` still fails.
    fn smallest(&mut self, lo: u64, cur: u64, make: impl Fn(&Scenario, u64) -> Scenario) -> bool {
        let (mut lo, mut hi) = (lo, cur);
        let mut changed = false;
        while lo < hi && self.steps < self.max_steps {
            let mid = lo + (hi - lo) / 2;
            let base = self.best.clone();
            if self.try_keep(make(&base, mid)) {
                hi = mid;
                changed = true;
            } else {
                lo = mid.saturating_add(1);
            }
        }
        changed
    }

    /// Shifts the whole schedule earlier, then each fault as early as the one before it.
    fn earlier(&mut self) -> bool {
        let Some(first) = self.best.faults.first().map(|f| ms_of(f.at_ms)) else {
            return false;
        };
        let mut changed = self.smallest(0, first, |s, v| {
            let shift = first.saturating_sub(v);
            let mut s = s.clone();
            for f in &mut s.faults {
                f.at_ms = Ms::from_millis(ms_of(f.at_ms).saturating_sub(shift));
            }
            s
        });
        for i in 1..self.best.faults.len() {
            let (Some(prev), Some(cur)) = (self.best.faults.get(i - 1), self.best.faults.get(i))
            else {
                break;
            };
            let (prev, cur) = (ms_of(prev.at_ms), ms_of(cur.at_ms));
            changed |= self.smallest(prev, cur, |s, v| {
                let mut s = s.clone();
                if let Some(f) = s.faults.get_mut(i) {
                    f.at_ms = Ms::from_millis(v);
                }
                s
            });
        }
        changed
    }

    /// Shrinks each fault's magnitudes.
    fn magnitudes(&mut self) -> bool {
        let mut changed = false;
        for i in 0..self.best.faults.len() {
            let Some(f) = self.best.faults.get(i).map(|f| f.fault.clone()) else {
                break;
            };
            let set = move |s: &Scenario, fault: Fault| {
                let mut s = s.clone();
                if let Some(tf) = s.faults.get_mut(i) {
                    tf.fault = fault;
                }
                s
            };
            changed |= match f {
                Fault::Pause {
                    target,
                    duration_ms,
                } => self.smallest(1, ms_of(duration_ms), move |s, v| {
                    set(
                        s,
                        Fault::Pause {
                            target,
                            duration_ms: Ms::from_millis(v),
                        },
                    )
                }),
                Fault::PauseAfterCheck { node, duration_ms } => {
                    self.smallest(1, ms_of(duration_ms), move |s, v| {
                        set(
                            s,
                            Fault::PauseAfterCheck {
                                node,
                                duration_ms: Ms::from_millis(v),
                            },
                        )
                    })
                }
                Fault::StoreOutage { duration_ms } => {
                    self.smallest(1, ms_of(duration_ms), move |s, v| {
                        set(
                            s,
                            Fault::StoreOutage {
                                duration_ms: Ms::from_millis(v),
                            },
                        )
                    })
                }
                Fault::ClockJump { target, by_ms } => {
                    self.smallest(1, ms_of(by_ms), move |s, v| {
                        set(
                            s,
                            Fault::ClockJump {
                                target,
                                by_ms: Ms::from_millis(v),
                            },
                        )
                    })
                }
                Fault::ClockDrift { target, ppm } if ppm != 0 => {
                    let sign = ppm.signum();
                    self.smallest(1, u64::from(ppm.unsigned_abs()), move |s, v| {
                        let v = i32::try_from(v).unwrap_or(i32::MAX);
                        set(
                            s,
                            Fault::ClockDrift {
                                target,
                                ppm: v.saturating_mul(sign),
                            },
                        )
                    })
                }
                Fault::LinkLatency {
                    from,
                    to,
                    min_ms,
                    max_ms,
                } => {
                    let lo = ms_of(min_ms);
                    self.smallest(lo, ms_of(max_ms), move |s, v| {
                        set(
                            s,
                            Fault::LinkLatency {
                                from: from.clone(),
                                to: to.clone(),
                                min_ms,
                                max_ms: Ms::from_millis(v),
                            },
                        )
                    })
                }
                _ => false,
            };
        }
        changed
    }

    /// Drops processes from each fault's process lists, one at a time.
    fn fewer_procs(&mut self) -> bool {
        let mut changed = false;
        for i in 0..self.best.faults.len() {
            let Some(procs) = self.best.faults.get(i).map(|f| f.fault.procs()) else {
                break;
            };
            for p in procs {
                let mut s = self.best.clone();
                let Some(tf) = s.faults.get_mut(i) else {
                    break;
                };
                match without(&tf.fault, p) {
                    Some(f) if f != tf.fault => tf.fault = f,
                    _ => continue,
                }
                changed |= self.try_keep(s);
            }
        }
        changed
    }

    /// Removes the highest node while the run still fails.
    fn fewer_nodes(&mut self) -> bool {
        let mut changed = false;
        while self.best.nodes > 1 && self.steps < self.max_steps {
            let gone = Proc::Node(NodeId(self.best.nodes));
            let mut s = self.best.clone();
            s.nodes = s.nodes.saturating_sub(1);
            s.faults = s
                .faults
                .iter()
                .filter_map(|tf| {
                    let names = tf.fault.procs();
                    let fault = if names.contains(&gone) {
                        without(&tf.fault, gone)?
                    } else {
                        tf.fault.clone()
                    };
                    Some(TimedFault {
                        at_ms: tf.at_ms,
                        fault,
                    })
                })
                .collect();
            if !self.try_keep(s) {
                break;
            }
            changed = true;
        }
        changed
    }
}

fn ms_of(m: Ms) -> u64 {
    m.duration().as_millis()
}

/// `fault` without process `p`, or `None` when nothing meaningful is left.
fn without(fault: &Fault, p: Proc) -> Option<Fault> {
    let drop = |v: &[Proc]| -> Vec<Proc> { v.iter().copied().filter(|q| *q != p).collect() };
    let f = match fault {
        Fault::Partition { groups } => {
            let groups: Vec<Vec<Proc>> = groups
                .iter()
                .map(|g| drop(g))
                .filter(|g| !g.is_empty())
                .collect();
            (groups.len() >= 2).then_some(Fault::Partition { groups })?
        }
        Fault::PartitionOneWay { from, to } => {
            let (from, to) = (drop(from), drop(to));
            (!from.is_empty() && !to.is_empty()).then_some(Fault::PartitionOneWay { from, to })?
        }
        Fault::Isolate { nodes } => {
            let nodes = drop(nodes);
            (!nodes.is_empty()).then_some(Fault::Isolate { nodes })?
        }
        Fault::LinkLoss {
            from,
            to,
            probability,
        } => {
            let (from, to) = (drop(from), drop(to));
            (!from.is_empty() && !to.is_empty()).then_some(Fault::LinkLoss {
                from,
                to,
                probability: *probability,
            })?
        }
        Fault::LinkDuplicate {
            from,
            to,
            probability,
        } => {
            let (from, to) = (drop(from), drop(to));
            (!from.is_empty() && !to.is_empty()).then_some(Fault::LinkDuplicate {
                from,
                to,
                probability: *probability,
            })?
        }
        Fault::LinkLatency {
            from,
            to,
            min_ms,
            max_ms,
        } => {
            let (from, to) = (drop(from), drop(to));
            (!from.is_empty() && !to.is_empty()).then_some(Fault::LinkLatency {
                from,
                to,
                min_ms: *min_ms,
                max_ms: *max_ms,
            })?
        }
        other if other.procs().contains(&p) => return None,
        other => other.clone(),
    };
    Some(f)
}

/// Shrinks `scenario`, which must violate `property`, spending at most `max_steps` runs.
///
/// Errors: the scenario is invalid ([`ScenarioError`]), or it does not violate the
/// property (`ScenarioError::Invalid` saying so).
pub fn shrink(
    scenario: &Scenario,
    property: Property,
    max_steps: u64,
) -> Result<ShrinkReport, ScenarioError> {
    let first = evaluate(scenario, property, false)?;
    let Some(witness) = first.witness else {
        return Err(ScenarioError::Invalid(format!(
            "the scenario does not violate {property}, so there is nothing to shrink"
        )));
    };
    let mut sh = Shrinker {
        property,
        kind: witness.kind.clone(),
        steps: 1,
        accepted: 0,
        max_steps,
        best: scenario.clone(),
        witness,
    };
    sh.cut();
    for _ in 0..4 {
        let mut changed = sh.ddmin();
        changed |= sh.earlier();
        changed |= sh.cut();
        changed |= sh.magnitudes();
        changed |= sh.fewer_procs();
        changed |= sh.fewer_nodes();
        changed |= sh.cut();
        if !changed || sh.steps >= sh.max_steps {
            break;
        }
    }
    // Seed independence: the same faults under other seeds (other latencies and timeouts).
    let mut other_seeds_failing = 0;
    for k in 1..=u64::from(SEED_PROBES) {
        let mut s = sh.best.clone();
        s.seed = s.seed.wrapping_add(k.wrapping_mul(0x9E37_79B9));
        let out = evaluate(&s, property, false)?;
        if out.witness.is_some_and(|w| w.kind == sh.kind) {
            other_seeds_failing += 1;
        }
    }
    Ok(ShrinkReport {
        original: Size::of(scenario),
        shrunk: Size::of(&sh.best),
        scenario: sh.best,
        witness: sh.witness,
        steps: sh.steps,
        accepted: sh.accepted,
        other_seeds_failing,
    })
}
