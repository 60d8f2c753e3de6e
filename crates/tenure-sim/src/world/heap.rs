//! A 4-ary min-heap of `u128` keys for the event queue: half the levels of a binary heap, so
//! a pop moves its key down fewer times, and the four children it compares are adjacent.
//! The keys are unique (the queue's sequence numbers are), so the order of equal keys never
//! matters.

/// The heap: `keys[0]` is the least; the children of `i` are `4i + 1 ..= 4i + 4`.
#[derive(Clone, Debug, Default)]
pub(super) struct QuadHeap {
    keys: Vec<u128>,
}

impl QuadHeap {
    /// Keys held.
    pub(super) fn len(&self) -> usize {
        self.keys.len()
    }

    /// The least key.
    pub(super) fn peek(&self) -> Option<u128> {
        self.keys.first().copied()
    }

    /// Every key, in no particular order.
    pub(super) fn iter(&self) -> impl Iterator<Item = u128> + '_ {
        self.keys.iter().copied()
    }

    /// Adds `key`.
    // Native builds inline this into the event loop (a call per event saved); the
    // wasm modules, built for size, keep it out of line (docs/performance.md).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(super) fn push(&mut self, key: u128) {
        let mut i = self.keys.len();
        self.keys.push(key);
        while i > 0 {
            let parent = (i - 1) / 4;
            let above = self.keys[parent];
            if above <= key {
                break;
            }
            self.keys[i] = above;
            i = parent;
        }
        self.keys[i] = key;
    }

    /// Takes the least key out.
    // Native builds inline this into the queue's pop (out of line, the call and the
    // `Option<u128>` it returns cost some 25 instructions a pop); the wasm modules, built
    // for size, keep it out of line (docs/performance.md).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(super) fn pop(&mut self) -> Option<u128> {
        let last = self.keys.pop()?;
        let Some(&top) = self.keys.first() else {
            return Some(last);
        };
        // Sift the last key down from the root into the hole the least one leaves.
        let n = self.keys.len();
        let mut i = 0;
        loop {
            let first = 4 * i + 1;
            let (least, key) = match self.keys.get(first..first + 4) {
                Some(&[a, b, c, d]) => least_of_four(first, [a, b, c, d]),
                _ if first < n => self.least_from(first),
                _ => break,
            };
            if key >= last {
                break;
            }
            self.keys[i] = key;
            i = least;
        }
        self.keys[i] = last;
        Some(top)
    }

    /// The least of the keys from `first` to the end (fewer than four), with its index.
    fn least_from(&self, first: usize) -> (usize, u128) {
        let mut least = (first, u128::MAX);
        for (c, &k) in self.keys.iter().enumerate().skip(first) {
            if k < least.1 {
                least = (c, k);
            }
        }
        least
    }

    /// Every key, least first.
    pub(super) fn into_sorted(self) -> Vec<u128> {
        let mut keys = self.keys;
        keys.sort_unstable();
        keys
    }

    /// A heap of `keys` (sorted ascending, which is already a heap).
    pub(super) fn from_vec(mut keys: Vec<u128>) -> Self {
        keys.sort_unstable();
        QuadHeap { keys }
    }
}

/// The least of the four children `first..first + 4` (`keys`), with its index: two pairs,
/// then their winners, with no loop and one bounds check for the four loads.
#[inline(always)]
fn least_of_four(first: usize, [a, b, c, d]: [u128; 4]) -> (usize, u128) {
    let left = if b < a { (first + 1, b) } else { (first, a) };
    let right = if d < c {
        (first + 3, d)
    } else {
        (first + 2, c)
    };
    if right.1 < left.1 { right } else { left }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_every_key_least_first_through_pushes_and_pops_interleaved() {
        let mut h = QuadHeap::default();
        let mut x: u128 = 7;
        let mut held = Vec::new();
        let mut out = Vec::new();
        for round in 0..2_000u32 {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407)
                % (1 << 100);
            h.push(x);
            held.push(x);
            if round % 3 == 0 {
                held.sort_unstable();
                let least = held.remove(0);
                assert_eq!(h.peek(), Some(least));
                out.push(h.pop());
                assert_eq!(out.last().copied().flatten(), Some(least));
            }
        }
        held.sort_unstable();
        assert_eq!(h.len(), held.len());
        assert_eq!(h.clone().into_sorted(), held);
        let drained: Vec<u128> = std::iter::from_fn(|| h.pop()).collect();
        assert_eq!(drained, held);
        assert_eq!(h.pop(), None);
        let rebuilt = QuadHeap::from_vec(vec![5, 1, 4, 2, 3]);
        assert_eq!(rebuilt.peek(), Some(1));
    }
}
