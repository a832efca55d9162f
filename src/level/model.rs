//! The validated, tick-unit form of a level and the recipe book: what the simulation consumes.
//!
//! Produced only by the level module's compile step (which validates), so the sim can trust
//! every field: the grid is rectangular, spawns are walkable, durations are whole ticks ≥ 1.

use crate::sim::kinds::{Form, Ingredient, StationKind, Tile};

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

/// A validated level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub id: String,
    pub name: String,
    pub hint: String,
    pub width: i32,
    pub height: i32,
    /// Row-major, `width * height` cells.
    pub tiles: Vec<Tile>,
    /// Cook spawn cells in seat order (seat `s` uses `spawns[s % len]`).
    pub spawns: Vec<Cell>,
    /// Every fixture, by stable index (row-major scan order).
    pub stations: Vec<StationDef>,
    pub props: PropLimits,
    pub orders: OrdersSpec,
    /// Round length in ticks (≥ 1).
    pub time_limit: u32,
    pub target_score: i32,
}

impl Level {
    /// The tile at a cell; out of bounds reads as a wall.
    pub fn tile(&self, (x, y): Cell) -> Tile {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            Tile::Wall
        } else {
            self.tiles[(y * self.width + x) as usize]
        }
    }

    /// The station index at a cell, if a fixture stands there.
    pub fn station_at(&self, cell: Cell) -> Option<usize> {
        self.stations.iter().position(|s| s.cell == cell)
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
