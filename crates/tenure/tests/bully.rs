//! Integration tests of the Bully module: golden interaction scripts, scenario S14, and
//! property tests, all driven through the small in-memory network in `bully/cluster.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

#[path = "bully/cluster.rs"]
mod cluster;
#[path = "bully/interaction.rs"]
mod interaction;
#[path = "bully/props.rs"]
mod props;
#[path = "bully/s14.rs"]
mod s14;
#[path = "bully/storm.rs"]
mod storm;
