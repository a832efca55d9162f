//! The input script: seed, level, seats, pre-placed items and input frames, as RON.
//!
//! A round is a function of four things — level, seats, seed, inputs — so a script plus its
//! golden hash chain is a reproducible test of the whole kernel.

use crate::sim::assist::Assist;
use crate::sim::ids::Seat;
use crate::sim::input::InputFrame;
use crate::sim::item::ItemKind;
use crate::sim::kinds::{Dir4, Form, Ingredient};
use crate::sim::units::MAX_COOKS;
use serde::{Deserialize, Serialize};

/// An item a script puts on a station before tick 0.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ScriptItem {
    Food(Ingredient, Form),
    Plate { parts: Vec<(Ingredient, Form)> },
}

impl ScriptItem {
    pub fn kind(&self) -> ItemKind {
        match self {
            ScriptItem::Food(i, f) => ItemKind::Food(*i, *f),
            ScriptItem::Plate { parts } => {
                let mut parts = parts.clone();
                parts.sort();
                ItemKind::Plate { parts }
            }
        }
    }
}

/// A pre-placed item: which station (level index) holds what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    pub station: u16,
    pub item: ScriptItem,
}

fn one() -> u32 {
    1
}

/// One scripted frame, optionally repeated on the following ticks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScriptFrame {
    pub tick: u32,
    pub seat: Seat,
    #[serde(default, rename = "move")]
    pub mv: (i16, i16),
    #[serde(default)]
    pub action: bool,
    #[serde(default)]
    pub face: Option<Dir4>,
    /// The second button (dash / throw); written only when down, like the scripts before it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dash: bool,
    /// The same frame on `repeat` consecutive ticks (a long press is `action: true, repeat: 8`).
    #[serde(default = "one")]
    pub repeat: u32,
}

/// A whole input script.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputScript {
    /// Names the golden: `goldens/<name>.golden.json`.
    pub name: String,
    /// A level id in the levels folder, or a path to a level file.
    pub level: String,
    pub seed: u64,
    /// How many seats (0..seats) sit down; default: one past the highest seat in the frames.
    #[serde(default)]
    pub seats: Option<u8>,
    /// Record every Nth tick's hash (1 = every tick, 0 = only tick 0 and the last).
    #[serde(default = "one")]
    pub record_every: u32,
    /// Ticks to run; default: one past the last frame.
    #[serde(default)]
    pub ticks: Option<u32>,
    #[serde(default)]
    pub items: Vec<Placement>,
    #[serde(default)]
    pub frames: Vec<ScriptFrame>,
    /// The round's assists (`sim::assist`); default off.
    #[serde(default)]
    pub assist: Assist,
    /// A survival round (`sim::survival`); written only when on, like the scripts before it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub survival: bool,
}

/// Why a script cannot be replayed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ScriptError {
    #[error("not a valid input script: {0}")]
    Syntax(String),
    #[error("frame {index}: seat {seat} is outside the script's {seats} seats")]
    SeatOutOfRange { index: usize, seat: Seat, seats: u8 },
    #[error("a script seats 1 to {MAX_COOKS} cooks, not {0}")]
    BadSeatCount(u8),
    #[error("frame {index}: repeat must be at least 1")]
    ZeroRepeat { index: usize },
    #[error("item {index}: the level has no station {station}")]
    NoSuchStation { index: usize, station: u16 },
    #[error("frame {index}: tick {tick} is past the script's {ticks} ticks")]
    FrameAfterEnd { index: usize, tick: u32, ticks: u32 },
}

impl InputScript {
    /// Parse a script from RON text.
    pub fn parse(text: &str) -> Result<InputScript, ScriptError> {
        ron::from_str(text).map_err(|e| ScriptError::Syntax(e.to_string()))
    }

    /// The script as pretty RON.
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default()).unwrap_or_default()
    }

    /// Seats that sit down.
    pub fn seat_count(&self) -> u8 {
        self.seats.unwrap_or_else(|| {
            self.frames.iter().map(|f| f.seat.saturating_add(1)).max().unwrap_or(1)
        })
    }

    /// Ticks to run.
    pub fn run_ticks(&self) -> u32 {
        self.ticks.unwrap_or_else(|| {
            self.frames.iter().map(|f| f.tick.saturating_add(f.repeat)).max().unwrap_or(1)
        })
    }

    /// Every problem that would make the script unreplayable on a level with `stations`.
    pub fn validate(&self, stations: usize) -> Result<(), Vec<ScriptError>> {
        let mut errors = Vec::new();
        let seats = self.seat_count();
        if !(1..=MAX_COOKS).contains(&usize::from(seats)) {
            errors.push(ScriptError::BadSeatCount(seats));
        }
        let ticks = self.run_ticks();
        for (index, f) in self.frames.iter().enumerate() {
            if f.seat >= seats {
                errors.push(ScriptError::SeatOutOfRange { index, seat: f.seat, seats });
            }
            if f.repeat == 0 {
                errors.push(ScriptError::ZeroRepeat { index });
            }
            if f.tick >= ticks {
                errors.push(ScriptError::FrameAfterEnd { index, tick: f.tick, ticks });
            }
        }
        for (index, p) in self.items.iter().enumerate() {
            if p.station as usize >= stations {
                errors.push(ScriptError::NoSuchStation { index, station: p.station });
            }
        }
        if errors.is_empty() { Ok(()) } else { Err(errors) }
    }

    /// The frames due on `tick`, stamped with that tick and, as seq, the frame's index in the script.
    pub fn frames_for(&self, tick: u32) -> impl Iterator<Item = (Seat, InputFrame)> + '_ {
        self.frames.iter().enumerate().filter_map(move |(index, f)| {
            let offset = tick.checked_sub(f.tick)?;
            (offset < f.repeat).then_some((
                f.seat,
                InputFrame {
                    seq: index as u32,
                    tick,
                    mv: f.mv,
                    action: f.action,
                    face: f.face,
                    dash: f.dash,
                },
            ))
        })
    }
}
