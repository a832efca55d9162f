//! Opening a kitchen: a Room at tick 0 from a level, a recipe book, a seed and its seats.
//!
//! Kept apart from `room.rs` because opening runs stage code (stage 6 sets up its hazards, the
//! hash chain starts), and the Room's own module is built only from plain data.

use super::assist::Assist;
use super::cook::{Cook, CookState, MoveModifiers};
use super::counters::Counters;
use super::hash;
use super::hazard_state::HazardState;
use super::hazards;
use super::ids::{ItemId, Seat};
use super::input::{InputQueue, ResolvedInput};
use super::item::{ItemKind, Place};
use super::kinds::Dir4;
use super::kitchen::Level;
use super::orders::FIRST_ORDER_DELAY_TICKS;
use super::recipe_book::RecipeBook;
use super::rng::SplitMix64;
use super::room::Room;
use super::station::{Station, StationState};
use super::survival::{SURVIVAL_START_TICKS, SurvivalClock};
use super::units::TILE;
use super::v2::V2;
use super::versus::VersusTally;
use bevy::prelude::*;
use std::sync::Arc;

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

/// A quarter tile: the offset between cooks that share a spawn.
const STACK_OFFSET: i32 = TILE / 4;

impl Room {
    /// Build a kitchen at tick 0: seats at their spawns (spawn `seat % len`, a quarter tile apart
    /// along x then y when stacked), stations idle, prop stock full, the hash chain started.
    pub fn new(level: Arc<Level>, book: Arc<RecipeBook>, seed: u64, seats: &[SeatSpec]) -> Room {
        Room::assisted(level, book, seed, seats, Assist::OFF)
    }

    /// [`Room::new`] with a round's assists: the level is scaled first (`Assist::apply`), so
    /// every stage reads the assisted deadlines and clock, and the assist is hashed.
    pub fn assisted(
        level: Arc<Level>,
        book: Arc<RecipeBook>,
        seed: u64,
        seats: &[SeatSpec],
        assist: Assist,
    ) -> Room {
        let level = if assist.is_on() {
            let mut scaled = (*level).clone();
            assist.apply(&mut scaled);
            Arc::new(scaled)
        } else {
            level
        };
        Room::open_applied(level, book, seed, seats, assist)
    }

    /// A room on a level that already has `assist` applied: a live room's own `level`, for a
    /// replay of that round (applying it again would scale twice).
    pub fn open_applied(
        level: Arc<Level>,
        book: Arc<RecipeBook>,
        seed: u64,
        seats: &[SeatSpec],
        assist: Assist,
    ) -> Room {
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
                    dash: 0,
                    dash_cooldown: 0,
                    dash_down: false,
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
            assist,
            survival: None,
            // A level with teams is a versus round from the start (and hashed as one).
            versus: level.teams.as_ref().map(|_| VersusTally::default()),
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
            next_order_at: FIRST_ORDER_DELAY_TICKS,
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
            hazards: HazardState::default(),
            moves_seen: false,
            level,
            book,
        };
        hazards::init_room(&mut room);
        room.hash = hash::chain(0, &room);
        room
    }

    /// This room as a survival round when `on` (`survival.rs`): the clock starts at
    /// [`SURVIVAL_START_TICKS`] instead of the level's limit, and the tick-0 head is rehashed
    /// with survival's fields. Off, or on a level with teams: the room unchanged.
    pub fn with_survival(mut self, on: bool) -> Room {
        // A versus round keeps its own rules (no target, the buzzer names a team): survival
        // is not a versus option, and whoever opens rooms refuses the pair by name.
        if on && self.versus.is_none() {
            self.survival = Some(SurvivalClock::default());
            self.time_left = SURVIVAL_START_TICKS;
            self.hash = hash::chain(0, &self);
        }
        self
    }

    /// Place an item on a station before the round starts (replay scripts and tests).
    pub fn preplace(&mut self, station: usize, kind: ItemKind) -> ItemId {
        let id = self.create_item(kind, Place::Station(station as u16));
        self.hash = hash::chain(0, self);
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
