//! The hands: what a pick, a set-down, a hand-off and the long-press trash do to the room.

use super::ladder::Verb;
use crate::sim::dishes::with_parts;
use crate::sim::events::SimEvent;
use crate::sim::ids::{ItemId, Seat};
use crate::sim::item::{ItemKind, Mark, Place};
use crate::sim::kinds::{Form, StationKind, Vessel};
use crate::sim::room::Room;
use crate::sim::scoring;
use crate::sim::station::StationState;
use crate::sim::stations::transition;
use crate::sim::units::{HANDOFF_WINDOW_TICKS, TRASH_SCORE_DELTA};

/// Spend a verb the ladder selected for `cook_index` at `station`.
pub fn apply_verb(room: &mut Room, cook_index: usize, station: usize, verb: Verb) {
    match verb {
        Verb::PickItem(id) => pick_item(room, cook_index, station, id),
        Verb::PickFromStation => pick_from_station(room, cook_index, station),
        Verb::Release | Verb::PlaceOnStation => set_down(room, cook_index, station),
        Verb::PlateDish => plate_dish(room, cook_index, station),
        Verb::StartWork | Verb::HoldWork | Verb::Wash => take_work(room, cook_index, station),
        Verb::Serve => scoring::serve(room, cook_index, station),
        // The press starts the hold; the gate spends it on the threshold tick. A spray's hold is
        // counted by stage 6 while the button stays down.
        Verb::Trash | Verb::Spray => {}
    }
}

/// Claim (or keep) a fixture's worker slot: the pipeline advances it while the button is held.
fn take_work(room: &mut Room, cook_index: usize, station: usize) {
    let seat = room.cooks[cook_index].seat;
    let st = &mut room.stations[station];
    st.worker = Some(seat);
    st.cooldown = 0;
    if st.state != StationState::Dirty {
        st.state = StationState::Working;
    }
    room.events.push(SimEvent::WorkStarted { seat, station: station as u16 });
}

/// An ingredient meets a plate: the hand's plate takes the fixture's output (a pot pours all of
/// it), or the hand's ingredient goes onto the plate lying on the fixture.
fn plate_dish(room: &mut Room, cook_index: usize, station: usize) {
    let seat = room.cooks[cook_index].seat;
    let Some(held) = room.cooks[cook_index].held else { return };
    let hand_is_plate = room.item(held).is_some_and(|i| matches!(i.kind, ItemKind::Plate { .. }));
    let kind = room.stations[station].kind;
    let (plate, foods): (ItemId, Vec<ItemId>) = if hand_is_plate {
        if let StationKind::Shelf(ingredient) = kind {
            let fresh = room
                .create_item(ItemKind::Food(ingredient, Form::Raw), Place::Station(station as u16));
            (held, vec![fresh])
        } else {
            (held, room.items_on(station).map(|i| i.id).collect())
        }
    } else {
        let Some(on) = room.items_on(station).next().map(|i| i.id) else { return };
        (on, vec![held])
    };
    for food in foods {
        let Some(f) = room.item(food).cloned() else { continue };
        let ItemKind::Food(ingredient, form) = f.kind else { continue };
        if let Some(p) = room.item_index(plate) {
            let item = &mut room.items[p];
            if let ItemKind::Plate { parts } = &mut item.kind {
                *parts = with_parts(parts, &[(ingredient, form)]);
            }
            item.quality = item.quality.min(f.quality);
        }
        room.destroy_item(food);
        room.counters.destroyed += 1;
    }
    // A stove's pan or pot is left stuck (dirty) once its dish is taken.
    if matches!(kind, StationKind::Stove(_)) && hand_is_plate {
        leave_stove_dirty(room, station);
    }
    room.events.push(SimEvent::Plated { seat, plate });
}

fn leave_stove_dirty(room: &mut Room, station: usize) {
    let st = &mut room.stations[station];
    st.state = StationState::Dirty;
    st.progress = 0;
    st.worker = None;
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

/// Lift an item off the floor into a free hand.
pub fn pick_up(room: &mut Room, cook_index: usize, id: ItemId) {
    let seat = room.cooks[cook_index].seat;
    let Some(i) = room.item_index(id) else { return };
    room.items[i].place = Place::Hand(seat);
    room.items[i].mark = None;
    room.cooks[cook_index].held = Some(id);
    room.events.push(SimEvent::PickedUp { seat, item: id });
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
            room.create_item(ItemKind::Plate { parts: Vec::new() }, Place::Hand(seat))
        }
        _ => {
            let Some(id) = room.items_on(station).next().map(|i| i.id) else { return };
            if let Some(i) = room.item_index(id) {
                room.items[i].place = Place::Hand(seat);
                room.items[i].heat = 0;
            }
            // Lifting a stove's dish leaves its pan stuck; a board falls idle once emptied.
            if matches!(kind, StationKind::Stove(_)) {
                leave_stove_dirty(room, station);
            }
            id
        }
    };
    room.cooks[cook_index].held = Some(id);
    room.events.push(SimEvent::Picked { seat, item: id, station: station as u16 });
}

/// Put the carried item on the fixture. A set-down the fixture works becomes its pipeline
/// input (no mark; a stove starts cooking, a pot takes a pot from stock, a rotted item on a
/// board is pushed out as waste); any other set-down keeps the placer's mark for the hand-off.
/// A clean empty plate returned to the rack goes back into its stock.
fn set_down(room: &mut Room, cook_index: usize, station: usize) {
    let seat = room.cooks[cook_index].seat;
    let Some(id) = room.cooks[cook_index].held.take() else { return };
    room.events.push(SimEvent::Dropped { seat, item: id, station: station as u16 });
    put_on_station(room, id, station, seat);
}

/// An item arrives on a fixture, from a hand's set-down or a throw's landing (`placer` is who
/// set it down or threw it): the fixture's pipeline takes what it works (no mark), anything
/// else keeps the placer's mark for the hand-off; the rack takes a clean plate back into stock.
pub fn put_on_station(room: &mut Room, id: ItemId, station: usize, placer: Seat) {
    let seat = placer;
    let tick = room.tick;
    let kind = room.stations[station].kind;
    if kind == StationKind::PlateRack {
        room.destroy_item(id);
        room.counters.destroyed += 1;
        room.plates_clean += 1;
        return;
    }
    let worked = match room.item(id).map(|i| &i.kind) {
        Some(ItemKind::Food(ing, form)) => transition(kind, *ing, *form).is_some(),
        _ => false,
    };
    if worked && kind == StationKind::ChopBoard && push_out_burnt(room, station) {
        // The new raw starts fresh work: a board left READY (its chopped output rotted there)
        // or holding a half-chopped rotted item must not keep that state or progress.
        let st = &mut room.stations[station];
        st.state = StationState::Idle;
        st.progress = 0;
        st.worker = None;
        st.cooldown = 0;
    }
    if let Some(i) = room.item_index(id) {
        let item = &mut room.items[i];
        item.place = Place::Station(station as u16);
        item.mark = if worked { None } else { Some(Mark { placer: seat, tick }) };
    }
    if worked && let StationKind::Stove(vessel) = kind {
        let first = room.items_on(station).count() == 1;
        if vessel == Vessel::Pot && first {
            room.pots_clean -= 1;
            room.pots_dirty += 1;
        }
        let st = &mut room.stations[station];
        if st.state != StationState::Working {
            st.state = StationState::Working;
            st.progress = 0;
        }
    }
}

/// The push-out: rotted items on a board yield to a new input, each one WASTED. True when
/// anything was pushed out.
fn push_out_burnt(room: &mut Room, station: usize) -> bool {
    let burnt: Vec<ItemId> = room
        .items_on(station)
        .filter(|i| matches!(i.kind, ItemKind::Food(_, Form::Burnt)))
        .map(|i| i.id)
        .collect();
    let pushed = !burnt.is_empty();
    for item in burnt {
        room.destroy_item(item);
        room.counters.destroyed += 1;
        room.counters.wasted += 1;
        room.events.push(SimEvent::Wasted { item, station: station as u16 });
    }
    pushed
}

/// The trash threshold: destroy the carried item, or name the empty hand.
pub fn trash_held(room: &mut Room, cook_index: usize) {
    let seat = room.cooks[cook_index].seat;
    match room.cooks[cook_index].held {
        Some(item) => {
            let is_plate =
                room.item(item).is_some_and(|i| matches!(i.kind, ItemKind::Plate { .. }));
            room.destroy_item(item);
            // A plate is a prop, not food: the trash scrapes it and it comes back like a served
            // one (dirty to the sink's stack, clean to the rack without a sink), so the plates
            // stay conserved and trashing cannot run the kitchen out of them.
            if is_plate {
                if room.has_sink() {
                    room.plates_dirty += 1;
                } else {
                    room.plates_clean += 1;
                }
            }
            room.counters.trashed += 1;
            room.counters.destroyed += 1;
            room.events.push(SimEvent::Trashed { seat, item, score_delta: TRASH_SCORE_DELTA });
            scoring::add_seat_score(room, seat, TRASH_SCORE_DELTA);
        }
        None => room.events.push(SimEvent::TrashedAlreadyEmpty { seat }),
    }
}
