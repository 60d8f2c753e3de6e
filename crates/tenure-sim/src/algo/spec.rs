//! One registration per algorithm: everything the simulator, the checker, the chaos runner,
//! the CLI and the bindings need to know about an algorithm, in one value.
//!
//! The registry ([`super::REGISTRY`]) is the only list of algorithms. The scenario reads
//! `algorithm` by name from it, validates `config` against the spec's keys, and the world
//! builds the adapter, adds the extra processes and asks the spec whether a fault keeps the
//! algorithm's premise. docs/algorithms.md has the checklist for adding one.

use super::Adapter;
use crate::checker::InvariantKind;
use crate::fault::Fault;
use crate::process::Proc;
use crate::scenario::{Scenario, ScenarioError};
use tenure::Duration;

/// One algorithm's registration (see the module docs).
#[derive(Clone, Copy)]
pub struct AlgorithmSpec {
    /// The kebab-case name used in scenario JSON, on the command line and in the bindings.
    pub name: &'static str,
    /// The family it belongs to, for messages that speak of several (`lease` for every lease
    /// variant; otherwise the name).
    pub family: &'static str,
    /// A short title for pickers (the playground's, the CLI's help).
    pub title: &'static str,
    /// One line for the CLI's `--algorithm` help: what it is and what it promises.
    pub help: &'static str,
    /// The `config` keys of the scenario this algorithm reads; any other key is refused.
    pub config_keys: &'static [&'static str],
    /// The invariants it promises; a violation of one of these fails a run.
    pub promises: &'static [InvariantKind],
    /// Processes beyond the nodes, at indexes `nodes..` in this order (a lease's store and
    /// resource).
    pub extra_procs: &'static [Proc],
    /// Fault types (`Fault::label`) that apply only to the algorithms listing them.
    pub own_faults: &'static [&'static str],
    /// Builds the machines of one world.
    pub(crate) build: fn(&Scenario) -> Result<Box<dyn Adapter>, ScenarioError>,
    /// How long after the last fault heals a leader must exist, ms.
    pub(crate) liveness_bound_ms: fn(&Scenario) -> u64,
    /// Whether the promise of [`InvariantKind::SplitBrain`] survives `fault` (the lease's
    /// premise: clocks measure time); only consulted when the spec promises it.
    pub(crate) keeps_premise: fn(&Scenario, &Fault) -> bool,
    /// Messages a healthy world of this algorithm sends per second (for the run budget).
    pub(crate) messages_per_second: fn(&Scenario) -> u64,
    /// The leader's heartbeat (a lease's renew interval), for failover measurements.
    pub(crate) heartbeat: fn(&Scenario) -> Duration,
}

impl core::fmt::Debug for AlgorithmSpec {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AlgorithmSpec")
            .field("name", &self.name)
            .field("config_keys", &self.config_keys)
            .field("promises", &self.promises)
            .finish_non_exhaustive()
    }
}

impl AlgorithmSpec {
    /// Whether the world contains a lease store (and so store faults apply).
    pub fn has_store(&self) -> bool {
        self.extra_procs.contains(&Proc::Store)
    }

    /// Whether a fault of type `label` applies to this algorithm's worlds.
    pub fn allows_fault(&self, label: &str) -> bool {
        self.own_faults.contains(&label)
            || !super::REGISTRY
                .iter()
                .any(|s| s.own_faults.contains(&label))
    }
}

/// A spec's default premise: no promise depends on clocks.
pub(crate) fn no_premise(_: &Scenario, _: &Fault) -> bool {
    true
}
