//! Stage 4, the station pipelines: what each fixture works (ACCEPTS), how long it takes
//! (TRANSITIONS), the worker hold / freeze / resume, the release grace, and the props' stock.

use super::action::reach::in_reach;
use super::events::SimEvent;
use super::item::Place;
use super::kinds::{Form, Ingredient, StationKind, Vessel};
use super::room::Room;
use super::station::StationState;
use super::units::secs;

/// A chop: 0.9 s.
pub const CHOP_TICKS: u32 = 18;
/// A raw patty or fish in a pan: 5 s.
pub const PAN_PROTEIN_TICKS: u32 = secs(5);
/// A chopped ingredient in a pan: 6 s.
pub const PAN_CHOPPED_TICKS: u32 = secs(6);
/// A raw vegetable in a pan: 8 s.
pub const PAN_RAW_TICKS: u32 = secs(8);
/// Each onion, tomato or mushroom in a pot adds 4 s of simmering.
pub const POT_VEG_TICKS: u32 = secs(4);
/// Rice in a pot adds 8 s.
pub const POT_RICE_TICKS: u32 = secs(8);
/// One wash (a plate at the sink, or a dirty fixture in place): 1.2 s.
pub const WASH_TICKS: u32 = 24;
/// Ticks a worker may be out of reach before the fixture's worker slot is released.
pub const RELEASE_TICKS: u32 = 4;
/// A pot holds at most three ingredients.
pub const POT_CAPACITY: usize = 3;

/// The ACCEPTS matrix: does this fixture's pipeline ever work this ingredient (in some form)?
/// Total over both enums by construction: a new kind or ingredient fails to compile here.
pub fn accepts(kind: StationKind, ingredient: Ingredient) -> bool {
    use Ingredient::*;
    match kind {
        StationKind::ChopBoard => !matches!(ingredient, Rice | Bun),
        StationKind::Stove(Vessel::Pan) => {
            matches!(ingredient, Patty | Fish | Onion | Tomato | Mushroom)
        }
        StationKind::Stove(Vessel::Pot) => matches!(ingredient, Onion | Tomato | Mushroom | Rice),
        // Holding surfaces and the escape hatches take anything, but work nothing.
        StationKind::Counter | StationKind::Prep | StationKind::Shelf(_) | StationKind::Trash => {
            false
        }
        StationKind::Serve
        | StationKind::Sink
        | StationKind::PlateRack
        | StationKind::ExtinguisherStand => false,
    }
}

/// The TRANSITIONS table: (fixture, ingredient, form) → (output form, ticks). A pair with no
/// row is not worked; this lookup is the whole of "does this fixture take this item".
pub fn transition(kind: StationKind, ingredient: Ingredient, form: Form) -> Option<(Form, u32)> {
    use Ingredient::*;
    if !accepts(kind, ingredient) {
        return None;
    }
    match (kind, form) {
        (StationKind::ChopBoard, Form::Raw) => Some((Form::Chopped, CHOP_TICKS)),
        (StationKind::Stove(Vessel::Pan), Form::Raw) => Some(match ingredient {
            Patty | Fish => (Form::Cooked, PAN_PROTEIN_TICKS),
            _ => (Form::Cooked, PAN_RAW_TICKS),
        }),
        (StationKind::Stove(Vessel::Pan), Form::Chopped) => Some((Form::Cooked, PAN_CHOPPED_TICKS)),
        (StationKind::Stove(Vessel::Pot), Form::Raw) => Some(match ingredient {
            Rice => (Form::Boiled, POT_RICE_TICKS),
            _ => (Form::Boiled, POT_VEG_TICKS),
        }),
        (StationKind::Stove(Vessel::Pot), Form::Chopped) if ingredient != Rice => {
            Some((Form::Boiled, POT_VEG_TICKS))
        }
        _ => None,
    }
}

/// How long a station's current input takes: the pan's one item, or the pot's sum.
pub fn work_ticks(room: &Room, station: usize) -> u32 {
    let kind = room.stations[station].kind;
    match kind {
        StationKind::Sink => WASH_TICKS,
        _ => room
            .items_on(station)
            .filter_map(|i| match i.kind {
                super::item::ItemKind::Food(ing, form) => transition(kind, ing, form).map(|t| t.1),
                _ => None,
            })
            .sum(),
    }
}

fn is_worked_by_hand(kind: StationKind) -> bool {
    matches!(kind, StationKind::ChopBoard | StationKind::Sink)
}

/// Stage 4 for one room, in station index order.
pub fn step_room_stations(room: &mut Room) {
    for s in 0..room.stations.len() {
        let st = &room.stations[s];
        match st.state {
            StationState::Working | StationState::Dirty if st.worker.is_some() => {
                work_by_hand(room, s)
            }
            StationState::Working if !is_worked_by_hand(st.kind) => cook_on_heat(room, s),
            StationState::Ready if room.items_on(s).next().is_none() => {
                let st = &mut room.stations[s];
                st.state = StationState::Idle;
                st.progress = 0;
            }
            _ => {}
        }
    }
}

/// A fixture that needs a cook: progress while the worker holds the button within reach, freeze
/// on release, release the slot after RELEASE_TICKS out of reach.
fn work_by_hand(room: &mut Room, s: usize) {
    let Some(seat) = room.stations[s].worker else { return };
    let Some(c) = room.cook_index(seat) else {
        release_worker(room, s);
        return;
    };
    let cook = &room.cooks[c];
    let cell = room.stations[s].cell;
    if !in_reach(cook.pos, cell) {
        let st = &mut room.stations[s];
        st.cooldown += 1;
        if st.cooldown >= RELEASE_TICKS {
            release_worker(room, s);
        }
        return;
    }
    room.stations[s].cooldown = 0;
    if cook.action_ticks == 0 {
        return; // released: the work is frozen, never rolled back
    }
    let st = &mut room.stations[s];
    st.progress += 1;
    let dirty = st.state == StationState::Dirty;
    let duration = if dirty { WASH_TICKS } else { work_ticks(room, s) };
    if room.stations[s].progress >= duration {
        if dirty {
            finish_in_place_wash(room, s);
        } else {
            finish_hand_work(room, s);
        }
    }
}

/// A cook who acts at another fixture stops working this one: their button now means something
/// else, so it must not keep advancing a board or sink they walked past.
pub fn release_other_work(room: &mut Room, seat: u8, acting_at: usize) {
    for s in 0..room.stations.len() {
        if s != acting_at && room.stations[s].worker == Some(seat) {
            release_worker(room, s);
        }
    }
}

fn release_worker(room: &mut Room, s: usize) {
    let st = &mut room.stations[s];
    st.worker = None;
    st.cooldown = 0;
    if st.state == StationState::Working {
        st.state = StationState::Idle;
    }
}

/// A chop or a sink wash completed.
fn finish_hand_work(room: &mut Room, s: usize) {
    let station = s as u16;
    match room.stations[s].kind {
        StationKind::Sink => {
            // A kitchen with two sinks can wash the last dirty plate at both: the one that
            // finishes second finds the stack empty and washes nothing (it used to make a
            // plate from nowhere; `undercooked soak` found it on harbour).
            if room.plates_dirty > 0 {
                room.plates_dirty -= 1;
                room.plates_clean += 1;
                room.events.push(SimEvent::Washed { station });
            }
            let st = &mut room.stations[s];
            st.progress = 0;
            // Keep washing the stack while the worker keeps holding.
            if room.plates_dirty == 0 {
                st.state = StationState::Idle;
                st.worker = None;
            }
        }
        kind => {
            let mut chopped = None;
            for item in room.items.iter_mut().filter(|i| i.place == Place::Station(station)) {
                if let super::item::ItemKind::Food(ing, form) = item.kind
                    && let Some((out, _)) = transition(kind, ing, form)
                {
                    item.kind = super::item::ItemKind::Food(ing, out);
                    chopped = Some(item.id);
                }
            }
            let st = &mut room.stations[s];
            st.state = StationState::Ready;
            st.worker = None;
            st.progress = 0;
            if let Some(item) = chopped {
                room.events.push(SimEvent::Chopped { station, item });
            }
            room.events.push(SimEvent::Ready { station });
        }
    }
}

/// A dirty fixture washed in place: burnt leftovers are wasted, a pot returns to stock.
fn finish_in_place_wash(room: &mut Room, s: usize) {
    let station = s as u16;
    let leftovers: Vec<_> = room.items_on(s).map(|i| i.id).collect();
    for item in leftovers {
        room.destroy_item(item);
        room.counters.destroyed += 1;
        room.counters.wasted += 1;
        room.events.push(SimEvent::Wasted { item, station });
    }
    room.reset_station(s, StationState::Idle);
    room.events.push(SimEvent::Washed { station });
}

/// A stove cooks on its own once loaded; the dish is done at the summed duration and its burn
/// countdown starts on the same tick.
fn cook_on_heat(room: &mut Room, s: usize) {
    room.stations[s].progress += 1;
    if room.stations[s].progress < work_ticks(room, s) {
        return;
    }
    let station = s as u16;
    let kind = room.stations[s].kind;
    // Every dish in the vessel restarts its burn countdown: a pot topped up after it was ready
    // is one soup again, not a soup whose first onions are already half-burnt.
    for item in room.items.iter_mut().filter(|i| i.place == Place::Station(station)) {
        if let super::item::ItemKind::Food(ing, form) = item.kind {
            if let Some((out, _)) = transition(kind, ing, form) {
                item.kind = super::item::ItemKind::Food(ing, out);
            }
            item.heat = super::freshness::BURN_TICKS;
        }
    }
    let st = &mut room.stations[s];
    st.state = StationState::Ready;
    st.progress = 0;
    room.events.push(SimEvent::Cooked { station });
    room.events.push(SimEvent::Ready { station });
}
