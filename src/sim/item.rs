//! One item's row in a room: what it is, where it is, its quality and who set it down.

use super::flight::Flight;
use super::ids::{ItemId, Seat};
use super::kinds::{Form, Ingredient};
use super::recipe_book::Part;
use super::v2::V2;

/// What an item is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ItemKind {
    /// An ingredient in some form.
    Food(Ingredient, Form),
    /// A clean plate with the prepared ingredients on it (a sorted multiset). Dirty plates are
    /// not carried: a served plate goes to the sink's dirty stack (`Room::plates_dirty`).
    Plate { parts: Vec<Part> },
    /// The fire extinguisher: a tool, never food, never trashed, never lost (fire and falling
    /// floors send it back to a stand).
    Extinguisher,
}

/// Where an item is: every item is in exactly one hand, on exactly one fixture, on the floor at
/// one point, or in the air on one flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    Hand(Seat),
    Station(u16),
    /// Lying on the floor where a throw left it (µtiles): blocks nothing, picked up by a free
    /// hand facing it, never decays (like a counter).
    Floor(V2),
    /// Thrown and still flying.
    Air(Flight),
}

/// Who set an item down, and when: the hand-off window's memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mark {
    pub placer: Seat,
    pub tick: u32,
}

/// One item, by id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub id: ItemId,
    pub kind: ItemKind,
    pub place: Place,
    /// ppm, 1 000 000 = fresh.
    pub quality: u32,
    /// Present when a hand set this item down (absent for stock and pipeline output).
    pub mark: Option<Mark>,
    /// Ticks of heat left before a finished dish on a ready stove burns (0 = not counting).
    pub heat: u32,
}
