//! Tenure's deterministic simulator: a seeded world of processes, clocks, a network and
//! faults that drives the core election machines through their sans-IO interfaces and
//! checks their safety invariants on every event.
//!
//! - [`World`] (module [`world`]): build one from a [`Scenario`], then `step`, `run_until`,
//!   `inject` faults, read a [`Snapshot`], the event log (`events_since`) and `trace_hash`.
//! - [`Scenario`] (module [`scenario`]): the versioned JSON that fixes a run.
//! - [`Fault`] (module [`fault`]): crash/restart, pauses, partitions, link faults, clock
//!   faults, store outages.
//! - [`checker`]: the invariants each algorithm promises, and [`Violation`] records.
//! - [`chaos`]: Jepsen-style random fault schedules and the campaign runner.
//! - [`failover`]: time-to-new-leader measurements (Raft paper, Figure 16), [`failover_plot`]
//!   their CDF as SVG, [`failover_setting`] the knobs, and [`cost`]: false elections under latency and pauses.
//!
//! Time is true time in integer microseconds ([`tenure::Instant`]); each process reads its
//! own [`clock::SimClock`]. All randomness derives from the scenario's seed.

mod algo;
pub mod budget;
pub mod chaos;
pub mod checker;
#[cfg(feature = "cli")]
pub mod cli;
pub mod clock;
pub mod cost;
pub mod duration;
pub mod event;
pub mod failover;
pub mod failover_plot;
pub mod failover_setting;
pub mod fault;
mod json_shape;
pub mod message;
pub mod metrics;
pub mod network;
pub mod process;
pub mod scenario;
pub mod search;
pub mod serde_words;

/// The lease world's own calls for tests (each candidate, the store, the resource, a
/// chosen check or fenced write): [`lease::LeaseWorld`], implemented for [`World`].
pub mod lease {
    pub use crate::algo::LeaseWorld;
}
pub mod snapshot;
pub mod trace;
#[cfg(feature = "ts")]
pub mod ts;
pub mod units;
pub mod world;

pub use algo::AlgorithmSpec;
pub use checker::{InvariantKind, Violation};
pub use event::{NodeEvent, Role, RoleKind, StepDownCause};
pub use fault::{Fault, TimedFault};
pub use metrics::Metrics;
pub use process::Proc;
pub use scenario::{Algorithm, Scenario, ScenarioError};
pub use snapshot::Snapshot;
pub use trace::{TraceEvent, TraceKind};
pub use world::{CampaignError, FaultError, World};
