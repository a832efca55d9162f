//! The edits a designer makes, as values: each one applied to a level file or refused with a
//! named error, so the document can keep every change on its undo stack.

use std::collections::BTreeMap;

use super::brush::{Brush, brush_of_char};
use crate::level::compile::builtin_glyph;
use crate::level::limits::MAX_GRID_SIDE;
use crate::level::schema::{CellFile, HazardFile, LevelFile, TileSpec};

/// The smallest kitchen a new one or a resize makes: a wall round one floor cell.
pub const MIN_NEW_SIDE: usize = 3;

/// One change to the kitchen. Painting is cell by cell; every other field is set whole.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Paint cell `(x, y)` (from 0 at the top left) with a brush.
    Paint {
        cell: (usize, usize),
        brush: Brush,
    },
    SetId(String),
    SetName(String),
    SetHint(String),
    /// Round length in seconds.
    SetTimeLimit(f64),
    SetTarget(i64),
    SetPlates(i64),
    SetPots(i64),
    /// The recipe ids the ticket rail draws from (an id twice is drawn twice as often).
    SetPool(Vec<String>),
    SetConcurrent(i64),
    /// (min, max) seconds between orders.
    SetInterval(f64, f64),
    SetDeadline(f64),
    SetMissPenalty(i64),
    SetHazards(Vec<HazardFile>),
    /// A line of wall added outside an edge (the grid one row or column larger).
    AddLine(Edge),
    /// The line at an edge taken away, with the hazard and team cells on it.
    RemoveLine(Edge),
}

/// An edge of the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    Top,
    Bottom,
    Left,
    Right,
}

/// Why an edit was refused; the document is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("cell ({x}, {y}) is outside the {width}×{height} grid")]
    OutsideGrid { x: usize, y: usize, width: usize, height: usize },
    #[error("spawn {0} does not exist: spawns are 1 to 4")]
    BadSpawn(u8),
    #[error("no character is free to name {0} in this level's legend")]
    LegendFull(String),
    #[error(
        "a kitchen is {MIN_NEW_SIDE}×{MIN_NEW_SIDE} to {MAX_GRID_SIDE}×{MAX_GRID_SIDE} cells: it cannot be {width}×{height}"
    )]
    SizeLimit { width: usize, height: usize },
}

impl Edit {
    /// Applies the edit; `Ok(false)` when it changes nothing (so it takes no undo step).
    pub fn apply(&self, file: &mut LevelFile) -> Result<bool, EditError> {
        let before = file.clone();
        match self {
            Edit::Paint { cell, brush } => paint(file, *cell, *brush)?,
            Edit::SetId(v) => file.id.clone_from(v),
            Edit::SetName(v) => file.name.clone_from(v),
            Edit::SetHint(v) => file.hint.clone_from(v),
            Edit::SetTimeLimit(v) => file.time_limit = *v,
            Edit::SetTarget(v) => file.target_score = *v,
            Edit::SetPlates(v) => file.props.plates = *v,
            Edit::SetPots(v) => file.props.pots = *v,
            Edit::SetPool(v) => file.orders.pool.clone_from(v),
            Edit::SetConcurrent(v) => file.orders.concurrent = *v,
            Edit::SetInterval(lo, hi) => file.orders.interval = (*lo, *hi),
            Edit::SetDeadline(v) => file.orders.deadline = *v,
            Edit::SetMissPenalty(v) => file.orders.miss_penalty = *v,
            Edit::SetHazards(v) => file.hazards.clone_from(v),
            Edit::AddLine(edge) => resize(file, *edge, true)?,
            Edit::RemoveLine(edge) => resize(file, *edge, false)?,
        }
        Ok(!same_file(&before, file))
    }
}

/// Equal as written: the schema types carry floats and so no `PartialEq` of their own.
pub fn same_file(a: &LevelFile, b: &LevelFile) -> bool {
    super::write::level_body(a) == super::write::level_body(b)
}

/// The grid's width and height as the first row and the row count say.
pub fn grid_size(file: &LevelFile) -> (usize, usize) {
    (file.grid.first().map_or(0, |r| r.chars().count()), file.grid.len())
}

fn paint(file: &mut LevelFile, (x, y): (usize, usize), brush: Brush) -> Result<(), EditError> {
    let (width, height) = grid_size(file);
    let row_len = file.grid.get(y).map_or(0, |r| r.chars().count());
    if x >= row_len || y >= height {
        return Err(EditError::OutsideGrid { x, y, width, height });
    }
    if let Brush::Spawn(n) = brush {
        if !(1..=4).contains(&n) {
            return Err(EditError::BadSpawn(n));
        }
        // One spawn a number: the old place of this spawn turns back into floor.
        let floor = char_for(file, Brush::Floor)?;
        let digit = brush.builtin_char();
        for row in &mut file.grid {
            if row.contains(digit) {
                *row = row.chars().map(|c| if c == digit { floor } else { c }).collect();
            }
        }
    }
    let c = char_for(file, brush)?;
    if let Some(row) = file.grid.get_mut(y) {
        *row = row.chars().enumerate().map(|(i, old)| if i == x { c } else { old }).collect();
    }
    Ok(())
}

/// The character that spells `brush` in this level: a legend entry that means it, else its
/// built-in character when the legend leaves that alone, else a new legend entry.
fn char_for(file: &mut LevelFile, brush: Brush) -> Result<char, EditError> {
    let builtin = brush.builtin_char();
    if !file.legend.contains_key(&builtin) {
        return Ok(builtin);
    }
    if let Some((&c, _)) =
        file.legend.iter().find(|(c, _)| brush_of_char(**c, &file.legend) == Some(brush))
    {
        return Ok(c);
    }
    let spec: TileSpec = brush.tile_spec().ok_or_else(|| EditError::LegendFull(brush.label()))?;
    let free = free_char(&file.legend).ok_or_else(|| EditError::LegendFull(brush.label()))?;
    file.legend.insert(free, spec);
    Ok(free)
}

/// A printable character neither built in nor in the legend.
fn free_char(legend: &BTreeMap<char, TileSpec>) -> Option<char> {
    ('A'..='Z')
        .chain('a'..='z')
        .chain("!$%&*+:;<=>?@^|~".chars())
        .find(|c| builtin_glyph(*c).is_none() && !legend.contains_key(c))
}

/// Grows (a line of wall outside `edge`) or shrinks (the line at `edge` gone) the grid. Every
/// cell a hazard or a team names moves with the kitchen (one along when a line comes or goes
/// at the top or left), and a cell on a removed line is dropped from its list.
fn resize(file: &mut LevelFile, edge: Edge, grow: bool) -> Result<(), EditError> {
    let (width, height) = grid_size(file);
    let step: isize = if grow { 1 } else { -1 };
    let (new_w, new_h) = match edge {
        Edge::Top | Edge::Bottom => (width, height.saturating_add_signed(step)),
        Edge::Left | Edge::Right => (width.saturating_add_signed(step), height),
    };
    let sizes = MIN_NEW_SIDE..=MAX_GRID_SIDE;
    if !sizes.contains(&new_w) || !sizes.contains(&new_h) {
        return Err(EditError::SizeLimit { width: new_w, height: new_h });
    }
    let wall = char_for(file, Brush::Wall)?;
    let line: String = std::iter::repeat_n(wall, width).collect();
    match (edge, grow) {
        (Edge::Top, true) => file.grid.insert(0, line),
        (Edge::Bottom, true) => file.grid.push(line),
        (Edge::Top, false) => drop(file.grid.remove(0)),
        (Edge::Bottom, false) => drop(file.grid.pop()),
        (Edge::Left, true) => file.grid.iter_mut().for_each(|r| r.insert(0, wall)),
        (Edge::Right, true) => file.grid.iter_mut().for_each(|r| r.push(wall)),
        (Edge::Left, false) => {
            file.grid.iter_mut().for_each(|r| *r = r.chars().skip(1).collect());
        }
        (Edge::Right, false) => {
            file.grid.iter_mut().for_each(|r| *r = r.chars().take(new_w).collect());
        }
    }
    let shift = match edge {
        Edge::Top => (0, step as i64),
        Edge::Left => (step as i64, 0),
        Edge::Bottom | Edge::Right => (0, 0),
    };
    let limit = (new_w as i64, new_h as i64);
    let moved = |cells: &mut Vec<CellFile>| {
        // Only cells inside the old grid move; a cell outside it stays outside (the validator
        // names it) rather than being dropped by a resize.
        let inside_old =
            |(x, y): CellFile| x >= 0 && y >= 0 && x < width as i64 && y < height as i64;
        *cells = cells
            .iter()
            .filter_map(|&(x, y)| {
                if !inside_old((x, y)) {
                    return Some((x, y));
                }
                let (nx, ny) = (x + shift.0, y + shift.1);
                (nx >= 0 && ny >= 0 && nx < limit.0 && ny < limit.1).then_some((nx, ny))
            })
            .collect();
    };
    for hazard in &mut file.hazards {
        match hazard {
            HazardFile::Spill { cells, .. }
            | HazardFile::Ice { cells, .. }
            | HazardFile::Shift { cells, .. } => moved(cells),
            HazardFile::Cart { path, .. } => moved(path),
            HazardFile::Fire { .. } => {}
        }
    }
    if let Some(teams) = &mut file.teams {
        moved(&mut teams.a.windows);
        moved(&mut teams.b.windows);
    }
    Ok(())
}
