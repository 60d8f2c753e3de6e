//! The algorithm's config on the command line (`--config`, `--set`) for the commands that run
//! scenarios, and the knob flags those commands do not have, refused with the `--set` to use.

use clap::Args;

/// The algorithm's config on the command line, for every command that runs scenarios:
/// `--config` (the scenario's `config` JSON) and `--set key=value` laid over it.
#[derive(Debug, Args, Clone, Default)]
pub(crate) struct ConfigFlags {
    /// Algorithm parameters as the scenario's `config` JSON, e.g. '{"ttl_ms": 2000}'.
    #[arg(long, value_parser = super::search::parse_config)]
    pub(crate) config: Option<crate::scenario::AlgoConfig>,
    /// Set a config key (repeatable, after --config): `ttl_ms=2000`, `pre_vote=false`, a
    /// time with a unit (`election_timeout_ms=1s`); `run` also takes a dotted path from the
    /// scenario's top, `network.loss=0.05`, `network.latency_ms=5-30`.
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = super::fault_text::parse_set)]
    pub(crate) sets: Vec<(Vec<String>, serde_json::Value)>,
    // Knob flags of `failover` and the spellings before them: these commands take knobs
    // through --set, so each is refused with the --set that does what was meant.
    #[arg(long, hide = true, value_parser = through_set("ttl_ms"))]
    ttl: Option<String>,
    #[arg(long, hide = true, value_parser = through_set("ttl_ms"))]
    ttl_ms: Option<String>,
    #[arg(long, hide = true, value_parser = through_set("safety_margin_ms"))]
    margin: Option<String>,
    #[arg(long, hide = true, value_parser = through_set("safety_margin_ms"))]
    safety_margin_ms: Option<String>,
    #[arg(long, hide = true, value_parser = through_set("election_timeout_ms"))]
    timeouts: Option<String>,
    #[arg(long, hide = true, allow_hyphen_values = true,
          value_parser = through_set("election_timeout_ms"))]
    election_timeout_ms: Option<String>,
    #[arg(long, hide = true, value_parser = through_set("heartbeat_interval_ms"))]
    heartbeat_interval_ms: Option<String>,
    #[arg(long, hide = true, value_parser = through_set("failure_timeout_ms"))]
    failure_timeout_ms: Option<String>,
    #[arg(long, hide = true, value_parser = through_set("network.latency_ms"))]
    latency: Option<String>,
    #[arg(long, hide = true, value_parser = through_set("network.latency_ms"))]
    latency_ms: Option<String>,
}

/// A knob flag that commands taking `--set` do not have (`--ttl-ms` is `failover`'s; `--ttl`
/// the spelling before it): always refused, naming the `--set` that gives the value.
/// Clap's message names the flag and its value before this one.
fn through_set(key: &'static str) -> impl Fn(&str) -> Result<String, String> + Clone {
    move |value| {
        // A timeout range is two keys: the low end and the exclusive high end.
        let set = match value.split_once('-') {
            Some((lo, hi)) if key == "election_timeout_ms" && !lo.is_empty() => {
                format!("--set election_timeout_ms={lo} --set election_timeout_max_ms={hi}")
            }
            // The network's latency is a range; one value is a range of one.
            _ if key == "network.latency_ms" && !value.contains('-') => {
                format!("--set {key}={value}-{value}")
            }
            _ => format!("--set {key}={value}"),
        };
        let only_run = if key.starts_with("network.") {
            " (`run` only: chaos, search and check draw the network from their faults)"
        } else {
            ""
        };
        Err(format!(
            "not a flag of this command; give it as {set}{only_run}: knobs are in \
             milliseconds, and 2s works too"
        ))
    }
}

impl ConfigFlags {
    /// `base` with `--config` replacing it and each `--set` of a config key laid over it,
    /// read back through the scenario format (its keys and messages). A `--set` outside
    /// `config` is refused: only `run` takes the network.
    pub(crate) fn config(
        &self,
        base: &crate::scenario::AlgoConfig,
        command: &str,
    ) -> Result<crate::scenario::AlgoConfig, String> {
        let start = self.config.as_ref().unwrap_or(base);
        if self.sets.is_empty() {
            return Ok(start.clone());
        }
        let mut doc = serde_json::json!({ "config": start });
        for (path, value) in &self.sets {
            if path.first().map(String::as_str) != Some("config") {
                return Err(format!(
                    "--set {}: {command} takes config keys (--set ttl_ms=2000); the network is \
                     set in a scenario file or with `tenure run --set`",
                    path.join(".")
                ));
            }
            super::fault_text::apply_set(&mut doc, path, value.clone())?;
        }
        let config = doc.get("config").cloned().unwrap_or_default();
        crate::serde_words::from_value(config).map_err(|e| format!("--set: config.{e}"))
    }
}
