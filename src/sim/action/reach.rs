//! The reach zone: which fixture a press is aimed at (discrete cell walk, then distance).

use crate::sim::cook::Cook;
use crate::sim::events::DeniedReason;
use crate::sim::kinds::Dir4;
use crate::sim::room::Room;
use crate::sim::units::Cell;
use crate::sim::units::REACH_LIMIT;
use crate::sim::v2::V2;

/// The cells the hand walks, in priority order: the tile in front, the two diagonal-front tiles
/// (the one clockwise of the facing first), and the tile under the cook. The four facings are
/// rotations of one row, so a press feels the same whichever way the cook points.
pub fn candidate_cells(cell: Cell, facing: Dir4) -> [Cell; 4] {
    let (dx, dy) = facing.delta();
    let front = (cell.0 + dx, cell.1 + dy);
    // Clockwise on screen (y grows down) of (dx, dy) is (−dy, dx).
    let cw = (front.0 - dy, front.1 + dx);
    let ccw = (front.0 + dy, front.1 - dx);
    [front, cw, ccw, cell]
}

/// Is the centre of `cell` within REACH + FORGIVE of `pos` (inclusive)?
pub fn in_reach(pos: V2, cell: Cell) -> bool {
    let c = V2::centre_of(cell);
    let dx = (c.x - pos.x) as i64;
    let dy = (c.y - pos.y) as i64;
    dx * dx + dy * dy <= (REACH_LIMIT as i64) * (REACH_LIMIT as i64)
}

/// Is the centre of `cell` not behind the plane of the facing (level with the cook passes)?
pub fn faces(pos: V2, facing: Dir4, cell: Cell) -> bool {
    let c = V2::centre_of(cell);
    let (fx, fy) = facing.delta();
    (c.x - pos.x) as i64 * fx as i64 + (c.y - pos.y) as i64 * fy as i64 >= 0
}

/// The first fixture of the walk that is in reach and in front, or the reason there is none:
/// a fixture behind the facing plane is `NotFacing`, one past the forgiveness distance is
/// `OutOfReach` (both only when nothing nearer qualified), an empty zone is `NothingHere`.
pub fn select_target(room: &Room, cook: &Cook) -> Result<usize, DeniedReason> {
    let mut miss: Option<DeniedReason> = None;
    for cell in candidate_cells(cook.pos.cell(), cook.facing) {
        let Some(station) = room.level.station_at(cell) else {
            continue;
        };
        if !in_reach(cook.pos, cell) {
            miss.get_or_insert(DeniedReason::OutOfReach);
        } else if !faces(cook.pos, cook.facing, cell) {
            miss.get_or_insert(DeniedReason::NotFacing);
        } else {
            return Ok(station);
        }
    }
    Err(miss.unwrap_or(DeniedReason::NothingHere))
}
