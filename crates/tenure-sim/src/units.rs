//! Milliseconds at the JSON boundary, microseconds inside.
//!
//! Scenarios and snapshots give times in milliseconds as JSON numbers (fractions down to 1 us
//! allowed), as docs/design.md "Time and numbers" asks; the simulator works in integer
//! microseconds ([`tenure::Duration`], [`tenure::Instant`]).

use core::fmt;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use tenure::{Duration, Instant};

/// A non-negative span given in milliseconds in JSON, held as whole microseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Ms(pub Duration);

impl Ms {
    /// `ms` whole milliseconds.
    pub const fn from_millis(ms: u64) -> Ms {
        Ms(Duration::from_millis(ms))
    }
    /// The span in microseconds.
    pub const fn micros(self) -> u64 {
        self.0.as_micros()
    }
    /// The span as a [`Duration`].
    pub const fn duration(self) -> Duration {
        self.0
    }
    /// The same span measured from the origin of true time.
    pub const fn instant(self) -> Instant {
        Instant::from_micros(self.0.as_micros())
    }
}

impl fmt::Display for Ms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// Microseconds to fractional milliseconds, for JSON output.
pub fn us_to_ms(us: u64) -> f64 {
    // Precision loss only beyond 2^53 us (285 years of simulated time).
    #[allow(clippy::cast_precision_loss)]
    let v = us as f64;
    v / 1000.0
}

// The one millisecond -> microsecond rule shared by the scenario reader and the wasm
// bindings lives in the core, so the machines' wasm module needs no simulator.
pub use tenure::time::{MillisError, ms_to_us};

/// `v` as Rust's `Display` writes it: the shortest digits that read back as `v`, never an
/// exponent (`1.5`, `0.0000001`, `1000000000000000000000`, `-0`, `NaN`, `inf`). Messages
/// that quote a number the caller gave use it. With the `js` feature on wasm32 (the
/// bindings) the digits come from JS's `Number.prototype.toString`, which picks the same
/// shortest digits (ECMA-262, Number::toString), so the module carries no float formatting
/// of its own and the text is the same as natively.
pub fn float_text(v: f64) -> String {
    #[cfg(all(feature = "js", target_arch = "wasm32"))]
    {
        if v.is_nan() {
            return String::from("NaN");
        }
        if v.is_infinite() {
            return String::from(if v > 0.0 { "inf" } else { "-inf" });
        }
        if v == 0.0 {
            return String::from(if v.is_sign_negative() { "-0" } else { "0" });
        }
        let js = js_sys::Number::from(v)
            .to_string_with_radix(10)
            .map(String::from)
            .unwrap_or_default();
        without_exponent(&js)
    }
    #[cfg(not(all(feature = "js", target_arch = "wasm32")))]
    {
        v.to_string()
    }
}

/// A finite number JS wrote (`1.5`, `1e+21`, `-1.5e-7`) in plain decimal notation, as Rust
/// writes it (`1000000000000000000000`, `-0.00000015`).
#[cfg_attr(not(all(feature = "js", target_arch = "wasm32")), allow(dead_code))]
fn without_exponent(js: &str) -> String {
    let Some((mantissa, exp)) = js.split_once('e') else {
        return js.to_owned();
    };
    let exp: i64 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let len = i64::try_from(digits.len()).unwrap_or(i64::MAX);
    // How many of the digits come before the decimal point.
    let point = exp.saturating_add(1);
    let zeros = |n: i64| "0".repeat(usize::try_from(n).unwrap_or(0));
    if point <= 0 {
        format!("{sign}0.{}{digits}", zeros(-point))
    } else if point >= len {
        format!("{sign}{digits}{}", zeros(point - len))
    } else {
        let (whole, fraction) = digits.split_at(usize::try_from(point).unwrap_or(0));
        format!("{sign}{whole}.{fraction}")
    }
}

/// Serializes microseconds as fractional milliseconds: the simulator's records keep `_us`
/// in Rust and are `_ms` in JSON (the CLI's output and the JS `Simulation` alike).
pub(crate) fn ser_ms<S: Serializer>(us: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(us_to_ms(*us))
}

/// [`ser_ms`] for an optional time (`null` when absent).
#[allow(clippy::ref_option)] // serde's serialize_with passes a reference
pub(crate) fn ser_opt_ms<S: Serializer>(us: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
    match us {
        Some(us) => s.serialize_some(&us_to_ms(*us)),
        None => s.serialize_none(),
    }
}

/// [`ser_ms`] for a list of times.
pub(crate) fn ser_vec_ms<S: Serializer>(us: &[u64], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(us.iter().map(|&v| us_to_ms(v)))
}

/// Whether a whole number of ms is written as an integer. JSON text (natively) holds any
/// whole number exactly, so it is; a JS number (the wasm modules write JS values, whose
/// serializer refuses an integer it cannot hold exactly) only up to 2^53 - 1, so above it the
/// time is written as the nearest float, which is what a JS caller gave (their number) and
/// reads back as that number.
fn whole_ms_fits(ms: u64) -> bool {
    cfg!(not(target_arch = "wasm32")) || ms < 1 << 53
}

impl Serialize for Ms {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let us = self.micros();
        if us.is_multiple_of(1000) && whole_ms_fits(us / 1000) {
            s.serialize_u64(us / 1000)
        } else {
            s.serialize_f64(us_to_ms(us))
        }
    }
}

impl<'de> Deserialize<'de> for Ms {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Ms, D::Error> {
        d.deserialize_f64(MsVisitor)
    }
}

/// Reads a time in ms: a whole number as it is written (JSON text can hold integers a float
/// cannot, such as 9007199254740993, which would round to ...992), anything else as a float.
struct MsVisitor;

impl serde::de::Visitor<'_> for MsVisitor {
    type Value = Ms;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number")
    }

    fn visit_u64<E: serde::de::Error>(self, ms: u64) -> Result<Ms, E> {
        ms.checked_mul(1000)
            .map(|us| Ms(Duration::from_micros(us)))
            .ok_or_else(|| E::custom(out_of_range(&ms)))
    }

    fn visit_i64<E: serde::de::Error>(self, ms: i64) -> Result<Ms, E> {
        match u64::try_from(ms) {
            Ok(ms) => self.visit_u64(ms),
            Err(_) => Err(E::custom(out_of_range(&ms))),
        }
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Ms, E> {
        ms_to_us(v)
            .map(|us| Ms(Duration::from_micros(us)))
            .map_err(|e| E::custom(millis_words(v, e)))
    }
}

/// Why `v` ms is not a time, with the value and the rule: a time finer than its resolution
/// (1 microsecond) is refused rather than rounded, as the JS bindings refuse it
/// (docs/conventions.md, "Times finer than their resolution are refused").
fn millis_words(v: f64, e: MillisError) -> String {
    match e {
        MillisError::SubMicrosecond => format!(
            "{} ms is finer than 1 microsecond (0.001 ms), the resolution of times: give at \
             most 3 decimals",
            float_text(v)
        ),
        MillisError::OutOfRange => out_of_range(&float_text(v)),
    }
}

/// The words for a time in ms outside 0 ..< 2^64 microseconds.
fn out_of_range(v: &dyn fmt::Display) -> String {
    format!(
        "{v} is not a time in milliseconds: give a finite number, 0 or more, below 2^64 \
         microseconds"
    )
}

/// A signed span given in milliseconds in JSON, held as whole microseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct SignedMs(pub i64);

impl Serialize for SignedMs {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 % 1000 == 0 && whole_ms_fits((self.0 / 1000).unsigned_abs()) {
            s.serialize_i64(self.0 / 1000)
        } else {
            #[allow(clippy::cast_precision_loss)]
            let v = self.0 as f64 / 1000.0;
            s.serialize_f64(v)
        }
    }
}

impl<'de> Deserialize<'de> for SignedMs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SignedMs, D::Error> {
        let v = f64::deserialize(d)?;
        let us = ms_to_us(v.abs()).ok().and_then(|us| i64::try_from(us).ok());
        match us {
            Some(us) if v < 0.0 => Ok(SignedMs(us.saturating_neg())),
            Some(us) => Ok(SignedMs(us)),
            None => Err(serde::de::Error::custom(match ms_to_us(v.abs()) {
                Err(MillisError::SubMicrosecond) => millis_words(v, MillisError::SubMicrosecond),
                // The sign as the caller wrote it, and the signed range.
                _ => format!(
                    "{} is not a time span in milliseconds: give a finite number, positive or \
                     negative, under 2^63 microseconds in size",
                    float_text(v)
                ),
            })),
        }
    }
}

/// A probability in `[0, 1]`, checked when read from JSON; hashed by its bits.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Probability(f64);

impl Probability {
    /// `p`, or `None` outside `[0, 1]` (or NaN).
    pub fn new(p: f64) -> Option<Probability> {
        (0.0..=1.0).contains(&p).then_some(Probability(p))
    }
    /// The value in `[0, 1]`.
    pub fn get(self) -> f64 {
        self.0
    }
    /// The value in parts per million.
    pub fn ppm(self) -> u32 {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let v = (self.0 * 1_000_000.0).round() as u32;
        v
    }
}

impl Eq for Probability {}

impl core::hash::Hash for Probability {
    fn hash<H: core::hash::Hasher>(&self, h: &mut H) {
        self.0.to_bits().hash(h);
    }
}

impl Serialize for Probability {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.0)
    }
}

impl<'de> Deserialize<'de> for Probability {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Probability, D::Error> {
        let v = f64::deserialize(d)?;
        Probability::new(v).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "{} is not a probability from 0 to 1",
                float_text(v)
            ))
        })
    }
}

/// The seeds a scenario (and a search, and the failover lab) takes, in JS notation: a JSON or
/// JavaScript number holds every whole number only up to 2 ** 53 - 1.
pub const SEED_RANGE: &str = "a seed is a whole number from 0 to 2 ** 53 - 1, \
     or a bigint or decimal string from 0 to 2n ** 64n - 1n";

/// Reads a seed: a `u64` given as a JSON number or as a decimal string
/// (`"18446744073709551615"`), since JavaScript cannot put integers above 2^53 in JSON text
/// as numbers (a JS `bigint` arrives as an integer).
///
/// Errors name the value and [`SEED_RANGE`]: `invalid value: ...` for a number or string that
/// is not a whole number in range (a fraction, a negative, a number past 2 ** 53 - 1),
/// `invalid type: ...` for anything else.
pub fn u64_number_or_string<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    seed_of(serde_json::Value::deserialize(d)?)
}

/// [`u64_number_or_string`] for an optional seed: `null` is "not given".
pub fn optional_u64_number_or_string<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<u64>, D::Error> {
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::Null => Ok(None),
        v => seed_of(v).map(Some),
    }
}

fn seed_of<E: serde::de::Error>(v: serde_json::Value) -> Result<u64, E> {
    use serde_json::Value;
    let range = |shown: &dyn fmt::Display| {
        E::custom(format!(
            "invalid value: {shown} is not a seed: {SEED_RANGE}"
        ))
    };
    match v {
        Value::Number(n) => n.as_u64().ok_or_else(|| match n.as_f64() {
            // A whole number past 2^53 arrived as a float: it may not be the number the
            // caller wrote (2**60 + 1 reads as 2**60), so say so instead of "not whole".
            Some(f)
                if f.fract() == 0.0
                    && (9_007_199_254_740_992.0..1.844_674_407_370_955_2e19).contains(&f) =>
            {
                E::custom(format!(
                    "invalid value: {} is above 2 ** 53 - 1, where a number no longer holds \
                     every whole number exactly: give it as a bigint or a decimal string \
                     ({SEED_RANGE})",
                    float_text(f)
                ))
            }
            Some(f) => range(&float_text(f)),
            None => range(&n),
        }),
        Value::String(t) => t.parse().map_err(|_| range(&format!("\"{t}\""))),
        other => Err(E::custom(format!(
            "invalid type: {other}, expected a number, a bigint or a decimal string"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signed_span_out_of_range_keeps_its_sign_and_says_the_signed_range() {
        let err = serde_json::from_str::<SignedMs>("-1.8e16")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with(
                "-18000000000000000 is not a time span in milliseconds: give a finite number, \
                 positive or negative, under 2^63 microseconds in size"
            ),
            "{err}"
        );
        let err = serde_json::from_str::<SignedMs>("-0.0001")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("-0.0001 ms is finer than 1 microsecond"),
            "{err}"
        );
        assert_eq!(
            serde_json::from_str::<SignedMs>("-2.5").unwrap(),
            SignedMs(-2_500)
        );
    }

    #[test]
    fn whole_ms_are_integers_in_json_text_however_large() {
        // Natively (JSON text) every whole number is written exactly; the wasm modules write
        // a float above 2^53 - 1 ms (`whole_ms_fits`), checked in tests/pkg.
        let ms = Ms(Duration::from_micros(9_007_199_254_740_993_000));
        assert_eq!(serde_json::to_string(&ms).unwrap(), "9007199254740993");
    }

    #[test]
    fn whole_microseconds_pass_and_finer_fractions_do_not() {
        assert_eq!(ms_to_us(1.5), Ok(1_500));
        assert_eq!(
            ms_to_us(0.1 + 0.2),
            Ok(300),
            "float noise is not a fraction"
        );
        assert_eq!(ms_to_us(0.001), Ok(1));
        assert_eq!(ms_to_us(0.0004), Err(MillisError::SubMicrosecond), "0.4 us");
        assert_eq!(ms_to_us(10.0004), Err(MillisError::SubMicrosecond));
        assert_eq!(ms_to_us(-1.0), Err(MillisError::OutOfRange));
        assert_eq!(ms_to_us(f64::NAN), Err(MillisError::OutOfRange));
    }

    /// JS's `Number.prototype.toString` of `v`, from Rust's shortest digits (`{:e}`): plain
    /// from 1e-7 up to 1e21, else with an exponent (`1e+21`, `1.5e-7`).
    fn js_text(v: f64) -> String {
        let a = v.abs();
        if (1e-7..1e21).contains(&a) {
            return v.to_string();
        }
        let e = format!("{v:e}");
        match e.split_once('e') {
            Some((m, x)) if !x.starts_with('-') => format!("{m}e+{x}"),
            _ => e,
        }
    }

    #[test]
    fn numbers_in_js_notation_are_written_as_rust_writes_them() {
        let values = [
            1.5,
            -1.5,
            0.1 + 0.2,
            1e21,
            1.5e21,
            -2.5e300,
            1e-7,
            1.5e-7,
            -1.25e-300,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            123_456_789.125,
            1.152_921_504_606_847e18,
            9_007_199_254_740_993.0,
        ];
        for v in values {
            assert_eq!(without_exponent(&js_text(v)), v.to_string(), "{v:e}");
        }
        assert_eq!(without_exponent("1e+21"), "1000000000000000000000");
        assert_eq!(without_exponent("-1.5e-7"), "-0.00000015");
        assert_eq!(float_text(2.0), "2");
        assert_eq!(float_text(-0.0), "-0");
    }

    #[test]
    fn whole_milliseconds_in_json_text_are_read_exactly() {
        let read = |text: &str| serde_json::from_str::<Ms>(text).map_err(|e| e.to_string());
        // 2^53 + 1 has no f64: read through a float it became 9007199254740992 ms.
        assert_eq!(
            read("9007199254740993").map(Ms::micros),
            Ok(9_007_199_254_740_993_000)
        );
        assert_eq!(read("2000").map(Ms::micros), Ok(2_000_000));
        assert_eq!(read("1.5").map(Ms::micros), Ok(1_500));
        let too_long = read("18446744073709552").err().unwrap_or_default();
        assert!(
            too_long.starts_with("18446744073709552 is not a time in milliseconds"),
            "{too_long}"
        );
        let negative = read("-3").err().unwrap_or_default();
        assert!(
            negative.starts_with("-3 is not a time in milliseconds"),
            "{negative}"
        );
    }
}
