//! The simulator's one fault check: a fault fits the world it strikes (CLI, scenario files
//! and JS `inject` alike).

use super::{Algorithm, Scenario};
use crate::fault::Fault;
use crate::process::Proc;

/// Checks that `fault` fits a world built from `scenario`; the error is one line.
pub fn validate_fault(scenario: &Scenario, fault: &Fault) -> Result<(), String> {
    let procs = fault.procs();
    // Each list names a process at most once, so no fault names more than twice the world's
    // processes (a one-way cut lists two sides); a longer list is a mistake, and refusing it
    // keeps a huge one from costing quadratic time when the cuts are applied.
    let limit = scenario
        .nodes
        .saturating_add(scenario.algorithm.spec().extra_procs.len() as u64)
        .saturating_mul(2);
    if procs.len() as u64 > limit {
        return Err(format!(
            "{} names {} processes; this world has {}",
            fault.label(),
            procs.len(),
            limit / 2
        ));
    }
    for p in procs {
        if !scenario.has_proc(p) {
            return Err(format!(
                "{} names process {p}, which is not in this {}-node {} world",
                fault.label(),
                scenario.nodes,
                scenario.algorithm
            ));
        }
    }
    let label = fault.label();
    if !scenario.algorithm.spec().allows_fault(label) {
        let mut owners: Vec<&str> = Algorithm::ALL
            .into_iter()
            .filter(|a| a.spec().own_faults.contains(&label))
            .map(|a| a.spec().family)
            .collect();
        owners.dedup();
        return Err(format!(
            "{label} applies only to {} worlds, not {}",
            owners.join(", "),
            scenario.algorithm
        ));
    }
    match fault {
        Fault::LinkLatency { min_ms, max_ms, .. } if min_ms > max_ms => Err(format!(
            "link-latency min_ms {min_ms} is greater than max_ms {max_ms}"
        )),
        Fault::ClockDrift { ppm, .. } if ppm.unsigned_abs() > 500_000 => {
            Err(format!("clock-drift ppm {ppm} is outside ±500000"))
        }
        // Break-it pass: an empty partition or isolation was accepted and did nothing
        // (`groups=1||`, `nodes=,`, `groups: []`): refused here, for the CLI, scenario files
        // and JS alike.
        Fault::Partition { groups } if groups.len() < 2 => Err(format!(
            "partition groups has {} group{}; a partition needs two or more, none empty",
            groups.len(),
            if groups.len() == 1 { "" } else { "s" }
        )),
        Fault::Partition { groups } if groups.iter().any(Vec::is_empty) => Err(format!(
            "partition groups[{}] is empty; a partition needs two or more, none empty",
            groups.iter().position(Vec::is_empty).unwrap_or(0)
        )),
        Fault::Isolate { nodes } if nodes.is_empty() => {
            Err("isolate nodes is empty; name at least one process to isolate".into())
        }
        // The same for the faults between two sides: a side of no process strikes no link.
        Fault::PartitionOneWay { from, to }
        | Fault::LinkLoss { from, to, .. }
        | Fault::LinkDuplicate { from, to, .. }
        | Fault::LinkLatency { from, to, .. }
            if from.is_empty() || to.is_empty() =>
        {
            Err(format!(
                "{label} {} is empty; name at least one process on each side",
                if from.is_empty() { "from" } else { "to" }
            ))
        }
        Fault::Partition { groups } => {
            // A list, not a set: the fault's processes were counted above (at most twice
            // the world's), so this is a few dozen compares at most.
            let mut seen: Vec<Proc> = Vec::new();
            for p in groups.iter().flatten() {
                if seen.contains(p) {
                    return Err(format!("partition lists process {p} in two groups"));
                }
                seen.push(*p);
            }
            Ok(())
        }
        _ => Ok(()),
    }
}
