//! An unknown key in a scenario's `config`, told the keys of the scenario's algorithm only.

use super::Algorithm;

/// serde's refusal of an unknown key in a scenario's `config` (`unknown field `ttl`,
/// expected one of ...`), which lists every algorithm's keys, narrowed to the keys of the
/// algorithm the scenario names: `{ algorithm: "raft", config: { ttl: 5 } }` is told Raft's
/// keys, not the lease's `ttl_ms`. `detail` is left as it is for any other error, or when
/// `algorithm` names no algorithm. Shared by the CLI's scenario files and the JS bindings.
pub fn narrow_config_keys(detail: &str, algorithm: &str) -> Option<String> {
    let name = detail.strip_prefix("unknown field `")?.split_once('`')?.0;
    let keys = Algorithm::ALL
        .into_iter()
        .find(|a| a.name() == algorithm)?
        .spec()
        .config_keys;
    Some(<serde::de::value::Error as serde::de::Error>::unknown_field(name, keys).to_string())
}

/// [`narrow_config_keys`] in place, `algorithm` as the input gave it.
pub(super) fn narrow_config_error(detail: &mut String, algorithm: &serde_json::Value) {
    if let Some(narrowed) = algorithm
        .as_str()
        .and_then(|a| narrow_config_keys(detail, a))
    {
        *detail = narrowed;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_unknown_config_key_is_told_the_keys_of_the_scenario_algorithm() {
        let text = |algorithm: &str| {
            format!(
                r#"{{"version": 1, "algorithm": "{algorithm}", "nodes": 3, "seed": 1,
                    "duration_ms": 1000, "config": {{"ttl": 5}}}}"#
            )
        };
        let raft = crate::Scenario::from_json(&text("raft"))
            .unwrap_err()
            .to_string();
        assert!(
            raft.starts_with(
                "scenario: config: unknown key \"ttl\"; the keys are election_timeout_ms, "
            ),
            "{raft}"
        );
        assert!(!raft.contains("ttl_ms"), "{raft}");
        let lease = crate::Scenario::from_json(&text("lease-fencing"))
            .unwrap_err()
            .to_string();
        assert!(lease.contains("the keys are ttl_ms, "), "{lease}");
        assert!(!lease.contains("election_timeout_ms"), "{lease}");
        // Data rather than text: the same words.
        let value: serde_json::Value = serde_json::from_str(&text("raft")).unwrap();
        let from_value = crate::Scenario::from_value(value).unwrap_err().to_string();
        assert_eq!(from_value, raft.split(" at line ").next().unwrap());
        // An algorithm that is not one keeps every key (and is refused for itself).
        let unknown = crate::Scenario::from_json(&text("paxos"))
            .unwrap_err()
            .to_string();
        assert!(!unknown.contains("unknown key"), "{unknown}");
        assert_eq!(super::narrow_config_keys("missing field `x`", "raft"), None);
        assert_eq!(
            super::narrow_config_keys("unknown field `ttl`, expected `a`", "paxos"),
            None
        );
    }
}
