//! The reach zone: the candidate walk, the forgiveness boundary, corners, walls, facing.

use super::{place, room};
use crate::sim::action::reach::{candidate_cells, in_reach, select_target};
use crate::sim::events::DeniedReason;
use crate::sim::kinds::Dir4;
use crate::sim::units::{TILE, cell_centre};
use crate::sim::v2::V2;

#[test]
fn candidate_walk_per_facing_is_one_rotated_row() {
    let table = [
        (Dir4::Right, [(3, 2), (3, 3), (3, 1), (2, 2)]),
        (Dir4::Down, [(2, 3), (1, 3), (3, 3), (2, 2)]),
        (Dir4::Left, [(1, 2), (1, 1), (1, 3), (2, 2)]),
        (Dir4::Up, [(2, 1), (3, 1), (1, 1), (2, 2)]),
    ];
    for (facing, expected) in table {
        assert_eq!(candidate_cells((2, 2), facing), expected, "{facing:?}");
    }
}

#[test]
fn forgiveness_boundary_is_inclusive_at_1_6_tiles() {
    let centre = V2::centre_of((5, 5));
    let cases = [(990_000, true), (1_600_000, true), (1_600_001, false), (1_610_000, false)];
    for (d, inside) in cases {
        let pos = V2::new(centre.x - d, centre.y);
        assert_eq!(in_reach(pos, (5, 5)), inside, "distance {d}");
    }
}

#[test]
fn diagonal_fixture_is_in_reach_from_the_near_corner_only() {
    // Counter diagonally down-right of the cook's tile (1,1) when facing right.
    let mut r = room(&["#####", "#.1.#", "#..-#", "#####"], 1);
    // Front cell (2,1)+... the cook stands in (1,1) facing right: front (2,1), cw (2,2).
    let near = (cell_centre(1) + 400_000, cell_centre(1) + 400_000);
    let far = (TILE + 10, TILE + 10);
    place(&mut r, 0, near.0 + TILE, near.1, Dir4::Right);
    // Standing in (2,1) at its near corner: front (3,1) is a wall, cw (3,2) is the counter.
    assert!(select_target(&r, &r.cooks[0]).is_ok());
    place(&mut r, 0, far.0 + TILE, far.1, Dir4::Right);
    assert_eq!(select_target(&r, &r.cooks[0]), Err(DeniedReason::OutOfReach));
}

#[test]
fn a_fixture_beyond_a_wall_is_nothing_here() {
    let mut r = room(&["######", "#1#-.#", "######"], 1);
    place(&mut r, 0, cell_centre(1), cell_centre(1), Dir4::Right);
    assert_eq!(select_target(&r, &r.cooks[0]), Err(DeniedReason::NothingHere));
}

#[test]
fn standing_on_a_window_past_its_centre_faces_away() {
    let mut r = room(&["#####", "#1W.#", "#####"], 1);
    // On the window (2,1), past its centre, facing right toward the wall-free floor.
    place(&mut r, 0, cell_centre(2) + 200_000, cell_centre(1), Dir4::Right);
    assert_eq!(select_target(&r, &r.cooks[0]), Err(DeniedReason::NotFacing));
    place(&mut r, 0, cell_centre(2), cell_centre(1), Dir4::Right);
    assert_eq!(select_target(&r, &r.cooks[0]), Ok(r.level.station_at((2, 1)).unwrap()));
}

#[test]
fn front_beats_diagonal_and_the_walk_is_position_invariant() {
    let mut r = room(&["#####", "#1-.#", "#.-.#", "#####"], 1);
    let front = r.level.station_at((2, 1)).unwrap();
    for (dx, dy) in [(-300_000, -300_000), (0, 0), (300_000, 300_000)] {
        place(&mut r, 0, cell_centre(1) + dx, cell_centre(1) + dy, Dir4::Right);
        assert_eq!(select_target(&r, &r.cooks[0]), Ok(front));
    }
}
