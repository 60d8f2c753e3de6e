//! `tenure search`: run seeded chaos schedules until one violates a property, shrink it,
//! and print the scenario file, its replay command and its playground link.
//!
//! Exit codes: 1 when a violation was found, 0 when none was within the budget, 2 for bad
//! arguments.

use super::CliError;
use super::args::ms;
use super::args::{ChaosFlags, parse_duration_ms};
use super::out::{errln, outln};
use super::permalink;
use crate::scenario::{AlgoConfig, Algorithm};
use crate::search::{Progress, Property, Search, SearchOptions, shrink};
use clap::Args;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A search budget: a number of runs or a wall-clock time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SearchBudget {
    /// At most this many runs.
    Runs(u64),
    /// At most this long.
    Time(Duration),
}

fn parse_budget(s: &str) -> Result<SearchBudget, String> {
    if let Ok(n) = s.trim().parse::<u64>() {
        return if n == 0 {
            Err(format!(
                "`{s}` would search nothing: give at least 1 run (10000) or a time (60s)"
            ))
        } else {
            Ok(SearchBudget::Runs(n))
        };
    }
    let ms = parse_duration_ms(s).map_err(|e| {
        if e.contains("unknown unit") {
            e
        } else {
            format!("`{s}` is neither a number of runs (10000) nor a time (60s)")
        }
    })?;
    if ms == 0 {
        return Err(format!("`{s}` would search for no time: give more than 0s"));
    }
    Ok(SearchBudget::Time(Duration::from_millis(ms)))
}

/// A property as [`Property`] reads it (the duration of `no-leader-for=` by the duration
/// flags' own parser: `2m`, `1h`, and a unit they do not take named as they name it).
pub(crate) fn parse_property(s: &str) -> Result<Property, String> {
    s.parse()
}

pub(crate) fn parse_config(s: &str) -> Result<AlgoConfig, String> {
    // A JSON syntax error points at its column; a wrong key or value names the key, with no
    // line or column (one argument has no lines to point at).
    let value: serde_json::Value =
        crate::serde_words::from_text(s).map_err(|e| format!("`{s}` is not JSON: {e}"))?;
    // A key given twice: serde_json's value keeps the last, where a scenario file's `config`
    // refuses it.
    super::json_text::refuse_duplicate_keys(s)
        .map_err(|e| format!("`{s}` is not a config object: {e}"))?;
    // An array would be read as the config's fields in order (`[1, 2]`): only an object names
    // its keys.
    if !value.is_object() {
        return Err(format!(
            "`{s}` is not a config object: give a JSON object of config keys, as in {{\"ttl_ms\": 2000}}"
        ));
    }
    crate::serde_words::from_value(value).map_err(|e: crate::serde_words::KeyedError| {
        // A refused number is quoted as written (`1e20`, not 100000000000000000000): the text
        // read again gives its place, and the place its literal.
        let mut body = crate::serde_words::words_at(&e.path, &e.detail);
        let place = crate::serde_words::from_text::<AlgoConfig>(s).err();
        if let Some(literal) = place.and_then(|p| super::json_text::number_at(s, &p.position)) {
            body = super::json_text::number_as_written(&body, literal).unwrap_or(body);
        }
        if e.path.is_empty() {
            format!("`{s}` is not a config object: {body}")
        } else {
            format!("`{s}` is not a config object: {}: {body}", e.path)
        }
    })
}

#[derive(Debug, Args)]
pub(crate) struct SearchArgs {
    #[command(flatten)]
    chaos: ChaosFlags,
    /// any-promised, split-brain, stale-write, no-leader-for=DURATION (2s, 1500ms), or an
    /// invariant name (election-safety, token-monotonic, ...).
    #[arg(long, value_parser = parse_property)]
    property: Property,
    /// Runs (10000) or wall time (60s).
    #[arg(long, default_value = "10000", allow_hyphen_values = true, value_parser = parse_budget)]
    budget: SearchBudget,
    /// Where to write the shrunk scenario (default: tenure-<algorithm>-<property>.json here).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Most candidate runs the shrinker may try.
    #[arg(long, default_value_t = 2_000, value_parser = super::args::parse_positive_count)]
    shrink_steps: u64,
}

fn property_slug(p: Property) -> String {
    p.to_string()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

pub(crate) fn default_out(algorithm: Algorithm, property: Property) -> PathBuf {
    PathBuf::from(format!(
        "tenure-{algorithm}-{}.json",
        property_slug(property)
    ))
}

fn describe(p: &Progress, property: Property, wall: Duration) -> String {
    let rate = p.runs as f64 / wall.as_secs_f64().max(1e-9);
    let best = match property {
        Property::SplitBrain => format!("longest split brain {}", ms(p.best_score)),
        Property::StaleWrite => format!("{} stale writes", p.best_score),
        Property::NoLeaderFor { .. } => format!("longest leaderless {}", ms(p.best_score)),
        _ => format!("{} violations", p.best_score),
    };
    format!("{rate:.0} runs/s, best so far: {best}")
}

pub(crate) fn run(a: SearchArgs) -> Result<bool, CliError> {
    let mut chaos = a.chaos.options().map_err(CliError::usage)?;
    if let Some(out) = &a.out {
        super::args::check_out_path(out, "--out").map_err(CliError::usage)?;
    }
    // Before the search, not after it: a refusal at the end would lose what it found.
    match &a.out {
        Some(out) => permalink::check_replaceable(out, true),
        None => permalink::check_replaceable(&default_out(chaos.algorithm, a.property), false),
    }
    .map_err(CliError::usage)?;
    let (algorithm, nodes, seed) = (chaos.algorithm, chaos.nodes, chaos.seed);
    outln!(
        "tenure search: {algorithm} for {}, {nodes} nodes, {} ms of faults + {} ms heal, seed {seed}",
        a.property,
        chaos.duration_ms,
        chaos.heal_ms
    );
    let config = std::mem::take(&mut chaos.config);
    let mut opts = SearchOptions::new(chaos, a.property);
    opts.config = config;
    let mut search = Search::new(opts).map_err(|e| CliError::usage(e.to_string()))?;
    let start = Instant::now();
    let bar = super::progress::wanted().then(|| {
        let bar = match a.budget {
            SearchBudget::Runs(n) => indicatif::ProgressBar::new(n),
            SearchBudget::Time(_) => indicatif::ProgressBar::new_spinner(),
        };
        let template = match a.budget {
            SearchBudget::Runs(_) => "{bar:30} {pos}/{len} runs, {msg}",
            SearchBudget::Time(_) => "{spinner} {pos} runs in {elapsed}, {msg}",
        };
        let style = indicatif::ProgressStyle::with_template(template)
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
        bar.set_style(style);
        bar
    });
    let mut last_line = Instant::now();
    loop {
        let done = search.progress().runs;
        let batch = match a.budget {
            SearchBudget::Runs(n) if done >= n => break,
            SearchBudget::Runs(n) => (n - done).min(16),
            SearchBudget::Time(t) if start.elapsed() >= t => break,
            SearchBudget::Time(_) => 4,
        };
        let found = search
            .run_batch(batch)
            .map_err(|e| CliError::usage(e.to_string()))?;
        let line = describe(search.progress(), a.property, start.elapsed());
        if let Some(bar) = &bar {
            bar.set_position(search.progress().runs);
            bar.set_message(line);
        } else if last_line.elapsed() >= Duration::from_secs(1) || found {
            errln!(
                "{}, {line}",
                super::args::count(search.progress().runs, "run")
            );
            last_line = Instant::now();
        }
        if found {
            break;
        }
    }
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let wall = start.elapsed();
    let Some(found) = search.found().cloned() else {
        outln!(
            "no violation of {} in {} ({:.1} s, {})",
            a.property,
            super::args::count(search.progress().runs, "run"),
            wall.as_secs_f64(),
            describe(search.progress(), a.property, wall)
        );
        return Ok(false);
    };
    outln!(
        "found: {} at {} ms in run {} (seed {}): {}",
        found.witness.kind,
        found.witness.time_us / 1_000,
        found.run,
        found.seed,
        found.witness.detail
    );
    let t0 = Instant::now();
    let report = shrink(&found.scenario, a.property, a.shrink_steps)
        .map_err(|e| CliError::usage(e.to_string()))?;
    outln!(
        "shrunk: {} faults, {} nodes, {} ms -> {} faults, {} nodes, {} ms ({} steps, {:.1} ms); \
         {}/{} other seeds fail too",
        report.original.faults,
        report.original.nodes,
        report.original.duration_ms,
        report.shrunk.faults,
        report.shrunk.nodes,
        report.shrunk.duration_ms,
        report.steps,
        t0.elapsed().as_secs_f64() * 1_000.0,
        report.other_seeds_failing,
        crate::search::shrink::SEED_PROBES,
    );
    outln!(
        "  violation:  {} at {}: {}",
        report.witness.kind,
        ms(report.witness.time_us),
        report.witness.detail
    );
    let out = a.out.unwrap_or_else(|| default_out(algorithm, a.property));
    permalink::emit(&report.scenario, &out, report.witness.time_us / 1_000)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_are_runs_or_time() {
        assert_eq!(parse_budget("10000"), Ok(SearchBudget::Runs(10_000)));
        assert_eq!(
            parse_budget("60s"),
            Ok(SearchBudget::Time(Duration::from_secs(60)))
        );
        assert!(parse_budget("0").is_err());
        assert!(parse_budget("0s").is_err());
        assert!(parse_budget("lots").is_err());
    }
}
