//! The message bound of a Bully election (`BullyNode`, "Message bound"; docs/design.md
//! rule 7): with elections staggered by rank, start-up and a coordinator crash cost O(n)
//! messages at 5, 25 and 64 nodes, and the worst case, every node electing at once, stays
//! within Bully's classic round of `3 n (n - 1) / 2 + n - 1` (an Election, an Answer and at
//! most one view reply per pair, plus the announcement), which it reaches.
//!
//! Before the stagger a fault-free start was one round of every node asking every higher id:
//! 434 messages in the first 5 s at 5 nodes, 12,315 at 64.

use super::cluster::Cluster;
use tenure::bully::{BullyConfig, BullyMessage, BullyOutput};
use tenure::{Duration, Instant, NodeId};

const SIZES: [u64; 3] = [5, 25, 64];

fn cluster(n: u64) -> Cluster {
    let ids: Vec<u64> = (1..=n).collect();
    Cluster::new(&ids, &BullyConfig::default(), 7)
        .with_latency(Duration::from_millis(1), Duration::from_millis(10))
}

/// Sends recorded from `history[from..]`, heartbeats apart.
fn election_sends(c: &Cluster, from: usize) -> u64 {
    let n = c.history[from..]
        .iter()
        .filter(|r| {
            matches!(r.output, BullyOutput::Send { msg, .. }
                if !matches!(msg, BullyMessage::Heartbeat { .. }))
        })
        .count();
    u64::try_from(n).unwrap()
}

fn all_sends(c: &Cluster) -> u64 {
    let n = c
        .history
        .iter()
        .filter(|r| matches!(r.output, BullyOutput::Send { .. }))
        .count();
    u64::try_from(n).unwrap()
}

#[test]
fn start_up_is_one_announcement_then_one_heartbeat_per_peer() {
    for n in SIZES {
        let mut c = cluster(n);
        c.run_until(Instant::from_millis(49));
        assert_eq!(c.converged(), Some(NodeId(n)), "{n} nodes\n{}", c.status());
        assert_eq!(
            election_sends(&c, 0),
            n - 1,
            "{n} nodes: the top id's announcement"
        );
        c.run_until(Instant::from_millis(5_000));
        let bound = (n - 1) * (1 + 5_000 / 50);
        assert_eq!(all_sends(&c), bound, "{n} nodes: 5 s, bound {bound}");
        assert_eq!(c.converged(), Some(NodeId(n)));
    }
}

#[test]
fn a_coordinator_crash_costs_at_most_two_messages_per_peer() {
    for n in SIZES {
        // k = 1: the top id dies; k = 3: the top three die together.
        for k in [1, 3] {
            let mut c = cluster(n);
            c.run_until(Instant::from_millis(1_000));
            let mark = c.history.len();
            for id in (n - k + 1)..=n {
                c.crash(id);
            }
            let at = c.run_until_converged(Instant::from_millis(10_000));
            assert!(at.is_some(), "{n} nodes, {k} down\n{}", c.status());
            assert_eq!(c.converged(), Some(NodeId(n - k)));
            let sent = election_sends(&c, mark);
            let bound = 2 * (n - 1);
            assert!(
                sent <= bound,
                "{n} nodes, {k} down: {sent} messages, bound {bound}"
            );
            // The highest live follower asked the k ids above it and told every peer.
            assert_eq!(sent, k + (n - 1), "{n} nodes, {k} down");
        }
    }
}

#[test]
fn every_node_electing_at_once_stays_within_the_classic_round() {
    for n in SIZES {
        let mut c = Cluster::new(&(1..=n).collect::<Vec<_>>(), &BullyConfig::default(), 7);
        for id in 1..=n {
            c.start_election(id);
        }
        c.run_until(Instant::from_millis(49));
        assert_eq!(c.converged(), Some(NodeId(n)), "{n} nodes\n{}", c.status());
        let sent = election_sends(&c, 0);
        let bound = 3 * n * (n - 1) / 2 + n - 1;
        assert!(
            sent <= bound,
            "{n} nodes: {sent} messages, bound {bound}\n{}",
            c.take_transcript()
        );
        assert_eq!(sent, bound, "{n} nodes: zero latency reaches the bound");
    }
}
