//! The second button: dash (burst, cooldown, shove, walls) and throw (flight, catch, landing on
//! a fixture, the floor, a hole), picking an item off the floor, and the refusals.

use super::{place, room};
use crate::sim::events::{DeniedReason, DeniedWhy, SimEvent};
use crate::sim::flight::Flight;
use crate::sim::flights::{FlightEnd, predict};
use crate::sim::ids::ItemId;
use crate::sim::input::InputFrame;
use crate::sim::item::{ItemKind, Place};
use crate::sim::kinds::{Dir4, Form, Ingredient};
use crate::sim::room::Room;
use crate::sim::station::StationState;
use crate::sim::step_room;
use crate::sim::units::{
    DASH_COOLDOWN_TICKS, DASH_SPEED, DASH_TICKS, MAX_SPEED, RADIUS, THROW_TICKS, TILE, cell_centre,
};
use crate::sim::v2::V2;

/// One tick with the second button (and the action button) as given for `seat`.
fn tick(r: &mut Room, seat: u8, dash: bool, action: bool) -> Vec<SimEvent> {
    let t = r.tick;
    r.inputs
        .queue_stamped(seat, InputFrame { seq: t, tick: t, action, dash, ..InputFrame::default() });
    step_room(r);
    r.events.clone()
}

/// Press and release the second button: the press tick's events.
fn press_second(r: &mut Room, seat: u8) -> Vec<SimEvent> {
    let events = tick(r, seat, true, false);
    tick(r, seat, false, false);
    events
}

/// Put a new item in a cook's hand.
fn give(r: &mut Room, seat: u8, kind: ItemKind) -> ItemId {
    let id = r.create_item(kind, Place::Hand(seat));
    let c = r.cook_index(seat).expect("seat");
    r.cooks[c].held = Some(id);
    id
}

fn denied(events: &[SimEvent], seat: u8) -> Option<(DeniedReason, Option<DeniedWhy>)> {
    events.iter().find_map(|e| match e {
        SimEvent::Denied { seat: s, reason, why } if *s == seat => Some((*reason, *why)),
        _ => None,
    })
}

/// A cook at (1,1) facing right down a long corridor.
fn corridor(row: &str, seats: u8) -> Room {
    let wall = "#".repeat(row.len());
    let mut r = room(&[&wall, row, &wall], seats);
    place(&mut r, 0, cell_centre(1), cell_centre(1), Dir4::Right);
    r
}

#[test]
fn a_dash_bursts_along_the_facing_then_walks_out() {
    let mut r = corridor("#1..........#", 1);
    let events = tick(&mut r, 0, true, false);
    assert!(events.contains(&SimEvent::Dashed { seat: 0 }));
    for _ in 1..DASH_TICKS {
        tick(&mut r, 0, false, false);
    }
    let burst = (DASH_TICKS as i32 - 1) * DASH_SPEED + MAX_SPEED;
    assert_eq!(r.cooks[0].pos.x, cell_centre(1) + burst);
    assert_eq!(r.cooks[0].vel, V2::new(MAX_SPEED, 0), "out of the burst at walking speed");
    assert_eq!(r.cooks[0].dash, 0);
}

#[test]
fn a_dash_is_refused_while_it_cools_down_and_allowed_after() {
    let mut r = corridor("#1..............................#", 1);
    assert!(press_second(&mut r, 0).contains(&SimEvent::Dashed { seat: 0 }));
    let early = press_second(&mut r, 0);
    assert_eq!(denied(&early, 0), Some((DeniedReason::DashCooling, None)));
    // The press was on tick 0; the next dash is allowed on tick DASH_COOLDOWN_TICKS.
    while r.tick < DASH_COOLDOWN_TICKS {
        tick(&mut r, 0, false, false);
    }
    assert!(press_second(&mut r, 0).contains(&SimEvent::Dashed { seat: 0 }));
}

#[test]
fn holding_the_button_dashes_once() {
    let mut r = corridor("#1..............................#", 1);
    let mut dashes = 0;
    for _ in 0..3 * DASH_COOLDOWN_TICKS {
        let events = tick(&mut r, 0, true, false);
        dashes += events.iter().filter(|e| matches!(e, SimEvent::Dashed { .. })).count();
        assert_eq!(denied(&events, 0), None, "a held button is one press");
    }
    assert_eq!(dashes, 1);
}

#[test]
fn a_dash_stops_flush_at_a_counter() {
    let mut r = corridor("#1.-#", 1);
    press_second(&mut r, 0);
    for _ in 0..DASH_TICKS {
        tick(&mut r, 0, false, false);
    }
    assert_eq!(r.cooks[0].pos.x, 3 * TILE - RADIUS);
}

#[test]
fn a_stunned_cook_cannot_dash() {
    let mut r = corridor("#1....#", 1);
    crate::sim::movement::stun(&mut r.cooks[0]);
    tick(&mut r, 0, false, false);
    let events = tick(&mut r, 0, true, false);
    assert_eq!(denied(&events, 0), Some((DeniedReason::Stunned, None)));
}

#[test]
fn a_dash_shoves_a_cook_it_meets() {
    let mut r = corridor("#1.2......#", 2);
    place(&mut r, 1, cell_centre(3), cell_centre(1), Dir4::Down);
    let mut shoved = false;
    let events = tick(&mut r, 0, true, false);
    shoved |= events.contains(&SimEvent::Shoved { by: 0, seat: 1 });
    for _ in 1..DASH_TICKS {
        let events = tick(&mut r, 0, false, false);
        shoved |= events.contains(&SimEvent::Shoved { by: 0, seat: 1 });
    }
    assert!(shoved, "a Shoved event names the dasher and the shoved");
    let (a, b) = (r.cooks[0].pos.x, r.cooks[1].pos.x);
    assert!(b > cell_centre(3) + TILE / 2, "the shoved cook moved on (x = {b})");
    assert!(b - a >= 2 * RADIUS - 1, "the two do not overlap ({a}, {b})");
}

#[test]
fn a_dash_never_shoves_a_cook_through_a_wall() {
    let mut r = corridor("#1.2#", 2);
    place(&mut r, 1, cell_centre(3), cell_centre(1), Dir4::Down);
    press_second(&mut r, 0);
    for _ in 0..DASH_TICKS {
        tick(&mut r, 0, false, false);
    }
    assert_eq!(r.cooks[1].pos.x, 4 * TILE - RADIUS, "pinned flush against the wall");
    assert!(r.cooks[0].pos.x <= 4 * TILE - 3 * RADIUS, "the dasher stops against it");
}

/// Throw what seat 0 holds, then step until the flight is over (or `limit` ticks).
fn throw_and_wait(r: &mut Room, limit: u32) -> Vec<SimEvent> {
    let mut all = press_second(r, 0);
    for _ in 0..limit {
        if !r.items.iter().any(|i| matches!(i.place, Place::Air(_))) {
            break;
        }
        all.extend(tick(r, 0, false, false));
    }
    all.extend(r.events.iter().cloned());
    all
}

#[test]
fn a_throw_flies_its_range_and_lands_on_the_floor_to_be_picked_up() {
    let mut r = corridor("#1.........#", 1);
    let onion = give(&mut r, 0, ItemKind::Food(Ingredient::Onion, Form::Raw));
    let events = tick(&mut r, 0, true, false);
    assert!(events.contains(&SimEvent::Thrown { seat: 0, item: onion }));
    assert_eq!(r.cooks[0].held, None);
    for _ in 1..THROW_TICKS {
        assert!(matches!(r.item(onion).unwrap().place, Place::Air(_)));
        tick(&mut r, 0, false, false);
    }
    assert!(r.events.contains(&SimEvent::Landed { item: onion, station: None }));
    let at = V2::new(cell_centre(5), cell_centre(1));
    assert_eq!(r.item(onion).unwrap().place, Place::Floor(at), "4 tiles out");
    // A cook walks over it (it blocks nothing) and picks it up facing it.
    place(&mut r, 0, cell_centre(6), cell_centre(1), Dir4::Left);
    let events = tick(&mut r, 0, false, true);
    assert!(events.contains(&SimEvent::PickedUp { seat: 0, item: onion }), "{events:?}");
    assert_eq!(r.cooks[0].held, Some(onion));
}

#[test]
fn a_throw_at_a_wall_drops_before_it() {
    let mut r = corridor("#1..#", 1);
    let onion = give(&mut r, 0, ItemKind::Food(Ingredient::Onion, Form::Raw));
    let events = throw_and_wait(&mut r, 20);
    assert!(events.contains(&SimEvent::Landed { item: onion, station: None }));
    assert_eq!(r.item(onion).unwrap().place, Place::Floor(V2::new(4 * TILE - 1, cell_centre(1))));
}

#[test]
fn a_cook_facing_a_throw_with_a_free_hand_catches_it() {
    let mut r = corridor("#1...2....#", 2);
    place(&mut r, 1, cell_centre(5), cell_centre(1), Dir4::Left);
    let onion = give(&mut r, 0, ItemKind::Food(Ingredient::Onion, Form::Chopped));
    let events = throw_and_wait(&mut r, 20);
    assert!(events.contains(&SimEvent::Caught { seat: 1, item: onion, from: 0 }), "{events:?}");
    assert_eq!(r.cooks[1].held, Some(onion));
    assert_eq!(r.item(onion).unwrap().place, Place::Hand(1));
}

#[test]
fn a_cook_looking_away_or_with_full_hands_does_not_catch() {
    for (facing, full) in [(Dir4::Right, false), (Dir4::Down, false), (Dir4::Left, true)] {
        let mut r = corridor("#1...2....#", 2);
        place(&mut r, 1, cell_centre(5), cell_centre(1), facing);
        if full {
            give(&mut r, 1, ItemKind::Food(Ingredient::Tomato, Form::Raw));
        }
        let onion = give(&mut r, 0, ItemKind::Food(Ingredient::Onion, Form::Raw));
        let events = throw_and_wait(&mut r, 20);
        assert!(!events.iter().any(|e| matches!(e, SimEvent::Caught { .. })), "{facing:?} {full}");
        assert!(matches!(r.item(onion).unwrap().place, Place::Floor(_)));
    }
}

#[test]
fn a_throw_into_a_pot_starts_it_cooking() {
    let mut r = corridor("#1...U...#", 1);
    let onion = give(&mut r, 0, ItemKind::Food(Ingredient::Onion, Form::Raw));
    let events = throw_and_wait(&mut r, 20);
    let pot = r.level.station_at((5, 1)).unwrap();
    assert!(events.contains(&SimEvent::Landed { item: onion, station: Some(pot as u16) }));
    assert_eq!(r.item(onion).unwrap().place, Place::Station(pot as u16));
    assert_eq!(r.stations[pot].state, StationState::Working);
    assert_eq!(r.pots_dirty, 1, "the pot came out of stock");
}

#[test]
fn a_throw_onto_a_plate_on_a_counter_plates_it() {
    let mut r = corridor("#1...-#", 1);
    let counter = r.level.station_at((5, 1)).unwrap();
    let plate = r.create_item(ItemKind::Plate { parts: vec![] }, Place::Station(counter as u16));
    r.plates_clean -= 1;
    let lettuce = give(&mut r, 0, ItemKind::Food(Ingredient::Lettuce, Form::Chopped));
    let events = throw_and_wait(&mut r, 20);
    assert!(events.contains(&SimEvent::Plated { seat: 0, plate }), "{events:?}");
    assert!(r.item(lettuce).is_none());
    let parts = match &r.item(plate).unwrap().kind {
        ItemKind::Plate { parts } => parts.clone(),
        k => panic!("{k:?}"),
    };
    assert_eq!(parts, vec![(Ingredient::Lettuce, Form::Chopped)]);
}

#[test]
fn a_fixture_that_refuses_a_throw_drops_it_on_the_floor_before_it() {
    let mut r = corridor("#1...o#", 1);
    let tomato = give(&mut r, 0, ItemKind::Food(Ingredient::Tomato, Form::Raw));
    throw_and_wait(&mut r, 20);
    assert_eq!(
        r.item(tomato).unwrap().place,
        Place::Floor(V2::new(cell_centre(4), cell_centre(1))),
        "the last floor it flew over"
    );
}

#[test]
fn a_throw_that_comes_down_over_a_hole_is_lost() {
    let mut r = corridor("#1..____..#", 1);
    let onion = give(&mut r, 0, ItemKind::Food(Ingredient::Onion, Form::Raw));
    let events = throw_and_wait(&mut r, 20);
    assert!(events.contains(&SimEvent::Fell { item: onion }));
    assert!(r.item(onion).is_none());
    assert_eq!((r.counters.destroyed, r.counters.wasted), (1, 1));
}

#[test]
fn a_throw_crosses_a_hole_to_the_far_side() {
    let mut r = corridor("#1.__......#", 1);
    let onion = give(&mut r, 0, ItemKind::Food(Ingredient::Onion, Form::Raw));
    throw_and_wait(&mut r, 20);
    assert_eq!(r.item(onion).unwrap().place, Place::Floor(V2::new(cell_centre(5), cell_centre(1))));
}

#[test]
fn only_raw_and_chopped_food_is_thrown() {
    let table = [
        (ItemKind::Plate { parts: vec![] }, DeniedWhy::Plate),
        (ItemKind::Food(Ingredient::Patty, Form::Cooked), DeniedWhy::Cooked),
        (ItemKind::Food(Ingredient::Rice, Form::Boiled), DeniedWhy::Cooked),
        (ItemKind::Food(Ingredient::Onion, Form::Burnt), DeniedWhy::Cooked),
        (ItemKind::Extinguisher, DeniedWhy::Tool),
    ];
    for (kind, why) in table {
        let mut r = corridor("#1....#", 1);
        let id = give(&mut r, 0, kind.clone());
        let events = press_second(&mut r, 0);
        assert_eq!(denied(&events, 0), Some((DeniedReason::CannotThrow, Some(why))), "{kind:?}");
        assert_eq!(r.cooks[0].held, Some(id), "{kind:?} stays in the hand");
        assert_eq!(r.cooks[0].pos.x, cell_centre(1), "{kind:?}: no dash either");
    }
}

#[test]
fn a_room_that_never_pressed_the_second_button_hashes_as_before() {
    // The moves join the hash walk only once the button has gone down (docs/SIMULATION.md §8).
    let mut a = corridor("#1....#", 1);
    let mut b = a.clone();
    tick(&mut a, 0, false, false);
    tick(&mut b, 0, false, false);
    assert!(!a.moves_seen);
    assert_eq!(a.hash, b.hash);
    tick(&mut b, 0, true, false);
    tick(&mut a, 0, false, false);
    assert!(b.moves_seen);
    assert_ne!(a.hash, b.hash);
}

#[test]
fn predict_ends_a_flight_where_the_stage_does() {
    // The bots' look-ahead (`flights::predict`) against the stage itself: the floor at full
    // range, a counter, short of a wall, a hole, and a teammate's hands.
    let cases: [(&str, Option<(i32, Dir4)>); 5] = [
        ("#1.........#", None),
        ("#1...-.....#", None),
        ("#1..#", None),
        ("#1...__....#", None),
        ("#1..2......#", Some((4, Dir4::Left))),
    ];
    for (row, mate) in cases {
        let mut r = corridor(row, if mate.is_some() { 2 } else { 1 });
        if let Some((x, facing)) = mate {
            place(&mut r, 1, cell_centre(x), cell_centre(1), facing);
        }
        let onion = give(&mut r, 0, ItemKind::Food(Ingredient::Onion, Form::Raw));
        let flight = Flight::thrown(&r.level, 0, r.cooks[0].pos, r.cooks[0].facing);
        let end = predict(&r, (Ingredient::Onion, Form::Raw), flight);
        let events = throw_and_wait(&mut r, THROW_TICKS + 2);
        let seen = events
            .iter()
            .find_map(|e| match *e {
                SimEvent::Caught { seat, item, .. } if item == onion => {
                    Some(FlightEnd::Caught(seat))
                }
                SimEvent::Fell { item } if item == onion => Some(FlightEnd::Fell),
                SimEvent::Landed { item, station: Some(s) } if item == onion => {
                    Some(FlightEnd::Station(s as usize))
                }
                SimEvent::Landed { item, station: None } if item == onion => {
                    match r.item(onion).map(|i| i.place) {
                        Some(Place::Floor(at)) => Some(FlightEnd::Floor(at)),
                        _ => None,
                    }
                }
                _ => None,
            })
            .unwrap_or_else(|| panic!("{row}: no end in {events:?}"));
        assert_eq!(end, seen, "{row}");
    }
}
