//! splitmix64: the room's one random stream, portable and pinned to published vectors.
//!
//! Hand-written on purpose (as the rulebook's was): the whole generator is its state, so the
//! state is a plain `u64` the hash covers and a replay restores, with no crate's private layout.

/// A splitmix64 stream. The state is the whole generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SplitMix64 {
    pub state: u64,
}

impl SplitMix64 {
    pub const fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A draw in `lo..=hi` (modulo reduction; the bias is below 2⁻³² for the spans we use and,
    /// more importantly, identical on every platform).
    pub fn range_inclusive(&mut self, lo: u32, hi: u32) -> u32 {
        let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
        let span = (hi - lo) as u64 + 1;
        lo + (self.next_u64() % span) as u32
    }

    /// Pick an index in `0..len` (`len` ≥ 1).
    pub fn index(&mut self, len: usize) -> usize {
        (self.next_u64() % len.max(1) as u64) as usize
    }

    /// A child stream that does not disturb the parent.
    pub fn fork(&self, salt: u64) -> SplitMix64 {
        let mut child = SplitMix64::new(self.state ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        child.next_u64();
        child
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_vectors_for_seed_1234567() {
        // The reference outputs of Vigna's splitmix64.c for seed 1234567.
        let mut r = SplitMix64::new(1_234_567);
        let expected = [
            6_457_827_717_110_365_317u64,
            3_203_168_211_198_807_973,
            9_817_491_932_198_370_423,
            4_593_380_528_125_082_431,
            16_408_922_859_458_223_821,
        ];
        for e in expected {
            assert_eq!(r.next_u64(), e);
        }
    }

    #[test]
    fn seed_zero_first_output() {
        assert_eq!(SplitMix64::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn range_stays_inside_bounds() {
        let mut r = SplitMix64::new(9);
        for _ in 0..1000 {
            let v = r.range_inclusive(3, 7);
            assert!((3..=7).contains(&v));
        }
        assert_eq!(r.range_inclusive(5, 5), 5);
    }

    #[test]
    fn fork_leaves_parent_untouched() {
        let r = SplitMix64::new(42);
        let _ = r.fork(7);
        assert_eq!(r.state, 42);
    }
}
