//! The lease candidate config the property tests of both crates run: a 1 s TTL, a 100 ms
//! safety margin and 100 ms retries, short enough that a few hundred inputs cross many
//! grants, renewals and expiries. Included by path from `crates/tenure/tests/lease_props.rs`
//! (one machine, arbitrary inputs) and `crates/tenure-sim/tests/lease_props.rs` (a cluster in
//! the simulator's world), so the two test the same machine settings.

use tenure::lease::LeaseConfig;
use tenure::{Duration, NodeId};

/// The config of the candidate with holder id `holder`, its PRNG seeded with `seed`.
pub(crate) fn lease_config(holder: u64, seed: u64) -> LeaseConfig {
    let ms = Duration::from_millis;
    LeaseConfig {
        holder: NodeId(holder),
        ttl: ms(1_000),
        safety_margin: ms(100),
        max_round_trip: ms(200),
        retry_interval: ms(100),
        retry_jitter: ms(50),
        request_timeout: ms(100),
        seed,
        ..LeaseConfig::default()
    }
}
