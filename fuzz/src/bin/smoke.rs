//! The fuzz target bodies on stable, from a seeded generator: `smoke [--seconds S] [--seed N]
//! [raft|bully|lease ...]`. Prints each target's exec count; a failed assertion panics and
//! exits non-zero, naming the case's seed so it replays with `--seed`.

use std::time::{Duration, Instant};

/// SplitMix64, enough to spread cases; the machines' own PRNG is not what is under test.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn case(seed: u64) -> Vec<u8> {
    let mut s = seed;
    let len = (next(&mut s) % 4_096) as usize;
    (0..len).map(|_| next(&mut s) as u8).collect()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut seconds = 10u64;
    let mut seed = 0u64;
    let mut targets = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seconds" => seconds = args.next().and_then(|v| v.parse().ok()).unwrap_or(10),
            "--seed" => seed = args.next().and_then(|v| v.parse().ok()).unwrap_or(0),
            t => targets.push(t.to_string()),
        }
    }
    if targets.is_empty() {
        targets = vec!["raft".into(), "bully".into(), "lease".into()];
    }
    for t in &targets {
        let body: fn(&[u8]) = match t.as_str() {
            "raft" => tenure_fuzz::raft,
            "bully" => tenure_fuzz::bully,
            "lease" => tenure_fuzz::lease,
            other => {
                eprintln!("unknown target `{other}` (expected raft, bully or lease)");
                std::process::exit(2);
            }
        };
        let start = Instant::now();
        let mut execs = 0u64;
        while start.elapsed() < Duration::from_secs(seconds) {
            let s = seed.wrapping_add(execs);
            let data = case(s);
            let r = std::panic::catch_unwind(|| body(&data));
            if r.is_err() {
                eprintln!("{t}: case seed {s} failed; replay: smoke --seconds 0 --seed {s} {t}");
                std::process::exit(1);
            }
            execs += 1;
            if seconds == 0 {
                break;
            }
        }
        println!(
            "{t}: {execs} execs in {:.1} s (stable, seeded generator)",
            start.elapsed().as_secs_f64()
        );
    }
}
