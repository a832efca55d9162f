//! Two presses on the same thing in one tick: one key per thing taken, so exactly one wins
//! (the lower (tick, seq, seat)) and the other is `ContestedLost` — every press ends in one
//! named event, never silence.

use super::{place, room};
use crate::sim::events::{DeniedReason, SimEvent};
use crate::sim::ids::ItemId;
use crate::sim::input::InputFrame;
use crate::sim::item::{ItemKind, Place};
use crate::sim::kinds::{Dir4, Form, Ingredient};
use crate::sim::room::Room;
use crate::sim::station::StationState;
use crate::sim::step_room;
use crate::sim::units::cell_centre;

/// Cook 0 left of a fixture at (2,1) holding a fresh plate, cook 1 right of it with a free
/// hand, both facing it; `item` lies on the fixture.
fn contest(fixture: char, item: ItemKind) -> (Room, ItemId, ItemId) {
    let row = format!("#1{fixture}2#");
    let mut r = room(&["#####", &row, "#####"], 2);
    place(&mut r, 0, cell_centre(1), cell_centre(1), Dir4::Right);
    place(&mut r, 1, cell_centre(3), cell_centre(1), Dir4::Left);
    let s = r.level.station_at((2, 1)).unwrap();
    let food = r.create_item(item, Place::Station(s as u16));
    let plate = r.create_item(ItemKind::Plate { parts: vec![] }, Place::Hand(0));
    r.plates_clean -= 1;
    r.cooks[0].held = Some(plate);
    (r, food, plate)
}

/// Both press on the same tick, cook 1's frame ranked first (lower seq). Returns the events.
fn both_press(r: &mut Room) -> Vec<SimEvent> {
    let t = r.tick;
    let press = |seq| InputFrame { seq, tick: t, action: true, ..InputFrame::default() };
    r.inputs.queue_stamped(1, press(1));
    r.inputs.queue_stamped(0, press(2));
    step_room(r);
    r.events.clone()
}

/// The events that answer seat `seat`'s press.
fn answers(events: &[SimEvent], seat: u8) -> Vec<SimEvent> {
    events
        .iter()
        .filter(|e| match e {
            SimEvent::Denied { seat: s, .. }
            | SimEvent::Picked { seat: s, .. }
            | SimEvent::Plated { seat: s, .. }
            | SimEvent::Dropped { seat: s, .. } => *s == seat,
            SimEvent::HandedOff { to, .. } => *to == seat,
            _ => false,
        })
        .cloned()
        .collect()
}

fn lost(seat: u8) -> SimEvent {
    SimEvent::Denied { seat, reason: DeniedReason::ContestedLost, why: None }
}

#[test]
fn plating_off_a_counter_contests_a_pick_of_the_same_item() {
    let (mut r, lettuce, plate) = contest('-', ItemKind::Food(Ingredient::Lettuce, Form::Chopped));
    let events = both_press(&mut r);
    // Cook 1 (lower seq) lifts the lettuce; cook 0's plate press lost the same item.
    assert_eq!(answers(&events, 1), vec![SimEvent::Picked { seat: 1, item: lettuce, station: 0 }]);
    assert_eq!(answers(&events, 0), vec![lost(0)]);
    assert_eq!(r.cooks[1].held, Some(lettuce));
    assert_eq!(r.item(plate).unwrap().kind, ItemKind::Plate { parts: vec![] });
}

#[test]
fn a_boards_ready_output_is_one_claim_for_a_plate_and_a_free_hand() {
    let (mut r, lettuce, plate) = contest('K', ItemKind::Food(Ingredient::Lettuce, Form::Chopped));
    r.stations[0].state = StationState::Ready;
    let events = both_press(&mut r);
    assert_eq!(answers(&events, 1), vec![SimEvent::Picked { seat: 1, item: lettuce, station: 0 }]);
    assert_eq!(answers(&events, 0), vec![lost(0)]);
    assert_eq!(r.cooks[1].held, Some(lettuce));
    assert_eq!(r.item(plate).unwrap().kind, ItemKind::Plate { parts: vec![] });
}

#[test]
fn the_plate_wins_the_output_when_its_frame_ranks_first() {
    let (mut r, lettuce, plate) = contest('K', ItemKind::Food(Ingredient::Lettuce, Form::Chopped));
    r.stations[0].state = StationState::Ready;
    let t = r.tick;
    let press = |seq| InputFrame { seq, tick: t, action: true, ..InputFrame::default() };
    r.inputs.queue_stamped(0, press(1));
    r.inputs.queue_stamped(1, press(2));
    step_room(&mut r);
    assert_eq!(answers(&r.events, 0), vec![SimEvent::Plated { seat: 0, plate }]);
    assert_eq!(answers(&r.events, 1), vec![lost(1)]);
    assert!(r.item(lettuce).is_none(), "the lettuce went onto the plate");
}
