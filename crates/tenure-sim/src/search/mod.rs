//! Counterexample search: run seeded chaos schedules until one violates a property, then
//! shrink it to a small scenario that replays bit for bit (docs/search.md).
//!
//! One implementation serves the CLI (`tenure search`) and the wasm bindings: a [`Search`]
//! runs in batches ([`Search::run_batch`]), so the caller owns the budget (runs or wall time)
//! and can cancel between batches. Run `i` of a search with seed `S` is the chaos run of seed
//! `S + i` ([`crate::chaos::scenario`]), so a search is deterministic for its seed and a
//! `tenure chaos` failure is a search hit.
//!
//! - [`property`]: what to look for, and the monitor that watches a run.
//! - [`mod@shrink`]: delta debugging over the faults, then numeric shrinking.
//! - `explore` (CLI builds): the bounded exhaustive check.

#[cfg(feature = "cli")]
pub mod explore;
pub mod property;
pub mod shrink;

pub use property::{Monitor, Outcome, Property, Witness, evaluate};
pub use shrink::{ShrinkReport, Size, shrink};

use crate::chaos::{self, ChaosOptions};
use crate::scenario::{AlgoConfig, Scenario, ScenarioError};
use serde::Serialize;

/// What a search runs: the chaos options (algorithm, nodes, config, families, lengths, first
/// seed) and the property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Schedules are drawn as `tenure chaos` draws them; `runs` is ignored (the caller's
    /// budget decides).
    pub chaos: ChaosOptions,
    /// Algorithm parameters laid over the drawn scenario's (keys set here win), e.g. a
    /// lease with a thin safety margin.
    pub config: AlgoConfig,
    /// What to look for.
    pub property: Property,
}

impl SearchOptions {
    /// Options with the chaos defaults for `algorithm` and no extra config.
    pub fn new(chaos: ChaosOptions, property: Property) -> SearchOptions {
        SearchOptions {
            chaos,
            config: AlgoConfig::default(),
            property,
        }
    }

    /// The scenario of run seed `seed`: the chaos schedule with the config laid over it.
    pub fn scenario(&self, seed: u64) -> Scenario {
        let mut s = chaos::scenario(&self.chaos, seed);
        s.config = overlay(&s.config, &self.config);
        s
    }
}

/// `base` with every key set in `top` replaced.
fn overlay(base: &AlgoConfig, top: &AlgoConfig) -> AlgoConfig {
    let (Ok(serde_json::Value::Object(mut b)), Ok(serde_json::Value::Object(t))) =
        (serde_json::to_value(base), serde_json::to_value(top))
    else {
        return base.clone();
    };
    b.extend(t);
    serde_json::from_value(serde_json::Value::Object(b)).unwrap_or_else(|_| base.clone())
}

/// A run that violated the property.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Found {
    /// Which run of the search (0-based).
    pub run: u64,
    /// Its seed.
    pub seed: u64,
    /// The failing scenario, as drawn.
    pub scenario: Scenario,
    /// The violation.
    pub witness: Witness,
}

/// Where a search stands.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Runs done.
    pub runs: u64,
    /// Trace events processed over all runs.
    pub events: u64,
    /// The best score so far ([`Monitor::score`]) and the seed that reached it.
    pub best_score: u64,
    /// The seed of the best run so far.
    pub best_seed: Option<u64>,
    /// Whether a violation was found.
    pub found: bool,
}

/// A search in progress.
#[derive(Clone, Debug)]
pub struct Search {
    opts: SearchOptions,
    progress: Progress,
    found: Option<Found>,
}

impl Search {
    /// A search; the first schedule is drawn and validated, so bad options fail here.
    pub fn new(opts: SearchOptions) -> Result<Search, ScenarioError> {
        opts.chaos.validate().map_err(ScenarioError::Invalid)?;
        opts.property.check_applies(opts.chaos.algorithm)?;
        opts.scenario(opts.chaos.seed).validate()?;
        Ok(Search {
            opts,
            progress: Progress::default(),
            found: None,
        })
    }

    /// The options.
    pub fn options(&self) -> &SearchOptions {
        &self.opts
    }

    /// Runs up to `runs` more runs, stopping at the first violation; returns whether one
    /// was found (now or before).
    pub fn run_batch(&mut self, runs: u64) -> Result<bool, ScenarioError> {
        for _ in 0..runs {
            if self.found.is_some() {
                break;
            }
            let run = self.progress.runs;
            let seed = self.opts.chaos.seed.wrapping_add(run);
            let scenario = self.opts.scenario(seed);
            let out = evaluate(&scenario, self.opts.property, false)?;
            self.progress.runs = run.saturating_add(1);
            self.progress.events = self.progress.events.saturating_add(out.events);
            if self.progress.best_seed.is_none() || out.score > self.progress.best_score {
                self.progress.best_score = out.score;
                self.progress.best_seed = Some(seed);
            }
            if let Some(witness) = out.witness {
                self.progress.found = true;
                self.found = Some(Found {
                    run,
                    seed,
                    scenario,
                    witness,
                });
            }
        }
        Ok(self.found.is_some())
    }

    /// Where the search stands.
    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// The violation found, if any.
    pub fn found(&self) -> Option<&Found> {
        self.found.as_ref()
    }
}
