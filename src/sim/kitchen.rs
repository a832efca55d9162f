//! The compiled level the rules read: the floor grid, the fixtures, the spawns, the props, the
//! ticket rail's spec and the round's length, all in ticks.
//!
//! Only `level/` builds one (its compile step validates), so the sim trusts every field: the
//! grid is rectangular, spawns are walkable, durations are whole ticks >= 1. The rules own this
//! form and the level files compile into it, so `sim/` never imports `level/`.

use super::hazard_spec::HazardSpec;
use super::kinds::{StationKind, Tile};
use super::units::Cell;
use super::versus::TeamsSpec;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// One fixture of a level, in its stable index order (row-major scan of the grid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StationDef {
    pub kind: StationKind,
    pub cell: Cell,
}

/// How many of each prop the kitchen owns (clean + dirty always sum to this).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PropLimits {
    pub plates: u32,
    pub pots: u32,
}

/// The ticket rail's spec in ticks.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
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

/// The parts of a level that stay fixed for a whole round (see [`Level`]). The default is an
/// empty kitchen that no compile would pass (no spawns, no time), for tests to fill in.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
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
    /// Versus (`versus.rs`): the two teams' spawns and windows; `None` for a co-op kitchen.
    pub teams: Option<TeamsSpec>,
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
