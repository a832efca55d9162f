//! The validator's answer placed on the grid: each problem with its code, its message and,
//! where it has one, the cell it is about.

use super::write::Written;
use crate::level::error::{ErrorCode, LevelError};

/// One problem of the kitchen as the editor shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub code: ErrorCode,
    pub message: String,
    /// The cell `(x, y)` it marks; `None` for a problem of the whole kitchen (no serve
    /// window, a field out of range), listed but not on a cell.
    pub cell: Option<(usize, usize)>,
}

/// Each validator error on its cell: by the `line:column` it names when that is a grid cell
/// of the written text, else by the first `(x, y)` inside the grid its message names (hazard
/// cells, a station no spawn reaches), else — a hazard's problem that names no cell, such as
/// a track too short to run — on the first cell of the hazard its line is in.
pub fn locate(errors: &[LevelError], written: &Written, size: (usize, usize)) -> Vec<Problem> {
    errors
        .iter()
        .map(|e| {
            let by_pos = e.line.zip(e.col).and_then(|(l, c)| written.cell_at(l, c));
            let cell = by_pos.or_else(|| cell_in_message(&e.message, size)).or_else(|| {
                e.line.and_then(|l| written.hazard_cell_at(l)).and_then(|c| inside(c, size))
            });
            Problem { code: e.code, message: e.message.clone(), cell }
        })
        .collect()
}

/// A written cell as grid indices, when it lies inside a `size` grid.
fn inside((x, y): (i64, i64), (width, height): (usize, usize)) -> Option<(usize, usize)> {
    let (x, y) = (usize::try_from(x).ok()?, usize::try_from(y).ok()?);
    (x < width && y < height).then_some((x, y))
}

/// The first `(x, y)` of two whole numbers in `message` that lies inside a `size` grid.
fn cell_in_message(message: &str, (width, height): (usize, usize)) -> Option<(usize, usize)> {
    message.match_indices('(').find_map(|(at, _)| {
        let rest = message.get(at + 1..)?;
        let inner = rest.get(..rest.find(')')?)?;
        let (x, y) = inner.split_once(',')?;
        let (x, y) = (x.trim().parse::<usize>().ok()?, y.trim().parse::<usize>().ok()?);
        (x < width && y < height).then_some((x, y))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_cell_is_found_only_inside_the_grid() {
        assert_eq!(cell_in_message("the sink at cell (3, 1) cannot", (9, 7)), Some((3, 1)));
        assert_eq!(cell_in_message("(12.0, 18.0) then (2, 2)", (9, 7)), Some((2, 2)));
        assert_eq!(cell_in_message("cell (30, 1) is outside", (9, 7)), None);
        assert_eq!(cell_in_message("no serve window", (9, 7)), None);
    }
}
