//! The kitchen's frame: its size, the pass that splits it into a cooking side and a serving
//! side, the walkway round the pass's end, and which way the whole thing is turned.
//!
//! Drawn in one canonical orientation — cooking on the left, the walkway at the bottom — and
//! then mirrored and/or flipped, so every layout rule is written once.

use super::options::Size;
use crate::sim::rng::SplitMix64;

/// A cell `(x, y)` on the grid, walls included.
pub type Cell = (i32, i32);

/// The kitchen's proportions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    pub size: Size,
    /// Interior floor width and height: the grid is two cells larger each way (the walls).
    pub inner_w: i32,
    pub inner_h: i32,
    /// The pass: a column of counters at this x, from row 1 down to `pass_end`.
    pub pass_x: i32,
    pub pass_end: i32,
    /// Mirror left–right (cooking on the right) and/or top–bottom (walkway at the top).
    pub mirror: bool,
    pub flip: bool,
}

impl Frame {
    /// Draws a frame of `size`: the spans keep every side at least four cells wide, so the
    /// cooking side's walls hold a full pantry and the walkway holds the hazards.
    pub fn draw(size: Size, rng: &mut SplitMix64) -> Frame {
        let (w, h) = match size {
            Size::S => (rng.range_inclusive(9, 11), rng.range_inclusive(4, 5)),
            Size::M => (rng.range_inclusive(11, 13), rng.range_inclusive(5, 6)),
            Size::L => (rng.range_inclusive(13, 15), rng.range_inclusive(6, 7)),
        };
        let (inner_w, inner_h) = (w as i32, h as i32);
        // The pass sits just left of the middle; the walkway round its end is two rows deep.
        let pass_x = inner_w / 2 + 1;
        let pass_end = inner_h - 2;
        let mirror = rng.next_u64() & 1 == 1;
        let flip = rng.next_u64() & 1 == 1;
        Frame { size, inner_w, inner_h, pass_x, pass_end, mirror, flip }
    }

    pub fn grid_width(&self) -> i32 {
        self.inner_w + 2
    }

    pub fn grid_height(&self) -> i32 {
        self.inner_h + 2
    }

    /// Interior columns of the cooking side (left of the pass, canonically).
    pub fn cook_columns(&self) -> std::ops::RangeInclusive<i32> {
        1..=self.pass_x - 1
    }

    /// Interior columns of the serving side.
    pub fn serve_columns(&self) -> std::ops::RangeInclusive<i32> {
        self.pass_x + 1..=self.inner_w
    }

    /// The bottom interior row: the far row of the walkway round the pass.
    pub fn bottom_row(&self) -> i32 {
        self.inner_h
    }

    /// A canonical cell turned the way this frame is drawn.
    pub fn orient(&self, (x, y): Cell) -> Cell {
        let x = if self.mirror { self.grid_width() - 1 - x } else { x };
        let y = if self.flip { self.grid_height() - 1 - y } else { y };
        (x, y)
    }
}
