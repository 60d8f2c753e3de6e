//! Durations in words (`60s`, `1500ms`, `2m`, `1h`): the one parser of the CLI's duration
//! flags, a fault's `at=` and `duration=`, and the property `no-leader-for=` (CLI and JS
//! `Search` alike), so every caller takes the same units and the same whole milliseconds.

/// Largest time a duration takes, ms (10^15; a run is bounded lower still, at
/// [`crate::scenario::MAX_DURATION_MS`]).
pub(crate) const MAX_FLAG_MS: u64 = 1_000_000_000_000_000;

/// `1500ms` as (`1500`, `ms`): the letters at the end are the unit (`""` when there are none);
/// a character outside ASCII counts as a letter (`1µs` has the unit `µs`), which spares the
/// wasm modules Unicode's tables.
pub(crate) fn split_unit(t: &str) -> (&str, &str) {
    // Bytes, not chars: a split after an ASCII byte is a char boundary, and byte loops keep
    // the wasm modules small.
    let at = t
        .bytes()
        .rposition(|b| b.is_ascii() && !b.is_ascii_alphabetic())
        .map_or(0, |i| i + 1);
    t.split_at(at)
}

/// Whether `t` is a plain decimal number (`2000`, `1.5`, `-3`): digits with at most a sign and
/// a point. Bytes, not `str::parse::<f64>`, whose parser would be the largest code in the
/// search module.
pub(crate) fn is_number(t: &str) -> bool {
    let t = t.strip_prefix('-').unwrap_or(t);
    t.bytes().any(|b| b.is_ascii_digit())
        && t.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && t.bytes().filter(|&b| b == b'.').count() <= 1
}

/// Parses `60s`, `1500ms`, `2m`, `1h`, `1.5s` into whole milliseconds; a unit is required. The
/// one duration parser of the CLI's flags, a fault's `at=` and `duration=`, and the property
/// `no-leader-for=` (CLI and JS `Search` alike). The number is read exactly as written
/// (decimal digits, no float rounding), and a value that is not a whole number of
/// milliseconds (`1.5ms`, `1.0000001s`) is refused, naming the 1 ms resolution, rather than
/// rounded (docs/conventions.md, "Times finer than their resolution are refused"). Above
/// 10^15 ms it is refused too.
pub fn parse_duration_ms(s: &str) -> Result<u64, String> {
    match duration_ms(s) {
        Err(why) => Err(format!("`{s}` {why}")),
        Ok(ms) if ms > MAX_FLAG_MS => {
            Err(format!("`{s}` is not a duration between 0 and 10^15 ms"))
        }
        ok => ok,
    }
}

/// [`parse_duration_ms`] with a value above 10^15 ms, however large, read as `u64::MAX`
/// rather than refused, for a caller with its own bound and words; an error is what follows
/// the value in a message (`is not a duration: ...`), so the caller shows the value as its
/// caller wrote it. Few `format!`s: each one grows the wasm modules.
pub(crate) fn duration_ms(s: &str) -> Result<u64, String> {
    const HUGE: u64 = u64::MAX;
    let t = s.trim();
    let (num, unit) = split_unit(t);
    if num.trim().is_empty() {
        // `lots`, `s`: no number at all, so no unit to name.
        return Err("is not a duration: give a number and a unit, as in 60s, 1500ms or 2m".into());
    }
    let scale: u64 = match unit {
        "ms" => 1,
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        "" => return Err("is not a duration: give a unit, as in 60s, 1500ms or 2m".into()),
        // `1us`, `2sec`: a unit of another tool, named rather than read as a number with a
        // stray letter ("`1u` is not a number").
        _ => {
            return Err(format!(
                "is not a duration: unknown unit `{unit}`; use ms, s, m or h (duration flags \
                 count whole milliseconds)"
            ));
        }
    };
    let num = num.trim();
    if num.as_bytes().first() == Some(&b'-') && is_number(num) {
        return Err("is not a duration: a duration is 0 or more".into());
    }
    let (whole, frac) = match num.bytes().position(|b| b == b'.') {
        Some(i) => (&num[..i], &num[i + 1..]),
        None => (num, ""),
    };
    let digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && frac.is_empty()) || !digits(whole) || !digits(frac) {
        return Err(format!("is not a duration: `{num}` is not a number"));
    }
    // Digits only from here: a value that overflows is huge. Byte loops and no u128 keep
    // the wasm modules small.
    let value = |d: &str| {
        d.bytes().try_fold(0u64, |v, b| {
            v.checked_mul(10)?.checked_add(u64::from(b - b'0'))
        })
    };
    let whole = match value(whole).and_then(|w| w.checked_mul(scale)) {
        Some(ms) if ms <= MAX_FLAG_MS => ms,
        _ => return Ok(HUGE),
    };
    // Trailing zeros change nothing; past 9 digits what is left is never whole ms (the
    // largest scale, 3,600,000, is 2^7 3^2 5^5: a fraction of more than 7 digits that does
    // not end in 0 never comes to whole ms).
    let frac = &frac[..frac.bytes().rposition(|b| b != b'0').map_or(0, |i| i + 1)];
    let finer = "is finer than 1 ms: durations count whole milliseconds (their resolution is 1 ms)";
    if frac.len() > 9 {
        return Err(finer.into());
    }
    let den = 10u64.pow(u32::try_from(frac.len()).unwrap_or(9));
    // Below 10^9 times at most 3,600,000: no overflow.
    let part = value(frac).unwrap_or(0) * scale;
    if !part.is_multiple_of(den) {
        return Err(finer.into());
    }
    Ok(whole + part / den)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_read_exactly_without_wide_or_float_arithmetic() {
        assert_eq!(duration_ms("1.5000000000000000000000s"), Ok(1_500));
        assert_eq!(duration_ms("0.0078125h"), Ok(28_125));
        assert_eq!(duration_ms("1h"), Ok(3_600_000));
        assert!(
            duration_ms("0.00000001h")
                .unwrap_err()
                .starts_with("is finer than 1 ms")
        );
        assert!(
            duration_ms("1.0000000001s")
                .unwrap_err()
                .starts_with("is finer than 1 ms")
        );
        assert_eq!(duration_ms("99999999999999999999999h"), Ok(u64::MAX));
        assert!(parse_duration_ms("1000000000000001ms").is_err());
        assert_eq!(parse_duration_ms("1000000000000000ms"), Ok(MAX_FLAG_MS));
        assert!(
            duration_ms("1µs")
                .unwrap_err()
                .contains("unknown unit `µs`")
        );
        assert!(duration_ms("-1s").unwrap_err().contains("0 or more"));
        assert!(
            duration_ms("1.2.3s")
                .unwrap_err()
                .contains("`1.2.3` is not a number")
        );
        assert!(is_number("2000") && is_number("-1.5") && !is_number(".") && !is_number("1e3"));
    }

    #[test]
    fn durations_need_a_unit() {
        assert_eq!(parse_duration_ms("60s"), Ok(60_000));
        assert_eq!(parse_duration_ms("1500ms"), Ok(1_500));
        assert_eq!(parse_duration_ms("2m"), Ok(120_000));
        assert_eq!(parse_duration_ms("1.5s"), Ok(1_500));
        assert!(parse_duration_ms("60").is_err());
        assert!(parse_duration_ms("-1s").is_err());
        assert!(parse_duration_ms("xs").is_err());
        // Not rounded away (new-user review: `0.0001ms` used to run for 0 ms).
        assert!(parse_duration_ms("0.0001ms").is_err());
        assert!(parse_duration_ms("1.5ms").is_err());
        assert_eq!(parse_duration_ms("0.1s"), Ok(100));
        // Read exactly: a tenth of a nanosecond is not rounded away (one rule with the
        // scenario reader and JS: finer than the resolution is refused).
        assert!(parse_duration_ms("1.0000000001s").is_err());
        assert_eq!(parse_duration_ms("1.000s"), Ok(1_000));
        assert_eq!(parse_duration_ms(".5s"), Ok(500));
        assert!(parse_duration_ms("1e3ms").is_err());
        assert!(parse_duration_ms("99999999999999999999999h").is_err());
        // A unit it does not take is named, with the units it does.
        assert_eq!(
            parse_duration_ms("1us"),
            Err(
                "`1us` is not a duration: unknown unit `us`; use ms, s, m or h (duration \
                 flags count whole milliseconds)"
                    .into()
            )
        );
        assert!(
            parse_duration_ms("2sec")
                .unwrap_err()
                .contains("unknown unit `sec`")
        );
        assert_eq!(
            parse_duration_ms("xs"),
            Err("`xs` is not a duration: give a number and a unit, as in 60s, 1500ms or 2m".into())
        );
    }
}
