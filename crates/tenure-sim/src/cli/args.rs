//! Shared argument types and parsers: durations (`60s`, `1500ms`, `2m`) and timeout ranges.

use crate::scenario::Algorithm;
use clap::Args;

/// Parses `60s`, `1500ms`, `2m`, `1.5s` into whole milliseconds; a unit is required, and a
/// value that is not a whole number of milliseconds (`1.5ms`, `0.0001s`) is refused rather
/// than rounded.
pub fn parse_duration_ms(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (num, scale) = if let Some(v) = t.strip_suffix("ms") {
        (v, 1.0)
    } else if let Some(v) = t.strip_suffix('s') {
        (v, 1_000.0)
    } else if let Some(v) = t.strip_suffix('m') {
        (v, 60_000.0)
    } else if let Some(v) = t.strip_suffix('h') {
        (v, 3_600_000.0)
    } else {
        return Err(format!(
            "`{s}` is not a duration: give a unit, as in 60s, 1500ms or 2m"
        ));
    };
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a duration: `{num}` is not a number"))?;
    let ms = v * scale;
    if !ms.is_finite() || !(0.0..=1e15).contains(&ms) {
        return Err(format!("`{s}` is not a duration between 0 and 10^15 ms"));
    }
    if (ms - ms.round()).abs() > 1e-6 {
        return Err(format!("`{s}` is not a whole number of milliseconds"));
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Ok(ms.round() as u64)
}

/// Parses a Raft election timeout range `min-max` in ms (`150-300`, `150-155`) or just `T`
/// (`150`, meaning `150-300`): each timeout is drawn from `[min, max)` (design rule 6), so
/// `max` must exceed `min`. Returns `(min, max)`.
pub fn parse_timeouts(s: &str) -> Result<(u64, u64), String> {
    let num = |v: &str| {
        v.trim()
            .trim_end_matches("ms")
            .parse::<u64>()
            .map_err(|_| format!("`{s}` is not a timeout range in ms, as in 150-300"))
    };
    let (lo, hi) = match s.split_once('-') {
        Some((a, b)) => (num(a)?, Some(num(b)?)),
        None => (num(s)?, None),
    };
    if lo == 0 {
        return Err(format!("timeouts `{s}`: the minimum must be at least 1 ms"));
    }
    let hi = hi.unwrap_or(lo.saturating_mul(2));
    if hi <= lo {
        return Err(format!(
            "timeouts `{s}`: timeouts are drawn from [min, max) (rule 6), so max must exceed min"
        ));
    }
    Ok((lo, hi))
}

/// Most runs `chaos` takes in one campaign (about a day of CPU at 120 s per run; split larger
/// campaigns over seeds).
pub(crate) const MAX_CHAOS_RUNS: u64 = 10_000_000;
/// Most crashes `failover` measures per setting (the same cap as the JS `failoverMeasure`).
pub(crate) const MAX_FAILOVER_RUNS: u64 = 100_000;

/// A run count from 1 to `max`, refused in words otherwise.
fn parse_runs(s: &str, max: u64) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!("`{s}` is not a number of runs from 1 to {max}")),
    }
}

/// `--runs` of `chaos`: 1 to [`MAX_CHAOS_RUNS`].
pub(crate) fn parse_chaos_runs(s: &str) -> Result<u64, String> {
    parse_runs(s, MAX_CHAOS_RUNS)
}

/// `--runs` of `failover`: 1 to [`MAX_FAILOVER_RUNS`].
pub(crate) fn parse_failover_runs(s: &str) -> Result<u64, String> {
    parse_runs(s, MAX_FAILOVER_RUNS)
}

/// Raft options shared by subcommands.
#[derive(Debug, Args, Clone, Copy, Default)]
pub(crate) struct RaftFlags {
    /// Raft: enable PreVote.
    #[arg(long, conflicts_with = "no_pre_vote")]
    pub(crate) pre_vote: bool,
    /// Raft: disable PreVote.
    #[arg(long)]
    pub(crate) no_pre_vote: bool,
    /// Raft: enable CheckQuorum.
    #[arg(long, conflicts_with = "no_check_quorum")]
    pub(crate) check_quorum: bool,
    /// Raft: disable CheckQuorum.
    #[arg(long)]
    pub(crate) no_check_quorum: bool,
}

impl RaftFlags {
    fn pick(on: bool, off: bool) -> Option<bool> {
        match (on, off) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        }
    }

    pub(crate) fn pre_vote(&self) -> Option<bool> {
        Self::pick(self.pre_vote, self.no_pre_vote)
    }

    pub(crate) fn check_quorum(&self) -> Option<bool> {
        Self::pick(self.check_quorum, self.no_check_quorum)
    }

    /// Refuses Raft flags for other algorithms.
    pub(crate) fn check(&self, algorithm: Algorithm) -> Result<(), String> {
        let any = self.pre_vote().is_some() || self.check_quorum().is_some();
        if any && algorithm != Algorithm::Raft {
            return Err(format!(
                "--pre-vote/--check-quorum apply to raft, not {algorithm}"
            ));
        }
        Ok(())
    }
}

/// Formats microseconds as milliseconds for summaries.
pub(crate) fn ms(us: u64) -> String {
    let v = crate::units::us_to_ms(us);
    if v >= 100.0 {
        format!("{v:.0} ms")
    } else {
        format!("{v:.1} ms")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_need_a_unit() {
        assert_eq!(parse_duration_ms("60s"), Ok(60_000));
        assert_eq!(parse_duration_ms("1500ms"), Ok(1_500));
        assert_eq!(parse_duration_ms("2m"), Ok(120_000));
        assert_eq!(parse_duration_ms("1.5s"), Ok(1_500));
        assert!(parse_duration_ms("60").is_err());
        assert!(parse_duration_ms("-1s").is_err());
        assert!(parse_duration_ms("xs").is_err());
        // Not rounded away (new-user review: `0.0001ms` used to run for 0 ms).
        assert!(parse_duration_ms("0.0001ms").is_err());
        assert!(parse_duration_ms("1.5ms").is_err());
        assert_eq!(parse_duration_ms("0.1s"), Ok(100));
    }

    #[test]
    fn run_counts_are_bounded_in_words() {
        assert_eq!(parse_failover_runs("100000"), Ok(100_000));
        assert_eq!(parse_chaos_runs("1"), Ok(1));
        for bad in ["0", "-1", "x", "100001"] {
            let e = parse_failover_runs(bad).unwrap_err();
            assert_eq!(
                e,
                format!("`{bad}` is not a number of runs from 1 to 100000")
            );
        }
        assert!(parse_chaos_runs("99999999999999").is_err());
    }

    #[test]
    fn timeouts_follow_rule_6() {
        assert_eq!(parse_timeouts("150-300"), Ok((150, 300)));
        assert_eq!(parse_timeouts("150"), Ok((150, 300)));
        assert_eq!(parse_timeouts("150-155"), Ok((150, 155)));
        assert_eq!(parse_timeouts("150ms-200ms"), Ok((150, 200)));
        assert!(parse_timeouts("150-150").is_err());
        assert!(parse_timeouts("200-150").is_err());
        assert!(parse_timeouts("0").is_err());
        assert!(parse_timeouts("a-b").is_err());
    }
}
