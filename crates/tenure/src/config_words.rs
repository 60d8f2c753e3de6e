//! The machines' config errors in a caller's words rather than the core's: the keys as the
//! caller writes them (`safety_margin_ms` in JS and scenario files, `--safety-margin-ms` on a
//! command line, not the core's `safety_margin`), values in milliseconds, "(the default)"
//! after a value the caller did not give, and each rule in the caller's notation
//! (`0 < safety_margin_ms < ttl_ms`).
//!
//! The errors' own `Display` speaks to Rust callers (`Duration`s, `NodeId`s, field names);
//! a binding or a front end that reads its own config format words them with a [`Caller`].

use alloc::format;
use alloc::string::{String, ToString};

use crate::LeaseConfigError as LeaseError;
use crate::bully::ConfigError as BullyError;
use crate::raft::ConfigError as RaftError;
use crate::{Duration, NodeId};

/// How a caller writes its config. Every question is asked with the JavaScript machine
/// config's key (`ttl_ms`, `max_drift_ppm`), the canonical knob name.
pub struct Caller<'a> {
    /// Whether the caller gave `key` (a value it did not give is followed by "(the
    /// default)").
    pub given: &'a dyn Fn(&str) -> bool,
    /// How the caller spells `key`: `ttl_ms` unchanged, or `--ttl-ms` for a flag.
    pub spell: &'a dyn Fn(&str) -> String,
    /// How the caller writes a node id: `2n` for a JS bigint, `2` elsewhere.
    pub id: &'a dyn Fn(NodeId) -> String,
}

impl Caller<'_> {
    /// A JavaScript caller: keys as written, ids as bigints (`2n`).
    pub fn js(given: &dyn Fn(&str) -> bool) -> Caller<'_> {
        Caller {
            given,
            spell: &|k| k.to_string(),
            id: &|n| format!("{}n", n.0),
        }
    }
}

/// `ttl_ms 1000`, or `ttl_ms 10000 (the default)` when the caller did not give it.
fn knob(c: &Caller<'_>, key: &str, value: String) -> String {
    let name = (c.spell)(key);
    if (c.given)(key) {
        format!("{name} {value}")
    } else {
        format!("{name} {value} (the default)")
    }
}

/// A duration as the milliseconds the caller writes (`1000`, `3333.333`, `0.5`), from
/// integers only (float formatting would add kilobytes to the machines' wasm).
fn ms(d: Duration) -> String {
    let us = d.as_micros();
    let (whole, frac) = (us / 1000, us % 1000);
    if frac == 0 {
        return format!("{whole}");
    }
    let digits = format!("{frac:03}");
    format!("{whole}.{}", digits.trim_end_matches('0'))
}

/// A lease config error (design rule 5) in `c`'s words.
pub fn lease(err: &LeaseError, c: &Caller<'_>) -> String {
    let k = |key: &str, d: Duration| knob(c, key, ms(d));
    let s = |key: &str| (c.spell)(key);
    match *err {
        LeaseError::MarginOutOfRange { safety_margin, ttl } => format!(
            "{} must be above 0 and below {}: 0 < {} < {} (design rule 5)",
            k("safety_margin_ms", safety_margin),
            k("ttl_ms", ttl),
            s("safety_margin_ms"),
            s("ttl_ms")
        ),
        LeaseError::RenewalDoesNotFit {
            renew_interval,
            max_round_trip,
            ttl,
            safety_margin,
        } => format!(
            "{} + {} must be at most {} - {}: a renewal must be answered before the local \
             deadline, {} + {} <= {} - {} (design rule 5)",
            renew(c, renew_interval),
            k("max_round_trip_ms", max_round_trip),
            k("ttl_ms", ttl),
            k("safety_margin_ms", safety_margin),
            s("renew_interval_ms"),
            s("max_round_trip_ms"),
            s("ttl_ms"),
            s("safety_margin_ms")
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
            knob(c, "max_drift_ppm", max_drift_ppm.to_string()),
            ms(required)
        ),
        LeaseError::DriftOutOfRange { max_drift_ppm } => format!(
            "{} must be 0 to 999999",
            knob(c, "max_drift_ppm", max_drift_ppm.to_string())
        ),
        LeaseError::RenewIntervalZero { renew_interval } => {
            format!("{} must be above 0", renew(c, renew_interval))
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
    }
}

/// `renew_interval_ms 500`, or `renew_interval_ms 3333.333 (the default, ttl_ms / 3)`.
fn renew(c: &Caller<'_>, d: Duration) -> String {
    let name = (c.spell)("renew_interval_ms");
    if (c.given)("renew_interval_ms") {
        format!("{name} {}", ms(d))
    } else {
        format!(
            "{name} {} (the default, {} / 3)",
            ms(d),
            (c.spell)("ttl_ms")
        )
    }
}

/// A Raft config error in the caller's words.
pub fn raft(err: &RaftError, c: &Caller<'_>) -> String {
    let k = |key: &str, d: Duration| knob(c, key, ms(d));
    let s = |key: &str| (c.spell)(key);
    match err {
        RaftError::ElectionTimeoutZero { election_timeout } => format!(
            "{} must be above 0",
            k("election_timeout_ms", *election_timeout)
        ),
        RaftError::HeartbeatInterval {
            heartbeat_interval,
            election_timeout,
        } => format!(
            "{} must be above 0 and below {}: 0 < {} < {}",
            k("heartbeat_interval_ms", *heartbeat_interval),
            k("election_timeout_ms", *election_timeout),
            s("heartbeat_interval_ms"),
            s("election_timeout_ms")
        ),
        RaftError::MaxEntriesPerAppendZero => {
            format!("{} 0 must be at least 1", s("max_entries_per_append"))
        }
        RaftError::ElectionTimeoutRange {
            election_timeout,
            election_timeout_max,
        } => format!(
            "{} must be above {}: timeouts are drawn from {} up to, not including, {}",
            k("election_timeout_max_ms", *election_timeout_max),
            k("election_timeout_ms", *election_timeout),
            s("election_timeout_ms"),
            s("election_timeout_max_ms")
        ),
        RaftError::MaxInflightAppendsZero => {
            format!("{} 0 must be at least 1", s("max_inflight_appends"))
        }
        RaftError::LeaderLeaseNeedsCheckQuorum => format!(
            "{} true needs {} true, got {}: followers must refuse votes while they hear a \
             leader",
            s("leader_lease"),
            s("check_quorum"),
            knob(c, "check_quorum", "false".into())
        ),
        RaftError::MaxDrift { max_drift_ppm } => format!(
            "{} must be 0 to 999999",
            knob(c, "max_drift_ppm", max_drift_ppm.to_string())
        ),
        RaftError::SelfInPeers { id: own } => peers_self(c, *own),
        RaftError::DuplicatePeer { peer } => {
            format!("{} lists {} more than once", s("peers"), (c.id)(*peer))
        }
        // Not a config key: the state's own words (`log[1].term 2 is below ...`), without
        // the config error's own Display (which a module that words its errors here drops).
        RaftError::State(state) => format!("persisted state: {state}"),
    }
}

/// A Bully config error in the caller's words.
pub fn bully(err: &BullyError, c: &Caller<'_>) -> String {
    let k = |key: &str, d: Duration| knob(c, key, ms(d));
    let s = |key: &str| (c.spell)(key);
    match err {
        BullyError::SelfInPeers { id: own } => peers_self(c, *own),
        BullyError::DuplicatePeer { peer } => {
            format!("{} lists {} more than once", s("peers"), (c.id)(*peer))
        }
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
    }
}

/// `peers must not contain the node's own id 1n (id, the default)`.
fn peers_self(c: &Caller<'_>, own: NodeId) -> String {
    let id = (c.spell)("id");
    let whose = if (c.given)("id") {
        id
    } else {
        format!("{id}, the default")
    };
    format!(
        "{} must not contain the node's own id {} ({whose})",
        (c.spell)("peers"),
        (c.id)(own)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BullyConfig, LeaseConfig, RaftConfig};
    use alloc::vec;

    fn keys(list: &'static [&'static str]) -> impl Fn(&str) -> bool {
        move |k: &str| list.contains(&k)
    }

    fn lease(err: &LeaseError, given: &dyn Fn(&str) -> bool) -> String {
        super::lease(err, &Caller::js(given))
    }

    fn raft(err: &RaftError, given: &dyn Fn(&str) -> bool) -> String {
        super::raft(err, &Caller::js(given))
    }

    fn bully(err: &BullyError, given: &dyn Fn(&str) -> bool) -> String {
        super::bully(err, &Caller::js(given))
    }

    #[test]
    fn flags_are_spelled_as_flags() {
        let c = LeaseConfig {
            ttl: Duration::from_millis(1_000),
            ..LeaseConfig::default()
        };
        let err = c.validate().unwrap_err();
        let flags = Caller {
            given: &|k| k == "ttl_ms",
            spell: &|k| format!("--{}", k.replace('_', "-")),
            id: &|n| n.0.to_string(),
        };
        assert_eq!(
            super::lease(&err, &flags),
            "--safety-margin-ms 1000 (the default) must be above 0 and below --ttl-ms 1000: \
             0 < --safety-margin-ms < --ttl-ms (design rule 5)"
        );
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
