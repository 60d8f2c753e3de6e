//! Memory sizes on the command line (`check --max-memory 4GiB`): read with their unit, and
//! written back the same way.

/// Least and most memory `check --max-memory` takes, bytes (16 MiB: the process itself
/// holds a few; 1 TiB).
const MEMORY_RANGE: (u64, u64) = (16 << 20, 1 << 40);

/// Parses a memory size with its unit: `512MiB`, `4GiB`, `2GB`, `1TiB` (KiB, MiB, GiB and TiB
/// count 1,024s; KB, MB, GB and TB 1,000s), from 16MiB to 1TiB, into bytes.
pub(crate) fn parse_memory(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let units: [(&str, u64); 8] = [
        ("KiB", 1 << 10),
        ("MiB", 1 << 20),
        ("GiB", 1 << 30),
        ("TiB", 1 << 40),
        ("KB", 1_000),
        ("MB", 1_000_000),
        ("GB", 1_000_000_000),
        ("TB", 1_000_000_000_000),
    ];
    let range = "from 16MiB to 1TiB";
    let Some((num, scale)) = units
        .iter()
        .find_map(|(u, scale)| t.strip_suffix(u).map(|n| (n.trim(), *scale)))
    else {
        // A unit we do not know (`16mb`, `4g`) is named, not called missing.
        let unit = &t[t.trim_end_matches(char::is_alphabetic).len()..];
        if !unit.is_empty() {
            return Err(format!(
                "`{s}` is not a memory size: `{unit}` is not a unit; use KiB, MiB, GiB or TiB \
                 (1,024s) or KB, MB, GB or TB (1,000s), as written ({range})"
            ));
        }
        return Err(format!(
            "`{s}` is not a memory size: give a unit, as in 512MiB or 4GiB ({range})"
        ));
    };
    let bytes = match num.parse::<u64>() {
        Ok(n) => n.checked_mul(scale),
        Err(_) if num.bytes().all(|b| b.is_ascii_digit()) && !num.is_empty() => None,
        Err(_) => {
            return Err(format!(
                "`{s}` is not a memory size: `{num}` is not a whole number ({range}, as in 512MiB)"
            ));
        }
    };
    match bytes {
        Some(b) if (MEMORY_RANGE.0..=MEMORY_RANGE.1).contains(&b) => Ok(b),
        _ => Err(format!("`{s}` is not a memory size {range}")),
    }
}

/// A byte count in the largest binary unit that divides it: `2GiB`, `512MiB`, `1500000B`.
pub(crate) fn memory_words(bytes: u64) -> String {
    for (unit, scale) in [
        ("TiB", 1u64 << 40),
        ("GiB", 1 << 30),
        ("MiB", 1 << 20),
        ("KiB", 1 << 10),
    ] {
        if bytes >= scale && bytes.is_multiple_of(scale) {
            return format!("{}{unit}", bytes / scale);
        }
    }
    format!("{bytes}B")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_sizes_need_a_unit_and_a_range() {
        assert_eq!(parse_memory("2GiB"), Ok(2 << 30));
        assert_eq!(parse_memory("512MiB"), Ok(512 << 20));
        assert_eq!(parse_memory("1GB"), Ok(1_000_000_000));
        assert_eq!(memory_words(2 << 30), "2GiB");
        assert_eq!(memory_words(1_000_000_000), "1000000000B");
        for bad in [
            "2048",
            "1MiB",
            "2TiB",
            "1.5GiB",
            "-1GiB",
            "GiB",
            "99999999999999999999GiB",
        ] {
            let e = parse_memory(bad).unwrap_err();
            assert!(e.contains("16MiB to 1TiB"), "{bad}: {e}");
        }
        // A unit that is no memory unit is named as such, not called missing.
        let e = parse_memory("16mb").unwrap_err();
        assert!(e.contains("`mb` is not a unit"), "{e}");
        assert!(parse_memory("2048").unwrap_err().contains("give a unit"));
    }
}
