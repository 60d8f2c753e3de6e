//! Shared argument types and parsers: durations (`60s`, `1500ms`, `2m`) and timeout ranges.

use crate::scenario::Algorithm;
use clap::Args;

pub use crate::duration::parse_duration_ms;
pub(crate) use crate::duration::{MAX_FLAG_MS, split_unit};

/// Parses a Raft election timeout range `min-max` (`150-300`, `150-155`, `1s-2s`) or just `T`
/// (`150`, `1s`, meaning `T-2T`): each end is a knob in ms, a plain number or a duration with
/// a unit, as every `-ms` flag takes it. Each timeout is drawn from `[min, max)` (design
/// rule 6), so `max` must exceed `min`. Returns `(min, max)` in ms.
pub fn parse_timeouts(s: &str) -> Result<(u64, u64), String> {
    let num = |v: &str| {
        parse_ms_knob(v)
            .map_err(|_| format!("`{s}` is not a timeout range in ms (each end at most 10^15), as in 150-300, 1s-2s or 150"))
    };
    let (lo, hi) = match s.split_once('-') {
        Some((a, b)) => (num(a)?, Some(num(b)?)),
        None => (num(s)?, None),
    };
    if lo == 0 {
        return Err(format!(
            "`{s}` starts below 1 ms: an election timeout is at least 1 ms"
        ));
    }
    let hi = hi.unwrap_or(lo.saturating_mul(2));
    if hi <= lo {
        return Err(format!(
            "`{s}` is not a range whose max exceeds its min: timeouts are drawn from [min, max) \
             (design rule 6)"
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

/// Parses a knob named in milliseconds (`--ttl-ms 2000`): a bare number is ms, as the name
/// says; a duration with a unit (`2s`) is accepted too.
pub(crate) fn parse_ms_knob(s: &str) -> Result<u64, String> {
    let t = s.trim();
    if let Ok(n) = t.parse::<u64>()
        && n <= MAX_FLAG_MS
    {
        return Ok(n);
    }
    if t.parse::<f64>().is_ok() {
        return Err(format!(
            "`{s}` is not a whole number of milliseconds from 0 to 10^15 (the resolution of \
             -ms flags is 1 ms)"
        ));
    }
    parse_duration_ms(t)
}

/// A whole number from `lo` to `hi`, refused in words (`` `x` is not a number of nodes from
/// 1 to 64 ``) rather than with the parser's "invalid digit found in string".
fn whole(s: &str, what: &str, lo: u64, hi: u64) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(format!("`{s}` is not {what} from {lo} to {hi}")),
    }
}

/// `--nodes`: 1 to [`crate::scenario::MAX_NODES`].
pub(crate) fn parse_nodes(s: &str) -> Result<u64, String> {
    whole(s, "a number of nodes", 1, crate::scenario::MAX_NODES)
}

/// `--seed`: any 64-bit seed, 0 to 2^64 - 1.
pub(crate) fn parse_seed(s: &str) -> Result<u64, String> {
    let t = s.trim();
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) && t.parse::<u64>().is_err() {
        return Err(format!(
            "`{s}` is above the largest seed, 2^64 - 1 (18446744073709551615)"
        ));
    }
    whole(s, "a seed (a whole number)", 0, u64::MAX)
}

/// A count of steps, faults or states: 0 to `hi`.
pub(crate) fn parse_count(s: &str) -> Result<u64, String> {
    whole(s, "a whole number", 0, u64::MAX)
}

/// A count of 1 or more (`search --shrink-steps`: 0 would try nothing, as JS's
/// `Search.shrink` refuses).
pub(crate) fn parse_positive_count(s: &str) -> Result<u64, String> {
    whole(s, "a whole number", 1, u64::MAX)
}

/// A count that fits 32 bits (`check --steps`, `--faults`).
pub(crate) fn parse_small_count(s: &str) -> Result<u32, String> {
    whole(s, "a whole number", 0, u64::from(u32::MAX)).map(|n| u32::try_from(n).unwrap_or(u32::MAX))
}

/// A rate such as pauses per hour: a finite number, 0 or more.
pub(crate) fn parse_rate(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!(
            "`{s}` is not a rate: give a number, 0 or more (6, 0.5)"
        )),
    }
}

/// Most worker threads `--jobs` starts.
pub(crate) const MAX_JOBS: usize = 256;

/// `--jobs`: 1 to [`MAX_JOBS`] worker threads.
pub(crate) fn parse_jobs(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_JOBS).contains(&n) => Ok(n),
        Ok(0) => Err(format!(
            "`{s}` would run nothing: give 1 to {MAX_JOBS} worker threads (the default is one per \
             core)"
        )),
        _ => Err(format!(
            "`{s}` is not a number of worker threads from 1 to {MAX_JOBS}"
        )),
    }
}

/// The `--families` help: every family's name.
pub(crate) fn families_help() -> String {
    let names: Vec<&str> = crate::chaos::Family::ALL.iter().map(|f| f.name()).collect();
    format!(
        "Comma-separated fault families (default: all that apply to the algorithm): {}",
        names.join(", ")
    )
}

/// A flag that was renamed: always refused, with a message naming the new spelling.
pub(crate) fn renamed(
    old: &'static str,
    new: &'static str,
) -> impl Fn(&str) -> Result<String, String> + Clone {
    move |_| {
        Err(format!(
            "{old} was renamed {new} (the machine's knob name, in milliseconds); use {new}"
        ))
    }
}

/// The options `chaos` and `search` share, as one set of flags (each command sets its own
/// defaults with `mut_arg`, so `--help` shows them).
#[derive(Debug, Args, Clone)]
pub(crate) struct ChaosFlags {
    #[arg(long, value_parser = Algorithm::from_str_arg,
          help = super::algorithm_help(), long_help = super::algorithm_long_help())]
    pub(crate) algorithm: Algorithm,
    /// Number of nodes (1 to 64).
    #[arg(long, value_parser = parse_nodes)]
    pub(crate) nodes: Option<u64>,
    /// Faulty period of each run: 120s, 2m, 1500ms.
    #[arg(long, allow_hyphen_values = true, value_parser = parse_duration_ms)]
    pub(crate) duration: Option<u64>,
    /// Quiet period after the heal; a leader must appear within the liveness bound.
    #[arg(long, allow_hyphen_values = true, value_parser = parse_duration_ms)]
    pub(crate) heal: Option<u64>,
    /// Seed of the first run; run i uses seed + i.
    #[arg(long, default_value_t = 0, value_parser = parse_seed)]
    pub(crate) seed: u64,
    #[arg(long, value_delimiter = ',', value_parser = crate::chaos::Family::from_str_arg,
          help = families_help())]
    pub(crate) families: Vec<crate::chaos::Family>,
    #[command(flatten)]
    pub(crate) raft: RaftFlags,
    #[command(flatten)]
    pub(crate) config: super::config_flags::ConfigFlags,
}

impl ChaosFlags {
    /// The campaign these flags describe, checked by [`crate::chaos::ChaosOptions::validate`].
    pub(crate) fn options(&self) -> Result<crate::chaos::ChaosOptions, String> {
        let mut opts = crate::chaos::ChaosOptions::new(self.algorithm);
        if let Some(n) = self.nodes {
            opts.nodes = n;
        }
        if let Some(d) = self.duration {
            opts.duration_ms = d;
        }
        if let Some(h) = self.heal {
            opts.heal_ms = h;
        }
        // The run is the faults' part and then the heal: say so in the flags' words before
        // the scenario's own check says `duration_ms` of a sum nobody typed.
        let run_ms = opts.duration_ms.saturating_add(opts.heal_ms);
        if run_ms > crate::scenario::MAX_DURATION_MS {
            return Err(format!(
                "--duration {} ms plus --heal {} ms make a run of {run_ms} ms, above the \
                 longest run, {} ms: shorten one of them",
                opts.duration_ms,
                opts.heal_ms,
                crate::scenario::MAX_DURATION_MS
            ));
        }
        opts.seed = self.seed;
        opts.pre_vote = self.raft.pre_vote();
        opts.check_quorum = self.raft.check_quorum();
        opts.config = self.config.config(&opts.config, "this command")?;
        if !self.families.is_empty() {
            opts.families = self.families.clone();
        }
        opts.validate()?;
        Ok(opts)
    }
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

/// `1 run`, `3 runs`: a count with its noun, singular for one.
pub(crate) fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A file error in words, with the path: "no such file", not "No such file or directory
/// (os error 2)".
pub(crate) fn io_words(e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match e.kind() {
        ErrorKind::NotFound => "no such file or folder".into(),
        ErrorKind::PermissionDenied => "permission denied".into(),
        ErrorKind::IsADirectory => "it is a folder, not a file".into(),
        ErrorKind::NotADirectory => "a part of the path is a file, not a folder".into(),
        ErrorKind::AlreadyExists => "it already exists".into(),
        ErrorKind::StorageFull => "the disk is full".into(),
        ErrorKind::ReadOnlyFilesystem => "the file system is read-only".into(),
        _ => {
            let text = e.to_string();
            match text.find(" (os error ") {
                Some(i) => text[..i].to_lowercase(),
                None => text,
            }
        }
    }
}

/// Refuses an output path whose folder does not exist (or is not a folder) before a long
/// command runs, so that its result is not lost at the end: `what` names the flag.
pub(crate) fn check_out_path(path: &std::path::Path, what: &str) -> Result<(), String> {
    if path == std::path::Path::new("-") {
        // `-` is stdout for `run --trace` and `failover --svg`; a scenario file must be a
        // file, since the replay command names it (a file named "-" would be a trap).
        return Err(format!(
            "{what} -: the scenario goes to a file that the replay command names, not to stdout; \
             give a file name, as in {what} found.json"
        ));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(format!(
                "{what} {}: {} is a file, not a folder",
                path.display(),
                dir.display()
            ));
        }
        Err(e) => {
            return Err(format!(
                "{what} {}: cannot write there, the folder {}: {}",
                path.display(),
                dir.display(),
                io_words(&e)
            ));
        }
    }
    if path.is_dir() {
        return Err(format!(
            "{what} {}: it is a folder, not a file",
            path.display()
        ));
    }
    Ok(())
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
