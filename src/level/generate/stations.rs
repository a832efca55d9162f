//! Stations on the walls, grouped by the work done at them: on the cooking side shelves, then
//! boards, then stoves, running round the corner towards the pass; on the serving side the
//! prep counter and plate rack by the pass, the window and the sink on the far wall, a bin on
//! each side, and cook spawns on both.

use super::dishes::DishPool;
use super::hazards::{self, Planned};
use super::layout::{Cell, Frame};
use super::options::Size;
use crate::sim::rng::SplitMix64;

/// The drawn grid, oriented, one `char` per cell in the built-in legend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kitchen {
    pub rows: Vec<Vec<char>>,
}

/// A canonical grid being filled in.
struct Canvas {
    cells: Vec<Vec<char>>,
}

impl Canvas {
    fn set(&mut self, (x, y): Cell, c: char) {
        self.cells[y as usize][x as usize] = c;
    }

    fn get(&self, (x, y): Cell) -> char {
        self.cells[y as usize][x as usize]
    }
}

/// Places every fixture and spawn for `pool` and `hazards` in `frame`.
pub fn place(frame: &Frame, pool: &DishPool, hazards: &[Planned], rng: &mut SplitMix64) -> Kitchen {
    let (w, h) = (frame.grid_width(), frame.grid_height());
    let mut canvas = Canvas { cells: vec![vec!['#'; w as usize]; h as usize] };
    for y in 1..=frame.inner_h {
        for x in 1..=frame.inner_w {
            canvas.set((x, y), '.');
        }
    }
    for y in 1..=frame.pass_end {
        canvas.set((frame.pass_x, y), '-');
    }
    place_cooking_side(frame, pool, hazards, rng, &mut canvas);
    place_serving_side(frame, hazards, rng, &mut canvas);
    place_spawns(frame, hazards, rng, &mut canvas);
    let mut rows = vec![vec!['#'; w as usize]; h as usize];
    for y in 0..h {
        for x in 0..w {
            let (ox, oy) = frame.orient((x, y));
            rows[oy as usize][ox as usize] = canvas.get((x, y));
        }
    }
    Kitchen { rows }
}

/// A spare wall cell: a plain counter (room to set things down) or bare wall, by the seed.
fn spare(rng: &mut SplitMix64) -> char {
    if rng.next_u64() & 1 == 1 { '-' } else { '#' }
}

fn place_cooking_side(
    frame: &Frame,
    pool: &DishPool,
    hazards: &[Planned],
    rng: &mut SplitMix64,
    canvas: &mut Canvas,
) {
    let d = frame.pass_x;
    // Nearest the pass first: the top wall leftwards, then the left wall downwards.
    let mut slots: Vec<Cell> = (1..d).rev().map(|x| (x, 0)).collect();
    slots.extend((1..=frame.inner_h).map(|y| (0, y)));
    let primary = slots.len();
    // The bottom wall: the bin in the corner, then overflow.
    let bottom = frame.inner_h + 1;
    canvas.set((1, bottom), 'T');
    slots.extend((2..d).map(|x| (x, bottom)));
    // Work in reverse flow from the pass: stoves, boards, shelves. The extinguisher stand
    // hangs right after the stoves: in reach of a fire, and a firebreak (it never burns).
    let mut shelves: Vec<char> = pool.shelves.iter().map(|i| i.shelf_char()).collect();
    shelves.reverse();
    let stand = hazards::needs_extinguisher(hazards);
    let groups: [Vec<char>; 4] = [
        std::iter::repeat_n('U', pool.pots as usize)
            .chain(std::iter::repeat_n('F', pool.pans as usize))
            .collect(),
        if stand { vec!['E'] } else { Vec::new() },
        vec!['K'; pool.boards as usize],
        shelves,
    ];
    let fixtures = pool.cook_fixtures() + usize::from(stand);
    let mut spare_cells = primary.saturating_sub(fixtures);
    let mut items: Vec<char> = Vec::new();
    for group in groups.iter().filter(|g| !g.is_empty()) {
        if !items.is_empty() && group[0] != 'E' && spare_cells > 0 && rng.next_u64() & 1 == 1 {
            items.push('-');
            spare_cells -= 1;
        }
        items.extend_from_slice(group);
    }
    for (i, &cell) in slots.iter().enumerate() {
        let c = items.get(i).copied().unwrap_or_else(|| spare(rng));
        canvas.set(cell, c);
    }
}

fn place_serving_side(
    frame: &Frame,
    hazards: &[Planned],
    rng: &mut SplitMix64,
    canvas: &mut Canvas,
) {
    let (d, right, bottom) = (frame.pass_x, frame.inner_w + 1, frame.inner_h + 1);
    // The top wall from the pass: prep counter(s), then the plate rack.
    let preps = if frame.size == Size::L { 2 } else { 1 };
    let mut top: Vec<char> = vec!['P'; preps];
    top.push('R');
    for (i, x) in (d + 1..right).enumerate() {
        let c = top.get(i).copied().unwrap_or_else(|| spare(rng));
        canvas.set((x, 0), c);
    }
    // The far wall: the window near the top, the sink two below it.
    let window = 1 + rng.range_inclusive(0, 1) as i32;
    for y in 1..=frame.inner_h {
        let c = if y == window {
            'W'
        } else if y == window + 2 {
            'S'
        } else {
            spare(rng)
        };
        canvas.set((right, y), c);
    }
    // The bottom wall: a bin in the far corner; under the walkway a counter, unless the
    // walkway shifts away (then a wall, so nothing is cut off while it is gone).
    for x in d + 1..right {
        let c = if x == right - 1 { 'T' } else { spare(rng) };
        canvas.set((x, bottom), c);
    }
    let under = if hazards::shifts_walkway(hazards) { '#' } else { '-' };
    canvas.set((d, bottom), under);
}

/// Spawns 1 and 3 on the cooking side, 2 and 4 on the serving side, above the walkway and
/// off every hazard.
fn place_spawns(frame: &Frame, hazards: &[Planned], rng: &mut SplitMix64, canvas: &mut Canvas) {
    let covered = hazards::covered(hazards);
    let free = |xs: std::ops::RangeInclusive<i32>| -> Vec<Cell> {
        let mut cells = Vec::new();
        for y in 1..=frame.pass_end {
            for x in xs.clone() {
                if !covered.contains(&(x, y)) {
                    cells.push((x, y));
                }
            }
        }
        cells
    };
    let mut sides = [free(frame.cook_columns()), free(frame.serve_columns())];
    for (digit, side) in [('1', 0), ('2', 1), ('3', 0), ('4', 1)] {
        let cells = &mut sides[side];
        let cell = cells.remove(rng.index(cells.len()));
        canvas.set(cell, digit);
    }
}
