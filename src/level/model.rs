//! The validated, tick-unit form of a level and the recipe book: what the simulation consumes.
//!
//! Produced only by the level module's compile step (which validates), so the sim can trust
//! every field: the grid is rectangular, spawns are walkable, durations are whole ticks ≥ 1.

use crate::sim::kinds::{Form, Ingredient, StationKind, Tile};
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// Simulation rate: ticks per second (the rulebook's STEP_DT = 0.05 s).
pub const TICK_HZ: u32 = 20;

/// A grid cell coordinate: x is the column, y the row (row 0 is the first string of the file).
pub type Cell = (i32, i32);

/// One fixture of a level, in its stable index order (row-major scan of the grid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StationDef {
    pub kind: StationKind,
    pub cell: Cell,
}

/// How many of each prop the kitchen owns (clean + dirty always sum to this).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PropLimits {
    pub plates: u32,
    pub pots: u32,
}

/// The ticket rail's spec in ticks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrdersSpec {
    /// Recipe ids (keys of the recipe book) the rail draws from.
    pub pool: Vec<String>,
    /// At most this many live orders.
    pub concurrent: u32,
    /// The gap to the next spawn is drawn uniformly from this inclusive range (ticks, ≥ 1).
    pub interval_min: u32,
    pub interval_max: u32,
    /// Ticks an order lives before it is missed (≥ 1).
    pub deadline: u32,
    /// Points lost on a miss (≥ 0).
    pub miss_penalty: i32,
}

/// A validated level: the floor grid, and everything else behind a shared pointer.
///
/// The grid is the one part a round rewrites (shifting floors copy the level on their first
/// change), so it lives here by value while the rest, which never changes in a round, is shared
/// through [`LevelFixed`]: a room's copy is the grid alone, and every room on a level keeps
/// reading the same stations, spec and hazards (docs/PERFORMANCE.md: per-room copies of whole
/// levels cost the hazard levels a tenth of their batch throughput in cache misses).
/// `level.stations`, `level.hazards` … read through `Deref`; a write copies the shared part
/// first (`DerefMut` is `Arc::make_mut`), so a level is still a plain value to its owner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub width: i32,
    pub height: i32,
    /// Row-major, `width * height` cells.
    pub tiles: Vec<Tile>,
    fixed: Arc<LevelFixed>,
}

/// The parts of a level that stay fixed for a whole round (see [`Level`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelFixed {
    pub id: String,
    pub name: String,
    pub hint: String,
    /// Cook spawn cells in seat order (seat `s` uses `spawns[s % len]`).
    pub spawns: Vec<Cell>,
    /// Every fixture, by stable index (row-major scan order).
    pub stations: Vec<StationDef>,
    pub props: PropLimits,
    pub orders: OrdersSpec,
    /// Round length in ticks (≥ 1).
    pub time_limit: u32,
    pub target_score: i32,
    /// Stage 6's hazards, in ticks and µtiles (empty for a calm kitchen).
    pub hazards: HazardSpec,
}

impl Deref for Level {
    type Target = LevelFixed;

    fn deref(&self) -> &LevelFixed {
        &self.fixed
    }
}

impl DerefMut for Level {
    fn deref_mut(&mut self) -> &mut LevelFixed {
        Arc::make_mut(&mut self.fixed)
    }
}

impl Level {
    /// A level from its grid and its fixed parts.
    pub fn new(width: i32, height: i32, tiles: Vec<Tile>, fixed: LevelFixed) -> Level {
        Level { width, height, tiles, fixed: Arc::new(fixed) }
    }

    /// The tile at a cell; out of bounds reads as a wall.
    pub fn tile(&self, (x, y): Cell) -> Tile {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            Tile::Wall
        } else {
            self.tiles[(y * self.width + x) as usize]
        }
    }

    /// The station index at a cell, if a fixture stands there now. A fixture whose cell a
    /// shifting floor has turned to void or wall is gone until the floor comes back.
    ///
    /// The list is in row-major order (both builders scan the grid row by row), so the index
    /// is a binary search by (row, column): targeting calls this for every press and hold.
    /// The tile is asked first: most cells a cook faces are floor, and one tile read answers
    /// them without the search.
    pub fn station_at(&self, cell: Cell) -> Option<usize> {
        if !matches!(self.tile(cell), Tile::Station(_)) {
            return None;
        }
        self.stations.binary_search_by_key(&(cell.1, cell.0), |s| (s.cell.1, s.cell.0)).ok()
    }
}

/// One prepared ingredient as it lies on a plate or in a recipe.
pub type Part = (Ingredient, Form);

/// A dish: a multiset of prepared ingredients on a plate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipe {
    pub id: String,
    pub name: String,
    pub base_score: i32,
    /// Sorted, so two equal multisets compare equal.
    pub parts: Vec<Part>,
}

/// The validated recipe book.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecipeBook {
    pub recipes: Vec<Recipe>,
}

impl RecipeBook {
    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.recipes.iter().position(|r| r.id == id)
    }
}

/// Whole seconds-and-fractions to ticks at [`TICK_HZ`], rounded to nearest, for the loader.
pub fn seconds_to_ticks(seconds: f64) -> i64 {
    (seconds * TICK_HZ as f64).round() as i64
}

/// What a patch of floor does to the cook standing on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Traction {
    /// Spilled oil: slower, and less grip to speed up or brake.
    Spill,
    /// Ice: no braking at all (throttle still works).
    Ice,
}

/// A spill or ice patch: which floor cells, and when it lies there (ticks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchSpec {
    pub traction: Traction,
    pub cells: Vec<Cell>,
    /// The tick it first appears on.
    pub from: u32,
    /// Ticks it lies each time (`None`: it stays once it appears).
    pub lasts: Option<u32>,
    /// It reappears this many ticks after each appearance (`None`: once).
    pub every: Option<u32>,
}

impl PatchSpec {
    /// Is the patch on the floor during tick `t`? A pure function of the tick, so the client
    /// and the sim agree without sending a timetable.
    pub fn active_at(&self, t: u32) -> bool {
        self.state_at(t).0
    }

    /// Does the patch appear on tick `t` (the tick its SPILLED event is emitted)?
    pub fn appears_at(&self, t: u32) -> bool {
        self.state_at(t).1
    }

    /// `(active_at(t), appears_at(t))` from one division: stage 6 asks both every tick.
    pub fn state_at(&self, t: u32) -> (bool, bool) {
        if t < self.from {
            return (false, false);
        }
        let since = t - self.from;
        let phase = match self.every {
            Some(every) => since % every.max(1),
            None => since,
        };
        (self.lasts.is_none_or(|lasts| phase < lasts), phase == 0)
    }
}

/// A cart (or rat) looping a path of floor cells at a constant speed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CartSpec {
    /// Consecutive cells are orthogonal neighbours, and the last neighbours the first.
    pub path: Vec<Cell>,
    /// µtiles per tick (≥ 1).
    pub speed: i32,
}

/// The kitchen's fire rules (one per level).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FireSpec {
    /// Ticks from a dish burning on a stove to the stove catching fire.
    pub delay: u32,
    /// A burning station spreads to a neighbour after a gap drawn from this range (ticks).
    pub spread_min: u32,
    pub spread_max: u32,
    /// Ticks of continuous spraying that put a fire out.
    pub extinguish: u32,
}

/// A group of cells that switches between its drawn tile and void/wall on a timetable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShiftSpec {
    pub cells: Vec<Cell>,
    /// What the cells become while gone: `Tile::Void` or `Tile::Wall`.
    pub to: Tile,
    /// The tick the cells first go.
    pub start: u32,
    /// Ticks from one going to the next (the cycle).
    pub every: u32,
    /// Ticks the cells stay gone each cycle (< every).
    pub gone: u32,
    /// Ticks of warning before each going (≥ 1, fits in the present part of the cycle).
    pub warning: u32,
}

/// Where a shift group is in its cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ShiftPhase {
    Present,
    /// Going soon: the client flashes the cells.
    Warning,
    Gone,
}

impl ShiftSpec {
    /// The phase during tick `t` (a pure function of the tick, so client and sim agree).
    /// Gone for `gone` ticks from `start + k·every`; a warning for the `warning` ticks before
    /// each going (the first one included, even before `start`).
    pub fn phase_at(&self, t: u32) -> ShiftPhase {
        let every = self.every.max(1);
        let until_next = if t < self.start {
            self.start - t
        } else {
            let into = (t - self.start) % every;
            if into < self.gone {
                return ShiftPhase::Gone;
            }
            every - into
        };
        if until_next <= self.warning { ShiftPhase::Warning } else { ShiftPhase::Present }
    }

    /// Ticks until the cells next go (0 while gone): the client's warning countdown.
    pub fn ticks_until_gone(&self, t: u32) -> u32 {
        let every = self.every.max(1);
        if t < self.start {
            return self.start - t;
        }
        let into = (t - self.start) % every;
        if into < self.gone { 0 } else { every - into }
    }
}

/// Every hazard of a level, compiled.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HazardSpec {
    pub patches: Vec<PatchSpec>,
    pub carts: Vec<CartSpec>,
    pub fire: Option<FireSpec>,
    pub shifts: Vec<ShiftSpec>,
}

impl HazardSpec {
    pub fn is_empty(&self) -> bool {
        self.patches.is_empty()
            && self.carts.is_empty()
            && self.fire.is_none()
            && self.shifts.is_empty()
    }
}
