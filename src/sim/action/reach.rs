//! The reach zone: which fixture (or floor item) a press is aimed at (discrete cell walk, then
//! distance).

use crate::sim::cook::Cook;
use crate::sim::events::DeniedReason;
use crate::sim::ids::ItemId;
use crate::sim::item::Place;
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
    point_in_reach(pos, V2::centre_of(cell))
}

/// Is the point `c` within REACH + FORGIVE of `pos` (inclusive)?
pub fn point_in_reach(pos: V2, c: V2) -> bool {
    let dx = (c.x - pos.x) as i64;
    let dy = (c.y - pos.y) as i64;
    dx * dx + dy * dy <= (REACH_LIMIT as i64) * (REACH_LIMIT as i64)
}

/// Is the centre of `cell` not behind the plane of the facing (level with the cook passes)?
pub fn faces(pos: V2, facing: Dir4, cell: Cell) -> bool {
    point_faces(pos, facing, V2::centre_of(cell))
}

/// Is the point `c` not behind the plane of the facing?
pub fn point_faces(pos: V2, facing: Dir4, c: V2) -> bool {
    let (fx, fy) = facing.delta();
    (c.x - pos.x) as i64 * fx as i64 + (c.y - pos.y) as i64 * fy as i64 >= 0
}

/// The first fixture of the walk that is in reach and in front, or the reason there is none:
/// a fixture behind the facing plane is `NotFacing`, one past the forgiveness distance is
/// `OutOfReach` (both only when nothing nearer qualified), an empty zone is `NothingHere`.
pub fn select_target(room: &Room, cook: &Cook) -> Result<usize, DeniedReason> {
    match walk(room, cook, false)? {
        Aim::Station(s) => Ok(s),
        // Never reached: the walk only looks at the floor when asked to.
        Aim::Floor(_) => Err(DeniedReason::NothingHere),
    }
}

/// What a press is aimed at: a fixture, or an item lying on the floor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aim {
    Station(usize),
    Floor(ItemId),
}

/// The action button's aim: the same walk as [`select_target`], but a free hand also sees the
/// items lying on the floor cells of the walk (the lowest id first, each judged at its own
/// point), so a cell's fixture or floor item is taken in the walk's order.
pub fn select_aim(room: &Room, cook: &Cook) -> Result<Aim, DeniedReason> {
    walk(room, cook, cook.held.is_none())
}

fn walk(room: &Room, cook: &Cook, floor: bool) -> Result<Aim, DeniedReason> {
    let mut miss: Option<DeniedReason> = None;
    let mut judge = |at: V2, aim: Aim| {
        if !point_in_reach(cook.pos, at) {
            miss.get_or_insert(DeniedReason::OutOfReach);
            None
        } else if !point_faces(cook.pos, cook.facing, at) {
            miss.get_or_insert(DeniedReason::NotFacing);
            None
        } else {
            Some(aim)
        }
    };
    for cell in candidate_cells(cook.pos.cell(), cook.facing) {
        if let Some(station) = room.level.station_at(cell) {
            if let Some(aim) = judge(V2::centre_of(cell), Aim::Station(station)) {
                return Ok(aim);
            }
        } else if floor {
            for item in room.floor_items_in(cell) {
                let Place::Floor(at) = item.place else { continue };
                if let Some(aim) = judge(at, Aim::Floor(item.id)) {
                    return Ok(aim);
                }
            }
        }
    }
    Err(miss.unwrap_or(DeniedReason::NothingHere))
}
