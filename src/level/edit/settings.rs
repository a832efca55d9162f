//! The kitchen's settings as the editor's settings panel lists them — name, hint, round clock,
//! target, props, the order pool (a row a recipe of the book), concurrency, intervals,
//! deadline and penalty, and each hazard's timings — and what one step of a row (Left / Right)
//! changes, as an [`Edit`] the document applies (undoable, validated, written in field order).

use super::command::Edit;
use crate::level::schema::{HazardFile, LevelFile};
use crate::sim::recipe_book::RecipeBook;

/// One row of the settings panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    Name,
    Hint,
    TimeLimit,
    Target,
    Plates,
    Pots,
    /// How many times the book's recipe (by index) is in the order pool.
    Recipe(usize),
    Concurrent,
    IntervalMin,
    IntervalMax,
    Deadline,
    MissPenalty,
    /// A timing of the hazard at this index in the file's list.
    Hazard(usize, Timing),
}

/// A hazard's timing field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    From,
    Lasts,
    Every,
    Speed,
    Delay,
    SpreadMin,
    SpreadMax,
    Extinguish,
    Gone,
    Warning,
    First,
}

impl Setting {
    /// Whether the row is typed (Enter, then the text) rather than stepped.
    pub fn is_text(self) -> bool {
        matches!(self, Setting::Name | Setting::Hint)
    }
}

/// The rows for this kitchen, in the file's field order.
pub fn settings_of(file: &LevelFile, book: &RecipeBook) -> Vec<Setting> {
    use Setting::*;
    let mut rows = vec![Name, Hint, TimeLimit, Target, Plates, Pots];
    rows.extend((0..book.recipes.len()).map(Recipe));
    rows.extend([Concurrent, IntervalMin, IntervalMax, Deadline, MissPenalty]);
    for (i, h) in file.hazards.iter().enumerate() {
        rows.extend(timings_of(h).iter().map(|t| Hazard(i, *t)));
    }
    rows
}

fn timings_of(h: &HazardFile) -> &'static [Timing] {
    use Timing::*;
    match h {
        HazardFile::Spill { .. } | HazardFile::Ice { .. } => &[From, Lasts, Every],
        HazardFile::Cart { .. } => &[Speed],
        HazardFile::Fire { .. } => &[Delay, SpreadMin, SpreadMax, Extinguish],
        HazardFile::Shift { .. } => &[Every, Gone, Warning, First],
    }
}

/// Seconds as a designer reads them: `12 s`, `0.5 s`.
fn secs(v: f64) -> String {
    format!("{v} s")
}

fn optional(v: Option<f64>, none: &str) -> String {
    v.map_or_else(|| none.to_string(), secs)
}

/// The row's words: what it is and its value now.
pub fn label(file: &LevelFile, book: &RecipeBook, row: Setting) -> String {
    let o = &file.orders;
    match row {
        Setting::Name => format!("Name: \"{}\"", file.name),
        Setting::Hint => format!("Hint: \"{}\"", file.hint),
        Setting::TimeLimit => format!("Round clock: {}", secs(file.time_limit)),
        Setting::Target => format!("Target score: {}", file.target_score),
        Setting::Plates => format!("Plates: {}", file.props.plates),
        Setting::Pots => format!("Pots: {}", file.props.pots),
        Setting::Recipe(k) => {
            let id = book.recipes.get(k).map_or("?", |r| r.id.as_str());
            let n = o.pool.iter().filter(|p| *p == id).count();
            format!("Orders of {id}: x{n}")
        }
        Setting::Concurrent => format!("Orders at once: {}", o.concurrent),
        Setting::IntervalMin => format!("Next order after, at least: {}", secs(o.interval.0)),
        Setting::IntervalMax => format!("Next order after, at most: {}", secs(o.interval.1)),
        Setting::Deadline => format!("Order deadline: {}", secs(o.deadline)),
        Setting::MissPenalty => format!("Missed order costs: {}", o.miss_penalty),
        Setting::Hazard(i, t) => {
            let Some(h) = file.hazards.get(i) else { return "?".into() };
            // Numbered as the grid and the panel's list number the hazards.
            format!("{}. {} {}: {}", i + 1, h.name(), timing_name(t), timing_value(h, t))
        }
    }
}

fn timing_name(t: Timing) -> &'static str {
    match t {
        Timing::From => "from",
        Timing::Lasts => "lasts",
        Timing::Every => "every",
        Timing::Speed => "speed (tiles/s)",
        Timing::Delay => "delay",
        Timing::SpreadMin => "spreads after, at least",
        Timing::SpreadMax => "spreads after, at most",
        Timing::Extinguish => "put out in",
        Timing::Gone => "gone for",
        Timing::Warning => "warning",
        Timing::First => "first at",
    }
}

fn timing_value(h: &HazardFile, t: Timing) -> String {
    match (h, t) {
        (
            HazardFile::Spill { from, lasts, every, .. }
            | HazardFile::Ice { from, lasts, every, .. },
            _,
        ) => match t {
            Timing::From => secs(*from),
            Timing::Lasts => optional(*lasts, "forever"),
            _ => optional(*every, "never again"),
        },
        (HazardFile::Cart { speed, .. }, _) => format!("{speed}"),
        (HazardFile::Fire { delay, spread_every, extinguish }, _) => secs(match t {
            Timing::Delay => *delay,
            Timing::SpreadMin => spread_every.0,
            Timing::SpreadMax => spread_every.1,
            _ => *extinguish,
        }),
        (HazardFile::Shift { every, gone, warning, first, .. }, _) => match t {
            Timing::Every => secs(*every),
            Timing::Gone => secs(*gone),
            Timing::Warning => secs(*warning),
            _ => optional(*first, "after `every`"),
        },
    }
}

/// A number stepped by `dir` steps of `by`, never below `floor`.
fn stepped(v: f64, dir: i32, by: f64, floor: f64) -> f64 {
    (v + f64::from(dir) * by).max(floor)
}

fn stepped_int(v: i64, dir: i32, by: i64, floor: i64) -> i64 {
    v.saturating_add(i64::from(dir) * by).max(floor)
}

/// An optional number: stepping down from its first step turns it off (`None`), stepping up
/// from off gives the first step.
fn stepped_opt(v: Option<f64>, dir: i32, by: f64) -> Option<f64> {
    match v {
        None if dir > 0 => Some(by),
        None => None,
        Some(x) if x + f64::from(dir) * by < by => None,
        Some(x) => Some(x + f64::from(dir) * by),
    }
}

/// The edit one step (`dir` = -1 or +1) of a stepped row makes; `None` for a text row.
pub fn step(file: &LevelFile, book: &RecipeBook, row: Setting, dir: i32) -> Option<Edit> {
    let o = &file.orders;
    Some(match row {
        Setting::Name | Setting::Hint => return None,
        Setting::TimeLimit => Edit::SetTimeLimit(stepped(file.time_limit, dir, 10.0, 10.0)),
        Setting::Target => Edit::SetTarget(stepped_int(file.target_score, dir, 10, 0)),
        Setting::Plates => Edit::SetPlates(stepped_int(file.props.plates, dir, 1, 0)),
        Setting::Pots => Edit::SetPots(stepped_int(file.props.pots, dir, 1, 0)),
        Setting::Recipe(k) => {
            let id = book.recipes.get(k)?.id.clone();
            let mut pool = o.pool.clone();
            if dir > 0 {
                pool.push(id);
            } else if let Some(at) = pool.iter().rposition(|p| *p == id) {
                pool.remove(at);
            }
            Edit::SetPool(pool)
        }
        Setting::Concurrent => Edit::SetConcurrent(stepped_int(o.concurrent, dir, 1, 1)),
        Setting::IntervalMin => {
            Edit::SetInterval(stepped(o.interval.0, dir, 1.0, 0.0), o.interval.1)
        }
        Setting::IntervalMax => {
            Edit::SetInterval(o.interval.0, stepped(o.interval.1, dir, 1.0, 0.0))
        }
        Setting::Deadline => Edit::SetDeadline(stepped(o.deadline, dir, 5.0, 5.0)),
        Setting::MissPenalty => Edit::SetMissPenalty(stepped_int(o.miss_penalty, dir, 1, 0)),
        Setting::Hazard(i, t) => {
            let mut hazards = file.hazards.clone();
            step_timing(hazards.get_mut(i)?, t, dir);
            Edit::SetHazards(hazards)
        }
    })
}

/// Seconds step by a half, a cart's speed by a half tile a second.
const HAZARD_STEP: f64 = 0.5;

fn step_timing(h: &mut HazardFile, t: Timing, dir: i32) {
    let s = |v: &mut f64| *v = stepped(*v, dir, HAZARD_STEP, 0.0);
    match h {
        HazardFile::Spill { from, lasts, every, .. }
        | HazardFile::Ice { from, lasts, every, .. } => match t {
            Timing::From => s(from),
            Timing::Lasts => *lasts = stepped_opt(*lasts, dir, HAZARD_STEP),
            _ => *every = stepped_opt(*every, dir, HAZARD_STEP),
        },
        HazardFile::Cart { speed, .. } => s(speed),
        HazardFile::Fire { delay, spread_every, extinguish } => match t {
            Timing::Delay => s(delay),
            Timing::SpreadMin => s(&mut spread_every.0),
            Timing::SpreadMax => s(&mut spread_every.1),
            _ => s(extinguish),
        },
        HazardFile::Shift { every, gone, warning, first, .. } => match t {
            Timing::Every => s(every),
            Timing::Gone => s(gone),
            Timing::Warning => s(warning),
            _ => *first = stepped_opt(*first, dir, HAZARD_STEP),
        },
    }
}
