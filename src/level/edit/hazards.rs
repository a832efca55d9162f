//! The editor's hazard tools as operations on the file's `hazards` list: paint a cell into a
//! spill or ice zone, a cart's track or a shifting floor (a new entry, or the one being
//! painted), take a cell out, remove a whole hazard, switch the kitchen's fire rules on or off.
//! Each change is the whole new list as one [`Edit::SetHazards`] — one undo step, validated
//! like any edit, written in the file's own field order.

use super::command::{Edit, EditError, grid_size};
use crate::level::schema::{CellFile, HazardFile, LevelFile, ShiftTo};

/// What a hazard tool places.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HazardKind {
    Spill,
    Ice,
    /// A cart's track: the cells in the order painted, the last one next to the first.
    Cart,
    /// Shifting floor cells that turn into a hole or a wall while gone.
    Shift(ShiftTo),
    /// The kitchen's fire rules: no cells, only on or off.
    Fire,
}

impl HazardKind {
    /// Every hazard tool, in the palette's order.
    pub const ALL: [HazardKind; 6] = [
        HazardKind::Spill,
        HazardKind::Ice,
        HazardKind::Cart,
        HazardKind::Shift(ShiftTo::Void),
        HazardKind::Shift(ShiftTo::Wall),
        HazardKind::Fire,
    ];

    /// The name shown on the palette.
    pub fn label(self) -> &'static str {
        match self {
            HazardKind::Spill => "spill",
            HazardKind::Ice => "ice",
            HazardKind::Cart => "cart track",
            HazardKind::Shift(ShiftTo::Void) => "shifting floor (to hole)",
            HazardKind::Shift(ShiftTo::Wall) => "shifting floor (to wall)",
            HazardKind::Fire => "fire (on/off)",
        }
    }

    /// The kind of a hazard in the file.
    pub fn of(hazard: &HazardFile) -> HazardKind {
        match hazard {
            HazardFile::Spill { .. } => HazardKind::Spill,
            HazardFile::Ice { .. } => HazardKind::Ice,
            HazardFile::Cart { .. } => HazardKind::Cart,
            HazardFile::Shift { to, .. } => HazardKind::Shift(*to),
            HazardFile::Fire { .. } => HazardKind::Fire,
        }
    }

    /// A new hazard of this kind on one cell, with the timings of docs/LEVELS.md's example
    /// (a slick that lies for good, a cart at 1.5 tiles a second, a floor gone 10 s of every
    /// 30 after 3 s of warning), each then stepped in the settings panel.
    fn fresh(self, cell: CellFile) -> HazardFile {
        match self {
            HazardKind::Spill => {
                HazardFile::Spill { cells: vec![cell], from: 0.0, lasts: None, every: None }
            }
            HazardKind::Ice => {
                HazardFile::Ice { cells: vec![cell], from: 0.0, lasts: None, every: None }
            }
            HazardKind::Cart => HazardFile::Cart { path: vec![cell], speed: 1.5 },
            HazardKind::Shift(to) => HazardFile::Shift {
                cells: vec![cell],
                to,
                every: 30.0,
                gone: 10.0,
                warning: 3.0,
                first: None,
            },
            HazardKind::Fire => {
                HazardFile::Fire { delay: 5.0, spread_every: (8.0, 14.0), extinguish: 1.5 }
            }
        }
    }
}

/// A hazard's cells (a cart's track in order); none for fire.
pub fn cells_of(hazard: &HazardFile) -> &[CellFile] {
    match hazard {
        HazardFile::Spill { cells, .. }
        | HazardFile::Ice { cells, .. }
        | HazardFile::Shift { cells, .. } => cells,
        HazardFile::Cart { path, .. } => path,
        HazardFile::Fire { .. } => &[],
    }
}

fn cells_mut(hazard: &mut HazardFile) -> Option<&mut Vec<CellFile>> {
    match hazard {
        HazardFile::Spill { cells, .. }
        | HazardFile::Ice { cells, .. }
        | HazardFile::Shift { cells, .. } => Some(cells),
        HazardFile::Cart { path, .. } => Some(path),
        HazardFile::Fire { .. } => None,
    }
}

/// A hazard tool's stroke: the edit it makes (`None`: the list stays as it is) and the hazard
/// being painted afterwards (an index into the new list; `None`: the next paint starts one).
#[derive(Clone, Debug, PartialEq)]
pub struct HazardStroke {
    pub edit: Option<Edit>,
    pub painting: Option<usize>,
}

/// The cell as the file writes it, refused when it is off the grid.
fn on_grid(file: &LevelFile, (x, y): (usize, usize)) -> Result<CellFile, EditError> {
    let (width, height) = grid_size(file);
    if x >= width || y >= height {
        return Err(EditError::OutsideGrid { x, y, width, height });
    }
    Ok((x as i64, y as i64))
}

/// Paints `cell` with a `kind` tool while `painting` is the hazard being painted.
///
/// A cell that already lies in a hazard of this kind picks that hazard (the next cells go
/// into it) and changes nothing. Otherwise the cell joins the painted hazard when it is of
/// this kind, else it starts a new one. A cart's track takes its cells in the order painted;
/// painting the painted track's own cell again adds it once more (a shuttle comes back along
/// itself), except its first cell (the loop closes by itself) or its last (no step at all).
/// The fire tool switches the fire rules on or off.
pub fn paint_hazard(
    file: &LevelFile,
    painting: Option<usize>,
    kind: HazardKind,
    cell: (usize, usize),
) -> Result<HazardStroke, EditError> {
    if kind == HazardKind::Fire {
        return Ok(toggle_fire(file, painting));
    }
    let cell = on_grid(file, cell)?;
    let mut hazards = file.hazards.clone();
    let current = painting.filter(|&i| hazards.get(i).is_some_and(|h| HazardKind::of(h) == kind));
    let owner =
        hazards.iter().position(|h| HazardKind::of(h) == kind && cells_of(h).contains(&cell));
    if let Some(owner) = owner {
        // A track's own cell again: once more on the way (a shuttle), unless it would make
        // no step (its last cell) or close the loop twice (its first).
        let track = cells_of(&hazards[owner]);
        let again = kind == HazardKind::Cart
            && current == Some(owner)
            && track.first() != Some(&cell)
            && track.last() != Some(&cell);
        if !again {
            return Ok(HazardStroke { edit: None, painting: Some(owner) });
        }
    }
    let target = owner.or(current);
    let joined = match target.and_then(|i| hazards.get_mut(i)).and_then(cells_mut) {
        Some(cells) => {
            cells.push(cell);
            true
        }
        None => false,
    };
    let painting = match target {
        Some(i) if joined => i,
        _ => {
            hazards.push(kind.fresh(cell));
            hazards.len() - 1
        }
    };
    Ok(HazardStroke { edit: Some(Edit::SetHazards(hazards)), painting: Some(painting) })
}

/// Takes `cell` out of every hazard of `kind` lying on it (a track loses each visit to it);
/// a hazard left with no cells is removed. The fire tool removes the fire rules.
pub fn erase_hazard_cell(
    file: &LevelFile,
    painting: Option<usize>,
    kind: HazardKind,
    cell: (usize, usize),
) -> Result<HazardStroke, EditError> {
    if kind == HazardKind::Fire {
        let fire = file.hazards.iter().position(|h| HazardKind::of(h) == HazardKind::Fire);
        return Ok(match fire {
            Some(at) => removed(file, painting, at),
            None => HazardStroke { edit: None, painting },
        });
    }
    let cell = on_grid(file, cell)?;
    let mut kept = Vec::with_capacity(file.hazards.len());
    let mut gone = Vec::new();
    let mut changed = false;
    for (i, hazard) in file.hazards.iter().enumerate() {
        let mut hazard = hazard.clone();
        if HazardKind::of(&hazard) == kind
            && let Some(cells) = cells_mut(&mut hazard)
            && cells.contains(&cell)
        {
            cells.retain(|c| *c != cell);
            changed = true;
            if cells.is_empty() {
                gone.push(i);
                continue;
            }
        }
        kept.push(hazard);
    }
    if !changed {
        return Ok(HazardStroke { edit: None, painting });
    }
    Ok(HazardStroke { edit: Some(Edit::SetHazards(kept)), painting: shifted_past(painting, &gone) })
}

/// The painted index once the hazards at `gone` (old indices) are dropped: none when it was
/// one of them, else one less for each dropped before it.
fn shifted_past(painting: Option<usize>, gone: &[usize]) -> Option<usize> {
    let p = painting?;
    (!gone.contains(&p)).then(|| p - gone.iter().filter(|g| **g < p).count())
}

/// Removes the hazard on `cell` listed last (the one drawn on top), whatever its kind.
pub fn remove_hazard_at(
    file: &LevelFile,
    painting: Option<usize>,
    cell: (usize, usize),
) -> Result<HazardStroke, EditError> {
    let cell = on_grid(file, cell)?;
    let on_cell = file.hazards.iter().rposition(|h| cells_of(h).contains(&cell));
    Ok(match on_cell {
        Some(at) => removed(file, painting, at),
        None => HazardStroke { edit: None, painting },
    })
}

/// The list without hazard `at`.
fn removed(file: &LevelFile, painting: Option<usize>, at: usize) -> HazardStroke {
    let mut hazards = file.hazards.clone();
    hazards.remove(at);
    HazardStroke { edit: Some(Edit::SetHazards(hazards)), painting: shifted_past(painting, &[at]) }
}

/// Fire on (a new `Fire` entry with the example's timings) when the kitchen has none, else off.
pub fn toggle_fire(file: &LevelFile, painting: Option<usize>) -> HazardStroke {
    match file.hazards.iter().position(|h| HazardKind::of(h) == HazardKind::Fire) {
        Some(at) => removed(file, painting, at),
        None => {
            let mut hazards = file.hazards.clone();
            hazards.push(HazardKind::Fire.fresh((0, 0)));
            HazardStroke { edit: Some(Edit::SetHazards(hazards)), painting }
        }
    }
}
