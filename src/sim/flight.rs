//! One thrown item's flight: where it is, which way it goes, how long it has flown.

use super::ids::Seat;
use super::kinds::{Dir4, Tile};
use super::kitchen::Level;
use super::units::{THROW_PEAK, THROW_TICKS};
use super::v2::V2;

/// A flight: the place of an item in the air (`Place::Air`), so the items list, in id order,
/// is also the list of flights the flights stage walks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Flight {
    /// Who threw it (the landing's hand-off mark, and the catch event's `from`).
    pub thrower: Seat,
    pub dir: Dir4,
    /// The item's point, µtiles.
    pub pos: V2,
    /// Ticks flown so far (0 on the throw's own tick, before the first step).
    pub age: u32,
    /// The last point of the flight above a floor tile: where the item drops when the place it
    /// comes down on will not take it (none yet when thrown from a walkable fixture).
    pub last_floor: Option<V2>,
}

impl Flight {
    /// The flight the second button starts: `thrower`'s item leaves the hand at its centre
    /// `pos` along its facing `dir` (`last_floor` is that point when the cook stands on floor).
    pub fn thrown(level: &Level, thrower: Seat, pos: V2, dir: Dir4) -> Flight {
        let last_floor = (level.tile(pos.cell()) == Tile::Floor).then_some(pos);
        Flight { thrower, dir, pos, age: 0, last_floor }
    }

    /// The arc's height above the hands at `age` (µtiles, display only): a parabola that is 0
    /// at the throw and at full range and `THROW_PEAK` half way.
    pub fn height(&self) -> i32 {
        let (t, n) = (self.age.min(THROW_TICKS) as i64, THROW_TICKS as i64);
        (4 * THROW_PEAK as i64 * t * (n - t) / (n * n)) as i32
    }
}
