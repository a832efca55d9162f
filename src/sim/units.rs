//! Fixed-point units and every rulebook constant, converted once to integers with its unit.
//!
//! Lengths are µtiles (1 tile = 1 000 000) in `i32`; durations are ticks at 20 Hz; velocities
//! are µtiles per tick; accelerations are µtiles per tick per tick; quality is ppm.

/// µtiles in one tile.
pub const TILE: i32 = 1_000_000;
/// Half a tile in µtiles: a tile's centre offset.
pub const HALF_TILE: i32 = TILE / 2;
/// Ticks per second (the rulebook's STEP_DT = 0.05 s).
pub const TICK_HZ: u32 = 20;
/// The most cooks a kitchen seats (the rulebook's four).
pub const MAX_COOKS: usize = 4;

/// A grid cell coordinate: x is the column, y the row (row 0 is the first string of the file).
pub type Cell = (i32, i32);

/// Speed ceiling: 3.5 tiles/s = 175 000 µtiles/tick.
pub const MAX_SPEED: i32 = 175_000;
/// How fast intent becomes velocity: 30 tiles/s² = 75 000 µtiles/tick².
pub const ACCEL: i32 = 75_000;
/// How fast velocity goes away when the stick centres: 40 tiles/s² = 100 000 µtiles/tick².
pub const DECEL: i32 = 100_000;
/// Half-width of a cook's body square: 0.35 tile.
pub const RADIUS: i32 = 350_000;
/// Overlap below this is not a collision (1 µtile: integer geometry has no float noise, so the
/// rulebook's 1e-6 tile slop becomes the smallest representable length).
pub const PUSH_SLOP: i32 = 1;
/// Soft-push passes per tick: two drain a chain of four cooks.
pub const PUSH_ITERATIONS: u32 = 2;
/// A hit keeps a cook still for 0.6 s = 12 ticks.
pub const STUN_TICKS: u32 = 12;

/// A dash's speed: 3 × MAX_SPEED = 10.5 tiles/s = 525 000 µtiles/tick (under a tile a tick,
/// though the sweep would stop it flush at any speed).
pub const DASH_SPEED: i32 = 3 * MAX_SPEED;
/// A dash lasts 5 ticks (0.25 s): 4 at `DASH_SPEED`, the last at walking speed, 2.275 tiles on
/// open floor.
pub const DASH_TICKS: u32 = 5;
/// Ticks from one dash press to the next one allowed (0.8 s, counted from the press).
pub const DASH_COOLDOWN_TICKS: u32 = 16;
/// A thrown item's speed: 10 tiles/s = 500 000 µtiles/tick, so it enters at most one new cell
/// a tick.
pub const THROW_SPEED: i32 = 500_000;
/// A throw flies 8 ticks (0.4 s) at most: 4 tiles from the thrower's centre.
pub const THROW_TICKS: u32 = 8;
/// The top of a throw's arc, µtiles above the hands (display only: the rules never read it).
pub const THROW_PEAK: i32 = 600_000;
/// A cook catches an item whose flight passes within this of its centre on both axes (half a
/// tile: a cook covers its own tile's width).
pub const CATCH_REACH: i32 = HALF_TILE;

/// The move vector's full length on the wire: −1000..=1000 per axis, length clamped to 1000.
pub const MOVE_UNIT: i32 = 1000;

/// First targeting tier: the tile in front, centre to centre (1.0 tile).
pub const REACH: i32 = TILE;
/// Forgiveness on top of REACH (0.6 tile).
pub const FORGIVE: i32 = 600_000;
/// A target is in reach when its centre is at most this far from the cook (inclusive).
pub const REACH_LIMIT: i32 = REACH + FORGIVE;

/// The hand-off window, inclusive: a pick of another cook's set-down is a pass while
/// `pick_tick − placed_tick ≤ 20`.
pub const HANDOFF_WINDOW_TICKS: u32 = 20;
/// The 8th tick of one hold at the trash destroys the carried item, never the 7th.
pub const TRASH_HOLD_TICKS: u32 = 8;
/// The raw score nudge a trashed item is worth (spent by scoring, floored at 0 overall).
pub const TRASH_SCORE_DELTA: i32 = -2;

/// Fresh food: 1 000 000 ppm.
pub const QUALITY_FULL: u32 = 1_000_000;

/// Convert whole seconds to ticks (for constants written in seconds).
pub const fn secs(s: u32) -> u32 {
    s * TICK_HZ
}

/// The centre of a cell along one axis, in µtiles.
pub const fn cell_centre(c: i32) -> i32 {
    c * TILE + HALF_TILE
}

/// The cell index that contains a µtile coordinate (floor division, so −1 µtile is cell −1).
pub const fn cell_of(v: i32) -> i32 {
    v.div_euclid(TILE)
}

/// Integer length of a 2D vector (floor of the Euclidean norm).
pub fn length(x: i64, y: i64) -> i64 {
    (x * x + y * y).isqrt()
}

/// Clamp a wire move vector to −1000..=1000 per axis and to length ≤ 1000, so a hostile value
/// is a direction, not a teleport, and a diagonal is not √2 faster.
pub fn clamp_move(x: i32, y: i32) -> (i32, i32) {
    let x = x.clamp(-MOVE_UNIT, MOVE_UNIT) as i64;
    let y = y.clamp(-MOVE_UNIT, MOVE_UNIT) as i64;
    let unit = MOVE_UNIT as i64;
    // Compare squares, not the floored root: a stick of true length 1000.4 is too long.
    if x * x + y * y <= unit * unit {
        (x as i32, y as i32)
    } else {
        let len = length(x, y);
        ((x * MOVE_UNIT as i64 / len) as i32, (y * MOVE_UNIT as i64 / len) as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_match_the_rulebook() {
        // 3.5 tiles/s × 0.05 s; 30 and 40 tiles/s² × 0.05² s².
        assert_eq!(MAX_SPEED as i64 * TICK_HZ as i64, 3_500_000);
        assert_eq!(ACCEL as i64 * (TICK_HZ * TICK_HZ) as i64, 30_000_000);
        assert_eq!(DECEL as i64 * (TICK_HZ * TICK_HZ) as i64, 40_000_000);
        assert_eq!(STUN_TICKS, 12);
        assert_eq!(REACH_LIMIT, 1_600_000);
    }

    #[test]
    fn clamp_move_keeps_directions_and_caps_length() {
        assert_eq!(clamp_move(50_000, 0), (1000, 0));
        assert_eq!(clamp_move(1000, 1000), (707, 707));
        assert_eq!(clamp_move(-1000, 1000), (-707, 707));
        assert_eq!(clamp_move(300, -400), (300, -400));
        assert_eq!(clamp_move(i32::MIN, i32::MAX), (-707, 707));
    }

    #[test]
    fn cell_of_floors_negative_coordinates() {
        assert_eq!(cell_of(0), 0);
        assert_eq!(cell_of(999_999), 0);
        assert_eq!(cell_of(1_000_000), 1);
        assert_eq!(cell_of(-1), -1);
    }
}
