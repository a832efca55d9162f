//! The seeded mutator: a real input in, a hostile variant out (bit flips, byte sets,
//! truncation, extension, splicing, length-field tweaks), each choice drawn from one
//! [`SplitMix64`] so a seed names its inputs exactly.

use crate::sim::rng::SplitMix64;

/// One edit the mutator can make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Flip one bit.
    FlipBit,
    /// Set one byte to a boundary value (0, 1, 0x7f, 0x80, 0xff, …) or a random one.
    SetByte,
    /// Cut the input at a random point.
    Truncate,
    /// Append random bytes or a repeat of the input's own tail.
    Extend,
    /// Replace a range with a range of another real input.
    Splice,
    /// Nudge a byte, a little-endian u16 or a QUIC-style varint prefix: where length and count
    /// fields live in every format here, off by one or maximal.
    TweakLength,
    /// Remove a range.
    Delete,
    /// Copy a range over another place in the input.
    Duplicate,
}

impl Edit {
    pub const ALL: [Edit; 8] = [
        Edit::FlipBit,
        Edit::SetByte,
        Edit::Truncate,
        Edit::Extend,
        Edit::Splice,
        Edit::TweakLength,
        Edit::Delete,
        Edit::Duplicate,
    ];
}

/// Boundary bytes: where parsers' checks are off by one.
const BOUNDARY: [u8; 10] = [0x00, 0x01, 0x02, 0x3f, 0x40, 0x7f, 0x80, 0xc0, 0xfe, 0xff];

/// A variant of `base` after 1–4 edits; `others` feeds splices (it may be empty).
pub fn mutate(rng: &mut SplitMix64, base: &[u8], others: &[Vec<u8>]) -> Vec<u8> {
    let mut out = base.to_vec();
    let edits = 1 + rng.index(4);
    for _ in 0..edits {
        let edit = Edit::ALL[rng.index(Edit::ALL.len())];
        apply(rng, edit, &mut out, others);
    }
    out
}

/// Apply one edit in place.
pub fn apply(rng: &mut SplitMix64, edit: Edit, out: &mut Vec<u8>, others: &[Vec<u8>]) {
    let len = out.len();
    match edit {
        Edit::FlipBit if len > 0 => {
            let i = rng.index(len);
            out[i] ^= 1 << rng.index(8);
        }
        Edit::SetByte if len > 0 => {
            let i = rng.index(len);
            out[i] = if rng.index(2) == 0 {
                BOUNDARY[rng.index(BOUNDARY.len())]
            } else {
                rng.next_u64() as u8
            };
        }
        Edit::Truncate if len > 0 => out.truncate(rng.index(len)),
        Edit::Extend => {
            let n = 1 + rng.index(64);
            if len > 0 && rng.index(2) == 0 {
                let from = rng.index(len);
                let tail: Vec<u8> = out[from..].iter().copied().cycle().take(n).collect();
                out.extend(tail);
            } else {
                out.extend((0..n).map(|_| rng.next_u64() as u8));
            }
        }
        Edit::Splice if !others.is_empty() => {
            let other = &others[rng.index(others.len())];
            if other.is_empty() {
                return;
            }
            let from = rng.index(other.len());
            let n = 1 + rng.index(other.len() - from);
            let at = rng.index(len + 1);
            let end = (at + n).min(len);
            out.splice(at..end, other[from..from + n].iter().copied());
        }
        Edit::TweakLength if len > 0 => tweak_length(rng, out),
        Edit::Delete if len > 0 => {
            let at = rng.index(len);
            let n = 1 + rng.index((len - at).min(32));
            out.drain(at..at + n);
        }
        Edit::Duplicate if len > 1 => {
            let from = rng.index(len);
            let n = 1 + rng.index((len - from).min(32));
            let chunk: Vec<u8> = out[from..from + n].to_vec();
            let at = rng.index(len);
            out.splice(at..at, chunk);
        }
        // An edit that needs bytes it does not have is a no-op (the next one may apply).
        _ => {}
    }
}

/// Rewrite one byte, u16 or varint prefix as a length would go wrong.
fn tweak_length(rng: &mut SplitMix64, out: &mut [u8]) {
    let i = rng.index(out.len());
    match rng.index(5) {
        0 => out[i] = out[i].wrapping_add(1),
        1 => out[i] = out[i].wrapping_sub(1),
        // A QUIC varint whose 2-bit prefix claims 8 bytes: the longest length field.
        2 => out[i] |= 0xc0,
        3 if i + 1 < out.len() => out[i..i + 2].copy_from_slice(&u16::MAX.to_le_bytes()),
        _ => {
            let v = (rng.next_u64() as u16).to_be_bytes();
            out[i] = v[0];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_names_its_variants_exactly() {
        let base = b"level: (id: \"x\")".to_vec();
        let others = vec![b"other text".to_vec()];
        let run = |seed| {
            let mut rng = SplitMix64::new(seed);
            (0..50).map(|_| mutate(&mut rng, &base, &others)).collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
        assert!(run(7).iter().any(|v| v != &base), "some variant differs from the base");
    }

    #[test]
    fn every_edit_applies_to_empty_and_one_byte_inputs() {
        let mut rng = SplitMix64::new(3);
        for edit in Edit::ALL {
            for base in [vec![], vec![0x41]] {
                let mut out = base.clone();
                apply(&mut rng, edit, &mut out, &[vec![1, 2, 3]]);
                assert!(out.len() <= base.len() + 64 + 3);
            }
        }
    }
}
