//! Stage 6 at tick granularity: the modifier under the centre, the cart's knock on the first
//! overlapping tick, ignition on the exact delay tick, spread on the seeded tick, the
//! extinguish at hold − 1 vs hold, the shift warning and the move to the nearest safe tile.

use super::{place, send};
use crate::level::recipes::builtin_recipes;
use crate::level::sketch::sketch_level;
use crate::sim::cook::{CookState, MoveModifiers};
use crate::sim::events::{DeniedReason, SimEvent};
use crate::sim::hash::named_fields;
use crate::sim::hazard_spec::{
    CartSpec, FireSpec, HazardSpec, PatchSpec, ShiftPhase, ShiftSpec, Traction,
};
use crate::sim::hazards::{CART_RADIUS, SPILL_GRIP_PPM, SPILL_SPEED_PPM, cart_pos};
use crate::sim::item::{ItemKind, Place};
use crate::sim::kinds::{Dir4, Form, Ingredient, Tile};
use crate::sim::kitchen::Level;
use crate::sim::open::SeatSpec;
use crate::sim::room::Room;
use crate::sim::station::StationState;
use crate::sim::step_room;
use crate::sim::units::{RADIUS, STUN_TICKS, TILE, cell_centre};
use crate::sim::v2::V2;
use crate::sim::verdict::Verdict;
use std::sync::Arc;

fn level(rows: &[&str], hazards: HazardSpec) -> Arc<Level> {
    let mut level = sketch_level("hazards", rows);
    level.hazards = hazards;
    Arc::new(level)
}

fn hroom(rows: &[&str], seats: u8, hazards: HazardSpec) -> Room {
    let book = Arc::new(builtin_recipes().expect("book"));
    Room::new(level(rows, hazards), book, 1, &SeatSpec::numbered(seats))
}

/// Step with no input; return the events of that tick.
fn tick(r: &mut Room) -> Vec<SimEvent> {
    step_room(r);
    r.events.clone()
}

fn any(events: &[SimEvent], f: impl Fn(&SimEvent) -> bool) -> bool {
    events.iter().any(f)
}

// ------------------------------------------------------------------------------ traction

const LANE: [&str; 3] = ["########", "#1.....#", "########"];

fn slicks() -> HazardSpec {
    HazardSpec {
        patches: vec![
            PatchSpec {
                traction: Traction::Spill,
                cells: vec![(3, 1)],
                from: 0,
                lasts: None,
                every: None,
            },
            PatchSpec {
                traction: Traction::Ice,
                cells: vec![(4, 1)],
                from: 0,
                lasts: None,
                every: None,
            },
        ],
        ..HazardSpec::default()
    }
}

#[test]
fn a_cook_takes_the_modifier_of_the_tile_under_its_centre() {
    let spill =
        MoveModifiers { speed_ppm: SPILL_SPEED_PPM, accel_ppm: SPILL_GRIP_PPM, slide: false };
    let ice = MoveModifiers { slide: true, ..MoveModifiers::default() };
    // (centre x, expected): the body may overlap a slick; only the centre's cell counts.
    let rows = [
        (3 * TILE - 1, MoveModifiers::default()),
        (3 * TILE, spill),
        (4 * TILE - 1, spill),
        (4 * TILE, ice),
        (cell_centre(4) + RADIUS - 1, ice),
        (5 * TILE, MoveModifiers::default()),
    ];
    for (x, expected) in rows {
        let mut r = hroom(&LANE, 1, slicks());
        place(&mut r, 0, x, cell_centre(1), Dir4::Right);
        tick(&mut r);
        assert_eq!(r.cooks[0].modifiers, expected, "centre x = {x}");
    }
}

#[test]
fn ice_removes_braking_and_a_spill_caps_the_speed() {
    let mut r = hroom(&LANE, 1, slicks());
    place(&mut r, 0, cell_centre(4), cell_centre(1), Dir4::Right);
    tick(&mut r); // stage 6 puts the ice modifier on; movement uses it from the next tick
    r.cooks[0].vel = V2::new(50_000, 0);
    send(&mut r, 0, (0, 0), false, None);
    step_room(&mut r);
    assert_eq!(r.cooks[0].vel, V2::new(50_000, 0), "no braking on ice");
    let mut r = hroom(&LANE, 1, slicks());
    place(&mut r, 0, cell_centre(3), cell_centre(1), Dir4::Right);
    tick(&mut r);
    for _ in 0..3 {
        send(&mut r, 0, (-1000, 0), false, None);
        step_room(&mut r);
    }
    let top = (175_000i64 * SPILL_SPEED_PPM as i64 / 1_000_000) as i32;
    assert!(r.cooks[0].vel.x.abs() <= top, "{:?} within the spill's ceiling", r.cooks[0].vel);
    assert!(r.cooks[0].vel.x < 0);
}

#[test]
fn a_scheduled_spill_appears_and_dries_on_its_ticks() {
    let spec = HazardSpec {
        patches: vec![PatchSpec {
            traction: Traction::Spill,
            cells: vec![(2, 1)],
            from: 10,
            lasts: Some(5),
            every: Some(20),
        }],
        ..HazardSpec::default()
    };
    let mut r = hroom(&LANE, 1, spec);
    place(&mut r, 0, cell_centre(2), cell_centre(1), Dir4::Right);
    let mut spilled = Vec::new();
    let mut slowed = Vec::new();
    for t in 0..40 {
        let events = tick(&mut r);
        if any(&events, |e| matches!(e, SimEvent::Spilled { patch: 0, ice: false })) {
            spilled.push(t);
        }
        if r.cooks[0].modifiers.speed_ppm != 1_000_000 {
            slowed.push(t);
        }
    }
    assert_eq!(spilled, [10, 30]);
    assert_eq!(slowed, [10, 11, 12, 13, 14, 30, 31, 32, 33, 34]);
}

// ------------------------------------------------------------------------------ carts

/// A shuttle along row 2: (3,2) → (4,2) → (5,2) → (4,2) → …, 0.1 tile per tick.
fn shuttle(rows: &[&str]) -> Room {
    let spec = HazardSpec {
        carts: vec![CartSpec { path: vec![(3, 2), (4, 2), (5, 2), (4, 2)], speed: 100_000 }],
        ..HazardSpec::default()
    };
    hroom(rows, 1, spec)
}

/// The tick a cook at `x` on row 2 is first overlapped by the cart (cart x = 3.5 + 0.1 (t+1)).
fn first_touch(x: i32) -> u32 {
    let t =
        (0..100i32).find(|t| RADIUS + CART_RADIUS - (x - (cell_centre(3) + 100_000 * (t + 1))) > 1);
    t.expect("the cart reaches the cook") as u32
}

#[test]
fn a_cart_knocks_a_cook_on_the_first_overlapping_tick_and_shoves_it_off_the_path() {
    let open = ["#########", "#.......#", "#1......#", "#.......#", "#########"];
    let mut r = shuttle(&open);
    let x = 5 * TILE;
    place(&mut r, 0, x, cell_centre(2), Dir4::Left);
    let first = first_touch(x);
    assert_eq!(first, 7, "the table's arithmetic: the cart's front passes 4.65 on tick 7");
    for t in 0..first {
        let events = tick(&mut r);
        assert!(!any(&events, |e| matches!(e, SimEvent::Knocked { .. })), "tick {t}");
    }
    let events = tick(&mut r);
    assert_eq!(
        events.iter().filter(|e| matches!(e, SimEvent::Knocked { seat: 0, cart: 0 })).count(),
        1
    );
    let cook = &r.cooks[0];
    assert_eq!(cook.stun, STUN_TICKS);
    // Level with the cart's line: shoved to the negative side (up), exactly clear.
    assert_eq!(cook.pos, V2::new(x, cell_centre(2) - RADIUS - CART_RADIUS));
    let cart = cart_pos(&r.level.hazards.carts[0].path, r.hazards.carts[0]);
    assert!((cook.pos.y - cart.y).abs() >= RADIUS + CART_RADIUS);
    // The movement stage's one STUNNED follows on the next tick, and only then.
    let mut stunned = Vec::new();
    for t in first + 1..first + 30 {
        let events = tick(&mut r);
        let n = events.iter().filter(|e| matches!(e, SimEvent::Stunned { seat: 0, .. })).count();
        stunned.extend(std::iter::repeat_n(t, n));
    }
    assert_eq!(stunned, [first + 1]);
}

#[test]
fn in_a_corridor_the_cart_shoves_ahead_never_into_a_wall() {
    let corridor = ["#########", "#########", "#1......#", "#########", "#########"];
    let mut r = shuttle(&corridor);
    let x = 5 * TILE;
    place(&mut r, 0, x, cell_centre(2), Dir4::Left);
    for _ in 0..=first_touch(x) {
        tick(&mut r);
    }
    let cart = cart_pos(&r.level.hazards.carts[0].path, r.hazards.carts[0]);
    assert_eq!(r.cooks[0].pos, V2::new(cart.x + RADIUS + CART_RADIUS, cell_centre(2)));
    assert_eq!(r.cooks[0].state, CookState::Idle, "knocked; the stun shows next tick");
    // Every later tick: never overlapping the cart, never inside a wall.
    for _ in 0..80 {
        tick(&mut r);
        let cart = cart_pos(&r.level.hazards.carts[0].path, r.hazards.carts[0]);
        let p = r.cooks[0].pos;
        let clear = (p.x - cart.x).abs() >= RADIUS + CART_RADIUS
            || (p.y - cart.y).abs() >= RADIUS + CART_RADIUS;
        assert!(clear, "{p:?} vs cart {cart:?}");
        assert_eq!(p.y, cell_centre(2));
        assert!(p.x - RADIUS >= TILE && p.x + RADIUS <= 8 * TILE, "{p:?} in the corridor");
    }
}

// ------------------------------------------------------------------------------ fire

/// Counter 0, pan stoves 1 and 2, counter 3, extinguisher stand 4; the cook below stove 1.
const GRILL: [&str; 4] = ["#######", "#-FF-E#", "#.1...#", "#######"];

fn grill(spread: (u32, u32), extinguish: u32) -> Room {
    let spec = HazardSpec {
        fire: Some(FireSpec { delay: 10, spread_min: spread.0, spread_max: spread.1, extinguish }),
        ..HazardSpec::default()
    };
    let mut r = hroom(&GRILL, 1, spec);
    place(&mut r, 0, cell_centre(2), cell_centre(2), Dir4::Up);
    // A finished patty with one tick of heat left: it burns on tick 0.
    let id = r.create_item(ItemKind::Food(Ingredient::Patty, Form::Cooked), Place::Station(1));
    let i = r.item_index(id).unwrap();
    r.items[i].heat = 1;
    r.stations[1].state = StationState::Ready;
    r
}

#[test]
fn a_burnt_dish_ignites_its_stove_on_the_exact_delay_tick() {
    let mut r = grill((200, 300), 6);
    assert_eq!(r.items.iter().filter(|i| i.kind == ItemKind::Extinguisher).count(), 1);
    let events = tick(&mut r);
    assert!(any(&events, |e| matches!(e, SimEvent::Burnt { station: 1 })), "burns on tick 0");
    for t in 1..10 {
        let events = tick(&mut r);
        assert!(!any(&events, |e| matches!(e, SimEvent::Ignited { .. })), "tick {t}");
        assert_eq!(r.stations[1].state, StationState::Dirty);
    }
    let events = tick(&mut r); // tick 10 = burn tick + delay
    assert!(any(&events, |e| matches!(e, SimEvent::Ignited { station: 1 })));
    assert!(any(&events, |e| matches!(e, SimEvent::Wasted { station: 1, .. })), "dish destroyed");
    assert_eq!(r.stations[1].state, StationState::Blocked);
    assert_eq!(r.counters.wasted, 1);
    // A free hand is refused with the named reason.
    send(&mut r, 0, (0, 0), true, None);
    step_room(&mut r);
    assert!(r.events.contains(&SimEvent::Denied {
        seat: 0,
        reason: DeniedReason::OnFire,
        why: None
    }));
}

#[test]
fn washing_the_burnt_pan_in_time_prevents_the_fire() {
    let mut r = grill((200, 300), 6);
    tick(&mut r);
    // Hold the button at the dirty stove: 24 ticks of washing would finish at tick 24 > 10,
    // so the fire wins; with a delay longer than the wash the kitchen is saved.
    let mut r2 = r.clone();
    for _ in 0..30 {
        send(&mut r2, 0, (0, 0), true, None);
        step_room(&mut r2);
    }
    assert_eq!(r2.stations[1].state, StationState::Blocked, "the wash took too long");
    let mut level = (*r.level).clone();
    level.hazards.fire.as_mut().unwrap().delay = 40;
    r.level = Arc::new(level);
    for _ in 0..60 {
        send(&mut r, 0, (0, 0), true, None);
        step_room(&mut r);
    }
    assert_eq!(r.stations[1].state, StationState::Idle, "washed before it lit");
    assert!(!r.hazards.fires.any_burning());
}

#[test]
fn fire_spreads_to_a_neighbour_on_the_seeded_tick() {
    let mut r = grill((5, 9), 6);
    for _ in 0..10 {
        tick(&mut r);
    }
    // Stage 6 draws the spread gap on the ignition tick (no order draws: the pool is empty),
    // then one neighbour index and the next gap on the spread tick.
    let mut rng = r.rng;
    let gap = rng.range_inclusive(5, 9);
    let neighbours = [0usize, 2]; // counter 0 and stove 2 share an edge with stove 1
    let to = neighbours[rng.index(2)];
    tick(&mut r); // tick 10: ignition
    assert_eq!(r.hazards.fires.get(1).next_spread, 10 + gap);
    for t in 11..10 + gap {
        let events = tick(&mut r);
        assert!(!any(&events, |e| matches!(e, SimEvent::Spread { .. })), "tick {t}");
    }
    let events = tick(&mut r);
    assert!(
        events.contains(&SimEvent::Spread { from: 1, to: to as u16 }),
        "tick {}: {events:?}",
        10 + gap
    );
    assert_eq!(r.stations[to].state, StationState::Blocked);
    // The new fire's first gap, then the source's next gap: the stream continues exactly.
    rng.range_inclusive(5, 9);
    rng.range_inclusive(5, 9);
    assert_eq!(r.rng, rng);
}

#[test]
fn spraying_puts_a_fire_out_at_hold_ticks_not_hold_minus_one() {
    let hold = 6;
    let mut r = grill((200, 300), hold);
    for _ in 0..11 {
        tick(&mut r);
    }
    assert!(r.hazards.fires.burning(1));
    // Take the extinguisher off its stand into the hand.
    let ext = r.items.iter().find(|i| i.kind == ItemKind::Extinguisher).unwrap().id;
    let i = r.item_index(ext).unwrap();
    r.items[i].place = Place::Hand(0);
    r.cooks[0].held = Some(ext);
    // hold − 1 ticks, then let go: still burning, and the count starts over.
    for _ in 0..hold - 1 {
        send(&mut r, 0, (0, 0), true, None);
        step_room(&mut r);
        assert!(!any(&r.events, |e| matches!(e, SimEvent::Denied { .. })), "a spray, not a no");
    }
    assert!(r.hazards.fires.burning(1));
    assert_eq!(r.hazards.spray[0].ticks, hold - 1);
    send(&mut r, 0, (0, 0), false, None);
    step_room(&mut r);
    assert_eq!(r.hazards.spray[0].ticks, 0);
    for k in 1..=hold {
        send(&mut r, 0, (0, 0), true, None);
        step_room(&mut r);
        let out = r.events.contains(&SimEvent::Extinguished { seat: 0, station: 1 });
        assert_eq!(out, k == hold, "hold tick {k}");
    }
    assert!(!r.hazards.fires.burning(1));
    assert_eq!(r.stations[1].state, StationState::Idle);
}

#[test]
fn a_kitchen_with_every_flammable_fixture_ablaze_is_lost() {
    // One pan stove and a fireproof stand: the stove igniting is the whole kitchen.
    let spec = HazardSpec {
        fire: Some(FireSpec { delay: 3, spread_min: 5, spread_max: 5, extinguish: 4 }),
        ..HazardSpec::default()
    };
    let mut r = hroom(&["#####", "#FE.#", "#1..#", "#####"], 1, spec);
    r.time_left = 1000;
    let id = r.create_item(ItemKind::Food(Ingredient::Patty, Form::Cooked), Place::Station(0));
    let i = r.item_index(id).unwrap();
    r.items[i].heat = 1;
    r.stations[0].state = StationState::Ready;
    for _ in 0..3 {
        tick(&mut r);
        assert!(r.result.is_none());
    }
    let events = tick(&mut r);
    assert!(any(&events, |e| matches!(e, SimEvent::Ignited { station: 0 })));
    assert_eq!(r.result, Some(Verdict::Lost));
    assert!(any(&events, |e| matches!(e, SimEvent::RoundEnd { result: Verdict::Lost, .. })));
}

// ------------------------------------------------------------------------------ shifts

/// A bridge column (3, 1..=2) with a counter at (3, 3) in the same group; a stand at (5, 3).
const BRIDGE: [&str; 5] = ["#######", "#1....#", "#2....#", "#..-.E#", "#######"];

fn bridge(seats: u8) -> Room {
    let spec = HazardSpec {
        shifts: vec![ShiftSpec {
            cells: vec![(3, 1), (3, 2), (3, 3)],
            to: Tile::Void,
            start: 10,
            every: 40,
            gone: 10,
            warning: 4,
        }],
        ..HazardSpec::default()
    };
    hroom(&BRIDGE, seats, spec)
}

#[test]
fn a_shift_warns_then_goes_then_comes_back_on_its_timetable() {
    let mut r = bridge(1);
    place(&mut r, 0, cell_centre(1), cell_centre(1), Dir4::Down);
    let mut log = Vec::new();
    for t in 0..60 {
        for e in tick(&mut r) {
            match e {
                SimEvent::ShiftWarning { group: 0, ticks } => log.push((t, "warning", ticks)),
                SimEvent::Shifted { group: 0, gone } => log.push((t, "shifted", gone as u32)),
                _ => {}
            }
        }
        let phase = r.hazards.shifts[0];
        let expected = match t {
            6..=9 | 46..=49 => ShiftPhase::Warning,
            10..=19 | 50..=59 => ShiftPhase::Gone,
            _ => ShiftPhase::Present,
        };
        assert_eq!(phase, expected, "tick {t}");
        let tile = r.tile((3, 1));
        assert_eq!(tile == Tile::Void, expected == ShiftPhase::Gone, "tick {t}");
    }
    assert_eq!(
        log,
        [
            (6, "warning", 4),
            (10, "shifted", 1),
            (20, "shifted", 0),
            (46, "warning", 4),
            (50, "shifted", 1)
        ]
    );
}

#[test]
fn a_cook_on_vanishing_floor_goes_to_the_nearest_safe_tile() {
    // (start centre, other cook's cell, expected cell)
    let rows: [((i32, i32), Option<(i32, i32)>, (i32, i32)); 4] = [
        ((cell_centre(3), cell_centre(1)), None, (2, 1)), // a tie: reading order wins
        ((cell_centre(3) + 100_000, cell_centre(1)), None, (4, 1)),
        // Only the body overlaps the bridge: it still must move.
        ((cell_centre(2) + 300_000, cell_centre(1)), None, (2, 1)),
        // The nearest cell is taken by the other cook: the next nearest.
        ((cell_centre(3) - 100_000, cell_centre(1)), Some((2, 1)), (4, 1)),
    ];
    for (start, other, expected) in rows {
        let mut r = bridge(2);
        place(&mut r, 0, start.0, start.1, Dir4::Down);
        let o = other.unwrap_or((5, 2));
        place(&mut r, 1, cell_centre(o.0), cell_centre(o.1), Dir4::Down);
        for _ in 0..10 {
            tick(&mut r);
        }
        let events = tick(&mut r);
        assert!(events.contains(&SimEvent::Rescued { seat: 0, cell: expected }), "{events:?}");
        assert_eq!(r.cooks[0].pos, V2::centre_of(expected));
        assert_eq!(r.cooks[0].vel, V2::ZERO);
    }
}

#[test]
fn items_on_a_vanishing_counter_fall_and_the_extinguisher_goes_home() {
    let mut r = bridge(1);
    place(&mut r, 0, cell_centre(1), cell_centre(1), Dir4::Down);
    let onion = r.create_item(ItemKind::Food(Ingredient::Onion, Form::Raw), Place::Station(0));
    let mut r2 = r.clone();
    for _ in 0..11 {
        tick(&mut r);
    }
    assert!(r.item(onion).is_none());
    assert_eq!(r.counters.wasted, 1);
    assert_eq!(r.level.station_at((3, 3)), None, "the counter is gone, nothing to aim at");
    for _ in 0..10 {
        tick(&mut r);
    }
    assert_eq!(r.level.station_at((3, 3)), Some(0), "and back");
    // The extinguisher lying on the counter is never lost: back to its stand (station 1).
    let ext = r2.items.iter().find(|i| i.kind == ItemKind::Extinguisher).unwrap().id;
    r2.destroy_item(onion);
    r2.counters.destroyed += 1;
    let i = r2.item_index(ext).unwrap();
    r2.items[i].place = Place::Station(0);
    for _ in 0..11 {
        tick(&mut r2);
    }
    assert_eq!(r2.item(ext).map(|i| i.place), Some(Place::Station(1)));
    assert_eq!(r2.counters.wasted, 0);
}

#[test]
fn shifting_floors_are_per_room() {
    let mut a = bridge(1);
    let b = Room::new(a.level.clone(), a.book.clone(), 1, &SeatSpec::numbered(1));
    for _ in 0..11 {
        tick(&mut a);
    }
    assert_eq!(a.tile((3, 1)), Tile::Void);
    assert_eq!(b.tile((3, 1)), Tile::Floor, "room b shares the level and keeps its floor");
    assert!(!Arc::ptr_eq(&a.level, &b.level));
}

// ------------------------------------------------------------------------------ the hash

#[test]
fn a_calm_level_has_no_hazard_fields_and_a_hazard_level_does() {
    let calm = super::room(&LANE, 1);
    assert!(!calm.hazards.active);
    assert!(named_fields(&calm).iter().all(|(n, _)| !n.starts_with("hazards.")));
    let mut r = grill((5, 9), 6);
    tick(&mut r);
    let names: Vec<String> = named_fields(&r).into_iter().map(|(n, _)| n).collect();
    // The stove smoulders from its burn tick: the fire map has its entry, and only it.
    for want in ["hazards.fires.len", "hazards.fires[1].state", "hazards.spray[0].ticks"] {
        assert!(names.iter().any(|n| n == want), "{want} hashed");
    }
    assert!(names.iter().any(|n| n == "hazards.burnt_down"));
    assert!(!names.iter().any(|n| n.starts_with("hazards.fires[0]")), "a calm station is not");
    let r = bridge(1);
    assert!(named_fields(&r).iter().any(|(n, _)| n == "hazards.shifts[0]"));
    let r = shuttle(&LANE);
    assert!(named_fields(&r).iter().any(|(n, _)| n == "hazards.carts[0].along"));
}
