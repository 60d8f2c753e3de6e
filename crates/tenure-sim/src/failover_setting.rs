//! One failover-lab setting: an algorithm and its timeout knobs, turned into the scenario
//! that [`crate::failover::measure`] and [`crate::cost::measure`] run. The CLI's `failover`
//! and the playground's lab (through wasm) both build their runs here, so the same setting
//! and seed give the same numbers in both.

use crate::scenario::{Algorithm, Scenario, ScenarioError};
use crate::units::Ms;
use serde::{Deserialize, Serialize};

/// An algorithm and the knobs the lab turns. Unset knobs keep the simulator's defaults.
/// Times are ms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setting {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Number of nodes.
    #[serde(default = "five")]
    pub nodes: u64,
    /// Raft: election timeouts drawn from `[min, max)`; heartbeats every `min / 3`.
    #[serde(default)]
    pub election_timeout_ms: Option<[u64; 2]>,
    /// Raft: PreVote.
    #[serde(default)]
    pub pre_vote: Option<bool>,
    /// Raft: CheckQuorum.
    #[serde(default)]
    pub check_quorum: Option<bool>,
    /// Lease: time to live.
    #[serde(default)]
    pub ttl_ms: Option<u64>,
    /// Lease: the holder stops acting this long before its lease ends on its own clock.
    #[serde(default)]
    pub safety_margin_ms: Option<u64>,
    /// Bully: silence from the coordinator after which a node starts an election.
    #[serde(default)]
    pub failure_timeout_ms: Option<u64>,
    /// Bully: how long a candidate waits for an answer from a higher node.
    #[serde(default)]
    pub answer_timeout_ms: Option<u64>,
    /// Bully: how long a node that got an answer waits for the coordinator message.
    #[serde(default)]
    pub coordinator_timeout_ms: Option<u64>,
    /// One-way message latency, drawn uniformly from `[min, max]`.
    #[serde(default)]
    pub latency_ms: Option<[u64; 2]>,
}

fn five() -> u64 {
    5
}

impl Setting {
    /// A setting of `algorithm` with every knob at its default, 5 nodes.
    #[must_use]
    pub fn new(algorithm: Algorithm) -> Setting {
        Setting {
            algorithm,
            nodes: 5,
            election_timeout_ms: None,
            pre_vote: None,
            check_quorum: None,
            ttl_ms: None,
            safety_margin_ms: None,
            failure_timeout_ms: None,
            answer_timeout_ms: None,
            coordinator_timeout_ms: None,
            latency_ms: None,
        }
    }

    /// The scenario of this setting with `seed`. Errors: a knob that does not apply to the
    /// algorithm, or values the simulator refuses (in its words).
    pub fn scenario(&self, seed: u64) -> Result<Scenario, ScenarioError> {
        let a = self.algorithm;
        let lease_worlds: Vec<&str> = Algorithm::ALL
            .into_iter()
            .filter(|x| x.has_store())
            .map(Algorithm::name)
            .collect();
        let lease_worlds = lease_worlds.join(", ");
        let knobs: [(&str, bool, bool, &str); 8] = [
            (
                "election_timeout_ms",
                self.election_timeout_ms.is_some(),
                a == Algorithm::Raft,
                "raft",
            ),
            (
                "pre_vote",
                self.pre_vote.is_some(),
                a == Algorithm::Raft,
                "raft",
            ),
            (
                "check_quorum",
                self.check_quorum.is_some(),
                a == Algorithm::Raft,
                "raft",
            ),
            (
                "ttl_ms",
                self.ttl_ms.is_some(),
                a.has_store(),
                &lease_worlds,
            ),
            (
                "safety_margin_ms",
                self.safety_margin_ms.is_some(),
                a.has_store(),
                &lease_worlds,
            ),
            (
                "failure_timeout_ms",
                self.failure_timeout_ms.is_some(),
                a == Algorithm::Bully,
                "bully",
            ),
            (
                "answer_timeout_ms",
                self.answer_timeout_ms.is_some(),
                a == Algorithm::Bully,
                "bully",
            ),
            (
                "coordinator_timeout_ms",
                self.coordinator_timeout_ms.is_some(),
                a == Algorithm::Bully,
                "bully",
            ),
        ];
        // Knob names as the setting's keys (JS, `--json`); the CLI spells them as its flags.
        for (knob, set, applies, wants) in knobs {
            if set && !applies {
                return Err(ScenarioError::Invalid(format!(
                    "{knob} does not apply to {a}: it is a knob of {wants}"
                )));
            }
        }
        let mut s = Scenario::new(a, self.nodes, seed, 60_000);
        let c = &mut s.config;
        if let Some([t, max]) = self.election_timeout_ms {
            if max <= t || t == 0 {
                return Err(ScenarioError::Invalid(format!(
                    "election_timeout_ms {t}-{max}: timeouts are drawn from min up to, not \
                     including, max, so max must be above min and min above 0"
                )));
            }
            c.election_timeout_ms = Some(Ms::from_millis(t));
            c.election_timeout_max_ms = Some(Ms::from_millis(max));
            // Heartbeats well inside the election timeout, as in the paper's setup.
            c.heartbeat_interval_ms = Some(Ms(tenure::Duration::from_micros(
                t.saturating_mul(1000) / 3,
            )
            .max(tenure::Duration::from_micros(1))));
        }
        c.pre_vote = self.pre_vote;
        c.check_quorum = self.check_quorum;
        c.ttl_ms = self.ttl_ms.map(Ms::from_millis);
        c.safety_margin_ms = self.safety_margin_ms.map(Ms::from_millis);
        c.failure_timeout_ms = self.failure_timeout_ms.map(Ms::from_millis);
        c.answer_timeout_ms = self.answer_timeout_ms.map(Ms::from_millis);
        c.coordinator_timeout_ms = self.coordinator_timeout_ms.map(Ms::from_millis);
        if let Some([lo, hi]) = self.latency_ms {
            s.network.latency_ms = [Ms::from_millis(lo), Ms::from_millis(hi)];
        }
        s.validate()?;
        Ok(s)
    }

    /// A short label for plots and tables: `raft 150-300 ms`, `lease-fencing ttl 2000 ms,
    /// margin 300 ms`, `bully failure 200 ms`.
    #[must_use]
    pub fn label(&self) -> String {
        let mut parts = vec![self.algorithm.to_string()];
        if let Some([t, max]) = self.election_timeout_ms {
            parts.push(format!("{t}-{max} ms"));
        }
        if self.pre_vote == Some(true) {
            parts.push("PreVote".into());
        }
        if self.check_quorum == Some(true) {
            parts.push("CheckQuorum".into());
        }
        if let Some(t) = self.ttl_ms {
            parts.push(format!("ttl {t} ms"));
        }
        if let Some(m) = self.safety_margin_ms {
            parts.push(format!("margin {m} ms"));
        }
        if let Some(t) = self.failure_timeout_ms {
            parts.push(format!("failure {t} ms"));
        }
        if let Some(t) = self.answer_timeout_ms {
            parts.push(format!("answer {t} ms"));
        }
        if let Some(t) = self.coordinator_timeout_ms {
            parts.push(format!("coordinator {t} ms"));
        }
        parts.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knobs_land_in_the_scenario() {
        let mut s = Setting::new(Algorithm::Raft);
        s.election_timeout_ms = Some([150, 300]);
        let sc = s.scenario(4).unwrap();
        assert_eq!(sc.seed, 4);
        assert_eq!(sc.config.election_timeout_ms, Some(Ms::from_millis(150)));
        assert_eq!(sc.config.heartbeat_interval_ms, Some(Ms::from_millis(50)));
        assert_eq!(s.label(), "raft 150-300 ms");
    }

    #[test]
    fn a_knob_of_another_algorithm_is_refused() {
        let mut s = Setting::new(Algorithm::Bully);
        s.ttl_ms = Some(1000);
        let e = s.scenario(1).unwrap_err().to_string();
        assert!(
            e.contains("ttl_ms does not apply to bully: it is a knob of lease-fencing"),
            "{e}"
        );
    }

    #[test]
    fn json_with_an_unknown_knob_is_refused() {
        let r: Result<Setting, _> =
            serde_json::from_str(r#"{"algorithm":"raft","election_timeout":[1,2]}"#);
        assert!(r.is_err());
    }
}
