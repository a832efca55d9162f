//! Movement: each tile kind, the tunnel attempt, diagonal parity, pushes, deadlock, stun, facing.

use super::{hold, place, room, send};
use crate::sim::cook::CookState;
use crate::sim::events::SimEvent;
use crate::sim::kinds::Dir4;
use crate::sim::movement::stun;
use crate::sim::room::Room;
use crate::sim::step_room;
use crate::sim::units::{MAX_SPEED, RADIUS, STUN_TICKS, TILE, cell_centre};
use crate::sim::v2::V2;

/// Walk right from (1,1) toward the tile at (3,1) for 40 ticks; return the final x.
fn walk_into(tile: char) -> i32 {
    let row = format!("#1.{tile}..#");
    let mut r = room(&["#######", &row, "#######"], 1);
    hold(&mut r, 0, (1000, 0), false, 40);
    r.cooks[0].pos.x
}

#[test]
fn each_tile_kind_blocks_or_lets_through() {
    let stop = 3 * TILE - RADIUS;
    let table = [
        ('#', Some(stop)),
        ('_', Some(stop)),
        ('-', Some(stop)),
        ('o', Some(stop)),
        ('K', Some(stop)),
        ('F', Some(stop)),
        ('U', Some(stop)),
        ('P', Some(stop)),
        ('R', Some(stop)),
        ('.', None),
        ('W', None),
        ('S', None),
        ('T', None),
    ];
    for (tile, expected) in table {
        let x = walk_into(tile);
        match expected {
            Some(limit) => assert_eq!(x, limit, "tile {tile:?} must stop the cook flush"),
            None => assert!(x > 4 * TILE, "tile {tile:?} must let the cook through (x = {x})"),
        }
    }
}

#[test]
fn nothing_walks_through_a_wall_even_at_ten_times_the_speed() {
    let mut r = room(&["#####", "#1#.#", "#####"], 1);
    r.cooks[0].modifiers.speed_ppm = 10_000_000;
    r.cooks[0].modifiers.accel_ppm = 10_000_000;
    hold(&mut r, 0, (1000, 0), false, 20);
    assert_eq!(r.cooks[0].pos.x, 2 * TILE - RADIUS);
}

#[test]
fn a_diagonal_is_no_faster_than_a_straight_line() {
    let mut a = room(&["##########", "#1.......#", "#........#", "#........#", "##########"], 1);
    let mut b = a.clone();
    hold(&mut a, 0, (1000, 0), false, 6);
    hold(&mut b, 0, (1000, 1000), false, 6);
    let straight = (a.cooks[0].pos.x - cell_centre(1)) as i64;
    let dx = (b.cooks[0].pos.x - cell_centre(1)) as i64;
    let dy = (b.cooks[0].pos.y - cell_centre(1)) as i64;
    let diagonal = (dx * dx + dy * dy).isqrt();
    // No √2 bonus; integer truncation of the unit diagonal (707/1000) may cost a hair.
    assert!(
        diagonal <= straight && straight - diagonal <= straight / 1000,
        "straight {straight}, diagonal {diagonal}"
    );
    assert!(a.cooks[0].vel.x <= MAX_SPEED);
}

#[test]
fn a_hostile_stick_walks_as_fast_as_a_full_one() {
    let mut a = room(&["########", "#1.....#", "########"], 1);
    let mut b = a.clone();
    hold(&mut a, 0, (1000, 0), false, 8);
    hold(&mut b, 0, (i16::MAX, 0), false, 8);
    assert_eq!(a.cooks[0].pos, b.cooks[0].pos);
}

#[test]
fn a_head_on_push_is_symmetric() {
    let mut r = room(&["#########", "#.......#", "#########"], 2);
    place(&mut r, 0, 4 * TILE, cell_centre(1), Dir4::Right);
    place(&mut r, 1, 4 * TILE + 400_000, cell_centre(1), Dir4::Left);
    step_room(&mut r);
    let (a, b) = (r.cooks[0].pos.x, r.cooks[1].pos.x);
    assert_eq!(b - a, 2 * RADIUS);
    assert_eq!((4 * TILE - a), (b - (4 * TILE + 400_000)), "each gives half");
}

#[test]
fn a_cook_pinned_by_a_wall_moves_the_other_the_full_amount() {
    let mut r = room(&["######", "#....#", "######"], 2);
    place(&mut r, 0, TILE + RADIUS, cell_centre(1), Dir4::Left);
    place(&mut r, 1, TILE + RADIUS + 300_000, cell_centre(1), Dir4::Left);
    step_room(&mut r);
    assert_eq!(r.cooks[0].pos.x, TILE + RADIUS);
    assert_eq!(r.cooks[1].pos.x, TILE + 3 * RADIUS);
}

#[test]
fn being_pushed_does_not_turn_or_fling() {
    let mut r = room(&["#########", "#.......#", "#########"], 2);
    place(&mut r, 0, 4 * TILE, cell_centre(1), Dir4::Up);
    place(&mut r, 1, 4 * TILE + 400_000, cell_centre(1), Dir4::Left);
    step_room(&mut r);
    assert_eq!(r.cooks[0].facing, Dir4::Up);
    assert_eq!(r.cooks[0].vel, V2::ZERO);
}

#[test]
fn an_alcove_deadlock_reverts_the_later_input() {
    // Two cooks stacked in a closed 1×1 alcove: no separation is possible on either axis.
    let mut r = room(&["###", "#1#", "###"], 2);
    place(&mut r, 0, cell_centre(1), cell_centre(1), Dir4::Up);
    place(&mut r, 1, cell_centre(1), cell_centre(1) + 100_000, Dir4::Up);
    let start1 = r.cooks[1].pos;
    send(&mut r, 1, (0, -1000), false, None);
    step_room(&mut r);
    assert_eq!(r.cooks[1].pos, start1, "the cook with the later input is put back");
    assert_eq!(r.cooks[1].vel, V2::ZERO);
    // A cook that sent no frame is never the loser.
    let mut r = room(&["###", "#1#", "###"], 2);
    place(&mut r, 0, cell_centre(1), cell_centre(1), Dir4::Up);
    place(&mut r, 1, cell_centre(1), cell_centre(1) + 100_000, Dir4::Up);
    send(&mut r, 0, (0, 1000), false, None);
    step_room(&mut r);
    assert_eq!(r.cooks[0].pos, V2::new(cell_centre(1), cell_centre(1)));
}

#[test]
fn four_cooks_in_a_doorway_drain_apart() {
    let mut r = room(&["#######", "#.....#", "###.###", "#.....#", "#######"], 4);
    for (seat, dx) in [(0u8, 0), (1, 200_000), (2, -200_000), (3, 100_000)] {
        place(&mut r, seat, cell_centre(3) + dx, cell_centre(1) + seat as i32 * 50_000, Dir4::Down);
    }
    for _ in 0..30 {
        for seat in 0..4 {
            send(&mut r, seat, (0, 0), false, None);
        }
        step_room(&mut r);
    }
    for i in 0..4 {
        for j in i + 1..4 {
            let (a, b) = (r.cooks[i].pos, r.cooks[j].pos);
            let ox = 2 * RADIUS - (a.x - b.x).abs();
            let oy = 2 * RADIUS - (a.y - b.y).abs();
            assert!(ox <= 1 || oy <= 1, "cooks {i} and {j} still overlap");
        }
    }
}

#[test]
fn stun_is_one_event_twelve_still_ticks_then_idle() {
    let mut r = room(&["#######", "#1....#", "#######"], 1);
    stun(&mut r.cooks[0]);
    let start = r.cooks[0].pos;
    let mut stunned_events = 0;
    for t in 0..STUN_TICKS {
        send(&mut r, 0, (1000, 0), false, None);
        step_room(&mut r);
        stunned_events += r.events.iter().filter(|e| matches!(e, SimEvent::Stunned { .. })).count();
        assert_eq!(r.cooks[0].pos, start, "tick {t}");
        assert_eq!(r.cooks[0].state, CookState::Stunned);
    }
    assert_eq!(stunned_events, 1);
    send(&mut r, 0, (1000, 0), false, None);
    step_room(&mut r);
    assert_ne!(r.cooks[0].pos, start, "moves again the tick the stun has run out");
    assert_eq!(r.cooks[0].state, CookState::Moving);
}

#[test]
fn the_facing_table() {
    let table: [((i16, i16), Option<Dir4>, Dir4); 7] = [
        ((1000, 0), None, Dir4::Right),
        ((-1000, 0), None, Dir4::Left),
        ((0, 1000), None, Dir4::Down),
        ((0, -1000), None, Dir4::Up),
        ((700, 700), None, Dir4::Right),
        ((0, 0), None, Dir4::Up),
        ((1000, 0), Some(Dir4::Down), Dir4::Down),
    ];
    for (mv, face, expected) in table {
        let mut r: Room = room(&["#####", "#...#", "#.1.#", "#...#", "#####"], 1);
        r.cooks[0].facing = Dir4::Up;
        send(&mut r, 0, mv, false, face);
        step_room(&mut r);
        assert_eq!(r.cooks[0].facing, expected, "{mv:?} {face:?}");
    }
}

#[test]
fn no_frame_brakes_to_a_stop() {
    let mut r = room(&["#########", "#1......#", "#########"], 1);
    hold(&mut r, 0, (1000, 0), false, 5);
    step_room(&mut r);
    step_room(&mut r);
    assert_eq!(r.cooks[0].vel, V2::ZERO);
}
