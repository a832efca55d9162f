//! The kitchen (issue 4): stations, freshness, the ticket rail, serve scoring and the round,
//! one test per "What proves it" clause of the rulebook, driven through `step_room`.

use super::{hold, place, send};
use crate::level::recipes::builtin_recipes;
use crate::level::sketch::sketch_level;
use crate::report::result_payload;
use crate::sim::counters::Counters;
use crate::sim::events::{DeniedReason, DeniedWhy, SimEvent};
use crate::sim::freshness::{BURN_TICKS, CARRY_DECAY_PER_TICK, ROT_PER_TICK};
use crate::sim::ids::ItemId;
use crate::sim::item::{Item, ItemKind, Place};
use crate::sim::kinds::{Dir4, Form, Ingredient, StationKind, Vessel};
use crate::sim::kitchen::Level;
use crate::sim::open::SeatSpec;
use crate::sim::order::Order;
use crate::sim::orders::{FIRST_ORDER_DELAY_TICKS, MIN_RETRY_TICKS};
use crate::sim::recipe_book::Part;
use crate::sim::rng::SplitMix64;
use crate::sim::room::Room;
use crate::sim::round::{abort, stars};
use crate::sim::station::StationState;
use crate::sim::stations::{RELEASE_TICKS, WASH_TICKS, accepts, transition};
use crate::sim::step_room;
use crate::sim::units::{QUALITY_FULL, cell_centre};
use crate::sim::verdict::Verdict;
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::Arc;

use Form::*;
use Ingredient::*;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// A room on a sketched grid whose level the caller may edit first.
pub(super) fn room_with(rows: &[&str], seats: u8, edit: impl FnOnce(&mut Level)) -> Room {
    let mut level = sketch_level("test", rows);
    edit(&mut level);
    Room::new(
        Arc::new(level),
        Arc::new(builtin_recipes().expect("the built-in recipe book is valid")),
        1,
        &SeatSpec::numbered(seats),
    )
}

/// One fixture at (2,1) (station 0); cook 0 left of it facing right, cook 1 right of it facing
/// left. Both reach it; the round neither ends nor spawns orders on its own.
fn bench(fixture: char) -> Room {
    let row = format!("#1{fixture}2#");
    let mut r = room_with(&["#####", &row, "#####"], 2, |l| {
        l.time_limit = 1_000_000;
        l.target_score = i32::MAX;
    });
    place(&mut r, 0, cell_centre(1), cell_centre(1), Dir4::Right);
    place(&mut r, 1, cell_centre(3), cell_centre(1), Dir4::Left);
    r
}

/// Put `kind` in `seat`'s hand.
pub(super) fn give(r: &mut Room, seat: u8, kind: ItemKind) -> ItemId {
    let id = r.create_item(kind, Place::Hand(seat));
    let c = r.cook_index(seat).unwrap();
    r.cooks[c].held = Some(id);
    id
}

/// Put `kind` on a station as pipeline input / output (unmarked).
fn put(r: &mut Room, station: usize, kind: ItemKind) -> ItemId {
    r.create_item(kind, Place::Station(station as u16))
}

/// One press tick for `seat` (the next tick without a frame is a release).
pub(super) fn tap(r: &mut Room, seat: u8) {
    send(r, seat, (0, 0), true, None);
    step_room(r);
}

/// Step `n` ticks with no input.
pub(super) fn idle(r: &mut Room, n: u32) {
    for _ in 0..n {
        step_room(r);
    }
}

fn food(i: Ingredient, f: Form) -> ItemKind {
    ItemKind::Food(i, f)
}

pub(super) fn plate(parts: &[Part]) -> ItemKind {
    let mut parts = parts.to_vec();
    parts.sort();
    ItemKind::Plate { parts }
}

fn item_of(r: &Room, id: ItemId) -> &Item {
    r.item(id).expect("item exists")
}

fn recipe_index(r: &Room, id: &str) -> u16 {
    r.book.index_of(id).expect("recipe in the book") as u16
}

pub(super) fn recipe_parts(r: &Room, id: &str) -> Vec<Part> {
    r.book.recipes[recipe_index(r, id) as usize].parts.clone()
}

/// Put an order on the rail directly (value = the recipe's base score).
fn add_order(r: &mut Room, recipe: &str, deadline: u32) -> u32 {
    let idx = recipe_index(r, recipe);
    let id = r.next_order_id;
    r.next_order_id += 1;
    let value = r.book.recipes[idx as usize].base_score;
    r.orders.push(Order { id, recipe: idx, value, deadline, team: None });
    id
}

fn denied(reason: DeniedReason) -> SimEvent {
    SimEvent::Denied { seat: 0, reason, why: None }
}

fn count_events(r: &Room, f: impl Fn(&SimEvent) -> bool) -> usize {
    r.events.iter().filter(|e| f(e)).count()
}

// ---------------------------------------------------------------------------------------------
// The station pipeline: ACCEPTS and TRANSITIONS
// ---------------------------------------------------------------------------------------------

/// The explicit ACCEPTS expectation, one row per station kind, one cell per ingredient in
/// `Ingredient::ALL` order: Onion, Tomato, Lettuce, Mushroom, Bun, Patty, Fish, Rice.
/// Holding surfaces (counter, prep, shelf, rack) and the escape hatches take things but work
/// nothing, so their rows are all false.
fn accepts_table() -> Vec<(StationKind, [bool; 8])> {
    const N: bool = false;
    const Y: bool = true;
    let mut t = vec![(StationKind::Counter, [N; 8])];
    for i in Ingredient::ALL {
        t.push((StationKind::Shelf(i), [N; 8]));
    }
    t.extend([
        (StationKind::ChopBoard, [Y, Y, Y, Y, N, Y, Y, N]),
        (StationKind::Stove(Vessel::Pan), [Y, Y, N, Y, N, Y, Y, N]),
        (StationKind::Stove(Vessel::Pot), [Y, Y, N, Y, N, N, N, Y]),
        (StationKind::Prep, [N; 8]),
        (StationKind::Serve, [N; 8]),
        (StationKind::Sink, [N; 8]),
        (StationKind::Trash, [N; 8]),
        (StationKind::PlateRack, [N; 8]),
        (StationKind::ExtinguisherStand, [N; 8]),
    ]);
    t
}

#[test]
fn accepts_matrix_cell_by_cell() {
    let table = accepts_table();
    // The row type is fixed at 8 cells: a new ingredient breaks this assertion.
    assert_eq!(Ingredient::ALL.len(), 8, "a new ingredient needs a column in accepts_table");
    let kinds = StationKind::all();
    assert_eq!(table.len(), kinds.len(), "accepts_table and StationKind::all() disagree");
    for kind in kinds {
        let row = table
            .iter()
            .find(|(k, _)| *k == kind)
            .unwrap_or_else(|| panic!("{kind:?} has no row in the ACCEPTS expectation table"));
        for (col, ing) in Ingredient::ALL.into_iter().enumerate() {
            assert_eq!(accepts(kind, ing), row.1[col], "ACCEPTS[{kind:?}][{ing:?}]");
        }
    }
}

/// Every TRANSITIONS row: (fixture, ingredient, input form) → (output form, ticks).
fn transitions_table() -> Vec<(StationKind, Ingredient, Form, Form, u32)> {
    let board = StationKind::ChopBoard;
    let pan = StationKind::Stove(Vessel::Pan);
    let pot = StationKind::Stove(Vessel::Pot);
    let mut t = Vec::new();
    for i in [Onion, Tomato, Lettuce, Mushroom, Patty, Fish] {
        t.push((board, i, Raw, Chopped, 18)); // 0.9 s
    }
    for i in [Patty, Fish] {
        t.push((pan, i, Raw, Cooked, 100)); // 5 s
    }
    for i in [Onion, Tomato, Mushroom] {
        t.push((pan, i, Raw, Cooked, 160)); // 8 s
    }
    for i in [Onion, Tomato, Mushroom, Patty, Fish] {
        t.push((pan, i, Chopped, Cooked, 120)); // 6 s
    }
    for i in [Onion, Tomato, Mushroom] {
        t.push((pot, i, Raw, Boiled, 80)); // 4 s per vegetable
        t.push((pot, i, Chopped, Boiled, 80));
    }
    t.push((pot, Rice, Raw, Boiled, 160)); // 8 s
    t
}

#[test]
fn transitions_table_is_exact_and_has_no_extra_rows() {
    let table = transitions_table();
    for kind in StationKind::all() {
        for ing in Ingredient::ALL {
            for form in Form::ALL {
                let expected = table
                    .iter()
                    .find(|(k, i, f, _, _)| *k == kind && *i == ing && *f == form)
                    .map(|&(_, _, _, out, ticks)| (out, ticks));
                assert_eq!(transition(kind, ing, form), expected, "{kind:?} × {ing:?} {form:?}");
            }
        }
    }
}

fn fixture_char(kind: StationKind) -> char {
    match kind {
        StationKind::ChopBoard => 'K',
        StationKind::Stove(Vessel::Pan) => 'F',
        StationKind::Stove(Vessel::Pot) => 'U',
        other => panic!("no worked fixture {other:?}"),
    }
}

#[test]
fn every_transition_row_is_working_at_duration_minus_one_and_ready_at_duration() {
    for (kind, ing, from, to, ticks) in transitions_table() {
        let mut r = bench(fixture_char(kind));
        let id = if kind == StationKind::ChopBoard {
            // The input lies on the board; the press starts the work and the hold drives it.
            let id = put(&mut r, 0, food(ing, from));
            hold(&mut r, 0, (0, 0), true, ticks - 1);
            id
        } else {
            // The set-down starts the stove; it cooks on its own.
            let id = give(&mut r, 0, food(ing, from));
            tap(&mut r, 0);
            idle(&mut r, ticks - 2);
            id
        };
        let row = format!("{kind:?} {ing:?} {from:?} at {}", ticks - 1);
        assert_eq!(r.stations[0].state, StationState::Working, "{row}");
        assert_eq!(item_of(&r, id).kind, food(ing, from), "{row}");
        if kind == StationKind::ChopBoard {
            hold(&mut r, 0, (0, 0), true, 1);
        } else {
            idle(&mut r, 1);
        }
        let row = format!("{kind:?} {ing:?} {from:?} at {ticks}");
        assert_eq!(r.stations[0].state, StationState::Ready, "{row}");
        assert_eq!(item_of(&r, id).kind, food(ing, to), "{row}");
        assert!(r.events.contains(&SimEvent::Ready { station: 0 }), "{row}");
        let stage = if kind == StationKind::ChopBoard {
            SimEvent::Chopped { station: 0, item: id }
        } else {
            SimEvent::Cooked { station: 0 }
        };
        assert!(r.events.contains(&stage), "{row}");
    }
}

#[test]
fn a_pot_of_three_onions_simmers_for_the_sum() {
    let mut r = bench('U');
    let start = r.tick;
    for _ in 0..3 {
        give(&mut r, 0, food(Onion, Raw));
        tap(&mut r, 0);
        idle(&mut r, 1);
    }
    assert_eq!(r.items_on(0).count(), 3);
    assert_eq!(r.pots_clean, 1, "the first set-down took one pot");
    assert_eq!(r.pots_dirty, 1);
    // 3 × 80 ticks counted from the first set-down's tick.
    let n = start + 239 - r.tick;
    idle(&mut r, n);
    assert_eq!(r.stations[0].state, StationState::Working);
    idle(&mut r, 1);
    assert_eq!(r.stations[0].state, StationState::Ready);
    assert!(r.items_on(0).all(|i| i.kind == food(Onion, Boiled)));
}

#[test]
fn sink_wash_at_duration_minus_one_and_duration() {
    let mut r = bench('S');
    r.plates_clean = 2;
    r.plates_dirty = 2;
    hold(&mut r, 0, (0, 0), true, WASH_TICKS - 1);
    assert_eq!(r.stations[0].state, StationState::Working);
    assert_eq!((r.plates_clean, r.plates_dirty), (2, 2));
    hold(&mut r, 0, (0, 0), true, 1);
    assert_eq!((r.plates_clean, r.plates_dirty), (3, 1), "one wash restores one plate");
    assert!(r.events.contains(&SimEvent::Washed { station: 0 }));
    // Still holding: the stack keeps washing, and the sink falls idle once it is empty.
    hold(&mut r, 0, (0, 0), true, WASH_TICKS);
    assert_eq!((r.plates_clean, r.plates_dirty), (4, 0));
    assert_eq!(r.stations[0].state, StationState::Idle);
    assert_eq!(r.stations[0].worker, None);
}

#[test]
fn in_place_wash_at_duration_minus_one_and_duration() {
    let mut r = bench('U');
    r.stations[0].state = StationState::Dirty;
    let burnt = put(&mut r, 0, food(Onion, Burnt));
    r.pots_clean = 1;
    r.pots_dirty = 1;
    hold(&mut r, 0, (0, 0), true, WASH_TICKS - 1);
    assert_eq!(r.stations[0].state, StationState::Dirty);
    assert_eq!((r.pots_clean, r.pots_dirty), (1, 1));
    hold(&mut r, 0, (0, 0), true, 1);
    assert_eq!(r.stations[0].state, StationState::Idle);
    assert_eq!((r.pots_clean, r.pots_dirty), (2, 0), "the wash returns the pot");
    assert!(r.item(burnt).is_none(), "the burnt leftovers are washed out");
    assert_eq!(r.counters.wasted, 1);
    assert!(r.events.contains(&SimEvent::Wasted { item: burnt, station: 0 }));
    assert!(r.events.contains(&SimEvent::Washed { station: 0 }));
}

// ---------------------------------------------------------------------------------------------
// Workers: hold, freeze, resume, release grace, re-claim, READY → IDLE
// ---------------------------------------------------------------------------------------------

#[test]
fn a_release_freezes_the_work_and_a_press_resumes_it() {
    let mut r = bench('K');
    let id = put(&mut r, 0, food(Onion, Raw));
    hold(&mut r, 0, (0, 0), true, 10);
    assert_eq!(r.stations[0].progress, 10);
    hold(&mut r, 0, (0, 0), false, 5);
    assert_eq!(r.stations[0].progress, 10, "frozen, never rolled back");
    assert_eq!(r.stations[0].state, StationState::Working);
    assert_eq!(r.stations[0].worker, Some(0));
    // The press resumes (HoldWork): 8 more held ticks finish the 18.
    hold(&mut r, 0, (0, 0), true, 1);
    assert!(r.events.contains(&SimEvent::WorkStarted { seat: 0, station: 0 }));
    assert_eq!(r.stations[0].progress, 11);
    hold(&mut r, 0, (0, 0), true, 6);
    assert_eq!(r.stations[0].state, StationState::Working);
    hold(&mut r, 0, (0, 0), true, 1);
    assert_eq!(r.stations[0].state, StationState::Ready);
    assert_eq!(item_of(&r, id).kind, food(Onion, Chopped));
}

/// A board at (2,1) with cook 0 at (1,1) and cook 1 at (3,1); floor out to (5,1).
fn grace_kitchen() -> Room {
    let mut r = room_with(&["#######", "#1K2..#", "#######"], 2, |l| {
        l.time_limit = 1_000_000;
        l.target_score = i32::MAX;
    });
    place(&mut r, 0, cell_centre(1), cell_centre(1), Dir4::Right);
    place(&mut r, 1, cell_centre(3), cell_centre(1), Dir4::Left);
    r
}

#[test]
fn release_grace_is_four_ticks_and_another_cook_reclaims() {
    let mut r = grace_kitchen();
    let id = put(&mut r, 0, food(Tomato, Raw));
    hold(&mut r, 0, (0, 0), true, 5);
    assert_eq!(r.stations[0].progress, 5);
    // Cook 0 leaves the reach (3 tiles away), still holding the button.
    place(&mut r, 0, cell_centre(5), cell_centre(1), Dir4::Right);
    hold(&mut r, 0, (0, 0), true, RELEASE_TICKS - 1);
    assert_eq!(r.stations[0].worker, Some(0), "inside the grace the slot is kept");
    assert_eq!(r.stations[0].progress, 5, "no progress out of reach");
    // Cook 1 presses during the grace: busy.
    tap(&mut r, 1);
    assert!(r.events.contains(&SimEvent::Denied {
        seat: 1,
        reason: DeniedReason::StationBusy,
        why: None
    }));
    // That tap was cook 0's 4th tick out of reach (no frame = released, still out of reach).
    assert_eq!(r.stations[0].worker, None, "released on the 4th tick out of reach");
    assert_eq!(r.stations[0].progress, 5, "the work stays frozen");
    assert_eq!(r.stations[0].state, StationState::Idle);
    // Cook 1 lets go, then re-claims and finishes the remaining 13 ticks.
    idle(&mut r, 1);
    assert_eq!(r.stations[0].progress, 5);
    hold(&mut r, 1, (0, 0), true, 1);
    assert!(r.events.contains(&SimEvent::WorkStarted { seat: 1, station: 0 }));
    assert_eq!(r.stations[0].worker, Some(1));
    assert_eq!(r.stations[0].progress, 6);
    hold(&mut r, 1, (0, 0), true, 11);
    assert_eq!(r.stations[0].state, StationState::Working);
    hold(&mut r, 1, (0, 0), true, 1);
    assert_eq!(r.stations[0].state, StationState::Ready);
    assert_eq!(item_of(&r, id).kind, food(Tomato, Chopped));
}

#[test]
fn coming_back_inside_the_grace_keeps_the_slot() {
    let mut r = grace_kitchen();
    put(&mut r, 0, food(Tomato, Raw));
    hold(&mut r, 0, (0, 0), true, 5);
    place(&mut r, 0, cell_centre(5), cell_centre(1), Dir4::Right);
    hold(&mut r, 0, (0, 0), true, RELEASE_TICKS - 1);
    place(&mut r, 0, cell_centre(1), cell_centre(1), Dir4::Right);
    hold(&mut r, 0, (0, 0), true, 1);
    assert_eq!(r.stations[0].worker, Some(0));
    assert_eq!(r.stations[0].cooldown, 0, "the grace counter resets in reach");
    assert_eq!(r.stations[0].progress, 6, "the held button resumes the work");
    // A fresh 4-tick absence is needed again to release.
    place(&mut r, 0, cell_centre(5), cell_centre(1), Dir4::Right);
    hold(&mut r, 0, (0, 0), true, RELEASE_TICKS - 1);
    assert_eq!(r.stations[0].worker, Some(0));
    hold(&mut r, 0, (0, 0), true, 1);
    assert_eq!(r.stations[0].worker, None);
}

#[test]
fn ready_falls_back_to_idle_once_the_output_is_taken() {
    let mut r = bench('K');
    let id = put(&mut r, 0, food(Lettuce, Raw));
    hold(&mut r, 0, (0, 0), true, 18);
    assert_eq!(r.stations[0].state, StationState::Ready);
    idle(&mut r, 3);
    assert_eq!(r.stations[0].state, StationState::Ready, "a full READY stays READY");
    tap(&mut r, 0);
    assert_eq!(r.cooks[0].held, Some(id));
    // The pick is stage 2b; stage 4 of the same tick sees the empty READY station.
    assert_eq!(r.stations[0].state, StationState::Idle);
    assert_eq!(r.stations[0].progress, 0);
}

// ---------------------------------------------------------------------------------------------
// Dirty props and stock
// ---------------------------------------------------------------------------------------------

#[test]
fn a_dirty_station_refuses_use_and_answers_a_free_hand_with_wash() {
    let mut r = bench('F');
    r.stations[0].state = StationState::Dirty;
    give(&mut r, 0, food(Patty, Raw));
    tap(&mut r, 0);
    assert_eq!(r.events, vec![denied(DeniedReason::StationDirty)]);
    assert!(r.cooks[0].held.is_some(), "the refused item stays in the hand");
    // A free hand washes in place; another cook cannot take the slot meanwhile.
    let mut r = bench('F');
    r.stations[0].state = StationState::Dirty;
    hold(&mut r, 0, (0, 0), true, 1);
    assert_eq!(r.stations[0].worker, Some(0));
    tap(&mut r, 1);
    assert!(r.events.contains(&SimEvent::Denied {
        seat: 1,
        reason: DeniedReason::StationBusy,
        why: None
    }));
}

#[test]
fn lifting_a_pan_dish_leaves_the_stove_dirty() {
    let mut r = bench('F');
    give(&mut r, 0, food(Fish, Raw));
    tap(&mut r, 0);
    idle(&mut r, 99);
    assert_eq!(r.stations[0].state, StationState::Ready);
    tap(&mut r, 0);
    assert_eq!(r.stations[0].state, StationState::Dirty);
    assert_eq!(item_of(&r, r.cooks[0].held.unwrap()).kind, food(Fish, Cooked));
    assert_eq!(item_of(&r, r.cooks[0].held.unwrap()).heat, 0, "the lift stops the countdown");
}

#[test]
fn pot_stock_is_taken_at_the_first_set_down_and_given_back_by_the_wash() {
    let mut r = bench('U');
    assert_eq!((r.pots_clean, r.pots_dirty), (2, 0));
    give(&mut r, 0, food(Onion, Raw));
    tap(&mut r, 0);
    assert_eq!((r.pots_clean, r.pots_dirty), (1, 1));
    for _ in 0..2 {
        idle(&mut r, 1);
        give(&mut r, 0, food(Onion, Raw));
        tap(&mut r, 0);
    }
    assert_eq!((r.pots_clean, r.pots_dirty), (1, 1), "one pot whatever it holds");
    // A fourth onion: the pot is full.
    idle(&mut r, 1);
    give(&mut r, 0, food(Onion, Raw));
    tap(&mut r, 0);
    assert_eq!(r.events, vec![denied(DeniedReason::StationBusy)]);
    r.destroy_item(r.cooks[0].held.unwrap());
    idle(&mut r, 240);
    assert_eq!(r.stations[0].state, StationState::Ready);
    // Pour onto a plate: the soup leaves, the pot stays stuck (dirty) on the stove.
    let p = give(&mut r, 0, plate(&[]));
    tap(&mut r, 0);
    assert_eq!(item_of(&r, p).kind, plate(&[(Onion, Boiled); 3]));
    assert_eq!(r.stations[0].state, StationState::Dirty);
    assert_eq!(r.items_on(0).count(), 0);
    assert_eq!((r.pots_clean, r.pots_dirty), (1, 1));
    // Hand the plate away and wash in place.
    r.destroy_item(p);
    idle(&mut r, 1);
    hold(&mut r, 0, (0, 0), true, WASH_TICKS);
    assert_eq!(r.stations[0].state, StationState::Idle);
    assert_eq!((r.pots_clean, r.pots_dirty), (2, 0));
}

#[test]
fn zero_stock_refusals_name_the_missing_prop() {
    // no_pot: a raw onion at an empty pot stove with no clean pot.
    let mut r = bench('U');
    r.pots_clean = 0;
    r.pots_dirty = 2;
    give(&mut r, 0, food(Onion, Raw));
    tap(&mut r, 0);
    assert_eq!(
        r.events,
        vec![SimEvent::Denied {
            seat: 0,
            reason: DeniedReason::NothingHere,
            why: Some(DeniedWhy::NoPot)
        }]
    );
    assert_eq!((r.pots_clean, r.pots_dirty), (0, 2), "the counters never go below zero");
    assert!(r.cooks[0].held.is_some());
    // no_plate: an empty rack.
    let mut r = bench('R');
    r.plates_clean = 0;
    r.plates_dirty = 4;
    tap(&mut r, 0);
    assert_eq!(
        r.events,
        vec![SimEvent::Denied {
            seat: 0,
            reason: DeniedReason::NothingHere,
            why: Some(DeniedWhy::NoPlate)
        }]
    );
    assert_eq!(r.cooks[0].held, None);
    assert_eq!(r.plates_clean, 0);
}

#[test]
fn plates_come_from_the_rack_and_an_empty_one_goes_back() {
    let mut r = bench('R');
    tap(&mut r, 0);
    let p = r.cooks[0].held.expect("a plate");
    assert_eq!(item_of(&r, p).kind, plate(&[]));
    assert_eq!(r.plates_clean, 3);
    idle(&mut r, 1);
    tap(&mut r, 0);
    assert_eq!(r.cooks[0].held, None);
    assert!(r.item(p).is_none());
    assert_eq!(r.plates_clean, 4);
}

/// A served plate comes back to the sink's dirty stack (clean to the rack without a sink).
#[test]
fn a_served_plate_returns_dirty_to_the_sink_or_clean_without_one() {
    for (rows, sink) in
        [(["######", "#1WS2#", "######"], true), (["######", "#1W-2#", "######"], false)]
    {
        let mut r = room_with(&rows, 2, |l| {
            l.time_limit = 1_000_000;
            l.target_score = i32::MAX;
        });
        place(&mut r, 0, cell_centre(1), cell_centre(1), Dir4::Right);
        r.plates_clean = 3; // the fourth plate is in the hand
        let dish = recipe_parts(&r, "salad");
        give(&mut r, 0, plate(&dish));
        let t = r.tick;
        add_order(&mut r, "salad", t + 100);
        tap(&mut r, 0);
        assert_eq!(r.counters.served, 1);
        if sink {
            assert_eq!((r.plates_clean, r.plates_dirty), (3, 1));
        } else {
            assert_eq!((r.plates_clean, r.plates_dirty), (4, 0));
        }
    }
}

/// Trashing a plate must not lose it: the props stay conserved (found by these tests).
#[test]
fn a_trashed_plate_is_not_lost() {
    let mut r = room_with(&["######", "#1TS2#", "######"], 2, |_| {});
    place(&mut r, 0, cell_centre(1), cell_centre(1), Dir4::Right);
    r.plates_clean = 3;
    let p = give(&mut r, 0, plate(&[(Tomato, Chopped)]));
    hold(&mut r, 0, (0, 0), true, 8);
    assert!(r.item(p).is_none(), "trashed on the 8th tick");
    assert_eq!(r.counters.trashed, 1);
    let plate_items = r.items.iter().filter(|i| matches!(i.kind, ItemKind::Plate { .. })).count();
    assert_eq!(r.plates_clean + r.plates_dirty + plate_items as u32, r.level.props.plates);
    assert_eq!(r.plates_dirty, 1, "the plate goes to the sink's dirty stack");
}

// ---------------------------------------------------------------------------------------------
// Freshness
// ---------------------------------------------------------------------------------------------

/// Cook a patty in a pan from the set-down; return the ready-flip tick.
fn cook_patty_to_ready(r: &mut Room) -> u32 {
    give(r, 0, food(Patty, Raw));
    tap(r, 0);
    loop {
        step_room(r);
        if r.events.contains(&SimEvent::Ready { station: 0 }) {
            return r.tick - 1;
        }
        assert!(r.tick < 1000, "never ready");
    }
}

#[test]
fn burn_is_tick_exact_on_the_160th_tick_counting_the_ready_flip() {
    assert_eq!(BURN_TICKS, 160);
    for fixture in ['F', 'U'] {
        let mut r = bench(fixture);
        let ready_at = if fixture == 'F' {
            cook_patty_to_ready(&mut r)
        } else {
            give(&mut r, 0, food(Rice, Raw));
            tap(&mut r, 0);
            loop {
                step_room(&mut r);
                if r.events.contains(&SimEvent::Ready { station: 0 }) {
                    break r.tick - 1;
                }
            }
        };
        let dish = r.items_on(0).next().unwrap().id;
        // The ready tick is the countdown's first: it already spent one tick of heat.
        assert_eq!(item_of(&r, dish).heat, BURN_TICKS - 1);
        // Ticks 2..=159 of the countdown: nothing burns, the dish keeps its quality.
        idle(&mut r, 158);
        assert_eq!(r.tick - 1, ready_at + 158, "the 159th tick of the countdown");
        assert_eq!(r.stations[0].state, StationState::Ready, "{fixture}: not on the 159th");
        assert_eq!(item_of(&r, dish).quality, QUALITY_FULL);
        assert_eq!(count_events(&r, |e| matches!(e, SimEvent::Burnt { .. })), 0);
        // The 160th: BURNT, zero quality and the DIRTY flip on the same tick.
        idle(&mut r, 1);
        assert_eq!(r.tick - 1, ready_at + 159);
        assert_eq!(r.events, vec![SimEvent::Burnt { station: 0 }], "{fixture}");
        let item = item_of(&r, dish);
        assert_eq!(item.quality, 0);
        assert!(matches!(item.kind, ItemKind::Food(_, Burnt)));
        assert_eq!(r.stations[0].state, StationState::Dirty);
        // Nothing more happens to a burnt dish on a dirty stove.
        idle(&mut r, 50);
        assert_eq!(count_events(&r, |_| true), 0);
    }
}

#[test]
fn a_burnt_dish_on_the_stove_cannot_be_plated_and_a_wash_clears_it() {
    let mut r = bench('F');
    let ready_at = cook_patty_to_ready(&mut r);
    let n = ready_at + 160 - r.tick;
    idle(&mut r, n);
    assert_eq!(r.stations[0].state, StationState::Dirty);
    let p = give(&mut r, 0, plate(&[]));
    tap(&mut r, 0);
    assert_eq!(r.events, vec![denied(DeniedReason::StationDirty)]);
    assert_eq!(item_of(&r, p).kind, plate(&[]));
    r.destroy_item(p);
    idle(&mut r, 1);
    hold(&mut r, 0, (0, 0), true, WASH_TICKS);
    assert_eq!(r.stations[0].state, StationState::Idle);
    assert_eq!(r.items_on(0).count(), 0);
    assert_eq!(r.counters.wasted, 1);
}

#[test]
fn board_rot_is_linear_at_25_50_75_and_100_percent() {
    assert_eq!(ROT_PER_TICK, 2_500);
    let mut r = bench('K');
    let id = put(&mut r, 0, food(Onion, Raw));
    for (ticks, quality) in [(100, 750_000), (200, 500_000), (300, 250_000), (399, 2_500)] {
        let n = ticks - r.tick;
        idle(&mut r, n);
        assert_eq!(item_of(&r, id).quality, quality, "after {ticks} ticks");
        assert_eq!(item_of(&r, id).kind, food(Onion, Raw));
    }
    idle(&mut r, 1);
    assert_eq!(item_of(&r, id).quality, 0);
    assert_eq!(item_of(&r, id).kind, food(Onion, Burnt), "rotted at 100 %");
    assert_eq!(r.events, vec![SimEvent::Burnt { station: 0 }]);
    idle(&mut r, 10);
    assert_eq!(item_of(&r, id).quality, 0, "never below zero");
}

#[test]
fn carried_prepared_food_decays_at_half_rate_and_nothing_else_does() {
    assert_eq!(CARRY_DECAY_PER_TICK * 2, ROT_PER_TICK);
    let mut r = bench('-');
    let chopped = give(&mut r, 0, food(Lettuce, Chopped));
    let raw = give(&mut r, 1, food(Onion, Raw));
    idle(&mut r, 100);
    assert_eq!(item_of(&r, chopped).quality, 875_000, "half of 2 500 ppm × 100");
    assert_eq!(item_of(&r, raw).quality, QUALITY_FULL, "a carried raw does not decay");
    // A plated dish keeps its quality in the hand, and a set-down off the board does not decay.
    r.destroy_item(chopped);
    r.destroy_item(raw);
    let dish = give(&mut r, 0, plate(&[(Lettuce, Chopped)]));
    let on_counter = put(&mut r, 0, food(Tomato, Chopped));
    idle(&mut r, 100);
    assert_eq!(item_of(&r, dish).quality, QUALITY_FULL);
    assert_eq!(item_of(&r, on_counter).quality, QUALITY_FULL);
    // Cooked food in the hand decays at the same half rate.
    let cooked = give(&mut r, 1, food(Patty, Cooked));
    idle(&mut r, 40);
    assert_eq!(item_of(&r, cooked).quality, QUALITY_FULL - 40 * CARRY_DECAY_PER_TICK);
}

#[test]
fn push_out_wastes_the_rotted_item_and_the_work_starts_on_the_new_raw() {
    let mut r = bench('K');
    let rotten = put(&mut r, 0, food(Onion, Raw));
    idle(&mut r, 400);
    assert_eq!(item_of(&r, rotten).kind, food(Onion, Burnt));
    let fresh = give(&mut r, 0, food(Tomato, Raw));
    tap(&mut r, 0);
    assert!(r.item(rotten).is_none());
    assert!(r.events.contains(&SimEvent::Wasted { item: rotten, station: 0 }));
    assert_eq!(r.counters.wasted, 1);
    assert_eq!(item_of(&r, fresh).place, Place::Station(0));
    assert_eq!(item_of(&r, fresh).mark, None, "the new raw is pipeline input");
    idle(&mut r, 1);
    hold(&mut r, 0, (0, 0), true, 18);
    assert_eq!(item_of(&r, fresh).kind, food(Tomato, Chopped));
}

/// A chopped item left READY on the board rots too; the push-out must still start fresh work
/// on the new raw (not leave the board READY with a raw on it, nor carry the old progress).
#[test]
fn push_out_onto_a_ready_board_starts_fresh_work() {
    let mut r = bench('K');
    put(&mut r, 0, food(Onion, Raw));
    hold(&mut r, 0, (0, 0), true, 18);
    assert_eq!(r.stations[0].state, StationState::Ready);
    idle(&mut r, 400);
    let fresh = give(&mut r, 0, food(Tomato, Raw));
    tap(&mut r, 0);
    assert_eq!(r.counters.wasted, 1);
    assert_eq!(r.stations[0].state, StationState::Idle);
    idle(&mut r, 1);
    hold(&mut r, 0, (0, 0), true, 17);
    assert_eq!(r.stations[0].state, StationState::Working, "a fresh 18-tick chop");
    hold(&mut r, 0, (0, 0), true, 1);
    assert_eq!(r.stations[0].state, StationState::Ready);
    assert_eq!(item_of(&r, fresh).kind, food(Tomato, Chopped));
}

#[test]
fn a_usable_item_on_the_board_is_never_overwritten() {
    for on_board in [food(Onion, Raw), food(Onion, Chopped)] {
        let mut r = bench('K');
        let kept = put(&mut r, 0, on_board.clone());
        if matches!(on_board, ItemKind::Food(_, Chopped)) {
            r.stations[0].state = StationState::Ready;
        }
        give(&mut r, 0, food(Tomato, Raw));
        tap(&mut r, 0);
        assert_eq!(r.events, vec![denied(DeniedReason::StationBusy)], "{on_board:?}");
        assert!(r.item(kept).is_some());
        assert_eq!(r.counters.wasted, 0);
        assert!(r.cooks[0].held.is_some());
    }
}

#[test]
fn a_rotted_item_is_not_a_dish() {
    // A burnt form is the ladder's wrong_item at the window.
    let mut r = bench('W');
    give(&mut r, 0, food(Lettuce, Burnt));
    let t = r.tick;
    add_order(&mut r, "salad", t + 100);
    tap(&mut r, 0);
    assert_eq!(r.events, vec![denied(DeniedReason::WrongItem)]);
    assert_eq!(r.orders.len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Orders — the ticket rail
// ---------------------------------------------------------------------------------------------

fn rail(pool: &[&str], concurrent: u32, lo: u32, hi: u32, deadline: u32, penalty: i32) -> Room {
    let pool: Vec<String> = pool.iter().map(|s| s.to_string()).collect();
    room_with(&["#####", "#1W2#", "#####"], 2, move |l| {
        l.orders.pool = pool;
        l.orders.concurrent = concurrent;
        l.orders.interval_min = lo;
        l.orders.interval_max = hi;
        l.orders.deadline = deadline;
        l.orders.miss_penalty = penalty;
        l.time_limit = 1_000_000;
        l.target_score = i32::MAX;
    })
}

#[test]
fn the_first_order_arrives_on_tick_30_and_not_before() {
    assert_eq!(FIRST_ORDER_DELAY_TICKS, 30);
    let mut r = rail(&["salad"], 3, 10, 10, 1000, 0);
    for _ in 0..30 {
        step_room(&mut r);
        assert!(r.orders.is_empty(), "an order before tick 30 (tick {})", r.tick - 1);
    }
    step_room(&mut r);
    let salad = recipe_index(&r, "salad");
    assert_eq!(
        r.orders,
        vec![Order { id: 1, recipe: salad, value: 20, deadline: 1030, team: None }]
    );
    assert_eq!(r.next_order_at, 40);
    assert!(r.events.is_empty(), "a spawn emits no event");
}

#[test]
fn a_spawn_is_exactly_two_draws_the_recipe_then_the_gap() {
    let pool = ["salad", "onion_soup", "burger", "fish_rice"];
    let mut r = rail(&pool, 4, 7, 45, 5000, 0);
    let mut spawns = 0;
    while spawns < 12 {
        let before = r.rng;
        let mut expect = before;
        let recipe = r.pool[expect.index(r.pool.len())];
        let gap = expect.range_inclusive(7, 45).max(1);
        let (t, n) = (r.tick, r.orders.len());
        step_room(&mut r);
        if r.orders.len() > n {
            spawns += 1;
            assert_eq!(
                r.rng.state,
                before.state.wrapping_add(2u64.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
                "exactly two next_u64 per spawn"
            );
            assert_eq!(r.rng, expect);
            assert_eq!(r.orders.last().unwrap().recipe, recipe);
            assert_eq!(r.next_order_at, t + gap);
            assert!((7..=45).contains(&(r.next_order_at - t)));
        } else {
            assert_eq!(r.rng, before, "no draw on a tick that does not spawn");
        }
        if r.orders.len() == 4 {
            r.orders.clear(); // keep the rail open: this test is about spawns
        }
    }
}

#[test]
fn a_full_rail_retries_every_second_without_a_draw() {
    assert_eq!(MIN_RETRY_TICKS, 20);
    let mut r = rail(&["salad"], 1, 5, 5, 1000, 0);
    idle(&mut r, 31); // spawns at tick 30, next due at 35
    assert_eq!(r.orders.len(), 1);
    assert_eq!(r.next_order_at, 35);
    let rng = r.rng;
    let mut due = Vec::new();
    for _ in 0..100 {
        let at = r.next_order_at;
        step_room(&mut r);
        if r.next_order_at != at {
            due.push((r.tick - 1, r.next_order_at));
        }
        assert_eq!(r.rng, rng, "a retry spends no draw");
    }
    assert_eq!(due, vec![(35, 55), (55, 75), (75, 95), (95, 115), (115, 135)]);
    assert_eq!(r.orders.len(), 1);
}

#[test]
fn an_empty_pool_is_a_no_op_not_a_retry() {
    let mut r = rail(&[], 1, 5, 5, 1000, 0);
    let rng = r.rng;
    idle(&mut r, 200);
    assert!(r.orders.is_empty());
    assert_eq!(r.next_order_at, FIRST_ORDER_DELAY_TICKS);
    assert_eq!(r.rng, rng);
}

#[test]
fn an_order_expires_on_the_exact_deadline_tick_with_order_missed() {
    let mut r = rail(&["onion_soup"], 1, 1000, 1000, 50, 0);
    idle(&mut r, 31);
    assert_eq!(r.orders[0].deadline, 80);
    let n = 79 - r.tick + 1;
    idle(&mut r, n); // through tick 79
    assert_eq!(r.orders.len(), 1, "alive on tick 79");
    step_room(&mut r); // tick 80
    assert!(r.orders.is_empty());
    assert_eq!(r.counters.missed, 1);
    let soup = recipe_index(&r, "onion_soup");
    assert_eq!(r.events, vec![SimEvent::OrderMissed { order_id: 1, recipe: soup }]);
}

#[test]
fn a_miss_costs_the_penalty_resets_the_streak_and_the_score_floors_at_zero() {
    let mut r = rail(&["salad"], 2, 1000, 1000, 50, 4);
    idle(&mut r, 31);
    r.score = 10;
    r.streak = 3;
    let n = 80 - r.tick;
    idle(&mut r, n);
    step_room(&mut r);
    assert_eq!((r.score, r.streak), (6, 0));
    assert_eq!(
        r.events,
        vec![
            SimEvent::OrderMissed { order_id: 1, recipe: recipe_index(&r, "salad") },
            SimEvent::Score { delta: -4, score: 6 },
        ]
    );
    // The floor: 2 points and a 4-point miss leave 0, and SCORE carries the applied delta.
    let t = r.tick;
    add_order(&mut r, "salad", t);
    r.score = 2;
    step_room(&mut r);
    assert_eq!(r.score, 0);
    assert!(r.events.contains(&SimEvent::Score { delta: -2, score: 0 }));
    // Nothing to take and no streak: no SCORE at all.
    let t = r.tick;
    add_order(&mut r, "salad", t);
    step_room(&mut r);
    assert_eq!(count_events(&r, |e| matches!(e, SimEvent::Score { .. })), 0);
    assert_eq!(count_events(&r, |e| matches!(e, SimEvent::OrderMissed { .. })), 1);
}

#[test]
fn orders_expire_before_a_spawn_in_the_same_tick() {
    // One-order rail whose order expires on the tick the next spawn is due.
    let mut r = rail(&["salad"], 1, 40, 40, 40, 0);
    idle(&mut r, 31); // order 1 at tick 30, deadline 70, next due 70
    let n = 70 - r.tick;
    idle(&mut r, n);
    step_room(&mut r); // tick 70
    assert_eq!(r.counters.missed, 1);
    assert_eq!(r.orders.len(), 1, "the freed slot is refilled on the same tick");
    assert_eq!(r.orders[0].id, 2);
}

// ---------------------------------------------------------------------------------------------
// Serve scoring
// ---------------------------------------------------------------------------------------------

/// A serve window at (2,1), cook 0 facing it; the level's deadline span is 1200 ticks.
fn window() -> Room {
    let mut r = room_with(&["#####", "#1W2#", "#####"], 2, |l| {
        l.orders.deadline = 1200;
        l.time_limit = 1_000_000;
        l.target_score = i32::MAX;
    });
    place(&mut r, 0, cell_centre(1), cell_centre(1), Dir4::Right);
    place(&mut r, 1, cell_centre(3), cell_centre(1), Dir4::Left);
    r
}

/// Serve `recipe` at `quality` with the streak at `streak` before the serve and `left` ticks of
/// the order's deadline unspent; returns the SERVED points.
fn serve_through_room(recipe: &str, quality: u32, streak: u32, left: u32) -> i32 {
    let mut r = window();
    idle(&mut r, 5);
    r.streak = streak;
    let dish = recipe_parts(&r, recipe);
    let p = give(&mut r, 0, plate(&dish));
    let i = r.item_index(p).unwrap();
    r.items[i].quality = quality;
    let t = r.tick;
    let id = add_order(&mut r, recipe, t + left);
    tap(&mut r, 0);
    let served = r
        .events
        .iter()
        .find_map(|e| match e {
            SimEvent::Served { seat: 0, order_id, points, quality: q, streak: s } => {
                assert_eq!((*order_id, *q, *s), (id, quality, streak + 1));
                Some(*points)
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("{recipe} not served: {:?}", r.events));
    assert_eq!(r.score, served);
    assert_eq!(r.cooks[0].held, None);
    assert!(r.orders.is_empty());
    served
}

#[test]
fn five_hand_computed_serves_through_the_room() {
    // salad 20 × fresh × 1.1 (first serve) × 1.5 (full deadline) = 33
    assert_eq!(serve_through_room("salad", 1_000_000, 0, 1200), 33);
    // onion soup 30 × 0.8 × 1.3 × 1.0 (served on its deadline tick) = 31.2 → 31
    assert_eq!(serve_through_room("onion_soup", 800_000, 2, 0), 31);
    // burger 35 × fresh × 1.5 (streak 7, capped) × 1.25 (half left) = 65.625 → 66
    assert_eq!(serve_through_room("burger", 1_000_000, 6, 600), 66);
    // fish and rice 40 × 0.25 × 1.1 × 1.125 (a quarter left) = 12.375 → 12
    assert_eq!(serve_through_room("fish_rice", 250_000, 0, 300), 12);
    // plain burger 25 × 0.5 × 1.5 (streak 5) × 1.5 = 28.125 → 28
    assert_eq!(serve_through_room("plain_burger", 500_000, 4, 1200), 28);
    // A tie: burger 35 × 1.1 × 1.0 = 38.5 → 38 (half to even)
    assert_eq!(serve_through_room("burger", 1_000_000, 0, 0), 38);
}

#[test]
fn a_serve_emits_served_then_score_and_counts() {
    let mut r = window();
    let dish = recipe_parts(&r, "salad");
    give(&mut r, 0, plate(&dish));
    let t = r.tick;
    add_order(&mut r, "salad", t + 1200);
    tap(&mut r, 0);
    assert_eq!(
        r.events,
        vec![
            SimEvent::Served { seat: 0, order_id: 1, points: 33, quality: QUALITY_FULL, streak: 1 },
            SimEvent::Score { delta: 33, score: 33 },
        ]
    );
    assert_eq!(r.counters.served, 1);
    assert_eq!(r.longest_streak, 1);
    assert_eq!((r.cooks[0].score, r.cooks[0].dishes_served), (33, 1));
}

/// The state a serve refusal must leave untouched.
#[derive(Debug, PartialEq)]
struct Snapshot {
    orders: Vec<Order>,
    items: Vec<Item>,
    held: Vec<Option<ItemId>>,
    score: i32,
    streak: u32,
    counters: Counters,
    props: (u32, u32, u32, u32),
    rng: SplitMix64,
    cook_scores: Vec<(i32, u32)>,
}

fn snapshot(r: &Room) -> Snapshot {
    Snapshot {
        orders: r.orders.clone(),
        items: r.items.clone(),
        held: r.cooks.iter().map(|c| c.held).collect(),
        score: r.score,
        streak: r.streak,
        counters: r.counters,
        props: (r.plates_clean, r.plates_dirty, r.pots_clean, r.pots_dirty),
        rng: r.rng,
        cook_scores: r.cooks.iter().map(|c| (c.score, c.dishes_served)).collect(),
    }
}

#[test]
fn every_serve_rejection_leaves_the_dish_in_hand_and_the_rail_intact() {
    type Setup = fn(&mut Room) -> ItemKind;
    let cases: [(&str, Setup, DeniedReason); 6] = [
        (
            "burnt (zero quality)",
            |r| {
                let t = r.tick;
                add_order(r, "salad", t + 500);
                plate(&recipe_parts(r, "salad"))
            },
            DeniedReason::Burnt,
        ),
        (
            "no target (an empty plate)",
            |r| {
                let t = r.tick;
                add_order(r, "salad", t + 500);
                plate(&[])
            },
            DeniedReason::NoTarget,
        ),
        ("no orders", |r| plate(&recipe_parts(r, "salad")), DeniedReason::NoOrders),
        (
            "wrong recipe (a salad for a soup)",
            |r| {
                let t = r.tick;
                add_order(r, "onion_soup", t + 500);
                plate(&recipe_parts(r, "salad"))
            },
            DeniedReason::WrongRecipe,
        ),
        (
            "incomplete (half a salad)",
            |r| {
                let t = r.tick;
                add_order(r, "salad", t + 500);
                plate(&[(Lettuce, Chopped)])
            },
            DeniedReason::Incomplete,
        ),
        (
            "incomplete (a plain burger for a burger: a recipe, but part of the order)",
            |r| {
                let t = r.tick;
                add_order(r, "burger", t + 500);
                plate(&recipe_parts(r, "plain_burger"))
            },
            DeniedReason::Incomplete,
        ),
    ];
    for (name, setup, reason) in cases {
        let mut r = window();
        r.score = 7;
        r.streak = 2;
        let kind = setup(&mut r);
        let p = give(&mut r, 0, kind);
        if reason == DeniedReason::Burnt {
            let i = r.item_index(p).unwrap();
            r.items[i].quality = 0;
        }
        let before = snapshot(&r);
        tap(&mut r, 0);
        assert_eq!(r.events, vec![denied(reason)], "{name}");
        assert_eq!(snapshot(&r), before, "{name}: the state is unchanged");
        assert_eq!(r.cooks[0].held, Some(p), "{name}");
    }
}

#[test]
fn fifo_fills_the_oldest_compatible_order() {
    let mut r = window();
    let t = r.tick;
    let soup = add_order(&mut r, "onion_soup", t + 1000);
    let first = add_order(&mut r, "salad", t + 900);
    let second = add_order(&mut r, "salad", t + 800); // nearer deadline, but younger
    let dish = plate(&recipe_parts(&r, "salad"));
    give(&mut r, 0, dish);
    tap(&mut r, 0);
    assert!(
        r.events
            .iter()
            .any(|e| matches!(e, SimEvent::Served { order_id, .. } if *order_id == first))
    );
    let left: Vec<u32> = r.orders.iter().map(|o| o.id).collect();
    assert_eq!(left, vec![soup, second]);
}

#[test]
fn the_streak_multiplier_caps_at_five() {
    // Six serves in a row of a 20-point salad with no time bonus: ×1.1 .. ×1.5, then ×1.5.
    let mut r = window();
    let mut got = Vec::new();
    for _ in 0..7 {
        let dish = plate(&recipe_parts(&r, "salad"));
        give(&mut r, 0, dish);
        let t = r.tick;
        add_order(&mut r, "salad", t);
        tap(&mut r, 0);
        got.extend(r.events.iter().filter_map(|e| match e {
            SimEvent::Served { points, streak, .. } => Some((*streak, *points)),
            _ => None,
        }));
        idle(&mut r, 1);
    }
    assert_eq!(got, vec![(1, 22), (2, 24), (3, 26), (4, 28), (5, 30), (6, 30), (7, 30)]);
    assert_eq!(r.longest_streak, 7);
}

#[test]
fn per_cook_contributions_sum_to_the_score() {
    let mut r = window();
    for (seat, recipe) in [(0u8, "salad"), (1, "burger"), (0, "fish_rice"), (1, "salad")] {
        let dish = plate(&recipe_parts(&r, recipe));
        give(&mut r, seat, dish);
        let t = r.tick;
        add_order(&mut r, recipe, t + 700);
        tap(&mut r, seat);
        idle(&mut r, 1);
    }
    assert_eq!(r.counters.served, 4);
    let sum: i32 = r.cooks.iter().map(|c| c.score).sum();
    assert_eq!(sum, r.score);
    assert_eq!(r.cooks.iter().map(|c| c.dishes_served).collect::<Vec<_>>(), vec![2, 2]);
    assert!(r.cooks.iter().all(|c| c.score > 0));
}

// ---------------------------------------------------------------------------------------------
// Round end
// ---------------------------------------------------------------------------------------------

pub(super) fn round_room(time_limit: u32, target: i32) -> Room {
    let mut r = room_with(&["#####", "#1W2#", "#####"], 2, |l| {
        l.orders.pool = vec!["salad".into()];
        l.orders.concurrent = 2;
        l.orders.interval_min = 20;
        l.orders.interval_max = 20;
        l.orders.deadline = 1200;
        l.time_limit = time_limit;
        l.target_score = target;
    });
    place(&mut r, 0, cell_centre(1), cell_centre(1), Dir4::Right);
    place(&mut r, 1, cell_centre(3), cell_centre(1), Dir4::Left);
    r
}

fn round_ends(r: &Room) -> usize {
    count_events(r, |e| matches!(e, SimEvent::RoundEnd { .. }))
}

#[test]
fn the_early_win_lands_on_the_scoring_tick() {
    let mut r = round_room(2000, 33);
    idle(&mut r, 31); // the first salad is on the rail
    let dish = plate(&recipe_parts(&r, "salad"));
    give(&mut r, 0, dish);
    let t = r.tick;
    let left = r.orders[0].deadline - t;
    assert_eq!(left, 1199);
    tap(&mut r, 0); // 20 × 1.1 × (1 + 0.5 × 1199/1200) = 32.99… → 33
    assert_eq!(r.score, 33);
    assert_eq!(r.result, Some(Verdict::Won));
    assert_eq!(r.time_left, 2000 - (t + 1), "the clock stops at this tick's countdown");
    let last = r.events.last().unwrap().clone();
    assert_eq!(last, SimEvent::RoundEnd { result: Verdict::Won, score: 33, target: 33, stars: 3 });
    assert_eq!(round_ends(&r), 1);
}

#[test]
fn the_buzzer_decides_on_the_last_tick() {
    for (score, verdict) in [(9, Verdict::Lost), (10, Verdict::Won)] {
        let mut r = round_room(100, 10);
        idle(&mut r, 99);
        assert_eq!(r.result, None);
        assert_eq!(r.time_left, 1);
        r.score = score; // 10 reaches the target on the final tick itself
        step_room(&mut r);
        assert_eq!(r.result, Some(verdict));
        assert_eq!(r.time_left, 0);
        assert_eq!(round_ends(&r), 1);
        let stars_expected = if verdict == Verdict::Won { 1 } else { 0 };
        assert!(r.events.contains(&SimEvent::RoundEnd {
            result: verdict,
            score: r.score,
            target: 10,
            stars: stars_expected
        }));
    }
}

#[test]
fn exactly_one_round_end_and_the_settle_freezes_everything() {
    let mut r = round_room(200, 1_000_000);
    idle(&mut r, 35);
    assert_eq!(r.orders.len(), 1);
    let mut ends = 0;
    while r.result.is_none() {
        step_room(&mut r);
        ends += round_ends(&r);
    }
    assert_eq!(r.result, Some(Verdict::Lost));
    assert_eq!(ends, 1);
    give(&mut r, 0, food(Lettuce, Chopped));
    let frozen = (r.time_left, r.rng, r.orders.clone(), r.next_order_at, r.score, r.counters);
    let pos = r.cooks[0].pos;
    let q = item_of(&r, r.cooks[0].held.unwrap()).quality;
    // Far past every deadline: inputs ignored, no expiry, no spawn, no decay, no events.
    for i in 0..3000 {
        send(&mut r, 0, (1000, 0), i % 2 == 0, Some(Dir4::Right));
        send(&mut r, 1, (-1000, 0), true, None);
        step_room(&mut r);
        assert!(r.events.is_empty(), "an event during the settle: {:?}", r.events);
    }
    assert_eq!(
        (r.time_left, r.rng, r.orders.clone(), r.next_order_at, r.score, r.counters),
        frozen
    );
    assert_eq!(r.cooks[0].pos, pos);
    assert_eq!(item_of(&r, r.cooks[0].held.unwrap()).quality, q);
    assert_eq!(r.result, Some(Verdict::Lost));
}

/// Win on a tick that leaves exactly `left` ticks on a 400-tick clock.
fn win_with_left(left: u32) -> (u8, SimEvent) {
    let mut r = round_room(400, 10);
    r.time_left = left + 1;
    r.score = 10;
    step_room(&mut r);
    assert_eq!(r.time_left, left);
    assert_eq!(r.result, Some(Verdict::Won));
    (stars(&r), r.events.last().unwrap().clone())
}

#[test]
fn star_boundaries_one_tick_either_side_of_25_and_50_percent() {
    for (left, expected) in
        [(99, 1), (100, 2), (101, 2), (199, 2), (200, 3), (201, 3), (0, 1), (399, 3)]
    {
        let (got, event) = win_with_left(left);
        assert_eq!(got, expected, "{left} of 400 ticks left");
        assert_eq!(
            event,
            SimEvent::RoundEnd { result: Verdict::Won, score: 10, target: 10, stars: expected }
        );
    }
    // Not won: no stars; not ended: no stars.
    let mut r = round_room(400, 10);
    assert_eq!(stars(&r), 0);
    r.time_left = 1;
    step_room(&mut r);
    assert_eq!(r.result, Some(Verdict::Lost));
    assert_eq!(stars(&r), 0);
}

#[test]
fn abort_keeps_a_final_verdict_and_never_emits_round_end() {
    let mut r = round_room(400, 10);
    idle(&mut r, 5);
    abort(&mut r);
    assert_eq!(r.result, Some(Verdict::Aborted));
    assert_eq!(stars(&r), 0);
    for _ in 0..50 {
        step_room(&mut r);
        assert_eq!(round_ends(&r), 0);
        assert!(r.events.is_empty());
    }
    // A won round stays won through an abort.
    let mut r = round_room(400, 10);
    r.score = 10;
    step_room(&mut r);
    assert_eq!(r.result, Some(Verdict::Won));
    let stars_before = stars(&r);
    abort(&mut r);
    assert_eq!(r.result, Some(Verdict::Won));
    assert_eq!(stars(&r), stars_before);
    step_room(&mut r);
    assert_eq!(round_ends(&r), 0);
}

// ---------------------------------------------------------------------------------------------
// The result payload
// ---------------------------------------------------------------------------------------------

fn keys(v: &Value) -> BTreeSet<&str> {
    v.as_object().expect("an object").keys().map(|k| k.as_str()).collect()
}

fn set(names: &[&'static str]) -> BTreeSet<&'static str> {
    names.iter().copied().collect()
}

/// Plain JSON only: finite numbers, no nulls in a finished round's payload.
fn assert_plain_json(v: &Value, path: &str) {
    match v {
        Value::Null => panic!("{path}: null in the payload"),
        Value::Bool(_) | Value::String(_) => {}
        Value::Number(n) => {
            let f = n.as_f64().expect("a number");
            assert!(f.is_finite(), "{path}: non-finite {n}");
            assert!(n.is_i64() || n.is_u64() || n.is_f64(), "{path}");
        }
        Value::Array(a) => {
            a.iter().enumerate().for_each(|(i, x)| assert_plain_json(x, &format!("{path}[{i}]")))
        }
        Value::Object(o) => {
            o.iter().for_each(|(k, x)| assert_plain_json(x, &format!("{path}.{k}")))
        }
    }
}

#[test]
fn the_payload_has_exactly_the_rulebook_keys_and_is_plain_json() {
    let mut r = round_room(2000, 33);
    idle(&mut r, 31);
    let dish = plate(&recipe_parts(&r, "salad"));
    give(&mut r, 0, dish);
    tap(&mut r, 0);
    assert_eq!(r.result, Some(Verdict::Won));
    idle(&mut r, 20); // the settle window
    let v = result_payload(&r);
    assert_eq!(
        keys(&v),
        set(&[
            "result",
            "score",
            "target",
            "stars",
            "time_left",
            "counters",
            "longest_streak",
            "players",
            "level_id",
            "seed",
            "ticks"
        ])
    );
    assert_eq!(keys(&v["counters"]), set(&["served", "missed", "wasted"]));
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    for p in players {
        assert_eq!(keys(p), set(&["id", "name", "score", "dishes_served", "missed_contrib"]));
    }
    assert_plain_json(&v, "$");
    // Round-trips through text unchanged.
    let text = serde_json::to_string(&v).unwrap();
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
    assert_eq!(v["result"], "won");
    assert_eq!(v["score"], 33);
    assert_eq!(v["target"], 33);
    assert_eq!(v["stars"], 3);
    assert_eq!(v["counters"]["served"], 1);
    assert_eq!(v["players"][0]["score"], 33);
    assert_eq!(v["players"][0]["dishes_served"], 1);
    assert_eq!(v["level_id"], "test");
    assert_eq!(v["seed"], 1);
    assert_eq!(v["ticks"], r.tick);
    let time_left = v["time_left"].as_f64().unwrap();
    // Back to ticks rather than naming a float type here: the kernel scan bans the type name
    // under src/sim/, tests included.
    assert_eq!((time_left * 20.0).round() as u32, r.time_left, "seconds, frozen at the verdict");
}
