//! The Room entity: one kitchen's whole state — grid, rng, clock, cooks, stations, items.
//!
//! Cooks, stations and items are rows inside the room, kept in stable-id order (seat, level
//! index, monotonic ItemId), so every stage iterates in the rulebook's order by construction
//! and no system ever depends on Bevy's query order. Built only from plain data modules (no
//! stage): opening a room, which runs stage code, is `open.rs`.

use super::assist::Assist;
use super::cook::Cook;
use super::counters::Counters;
use super::events::SimEvent;
use super::hazard_state::HazardState;
use super::ids::{ItemId, Seat};
use super::input::InputQueue;
use super::item::{Item, ItemKind, Place};
use super::kinds::{StationKind, Tile, Vessel};
use super::kitchen::Level;
use super::order::Order;
use super::recipe_book::RecipeBook;
use super::rng::SplitMix64;
use super::station::{Station, StationState};
use super::survival::SurvivalClock;
use super::units::{Cell, QUALITY_FULL};
use super::verdict::Verdict;
use super::versus::{Team, VersusTally};
use bevy::prelude::*;
use std::sync::Arc;

/// One kitchen: the Room entity's component, holding every per-kitchen fact.
#[derive(Component, Clone, Debug)]
pub struct Room {
    pub level: Arc<Level>,
    pub book: Arc<RecipeBook>,
    /// The round's assists (`assist.rs`): already applied to `level`; hashed when on.
    pub assist: Assist,
    /// Survival's clock tallies (`survival.rs`): `Some` only in a survival round; hashed then.
    pub survival: Option<SurvivalClock>,
    /// Versus's two tallies (`versus.rs`): `Some` only on a level with teams; hashed then.
    /// Its rounds leave `score`, `streak` and `longest_streak` at 0: each team keeps its own.
    pub versus: Option<VersusTally>,
    pub seed: u64,
    /// Ticks simulated so far (the next tick to simulate).
    pub tick: u32,
    /// The hash chain head: FNV-1a of the state at `tick`, chained with the previous head.
    pub hash: u64,
    pub rng: SplitMix64,
    /// Cooks in seat order.
    pub cooks: Vec<Cook>,
    /// Stations in level index order.
    pub stations: Vec<Station>,
    /// Items in id order.
    pub items: Vec<Item>,
    pub next_item: u32,
    pub plates_clean: u32,
    pub plates_dirty: u32,
    pub pots_clean: u32,
    pub pots_dirty: u32,
    pub counters: Counters,
    /// Live orders in id order.
    pub orders: Vec<Order>,
    /// The tick (pre-increment) on which the rail next tries to spawn.
    pub next_order_at: u32,
    pub next_order_id: u32,
    /// The level's pool as recipe-book indices (resolved once at build).
    pub pool: Vec<u16>,
    pub score: i32,
    /// Consecutive serves since the last miss.
    pub streak: u32,
    pub longest_streak: u32,
    /// Ticks of round clock left (frozen at the verdict).
    pub time_left: u32,
    pub result: Option<Verdict>,
    /// Set when a stage panicked on this room (the panic's message): every later stage skips
    /// it, so its state stays as the panic left it, and whoever hosts it ends the round. Not
    /// part of the hash chain (a healthy room's chain never sees it).
    pub fault: Option<String>,
    /// Frames waiting for their tick.
    pub inputs: InputQueue,
    /// The facts of the latest tick (cleared when the next tick starts).
    pub events: Vec<SimEvent>,
    /// Stage 6's state (inert, and unhashed, for a level without hazards or a stand).
    pub hazards: HazardState,
    /// Has the second button ever gone down in this room? Until it has, no cook has dashed and
    /// nothing has been thrown, so the hash walk leaves the moves out and a room played with
    /// the action button alone hashes exactly as before the moves existed.
    pub moves_seen: bool,
}

impl Room {
    /// The tile at a cell (out of bounds is a wall).
    pub fn tile(&self, cell: Cell) -> Tile {
        self.level.tile(cell)
    }

    pub fn cook_index(&self, seat: Seat) -> Option<usize> {
        self.cooks.iter().position(|c| c.seat == seat)
    }

    pub fn item_index(&self, id: ItemId) -> Option<usize> {
        self.items.binary_search_by_key(&id, |i| i.id).ok()
    }

    pub fn item(&self, id: ItemId) -> Option<&Item> {
        self.item_index(id).map(|i| &self.items[i])
    }

    /// Items lying on a station, in id order.
    pub fn items_on(&self, station: usize) -> impl Iterator<Item = &Item> + '_ {
        self.items.iter().filter(move |i| i.place == Place::Station(station as u16))
    }

    /// Create an item (ids are monotonic, so pushing keeps `items` sorted).
    pub fn create_item(&mut self, kind: ItemKind, place: Place) -> ItemId {
        let id = ItemId(self.next_item);
        self.next_item += 1;
        self.counters.created += 1;
        self.items.push(Item { id, kind, place, quality: QUALITY_FULL, mark: None, heat: 0 });
        id
    }

    /// Items lying on the floor in a cell, in id order.
    pub fn floor_items_in(&self, cell: Cell) -> impl Iterator<Item = &Item> + '_ {
        self.items.iter().filter(move |i| matches!(i.place, Place::Floor(p) if p.cell() == cell))
    }

    /// Destroy an item, wherever it is (a hand holding it lets go).
    pub fn destroy_item(&mut self, id: ItemId) {
        if let Some(i) = self.item_index(id) {
            if let Place::Hand(seat) = self.items[i].place
                && let Some(c) = self.cook_index(seat)
            {
                self.cooks[c].held = None;
            }
            self.items.remove(i);
        }
    }

    /// Station `s` back to a bare fixture in `state`: no worker, no progress, no release
    /// grace, and a pot stove's pot back in the clean stock. Washing a pot clean and a fire
    /// throwing it clear are the same reset. A pre-placed pot (scripts, tests) never left the
    /// stock, so with no pot out there is nothing to give back.
    pub fn reset_station(&mut self, s: usize, state: StationState) {
        let st = &mut self.stations[s];
        let holds_pot =
            st.kind == StationKind::Stove(Vessel::Pot) && st.state != StationState::Idle;
        st.state = state;
        st.worker = None;
        st.progress = 0;
        st.cooldown = 0;
        if holds_pot && self.pots_dirty > 0 {
            self.pots_dirty -= 1;
            self.pots_clean += 1;
        }
    }

    /// Versus: the team seat `seat` plays for; `None` in a co-op round.
    pub fn team_of_seat(&self, seat: Seat) -> Option<Team> {
        self.level.teams.as_ref().map(|t| t.team_of_seat(seat))
    }

    /// Does the level have a sink (where served plates come back dirty)?
    pub fn has_sink(&self) -> bool {
        self.stations.iter().any(|s| s.kind == StationKind::Sink)
    }
}
