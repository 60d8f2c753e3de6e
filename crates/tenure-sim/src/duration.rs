//! Durations in words (`60s`, `1500ms`, `2m`, `1h`): the one parser of the CLI's duration
//! flags, a fault's `at=` and `duration=`, and the property `no-leader-for=` (CLI and JS
//! `Search` alike), so every caller takes the same units and the same whole milliseconds.

/// Largest time a duration takes, ms (10^15; a run is bounded lower still, at
/// [`crate::scenario::MAX_DURATION_MS`]).
pub(crate) const MAX_FLAG_MS: u128 = 1_000_000_000_000_000;

/// The units a duration takes, as its messages list them.
pub(crate) const DURATION_UNITS: &str = "ms, s, m or h";

/// `1500ms` as (`1500`, `ms`): the letters at the end are the unit (`""` when there are none).
pub(crate) fn split_unit(t: &str) -> (&str, &str) {
    let num = t.trim_end_matches(char::is_alphabetic);
    (num, &t[num.len()..])
}

/// Parses `60s`, `1500ms`, `2m`, `1h`, `1.5s` into whole milliseconds; a unit is required. The
/// one duration parser of the CLI's flags, a fault's `at=` and `duration=`, and the property
/// `no-leader-for=` (CLI and JS `Search` alike). The number is read exactly as written
/// (decimal digits, no float rounding), and a value that is not a whole number of
/// milliseconds (`1.5ms`, `1.0000001s`) is refused, naming the 1 ms resolution, rather than
/// rounded (docs/conventions.md, "Times finer than their resolution are refused"). Above
/// 10^15 ms it is refused too.
pub fn parse_duration_ms(s: &str) -> Result<u64, String> {
    match duration_ms(s)? {
        ms if u128::from(ms) > MAX_FLAG_MS => {
            Err(format!("`{s}` is not a duration between 0 and 10^15 ms"))
        }
        ms => Ok(ms),
    }
}

/// [`parse_duration_ms`] with a value above 10^15 ms, however large, read as `u64::MAX`
/// rather than refused, for a caller with its own bound and words.
pub(crate) fn duration_ms(s: &str) -> Result<u64, String> {
    const HUGE: u64 = u64::MAX;
    let t = s.trim();
    let (num, unit) = split_unit(t);
    if num.trim().is_empty() {
        // `lots`, `s`: no number at all, so no unit to name.
        return Err(format!(
            "`{s}` is not a duration: give a number and a unit, as in 60s, 1500ms or 2m"
        ));
    }
    let scale: u128 = match unit {
        "ms" => 1,
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        "" => {
            return Err(format!(
                "`{s}` is not a duration: give a unit, as in 60s, 1500ms or 2m"
            ));
        }
        // `1us`, `2sec`: a unit of another tool, named rather than read as a number with a
        // stray letter ("`1u` is not a number").
        _ => {
            return Err(format!(
                "`{s}` is not a duration: unknown unit `{unit}`; use {DURATION_UNITS} \
                 (duration flags count whole milliseconds)"
            ));
        }
    };
    let num = num.trim();
    if num.starts_with('-') && num[1..].parse::<f64>().is_ok() {
        return Err(format!("`{s}` is not a duration: a duration is 0 or more"));
    }
    let (whole, frac) = num.split_once('.').unwrap_or((num, ""));
    let digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && frac.is_empty()) || !digits(whole) || !digits(frac) || frac.len() > 18 {
        return Err(format!("`{s}` is not a duration: `{num}` is not a number"));
    }
    // Digits only from here, so a parse fails only by overflow: a huge value.
    let whole: u128 = if whole.is_empty() {
        0
    } else if whole.len() > 20 {
        return Ok(HUGE);
    } else {
        whole.parse().unwrap_or(u128::MAX)
    };
    let frac_len = u32::try_from(frac.len()).unwrap_or(18);
    let frac: u128 = frac.parse().unwrap_or(0);
    let den = 10u128.pow(frac_len);
    // value in ms = (whole + frac / den) * scale, exactly.
    let numer = whole
        .saturating_mul(den)
        .saturating_add(frac)
        .saturating_mul(scale);
    if numer / den > MAX_FLAG_MS {
        return Ok(HUGE);
    }
    if numer % den != 0 {
        return Err(format!(
            "`{s}` is finer than 1 ms: durations count whole milliseconds (their resolution \
             is 1 ms)"
        ));
    }
    u64::try_from(numer / den).or(Ok(HUGE))
}
