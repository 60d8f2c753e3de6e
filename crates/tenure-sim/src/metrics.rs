//! Run metrics: leadership counters in the seed's vocabulary, split-brain and leaderless
//! time, failover times, writes and messages.

use crate::trace::WriteRecord;
use serde::Serialize;
use tenure::Instant;

/// Most failover samples a run keeps (the latest ones).
pub const MAX_FAILOVER_SAMPLES: usize = 256;

/// Counters and timings of one run. Times are true time (`_us` fields in Rust, `_ms` in
/// JSON).
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Metrics {
    /// Leaderships won (`BecameLeader`, `Elected`, `BecameCoordinator`).
    pub elections_total: u64,
    /// Leaderships lost: step-downs, and crashes of a node that led.
    pub leadership_lost_total: u64,
    /// The store's latest fencing token (lease worlds).
    pub fencing_token: Option<u64>,
    /// Nodes acting as leader now (up, not paused, believing they lead).
    pub leaders_now: u64,
    /// Total true time with two or more nodes acting as leader.
    #[serde(rename = "split_brain_ms", serialize_with = "crate::units::ser_ms")]
    pub split_brain_us: u64,
    /// The longest single stretch of split brain.
    #[serde(
        rename = "worst_split_brain_ms",
        serialize_with = "crate::units::ser_ms"
    )]
    pub worst_split_brain_us: u64,
    /// Total true time with no node acting as leader.
    #[serde(rename = "leaderless_ms", serialize_with = "crate::units::ser_ms")]
    pub leaderless_us: u64,
    /// Time from a leader's crash to the next leader, latest samples.
    #[serde(rename = "failover_ms", serialize_with = "crate::units::ser_vec_ms")]
    pub failover_us: Vec<u64>,
    /// Writes the resource accepted.
    pub writes_accepted: u64,
    /// Writes the resource rejected (stale fencing token).
    pub writes_rejected: u64,
    /// Stale writes (token below one the resource had seen) that were accepted.
    pub stale_writes_accepted: u64,
    /// Stale writes that were rejected.
    pub stale_writes_rejected: u64,
    /// Writes that left their node after its lease had ended in true time.
    pub late_writes: u64,
    /// Messages handed to the network (duplicates not counted).
    pub messages_sent: u64,
    /// Messages delivered (duplicates counted).
    pub messages_delivered: u64,
    /// Messages dropped: partitions, loss, crashed receivers, store outages.
    pub messages_dropped: u64,
    /// Trace events recorded (sends, deliveries, drops, timeouts, state changes, faults).
    pub events: u64,
}

/// Keeps the time-integrated metrics up to date as the leader count changes.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tracker {
    pub(crate) metrics: Metrics,
    since: u64,
    split_start: Option<u64>,
    failover_start: Option<u64>,
}

impl Tracker {
    /// Accounts for time up to `now` under the current leader count, then switches to
    /// `leaders`.
    // Native builds inline this into the event loop (a call per event saved); the
    // wasm modules, built for size, keep it out of line (docs/performance.md).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(crate) fn advance(&mut self, now: Instant, leaders: u64) {
        let now = now.as_micros();
        let m = &mut self.metrics;
        // One leader before and after, no failover timing: only the time moves (most events).
        if leaders == 1 && m.leaders_now == 1 && self.failover_start.is_none() {
            self.since = now;
            return;
        }
        let span = now.saturating_sub(self.since);
        match m.leaders_now {
            0 => m.leaderless_us = m.leaderless_us.saturating_add(span),
            1 => {}
            _ => m.split_brain_us = m.split_brain_us.saturating_add(span),
        }
        self.since = now;
        if leaders >= 2 && self.split_start.is_none() {
            self.split_start = Some(now);
        }
        if let Some(start) = self.split_start {
            let len = now.saturating_sub(start);
            m.worst_split_brain_us = m.worst_split_brain_us.max(len);
            if leaders < 2 {
                self.split_start = None;
            }
        }
        if leaders >= 1
            && let Some(start) = self.failover_start.take()
        {
            if m.failover_us.len() >= MAX_FAILOVER_SAMPLES {
                m.failover_us.remove(0);
            }
            m.failover_us.push(now.saturating_sub(start));
        }
        m.leaders_now = leaders;
    }

    /// A node that led crashed at `now`.
    pub(crate) fn leader_crashed(&mut self, now: Instant) {
        self.metrics.leadership_lost_total = self.metrics.leadership_lost_total.saturating_add(1);
        if self.failover_start.is_none() {
            self.failover_start = Some(now.as_micros());
        }
    }

    /// Counts a judged write.
    pub(crate) fn write(&mut self, w: &WriteRecord) {
        let m = &mut self.metrics;
        let bump = |c: &mut u64| *c = c.saturating_add(1);
        if w.accepted {
            bump(&mut m.writes_accepted);
        } else {
            bump(&mut m.writes_rejected);
        }
        if w.stale && w.accepted {
            bump(&mut m.stale_writes_accepted);
        }
        if w.stale && !w.accepted {
            bump(&mut m.stale_writes_rejected);
        }
        if w.late {
            bump(&mut m.late_writes);
        }
    }
}
