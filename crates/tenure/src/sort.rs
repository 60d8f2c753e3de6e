//! One small unstable sort for the machines' short lists (due timers, a cluster's match
//! indexes and contact times, Bully's peers).
//!
//! `slice::sort_unstable` is pattern-defeating quicksort: fast on long inputs, and one
//! instantiation of it per element type cost the wasm module about 3 KB each (docs/bindings.md,
//! "Size budgets"). These lists hold a cluster's worth of entries, so an insertion sort (up to
//! 16 elements) or a heapsort (beyond: O(n log n) with no recursion and no allocation) does as
//! well in a fraction of the code.

/// Sorts `v` so that `less(a, b)` holds for no later `a` before an earlier `b` (unstable).
pub(crate) fn sort_by<T>(v: &mut [T], mut less: impl FnMut(&T, &T) -> bool) {
    let len = v.len();
    if len <= 16 {
        for i in 1..len {
            let mut j = i;
            while let Some(prev) = j.checked_sub(1) {
                if !in_order(v, &mut less, j, prev) {
                    break;
                }
                v.swap(j, prev);
                j = prev;
            }
        }
        return;
    }
    for node in (0..len.saturating_div(2)).rev() {
        sift_down(v, node, len, &mut less);
    }
    for end in (1..len).rev() {
        v.swap(0, end);
        sift_down(v, 0, end, &mut less);
    }
}

/// Whether `v[a]` sorts before `v[b]` (`false` when either is out of bounds).
fn in_order<T>(v: &[T], less: &mut impl FnMut(&T, &T) -> bool, a: usize, b: usize) -> bool {
    matches!((v.get(a), v.get(b)), (Some(x), Some(y)) if less(x, y))
}

/// Restores the max-heap order of `v[..end]` below `node`.
fn sift_down<T>(v: &mut [T], mut node: usize, end: usize, less: &mut impl FnMut(&T, &T) -> bool) {
    loop {
        let mut child = node.saturating_mul(2).saturating_add(1);
        if child >= end {
            return;
        }
        let right = child.saturating_add(1);
        if right < end && in_order(v, less, child, right) {
            child = right;
        }
        if !in_order(v, less, node, child) {
            return;
        }
        v.swap(node, child);
        node = child;
    }
}

#[cfg(test)]
mod tests {
    use super::sort_by;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn sorts_like_the_standard_sort(mut v in proptest::collection::vec(0u8..20, 0..80)) {
            let mut expected = v.clone();
            expected.sort_unstable();
            sort_by(&mut v, |a, b| a < b);
            prop_assert_eq!(v, expected);
        }

        #[test]
        fn sorts_descending_by_a_key(mut v in proptest::collection::vec((0u8..5, 0u16..1000), 0..80)) {
            let mut expected: Vec<_> = v.clone();
            expected.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            sort_by(&mut v, |a, b| (b.0, a.1) < (a.0, b.1));
            prop_assert_eq!(v, expected);
        }
    }
}
