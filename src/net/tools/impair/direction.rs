//! Which way traffic flows through a proxy, and each direction's own seeded random stream.

use crate::sim::rng::SplitMix64;

/// Which way traffic flows through a proxy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Client → server.
    Up,
    /// Server → client.
    Down,
}

/// The random stream of one direction (of one TCP connection), derived from the caller's seed,
/// so the two directions' fates do not depend on how their traffic interleaves.
///
/// The stream starts at a mixed output, not at the seed nudged by the salt (as
/// `SplitMix64::fork` does): splitmix64 steps every stream by the same constant, so nudged
/// states of neighbouring salts would walk one step apart through nearly the same sequence.
pub(crate) fn stream(seed: u64, direction: Direction, connection: u64) -> SplitMix64 {
    let salt = connection.wrapping_mul(2) + u64::from(direction == Direction::Down) + 1;
    SplitMix64::new(SplitMix64::new(seed ^ salt.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64())
}
