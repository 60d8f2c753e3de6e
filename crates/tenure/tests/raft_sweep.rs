//! Seeded random sweeps over a small cluster: random latency, loss, partitions, crashes and
//! restarts from persisted state, and proposals. The harness checks election safety (§5.2),
//! leader completeness (§5.4), state machine safety (§5.4.3), that every Send depends only
//! on durable state (design rule 6) and that terms never decrease across restarts, on
//! every output. A failure names its seed; rerun one with `RAFT_SEED=<seed>`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod raft_support;

use raft_support::Cluster;
use std::panic::{AssertUnwindSafe, catch_unwind};
use tenure::{Duration, Instant, NodeId, Rng};

const T_MS: u64 = 100;

fn seeds(default: std::ops::Range<u64>) -> Vec<u64> {
    match std::env::var("RAFT_SEED") {
        Ok(s) => vec![s.parse().expect("RAFT_SEED is a u64")],
        Err(_) => default.collect(),
    }
}

fn with_seed(seed: u64, f: impl FnOnce(u64)) {
    if let Err(e) = catch_unwind(AssertUnwindSafe(|| f(seed))) {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        panic!("seed {seed} failed (rerun with RAFT_SEED={seed}): {msg}");
    }
}

fn random_groups(rng: &mut Rng, ids: &[NodeId]) -> Vec<Vec<NodeId>> {
    let k = 2 + rng.below(2) as usize;
    let mut groups = vec![Vec::new(); k];
    for id in ids {
        groups[rng.below(k as u64) as usize].push(*id);
    }
    groups
}

/// One chaotic run of `n` nodes for `duration_ms`, then a heal: the harness asserts the
/// safety properties throughout. Returns how long after the heal a stable leader appeared.
fn chaos_run(seed: u64, n: u64, duration_ms: u64) -> Option<Duration> {
    let mut rng = Rng::from_seed(seed ^ 0x5eed);
    let pre_vote = rng.below(2) == 0;
    let check_quorum = rng.below(2) == 0;
    let mut c = Cluster::new(n, |cfg| {
        cfg.pre_vote = pre_vote;
        cfg.check_quorum = check_quorum;
        cfg.max_entries_per_append = 3;
        cfg.seed = seed.wrapping_mul(31).wrapping_add(cfg.id.0);
    })
    .with_net(seed, 1, 15, 5);
    let ids = c.ids();
    let end = Instant::from_millis(duration_ms);
    let mut command = 0;
    while c.now < end {
        let next = c.now + Duration::from_millis(10 + rng.below(150));
        c.run_until(next, |_| false);
        match rng.below(11) {
            10 => {
                if let Some(leader) = c.leader() {
                    c.crash(leader);
                }
            }
            0 | 1 => {
                let crashed = ids.iter().filter(|id| c.node(**id).is_none()).count() as u64;
                let id = ids[rng.below(n) as usize];
                if c.node(id).is_some() && crashed < n / 2 {
                    c.crash(id);
                } else if c.node(id).is_none() {
                    c.restart(id);
                }
            }
            2 | 3 => {
                let groups = random_groups(&mut rng, &ids);
                c.partition(&groups);
            }
            4 | 5 => c.heal(),
            _ => {
                if let Some(leader) = c.leader() {
                    for _ in 0..1 + rng.below(4) {
                        command += 1;
                        let _ = c.with_node(leader, |node, now| node.propose(now, command));
                    }
                }
            }
        }
    }
    c.heal();
    for id in &ids {
        if c.node(*id).is_none() {
            c.restart(*id);
        }
    }
    let healed = c.now;
    if std::env::var("RAFT_STATS").is_ok() {
        println!(
            "seed {seed}: terms with a leader {}, committed {}, proposals {command}",
            c.leaders.len(),
            c.committed.len()
        );
    }
    let bound = healed + Duration::from_millis(40 * T_MS);
    c.run_until(bound, |c| c.stable_leader().is_some())
        .map(|at| at.saturating_since(healed))
}

#[test]
fn leader_completeness_and_election_safety_random_sweep() {
    // Raft §5.2 (election safety), §5.4 (leader completeness), §5.4.3 (state machine
    // safety), S13 ("leader completeness holds in a chaos sweep"): asserted by the harness on
    // every event of 120 seeded runs mixing crash/restart, partitions, loss and proposals.
    for seed in seeds(0..120) {
        with_seed(seed, |seed| {
            let n = if seed % 2 == 0 { 3 } else { 5 };
            let recovered = chaos_run(seed, n, 5_000);
            assert!(
                recovered.is_some(),
                "no stable leader within 40 T of healing"
            );
        });
    }
}

#[test]
fn s10_prevote_and_checkquorum_never_wedge_after_three_way_split() {
    // Scenario S10 (etcd-io/etcd#8243, #8501; tikv/raft-rs#84): with PreVote and CheckQuorum
    // on, split five nodes into three groups, let terms and logs diverge, then heal. A
    // stable leader must appear within a few election timeouts, for every seed.
    let mut worst = Duration::ZERO;
    for seed in seeds(0..200) {
        with_seed(seed, |seed| {
            let mut rng = Rng::from_seed(seed);
            let mut c = Cluster::new(5, |cfg| {
                cfg.pre_vote = true;
                cfg.check_quorum = true;
                cfg.seed = seed.wrapping_mul(7).wrapping_add(cfg.id.0);
            })
            .with_net(seed, 1, 10, 0);
            c.run_until(Instant::from_millis(1_000), |_| false);
            let ids = c.ids();
            // A random three-way split, each group non-empty.
            let mut order = ids.clone();
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let groups = vec![
                order[0..2].to_vec(),
                order[2..4].to_vec(),
                order[4..].to_vec(),
            ];
            c.partition(&groups);
            let split_end = c.now + Duration::from_millis(500 + rng.below(2_000));
            while c.now < split_end {
                let step = c.now + Duration::from_millis(50);
                c.run_until(step, |_| false);
                // Leaders of a minority may still accept proposals until CheckQuorum fires.
                for id in &ids {
                    let _ = c.with_node(*id, |node, now| node.propose(now, 1));
                }
            }
            c.heal();
            let healed = c.now;
            let at = c
                .run_until(healed + Duration::from_millis(40 * T_MS), |c| {
                    c.stable_leader().is_some()
                })
                .expect("a stable leader after healing");
            let took = at.saturating_since(healed);
            worst = worst.max(took);
            // "A few election timeouts": a CheckQuorum period to clear stale leadership,
            // plus a few randomized timeouts of up to 2T each.
            assert!(
                took <= Duration::from_millis(8 * T_MS),
                "stable leader only {took} after healing"
            );
        });
    }
    println!("s10: worst time to a stable leader after healing: {worst}");
}
