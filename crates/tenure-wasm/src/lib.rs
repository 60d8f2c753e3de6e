//! wasm-bindgen bindings for Tenure: conversion and validation only, no logic (DESIGN.md).
//!
//! One module per idea, so later bindings slot in beside the first:
//! - `error`: typed binding errors, turned into real JS `TypeError`/`RangeError`
//!   objects carrying a stable `code` (STYLE.md item 12).
//! - `convert`: checked conversions at the boundary: `bigint` <-> `u64`
//!   (STYLE.md item 14) and milliseconds (`number`) <-> microsecond `Duration`/`Instant`.
//! - `object`: building plain JS result objects.
//! - `fenced`: the exported [`FencedResource`] class.
//! - `types`: the hand-written TypeScript shapes (one `typescript_custom_section`).
//! - `simulation`: the exported [`Simulation`] class over the simulator's `World`, with
//!   `simulation_input` (scenario and fault objects in), `simulation_view` (snapshots,
//!   events, metrics out), `simulation_error` and `simulation_types` (its TypeScript shapes).
//!
//! Every exported class lives in its own module and is re-exported here.

mod convert;
mod error;
mod fenced;
mod object;
mod simulation;
mod simulation_error;
mod simulation_input;
mod simulation_types;
mod simulation_view;
mod types;

pub use fenced::FencedResource;
pub use simulation::Simulation;
