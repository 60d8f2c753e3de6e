//! The simulated network: per-link latency range, loss, duplication and blocked links.
//!
//! Links are directed (`from -> to`), so a one-way cut is a set of blocked links. Every
//! directed link draws from its own seeded [`Rng`], so changing one link's faults does not
//! change what happens on the others. Latency is drawn uniformly from `[min, max]`, so messages
//! on one link can overtake each other (reordering by jitter). A message is dropped if its
//! link is blocked when it is sent or when it would be delivered (docs/design.md "Network").

use crate::units::{Ms, Probability};
use serde::{Deserialize, Serialize};
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
/// tables are all the state: [`Network::blocked`] walks the blocked table row by row, which
/// is `(from, to)` order, the order of the ordered set it replaced (no B-tree code in the
/// wasm modules; a scenario has at most [`crate::scenario::MAX_NODES`] nodes, so the tables
/// stay small).
#[derive(Clone, Debug)]
pub struct Network {
    seed: u64,
    default: LinkParams,
    /// How many links are blocked (the entries of `blocked_at` that are `true`).
    blocked: usize,
    /// Whether some link's parameters were changed since the last heal (`params` then holds
    /// more than the default).
    overridden: bool,
    /// Side of the dense tables below (process indexes `0..width`).
    width: usize,
    /// Which links are blocked, row `from`, column `to`.
    blocked_at: Vec<bool>,
    /// Each link's behaviour, row `from`, column `to` (`default` unless changed).
    params: Vec<LinkParams>,
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
            blocked: 0,
            overridden: false,
            width: 0,
            blocked_at: Vec::new(),
            params: Vec::new(),
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
        let mut params = vec![self.default; need * need];
        let mut rngs = vec![None; need * need];
        for f in 0..old {
            for t in 0..old {
                let (o, n) = (f * old + t, f * need + t);
                blocked[n] = self.blocked_at[o];
                params[n] = self.params[o];
                rngs[n] = self.rngs[o].take();
            }
        }
        self.width = need;
        self.blocked_at = blocked;
        self.params = params;
        self.rngs = rngs;
    }

    /// The behaviour of link `from -> to`.
    pub fn link(&self, from: usize, to: usize) -> LinkParams {
        if !self.overridden || from >= self.width || to >= self.width {
            return self.default;
        }
        self.params
            .get(from * self.width + to)
            .copied()
            .unwrap_or(self.default)
    }

    /// Changes the behaviour of link `from -> to`.
    pub fn set_link(&mut self, from: usize, to: usize, params: LinkParams) {
        let i = self.slot(from, to);
        if let Some(p) = self.params.get_mut(i) {
            *p = params;
            self.overridden = true;
        }
    }

    /// Blocks link `from -> to` (one direction).
    pub fn block(&mut self, from: usize, to: usize) {
        if from != to {
            let i = self.slot(from, to);
            if let Some(b) = self.blocked_at.get_mut(i)
                && !*b
            {
                *b = true;
                self.blocked += 1;
            }
        }
    }

    /// Whether link `from -> to` is blocked.
    pub fn is_blocked(&self, from: usize, to: usize) -> bool {
        // Most deliveries happen with no link blocked: one test answers them.
        self.blocked != 0
            && from < self.width
            && to < self.width
            && self
                .blocked_at
                .get(from * self.width + to)
                .copied()
                .unwrap_or(false)
    }

    /// Every blocked directed link, in `(from, to)` order.
    pub fn blocked(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        // No link blocked (the usual case): nothing to walk.
        let cells = if self.blocked == 0 {
            &[][..]
        } else {
            &self.blocked_at[..]
        };
        let width = self.width.max(1);
        cells
            .iter()
            .enumerate()
            .filter(|(_, b)| **b)
            .map(move |(i, _)| (i / width, i % width))
    }

    /// Unblocks every link and restores every link's default behaviour.
    pub fn heal(&mut self) {
        self.blocked = 0;
        self.blocked_at.fill(false);
        if self.overridden {
            self.params.fill(self.default);
            self.overridden = false;
        }
    }

    /// Decides the fate of a message sent at true time `now` on `from -> to`.
    pub fn send(&mut self, now: Instant, from: usize, to: usize) -> SendFate {
        // One index for the blocked table and the generator (growing the tables first
        // changes no answer: a link outside them is unblocked and has drawn nothing).
        let i = self.slot(from, to);
        if self.blocked != 0 && self.blocked_at.get(i).copied().unwrap_or(false) {
            return SendFate::Blocked;
        }
        let p = if self.overridden {
            self.params.get(i).copied().unwrap_or(self.default)
        } else {
            self.default
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    /// The replaced send: the ordered set first, then the map's parameters or the default,
    /// and the link's generator (created on its first unblocked send, as before).
    fn reference_send(
        now: Instant,
        (from, to): (usize, usize),
        blocked: &BTreeSet<(usize, usize)>,
        p: LinkParams,
        rngs: &mut BTreeMap<(usize, usize), Rng>,
    ) -> SendFate {
        if blocked.contains(&(from, to)) {
            return SendFate::Blocked;
        }
        let rng = rngs
            .entry((from, to))
            .or_insert_with(|| Rng::from_seed(mix(7, from, to)));
        if p.loss_ppm > 0 && rng.below(u64::from(PPM)) < u64::from(p.loss_ppm) {
            return SendFate::Lost;
        }
        let hi = p.latency_max.saturating_add(Duration::from_micros(1));
        let first = now.saturating_add(rng.uniform_duration(p.latency_min, hi));
        let dup = p.duplicate_ppm > 0 && rng.below(u64::from(PPM)) < u64::from(p.duplicate_ppm);
        let second = dup.then(|| now.saturating_add(rng.uniform_duration(p.latency_min, hi)));
        SendFate::Deliver(first, second)
    }

    /// Random blocks, link changes, heals and sends against the ordered map and set the
    /// dense tables replaced: the same answers, the blocked links in the same order, and the
    /// same fates (so the same draws from each link's generator).
    #[test]
    fn dense_tables_answer_what_the_ordered_map_and_set_did() {
        let default = LinkParams {
            latency_min: Duration::from_micros(100),
            latency_max: Duration::from_micros(900),
            loss_ppm: 0,
            duplicate_ppm: 0,
        };
        let mut net = Network::new(7, default);
        let mut blocked: BTreeSet<(usize, usize)> = BTreeSet::new();
        let mut overrides: BTreeMap<(usize, usize), LinkParams> = BTreeMap::new();
        let mut rngs: BTreeMap<(usize, usize), Rng> = BTreeMap::new();
        let mut x: u64 = 3;
        let mut next = |m: u64| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            usize::try_from((x >> 33) % m).unwrap_or(0)
        };
        let (mut sent, mut refused) = (0, 0);
        for round in 0..20_000u64 {
            let (a, b) = (next(9), next(9));
            match next(20) {
                0 => {
                    net.block(a, b);
                    if a != b {
                        blocked.insert((a, b));
                    }
                }
                1 => {
                    let mut p = overrides.get(&(a, b)).copied().unwrap_or(default);
                    p.loss_ppm = u32::try_from(next(400_000)).unwrap_or(0);
                    p.duplicate_ppm = u32::try_from(next(300_000)).unwrap_or(0);
                    net.set_link(a, b, p);
                    overrides.insert((a, b), p);
                }
                2 if round % 7 == 0 => {
                    net.heal();
                    blocked.clear();
                    overrides.clear();
                }
                _ => {
                    let now = Instant::from_micros(round * 1_000);
                    let p = overrides.get(&(a, b)).copied().unwrap_or(default);
                    let expected = reference_send(now, (a, b), &blocked, p, &mut rngs);
                    assert_eq!(net.send(now, a, b), expected, "round {round}: {a} -> {b}");
                    if expected == SendFate::Blocked {
                        refused += 1;
                    } else {
                        sent += 1;
                    }
                }
            }
            assert_eq!(net.is_blocked(a, b), blocked.contains(&(a, b)));
            assert_eq!(
                net.link(a, b),
                overrides.get(&(a, b)).copied().unwrap_or(default)
            );
            assert_eq!(
                net.blocked().collect::<Vec<_>>(),
                blocked.iter().copied().collect::<Vec<_>>()
            );
        }
        assert!(
            sent > 1_000 && refused > 100,
            "{sent} sent, {refused} blocked"
        );
    }
}
