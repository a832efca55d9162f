//! A level file written back as the RON a person writes: the fields always in the order of
//! docs/LEVELS.md's complete level, one grid row a line, defaults left out, so a diff between
//! two saves shows only what changed. It also says where each grid cell landed in the text,
//! which is how a validator error's `line:column` finds its cell again.

use std::fmt::Write as _;

use crate::level::schema::{CellFile, HazardFile, LevelFile, ShiftTo, TileSpec};

/// The written text and, per grid row, its 1-based line and each cell's 1-based column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub text: String,
    /// `rows[y] = (line, columns)`, `columns[x]` the column of cell `(x, y)`'s character.
    pub rows: Vec<(u32, Vec<u32>)>,
    /// Per hazard, in the file's order: its 1-based line (each hazard is written on one) and
    /// its first cell, if it has one.
    pub hazards: Vec<(u32, Option<CellFile>)>,
}

impl Written {
    /// The cell a validator's `line:column` points into, when it points into the grid.
    pub fn cell_at(&self, line: u32, col: u32) -> Option<(usize, usize)> {
        let y = self.rows.iter().position(|(l, _)| *l == line)?;
        let columns = &self.rows.get(y)?.1;
        // A position one past the row's last cell (GRID_RAGGED) belongs to its last cell.
        let x = columns.iter().position(|c| *c == col).or_else(|| columns.len().checked_sub(1))?;
        Some((x, y))
    }

    /// The first cell of the hazard written on `line`, if a hazard is written there.
    pub fn hazard_cell_at(&self, line: u32) -> Option<CellFile> {
        self.hazards.iter().find(|(l, _)| *l == line).and_then(|(_, cell)| *cell)
    }
}

/// The file as written, with the comment lines kept from its top (`header`).
pub fn write_level(file: &LevelFile, header: &[String]) -> Written {
    let mut text = String::new();
    for line in header {
        text.push_str(line);
        text.push('\n');
    }
    let first_line = header.len() as u32 + 1;
    let body = level_body(file);
    let mut rows = Vec::new();
    // The grid rows start four lines into the body (`Level(`, id, name, hint, `grid: [`)
    // less one when there is no hint; count them by scanning rather than by hand.
    let grid_open = body.lines().position(|l| l == "    grid: [").unwrap_or(0) as u32;
    for (y, row) in file.grid.iter().enumerate() {
        let line = first_line + grid_open + 1 + y as u32;
        let mut col = 10; // eight spaces and the opening quote come first
        let mut columns = Vec::new();
        for c in row.chars() {
            columns.push(col);
            col += quoted(&c.to_string()).chars().count() as u32 - 2;
        }
        rows.push((line, columns));
    }
    let hazards_open = body.lines().position(|l| l == "    hazards: [").unwrap_or(0) as u32;
    let hazards = file
        .hazards
        .iter()
        .enumerate()
        .map(|(k, h)| {
            let first = match h {
                HazardFile::Spill { cells, .. }
                | HazardFile::Ice { cells, .. }
                | HazardFile::Shift { cells, .. } => cells.first().copied(),
                HazardFile::Cart { path, .. } => path.first().copied(),
                HazardFile::Fire { .. } => None,
            };
            (first_line + hazards_open + 1 + k as u32, first)
        })
        .collect();
    text.push_str(&body);
    Written { text, rows, hazards }
}

/// The `Level(…)` itself, every field in its one order.
pub fn level_body(file: &LevelFile) -> String {
    let mut s = String::from("Level(\n");
    let _ = writeln!(s, "    id: {},", quoted(&file.id));
    let _ = writeln!(s, "    name: {},", quoted(&file.name));
    if !file.hint.is_empty() {
        let _ = writeln!(s, "    hint: {},", quoted(&file.hint));
    }
    s.push_str("    grid: [\n");
    for row in &file.grid {
        let _ = writeln!(s, "        {},", quoted(row));
    }
    s.push_str("    ],\n");
    let legend: Vec<String> = file
        .legend
        .iter()
        .map(|(c, spec)| format!("{}: {}", quoted_char(*c), spec_text(spec)))
        .collect();
    let _ = writeln!(s, "    legend: {{{}}},", legend.join(", "));
    let _ = writeln!(s, "    props: (plates: {}, pots: {}),", file.props.plates, file.props.pots);
    let o = &file.orders;
    let pool: Vec<String> = o.pool.iter().map(|p| quoted(p)).collect();
    s.push_str("    orders: (\n");
    let _ = writeln!(s, "        pool: [{}],", pool.join(", "));
    let _ = writeln!(s, "        concurrent: {},", o.concurrent);
    let _ = writeln!(s, "        interval: ({}, {}),", secs(o.interval.0), secs(o.interval.1));
    let _ = writeln!(s, "        deadline: {},", secs(o.deadline));
    let _ = writeln!(s, "        miss_penalty: {},", o.miss_penalty);
    s.push_str("    ),\n");
    let _ = writeln!(s, "    time_limit: {},", secs(file.time_limit));
    let _ = writeln!(s, "    target_score: {},", file.target_score);
    if file.hazards.is_empty() {
        s.push_str("    hazards: [],\n");
    } else {
        s.push_str("    hazards: [\n");
        for h in &file.hazards {
            let _ = writeln!(s, "        {},", hazard_text(h));
        }
        s.push_str("    ],\n");
    }
    // A versus kitchen's teams last, as docs/LEVELS.md writes them (a co-op file has none).
    if let Some(t) = &file.teams {
        s.push_str("    teams: (\n");
        for (name, team) in [("a", &t.a), ("b", &t.b)] {
            let spawns: Vec<String> = team.spawns.iter().map(|n| n.to_string()).collect();
            let _ = writeln!(
                s,
                "        {name}: (spawns: [{}], windows: {}),",
                spawns.join(", "),
                cells(&team.windows)
            );
        }
        s.push_str("    ),\n");
    }
    s.push_str(")\n");
    s
}

/// Seconds as RON reads them back exactly: `12.0`, `1.5` (Rust's shortest round-trip form).
fn secs(v: f64) -> String {
    format!("{v:?}")
}

fn quoted(s: &str) -> String {
    ron::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
}

fn quoted_char(c: char) -> String {
    ron::to_string(&c).unwrap_or_else(|_| format!("{c:?}"))
}

fn spec_text(spec: &TileSpec) -> String {
    match spec {
        TileSpec::Wall => "Wall".into(),
        TileSpec::Floor => "Floor".into(),
        TileSpec::Void => "Void".into(),
        TileSpec::Counter => "Counter".into(),
        TileSpec::ChopBoard => "ChopBoard".into(),
        TileSpec::Stove(v) => format!("Stove({v:?})"),
        TileSpec::Prep => "Prep".into(),
        TileSpec::Serve => "Serve".into(),
        TileSpec::Sink => "Sink".into(),
        TileSpec::Trash => "Trash".into(),
        TileSpec::PlateRack => "PlateRack".into(),
        TileSpec::Extinguisher => "Extinguisher".into(),
        TileSpec::Shelf(name) => format!("Shelf({})", quoted(name)),
    }
}

fn cells(list: &[CellFile]) -> String {
    let each: Vec<String> = list.iter().map(|(x, y)| format!("({x}, {y})")).collect();
    format!("[{}]", each.join(", "))
}

/// A slick's timetable, its defaults (from 0, for good, never again) left out.
fn timetable(from: f64, lasts: Option<f64>, every: Option<f64>) -> String {
    let mut s = String::new();
    if from != 0.0 {
        let _ = write!(s, ", from: {}", secs(from));
    }
    if let Some(v) = lasts {
        let _ = write!(s, ", lasts: {}", secs(v));
    }
    if let Some(v) = every {
        let _ = write!(s, ", every: {}", secs(v));
    }
    s
}

fn hazard_text(h: &HazardFile) -> String {
    match h {
        HazardFile::Spill { cells: c, from, lasts, every } => {
            format!("Spill(cells: {}{})", cells(c), timetable(*from, *lasts, *every))
        }
        HazardFile::Ice { cells: c, from, lasts, every } => {
            format!("Ice(cells: {}{})", cells(c), timetable(*from, *lasts, *every))
        }
        HazardFile::Cart { path, speed } => {
            format!("Cart(path: {}, speed: {})", cells(path), secs(*speed))
        }
        HazardFile::Fire { delay, spread_every, extinguish } => format!(
            "Fire(delay: {}, spread_every: ({}, {}), extinguish: {})",
            secs(*delay),
            secs(spread_every.0),
            secs(spread_every.1),
            secs(*extinguish)
        ),
        HazardFile::Shift { cells: c, to, every, gone, warning, first } => {
            let to = match to {
                ShiftTo::Void => "Void",
                ShiftTo::Wall => "Wall",
            };
            let first = first.map(|f| format!(", first: {}", secs(f))).unwrap_or_default();
            format!(
                "Shift(cells: {}, to: {to}, every: {}, gone: {}, warning: {}{first})",
                cells(c),
                secs(*every),
                secs(*gone),
                secs(*warning)
            )
        }
    }
}
