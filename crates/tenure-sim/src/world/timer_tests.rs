//! Every up process's queued timer event fires no later than its deadline's true time: the
//! invariant `reschedule`'s shortcut (no clock inverse when the deadline did not move earlier)
//! must keep through clock drift, clock jumps, pauses and crashes.

use super::*;
use crate::chaos::{ChaosOptions, Family, scenario};

#[test]
fn every_queued_timer_fires_no_later_than_its_deadline() {
    for algorithm in crate::scenario::Algorithm::ALL {
        let name = algorithm.spec().name;
        let mut opts = ChaosOptions::new(algorithm);
        opts.duration_ms = 20_000;
        opts.families = vec![
            Family::ClockBump,
            Family::ClockDrift,
            Family::Pause,
            Family::Kill,
        ];
        let mut checked = 0u64;
        for seed in 0..3 {
            let mut w = World::new(&scenario(&opts, seed)).unwrap_or_else(|e| unreachable!("{e}"));
            w.keep_recent_events(0);
            let end = w.end();
            while w.next_event_at().is_some_and(|at| at <= end) {
                w.step();
                for (p, state) in w.procs.iter().enumerate() {
                    if state.status != ProcStatus::Up {
                        continue;
                    }
                    let Some(local) = w.adapter.deadline(p) else {
                        continue;
                    };
                    let clock = w.clocks.get(p).copied().unwrap_or_default();
                    let due = clock.true_time_of(w.now, local);
                    assert!(
                        state.timer_at.is_some_and(|t| t <= due),
                        "{name} seed {seed}, process {p} at {:?}: timer queued for {:?}, due {due:?}",
                        w.now,
                        state.timer_at
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{name}: {checked} checks");
    }
}
