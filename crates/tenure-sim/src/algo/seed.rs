//! Per-process seeds split from the scenario seed.

/// A seed for process `p` in its `incarnation` (0 at first start, +1 per restart), so that a
/// restarted node does not replay its earlier random draws.
pub(crate) fn split(seed: u64, p: usize, incarnation: u64) -> u64 {
    let mut z = seed
        .wrapping_add((p as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(incarnation.wrapping_mul(0xD1B5_4A32_D192_ED03));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
