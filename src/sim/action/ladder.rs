//! The verb ladder: what one press means right now, or the one named reason it means nothing.

use crate::sim::dishes::{can_become_dish, with_parts};
use crate::sim::events::{DeniedReason, DeniedWhy};
use crate::sim::ids::ItemId;
use crate::sim::item::{Item, ItemKind};
use crate::sim::kinds::{Form, StationKind, Vessel};
use crate::sim::recipe_book::Part;
use crate::sim::room::Room;
use crate::sim::station::StationState;
use crate::sim::stations::{POT_CAPACITY, transition};
use serde::{Deserialize, Serialize};

/// Everything a press can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Verb {
    /// Take a grabbable item off a fixture (a set-down, or shelf set-down).
    PickItem(ItemId),
    /// Take the fixture's output: new shelf / rack stock, or a finished pipeline item.
    PickFromStation,
    /// Set the carried item down on a shelf or the rack (the escape hatch).
    Release,
    /// Set the carried item down on a counter or work surface.
    PlaceOnStation,
    /// Set a prepared ingredient down on the prep counter.
    PlateDish,
    /// Start working the fixture's input (chop, cook).
    StartWork,
    /// Keep working a fixture this cook started.
    HoldWork,
    /// Hand a dish in at the serve window.
    Serve,
    /// Wash: a dirty plate into the sink, or a dirty fixture in place.
    Wash,
    /// Start the long-press trash.
    Trash,
    /// Aim the extinguisher at a burning fixture (stage 6 counts the hold).
    Spray,
}

impl Verb {
    /// Every verb kind, for coverage tables (item ids are placeholders).
    pub const ALL: [Verb; 11] = [
        Verb::PickItem(ItemId(0)),
        Verb::PickFromStation,
        Verb::Release,
        Verb::PlaceOnStation,
        Verb::PlateDish,
        Verb::StartWork,
        Verb::HoldWork,
        Verb::Serve,
        Verb::Wash,
        Verb::Trash,
        Verb::Spray,
    ];

    /// The same verb with any payload erased, to compare kinds.
    pub fn kind(self) -> Verb {
        match self {
            Verb::PickItem(_) => Verb::PickItem(ItemId(0)),
            v => v,
        }
    }
}

/// A refusal: the reason and, for zero stock, the why.
pub type Denial = (DeniedReason, Option<DeniedWhy>);

/// The one item lying on a fixture, if any (counters, prep, board and pan hold one).
fn first_on(room: &Room, station: usize) -> Option<&Item> {
    room.items_on(station).next()
}

/// Would putting `food` onto `plate_parts` leave a plate that can still become a dish?
fn plating(room: &Room, plate_parts: &[Part], food: &[Part]) -> Result<Verb, Denial> {
    if can_become_dish(&room.book, &with_parts(plate_parts, food)) {
        Ok(Verb::PlateDish)
    } else {
        Err((DeniedReason::NoRecipe, None))
    }
}

/// The parts a fixture's finished output would put on a plate (a ready pot pours all of them).
fn output_parts(room: &Room, station: usize) -> Vec<Part> {
    room.items_on(station)
        .filter_map(|i| match i.kind {
            ItemKind::Food(ing, form) => Some((ing, form)),
            ItemKind::Plate { .. } | ItemKind::Extinguisher => None,
        })
        .collect()
}

/// A holding surface (counter, prep): one item; an ingredient and a plate combine.
fn holding_surface(room: &Room, held: Option<&Item>, on: Option<&Item>) -> Result<Verb, Denial> {
    match (held, on) {
        (None, Some(item)) => Ok(Verb::PickItem(item.id)),
        (None, None) => Err((DeniedReason::InvalidState, None)),
        (Some(_), None) => Ok(Verb::PlaceOnStation),
        (Some(h), Some(o)) => match (&h.kind, &o.kind) {
            (ItemKind::Plate { parts }, ItemKind::Food(i, f))
            | (ItemKind::Food(i, f), ItemKind::Plate { parts }) => {
                plating(room, parts, &[(*i, *f)])
            }
            _ => Err((DeniedReason::HandsFull, None)),
        },
    }
}

/// The chop board: set-down starts the input, a free hand works it, output is taken or plated.
fn chop_board(
    room: &Room,
    station: usize,
    held: Option<&Item>,
    on: Option<&Item>,
) -> Result<Verb, Denial> {
    let st = &room.stations[station];
    match (held, on) {
        (None, None) => Err((DeniedReason::InvalidState, None)),
        (None, Some(item)) if item.mark.is_some() => Ok(Verb::PickItem(item.id)),
        (None, Some(_)) if st.state == StationState::Ready => Ok(Verb::PickFromStation),
        (None, Some(item)) if matches!(item.kind, ItemKind::Food(_, Form::Burnt)) => {
            Ok(Verb::PickFromStation)
        }
        (None, Some(_)) => Ok(Verb::StartWork),
        (Some(_), None) => Ok(Verb::PlaceOnStation),
        (Some(h), Some(o)) => match (&h.kind, &o.kind) {
            // The push-out: a rotted item yields to a new one the board works.
            (ItemKind::Food(i, f), ItemKind::Food(_, Form::Burnt))
                if transition(st.kind, *i, *f).is_some() =>
            {
                Ok(Verb::PlaceOnStation)
            }
            (ItemKind::Plate { parts }, ItemKind::Food(i, f))
                if st.state == StationState::Ready =>
            {
                plating(room, parts, &[(*i, *f)])
            }
            _ => Err((DeniedReason::StationBusy, None)),
        },
    }
}

/// A stove: loads start cooking on their own; a plate takes (pan) or pours (pot) the output.
fn stove(room: &Room, station: usize, vessel: Vessel, held: Option<&Item>) -> Result<Verb, Denial> {
    let st = &room.stations[station];
    let on = first_on(room, station);
    let count = room.items_on(station).count();
    match held {
        None => match on {
            None => Err((DeniedReason::InvalidState, None)),
            Some(item) if item.mark.is_some() => Ok(Verb::PickItem(item.id)),
            // Soup is poured, never carried by hand.
            Some(_) if st.state == StationState::Ready && vessel == Vessel::Pot => {
                Err((DeniedReason::HandsEmpty, None))
            }
            Some(_) if st.state == StationState::Ready => Ok(Verb::PickFromStation),
            Some(_) => Err((DeniedReason::StationBusy, None)),
        },
        Some(h) => match &h.kind {
            ItemKind::Plate { parts } if st.state == StationState::Ready => {
                plating(room, parts, &output_parts(room, station))
            }
            ItemKind::Food(i, f) if transition(st.kind, *i, *f).is_some() => {
                let has_room = match vessel {
                    Vessel::Pan => count == 0,
                    Vessel::Pot => count < POT_CAPACITY && on.is_none_or(|o| o.mark.is_none()),
                };
                if !has_room {
                    Err((DeniedReason::StationBusy, None))
                } else if vessel == Vessel::Pot && count == 0 && room.pots_clean == 0 {
                    Err((DeniedReason::NothingHere, Some(DeniedWhy::NoPot)))
                } else {
                    Ok(Verb::PlaceOnStation)
                }
            }
            _ if on.is_none() => Ok(Verb::PlaceOnStation),
            _ => Err((DeniedReason::StationBusy, None)),
        },
    }
}

/// The ladder, with the cook's own condition first and the fixture's state before its kind.
/// `cook_index` must be a cook of the room and `station` a valid index.
pub fn select_verb(room: &Room, cook_index: usize, station: usize) -> Result<Verb, Denial> {
    let cook = &room.cooks[cook_index];
    let st = &room.stations[station];
    let held = cook.held.and_then(|id| room.item(id));
    let deny = |r: DeniedReason| Err((r, None));
    let mine = st.worker == Some(cook.seat);

    let tool = held.is_some_and(|i| i.kind == ItemKind::Extinguisher);
    match st.state {
        // Only fire blocks a fixture: the extinguisher sprays it, anything else is refused.
        StationState::Blocked if tool => return Ok(Verb::Spray),
        StationState::Blocked => return deny(DeniedReason::OnFire),
        // Dirt outranks every other state: a free hand washes in place.
        StationState::Dirty => {
            return match (held, st.worker) {
                (Some(_), _) => deny(DeniedReason::StationDirty),
                (None, Some(w)) if w != cook.seat => deny(DeniedReason::StationBusy),
                (None, _) => Ok(Verb::Wash),
            };
        }
        StationState::Working if st.worker.is_some() => {
            return if mine { Ok(Verb::HoldWork) } else { deny(DeniedReason::StationBusy) };
        }
        StationState::Working | StationState::Idle | StationState::Ready => {}
    }
    // A worker slot still held through its release grace is not free.
    if st.worker.is_some() && !mine {
        return deny(DeniedReason::StationBusy);
    }

    let on = first_on(room, station);
    // The extinguisher is a tool: it goes on a stand or a holding surface, never into a
    // pipeline, a window, the sink or the bin.
    if tool
        && matches!(
            st.kind,
            StationKind::ChopBoard
                | StationKind::Stove(_)
                | StationKind::Serve
                | StationKind::Sink
                | StationKind::Trash
        )
    {
        return deny(DeniedReason::WrongItem);
    }
    match st.kind {
        StationKind::ExtinguisherStand => match (held, on) {
            (None, Some(item)) => Ok(Verb::PickItem(item.id)),
            (None, None) => deny(DeniedReason::InvalidState),
            (Some(_), _) if !tool => deny(DeniedReason::WrongItem),
            (Some(_), None) => Ok(Verb::PlaceOnStation),
            (Some(_), Some(_)) => deny(DeniedReason::StationBusy),
        },
        StationKind::Serve => match held.map(|i| &i.kind) {
            None => deny(DeniedReason::HandsEmpty),
            Some(ItemKind::Plate { .. }) => Ok(Verb::Serve),
            Some(_) => deny(DeniedReason::WrongItem),
        },
        StationKind::Trash => match held {
            None => deny(DeniedReason::HandsEmpty),
            Some(_) => Ok(Verb::Trash),
        },
        StationKind::Sink => match held {
            None if room.plates_dirty > 0 => Ok(Verb::StartWork),
            None => deny(DeniedReason::InvalidState),
            Some(_) => deny(DeniedReason::WrongItem),
        },
        StationKind::Shelf(ingredient) => match held {
            None => Ok(on.map_or(Verb::PickFromStation, |i| Verb::PickItem(i.id))),
            // A plate takes a raw ingredient straight off the shelf when a dish wants it.
            Some(Item { kind: ItemKind::Plate { parts }, .. })
                if can_become_dish(&room.book, &with_parts(parts, &[(ingredient, Form::Raw)])) =>
            {
                Ok(Verb::PlateDish)
            }
            Some(_) => Ok(Verb::Release),
        },
        StationKind::PlateRack => match held.map(|i| &i.kind) {
            None => match on {
                Some(item) => Ok(Verb::PickItem(item.id)),
                None if room.plates_clean > 0 => Ok(Verb::PickFromStation),
                None => Err((DeniedReason::NothingHere, Some(DeniedWhy::NoPlate))),
            },
            Some(ItemKind::Plate { parts }) if parts.is_empty() => Ok(Verb::Release),
            Some(_) => deny(DeniedReason::HandsFull),
        },
        StationKind::Counter | StationKind::Prep => holding_surface(room, held, on),
        StationKind::ChopBoard => chop_board(room, station, held, on),
        StationKind::Stove(vessel) => stove(room, station, vessel, held),
    }
}

/// The contested claim a verb makes, if only one cook can have what it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClaimKey {
    Item(ItemId),
    Station(usize),
}

/// One key per thing a press takes, so two presses on the same thing always meet:
/// PICK_ITEM lifts one item (its id); plating on a holding surface takes or fills the one item
/// lying there (its id: the food a hand's plate lifts, or the plate a hand's food goes onto);
/// START_WORK and an in-place WASH take the single worker slot, and a fixture's pipeline
/// output is taken whole by a plate (PLATE_DISH) or a free hand (PICK_FROM_STATION) — all the
/// fixture's key. Stock (a shelf, the rack) is never contested.
pub fn claim_of(room: &Room, verb: Verb, station: usize) -> Option<ClaimKey> {
    let kind = room.stations[station].kind;
    match verb {
        Verb::PickItem(id) => Some(ClaimKey::Item(id)),
        Verb::StartWork => Some(ClaimKey::Station(station)),
        Verb::Wash if kind != StationKind::Sink => Some(ClaimKey::Station(station)),
        Verb::PlateDish if matches!(kind, StationKind::ChopBoard | StationKind::Stove(_)) => {
            Some(ClaimKey::Station(station))
        }
        Verb::PlateDish if matches!(kind, StationKind::Counter | StationKind::Prep) => {
            room.items_on(station).next().map(|i| ClaimKey::Item(i.id))
        }
        Verb::PickFromStation => room.items_on(station).next().map(|_| ClaimKey::Station(station)),
        _ => None,
    }
}
