//! `World::message` reads the messages in flight off the queue's rank-0 heap; these tests
//! hold it to the walk of the whole queue, duplicated copies included.

use super::*;
use crate::units::Probability;

/// The walk over every queued event: message `id`'s copy that arrives first.
fn walked(w: &World, id: u64) -> Option<(u64, u64, u64, &'static str)> {
    w.queue
        .iter()
        .filter_map(|(at, ev)| match ev {
            Ev::Deliver(e) if e.id == id => Some((at.as_micros(), e)),
            _ => None,
        })
        .min_by_key(|&(at, _)| at)
        .map(|(at, e)| (at, e.id, e.sent.as_micros(), e.payload.label()))
}

#[test]
fn message_by_id_is_the_first_arriving_copy_the_walk_finds() {
    let mut s = Scenario::new(crate::scenario::Algorithm::Raft, 3, 11, 6_000);
    // Half the messages are duplicated: such an id is on the wire twice, arriving at two
    // times.
    s.network.duplicate = Probability::new(0.5).unwrap_or_default();
    s.network.latency_ms = [Ms::from_millis(1), Ms::from_millis(40)];
    let mut w = World::new(&s).unwrap_or_else(|e| unreachable!("{e}"));
    let (mut checked, mut twice, mut steps) = (0, 0, 0u64);
    while w.next_event_at().is_some_and(|t| t <= w.end()) {
        w.step();
        steps += 1;
        if !steps.is_multiple_of(3) {
            continue;
        }
        let ids: Vec<u64> = w.queue.in_flight().map(|(_, e)| e.id).collect();
        for &id in &ids {
            let detail = w.message(id);
            let got = detail
                .as_ref()
                .map(|d| (d.arrival_us, d.id, d.send_us, d.kind));
            assert_eq!(got, walked(&w, id), "message {id} at {:?}", w.now());
            checked += 1;
            if ids.iter().filter(|&&i| i == id).count() == 2 {
                twice += 1;
            }
        }
        // An id no longer (or never) on the wire has no detail.
        assert_eq!(w.message(u64::MAX), None);
    }
    assert!(checked > 500, "the run keeps messages in flight: {checked}");
    assert!(
        twice > 50,
        "both copies of a message were on the wire: {twice}"
    );
}

#[test]
fn a_message_shows_what_the_snapshot_lists_plus_its_payload() {
    let mut w = World::new(&Scenario::new(
        crate::scenario::Algorithm::Raft,
        3,
        2,
        2_000,
    ))
    .unwrap_or_else(|e| unreachable!("{e}"));
    let mut seen = 0;
    while w.step() && seen < 200 {
        for m in w.snapshot_without_violations().in_flight {
            let d = w
                .message(m.id)
                .unwrap_or_else(|| unreachable!("{} in flight", m.id));
            let listed = (m.id, m.from, m.to, m.kind, m.value, m.send_us, m.arrival_us);
            let shown = (d.id, d.from, d.to, d.kind, d.value, d.send_us, d.arrival_us);
            assert_eq!(shown, listed);
            assert_eq!(d.payload.label(), m.kind);
            seen += 1;
        }
    }
    assert!(seen >= 200, "{seen}");
}
