//! The seeded pseudo-random generator every machine draws from.
//!
//! Randomness is an input (docs/design.md, sans-IO contract): each machine's config carries a
//! `seed: u64`, and the same seed gives the same draws bit for bit, natively and in wasm.
//! The generator is xoshiro256++ from the `rand_xoshiro` crate, seeded through SplitMix64.

use crate::id::NodeId;
use crate::time::Duration;
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng as _, SeedableRng};

/// A deterministic PRNG seeded from a `u64`.
#[derive(Clone, Debug)]
pub struct Rng(Xoshiro256PlusPlus);

impl Rng {
    /// A generator whose whole output is fixed by `seed`.
    pub fn from_seed(seed: u64) -> Self {
        Rng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    /// The generator of machine `id` configured with `seed`: [`node_seed`] mixes the id in,
    /// so machines built from one seed (the default 0, say) never share a sequence of
    /// timeouts, while the same `(seed, id)` still replays bit for bit.
    pub fn for_node(seed: u64, id: NodeId) -> Self {
        Rng::from_seed(node_seed(seed, id))
    }

    /// The next 64 uniformly distributed bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A value drawn uniformly from `[0, bound)`, without modulo bias; `0` when `bound == 0`.
    pub fn below(&mut self, bound: u64) -> u64 {
        if bound == 0 {
            return 0;
        }
        loop {
            let x = self.next_u64();
            // Reject the top partial block so every residue is equally likely: accept
            // `x < zone`, `zone = MAX - MAX % bound`. As `MAX % bound < bound`, every
            // `x <= MAX - bound` is below the zone, so only a draw in the top `bound`
            // values (about `bound / 2^64` of them) pays the division for the zone; the
            // values drawn and accepted are the same (`below_matches_the_zone_rule`).
            // (`!bound` is `MAX - bound`, written without an arithmetic operator.)
            if x <= !bound || x < Self::zone(bound) {
                return x.checked_rem(bound).unwrap_or(0);
            }
        }
    }

    /// The draws `below(bound)` accepts are those under this, the largest multiple of
    /// `bound` that fits (`bound > 0`).
    #[cold]
    fn zone(bound: u64) -> u64 {
        u64::MAX.saturating_sub(u64::MAX.checked_rem(bound).unwrap_or(0))
    }

    /// A duration drawn uniformly from `[lo, hi)`; `lo` when the range is empty.
    ///
    /// Raft's election timeout is `uniform_duration(T, 2T)` (Raft §5.2, design rule 6).
    pub fn uniform_duration(&mut self, lo: Duration, hi: Duration) -> Duration {
        let width = hi.as_micros().saturating_sub(lo.as_micros());
        lo.saturating_add(Duration::from_micros(self.below(width)))
    }
}

/// `seed` mixed with a machine's `id` (one SplitMix64 finalizer round over
/// `seed + id * golden ratio`), a bijection in `seed` for each `id`.
pub fn node_seed(seed: u64, id: NodeId) -> u64 {
    let mut z = seed.wrapping_add(id.0.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_with_one_seed_draw_differently_and_replay() {
        let draw = |id| Rng::for_node(0, NodeId(id)).next_u64();
        assert_ne!(draw(1), draw(2));
        assert_ne!(draw(2), draw(3));
        assert_eq!(draw(2), draw(2));
        assert_ne!(node_seed(0, NodeId(1)), node_seed(1, NodeId(1)));
    }

    #[test]
    fn same_seed_same_draws() {
        let mut a = Rng::from_seed(7);
        let mut b = Rng::from_seed(7);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(Rng::from_seed(7).next_u64(), Rng::from_seed(8).next_u64());
    }

    #[test]
    fn uniform_duration_stays_in_half_open_range() {
        let mut rng = Rng::from_seed(1);
        let (lo, hi) = (Duration::from_millis(150), Duration::from_millis(300));
        let draws: alloc::vec::Vec<Duration> =
            (0..10_000).map(|_| rng.uniform_duration(lo, hi)).collect();
        assert!(draws.iter().all(|d| *d >= lo && *d < hi));
        // Both ends of the range are reached: the draws are spread, not clustered.
        assert!(draws.iter().any(|d| *d < Duration::from_millis(155)));
        assert!(draws.iter().any(|d| *d >= Duration::from_millis(295)));
    }

    /// `below` draws and accepts what the plain zone rule does (reject `x >= MAX - MAX %
    /// bound`, then `x % bound`), for bounds small and near `u64::MAX`, where rejections
    /// are frequent.
    #[test]
    fn below_matches_the_zone_rule() {
        fn reference(rng: &mut Rng, bound: u64) -> u64 {
            let zone = u64::MAX - u64::MAX % bound;
            loop {
                let x = rng.next_u64();
                if x < zone {
                    return x % bound;
                }
            }
        }
        let mut bounds = alloc::vec![1, 2, 3, 7, 9_001, 1_000_000, 1 << 32, 1 << 63];
        bounds.extend([(1 << 63) + 1, u64::MAX / 3 * 2, u64::MAX - 1, u64::MAX]);
        for (i, &bound) in bounds.iter().enumerate() {
            // The fast path's premise: every draw up to `MAX - bound` is under the zone,
            // and the draw just past it need not be.
            assert!(u64::MAX - bound < Rng::zone(bound), "bound {bound}");
            let (mut a, mut b) = (Rng::from_seed(i as u64), Rng::from_seed(i as u64));
            for _ in 0..2_000 {
                assert_eq!(a.below(bound), reference(&mut b, bound), "bound {bound}");
            }
            // Both consumed the same draws, rejections included.
            assert_eq!(a.next_u64(), b.next_u64(), "bound {bound}");
        }
    }

    #[test]
    fn empty_ranges_do_not_panic() {
        let mut rng = Rng::from_seed(0);
        assert_eq!(rng.below(0), 0);
        let d = Duration::from_millis(5);
        assert_eq!(rng.uniform_duration(d, d), d);
        assert_eq!(rng.uniform_duration(d, Duration::ZERO), d);
    }
}
