//! What one click paints: a tile, a station of a kind, or a cook spawn; and the grid
//! character that spells it in a level file.

use crate::level::compile::{Glyph, builtin_glyph};
use crate::level::schema::TileSpec;
use crate::sim::kinds::{Ingredient, StationKind, Tile, Vessel};

/// One tool of the editor's palette.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Brush {
    Floor,
    Wall,
    /// A void cell: a hole in the floor, drawn as water between floors.
    Hole,
    Station(StationKind),
    /// Floor with cook spawn `n` (1..=4); placing it moves spawn `n` if it was elsewhere.
    Spawn(u8),
}

impl Brush {
    /// Every brush in palette order: the four tiles, every station kind, the four spawns.
    pub fn palette() -> Vec<Brush> {
        let mut all = vec![Brush::Floor, Brush::Wall, Brush::Hole];
        all.extend(StationKind::all().into_iter().map(Brush::Station));
        all.extend((1..=4).map(Brush::Spawn));
        all
    }

    /// The name shown on the palette.
    pub fn label(self) -> String {
        match self {
            Brush::Floor => "floor".into(),
            Brush::Wall => "wall".into(),
            Brush::Hole => "hole".into(),
            Brush::Station(kind) => kind.label(),
            Brush::Spawn(n) => format!("spawn {n}"),
        }
    }

    /// What the cell means once painted.
    pub fn glyph(self) -> Glyph {
        match self {
            Brush::Floor => Glyph::Tile(Tile::Floor),
            Brush::Wall => Glyph::Tile(Tile::Wall),
            Brush::Hole => Glyph::Tile(Tile::Void),
            Brush::Station(kind) => Glyph::Tile(Tile::Station(kind)),
            Brush::Spawn(n) => Glyph::Spawn(u32::from(n)),
        }
    }

    /// The built-in character for this brush (docs/LEVELS.md, "The grid legend").
    pub fn builtin_char(self) -> char {
        match self {
            Brush::Floor => '.',
            Brush::Wall => '#',
            Brush::Hole => '_',
            Brush::Spawn(n) => char::from_digit(u32::from(n.clamp(1, 4)), 10).unwrap_or('1'),
            Brush::Station(kind) => match kind {
                StationKind::Counter => '-',
                StationKind::Shelf(i) => i.shelf_char(),
                StationKind::ChopBoard => 'K',
                StationKind::Stove(Vessel::Pan) => 'F',
                StationKind::Stove(Vessel::Pot) => 'U',
                StationKind::Prep => 'P',
                StationKind::Serve => 'W',
                StationKind::Sink => 'S',
                StationKind::Trash => 'T',
                StationKind::PlateRack => 'R',
                StationKind::ExtinguisherStand => 'E',
            },
        }
    }

    /// The legend value that spells this brush, for a level whose legend took its built-in
    /// character for something else (`None` for spawns, which a legend cannot name).
    pub fn tile_spec(self) -> Option<TileSpec> {
        Some(match self {
            Brush::Floor => TileSpec::Floor,
            Brush::Wall => TileSpec::Wall,
            Brush::Hole => TileSpec::Void,
            Brush::Spawn(_) => return None,
            Brush::Station(kind) => match kind {
                StationKind::Counter => TileSpec::Counter,
                StationKind::Shelf(i) => TileSpec::Shelf(i.name().to_string()),
                StationKind::ChopBoard => TileSpec::ChopBoard,
                StationKind::Stove(v) => TileSpec::Stove(v),
                StationKind::Prep => TileSpec::Prep,
                StationKind::Serve => TileSpec::Serve,
                StationKind::Sink => TileSpec::Sink,
                StationKind::Trash => TileSpec::Trash,
                StationKind::PlateRack => TileSpec::PlateRack,
                StationKind::ExtinguisherStand => TileSpec::Extinguisher,
            },
        })
    }

    /// The brush a built-in character or a legend value stands for (`None`: unknown).
    pub fn of_glyph(glyph: Glyph) -> Brush {
        match glyph {
            Glyph::Spawn(n) => Brush::Spawn(u8::try_from(n).unwrap_or(1)),
            Glyph::Tile(Tile::Floor) => Brush::Floor,
            Glyph::Tile(Tile::Wall) => Brush::Wall,
            Glyph::Tile(Tile::Void) => Brush::Hole,
            Glyph::Tile(Tile::Station(kind)) => Brush::Station(kind),
        }
    }
}

/// The brush a level's character stands for, its legend first; `None` for an unknown one.
pub fn brush_of_char(
    c: char,
    legend: &std::collections::BTreeMap<char, TileSpec>,
) -> Option<Brush> {
    if let Some(spec) = legend.get(&c) {
        return spec_brush(spec);
    }
    builtin_glyph(c).map(Brush::of_glyph)
}

fn spec_brush(spec: &TileSpec) -> Option<Brush> {
    Some(match spec {
        TileSpec::Wall => Brush::Wall,
        TileSpec::Floor => Brush::Floor,
        TileSpec::Void => Brush::Hole,
        TileSpec::Counter => Brush::Station(StationKind::Counter),
        TileSpec::ChopBoard => Brush::Station(StationKind::ChopBoard),
        TileSpec::Stove(v) => Brush::Station(StationKind::Stove(*v)),
        TileSpec::Prep => Brush::Station(StationKind::Prep),
        TileSpec::Serve => Brush::Station(StationKind::Serve),
        TileSpec::Sink => Brush::Station(StationKind::Sink),
        TileSpec::Trash => Brush::Station(StationKind::Trash),
        TileSpec::PlateRack => Brush::Station(StationKind::PlateRack),
        TileSpec::Extinguisher => Brush::Station(StationKind::ExtinguisherStand),
        TileSpec::Shelf(name) => Brush::Station(StationKind::Shelf(Ingredient::from_name(name)?)),
    })
}
