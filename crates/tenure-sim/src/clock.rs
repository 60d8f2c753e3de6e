//! Per-process clocks: offset + rate x true time, with forward jumps, always monotone.
//!
//! Each simulated process reads its own clock (docs/design.md "The simulator", Clocks). Between
//! changes the reading is the linear function
//! `local(t) = anchor_local + (t - anchor_true) * (1_000_000 + drift_ppm) / 1_000_000`
//! of true time `t` (all in microseconds). A change (a new drift rate, a step, a jump)
//! re-anchors the line at the current true time. A step backwards does not make the reading go
//! backwards: the reading is held at its value before the step until the line catches up,
//! like a monotonic clock (the core's `Clock` would clamp it anyway, S08 setup 1).

use serde::{Deserialize, Serialize};
use tenure::Instant;

/// The largest drift rate magnitude accepted, in parts per million (50%).
pub const MAX_DRIFT_PPM: i32 = 500_000;

const MICRO: u64 = 1_000_000;

/// One process's clock as a function of true time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimClock {
    anchor_true: u64,
    anchor_local: i128,
    drift_ppm: i32,
    floor: u64,
}

impl Default for SimClock {
    fn default() -> Self {
        SimClock::new()
    }
}

impl SimClock {
    /// A clock that reads true time exactly.
    pub const fn new() -> Self {
        SimClock {
            anchor_true: 0,
            anchor_local: 0,
            drift_ppm: 0,
            floor: 0,
        }
    }

    fn rate(&self) -> u64 {
        let ppm = self.drift_ppm.clamp(-MAX_DRIFT_PPM, MAX_DRIFT_PPM);
        // 500_000..=1_500_000 by the clamp: positive.
        MICRO.saturating_add_signed(i64::from(ppm))
    }

    /// `floor(elapsed * rate / 10^6)`: exact, in 64-bit arithmetic unless the product
    /// overflows (more than 140 days elapsed at the fastest rate), with no division at all
    /// for an undrifted clock.
    fn scaled(elapsed: u64, rate: u64) -> i128 {
        if rate == MICRO {
            return i128::from(elapsed);
        }
        match elapsed.checked_mul(rate) {
            Some(x) => i128::from(x / MICRO),
            None => i128::from(elapsed) * i128::from(rate) / i128::from(MICRO),
        }
    }

    fn line(&self, true_us: u64) -> i128 {
        let elapsed = true_us.saturating_sub(self.anchor_true);
        self.anchor_local
            .saturating_add(Self::scaled(elapsed, self.rate()))
    }

    /// `floor(elapsed * rate / 10^6)` in 64 bits, `None` when the product overflows.
    #[inline(always)]
    fn scaled_u64(elapsed: u64, rate: u64) -> Option<u64> {
        if rate == MICRO {
            return Some(elapsed);
        }
        elapsed.checked_mul(rate).map(|x| x / MICRO)
    }

    /// The clock's reading at true time `now` (`now` must not precede the last change).
    ///
    /// When the anchor is a `u64` and the line's value fits one too (every clock short of
    /// a step below zero or centuries of drift), the sum is taken in 64 bits: no saturation
    /// or clamp could have changed it, so the reading is the one the wide path gives.
    #[inline]
    pub fn read(&self, now: Instant) -> Instant {
        let elapsed = now.as_micros().saturating_sub(self.anchor_true);
        if let Ok(anchor) = u64::try_from(self.anchor_local)
            && let Some(line) =
                Self::scaled_u64(elapsed, self.rate()).and_then(|s| anchor.checked_add(s))
        {
            return Instant::from_micros(line.max(self.floor));
        }
        self.read_wide(now)
    }

    /// [`read`](Self::read) in 128-bit arithmetic, saturating and clamped.
    #[cold]
    fn read_wide(&self, now: Instant) -> Instant {
        let line = self.line(now.as_micros()).clamp(0, i128::from(u64::MAX));
        let line = u64::try_from(line).unwrap_or(u64::MAX);
        Instant::from_micros(line.max(self.floor))
    }

    /// Current drift rate in ppm (positive runs fast).
    pub fn drift_ppm(&self) -> i32 {
        self.drift_ppm
    }

    fn reanchor(&mut self, now: Instant) {
        self.floor = self.read(now).as_micros();
        self.anchor_local = self.line(now.as_micros());
        self.anchor_true = now.as_micros();
    }

    /// From true time `now` on, the clock runs at `1 + ppm / 10^6` times true speed; `ppm`
    /// is clamped to `±MAX_DRIFT_PPM`.
    pub fn set_drift(&mut self, now: Instant, ppm: i32) {
        self.reanchor(now);
        self.drift_ppm = ppm.clamp(-MAX_DRIFT_PPM, MAX_DRIFT_PPM);
    }

    /// Steps the clock by `delta_us` at true time `now`. A forward step is a jump; a backward
    /// step holds the reading until the clock catches up (monotone).
    pub fn step(&mut self, now: Instant, delta_us: i64) {
        self.reanchor(now);
        self.anchor_local = self.anchor_local.saturating_add(i128::from(delta_us));
    }

    /// The earliest true time `>= now` at which the reading reaches `local`.
    ///
    /// As with [`read`](Self::read), a clock whose anchor and need fit 64 bits takes a
    /// 64-bit path with the same result: with `need = local - anchor_local > 0`, the answer
    /// is `max(now, anchor_true + ceil(need * 10^6 / rate))`, saturating at `u64::MAX`.
    #[inline]
    pub fn true_time_of(&self, now: Instant, local: Instant) -> Instant {
        if self.read(now) >= local {
            return now;
        }
        let rate = self.rate();
        if let Ok(anchor) = u64::try_from(self.anchor_local) {
            let need = local.as_micros().saturating_sub(anchor);
            let steps = if need == 0 {
                Some(0)
            } else if rate == MICRO {
                Some(need)
            } else {
                need.checked_mul(MICRO).map(|x| x.div_ceil(rate))
            };
            if let Some(steps) = steps {
                let at = self.anchor_true.saturating_add(steps);
                return Instant::from_micros(at.max(now.as_micros()));
            }
        }
        self.true_time_of_wide(now, local)
    }

    /// [`true_time_of`](Self::true_time_of) in 128-bit arithmetic, once the reading at
    /// `now` is known to be short of `local`.
    #[cold]
    fn true_time_of_wide(&self, now: Instant, local: Instant) -> Instant {
        let need = i128::from(local.as_micros()).saturating_sub(self.anchor_local);
        let rate = self.rate();
        // ceil(need * 10^6 / rate), 0 for need <= 0; in 64 bits when it fits.
        let steps = match u64::try_from(need) {
            Err(_) | Ok(0) => 0,
            Ok(need) if rate == MICRO => i128::from(need),
            Ok(need) => match need.checked_mul(MICRO) {
                Some(x) => i128::from(x.div_ceil(rate)),
                None => {
                    let rate = i128::from(rate);
                    (i128::from(need) * i128::from(MICRO)).saturating_add(rate - 1) / rate
                }
            },
        };
        let at = i128::from(self.anchor_true).saturating_add(steps);
        let at = u64::try_from(at.clamp(0, i128::from(u64::MAX))).unwrap_or(u64::MAX);
        Instant::from_micros(at.max(now.as_micros()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(us: u64) -> Instant {
        Instant::from_micros(us)
    }

    #[test]
    fn drift_scales_elapsed_time() {
        let mut c = SimClock::new();
        c.set_drift(at(1_000_000), 100_000); // 10% fast from 1 s on
        assert_eq!(c.read(at(2_000_000)), at(2_100_000));
        assert_eq!(c.true_time_of(at(1_000_000), at(2_100_000)), at(2_000_000));
    }

    #[test]
    fn backward_step_holds_the_reading() {
        let mut c = SimClock::new();
        c.step(at(10), -5);
        assert_eq!(c.read(at(10)), at(10));
        assert_eq!(c.read(at(14)), at(10));
        assert_eq!(c.read(at(16)), at(11));
        assert_eq!(c.true_time_of(at(10), at(11)), at(16));
    }

    #[test]
    fn forward_jump_and_inverse_agree() {
        let mut c = SimClock::new();
        c.set_drift(at(0), -20_000);
        c.step(at(1_000), 5_000_000);
        for target in [0u64, 6_000, 5_001_000, 7_777_777] {
            let t = c.true_time_of(at(1_000), at(target));
            assert!(c.read(t) >= at(target));
            if t > at(1_000) {
                assert!(c.read(at(t.as_micros() - 1)) < at(target));
            }
        }
    }

    #[test]
    fn sixty_four_bit_paths_equal_the_wide_formula() {
        let wide_floor = |e: u64, r: u64| i128::from(e) * i128::from(r) / 1_000_000;
        for rate in [500_000u64, 999_999, 1_000_000, 1_000_001, 1_500_000] {
            for e in [
                0u64,
                1,
                999_999,
                7_777_777_777,
                u64::MAX / 1_500_000,
                u64::MAX,
            ] {
                assert_eq!(
                    SimClock::scaled(e, rate),
                    wide_floor(e, rate),
                    "{e} at {rate}"
                );
            }
        }
        let mut c = SimClock::new();
        c.set_drift(at(3), 333_333);
        for target in [4u64, 1_000_003, 12_345_678_901, u64::MAX / 2] {
            let t = c.true_time_of(at(3), at(target));
            assert!(c.read(t) >= at(target), "{target}");
            assert!(
                c.read(at(t.as_micros() - 1)) < at(target),
                "{target}: earliest"
            );
        }
    }

    #[test]
    fn the_64_bit_paths_give_what_the_wide_ones_give() {
        let mut x: u64 = 3;
        let mut next = |m: u64| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (x >> 11) % m
        };
        let magnitudes = [10, 1_000_000, 1 << 40, u64::MAX / 1_000_000, u64::MAX];
        // A value up to one of the magnitudes, picked at random too.
        let any = |next: &mut dyn FnMut(u64) -> u64| {
            let m = magnitudes[next(5) as usize];
            next(m)
        };
        for _ in 0..20_000 {
            let mut c = SimClock::new();
            let mut now = 0u64;
            for _ in 0..next(4) {
                now = now.saturating_add(any(&mut next));
                match next(3) {
                    0 => c.set_drift(at(now), next(1_000_001) as i32 - 500_000),
                    1 => c.step(at(now), next(1 << 50) as i64 - (1 << 49)),
                    _ => c.step(at(now), i64::MIN / (1 + next(4) as i64)),
                }
            }
            let later = at(now.saturating_add(any(&mut next)));
            assert_eq!(c.read(later), c.read_wide(later), "{c:?} at {later:?}");
            let local = at(any(&mut next));
            let wide = if c.read_wide(later) >= local {
                later
            } else {
                c.true_time_of_wide(later, local)
            };
            assert_eq!(
                c.true_time_of(later, local),
                wide,
                "{c:?} {later:?} {local:?}"
            );
        }
    }
}
