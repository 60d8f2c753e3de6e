//! [`AlgoConfig`]'s keys by name: the keys a scenario sets, and dropping the keys an
//! algorithm does not read, without a serde format in between (docs/bindings.md).

use super::AlgoConfig;

/// [`AlgoConfig`]'s keys by name, without going through a serde format (the wasm modules
/// then carry no `serde_json::Value` writer for it). The keys are listed in alphabetical
/// order, the order of serde_json's object (a test checks the list against the serde form).
macro_rules! config_keys {
    ($($key:ident),* $(,)?) => {
        impl AlgoConfig {
            /// The keys set, in alphabetical order (each is written in JSON only when set).
            pub(crate) fn keys_set(&self) -> Vec<&'static str> {
                let mut set = Vec::new();
                $(if self.$key.is_some() {
                    set.push(stringify!($key));
                })*
                set
            }

            /// Unsets every key that `keep` does not list.
            pub(crate) fn retain_keys(&mut self, keep: &[&str]) {
                $(if !keep.contains(&stringify!($key)) {
                    self.$key = None;
                })*
            }
        }
    };
}

config_keys! {
    answer_timeout_ms,
    check_quorum,
    coordinator_timeout_ms,
    election_timeout_max_ms,
    election_timeout_ms,
    failure_timeout_ms,
    first_token,
    heartbeat_interval_ms,
    holder_id,
    leader_lease,
    leader_lease_drift_ppm,
    max_drift_ppm,
    max_round_trip_ms,
    pre_vote,
    propose_interval_ms,
    renew_interval_ms,
    retry_interval_ms,
    safety_margin_ms,
    ttl_ms,
    write_interval_ms,
}

#[cfg(test)]
mod tests {
    use super::AlgoConfig;
    use crate::units::Ms;

    /// Every key set (a struct literal without `..`, so a new key fails to compile here).
    fn every_key() -> AlgoConfig {
        let ms = Some(Ms::from_millis(1));
        AlgoConfig {
            election_timeout_ms: ms,
            election_timeout_max_ms: ms,
            heartbeat_interval_ms: ms,
            pre_vote: Some(true),
            check_quorum: Some(true),
            propose_interval_ms: ms,
            leader_lease: Some(true),
            leader_lease_drift_ppm: Some(1),
            ttl_ms: ms,
            safety_margin_ms: ms,
            renew_interval_ms: ms,
            retry_interval_ms: ms,
            write_interval_ms: ms,
            max_drift_ppm: Some(1),
            max_round_trip_ms: ms,
            holder_id: Some(1),
            first_token: Some(1),
            failure_timeout_ms: ms,
            answer_timeout_ms: ms,
            coordinator_timeout_ms: ms,
        }
    }

    /// The keys of `c`'s JSON object, in serde_json's order.
    fn json_keys(c: &AlgoConfig) -> Vec<String> {
        match serde_json::to_value(c) {
            Ok(serde_json::Value::Object(map)) => map.into_iter().map(|(k, _)| k).collect(),
            other => panic!("not an object: {other:?}"),
        }
    }

    #[test]
    fn the_key_list_is_the_serde_form() {
        let full = every_key();
        assert_eq!(full.keys_set(), json_keys(&full));
        assert_eq!(json_keys(&full).len(), 20);
        assert!(AlgoConfig::default().keys_set().is_empty());
        let mut some = AlgoConfig {
            ttl_ms: Some(Ms::from_millis(5)),
            pre_vote: Some(false),
            ..AlgoConfig::default()
        };
        assert_eq!(some.keys_set(), ["pre_vote", "ttl_ms"]);
        assert_eq!(some.keys_set(), json_keys(&some));
        some.retain_keys(&["ttl_ms", "holder_id"]);
        assert_eq!(some.keys_set(), ["ttl_ms"]);
        let mut all = every_key();
        all.retain_keys(&[]);
        assert_eq!(all, AlgoConfig::default());
    }
}
