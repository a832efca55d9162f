//! The verb ladder: what one press means right now, or the one named reason it means nothing.

use crate::sim::events::{DeniedReason, DeniedWhy};
use crate::sim::kinds::{Form, StationKind};
use crate::sim::room::{ItemId, ItemKind, Room, StationState};
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
}

impl Verb {
    /// Every verb kind, for coverage tables (item ids are placeholders).
    pub const ALL: [Verb; 10] = [
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

/// Is this a grabbable set-down / shelf item, in id order (the first set-down wins)?
fn grabbable_on(room: &Room, station: usize) -> Option<ItemId> {
    let st = &room.stations[station];
    room.items_on(station)
        .find(|i| {
            matches!(st.kind, StationKind::Shelf(_) | StationKind::Counter | StationKind::PlateRack)
                || i.mark.is_some()
        })
        .map(|i| i.id)
}

/// The ladder, with the cook's own condition first and the fixture's state before its kind.
/// `seat` must be a cook of the room and `station` a valid index.
pub fn select_verb(room: &Room, cook_index: usize, station: usize) -> Result<Verb, Denial> {
    let cook = &room.cooks[cook_index];
    let st = &room.stations[station];
    let held = cook.held.and_then(|id| room.item(id));
    let deny = |r: DeniedReason| Err((r, None));

    match st.state {
        StationState::Blocked => return deny(DeniedReason::InvalidState),
        // Dirt outranks every other state: a free hand washes in place.
        StationState::Dirty => {
            return if held.is_none() { Ok(Verb::Wash) } else { deny(DeniedReason::StationDirty) };
        }
        StationState::Working => {
            return if st.worker == Some(cook.seat) {
                Ok(Verb::HoldWork)
            } else {
                deny(DeniedReason::StationBusy)
            };
        }
        StationState::Idle | StationState::Ready => {}
    }
    // A worker slot still held through its release grace is not free.
    if st.worker.is_some_and(|w| w != cook.seat) {
        return deny(DeniedReason::StationBusy);
    }

    let on_station = room.items_on(station).next();
    match st.kind {
        StationKind::Serve => match held.map(|i| &i.kind) {
            None => deny(DeniedReason::HandsEmpty),
            Some(ItemKind::Plate { dirty: false, parts }) if !parts.is_empty() => Ok(Verb::Serve),
            Some(_) => deny(DeniedReason::WrongItem),
        },
        StationKind::Trash => match held {
            None => deny(DeniedReason::HandsEmpty),
            Some(_) => Ok(Verb::Trash),
        },
        StationKind::Sink => match held.map(|i| &i.kind) {
            None if st.state == StationState::Ready && on_station.is_some() => {
                Ok(Verb::PickFromStation)
            }
            None => deny(DeniedReason::HandsEmpty),
            Some(ItemKind::Plate { dirty: true, .. }) => Ok(Verb::Wash),
            Some(_) => deny(DeniedReason::WrongItem),
        },
        StationKind::Shelf(_) => match held {
            None => Ok(grabbable_on(room, station).map_or(Verb::PickFromStation, Verb::PickItem)),
            Some(_) => Ok(Verb::Release),
        },
        StationKind::PlateRack => match held.map(|i| &i.kind) {
            None => match grabbable_on(room, station) {
                Some(id) => Ok(Verb::PickItem(id)),
                None if room.plates_clean > 0 => Ok(Verb::PickFromStation),
                None => Err((DeniedReason::NothingHere, Some(DeniedWhy::NoPlate))),
            },
            Some(ItemKind::Plate { dirty: false, parts }) if parts.is_empty() => Ok(Verb::Release),
            Some(_) => deny(DeniedReason::HandsFull),
        },
        StationKind::Counter => match (held, on_station) {
            (None, Some(item)) => Ok(Verb::PickItem(item.id)),
            (None, None) => deny(DeniedReason::InvalidState),
            (Some(_), None) => Ok(Verb::PlaceOnStation),
            (Some(_), Some(_)) => deny(DeniedReason::HandsFull),
        },
        StationKind::ChopBoard | StationKind::Stove(_) | StationKind::Prep => {
            match (held, on_station) {
                (None, Some(item)) if item.mark.is_some() => Ok(Verb::PickItem(item.id)),
                (None, Some(_)) if st.state == StationState::Ready => Ok(Verb::PickFromStation),
                (None, Some(_)) => Ok(Verb::StartWork),
                (None, None) => deny(DeniedReason::InvalidState),
                (Some(_), Some(_)) => deny(DeniedReason::HandsFull),
                (Some(h), None) => Ok(match (st.kind, &h.kind) {
                    (
                        StationKind::Prep,
                        ItemKind::Food(_, Form::Chopped | Form::Cooked | Form::Boiled),
                    ) => Verb::PlateDish,
                    _ => Verb::PlaceOnStation,
                }),
            }
        }
    }
}

/// The contested claim a verb makes, if only one cook can have what it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClaimKey {
    Item(ItemId),
    Station(usize),
}

/// PICK_ITEM lifts one item, START_WORK takes the single worker slot, and PICK_FROM_STATION
/// claims only when the fixture holds its one finished item (stock is never contested).
pub fn claim_of(room: &Room, verb: Verb, station: usize) -> Option<ClaimKey> {
    match verb {
        Verb::PickItem(id) => Some(ClaimKey::Item(id)),
        Verb::StartWork => Some(ClaimKey::Station(station)),
        Verb::PickFromStation => room.items_on(station).next().map(|i| ClaimKey::Item(i.id)),
        _ => None,
    }
}
