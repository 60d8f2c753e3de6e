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
//! - `lease_message`: the lease store's requests and responses as JS objects, strictly;
//!   `lease_fast`: the renew round trip's common shapes read and built in one JS call each.
//! - `lease_store`, `lease_candidate`: the exported [`LeaseStore`] and [`LeaseCandidate`].
//! - `raft_message`: Raft messages, entries and persisted state as JS objects.
//! - `raft`, `bully`: the exported [`RaftNode`] and [`BullyNode`].
//! - `shape`: `js_union!`/`js_object!`, one declaration per tagged union or object from which
//!   its reader, writer and TypeScript come (docs/bindings.md).
//! - `types`: the TypeScript shapes no declaration generates yet (`FenceResult`, the error
//!   code unions), in one `typescript_custom_section`.
//! - `search` (module `search`): the exported [`Search`] class, the simulator's
//!   counterexample search and shrinker run in slices (a Web Worker's).
//! - `simulation`: the exported [`Simulation`] class over the simulator's `World`, with
//!   `simulation_input` (scenario and fault objects in), `simulation_output` (snapshots,
//!   events, metrics out), `simulation_message` (one message's fields), `simulation_error` and `simulation_types` (its TypeScript: the shapes generated
//!   from the simulator's serde types into `simulation_shapes.d.ts`, tests/sim_shapes.rs).
//!
//! - `lab` (module `search`): the failover lab's `failoverMeasure`, `falseElections` and
//!   `failoverPlot`.
//!
//! Every exported class lives in its own module and is re-exported here.
//!
//! Three wasm modules come from this crate, one per Cargo feature: `machines` (the npm
//! package's main entry `tenure`), `sim` (its `tenure/sim` entry: `Simulation`) and `search`
//! (its `tenure/search` entry: `Search` and the lab). Shared by all: `error`, `convert`,
//! `object`, `read`, `js`, `limits`, `seed`; by `sim` and `search` (the `scenario` feature):
//! `json_text`, `simulation_input`, `simulation_error`, `simulation_output` and
//! `simulation_types` (docs/bindings.md).

// One crate, three wasm modules (Cargo features, built one at a time by scripts/build.mjs):
// shared boundary helpers, then each module's classes. A single-feature build leaves some
// helpers unused by design.
#![cfg_attr(
    not(all(feature = "machines", feature = "sim", feature = "search")),
    allow(dead_code, unused_imports)
)]

// Every wasm build: the three modules (scripts/build.mjs builds one feature at a time).
#[cfg(target_arch = "wasm32")]
mod allocator;
mod config_words;
mod convert;
mod error;
mod js;
mod limits;
mod object;
mod read;
mod seed;
#[cfg(feature = "machines")]
mod shape;

#[cfg(feature = "machines")]
mod bully;
#[cfg(feature = "machines")]
mod fenced;
#[cfg(feature = "machines")]
mod lease_candidate;
#[cfg(feature = "machines")]
mod lease_fast;
#[cfg(feature = "machines")]
mod lease_message;
#[cfg(feature = "machines")]
mod lease_store;
#[cfg(feature = "machines")]
mod raft;
#[cfg(feature = "machines")]
mod raft_message;
#[cfg(feature = "machines")]
mod types;

#[cfg(feature = "scenario")]
mod js_de;
#[cfg(feature = "scenario")]
mod json_text;
#[cfg(feature = "scenario")]
mod simulation_error;
#[cfg(feature = "scenario")]
mod simulation_input;
#[cfg(feature = "scenario")]
mod simulation_output;
#[cfg(feature = "scenario")]
mod simulation_types;

#[cfg(feature = "sim")]
mod simulation;
#[cfg(feature = "sim")]
mod simulation_frame;
#[cfg(feature = "sim")]
mod simulation_message;

#[cfg(feature = "search")]
mod lab;
#[cfg(feature = "search")]
mod search;

#[cfg(feature = "machines")]
pub use bully::BullyNode;
#[cfg(feature = "machines")]
pub use fenced::FencedResource;
#[cfg(feature = "search")]
pub use lab::{MAX_RUNS, failover_measure, failover_plot, false_elections};
#[cfg(feature = "machines")]
pub use lease_candidate::LeaseCandidate;
#[cfg(feature = "machines")]
pub use lease_store::LeaseStore;
#[cfg(feature = "machines")]
pub use raft::RaftNode;
#[cfg(feature = "search")]
pub use search::Search;
#[cfg(feature = "sim")]
pub use simulation::Simulation;
