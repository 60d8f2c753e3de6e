//! The work a run may do: messages per simulated second and events waiting in the queue.
//! Chaos fails a run that exceeds its budget, so a storm (a resend chain per heartbeat, an
//! election round per message) fails loudly instead of running for minutes.
//!
//! The budgets follow from the machines' stated bounds, with a factor of 4 of headroom for
//! duplicated answers, two leaders of a partition, and elections:
//!
//! - **Raft** (`RaftNode`, "Flow control and the message bound"): per follower and second, at
//!   most `heartbeat rate + proposal rate` requests and one answer per delivered copy, plus
//!   an election round (`2 (n - 1)` messages) per node per minimum election timeout;
//! - **Bully** (`BullyNode`): a coordinator's heartbeats, `n - 1` per interval, plus rounds
//!   of at most `2 n (n - 1)` messages no more often than one per answer timeout per node;
//! - **Lease**: each contender sends at most one request per renew, retry or write interval
//!   and gets one answer per delivered copy.

use crate::scenario::Scenario;
use crate::units::Ms;
use crate::world::World;
use tenure::Instant;

/// A run's budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Most messages handed to the network in any one second of simulated time.
    pub messages_per_second: u64,
    /// Most events (messages in flight, timers, faults) waiting in the queue at once.
    pub queue_len: u64,
}

/// Events per second of something that happens every `ms` (at least once per ms).
pub(crate) fn rate(ms: u64) -> u64 {
    1_000 / ms.max(1)
}

pub(crate) fn ms_or(v: Option<Ms>, default: u64) -> u64 {
    v.map_or(default, |m| m.duration().as_millis())
}

/// The budget of a run of `s`.
pub fn budget(s: &Scenario) -> Budget {
    let n = s.nodes.max(1);
    let per_second = (s.algorithm.spec().messages_per_second)(s);
    let messages_per_second = per_second.saturating_mul(4).saturating_add(1_000);
    // At most a second's worth of messages in flight (latencies stay far below a second),
    // plus each process's timers and the scheduled faults.
    let queue_len = messages_per_second
        .saturating_add(n.saturating_add(2).saturating_mul(8))
        .saturating_add(s.faults.len() as u64);
    Budget {
        messages_per_second,
        queue_len,
    }
}

/// Runs `world` to `until_ms` one simulated second at a time, so a storm is caught within a
/// second of starting. Returns the peaks `(messages in one second, queued events)` and, if
/// the budget broke, how (the run stops there).
pub fn run_within(
    world: &mut World,
    until_ms: u64,
    budget: Budget,
) -> ((u64, u64), Option<String>) {
    let mut peak = (0u64, 0u64);
    let mut sent = 0;
    let mut t = 0;
    // The world itself stops once its queue holds twice the budget (the budget is checked
    // on samples a second apart; the bound on every event), so a storm is caught before it
    // allocates, never at the next sample.
    world.set_queue_limit(
        usize::try_from(budget.queue_len.saturating_mul(2))
            .unwrap_or(usize::MAX)
            .min(crate::world::MAX_QUEUED_EVENTS.saturating_add(world.scenario().faults.len())),
    );
    while t < until_ms {
        let second = t;
        t = t.saturating_add(1_000).min(until_ms);
        // Ten slices a second: the second's messages so far are held to the whole second's
        // budget, so a storm fails within 100 ms of simulated time, not after a second of
        // it (a run within budget passes exactly as before; slicing changes no event).
        let mut slice = second;
        while slice < t {
            slice = slice.saturating_add(100).min(t);
            world.run_until(Instant::from_millis(slice));
            if let Some(why) = world.storm() {
                return (peak, Some(why.to_string()));
            }
            let so_far = world.metrics().messages_sent.saturating_sub(sent);
            if so_far > budget.messages_per_second {
                let why = format!(
                    "{so_far} messages in the second before {t} ms; budget {}",
                    budget.messages_per_second
                );
                return ((peak.0.max(so_far), peak.1), Some(why));
            }
        }
        let now_sent = world.metrics().messages_sent;
        let per_second = now_sent.saturating_sub(sent);
        sent = now_sent;
        let queue = world.queue_len() as u64;
        peak = (peak.0.max(per_second), peak.1.max(queue));
        if per_second > budget.messages_per_second {
            let why = format!(
                "{per_second} messages in the second before {t} ms; budget {}",
                budget.messages_per_second
            );
            return (peak, Some(why));
        }
        if queue > budget.queue_len {
            let why = format!(
                "{queue} queued events at {t} ms; budget {}",
                budget.queue_len
            );
            return (peak, Some(why));
        }
    }
    (peak, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Algorithm;

    #[test]
    fn a_healthy_raft_cluster_fits_its_budget_by_a_wide_margin() {
        let mut s = Scenario::new(Algorithm::Raft, 5, 1, 5_000);
        s.config.propose_interval_ms = Some(Ms::from_millis(5));
        let b = budget(&s);
        // 4 followers x 2 x (20 + 200) + 5 x 4 x 2 x 6 = 2,000; x4 + 1000.
        assert_eq!(b.messages_per_second, 9_000);
        let mut w = crate::World::new(&s).unwrap_or_else(|e| panic!("{e}"));
        w.run();
        assert!(w.metrics().messages_sent / 5 < b.messages_per_second / 3);
    }
}
