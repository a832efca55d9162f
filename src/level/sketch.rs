//! Sketch levels: a kitchen from grid rows alone (built-in legend, no validation), for tests,
//! benchmarks and tools that need odd layouts a campaign level would never pass.

use super::compile::{Glyph, builtin_glyph};
use crate::sim::kinds::Tile;
use crate::sim::kitchen::{Level, LevelFixed, OrdersSpec, PropLimits, StationDef};

/// Build an unvalidated level from rows in the built-in legend (unknown characters are walls,
/// ragged rows are padded with walls). Spawns are the digits in digit order.
pub fn sketch_level(id: &str, rows: &[&str]) -> Level {
    let height = rows.len() as i32;
    let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0) as i32;
    let mut tiles = vec![Tile::Wall; (width * height) as usize];
    let mut spawns: Vec<(u32, (i32, i32))> = Vec::new();
    let mut stations = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let cell = (x as i32, y as i32);
            let tile = match builtin_glyph(c) {
                Some(Glyph::Tile(t)) => t,
                Some(Glyph::Spawn(n)) => {
                    spawns.push((n, cell));
                    Tile::Floor
                }
                None => Tile::Wall,
            };
            if let Tile::Station(kind) = tile {
                stations.push(StationDef { kind, cell });
            }
            tiles[(cell.1 * width + cell.0) as usize] = tile;
        }
    }
    spawns.sort_by_key(|(n, _)| *n);
    let fixed = LevelFixed {
        id: id.into(),
        name: id.into(),
        hint: String::new(),
        spawns: spawns.into_iter().map(|(_, c)| c).collect(),
        stations,
        props: PropLimits { plates: 4, pots: 2 },
        orders: OrdersSpec {
            pool: Vec::new(),
            concurrent: 1,
            interval_min: 1,
            interval_max: 1,
            deadline: 1,
            miss_penalty: 0,
        },
        time_limit: 20 * 180,
        target_score: 1,
        hazards: Default::default(),
        teams: None,
    };
    Level::new(width, height, tiles, fixed)
}
