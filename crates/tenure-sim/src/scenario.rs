//! The scenario: versioned JSON that fixes a whole run (docs/design.md "Scenario").
//!
//! ```json
//! {
//!   "version": 1,
//!   "algorithm": "raft",
//!   "nodes": 5,
//!   "config": { "election_timeout_ms": 150, "pre_vote": true },
//!   "network": { "latency_ms": [1, 10], "loss": 0.01 },
//!   "seed": 7,
//!   "duration_ms": 60000,
//!   "faults": [ { "at_ms": 5000, "fault": { "type": "crash", "node": 1 } } ]
//! }
//! ```
//!
//! Unknown keys are rejected everywhere, times are milliseconds as JSON numbers, and every
//! error is one line that names the offending value. A scenario plus its seed replays to the
//! same trace, natively and in wasm.

use crate::fault::{Fault, TimedFault};
use crate::network::NetworkConfig;
use crate::process::Proc;
use crate::units::Ms;
use core::fmt;
use core::str::FromStr;
use serde::{Deserialize, Serialize};
use tenure::NodeId;

mod fault_check;
mod keys;
mod unknown_key;

pub use fault_check::validate_fault;
use unknown_key::narrow_config_error;
pub use unknown_key::narrow_config_keys;

/// The only scenario format version this build reads.
pub const SCENARIO_VERSION: u32 = 1;

/// Longest run a scenario may ask for, ms of simulated time: 10^9 ms, about 11.6 days. A
/// 5-node cluster at the default timeouts records a few hundred events per simulated second,
/// so this is some 10^8 events, minutes of CPU; a longer run is more likely a unit slip
/// (`duration_ms` given in microseconds) than a wish, and a run of 10^14 ms would not end.
/// Split a longer study into runs over seeds.
pub const MAX_DURATION_MS: u64 = 1_000_000_000;

/// Most nodes a scenario may have (the playground draws them all).
pub const MAX_NODES: u64 = 64;

/// Scenario JSON `text` without a leading UTF-8 byte order mark (U+FEFF), which serde_json
/// would refuse as "expected value at line 1 column 1": editors on Windows write one, and
/// RFC 8259 section 8.1 lets a reader ignore it. The CLI's scenario files and the bindings'
/// `Simulation.fromJSON` text go through it.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// What `nodes` may be, in an error's words (kept equal to [`MAX_NODES`] by a test).
pub(crate) const NODES_RANGE: &str = "expected a whole number from 1 to 64";

/// Which election algorithm a world runs: an entry of the simulator's registry, written as
/// its kebab-case name in JSON and on the command line ([`Algorithm::NAMES`]).
/// [`Algorithm::spec`] says everything else about it (docs/algorithms.md).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Algorithm(pub(crate) u8);

impl Algorithm {
    /// Every algorithm, in CLI order.
    pub const ALL: [Algorithm; crate::algo::REGISTRY.len()] = {
        let mut all = [Algorithm(0); crate::algo::REGISTRY.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = Algorithm(i as u8);
            i += 1;
        }
        all
    };

    /// Every algorithm's name, in CLI order.
    pub const NAMES: [&'static str; crate::algo::REGISTRY.len()] = {
        let mut names = [""; crate::algo::REGISTRY.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = crate::algo::REGISTRY[i].name;
            i += 1;
        }
        names
    };

    /// Its registration: name, config keys, promises, extra processes, own faults.
    pub fn spec(self) -> &'static crate::algo::AlgorithmSpec {
        crate::algo::REGISTRY
            .get(usize::from(self.0))
            .copied()
            .unwrap_or(crate::algo::REGISTRY[0])
    }

    /// The kebab-case name used in JSON and on the command line.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// Whether the world contains a lease store (store faults and store metrics apply).
    pub fn has_store(self) -> bool {
        self.spec().has_store()
    }
}

impl fmt::Debug for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Algorithm({})", self.name())
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| {
                format!(
                    "`{s}` is not an algorithm; the algorithms are {}",
                    Algorithm::NAMES.join(", ")
                )
            })
    }
}

impl Serialize for Algorithm {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Algorithm {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct Name;
        impl serde::de::Visitor<'_> for Name {
            type Value = Algorithm;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an algorithm name")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Algorithm, E> {
                Algorithm::ALL
                    .into_iter()
                    .find(|a| a.name() == v)
                    .ok_or_else(|| E::unknown_variant(v, &Algorithm::NAMES))
            }
        }
        de.deserialize_str(Name)
    }
}

/// The scenario's `config` section: algorithm parameters, all optional (omitted = the core
/// machine's default). Keys that do not apply to the scenario's algorithm are rejected.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "ScenarioConfigFields", optional_fields))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AlgoConfig {
    // --- raft ---
    /// Raft: the minimum election timeout T in ms; each wait is drawn from
    /// `[T, election_timeout_max_ms)`, `[T, 2T)` by default (rule 6).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub election_timeout_ms: Option<Ms>,
    /// Raft: the exclusive upper end of the election-timeout range in ms (default 2T); must
    /// exceed `election_timeout_ms` (or the default T of 150 ms).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub election_timeout_max_ms: Option<Ms>,
    /// Raft and Bully: heartbeat interval in ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heartbeat_interval_ms: Option<Ms>,
    /// Raft: PreVote (Ongaro §9.6).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pre_vote: Option<bool>,
    /// Raft: CheckQuorum.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check_quorum: Option<bool>,
    /// Raft: the leader proposes a command this often, in ms (default 200).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub propose_interval_ms: Option<Ms>,
    /// Raft: the leader lease (needs CheckQuorum): a leader acts only while a quorum
    /// acknowledged it within T less the drift bound `max_drift_ppm`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leader_lease: Option<bool>,
    /// Raft: the clock-rate difference the leader lease allows for, in parts per million
    /// (default 10 000); the lease lasts `T - T * ppm / 1e6`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leader_lease_drift_ppm: Option<u32>,
    // --- lease ---
    /// Lease: time to live in ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<Ms>,
    /// Lease: safety margin in ms (rule 4/5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub safety_margin_ms: Option<Ms>,
    /// Lease: renewal interval in ms (default ttl/3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renew_interval_ms: Option<Ms>,
    /// Lease: retry interval in ms while not leader.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_interval_ms: Option<Ms>,
    /// Lease: the leader writes to the resource this often, in ms (default 100).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write_interval_ms: Option<Ms>,
    /// Lease: the clock-rate difference the safety margin must cover, in parts per million
    /// (rule 5; default: the core's `LeaseConfig` default). Drift faults within this bound
    /// keep the lease's promise of no split brain.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_drift_ppm: Option<u32>,
    /// Lease: the round trip that renew interval + round trip must fit in `ttl - margin`,
    /// in ms (rule 5; default 500).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_round_trip_ms: Option<Ms>,
    /// Lease: the holder id every contender claims, instead of its own node id: the
    /// misconfiguration of design rule 8 (two processes with one identity). Each contender is
    /// still its own session, so the store keeps all but one out. At most 2^32.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub holder_id: Option<u64>,
    /// Lease: the first fencing token the store issues (default 1), as a store continuing
    /// from a predecessor that issued every token below it (a control plane's generation
    /// 41 after 40 others). From 1 to 2^32, so every token of a run stays a whole JS number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_token: Option<u64>,
    // --- bully ---
    /// Bully: no heartbeat from the coordinator for this long (ms) starts an election.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_timeout_ms: Option<Ms>,
    /// Bully: wait this long (ms) for an Answer from a higher id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer_timeout_ms: Option<Ms>,
    /// Bully: after an Answer, wait this long (ms) for the Coordinator announcement.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coordinator_timeout_ms: Option<Ms>,
}

impl AlgoConfig {
    /// The core's config error words for this config: scenario keys (`safety_margin_ms`;
    /// `renamed` lists a machine key the scenario spells otherwise, as Raft's
    /// `max_drift_ppm` is `leader_lease_drift_ppm`), "(the default)" after a key this
    /// config does not set.
    pub(crate) fn config_words(
        &self,
        renamed: &[(&str, &str)],
        word: impl FnOnce(&tenure::config_words::Caller<'_>) -> String,
    ) -> String {
        let set = self.keys_set();
        let scenario_key = |k: &str| -> String {
            renamed
                .iter()
                .find(|(machine, _)| *machine == k)
                .map_or(k, |(_, scenario)| scenario)
                .to_string()
        };
        let given = |k: &str| set.contains(&scenario_key(k).as_str());
        let caller = tenure::config_words::Caller {
            given: &given,
            spell: &scenario_key,
            id: &|n| n.0.to_string(),
        };
        word(&caller)
    }
}

/// A whole run: algorithm, cluster size, parameters, network, seed, length and faults.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "ScenarioFields"))]
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Format version; must be 1 ([`SCENARIO_VERSION`]).
    #[cfg_attr(feature = "ts", ts(type = "1"))]
    pub version: u32,
    /// The algorithm every node runs.
    #[cfg_attr(feature = "ts", ts(skip))]
    pub algorithm: Algorithm,
    /// Number of election nodes, ids 1 to `nodes` (lease worlds add the store and resource).
    pub nodes: u64,
    /// Algorithm parameters.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub config: AlgoConfig,
    /// Default link behaviour.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<crate::ts::NetworkInput>", optional))]
    pub network: NetworkConfig,
    /// The seed every random choice of the run derives from: a JSON number, or a decimal
    /// string for seeds above 2^53 that JavaScript's `JSON.stringify` cannot write as one.
    #[serde(deserialize_with = "crate::units::u64_number_or_string")]
    #[cfg_attr(feature = "ts", ts(as = "Option<crate::ts::SeedInput>", optional))]
    pub seed: u64,
    /// Length of the run in ms of true time.
    pub duration_ms: Ms,
    /// Scheduled faults.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<TimedFault>>", optional))]
    pub faults: Vec<TimedFault>,
}

/// Why a scenario was refused. Messages are one line and name the offending value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ScenarioError {
    /// The JSON did not parse or did not match the format.
    #[error("scenario: {0}")]
    Json(String),
    /// The `version` is not one this build reads.
    #[error(
        "scenario: version {found} is not supported (this build reads version {SCENARIO_VERSION})"
    )]
    Version {
        /// The version found.
        found: u32,
    },
    /// A value is out of range or inconsistent.
    #[error("scenario: {0}")]
    Invalid(String),
    /// The run stopped in a message storm ([`crate::World::storm`]): its queue of events grew
    /// past the bound. The simulator's one line, as `tenure run` and `Simulation` say it.
    #[error("{0}")]
    Storm(String),
}

impl Scenario {
    /// A scenario with no faults and default parameters.
    pub fn new(algorithm: Algorithm, nodes: u64, seed: u64, duration_ms: u64) -> Scenario {
        Scenario {
            version: SCENARIO_VERSION,
            algorithm,
            nodes,
            config: AlgoConfig::default(),
            network: NetworkConfig::default(),
            seed,
            duration_ms: Ms::from_millis(duration_ms),
            faults: Vec::new(),
        }
    }

    /// Parses and validates scenario JSON text (a file the caller wrote): errors name the key
    /// and the line and column (`nodes: expected a whole number 0 or more, got the string
    /// "3" at line 1 column 43`).
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let s: Scenario = crate::serde_words::from_text(text).map_err(|mut e| {
            if e.path == "config" {
                let doc = serde_json::from_str::<serde_json::Value>(text).unwrap_or_default();
                narrow_config_error(&mut e.detail, &doc["algorithm"]);
            }
            ScenarioError::Json(e.words())
        })?;
        s.validate()?;
        Ok(s)
    }

    /// Reads and validates a scenario given as JSON data rather than text (built from the
    /// command line, or from a JS object): errors name the key, with no line or column.
    pub fn from_value(value: serde_json::Value) -> Result<Scenario, ScenarioError> {
        let algorithm = value["algorithm"].clone();
        let s: Scenario = crate::serde_words::from_value(value).map_err(|mut e| {
            if e.path == "config" {
                narrow_config_error(&mut e.detail, &algorithm);
            }
            ScenarioError::Json(e.words())
        })?;
        s.validate()?;
        Ok(s)
    }

    /// Pretty JSON for this scenario.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Adds a fault at `at_ms`.
    pub fn with_fault(mut self, at_ms: u64, fault: Fault) -> Scenario {
        self.faults.push(TimedFault {
            at_ms: Ms::from_millis(at_ms),
            fault,
        });
        self
    }

    /// Whether `p` exists in a world built from this scenario.
    pub fn has_proc(&self, p: Proc) -> bool {
        match p {
            Proc::Node(NodeId(id)) => id >= 1 && id <= self.nodes,
            other => self.algorithm.spec().extra_procs.contains(&other),
        }
    }

    /// Checks version, sizes, config keys, the network and that faults name real processes.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if self.version != SCENARIO_VERSION {
            return Err(ScenarioError::Version {
                found: self.version,
            });
        }
        if self.nodes == 0 || self.nodes > MAX_NODES {
            return Err(ScenarioError::Invalid(format!(
                "nodes {} must be a whole number from 1 to {MAX_NODES}",
                self.nodes
            )));
        }
        if self.duration_ms.micros() > MAX_DURATION_MS.saturating_mul(1000) {
            return Err(ScenarioError::Invalid(format!(
                "duration_ms {} is above the longest run, {MAX_DURATION_MS} ms (about 11.6 \
                 days of simulated time); split a longer study into runs over seeds",
                crate::units::float_text(crate::units::us_to_ms(self.duration_ms.micros()))
            )));
        }
        let spec = self.algorithm.spec();
        for key in self.config.keys_set() {
            if !spec.config_keys.contains(&key) {
                return Err(ScenarioError::Invalid(format!(
                    "config key `{key}` does not apply to algorithm {}",
                    self.algorithm
                )));
            }
        }
        self.network.params().map_err(ScenarioError::Invalid)?;
        for (i, tf) in self.faults.iter().enumerate() {
            validate_fault(self, &tf.fault)
                .map_err(|e| ScenarioError::Invalid(format!("faults[{i}] at {}: {e}", tf.at_ms)))?;
        }
        Ok(())
    }
}
