//! The hands: what a pick, a set-down, a hand-off and the long-press trash do to the room.

use super::ladder::Verb;
use crate::sim::events::SimEvent;
use crate::sim::kinds::{Form, StationKind};
use crate::sim::room::{ItemId, ItemKind, Mark, Place, Room, StationState};
use crate::sim::units::{HANDOFF_WINDOW_TICKS, TRASH_SCORE_DELTA};

/// Spend a verb the ladder selected for `cook_index` at `station`. The work verbs (start/hold
/// work, serve, wash) are spent by the station pipeline; here they change nothing.
pub fn apply_verb(room: &mut Room, cook_index: usize, station: usize, verb: Verb) {
    match verb {
        Verb::PickItem(id) => pick_item(room, cook_index, station, id),
        Verb::PickFromStation => pick_from_station(room, cook_index, station),
        Verb::Release | Verb::PlaceOnStation | Verb::PlateDish => {
            set_down(room, cook_index, station)
        }
        Verb::StartWork | Verb::HoldWork | Verb::Serve | Verb::Wash | Verb::Trash => {}
    }
}

/// Lift an item into the hand: a hand-off when another cook set it down inside the window.
fn pick_item(room: &mut Room, cook_index: usize, station: usize, id: ItemId) {
    let seat = room.cooks[cook_index].seat;
    let tick = room.tick;
    let Some(i) = room.item_index(id) else { return };
    let item = &mut room.items[i];
    let mark = item.mark.take();
    item.place = Place::Hand(seat);
    room.cooks[cook_index].held = Some(id);
    let station = station as u16;
    room.events.push(match mark {
        Some(Mark { placer, tick: placed })
            if placer != seat && tick.saturating_sub(placed) <= HANDOFF_WINDOW_TICKS =>
        {
            SimEvent::HandedOff { from: placer, to: seat, item: id, station }
        }
        _ => SimEvent::Picked { seat, item: id, station },
    });
}

/// Take the fixture's output: a fresh ingredient off a shelf, a clean plate off the rack, or a
/// finished pipeline item (the fixture falls back to idle).
fn pick_from_station(room: &mut Room, cook_index: usize, station: usize) {
    let seat = room.cooks[cook_index].seat;
    let kind = room.stations[station].kind;
    let id = match kind {
        StationKind::Shelf(ingredient) => {
            room.create_item(ItemKind::Food(ingredient, Form::Raw), Place::Hand(seat))
        }
        StationKind::PlateRack => {
            room.plates_clean -= 1;
            room.create_item(ItemKind::Plate { dirty: false, parts: Vec::new() }, Place::Hand(seat))
        }
        _ => {
            let Some(id) = room.items_on(station).next().map(|i| i.id) else { return };
            if let Some(i) = room.item_index(id) {
                room.items[i].place = Place::Hand(seat);
            }
            let st = &mut room.stations[station];
            st.state = StationState::Idle;
            st.progress = 0;
            id
        }
    };
    room.cooks[cook_index].held = Some(id);
    room.events.push(SimEvent::Picked { seat, item: id, station: station as u16 });
}

/// Put the carried item on the fixture with the placer's mark (a clean empty plate returned to
/// the rack goes back into its stock instead).
fn set_down(room: &mut Room, cook_index: usize, station: usize) {
    let seat = room.cooks[cook_index].seat;
    let Some(id) = room.cooks[cook_index].held.take() else { return };
    let tick = room.tick;
    let to_rack = room.stations[station].kind == StationKind::PlateRack;
    room.events.push(SimEvent::Dropped { seat, item: id, station: station as u16 });
    if to_rack {
        room.destroy_item(id);
        room.counters.destroyed += 1;
        room.plates_clean += 1;
        return;
    }
    if let Some(i) = room.item_index(id) {
        let item = &mut room.items[i];
        item.place = Place::Station(station as u16);
        item.mark = Some(Mark { placer: seat, tick });
    }
}

/// The trash threshold: destroy the carried item, or name the empty hand.
pub fn trash_held(room: &mut Room, cook_index: usize) {
    let seat = room.cooks[cook_index].seat;
    match room.cooks[cook_index].held {
        Some(item) => {
            room.destroy_item(item);
            room.counters.trashed += 1;
            room.counters.destroyed += 1;
            room.events.push(SimEvent::Trashed { seat, item, score_delta: TRASH_SCORE_DELTA });
        }
        None => room.events.push(SimEvent::TrashedAlreadyEmpty { seat }),
    }
}
