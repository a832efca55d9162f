//! The closed vocabularies of the kitchen: ingredients, item forms, station kinds, tiles, facings.
//!
//! Every kind is an enum so a new variant breaks every `match` that forgot it (the ACCEPTS
//! matrix, the legend, the hash encoding) instead of silently falling through a string compare.

use serde::{Deserialize, Serialize};

/// A raw ingredient a spawn shelf hands out. Order is the canonical (hash) order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Ingredient {
    Onion,
    Tomato,
    Lettuce,
    Mushroom,
    Bun,
    Patty,
    Fish,
    Rice,
}

impl Ingredient {
    pub const ALL: [Ingredient; 8] = [
        Ingredient::Onion,
        Ingredient::Tomato,
        Ingredient::Lettuce,
        Ingredient::Mushroom,
        Ingredient::Bun,
        Ingredient::Patty,
        Ingredient::Fish,
        Ingredient::Rice,
    ];

    /// The designer-facing name used in RON files and messages.
    pub fn name(self) -> &'static str {
        match self {
            Ingredient::Onion => "Onion",
            Ingredient::Tomato => "Tomato",
            Ingredient::Lettuce => "Lettuce",
            Ingredient::Mushroom => "Mushroom",
            Ingredient::Bun => "Bun",
            Ingredient::Patty => "Patty",
            Ingredient::Fish => "Fish",
            Ingredient::Rice => "Rice",
        }
    }

    pub fn from_name(name: &str) -> Option<Ingredient> {
        Ingredient::ALL.into_iter().find(|i| i.name() == name)
    }

    /// The shelf letter of the built-in legend (lower case).
    pub fn shelf_char(self) -> char {
        match self {
            Ingredient::Onion => 'o',
            Ingredient::Tomato => 't',
            Ingredient::Lettuce => 'l',
            Ingredient::Mushroom => 'm',
            Ingredient::Bun => 'b',
            Ingredient::Patty => 'p',
            Ingredient::Fish => 'f',
            Ingredient::Rice => 'r',
        }
    }

    pub fn code(self) -> u8 {
        self as u8
    }
}

/// What has been done to an ingredient. Order is the canonical (hash) order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Form {
    /// Straight off the shelf (a bun is served raw).
    Raw,
    /// Worked on a chop board.
    Chopped,
    /// Fried in a pan on a stove.
    Cooked,
    /// Simmered in a pot on a stove (soup).
    Boiled,
    /// Ruined: burnt on the heat or rotted on a board.
    Burnt,
}

impl Form {
    pub const ALL: [Form; 5] = [Form::Raw, Form::Chopped, Form::Cooked, Form::Boiled, Form::Burnt];

    pub fn name(self) -> &'static str {
        match self {
            Form::Raw => "Raw",
            Form::Chopped => "Chopped",
            Form::Cooked => "Cooked",
            Form::Boiled => "Boiled",
            Form::Burnt => "Burnt",
        }
    }

    pub fn code(self) -> u8 {
        self as u8
    }
}

/// The vessel a stove holds; it decides which transition the stove runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Vessel {
    Pan,
    Pot,
}

/// Every fixture kind a level can place. Order is the canonical (hash) order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum StationKind {
    /// A plain counter: holds one item, the classic pass.
    Counter,
    /// An endless shelf of one raw ingredient.
    Shelf(Ingredient),
    ChopBoard,
    Stove(Vessel),
    /// The prep / plating counter.
    Prep,
    /// The serve window: dishes leave the kitchen here.
    Serve,
    Sink,
    Trash,
    /// Where clean plates are taken from.
    PlateRack,
    /// Where the extinguisher hangs (fireproof; holds only the extinguisher).
    ExtinguisherStand,
}

impl StationKind {
    /// Every kind, with every ingredient shelf, for tables that must be total.
    pub fn all() -> Vec<StationKind> {
        let mut v = vec![StationKind::Counter];
        v.extend(Ingredient::ALL.into_iter().map(StationKind::Shelf));
        v.extend([
            StationKind::ChopBoard,
            StationKind::Stove(Vessel::Pan),
            StationKind::Stove(Vessel::Pot),
            StationKind::Prep,
            StationKind::Serve,
            StationKind::Sink,
            StationKind::Trash,
            StationKind::PlateRack,
            StationKind::ExtinguisherStand,
        ]);
        v
    }

    /// The rulebook's pass-through set: a body may stand on these (you lean over them).
    pub fn walkable(self) -> bool {
        matches!(self, StationKind::Serve | StationKind::Sink | StationKind::Trash)
    }

    /// Can fire take this fixture? The serve window, the sink and the extinguisher stand are
    /// fireproof (and so the kitchen can always be saved from them).
    pub fn flammable(self) -> bool {
        !matches!(self, StationKind::Serve | StationKind::Sink | StationKind::ExtinguisherStand)
    }

    /// A stable one-byte code for the hash and the wire.
    pub fn code(self) -> u8 {
        match self {
            StationKind::Counter => 0,
            StationKind::Shelf(i) => 1 + i.code(),
            StationKind::ChopBoard => 20,
            StationKind::Stove(Vessel::Pan) => 21,
            StationKind::Stove(Vessel::Pot) => 22,
            StationKind::Prep => 23,
            StationKind::Serve => 24,
            StationKind::Sink => 25,
            StationKind::Trash => 26,
            StationKind::PlateRack => 27,
            StationKind::ExtinguisherStand => 28,
        }
    }

    /// Human name for messages and the HUD.
    pub fn label(self) -> String {
        match self {
            StationKind::Counter => "counter".into(),
            StationKind::Shelf(i) => format!("{} shelf", i.name().to_lowercase()),
            StationKind::ChopBoard => "chop board".into(),
            StationKind::Stove(Vessel::Pan) => "stove (pan)".into(),
            StationKind::Stove(Vessel::Pot) => "stove (pot)".into(),
            StationKind::Prep => "prep counter".into(),
            StationKind::Serve => "serve window".into(),
            StationKind::Sink => "sink".into(),
            StationKind::Trash => "trash".into(),
            StationKind::PlateRack => "plate rack".into(),
            StationKind::ExtinguisherStand => "extinguisher stand".into(),
        }
    }
}

/// One cell of a kitchen grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tile {
    Floor,
    Wall,
    /// A hole: blocks bodies, holds nothing.
    Void,
    /// A fixture; the station list (by index) holds its kind.
    Station(StationKind),
}

impl Tile {
    /// May a body's footprint overlap this cell?
    pub fn blocks_body(self) -> bool {
        match self {
            Tile::Floor => false,
            Tile::Wall | Tile::Void => true,
            Tile::Station(kind) => !kind.walkable(),
        }
    }
}

/// The four facings. Order is the canonical (hash) order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dir4 {
    Up,
    #[default]
    Down,
    Left,
    Right,
}

impl Dir4 {
    /// Unit step in grid coordinates (y grows downward, row 0 is the top of the file).
    /// The facing that looks back along this one.
    pub fn opposite(self) -> Dir4 {
        match self {
            Dir4::Up => Dir4::Down,
            Dir4::Down => Dir4::Up,
            Dir4::Left => Dir4::Right,
            Dir4::Right => Dir4::Left,
        }
    }

    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir4::Up => (0, -1),
            Dir4::Down => (0, 1),
            Dir4::Left => (-1, 0),
            Dir4::Right => (1, 0),
        }
    }

    pub fn code(self) -> u8 {
        self as u8
    }
}
