//! Time as an input: [`Instant`] and [`Duration`] in integer microseconds.
//!
//! The core never reads a clock. Callers pass their monotonic reading as `now`, and a machine
//! feeds it through a [`Clock`], which clamps a reading that goes backwards to the latest one
//! seen (scenario S08, hashicorp/raft#108): nothing expires and nothing is extended by a
//! backwards step. All arithmetic saturates, so no input can overflow.

use core::fmt;
use core::ops::{Add, Sub};

/// A span of time in whole microseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
pub struct Duration(u64);

impl Duration {
    /// Zero length.
    pub const ZERO: Duration = Duration(0);
    /// The longest representable span.
    pub const MAX: Duration = Duration(u64::MAX);

    /// `us` microseconds.
    pub const fn from_micros(us: u64) -> Self {
        Duration(us)
    }
    /// `ms` milliseconds, saturating at [`Duration::MAX`].
    pub const fn from_millis(ms: u64) -> Self {
        Duration(ms.saturating_mul(1_000))
    }
    /// `s` seconds, saturating at [`Duration::MAX`].
    pub const fn from_secs(s: u64) -> Self {
        Duration(s.saturating_mul(1_000_000))
    }
    /// Length in microseconds.
    pub const fn as_micros(self) -> u64 {
        self.0
    }
    /// Length in whole milliseconds (rounded down).
    pub const fn as_millis(self) -> u64 {
        self.0 / 1_000
    }
    /// `self + rhs`, saturating at [`Duration::MAX`].
    pub const fn saturating_add(self, rhs: Duration) -> Duration {
        Duration(self.0.saturating_add(rhs.0))
    }
    /// `self - rhs`, or zero if `rhs` is longer.
    pub const fn saturating_sub(self, rhs: Duration) -> Duration {
        Duration(self.0.saturating_sub(rhs.0))
    }
    /// `self * n`, saturating at [`Duration::MAX`].
    pub const fn saturating_mul(self, n: u64) -> Duration {
        Duration(self.0.saturating_mul(n))
    }
    /// `self / n`, rounded down; `n == 0` yields zero rather than panicking.
    pub const fn checked_div_or_zero(self, n: u64) -> Duration {
        match self.0.checked_div(n) {
            Some(v) => Duration(v),
            None => Duration(0),
        }
    }
}

impl fmt::Display for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (ms, us) = (self.0 / 1_000, self.0 % 1_000);
        if us == 0 {
            write!(f, "{ms}ms")
        } else {
            write!(f, "{ms}.{us:03}ms")
        }
    }
}

/// A reading of some process's monotonic clock, in microseconds since that clock's origin.
///
/// Readings of different processes' clocks are not comparable: a lease deadline computed on
/// a contender's clock says nothing about the store's (design rule 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
pub struct Instant(u64);

impl Instant {
    /// The clock's origin.
    pub const ZERO: Instant = Instant(0);
    /// The far future; used as "never".
    pub const MAX: Instant = Instant(u64::MAX);

    /// `us` microseconds after the origin.
    pub const fn from_micros(us: u64) -> Self {
        Instant(us)
    }
    /// `ms` milliseconds after the origin, saturating.
    pub const fn from_millis(ms: u64) -> Self {
        Instant(ms.saturating_mul(1_000))
    }
    /// Microseconds since the origin.
    pub const fn as_micros(self) -> u64 {
        self.0
    }
    /// Time elapsed from `earlier` to `self`, zero if `earlier` is later.
    pub const fn saturating_since(self, earlier: Instant) -> Duration {
        Duration(self.0.saturating_sub(earlier.0))
    }
    /// `self + d`, saturating at [`Instant::MAX`].
    pub const fn saturating_add(self, d: Duration) -> Instant {
        Instant(self.0.saturating_add(d.0))
    }
    /// `self - d`, saturating at [`Instant::ZERO`].
    pub const fn saturating_sub(self, d: Duration) -> Instant {
        Instant(self.0.saturating_sub(d.0))
    }
}

impl Add<Duration> for Instant {
    type Output = Instant;
    /// Saturating: never overflows.
    fn add(self, d: Duration) -> Instant {
        self.saturating_add(d)
    }
}

impl Sub<Duration> for Instant {
    type Output = Instant;
    /// Saturating: never underflows.
    fn sub(self, d: Duration) -> Instant {
        self.saturating_sub(d)
    }
}

impl Add for Duration {
    type Output = Duration;
    /// Saturating: never overflows.
    fn add(self, d: Duration) -> Duration {
        self.saturating_add(d)
    }
}

impl Sub for Duration {
    type Output = Duration;
    /// Saturating: never underflows.
    fn sub(self, d: Duration) -> Duration {
        self.saturating_sub(d)
    }
}

impl fmt::Display for Instant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t={}", Duration(self.0))
    }
}

/// The latest clock reading a machine has seen; readings that go backwards are clamped.
///
/// Every input of every machine passes its `now` through [`Clock::observe`] first
/// (docs/design.md, "Time is the caller's monotonic clock").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Clock {
    latest: Instant,
}

impl Clock {
    /// A clock that has seen nothing yet (latest = [`Instant::ZERO`]).
    pub const fn new() -> Self {
        Clock {
            latest: Instant::ZERO,
        }
    }
    /// Records `now` and returns the effective time: `max(now, latest seen)`.
    pub fn observe(&mut self, now: Instant) -> Instant {
        if now > self.latest {
            self.latest = now;
        }
        self.latest
    }
    /// The latest reading seen.
    pub const fn now(&self) -> Instant {
        self.latest
    }
}

/// Why a millisecond value is not a number of whole microseconds (see [`ms_to_us`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MillisError {
    /// NaN, infinite, negative, or `2^64` microseconds or more.
    OutOfRange,
    /// A fraction finer than one microsecond, beyond floating-point noise.
    SubMicrosecond,
}

/// Fractional milliseconds (JSON, JS) to whole microseconds, the one conversion the
/// simulator's scenario reader and the wasm bindings share (docs/design.md "Time and
/// numbers": fractions down to 1 us). `ms * 1000` within float noise of a whole number (8
/// ulps, or 1 ns near zero) counts as that number, so `0.1 + 0.2` is 300 us; `-0` is 0.
///
/// Errors: [`MillisError::OutOfRange`] for NaN, infinities, negatives and `>= 2^64` us;
/// [`MillisError::SubMicrosecond`] for a finer fraction (`0.0004`).
pub fn ms_to_us(ms: f64) -> Result<u64, MillisError> {
    // 2^64 as f64 is exact; anything at or above it does not fit in u64.
    const LIMIT: f64 = 18_446_744_073_709_551_616.0;
    let scaled = ms * 1000.0;
    if !ms.is_finite() || ms < 0.0 || scaled >= LIMIT {
        return Err(MillisError::OutOfRange);
    }
    // Rounded half away from zero without `f64::round` (not in `core`): `scaled` is finite and
    // in 0..2^64, so the truncating cast is exact; a fraction exists only below 2^52, where
    // `whole + 1` is exact too.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let whole = scaled as u64;
    #[allow(clippy::cast_precision_loss)]
    let us = if scaled - whole as f64 >= 0.5 {
        whole.saturating_add(1)
    } else {
        whole
    };
    #[allow(clippy::cast_precision_loss)]
    let rounded = us as f64;
    let noise = scaled - rounded;
    let noise = if noise < 0.0 { -noise } else { noise };
    if noise > (rounded * 8.0 * f64::EPSILON).max(1e-3) {
        return Err(MillisError::SubMicrosecond);
    }
    Ok(us)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s08_clock_going_backwards_is_clamped() {
        // Scenario S08, setup 1 (hashicorp/raft#108): a reading 1 h earlier changes nothing.
        let mut clock = Clock::new();
        assert_eq!(
            clock.observe(Instant::from_millis(3_600_000)),
            Instant::from_millis(3_600_000)
        );
        assert_eq!(
            clock.observe(Instant::ZERO),
            Instant::from_millis(3_600_000)
        );
        assert_eq!(clock.now(), Instant::from_millis(3_600_000));
    }

    #[test]
    fn arithmetic_saturates_at_the_ends() {
        assert_eq!(Instant::MAX + Duration::from_micros(1), Instant::MAX);
        assert_eq!(Instant::ZERO - Duration::from_micros(1), Instant::ZERO);
        assert_eq!(Duration::from_millis(u64::MAX), Duration::MAX);
        assert_eq!(
            Duration::from_micros(5).checked_div_or_zero(0),
            Duration::ZERO
        );
        assert_eq!(Instant::ZERO.saturating_since(Instant::MAX), Duration::ZERO);
    }

    #[test]
    fn duration_displays_in_milliseconds() {
        assert_eq!(
            alloc::format!("{}", Duration::from_micros(1_500)),
            "1.500ms"
        );
        assert_eq!(alloc::format!("{}", Duration::from_secs(2)), "2000ms");
    }

    #[test]
    fn ms_to_us_rounds_float_noise_and_refuses_finer_fractions() {
        assert_eq!(ms_to_us(1.005), Ok(1_005));
        assert_eq!(ms_to_us(0.1 + 0.2), Ok(300));
        assert_eq!(ms_to_us(-0.0), Ok(0));
        assert_eq!(ms_to_us(0.0004), Err(MillisError::SubMicrosecond));
        assert_eq!(ms_to_us(-1.0), Err(MillisError::OutOfRange));
        assert_eq!(ms_to_us(f64::NAN), Err(MillisError::OutOfRange));
        assert_eq!(ms_to_us(f64::INFINITY), Err(MillisError::OutOfRange));
        assert_eq!(ms_to_us(2e16), Err(MillisError::OutOfRange));
        assert_eq!(ms_to_us(1.8446744073709e16), Ok(18_446_744_073_709_000_704));
    }
}
