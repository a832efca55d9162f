//! The designer-facing RON schema of level files, the recipe book and the campaign index.
//!
//! These types mirror the files one to one and are deliberately loose where a strict type
//! would turn a designer's mistake into an anonymous serde error: numbers are signed and
//! floating so a negative or zero value reaches the validator (BAD_COUNT, BAD_DURATION) with
//! its own code, and ingredient names are strings so a typo is UNKNOWN_INGREDIENT. The
//! compile step (`compile.rs`) turns them into the tick-unit `model` types.

use serde::Deserialize;
use std::collections::BTreeMap;

use crate::sim::kinds::{Form, Vessel};

/// A level file: `Level(id: .., name: .., grid: [..], ..)`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename = "Level", deny_unknown_fields)]
pub struct LevelFile {
    pub id: String,
    pub name: String,
    /// One line shown on the level card; optional.
    #[serde(default)]
    pub hint: String,
    /// Rows top to bottom, one character per cell.
    pub grid: Vec<String>,
    /// Extra or overriding characters: `{'x': Shelf("Onion")}`.
    #[serde(default)]
    pub legend: BTreeMap<char, TileSpec>,
    pub props: PropsFile,
    pub orders: OrdersFile,
    /// Round length in seconds.
    pub time_limit: f64,
    pub target_score: i64,
    /// Stage 6's hazards (docs/LEVELS.md, "Hazards"); numbers are loose for the validator.
    #[serde(default)]
    pub hazards: Vec<HazardFile>,
    /// Versus (docs/LEVELS.md, "Versus kitchens"): the two teams' spawns and windows, written
    /// bare (`teams: (a: (..), b: (..))`); absent for a co-op kitchen.
    #[serde(default, deserialize_with = "some_teams")]
    pub teams: Option<TeamsFile>,
}

/// An optional teams block written bare, not as `Some(..)`.
fn some_teams<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<TeamsFile>, D::Error> {
    TeamsFile::deserialize(d).map(Some)
}

/// A versus kitchen's two teams: `(a: (spawns: [1], windows: [(11, 2)]), b: (..))`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamsFile {
    pub a: TeamFile,
    pub b: TeamFile,
}

/// One team: its spawn digits as written on the grid (1–2 of them) and the cells of the
/// serving windows that score for it. Numbers are signed so a bad one reaches the validator.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamFile {
    pub spawns: Vec<i64>,
    pub windows: Vec<CellFile>,
}

/// A cell as written, `(x, y)`: signed so a negative one is HAZARD_CELL_OUTSIDE, not a
/// schema error.
pub type CellFile = (i64, i64);

/// An optional number of seconds written bare (`lasts: 4.0`), not as `Some(4.0)`.
fn some_secs<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    f64::deserialize(d).map(Some)
}

/// What a shifting floor turns into while it is gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum ShiftTo {
    Void,
    Wall,
}

/// One hazard entry. Struct variants, so RON reads `Spill(cells: [(3, 2)], from: 10.0)`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum HazardFile {
    /// Oil on the floor: slower, less grip. Appears at `from` (0), lies `lasts` seconds
    /// (forever), comes back `every` seconds (never).
    Spill {
        cells: Vec<CellFile>,
        #[serde(default)]
        from: f64,
        #[serde(default, deserialize_with = "some_secs")]
        lasts: Option<f64>,
        #[serde(default, deserialize_with = "some_secs")]
        every: Option<f64>,
    },
    /// Ice: no braking. Same timetable fields as a spill.
    Ice {
        cells: Vec<CellFile>,
        #[serde(default)]
        from: f64,
        #[serde(default, deserialize_with = "some_secs")]
        lasts: Option<f64>,
        #[serde(default, deserialize_with = "some_secs")]
        every: Option<f64>,
    },
    /// A cart looping `path` (orthogonal neighbours, last next to first) at `speed` tiles/s.
    Cart { path: Vec<CellFile>, speed: f64 },
    /// Burnt dishes catch fire after `delay` s; fire spreads after a gap drawn from
    /// `spread_every` (min, max) s; `extinguish` s of spraying puts it out.
    Fire { delay: f64, spread_every: (f64, f64), extinguish: f64 },
    /// `cells` turn `to` Void or Wall for `gone` s every `every` s, first at `first` s
    /// (default: `every`), after `warning` s of warning.
    Shift {
        cells: Vec<CellFile>,
        to: ShiftTo,
        every: f64,
        gone: f64,
        warning: f64,
        #[serde(default, deserialize_with = "some_secs")]
        first: Option<f64>,
    },
}

impl HazardFile {
    /// The name a designer writes, for messages.
    pub fn name(&self) -> &'static str {
        match self {
            HazardFile::Spill { .. } => "Spill",
            HazardFile::Ice { .. } => "Ice",
            HazardFile::Cart { .. } => "Cart",
            HazardFile::Fire { .. } => "Fire",
            HazardFile::Shift { .. } => "Shift",
        }
    }
}

/// How many plates and pots the kitchen owns.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PropsFile {
    pub plates: i64,
    #[serde(default)]
    pub pots: i64,
}

/// The ticket rail, in seconds.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrdersFile {
    /// Recipe ids; an id listed twice is drawn twice as often.
    pub pool: Vec<String>,
    pub concurrent: i64,
    /// (min, max) seconds between order spawns.
    pub interval: (f64, f64),
    /// Seconds an order lives before it is missed.
    pub deadline: f64,
    #[serde(default)]
    pub miss_penalty: i64,
}

/// A legend value: what a grid character stands for.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub enum TileSpec {
    Wall,
    Floor,
    Void,
    Counter,
    ChopBoard,
    Stove(Vessel),
    Prep,
    Serve,
    Sink,
    Trash,
    PlateRack,
    /// The extinguisher's stand (built-in `E`).
    Extinguisher,
    /// An ingredient shelf; the name is checked by the validator (UNKNOWN_INGREDIENT).
    Shelf(String),
}

/// The recipe book file: `RecipeBook(recipes: [..])`.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename = "RecipeBook", deny_unknown_fields)]
pub struct RecipeBookFile {
    pub recipes: Vec<RecipeFile>,
}

/// One dish: `(id: "salad", name: "Salad", base_score: 20, parts: [("Lettuce", Chopped)])`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecipeFile {
    pub id: String,
    pub name: String,
    pub base_score: i64,
    /// (ingredient name, form) pairs; a multiset, order does not matter.
    pub parts: Vec<(String, Form)>,
}

/// The campaign order: `Campaign(levels: ["tutorial", ..])`, level ids in play order.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename = "Campaign", deny_unknown_fields)]
pub struct CampaignFile {
    pub levels: Vec<String>,
}
