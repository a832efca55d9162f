//! The Room entity: one kitchen's whole state — grid, rng, clock, cooks, stations, items.
//!
//! Cooks, stations and items are rows inside the room, kept in stable-id order (seat, level
//! index, monotonic ItemId), so every stage iterates in the rulebook's order by construction
//! and no system ever depends on Bevy's query order.

use super::events::SimEvent;
use super::input::{InputQueue, ResolvedInput};
use super::kinds::{Dir4, Form, Ingredient, StationKind, Tile};
use super::kitchen::{Cell, Level};
use super::recipe_book::{Part, RecipeBook};
use super::rng::SplitMix64;
use super::units::{QUALITY_FULL, TILE, cell_centre};
use bevy::prelude::*;
use std::sync::Arc;

/// A seat index (0..=3 in play; the wire carries a byte).
pub type Seat = u8;

/// A per-room monotonic item id: items are created in id order and iterated in id order.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct ItemId(pub u32);

/// A position or velocity in µtiles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct V2 {
    pub x: i32,
    pub y: i32,
}

impl V2 {
    pub const ZERO: V2 = V2 { x: 0, y: 0 };

    pub const fn new(x: i32, y: i32) -> V2 {
        V2 { x, y }
    }

    /// The centre of a grid cell.
    pub const fn centre_of(cell: Cell) -> V2 {
        V2::new(cell_centre(cell.0), cell_centre(cell.1))
    }

    /// The cell containing this point.
    pub fn cell(self) -> Cell {
        (self.x.div_euclid(TILE), self.y.div_euclid(TILE))
    }
}

/// What a cook's body is doing, for clients and the stun rule.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum CookState {
    #[default]
    Idle,
    Moving,
    Stunned,
}

/// The traction seam the hazards stage feeds: a spill scales speed and grip, ice slides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveModifiers {
    /// Scales the speed ceiling, ppm (1 000 000 = normal).
    pub speed_ppm: u32,
    /// Scales acceleration and braking, ppm.
    pub accel_ppm: u32,
    /// True removes braking (not throttle): the cook keeps sliding when the stick centres.
    pub slide: bool,
}

impl Default for MoveModifiers {
    fn default() -> Self {
        MoveModifiers { speed_ppm: 1_000_000, accel_ppm: 1_000_000, slide: false }
    }
}

/// One cook, by seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cook {
    pub seat: Seat,
    /// Display name (sanitised by whoever seated the cook; never authoritative).
    pub name: String,
    pub pos: V2,
    pub vel: V2,
    pub facing: Dir4,
    pub state: CookState,
    /// Ticks of stun left.
    pub stun: u32,
    pub held: Option<ItemId>,
    /// Ticks the action button has been down in the current hold (1 on the press tick, 0 up).
    pub action_ticks: u32,
    /// Ticks of the current hold spent at the trash (voided when the cook turns away).
    pub trash_hold: u32,
    /// This tick's resolved frame (neutral when the seat sent none).
    pub input: ResolvedInput,
    pub modifiers: MoveModifiers,
    /// Points this cook's serves earned (display only, never competitive).
    pub score: i32,
    pub dishes_served: u32,
}

/// A fixture's pipeline state.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum StationState {
    #[default]
    Idle,
    Working,
    Ready,
    Dirty,
    Blocked,
}

/// One fixture, by its level index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Station {
    pub kind: StationKind,
    pub cell: Cell,
    pub state: StationState,
    /// Ticks of work done.
    pub progress: u32,
    /// The seat working it, if any.
    pub worker: Option<Seat>,
    /// Release-grace bookkeeping (ticks the worker has been out of reach).
    pub cooldown: u32,
}

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

/// Where an item is: every item is in exactly one hand or on exactly one fixture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    Hand(Seat),
    Station(u16),
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

/// Round-long tallies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counters {
    /// Items destroyed by the long-press trash.
    pub trashed: u32,
    /// Items ever created (shelf and rack picks, pre-placed items).
    pub created: u32,
    /// Items ever destroyed (trash, plates returned to the rack, dishes served, waste).
    pub destroyed: u32,
    /// Dishes served.
    pub served: u32,
    /// Orders that expired on the rail.
    pub missed: u32,
    /// Food destroyed by the kitchen (pushed off a board, washed out of a burnt pot).
    pub wasted: u32,
}

/// One ticket on the rail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Order {
    /// Monotonic from 1: rail order is id order (FIFO).
    pub id: u32,
    /// Index into the room's recipe book.
    pub recipe: u16,
    /// Points before quality, streak and time bonus (the recipe's base score at spawn).
    pub value: i32,
    /// The absolute tick on which the order expires.
    pub deadline: u32,
}

/// How a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Verdict {
    Won,
    Lost,
    /// Ended by the host (a fault, everyone left); never emits ROUND_END.
    Aborted,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Won => "won",
            Verdict::Lost => "lost",
            Verdict::Aborted => "aborted",
        }
    }
}

/// A seat to place at round start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatSpec {
    pub seat: Seat,
    pub name: String,
}

impl SeatSpec {
    pub fn new(seat: Seat, name: impl Into<String>) -> Self {
        SeatSpec { seat, name: name.into() }
    }

    /// `n` seats named "Cook 1".."Cook n".
    pub fn numbered(n: u8) -> Vec<SeatSpec> {
        (0..n).map(|s| SeatSpec::new(s, format!("Cook {}", s + 1))).collect()
    }
}

/// One kitchen: the Room entity's component, holding every per-kitchen fact.
#[derive(Component, Clone, Debug)]
pub struct Room {
    pub level: Arc<Level>,
    pub book: Arc<RecipeBook>,
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
    pub hazards: super::hazards::HazardState,
}

/// A quarter tile: the offset between cooks that share a spawn.
const STACK_OFFSET: i32 = TILE / 4;

impl Room {
    /// Build a kitchen at tick 0: seats at their spawns (spawn `seat % len`, a quarter tile apart
    /// along x then y when stacked), stations idle, prop stock full, the hash chain started.
    pub fn new(level: Arc<Level>, book: Arc<RecipeBook>, seed: u64, seats: &[SeatSpec]) -> Room {
        let mut sorted: Vec<&SeatSpec> = seats.iter().collect();
        sorted.sort_by_key(|s| s.seat);
        sorted.dedup_by_key(|s| s.seat);
        let spawns = level.spawns.len().max(1);
        let cooks = sorted
            .iter()
            .map(|spec| {
                let spawn =
                    level.spawns.get(spec.seat as usize % spawns).copied().unwrap_or((0, 0));
                let stack = spec.seat as usize / spawns;
                let (ox, oy) = match stack {
                    0 => (0, 0),
                    1 => (STACK_OFFSET, 0),
                    2 => (0, STACK_OFFSET),
                    _ => (STACK_OFFSET, STACK_OFFSET),
                };
                let c = V2::centre_of(spawn);
                Cook {
                    seat: spec.seat,
                    name: spec.name.clone(),
                    pos: V2::new(c.x + ox, c.y + oy),
                    vel: V2::ZERO,
                    facing: Dir4::Down,
                    state: CookState::Idle,
                    stun: 0,
                    held: None,
                    action_ticks: 0,
                    trash_hold: 0,
                    input: ResolvedInput::default(),
                    modifiers: MoveModifiers::default(),
                    score: 0,
                    dishes_served: 0,
                }
            })
            .collect();
        let stations = level
            .stations
            .iter()
            .map(|s| Station {
                kind: s.kind,
                cell: s.cell,
                state: StationState::Idle,
                progress: 0,
                worker: None,
                cooldown: 0,
            })
            .collect();
        let mut room = Room {
            seed,
            tick: 0,
            hash: 0,
            rng: SplitMix64::new(seed),
            cooks,
            stations,
            items: Vec::new(),
            next_item: 1,
            plates_clean: level.props.plates,
            plates_dirty: 0,
            pots_clean: level.props.pots,
            pots_dirty: 0,
            counters: Counters::default(),
            orders: Vec::new(),
            next_order_at: super::orders::FIRST_ORDER_DELAY_TICKS,
            next_order_id: 1,
            pool: level
                .orders
                .pool
                .iter()
                .filter_map(|id| book.index_of(id))
                .map(|i| i as u16)
                .collect(),
            score: 0,
            streak: 0,
            longest_streak: 0,
            time_left: level.time_limit,
            result: None,
            fault: None,
            inputs: InputQueue::default(),
            events: Vec::new(),
            hazards: super::hazards::HazardState::default(),
            level,
            book,
        };
        super::hazards::init_room(&mut room);
        room.hash = super::hash::chain(0, &room);
        room
    }

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

    /// Does the level have a sink (where served plates come back dirty)?
    pub fn has_sink(&self) -> bool {
        self.stations.iter().any(|s| s.kind == StationKind::Sink)
    }

    /// Place an item on a station before the round starts (replay scripts and tests).
    pub fn preplace(&mut self, station: usize, kind: ItemKind) -> ItemId {
        let id = self.create_item(kind, Place::Station(station as u16));
        self.hash = super::hash::chain(0, self);
        id
    }
}

/// Spawn a kitchen as a Room entity and return it.
pub fn spawn_kitchen(
    commands: &mut Commands,
    level: Arc<Level>,
    book: Arc<RecipeBook>,
    seed: u64,
    seats: &[SeatSpec],
) -> Entity {
    commands.spawn(Room::new(level, book, seed, seats)).id()
}
