//! Checked conversions between JS values and the core's numbers (docs/design.md, "Time and numbers").
//!
//! - `u64` quantities (fencing tokens, later terms and node ids) are `bigint` in JS. wasm-bindgen
//!   would wrap an out-of-range `bigint` silently, so arguments arrive as `JsValue` and are
//!   checked here (convention 14): not a `bigint` is a `TypeError`, negative or `>= 2^64` a
//!   `RangeError`.
//! - Times are milliseconds (`number`) in JS and integer microseconds in Rust: finite, `>= 0`,
//!   fractions kept down to 1 us (rounded to the nearest microsecond, so `1.005` is 1005 us even
//!   though `1.005 * 1000` is `1004.999..` in binary floating point).

use tenure::time::{MillisError, ms_to_us};
use tenure::{Duration, Instant};
use wasm_bindgen::JsValue;

use crate::error::{BindingError, Name, U64Arg, describe};

/// Reads a `u64` from a JS `bigint`, rejecting other types and out-of-range values.
///
/// Messages name the argument by the quantity (`token`); see [`u64_from_bigint_named`].
pub(crate) fn u64_from_bigint(value: &JsValue, arg: U64Arg) -> Result<u64, BindingError> {
    u64_from_bigint_named(value, arg, Name::Borrowed(arg.name()))
}

/// [`u64_from_bigint`], naming the argument `name` in messages (e.g. `from`, `msg.term`).
pub(crate) fn u64_from_bigint_named(
    value: &JsValue,
    arg: U64Arg,
    name: impl Into<Name>,
) -> Result<u64, BindingError> {
    if !value.is_bigint() {
        return Err(BindingError::NotBigint {
            arg,
            name: name.into(),
            got: describe(value),
        });
    }
    u64::try_from(value.clone()).map_err(|_| BindingError::BigintOutOfRange {
        arg,
        name: name.into(),
        value: bigint_preview(value),
    })
}

/// A `u64` as a JS `bigint`.
pub(crate) fn u64_to_bigint(value: u64) -> JsValue {
    JsValue::from(value)
}

/// The digits of a `bigint` for an error message: whole up to 48 digits, else the first 24,
/// an ellipsis and the count (a huge value is not copied into the message whole).
pub(crate) fn bigint_preview(value: &JsValue) -> String {
    let bigint: &js_sys::BigInt = wasm_bindgen::JsCast::unchecked_ref(value);
    let Ok(digits) = bigint.to_string(10) else {
        return String::from("?");
    };
    let len = digits.length();
    if len <= 48 {
        return String::from(digits);
    }
    format!("{}...({len} digits)", String::from(digits.slice(0, 24)))
}

/// The decimal digits of a JS `bigint` (any size), whole (`toJSON()` data).
pub(crate) fn bigint_digits(value: &JsValue) -> String {
    let bigint: &js_sys::BigInt = wasm_bindgen::JsCast::unchecked_ref(value);
    bigint
        .to_string(10)
        .map(String::from)
        .unwrap_or_else(|_| String::from("?"))
}

/// Converts milliseconds (a JS `number`) to whole microseconds, refusing a fraction below
/// one microsecond: the state machines' `now_ms` and durations.
///
/// Errors: not a number -> [`BindingError::NotMillis`]; otherwise see
/// [`exact_micros_from_ms_f64`].
pub(crate) fn exact_micros_from_millis(
    value: &JsValue,
    arg: impl Into<Name>,
) -> Result<u64, BindingError> {
    match value.as_f64() {
        Some(ms) => exact_micros_from_ms_f64(ms, arg),
        None => Err(BindingError::NotMillis {
            arg: arg.into(),
            got: describe(value),
        }),
    }
}

/// Converts milliseconds to whole microseconds, exactly, by the simulator's shared rule
/// ([`tenure::time::ms_to_us`]): float noise around a whole microsecond is accepted
/// (`1.005`, `0.1 + 0.2`); a real fraction of a microsecond (`0.0004`, Node's nanosecond
/// `performance.now()`) is misuse. `-0` is 0.
///
/// Errors: NaN, infinite, negative, or `>= 2^64` microseconds ->
/// [`BindingError::MillisOutOfRange`]; a sub-microsecond fraction ->
/// [`BindingError::MillisPrecision`].
pub(crate) fn exact_micros_from_ms_f64(ms: f64, arg: impl Into<Name>) -> Result<u64, BindingError> {
    ms_to_us(ms).map_err(|e| match e {
        MillisError::OutOfRange => BindingError::MillisOutOfRange {
            arg: arg.into(),
            value: ms,
        },
        MillisError::SubMicrosecond => BindingError::MillisPrecision {
            arg: arg.into(),
            value: ms,
        },
    })
}

/// Milliseconds (`number`) to a [`Duration`], exactly; see [`exact_micros_from_millis`].
#[allow(dead_code)] // Object fields go through `read::Fields::duration`; kept for arguments.
pub(crate) fn duration_from_millis(
    value: &JsValue,
    arg: impl Into<Name>,
) -> Result<Duration, BindingError> {
    exact_micros_from_millis(value, arg).map(Duration::from_micros)
}

/// Milliseconds (`number`) to an [`Instant`] on the caller's monotonic clock, exactly; see
/// [`exact_micros_from_millis`].
pub(crate) fn instant_from_millis(
    value: &JsValue,
    arg: impl Into<Name>,
) -> Result<Instant, BindingError> {
    exact_micros_from_millis(value, arg).map(Instant::from_micros)
}

/// Microseconds to milliseconds as a JS `number` (exact below 2^53 us, about 285 years).
#[allow(clippy::cast_precision_loss)]
pub(crate) fn millis_from_micros(us: u64) -> f64 {
    us as f64 / 1000.0
}

/// A [`Duration`] in milliseconds.
pub(crate) fn duration_to_millis(d: Duration) -> f64 {
    millis_from_micros(d.as_micros())
}

/// An [`Instant`] in milliseconds.
pub(crate) fn instant_to_millis(t: Instant) -> f64 {
    millis_from_micros(t.as_micros())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_of_a_millisecond_keep_whole_microseconds() {
        // docs/design.md "Time and numbers": ms in JS, fractions down to 1 us.
        assert_eq!(exact_micros_from_ms_f64(0.0, "now"), Ok(0));
        assert_eq!(exact_micros_from_ms_f64(-0.0, "now"), Ok(0));
        assert_eq!(exact_micros_from_ms_f64(0.001, "now"), Ok(1));
        assert_eq!(exact_micros_from_ms_f64(1.005, "now"), Ok(1005));
        assert_eq!(exact_micros_from_ms_f64(250.5, "now"), Ok(250_500));
    }

    #[test]
    fn exact_times_accept_float_noise_around_whole_microseconds() {
        assert_eq!(exact_micros_from_ms_f64(1.005, "now"), Ok(1005));
        assert_eq!(exact_micros_from_ms_f64(0.1 + 0.2, "now"), Ok(300));
        let mut t = 0.0;
        for _ in 0..10_000 {
            t += 0.1;
        }
        assert_eq!(exact_micros_from_ms_f64(t, "now"), Ok(1_000_000));
        assert_eq!(
            exact_micros_from_ms_f64(1e12 + 0.001, "now"),
            Ok(1_000_000_000_000_001)
        );
    }

    #[test]
    fn fractions_below_one_microsecond_are_precision_errors() {
        // Issue 6 item 3: "rejects ... fractions below 1 us".
        for bad in [0.0004, 0.0005, 0.000_002, 1.0001, 25.634208, 1e9 + 0.0005] {
            let err = exact_micros_from_ms_f64(bad, "now_ms").unwrap_err();
            assert_eq!(err.code(), "ERR_MILLIS_PRECISION", "{bad}");
            assert!(
                err.to_string()
                    .starts_with("now_ms must be a whole number of microseconds")
            );
        }
    }

    #[test]
    fn nan_infinite_negative_and_too_large_are_range_errors() {
        for bad in [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -0.001,
            -1.0,
            1.9e16,
        ] {
            let err = exact_micros_from_ms_f64(bad, "ttl").unwrap_err();
            assert_eq!(err.code(), "ERR_MILLIS_RANGE", "{bad}");
            assert!(err.to_string().starts_with("ttl must be"), "{err}");
        }
    }

    #[test]
    fn largest_representable_millis_round_trip_below_u64_max() {
        // 1.8e16 ms = 1.8e19 us < 2^64 (about 1.845e19).
        let us = exact_micros_from_ms_f64(1.8e16, "now").unwrap();
        assert_eq!(us, 18_000_000_000_000_000_000);
        assert_eq!(millis_from_micros(us), 1.8e16);
    }
}
