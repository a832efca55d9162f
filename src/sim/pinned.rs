//! The pinned pocket (stage 3): a pair that the soft push left deeper in each other than a
//! walking tick and than the tick found it, while a third cook touches them, names the
//! cluster's driver to revert.
//!
//! Two bodies between a wall and a third body cannot both give way: each pair step of the push
//! gains separation against terrain, then the next pair step hands it back, so the pair sinks
//! as deep as the driver pushes. Terrain alone never calls that a deadlock (§6.5), so the rule
//! looks at the cooks instead: the cluster of bodies touching the pair, and of them the cook
//! whose own move this tick ranks highest. Integer geometry, seat order, no allocation.

use super::cook::Cook;
use super::units::{MAX_COOKS, MAX_SPEED, PUSH_SLOP, RADIUS};
use super::v2::V2;

/// How deep two bodies are in each other: the overlap on the shallower axis when both axes
/// overlap beyond slop (the depth `tests/sim.rs` watches), else 0.
pub fn depth(a: V2, b: V2) -> i32 {
    let (ox, oy) = (2 * RADIUS - (a.x - b.x).abs(), 2 * RADIUS - (a.y - b.y).abs());
    if ox > PUSH_SLOP && oy > PUSH_SLOP { ox.min(oy) } else { 0 }
}

/// Do two bodies touch or overlap (flush counts: the push leaves separated pairs flush)?
fn touching(a: V2, b: V2) -> bool {
    (a.x - b.x).abs() <= 2 * RADIUS && (a.y - b.y).abs() <= 2 * RADIUS
}

/// The cooks connected to `seed` through bodies that touch, as a bit set over cook indices.
fn cluster(cooks: &[Cook], seed: usize) -> u32 {
    let mut set = 1u32 << seed;
    // A fixed point in at most `cooks.len()` rounds: each round adds a cook or ends.
    for _ in 0..cooks.len() {
        let before = set;
        for (k, cook) in cooks.iter().enumerate() {
            if set & (1 << k) == 0
                && (0..cooks.len()).any(|m| set & (1 << m) != 0 && touching(cooks[m].pos, cook.pos))
            {
                set |= 1 << k;
            }
        }
        if set == before {
            break;
        }
    }
    set
}

/// The cook to revert, if any: for the first pair (seat order) left deeper than `MAX_SPEED` and
/// than it began the tick, with a third body touching it, the cluster's driver — of the
/// cluster's cooks that sent a frame, moved under their own input this tick (`premove !=
/// start`) and are not reverted yet, the highest rank `(frame tick, seq, seat)`. A cluster with
/// no such cook is left as it is (a frameless cook never loses, as in the deadlock revert).
pub fn driver(cooks: &[Cook], starts: &[V2], premove: &[V2], reverted: u32) -> Option<usize> {
    debug_assert!(cooks.len() <= MAX_COOKS);
    for i in 0..cooks.len() {
        for j in i + 1..cooks.len() {
            let now = depth(cooks[i].pos, cooks[j].pos);
            if now <= MAX_SPEED || now <= depth(starts[i], starts[j]) {
                continue;
            }
            let set = cluster(cooks, i);
            if set.count_ones() < 3 {
                continue;
            }
            let rank = |k: usize| cooks[k].input.rank.map(|(t, s)| (t, s, cooks[k].seat));
            let best = (0..cooks.len())
                .filter(|&k| set & (1 << k) != 0 && reverted & (1 << k) == 0)
                .filter(|&k| premove[k] != starts[k])
                .filter_map(|k| rank(k).map(|r| (r, k)))
                .max();
            if let Some((_, k)) = best {
                return Some(k);
            }
        }
    }
    None
}
