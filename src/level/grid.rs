//! The grid a level compile works on, shared by the grid checks (`compile`) and the hazard
//! checks (`hazards`): the error sink ([`Report`]), the decoded [`Grid`] and the hazards' view
//! of it, the walk flood and reach rule, and seconds → ticks for durations.

use std::collections::VecDeque;

use super::error::{ErrorCode, LevelError, Pos};
use super::source_map::SourceMap;
use crate::sim::kinds::{StationKind, Tile};
use crate::sim::units::Cell;
use crate::sim::units::TICK_HZ;

/// The error sink one compile run reports into.
pub(super) struct Report<'a> {
    file: &'a str,
    pub(super) map: &'a SourceMap,
    pub(super) errors: Vec<LevelError>,
}

impl<'a> Report<'a> {
    /// An empty report on `file`, whose text `map` locates.
    pub(super) fn new(file: &'a str, map: &'a SourceMap) -> Report<'a> {
        Report { file, map, errors: Vec::new() }
    }

    /// One problem, at `pos` in the file.
    pub(super) fn push(&mut self, code: ErrorCode, pos: Option<Pos>, message: impl Into<String>) {
        self.errors.push(LevelError::new(code, self.file, pos, message));
    }

    /// The position of a field's value, else of the field, else of its parent field.
    pub(super) fn at(&self, field: &str, parent: &str) -> Option<Pos> {
        self.map.field_value(field).or_else(|| self.map.field(parent))
    }
}

/// The decoded grid: tiles (unknown or missing cells read as Void), spawns and stations with
/// the text position of each, and whether its shape is sound enough for topology checks.
pub(super) struct Grid {
    pub(super) width: i32,
    pub(super) height: i32,
    pub(super) tiles: Vec<Tile>,
    /// (spawn number, cell, position) in scan order.
    pub(super) spawns: Vec<(u32, Cell, Option<Pos>)>,
    /// Row-major station list with positions.
    pub(super) stations: Vec<(StationKind, Cell, Option<Pos>)>,
    pub(super) sound: bool,
}

impl Grid {
    /// The tile at a cell; outside the grid is wall.
    pub(super) fn tile(&self, (x, y): Cell) -> Tile {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return Tile::Wall;
        }
        let i = (y * self.width + x) as usize;
        self.tiles.get(i).copied().unwrap_or(Tile::Wall)
    }

    pub(super) fn has_station(&self, kind: StationKind) -> bool {
        self.stations.iter().any(|(k, _, _)| *k == kind)
    }
}

/// Can a cook stand on this tile?
fn walkable(tile: Tile) -> bool {
    !tile.blocks_body()
}

/// The four orthogonal steps a cook walks and reaches by.
const STEPS: [Cell; 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];

/// Every walkable cell a cook starting at `start` can walk to.
pub(super) fn flood(grid: &Grid, start: Cell) -> Vec<bool> {
    let mut seen = vec![false; grid.tiles.len()];
    let index = |(x, y): Cell| (y * grid.width + x) as usize;
    let mut queue = VecDeque::new();
    if walkable(grid.tile(start)) {
        seen[index(start)] = true;
        queue.push_back(start);
    }
    while let Some((x, y)) = queue.pop_front() {
        for (dx, dy) in STEPS {
            let next = (x + dx, y + dy);
            if walkable(grid.tile(next)) && !seen[index(next)] {
                seen[index(next)] = true;
                queue.push_back(next);
            }
        }
    }
    seen
}

/// A station is usable by standing on it (walkable ones) or from an orthogonal neighbour.
pub(super) fn usable_from(grid: &Grid, region: &[bool], (x, y): Cell) -> bool {
    let in_region = |(cx, cy): Cell| {
        cx >= 0
            && cy >= 0
            && cx < grid.width
            && cy < grid.height
            && region.get((cy * grid.width + cx) as usize).copied().unwrap_or(false)
    };
    in_region((x, y)) || STEPS.iter().any(|(dx, dy)| in_region((x + dx, y + dy)))
}

/// Is `seconds` a usable duration no longer than `max`? Returns the problem, if any.
pub(super) fn duration_problem(seconds: f64, max: f64) -> Option<String> {
    if seconds.is_nan() {
        Some("is not a number".into())
    } else if seconds <= 0.0 {
        Some(format!("is {seconds} s; it must be more than 0"))
    } else if seconds > max {
        Some(format!("is {seconds} s; at most {max} s"))
    } else {
        None
    }
}

/// The decoded grid as the hazard checks see it: read-only, and only what they ask.
pub(super) struct HazardGrid<'a>(pub(super) &'a Grid);

impl HazardGrid<'_> {
    pub(super) fn size(&self) -> (i32, i32) {
        (self.0.width, self.0.height)
    }

    pub(super) fn sound(&self) -> bool {
        self.0.sound && self.0.width > 0
    }

    pub(super) fn tile(&self, cell: Cell) -> Tile {
        self.0.tile(cell)
    }

    pub(super) fn spawns(&self) -> Vec<(u32, Cell, Option<Pos>)> {
        self.0.spawns.clone()
    }

    pub(super) fn has_station(&self, kind: StationKind) -> bool {
        self.0.has_station(kind)
    }

    /// Spawns whose cook could use no station if `gone` cells were `to` (the flood and
    /// the reach rule of SPAWN_BLOCKED, on a grid with the shifting cells gone).
    pub(super) fn stranded_spawns(&self, gone: &[Cell], to: Tile) -> Vec<(u32, Option<Pos>)> {
        let g = self.0;
        let mut shifted = Grid {
            width: g.width,
            height: g.height,
            tiles: g.tiles.clone(),
            spawns: Vec::new(),
            stations: Vec::new(),
            sound: g.sound,
        };
        for &(x, y) in gone {
            if let Some(t) = shifted.tiles.get_mut((y * g.width + x) as usize) {
                *t = to;
            }
        }
        let standing: Vec<&(StationKind, Cell, Option<Pos>)> =
            g.stations.iter().filter(|s| !gone.contains(&s.1)).collect();
        g.spawns
            .iter()
            .filter(|&&(_, cell, _)| {
                let region = flood(&shifted, cell);
                !standing.iter().any(|&&(_, at, _)| usable_from(&shifted, &region, at))
            })
            .map(|&(n, _, pos)| (n, pos))
            .collect()
    }
}

/// Whole seconds-and-fractions to ticks at [`TICK_HZ`], rounded to nearest. Floats stay out
/// here in `level/`: the sim is integer-only (a test scans `src/sim/`).
pub(super) fn seconds_to_ticks(seconds: f64) -> i64 {
    (seconds * TICK_HZ as f64).round() as i64
}

/// Seconds → whole ticks, at least one (a zero-tick span would stack two events on a tick).
pub(super) fn ticks(seconds: f64) -> u32 {
    u32::try_from(seconds_to_ticks(seconds).max(1)).unwrap_or(u32::MAX)
}
