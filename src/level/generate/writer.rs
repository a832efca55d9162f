//! The level file text: the same layout and field order as the shipped `levels/*.ron`, every
//! number written from an integer, so the bytes depend on nothing but the draw.

use std::fmt::Write;

use super::dishes::DishPool;
use super::hazards::Planned;
use super::layout::{Cell, Frame};
use super::options::{GenerateOptions, HazardKind, Size, level_id};
use super::stations::Kitchen;
use crate::level::index::Proof;
use crate::sim::rng::SplitMix64;

/// What the publish proof showed, written as a comment above the level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proved {
    /// Two bots' full-clock score per seed (the target rule's input).
    pub full_clock: Vec<i32>,
    /// Per team size, rounds won at the target.
    pub proof: Proof,
}

/// Everything drawn, ready to write with a target.
pub struct Draft<'a> {
    pub opts: &'a GenerateOptions,
    pub frame: &'a Frame,
    pub pool: &'a DishPool,
    pub kitchen: &'a Kitchen,
    pub hazards: &'a [Planned],
}

const ADJECTIVES: [&str; 12] = [
    "Copper", "Busy", "Little", "Salty", "Golden", "Midnight", "Rusty", "Crowded", "Sunny",
    "Harbour", "Corner", "Old",
];
const NOUNS: [&str; 12] = [
    "Griddle",
    "Galley",
    "Canteen",
    "Kitchen",
    "Diner",
    "Bistro",
    "Cookhouse",
    "Grill",
    "Larder",
    "Scullery",
    "Chophouse",
    "Buffet",
];

/// The ticket rail, clock and plates for a size: (concurrent, interval, miss penalty,
/// seconds, plates).
fn service(size: Size) -> (u32, (u32, u32), u32, u32, u32) {
    match size {
        Size::S => (2, (10, 15), 5, 180, 4),
        Size::M => (3, (9, 14), 10, 240, 5),
        Size::L => (4, (8, 12), 15, 300, 6),
    }
}

impl Draft<'_> {
    /// The file text with `target_score: target` (and, once proved, what the bots did).
    pub fn text(&self, target: i32, proved: Option<&Proved>) -> String {
        let opts = self.opts;
        let mut s = String::new();
        let _ = writeln!(s, "// Generated: undercooked level generate {}", command_line(opts));
        if let Some(p) = proved {
            let wins: Vec<String> = p
                .proof
                .teams
                .iter()
                .map(|t| format!("{} bot(s) {}/{}", t.bots, t.wins, p.proof.seeds))
                .collect();
            let _ = writeln!(
                s,
                "// Proved as `level publish` proves it (docs/LEVELS.md, \"The target rule\"): two bots over"
            );
            let _ = writeln!(
                s,
                "// the whole clock scored {} (seeds 1..={}); won {}.",
                join(&p.full_clock),
                p.proof.seeds,
                wins.join(", ")
            );
        }
        s.push_str("Level(\n");
        let _ = writeln!(s, "    id: \"{}\",", level_id(opts));
        let _ = writeln!(s, "    name: \"{}\",", self.name());
        let _ = writeln!(s, "    hint: \"{}\",", self.hint());
        s.push_str("    grid: [\n");
        for row in &self.kitchen.rows {
            let _ = writeln!(s, "        \"{}\",", row.iter().collect::<String>());
        }
        s.push_str("    ],\n    legend: {},\n");
        let (concurrent, (lo, hi), miss, seconds, plates) = service(self.frame.size);
        let _ = writeln!(s, "    props: (plates: {plates}, pots: {}),", self.pool.pots);
        s.push_str("    orders: (\n");
        let pool: Vec<String> = self.pool.ids.iter().map(|id| format!("\"{id}\"")).collect();
        let _ = writeln!(s, "        pool: [{}],", pool.join(", "));
        let _ = writeln!(s, "        concurrent: {concurrent},");
        let _ = writeln!(s, "        interval: ({lo}.0, {hi}.0),");
        let _ = writeln!(s, "        deadline: {}.0,", 50 + 10 * self.pool.most_parts);
        let _ = writeln!(s, "        miss_penalty: {miss},");
        s.push_str("    ),\n");
        let _ = writeln!(s, "    time_limit: {seconds}.0,");
        let _ = writeln!(s, "    target_score: {target},");
        self.write_hazards(&mut s);
        s.push_str(")\n");
        s
    }

    fn name(&self) -> String {
        let mut rng = SplitMix64::new(self.opts.seed).fork(0x4E41_4D45);
        let adjective = ADJECTIVES[rng.index(ADJECTIVES.len())];
        format!("{adjective} {}", NOUNS[rng.index(NOUNS.len())])
    }

    fn hint(&self) -> String {
        let (cook, serve) = if self.frame.mirror { ("right", "left") } else { ("left", "right") };
        let mut hint =
            format!("Cook on the {cook}, plate and serve on the {serve}: hand food over the pass.");
        if self.hazards.iter().any(|h| matches!(h, Planned::Shift(_))) {
            hint.push_str(" The walkway drops away: watch it flash.");
        }
        hint
    }

    fn write_hazards(&self, s: &mut String) {
        if self.hazards.is_empty() {
            s.push_str("    hazards: [],\n");
            return;
        }
        s.push_str("    hazards: [\n");
        for h in self.hazards {
            let line = match h {
                Planned::Spill(c) => {
                    format!("Spill(cells: {}, from: 20.0, lasts: 15.0, every: 45.0)", self.cells(c))
                }
                Planned::Ice(c) => format!("Ice(cells: {})", self.cells(c)),
                Planned::Cart(c) => format!("Cart(path: {}, speed: 1.0)", self.cells(c)),
                Planned::Fire => {
                    "Fire(delay: 5.0, spread_every: (8.0, 14.0), extinguish: 1.5)".into()
                }
                Planned::Shift(c) => format!(
                    "Shift(cells: {}, to: Void, every: 30.0, gone: 10.0, warning: 3.0, first: 25.0)",
                    self.cells(c)
                ),
            };
            let _ = writeln!(s, "        {line},");
        }
        s.push_str("    ],\n");
    }

    fn cells(&self, cells: &[Cell]) -> String {
        let list: Vec<String> = cells
            .iter()
            .map(|&c| {
                let (x, y) = self.frame.orient(c);
                format!("({x}, {y})")
            })
            .collect();
        format!("[{}]", list.join(", "))
    }
}

/// The options as a command line, so a file says how to make it again.
fn command_line(opts: &GenerateOptions) -> String {
    let size = match opts.size {
        Size::S => "s",
        Size::M => "m",
        Size::L => "l",
    };
    let mut line = format!("--seed {} --size {size}", opts.seed);
    if !opts.dishes.is_empty() {
        let _ = write!(line, " --dishes {}", opts.dishes.join(","));
    }
    if !opts.hazards.is_empty() {
        let mut kinds = opts.hazards.clone();
        kinds.sort();
        kinds.dedup();
        let names: Vec<&str> = kinds.iter().map(|k| hazard_name(*k)).collect();
        let _ = write!(line, " --hazards {}", names.join(","));
    }
    line
}

fn hazard_name(kind: HazardKind) -> &'static str {
    match kind {
        HazardKind::Spill => "spill",
        HazardKind::Ice => "ice",
        HazardKind::Cart => "cart",
        HazardKind::Fire => "fire",
        HazardKind::Shift => "shift",
    }
}

fn join(scores: &[i32]) -> String {
    let list: Vec<String> = scores.iter().map(i32::to_string).collect();
    list.join(", ")
}
