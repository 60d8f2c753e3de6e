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

const MICRO: i128 = 1_000_000;

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

    fn rate(&self) -> i128 {
        MICRO.saturating_add(i128::from(
            self.drift_ppm.clamp(-MAX_DRIFT_PPM, MAX_DRIFT_PPM),
        ))
    }

    fn line(&self, true_us: u64) -> i128 {
        let elapsed = i128::from(true_us.saturating_sub(self.anchor_true));
        self.anchor_local.saturating_add(
            elapsed
                .saturating_mul(self.rate())
                .checked_div(MICRO)
                .unwrap_or(0),
        )
    }

    /// The clock's reading at true time `now` (`now` must not precede the last change).
    pub fn read(&self, now: Instant) -> Instant {
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
    pub fn true_time_of(&self, now: Instant, local: Instant) -> Instant {
        if self.read(now) >= local {
            return now;
        }
        let need = i128::from(local.as_micros()).saturating_sub(self.anchor_local);
        let rate = self.rate();
        // ceil(need * 10^6 / rate), rate > 0 by the clamp.
        let scaled = need.saturating_mul(MICRO);
        let steps = scaled
            .saturating_add(rate.saturating_sub(1))
            .checked_div(rate)
            .unwrap_or(0)
            .max(0);
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
}
