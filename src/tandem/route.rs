//! Step 1 of the course generator: the route, a self-avoiding walk over the 9 × 5 grid from
//! the west column to the east column (east / north / south at 60 / 20 / 20, never west),
//! re-run when its length falls outside 9..15, and the monotone fallback after 64 failures.

use super::rng::CourseRng;
use serde::{Deserialize, Serialize};

/// Grid columns (west to east) and rows (north to south).
pub const COLS: u8 = 9;
pub const ROWS: u8 = 5;
/// Route lengths a walk must land in; outside, it is walked again.
pub const ROUTE_LEN: std::ops::RangeInclusive<usize> = 9..=15;
/// Failed walks before the monotone fallback.
pub const MAX_WALKS: u32 = 64;

/// One grid cell: `col` 0..9 west to east, `row` 0..5 north to south (y down).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell {
    pub col: u8,
    pub row: u8,
}

/// A walk's step; the route never steps west.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Step {
    East,
    North,
    South,
}

impl Step {
    /// In draw order, with the seed's weights.
    pub const WEIGHTED: [(Step, i64); 3] = [(Step::East, 60), (Step::North, 20), (Step::South, 20)];

    /// The step from `a` to its neighbour `b`, if `b` is east, north or south of `a`.
    pub fn between(a: Cell, b: Cell) -> Option<Step> {
        match (b.col as i16 - a.col as i16, b.row as i16 - a.row as i16) {
            (1, 0) => Some(Step::East),
            (0, -1) => Some(Step::North),
            (0, 1) => Some(Step::South),
            _ => None,
        }
    }

    /// The cell one step from `c`, if on the grid.
    pub fn from(self, c: Cell) -> Option<Cell> {
        let (col, row) = match self {
            Step::East => (c.col + 1, c.row),
            Step::North => (c.col, c.row.checked_sub(1)?),
            Step::South => (c.col, c.row + 1),
        };
        (col < COLS && row < ROWS).then_some(Cell { col, row })
    }

    fn bit(self) -> u8 {
        match self {
            Step::East => 1,
            Step::North => 2,
            Step::South => 4,
        }
    }
}

/// The route as drawn: its cells, and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub cells: Vec<Cell>,
    /// Walks run (1 when the first walk fit).
    pub walks: u32,
    /// The monotone path along r0, after `MAX_WALKS` failures.
    pub fallback: bool,
}

/// Draws `r0`, `r1` and walks (step 1 of `generate`).
pub fn draw_route(rng: &mut CourseRng) -> Route {
    let r0 = rng.range(0, ROWS as i64 - 1) as u8;
    let r1 = rng.range(0, ROWS as i64 - 1) as u8;
    let (start, goal) = (Cell { col: 0, row: r0 }, Cell { col: COLS - 1, row: r1 });
    for walk in 1..=MAX_WALKS {
        let cells = walk_once(rng, start, goal);
        if ROUTE_LEN.contains(&cells.len()) {
            return Route { cells, walks: walk, fallback: false };
        }
    }
    Route { cells: monotone(start, goal), walks: MAX_WALKS, fallback: true }
}

/// One self-avoiding walk from `start` until it enters `goal`. A dead end backtracks one cell
/// and re-draws there with the failed direction excluded (as often as needed). East is always
/// open west of the last column, so a walk never backtracks out of the start cell.
fn walk_once(rng: &mut CourseRng, start: Cell, goal: Cell) -> Vec<Cell> {
    let mut path = vec![start];
    // Per path position: the directions already failed from there.
    let mut excluded = vec![0u8];
    while path.last() != Some(&goal) {
        let here = path[path.len() - 1];
        let open: Vec<(Step, i64)> = Step::WEIGHTED
            .iter()
            .copied()
            .filter(|(s, _)| excluded[excluded.len() - 1] & s.bit() == 0)
            .filter(|(s, _)| s.from(here).is_some_and(|n| !path.contains(&n)))
            .collect();
        if open.is_empty() {
            if path.len() == 1 {
                // Unreachable from the argument above; a walk that cannot move is a failed walk.
                return path;
            }
            let dead = path.pop().unwrap_or(start);
            excluded.pop();
            let back = path[path.len() - 1];
            if let (Some(step), Some(ex)) = (Step::between(back, dead), excluded.last_mut()) {
                *ex |= step.bit();
            }
            continue;
        }
        let total: i64 = open.iter().map(|(_, w)| w).sum();
        let mut pick = rng.range(0, total - 1);
        let mut chosen = open[0].0;
        for (s, w) in &open {
            if pick < *w {
                chosen = *s;
                break;
            }
            pick -= w;
        }
        if let Some(next) = chosen.from(here) {
            path.push(next);
            excluded.push(0);
        }
    }
    path
}

/// The fallback: east along `start`'s row to the last column, then north or south to `goal`.
fn monotone(start: Cell, goal: Cell) -> Vec<Cell> {
    let mut cells: Vec<Cell> = (0..COLS).map(|col| Cell { col, row: start.row }).collect();
    let mut row = start.row;
    while row != goal.row {
        row = if goal.row > row { row + 1 } else { row - 1 };
        cells.push(Cell { col: COLS - 1, row });
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_are_self_avoiding_and_never_step_west() {
        for seed in 0..500 {
            let r = draw_route(&mut CourseRng::new(seed));
            assert!(ROUTE_LEN.contains(&r.cells.len()) || r.fallback, "seed {seed}");
            assert_eq!(r.cells[0].col, 0);
            assert_eq!(r.cells[r.cells.len() - 1].col, COLS - 1);
            for w in r.cells.windows(2) {
                assert!(Step::between(w[0], w[1]).is_some(), "seed {seed}: {w:?}");
            }
            let mut seen = r.cells.clone();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), r.cells.len(), "seed {seed} revisits");
        }
    }

    #[test]
    fn the_fallback_is_monotone_along_r0() {
        let cells = monotone(Cell { col: 0, row: 3 }, Cell { col: 8, row: 0 });
        assert_eq!(cells.len(), 12);
        assert!(cells[..9].iter().all(|c| c.row == 3));
        assert_eq!(cells[11], Cell { col: 8, row: 0 });
    }
}
