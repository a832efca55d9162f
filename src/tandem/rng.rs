//! The course generator's one seeded stream: xoroshiro128+ (the generator behind Nim's
//! `std/random`, which the seed's rules name), its two words seeded by splitmix64.
//!
//! The mode's own, apart from the kitchen's `sim::rng`: Tandem draws only while building a
//! course (tick 0) and never after, and its rules must not import the cooking rules.

/// xoroshiro128+; the state is the whole generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CourseRng {
    s0: u64,
    s1: u64,
}

/// One splitmix64 step (seeding only).
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl CourseRng {
    /// The stream of a course seed.
    pub fn new(seed: u64) -> Self {
        let mut s = seed;
        let (s0, s1) = (splitmix(&mut s), splitmix(&mut s));
        // xoroshiro's one forbidden state; splitmix never yields two zeros, but be explicit.
        if s0 == 0 && s1 == 0 { CourseRng { s0: 1, s1: 0 } } else { CourseRng { s0, s1 } }
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        let (s0, mut s1) = (self.s0, self.s1);
        let out = s0.wrapping_add(s1);
        s1 ^= s0;
        self.s0 = s0.rotate_left(55) ^ s1 ^ (s1 << 14);
        self.s1 = s1.rotate_left(36);
        out
    }

    /// A draw in `lo..=hi` (`lo ≤ hi`), by modulo: the bias is below 2⁻⁵⁰ for the spans the
    /// generator uses, and identical on every target.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = (hi - lo).max(0) as u64 + 1;
        lo + (self.next_u64() % span) as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_pinned() {
        // Pinned outputs: a change here changes every course and every golden.
        let mut r = CourseRng::new(1);
        let first: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        assert_eq!(
            first,
            [5_761_717_516_557_699_368u64, 17_295_345_234_682_295_910, 1_053_790_060_648_499_002]
        );
        assert_ne!(CourseRng::new(2).next_u64(), first[0]);
    }

    #[test]
    fn ranges_stay_inside() {
        let mut r = CourseRng::new(7);
        for _ in 0..2000 {
            let v = r.range(-1200, 1200);
            assert!((-1200..=1200).contains(&v));
        }
        assert_eq!(r.range(4, 4), 4);
    }
}
