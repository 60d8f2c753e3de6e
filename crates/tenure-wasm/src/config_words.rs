//! The machines' config errors in the JS caller's words: the keys as the caller writes them
//! (`safety_margin_ms`, not the core's `safety_margin`), values in milliseconds as given,
//! node ids as bigints (`2n`), "(the default)" after a value the caller did not give, and
//! each rule in JS notation (`0 < safety_margin_ms < ttl_ms`).
//!
//! The core's own messages speak to Rust callers (`Duration`s, `NodeId`s); these speak to
//! the JS one. `given(key)` says whether the caller's config object had `key` (not
//! `undefined`): [`given_in`] asks the object itself, on the error path only.

use tenure::bully::ConfigError as BullyError;
use tenure::raft::ConfigError as RaftError;
use tenure::{Duration, LeaseConfigError as LeaseError, NodeId};
use wasm_bindgen::JsValue;

use crate::error::number_text;

/// Whether the caller's config had a key.
pub(crate) type Given<'a> = &'a dyn Fn(&str) -> bool;

/// `given` for a config object: a key counts as given when reading it yields anything but
/// `undefined` (as the reader treats it). `undefined` (all defaults) gives nothing.
pub(crate) fn given_in(config: &JsValue) -> impl Fn(&str) -> bool + '_ {
    move |key: &str| {
        config.is_object()
            && js_sys::Reflect::get(config, &JsValue::from_str(key))
                .map(|v| !v.is_undefined())
                .unwrap_or(false)
    }
}

/// `ttl_ms 1000`, or `ttl_ms 10000 (the default)` when the caller did not give it.
fn knob(key: &str, value: String, given: Given<'_>) -> String {
    if given(key) {
        format!("{key} {value}")
    } else {
        format!("{key} {value} (the default)")
    }
}

/// A duration as the milliseconds the caller writes (`1000`, `3333.333`).
fn ms(d: Duration) -> String {
    number_text(crate::convert::duration_to_millis(d))
}

/// A node id as the bigint the caller writes (`2n`).
fn id(n: NodeId) -> String {
    format!("{}n", n.0)
}

/// A lease config error (design rule 5) in the caller's words.
pub(crate) fn lease(err: &LeaseError, given: Given<'_>) -> String {
    let k = |key: &str, d: Duration| knob(key, ms(d), given);
    match *err {
        LeaseError::MarginOutOfRange { safety_margin, ttl } => format!(
            "{} must be above 0 and below {}: 0 < safety_margin_ms < ttl_ms (design rule 5)",
            k("safety_margin_ms", safety_margin),
            k("ttl_ms", ttl)
        ),
        LeaseError::RenewalDoesNotFit {
            renew_interval,
            max_round_trip,
            ttl,
            safety_margin,
        } => format!(
            "{} + {} must be at most {} - {}: a renewal must be answered before the local \
             deadline, renew_interval_ms + max_round_trip_ms <= ttl_ms - safety_margin_ms \
             (design rule 5)",
            renew(renew_interval, given),
            k("max_round_trip_ms", max_round_trip),
            k("ttl_ms", ttl),
            k("safety_margin_ms", safety_margin)
        ),
        LeaseError::MarginBelowDrift {
            safety_margin,
            ttl,
            max_drift_ppm,
            required,
        } => format!(
            "{} must be at least {} x {} / 1000000 = {}: the margin covers the clock drift \
             over one lease (design rule 5)",
            k("safety_margin_ms", safety_margin),
            k("ttl_ms", ttl),
            knob("max_drift_ppm", max_drift_ppm.to_string(), given),
            ms(required)
        ),
        LeaseError::DriftOutOfRange { max_drift_ppm } => format!(
            "{} must be 0 to 999999",
            knob("max_drift_ppm", max_drift_ppm.to_string(), given)
        ),
        LeaseError::RenewIntervalZero { renew_interval } => {
            format!("{} must be above 0", renew(renew_interval, given))
        }
        LeaseError::RetryIntervalZero { retry_interval } => {
            format!("{} must be above 0", k("retry_interval_ms", retry_interval))
        }
        LeaseError::RequestTimeoutZero { request_timeout } => {
            format!(
                "{} must be above 0",
                k("request_timeout_ms", request_timeout)
            )
        }
        _ => err.to_string(),
    }
}

/// `renew_interval_ms 500`, or `renew_interval_ms 3333.333 (the default, ttl_ms / 3)`.
fn renew(d: Duration, given: Given<'_>) -> String {
    if given("renew_interval_ms") {
        format!("renew_interval_ms {}", ms(d))
    } else {
        format!("renew_interval_ms {} (the default, ttl_ms / 3)", ms(d))
    }
}

/// A Raft config error in the caller's words.
pub(crate) fn raft(err: &RaftError, given: Given<'_>) -> String {
    let k = |key: &str, d: Duration| knob(key, ms(d), given);
    match err {
        RaftError::ElectionTimeoutZero { election_timeout } => format!(
            "{} must be above 0",
            k("election_timeout_ms", *election_timeout)
        ),
        RaftError::HeartbeatInterval {
            heartbeat_interval,
            election_timeout,
        } => format!(
            "{} must be above 0 and below {}: 0 < heartbeat_interval_ms < election_timeout_ms",
            k("heartbeat_interval_ms", *heartbeat_interval),
            k("election_timeout_ms", *election_timeout)
        ),
        RaftError::MaxEntriesPerAppendZero => "max_entries_per_append 0 must be at least 1".into(),
        RaftError::ElectionTimeoutRange {
            election_timeout,
            election_timeout_max,
        } => format!(
            "{} must be above {}: timeouts are drawn from election_timeout_ms up to, not \
             including, election_timeout_max_ms",
            k("election_timeout_max_ms", *election_timeout_max),
            k("election_timeout_ms", *election_timeout)
        ),
        RaftError::MaxInflightAppendsZero => "max_inflight_appends 0 must be at least 1".into(),
        RaftError::LeaderLeaseNeedsCheckQuorum => format!(
            "leader_lease true needs check_quorum true, got {}: followers must refuse votes \
             while they hear a leader",
            knob("check_quorum", "false".into(), given)
        ),
        RaftError::MaxDrift { max_drift_ppm } => format!(
            "{} must be 0 to 999999",
            knob("max_drift_ppm", max_drift_ppm.to_string(), given)
        ),
        RaftError::SelfInPeers { id: own } => peers_self(*own, given),
        RaftError::DuplicatePeer { peer } => format!("peers lists {} more than once", id(*peer)),
        _ => err.to_string(),
    }
}

/// A Bully config error in the caller's words.
pub(crate) fn bully(err: &BullyError, given: Given<'_>) -> String {
    let k = |key: &str, d: Duration| knob(key, ms(d), given);
    match err {
        BullyError::SelfInPeers { id: own } => peers_self(*own, given),
        BullyError::DuplicatePeer { peer } => format!("peers lists {} more than once", id(*peer)),
        BullyError::HeartbeatIntervalZero { heartbeat_interval } => format!(
            "{} must be above 0",
            k("heartbeat_interval_ms", *heartbeat_interval)
        ),
        BullyError::FailureTimeoutTooShort {
            failure_timeout,
            heartbeat_interval,
        } => format!(
            "{} must be above {}",
            k("failure_timeout_ms", *failure_timeout),
            k("heartbeat_interval_ms", *heartbeat_interval)
        ),
        BullyError::AnswerTimeoutZero { answer_timeout } => {
            format!(
                "{} must be above 0",
                k("answer_timeout_ms", *answer_timeout)
            )
        }
        BullyError::CoordinatorTimeoutTooShort {
            coordinator_timeout,
            answer_timeout,
        } => format!(
            "{} must be above {}",
            k("coordinator_timeout_ms", *coordinator_timeout),
            k("answer_timeout_ms", *answer_timeout)
        ),
        _ => err.to_string(),
    }
}

/// `peers must not contain the node's own id 1n (id, the default)`.
fn peers_self(own: NodeId, given: Given<'_>) -> String {
    let whose = if given("id") { "id" } else { "id, the default" };
    format!(
        "peers must not contain the node's own id {} ({whose})",
        id(own)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use tenure::{BullyConfig, LeaseConfig, RaftConfig};

    fn keys(list: &'static [&'static str]) -> impl Fn(&str) -> bool {
        move |k: &str| list.contains(&k)
    }

    #[test]
    fn the_default_is_named_and_the_rule_is_in_js_keys() {
        let c = LeaseConfig {
            ttl: Duration::from_millis(1_000),
            ..LeaseConfig::default()
        };
        let err = c.validate().unwrap_err();
        assert_eq!(
            lease(&err, &keys(&["ttl_ms"])),
            "safety_margin_ms 1000 (the default) must be above 0 and below ttl_ms 1000: \
             0 < safety_margin_ms < ttl_ms (design rule 5)"
        );
        let c = LeaseConfig {
            renew_interval: Some(Duration::from_millis(8_500)),
            ..LeaseConfig::default()
        };
        let err = c.validate().unwrap_err();
        let text = lease(&err, &keys(&["renew_interval_ms"]));
        assert!(
            text.starts_with(
                "renew_interval_ms 8500 + max_round_trip_ms 1000 (the default) must be at most \
                 ttl_ms 10000 (the default) - safety_margin_ms 1000 (the default)"
            ),
            "{text}"
        );
    }

    #[test]
    fn raft_and_bully_errors_use_the_js_keys() {
        let c = RaftConfig {
            heartbeat_interval: Duration::from_millis(200),
            ..RaftConfig::default()
        };
        let text = raft(
            &c.validate().unwrap_err(),
            &keys(&["heartbeat_interval_ms"]),
        );
        assert!(
            text.starts_with(
                "heartbeat_interval_ms 200 must be above 0 and below election_timeout_ms 150 \
                 (the default)"
            ),
            "{text}"
        );
        let c = RaftConfig {
            peers: vec![NodeId(1)],
            ..RaftConfig::default()
        };
        assert_eq!(
            raft(&c.validate().unwrap_err(), &keys(&["peers"])),
            "peers must not contain the node's own id 1n (id, the default)"
        );
        let c = BullyConfig {
            coordinator_timeout: Duration::from_millis(50),
            ..BullyConfig::default()
        };
        assert_eq!(
            bully(
                &c.validate().unwrap_err(),
                &keys(&["coordinator_timeout_ms"])
            ),
            "coordinator_timeout_ms 50 must be above answer_timeout_ms 50 (the default)"
        );
    }
}
