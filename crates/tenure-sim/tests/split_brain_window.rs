//! The split-brain windows the trace reports are the metric's (docs/design.md, "The
//! simulator": the window is true time with two or more nodes acting as leader). Under
//! chaos, for every algorithm: each `split-brain-started` is followed by its
//! `split-brain-ended` (or the run ends with it open), no window lasts 0 ms (two leaders
//! within one instant, between two events of the same time, is the order the simulator
//! handles that instant's events in, not true time), the windows' lengths add up to
//! `split_brain_ms` and the longest is `worst_split_brain_ms`, and every split-brain
//! violation is raised at the start of a reported window.
//!
//! A failure prints the algorithm and seed; `tenure chaos --algorithm A --seed S --runs 1`
//! replays it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::cell::RefCell;
use std::rc::Rc;

use tenure_sim::chaos::{self, ChaosOptions};
use tenure_sim::checker::InvariantKind;
use tenure_sim::trace::{TraceEvent, TraceKind};
use tenure_sim::{Algorithm, Scenario, World};

/// Runs `s` to its end and checks its reported windows against its metrics; returns how
/// many windows it reported.
fn check_windows(s: &Scenario, at: &str) -> usize {
    let mut windows = 0;
    let mut w = World::new(s).unwrap();
    let events: Rc<RefCell<Vec<TraceEvent>>> = Rc::default();
    let sink = Rc::clone(&events);
    w.set_trace_sink(Box::new(move |e| {
        if matches!(
            e.kind,
            TraceKind::SplitBrainStarted { .. }
                | TraceKind::SplitBrainEnded { .. }
                | TraceKind::Violation(_)
        ) {
            sink.borrow_mut().push(e.clone());
        }
    }));
    w.run();
    let (mut total, mut worst, mut open) = (0u64, 0u64, None::<u64>);
    for e in events.borrow().iter() {
        match &e.kind {
            TraceKind::SplitBrainStarted { leaders } => {
                assert!(open.is_none(), "{at}: a window started inside one");
                assert!(leaders.len() >= 2, "{at}: {e:?}");
                open = Some(e.time_us);
                windows += 1;
            }
            TraceKind::SplitBrainEnded { duration_us } => {
                let start = open.take().expect("an ended window had started");
                assert!(*duration_us > 0, "{at}: a 0 ms window at {start} us");
                assert_eq!(start + duration_us, e.time_us, "{at}");
                total += duration_us;
                worst = worst.max(*duration_us);
            }
            TraceKind::Violation(v) if v.kind == InvariantKind::SplitBrain => {
                assert_eq!(open, Some(e.time_us), "{at}: {v:?}");
            }
            _ => {}
        }
    }
    if let Some(start) = open {
        let len = w.now().as_micros() - start;
        assert!(len > 0, "{at}: a 0 ms window left open at the end");
        total += len;
        worst = worst.max(len);
    }
    let m = w.metrics();
    assert_eq!(total, m.split_brain_us, "{at}: split_brain_ms");
    assert_eq!(worst, m.worst_split_brain_us, "{at}: worst_split_brain_ms");
    windows
}

#[test]
fn chaos_windows_have_length_and_add_up_to_the_metric() {
    let mut windows = 0;
    for algorithm in Algorithm::ALL {
        let mut opts = ChaosOptions::new(algorithm);
        opts.duration_ms = 20_000;
        opts.heal_ms = 5_000;
        for seed in 0..12 {
            let s = chaos::scenario(&opts, seed);
            windows += check_windows(&s, &format!("{algorithm} seed {seed}"));
        }
    }
    assert!(
        windows > 10,
        "chaos made only {windows} split-brain windows"
    );
}

/// The leader paused after its check and before its write (docs/scenarios.md) resumes past
/// its deadline; its timer fires at the instant it resumes, so it steps down before true time
/// moves on: no window (its write, sent on a stale belief, is judged as a write: late).
#[test]
fn a_leader_resuming_past_its_deadline_makes_no_window() {
    for name in [
        "pause-after-check-lease-fencing",
        "pause-after-check-lease-unfenced",
    ] {
        let path = format!("{}/scenarios/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let s = Scenario::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(check_windows(&s, name), 0, "{name}");
    }
}
