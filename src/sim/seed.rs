//! Deterministic variation: every "random" choice in the simulator is drawn from a hash of
//! its inputs, so the same request always yields the same content.

/// FNV-1a over bytes; small, stable across platforms and releases (unlike `DefaultHasher`).
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// Hash of several text parts; a separator keeps ("ab","c") apart from ("a","bc").
pub(crate) fn hash_parts(parts: &[&str]) -> u64 {
    let mut joined = Vec::new();
    for part in parts {
        joined.extend_from_slice(part.as_bytes());
        joined.push(0x1f);
    }
    fnv1a(&joined)
}

/// Marks the variation of a fresh ask (expiration=0) apart from a cacheable one's epoch:
/// the samples of one prompt and place keep a steady core of picks and vary the rest.
pub(crate) const FRESH_ASK: u64 = 1 << 62;

/// SplitMix64 stream: a good spread from consecutive seeds, which FNV alone does not give.
#[derive(Clone, Debug)]
pub(crate) struct Mix {
    state: u64,
}

impl Mix {
    pub(crate) fn new(seed: u64) -> Self {
        Mix { state: seed }
    }

    pub(crate) fn of(parts: &[&str]) -> Self {
        Mix::new(hash_parts(parts))
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in 0..n; 0 when n is 0 so callers need no special case.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in lo..=hi.
    pub(crate) fn between(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return lo;
        }
        lo + self.next_u64() % (hi - lo + 1)
    }

    pub(crate) fn chance(&mut self, probability: f64) -> bool {
        self.unit() < probability
    }

    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// `count` distinct indices of 0..len, in drawn order.
    pub(crate) fn sample_indices(&mut self, len: usize, count: usize) -> Vec<usize> {
        let mut indices: Vec<usize> = (0..len).collect();
        let take = count.min(len);
        for i in 0..take {
            let j = i + self.below(len - i);
            indices.swap(i, j);
        }
        indices.truncate(take);
        indices
    }

    /// A UUID-shaped hex id, for markup attributes that look like the live pages' ids.
    pub(crate) fn uuid_like(&mut self) -> String {
        let a = self.next_u64();
        let b = self.next_u64();
        format!(
            "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0x0fff,
            0x8000 | ((b >> 48) & 0x3fff),
            b & 0xffff_ffff_ffff
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_parts_same_stream_and_separator_matters() {
        assert_eq!(
            Mix::of(&["a", "b"]).next_u64(),
            Mix::of(&["a", "b"]).next_u64()
        );
        assert_ne!(hash_parts(&["ab", "c"]), hash_parts(&["a", "bc"]));
    }

    #[test]
    fn unit_and_below_stay_in_range() {
        let mut mix = Mix::new(7);
        for _ in 0..1000 {
            let u = mix.unit();
            assert!((0.0..1.0).contains(&u));
            assert!(mix.below(5) < 5);
            let v = mix.between(3, 6);
            assert!((3..=6).contains(&v));
        }
        assert_eq!(mix.below(0), 0);
        let picked = mix.sample_indices(10, 4);
        assert_eq!(picked.len(), 4);
        let mut sorted = picked.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 4);
    }
}
