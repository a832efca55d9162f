//! Tandem input scripts and goldens: a script is a course (its seed), the turn length and the
//! installed order records; its golden is the per-tick hash chain and a field log, so a
//! mismatch names the first divergent tick and the fields that differ. Playback feeds the
//! records through `TandemRoom::step`, the one path live orders take too.

use super::control::SeatOrder;
use super::course::generate;
use super::events::Outcome;
use super::hash::walk;
use super::room::{MAX_TICKS, OrderRecord, TandemRoom, TurnTicks};
use super::score::Score;
use crate::replay::golden::{FieldDelta, field_log, fields_at};
use crate::replay::hex::hex;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A Tandem script's file name ends with this (how the replay CLI tells it from a kitchen's).
pub const SCRIPT_SUFFIX: &str = ".tandem.ron";

/// One Tandem input script (RON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TandemScript {
    pub name: String,
    /// The course seed.
    pub seed: u64,
    pub turn_ticks: TurnTicks,
    /// Ticks to run at most (the run may end first).
    pub ticks: u32,
    /// Installed orders, by tick; an order holds until the seat's next record.
    pub orders: Vec<OrderRecord>,
}

/// Why a script cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    #[error("not a Tandem script: {0}")]
    Parse(String),
    #[error("`ticks` is {0}; a run is 1..={MAX_TICKS} ticks")]
    Ticks(u32),
    #[error("order {index} at tick {tick} comes before the one above it")]
    Unordered { index: usize, tick: u32 },
    #[error("order {index} at tick {tick} is not on a turn boundary (every {turn} ticks)")]
    OffTurn { index: usize, tick: u32, turn: u32 },
    #[error("order {index}'s values are not quantised ({order:?})")]
    Unquantised { index: usize, order: SeatOrder },
}

impl TandemScript {
    /// Parses and validates a script's text.
    pub fn parse(text: &str) -> Result<Self, ScriptError> {
        let s: TandemScript = ron::from_str(text).map_err(|e| ScriptError::Parse(e.to_string()))?;
        s.validate()?;
        Ok(s)
    }

    /// The checks `parse` makes.
    pub fn validate(&self) -> Result<(), ScriptError> {
        if self.ticks == 0 || self.ticks > MAX_TICKS {
            return Err(ScriptError::Ticks(self.ticks));
        }
        let turn = self.turn_ticks.ticks();
        let mut last = 0;
        for (index, r) in self.orders.iter().enumerate() {
            if r.tick < last {
                return Err(ScriptError::Unordered { index, tick: r.tick });
            }
            if !r.tick.is_multiple_of(turn) {
                return Err(ScriptError::OffTurn { index, tick: r.tick, turn });
            }
            if r.order.quantised() != r.order {
                return Err(ScriptError::Unquantised { index, order: r.order });
            }
            last = r.tick;
        }
        Ok(())
    }

    /// The script's text.
    pub fn to_ron(&self) -> String {
        let cfg = ron::ser::PrettyConfig::new().depth_limit(2);
        ron::ser::to_string_pretty(self, cfg).unwrap_or_default() + "\n"
    }

    /// A script of a finished (or stopped) run: its course, turn length and order log.
    pub fn of_run(name: &str, room: &TandemRoom) -> Self {
        TandemScript {
            name: name.to_string(),
            seed: room.course.seed,
            turn_ticks: room.turn_ticks,
            ticks: room.tick,
            orders: room.order_log.clone(),
        }
    }
}

/// The field log keeps every this many ticks (and the last): a second's worth, so a golden
/// stays small while a mismatch is still named within a second of where it began.
pub const FIELD_EVERY: u32 = 24;

/// What playing a script gave.
pub struct Played {
    pub room: TandemRoom,
    /// The chain head after each tick, tick 0 (the built state: the course digest) first.
    pub hashes: Vec<u64>,
    /// The full field walk every `FIELD_EVERY` ticks and at the end (when asked for).
    pub fields: Vec<(u32, Vec<(String, i64)>)>,
}

/// Plays a script for up to `ticks` ticks on its seed's course (or until the run ends).
pub fn play(script: &TandemScript, ticks: u32, keep_fields: bool) -> Played {
    let room = TandemRoom::on_course(Arc::new(generate(script.seed)), script.turn_ticks);
    play_on(room, script, ticks, keep_fields)
}

/// Plays a script's records on a given room (a replay carrying its expanded course).
pub fn play_on(
    mut room: TandemRoom,
    script: &TandemScript,
    ticks: u32,
    keep_fields: bool,
) -> Played {
    let snapshot = |room: &TandemRoom| {
        let mut v = Vec::new();
        walk(room, &mut |name, x| v.push((name(), x)));
        (room.tick, v)
    };
    let mut hashes = vec![room.hash];
    let mut fields = if keep_fields { vec![snapshot(&room)] } else { Vec::new() };
    let mut current = [SeatOrder::HOLD; 2];
    let mut next = 0;
    while room.tick < ticks && room.outcome().is_none() {
        while let Some(r) = script.orders.get(next).filter(|r| r.tick <= room.tick) {
            current[r.seat.index()] = r.order;
            next += 1;
        }
        if room.step(current).is_err() {
            break;
        }
        hashes.push(room.hash);
        let last = room.tick >= ticks || room.outcome().is_some();
        if keep_fields && (room.tick.is_multiple_of(FIELD_EVERY) || last) {
            fields.push(snapshot(&room));
        }
    }
    Played { room, hashes, fields }
}

/// A committed Tandem golden (JSON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TandemGolden {
    pub name: String,
    pub seed: u64,
    pub turn_ticks: TurnTicks,
    pub course_digest: String,
    /// Ticks played (the run's end or the script's `ticks`).
    pub ticks: u32,
    pub outcome: Option<Outcome>,
    pub score: Score,
    pub final_hash: String,
    /// The chain head after every tick, tick 0 first.
    pub hashes: Vec<String>,
    /// The field log every `FIELD_EVERY` ticks and at the end (changes only).
    pub fields: Vec<FieldDelta>,
}

/// The golden of a played script.
pub fn make_golden(script: &TandemScript, played: &Played) -> TandemGolden {
    TandemGolden {
        name: script.name.clone(),
        seed: script.seed,
        turn_ticks: script.turn_ticks,
        course_digest: hex(played.room.course.digest),
        ticks: played.room.tick,
        outcome: played.room.outcome(),
        score: played.room.score(),
        final_hash: hex(played.room.hash),
        hashes: played.hashes.iter().map(|&h| hex(h)).collect(),
        fields: field_log(&played.fields),
    }
}

/// How a check went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TandemCheck {
    Match {
        ticks: u32,
        final_hash: String,
    },
    /// The first tick whose hash differs, and the fields that differ at the first logged
    /// tick from there (`fields_tick`).
    Mismatch {
        tick: u32,
        golden: String,
        replayed: String,
        fields_tick: u32,
        fields: Vec<(String, Option<i64>, Option<i64>)>,
    },
}

/// Replays a script against its golden.
pub fn check(script: &TandemScript, golden: &TandemGolden) -> TandemCheck {
    let played = play(script, golden.ticks, true);
    let replayed: Vec<String> = played.hashes.iter().map(|&h| hex(h)).collect();
    let digest = hex(played.room.course.digest);
    let first = if digest != golden.course_digest {
        Some(0)
    } else {
        (0..golden.hashes.len().max(replayed.len()))
            .find(|&i| golden.hashes.get(i) != replayed.get(i))
    };
    let Some(i) = first else {
        return TandemCheck::Match { ticks: golden.ticks, final_hash: golden.final_hash.clone() };
    };
    let tick = i as u32;
    let fields_tick =
        golden.fields.iter().map(|d| d.tick).find(|&t| t >= tick).unwrap_or(golden.ticks);
    let want = fields_at(&golden.fields, fields_tick);
    let got: std::collections::BTreeMap<String, i64> = played
        .fields
        .iter()
        .find(|(t, _)| *t == fields_tick)
        .map(|(_, f)| f.iter().cloned().collect())
        .unwrap_or_default();
    let mut fields: Vec<(String, Option<i64>, Option<i64>)> = want
        .keys()
        .chain(got.keys())
        .filter(|k| want.get(*k) != got.get(*k))
        .map(|k| (k.clone(), want.get(k).copied(), got.get(k).copied()))
        .collect();
    fields.sort();
    fields.dedup();
    if digest != golden.course_digest {
        fields.insert(0, ("course_digest".into(), None, None));
    }
    TandemCheck::Mismatch {
        tick,
        golden: golden.hashes.get(i).cloned().unwrap_or_else(|| "absent".into()),
        replayed: replayed.get(i).cloned().unwrap_or_else(|| "absent".into()),
        fields_tick,
        fields,
    }
}
