//! The simulated network: per-link latency range, loss, duplication and blocked links.
//!
//! Links are directed (`from -> to`), so a one-way cut is a set of blocked links. Every
//! directed link draws from its own seeded [`Rng`], so changing one link's faults does not
//! change what happens on the others. Latency is drawn uniformly from `[min, max]`, so messages
//! on one link can overtake each other (reordering by jitter). A message is dropped if its
//! link is blocked when it is sent or when it would be delivered (docs/design.md "Network").

use crate::units::{Ms, Probability};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use tenure::{Duration, Instant, Rng};

/// One in a million: probabilities are held as integer parts per million.
pub const PPM: u32 = 1_000_000;

/// Behaviour of one directed link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkParams {
    /// Shortest one-way delay.
    pub latency_min: Duration,
    /// Longest one-way delay (inclusive).
    pub latency_max: Duration,
    /// Probability a message is lost, in parts per million.
    pub loss_ppm: u32,
    /// Probability a delivered message is delivered twice, in parts per million.
    pub duplicate_ppm: u32,
}

/// The scenario's `network` section: defaults for every link.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NetworkConfig {
    /// One-way latency range `[min, max]` in ms. Default `[1, 10]`.
    pub latency_ms: [Ms; 2],
    /// Loss probability in `[0, 1]`. Default 0.
    pub loss: Probability,
    /// Duplication probability in `[0, 1]`. Default 0.
    pub duplicate: Probability,
}

impl Default for NetworkConfig {
    fn default() -> Self {
        NetworkConfig {
            latency_ms: [Ms::from_millis(1), Ms::from_millis(10)],
            loss: Probability::default(),
            duplicate: Probability::default(),
        }
    }
}

impl NetworkConfig {
    /// The link parameters, or a message naming the bad value.
    pub fn params(&self) -> Result<LinkParams, String> {
        let [lo, hi] = self.latency_ms;
        if lo > hi {
            return Err(format!(
                "network.latency_ms [{lo}, {hi}]: min is greater than max"
            ));
        }
        Ok(LinkParams {
            latency_min: lo.duration(),
            latency_max: hi.duration(),
            loss_ppm: self.loss.ppm(),
            duplicate_ppm: self.duplicate.ppm(),
        })
    }
}

/// What became of one send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendFate {
    /// Delivered at the first instant, and again at the second if duplicated.
    Deliver(Instant, Option<Instant>),
    /// The link is blocked by a partition.
    Blocked,
    /// Lost by the link's loss probability.
    Lost,
}

/// The network between `n` processes, indexed `0..n`.
///
/// Every send and delivery asks whether its link is blocked and which parameters and
/// generator it has: those answers are held in dense per-link tables (`width x width`, grown
/// to the highest process index seen), so the hot path does no ordered-map search. The
/// ordered set of blocked links is kept beside them for [`Network::blocked`]'s order.
#[derive(Clone, Debug)]
pub struct Network {
    seed: u64,
    default: LinkParams,
    overrides: BTreeMap<(usize, usize), LinkParams>,
    blocked: BTreeSet<(usize, usize)>,
    /// Side of the dense tables below (process indexes `0..width`).
    width: usize,
    /// `blocked` as a dense table, row `from`, column `to`.
    blocked_at: Vec<bool>,
    /// Each link's generator, created on its first send.
    rngs: Vec<Option<Rng>>,
}

fn mix(seed: u64, from: usize, to: usize) -> u64 {
    // SplitMix64-style finaliser over the link's coordinates.
    let mut z = seed
        ^ (from as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (to as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Network {
    /// A network where every link has `default` behaviour and nothing is blocked.
    pub fn new(seed: u64, default: LinkParams) -> Self {
        Network {
            seed,
            default,
            overrides: BTreeMap::new(),
            blocked: BTreeSet::new(),
            width: 0,
            blocked_at: Vec::new(),
            rngs: Vec::new(),
        }
    }

    /// The dense index of link `from -> to`, growing the tables to hold it (once per run and
    /// process count: the growth is out of line, the index inlined into every send).
    #[inline]
    fn slot(&mut self, from: usize, to: usize) -> usize {
        let need = from.max(to).saturating_add(1);
        if need > self.width {
            self.grow(need);
        }
        from * self.width + to
    }

    /// Grows the dense tables to `need x need`, keeping every link's state.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, need: usize) {
        let old = self.width;
        let mut blocked = vec![false; need * need];
        let mut rngs = vec![None; need * need];
        for f in 0..old {
            for t in 0..old {
                let (o, n) = (f * old + t, f * need + t);
                blocked[n] = self.blocked_at[o];
                rngs[n] = self.rngs[o].take();
            }
        }
        self.width = need;
        self.blocked_at = blocked;
        self.rngs = rngs;
    }

    /// The behaviour of link `from -> to`.
    pub fn link(&self, from: usize, to: usize) -> LinkParams {
        self.overrides
            .get(&(from, to))
            .copied()
            .unwrap_or(self.default)
    }

    /// Changes the behaviour of link `from -> to`.
    pub fn set_link(&mut self, from: usize, to: usize, params: LinkParams) {
        self.overrides.insert((from, to), params);
    }

    /// Blocks link `from -> to` (one direction).
    pub fn block(&mut self, from: usize, to: usize) {
        if from != to {
            self.blocked.insert((from, to));
            let i = self.slot(from, to);
            if let Some(b) = self.blocked_at.get_mut(i) {
                *b = true;
            }
        }
    }

    /// Whether link `from -> to` is blocked.
    pub fn is_blocked(&self, from: usize, to: usize) -> bool {
        // Most deliveries happen with no link blocked: one length test answers them.
        !self.blocked.is_empty()
            && from < self.width
            && to < self.width
            && self
                .blocked_at
                .get(from * self.width + to)
                .copied()
                .unwrap_or(false)
    }

    /// Every blocked directed link.
    pub fn blocked(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.blocked.iter().copied()
    }

    /// Unblocks every link and restores every link's default behaviour.
    pub fn heal(&mut self) {
        self.blocked.clear();
        self.blocked_at.fill(false);
        self.overrides.clear();
    }

    /// Decides the fate of a message sent at true time `now` on `from -> to`.
    pub fn send(&mut self, now: Instant, from: usize, to: usize) -> SendFate {
        // One index for the blocked table and the generator (growing the tables first
        // changes no answer: a link outside them is unblocked and has drawn nothing).
        let i = self.slot(from, to);
        if !self.blocked.is_empty() && self.blocked_at.get(i).copied().unwrap_or(false) {
            return SendFate::Blocked;
        }
        let p = if self.overrides.is_empty() {
            self.default
        } else {
            self.link(from, to)
        };
        let seed = self.seed;
        let Some(entry) = self.rngs.get_mut(i) else {
            return SendFate::Lost; // unreachable: `slot` grew the table to hold `i`
        };
        let rng = entry.get_or_insert_with(|| Rng::from_seed(mix(seed, from, to)));
        if p.loss_ppm > 0 && rng.below(u64::from(PPM)) < u64::from(p.loss_ppm) {
            return SendFate::Lost;
        }
        let hi = p.latency_max.saturating_add(Duration::from_micros(1));
        let first = now.saturating_add(rng.uniform_duration(p.latency_min, hi));
        let dup = p.duplicate_ppm > 0 && rng.below(u64::from(PPM)) < u64::from(p.duplicate_ppm);
        let second = dup.then(|| now.saturating_add(rng.uniform_duration(p.latency_min, hi)));
        SendFate::Deliver(first, second)
    }
}
