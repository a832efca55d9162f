//! A position or velocity in µtiles, and its cell.

use super::units::{Cell, TILE, cell_centre};

/// A position or velocity in µtiles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct V2 {
    pub x: i32,
    pub y: i32,
}

impl V2 {
    pub const ZERO: V2 = V2 { x: 0, y: 0 };

    pub const fn new(x: i32, y: i32) -> V2 {
        V2 { x, y }
    }

    /// The centre of a grid cell.
    pub const fn centre_of(cell: Cell) -> V2 {
        V2::new(cell_centre(cell.0), cell_centre(cell.1))
    }

    /// The cell containing this point.
    pub fn cell(self) -> Cell {
        (self.x.div_euclid(TILE), self.y.div_euclid(TILE))
    }
}
