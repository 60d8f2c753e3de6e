//! wasm-bindgen bindings for Tenure: conversion and validation only, no logic (docs/design.md).
//!
//! One module per idea, so later bindings slot in beside the first:
//! - `error`: typed binding errors, turned into real JS `TypeError`/`RangeError`
//!   objects carrying a stable `code` (convention 12).
//! - `config_words`: the machines' config errors in the JS caller's keys, units and defaults.
//! - `convert`: checked conversions at the boundary: `bigint` <-> `u64`
//!   (convention 14) and milliseconds (`number`) <-> microsecond `Duration`/`Instant`.
//! - `object`: building plain JS result objects.
//! - `read`: reading plain JS objects strictly (typed fields, unknown keys rejected).
//! - `js`: catching wrappers for JS operations that may throw while an argument is read.
//! - `limits`: the largest lists and strings accepted, checked before allocation.
//! - `seed`: fresh PRNG seeds when a config gives none.
//! - `fenced`: the exported [`FencedResource`] class.
//! - `lease_message`: the lease store's requests and responses as JS objects.
//! - `lease_store`, `lease_candidate`: the exported [`LeaseStore`] and [`LeaseCandidate`].
//! - `raft_message`: Raft messages, entries and persisted state as JS objects.
//! - `raft`, `bully`: the exported [`RaftNode`] and [`BullyNode`].
//! - `types`: the hand-written TypeScript shapes (one `typescript_custom_section`).
//! - `search`: the exported [`Search`] class, the simulator's counterexample search and
//!   shrinker run in slices (a Web Worker's).
//! - `simulation`: the exported [`Simulation`] class over the simulator's `World`, with
//!   `simulation_input` (scenario and fault objects in), `simulation_view` (snapshots,
//!   events, metrics out), `simulation_message` (one message's fields), `simulation_error` and `simulation_types` (its TypeScript shapes).
//!
//! - `lab`: the failover lab's `failoverMeasure`, `falseElections` and `failoverPlot`.
//!
//! Every exported class lives in its own module and is re-exported here.

mod bully;
mod config_words;
mod convert;
mod error;
mod fenced;
mod js;
mod json_text;
mod lab;
mod lease_candidate;
mod lease_message;
mod lease_store;
mod limits;
mod object;
mod raft;
mod raft_message;
mod read;
mod search;
mod seed;
mod simulation;
mod simulation_error;
mod simulation_input;
mod simulation_message;
mod simulation_types;
mod simulation_view;
mod types;

pub use bully::BullyNode;
pub use fenced::FencedResource;
pub use lab::{MAX_RUNS, failover_measure, failover_plot, false_elections};
pub use lease_candidate::LeaseCandidate;
pub use lease_store::LeaseStore;
pub use raft::RaftNode;
pub use search::Search;
pub use simulation::Simulation;
