//! A world that keeps no events and has no sink only counts and hashes them
//! (`World::trace`); its hash and count must be those of a world that keeps every event.

use super::*;
use crate::chaos::{ChaosOptions, scenario};

#[test]
fn counting_only_hashes_every_event_as_keeping_it_does() {
    for algorithm in crate::scenario::Algorithm::ALL {
        let spec = algorithm.spec();
        let mut opts = ChaosOptions::new(algorithm);
        opts.duration_ms = 20_000;
        for seed in 0..3 {
            let s = scenario(&opts, seed);
            let mut counted = World::new(&s).unwrap_or_else(|e| unreachable!("{e}"));
            counted.keep_recent_events(0);
            let mut kept = World::new(&s).unwrap_or_else(|e| unreachable!("{e}"));
            // Starting the processes records events before a sink can be set.
            let before = kept.metrics().events;
            let seen = std::rc::Rc::new(std::cell::Cell::new(0u64));
            let count = std::rc::Rc::clone(&seen);
            kept.set_trace_sink(Box::new(move |_| count.set(count.get() + 1)));
            counted.run();
            kept.run();
            let events = counted.metrics().events;
            assert!(events > 1_000, "{} seed {seed}: {events} events", spec.name);
            assert_eq!(
                counted.trace_hash(),
                kept.trace_hash(),
                "{} seed {seed}",
                spec.name
            );
            assert_eq!(events, kept.metrics().events);
            assert_eq!(
                seen.get() + before,
                events,
                "the sink saw every later event"
            );
        }
    }
}
