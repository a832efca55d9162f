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
#[derive(Clone, Debug, Deserialize)]
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
    /// Any shape is accepted here so a hazard written ahead of its issue is named
    /// HAZARDS_UNSUPPORTED rather than a schema error.
    #[serde(default)]
    pub hazards: Vec<ron::Value>,
}

/// How many plates and pots the kitchen owns.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PropsFile {
    pub plates: i64,
    #[serde(default)]
    pub pots: i64,
}

/// The ticket rail, in seconds.
#[derive(Clone, Debug, Deserialize)]
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
