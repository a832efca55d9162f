//! Tandem replay bundles: one played run in one RON file, as the kitchen's hosted rounds write
//! theirs (`replay/bundle.rs`): versioned, the seed, turn length and the expanded course with
//! its digest, the seats, every installed order (packed), the hash chain with a field log at a
//! cadence, and the outcome and score, i.e. a Tandem script and its golden together.
//! `undercooked replay check FILE` re-plays one (0 match, 1 mismatch, 2 invalid). Written by
//! `recorder.rs`; a malformed, truncated or tampered file is a named [`BundleError`].

use super::control::{Seat, SeatOrder};
use super::course::Course;
use super::events::Outcome;
use super::room::{MAX_TICKS, OrderRecord, TandemRoom, TurnTicks};
use super::score::Score;
use super::script::{FIELD_EVERY, ScriptError, TandemCheck, TandemScript, play_on};
use crate::replay::golden::{FieldDelta, fields_at};
use crate::replay::hex::hex;
use crate::replay::writer::{BundleFile, write_numbered};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The format's version; a checker refuses others (exit 2).
pub const TANDEM_BUNDLE_VERSION: u32 = 1;
/// The chain head and field log are kept every this many ticks (a second at 24 Hz), plus
/// tick 0 and the last tick. The same cadence as a Tandem golden's field log.
pub const TANDEM_BUNDLE_EVERY: u32 = FIELD_EVERY;
/// A Tandem bundle's file name ends with this (`<room>-<n>.tandem-bundle.ron`); the kitchen's
/// are `<room>-<n>.ron`. The field `tandem_bundle_version` tells them apart too.
pub const BUNDLE_EXT: &str = "tandem-bundle.ron";
/// The field only a Tandem bundle has.
const MARK: &str = "tandem_bundle_version";

/// One installed order, compact: (tick, seat, push x, push y, yield permille).
pub type BundleOrder = (u32, u8, i16, i16, u16);

/// A whole Tandem run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TandemBundle {
    pub tandem_bundle_version: u32,
    /// Where it was played (`local` for the desktop client, a room code when hosted) and the
    /// run's number there (the file is `<room>-<n>.tandem-bundle.ron`).
    pub room: String,
    pub round: u32,
    /// Why it ended: the outcome (`delivered`, `wrecked`, `out_of_time`, `sim_fault`) or why
    /// it was stopped first (`left`).
    pub reason: String,
    pub seed: u64,
    pub turn_ticks: TurnTicks,
    /// The course's digest, hex: the chain's seed and a check on `course`.
    pub course_digest: String,
    /// The expanded course as played (a later generator still replays it).
    pub course: Course,
    /// (seat, who drove it): a player or the porter.
    pub seats: Vec<(u8, String)>,
    /// Ticks the run ran.
    pub ticks: u32,
    pub record_every: u32,
    pub final_hash: String,
    /// (tick, chain head) at tick 0, every `record_every` ticks and the last tick.
    pub hashes: Vec<(u32, String)>,
    /// The field log at the same ticks (first entry: the full state at tick 0).
    pub fields: Vec<FieldDelta>,
    /// Every installed order that changed its seat's order, in tick order.
    pub orders: Vec<BundleOrder>,
    pub outcome: Option<Outcome>,
    pub score: Score,
}

/// Why a Tandem bundle cannot be checked (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    #[error("the bundle ends early (truncated at byte {at})")]
    Truncated { at: usize },
    #[error("not a Tandem bundle: {0}")]
    Parse(String),
    #[error("bundle version {found} (this build reads {TANDEM_BUNDLE_VERSION})")]
    Version { found: u32 },
    #[error("the course does not match its digest (carried {carried}, computed {computed})")]
    CourseDigest { carried: String, computed: String },
    #[error("the course is seed {course}'s, the bundle says seed {bundle}")]
    CourseSeed { course: u64, bundle: u64 },
    #[error("`ticks` is {0}; a run is 0..={MAX_TICKS} ticks")]
    Ticks(u32),
    #[error("the chain is recorded every {0} ticks; this build reads every {TANDEM_BUNDLE_EVERY}")]
    Cadence(u32),
    #[error("the hash chain is malformed: {0}")]
    Chain(String),
    #[error("order {index} names seat {seat}; there are two (0 fore, 1 aft)")]
    Seat { index: usize, seat: u8 },
    #[error("order {index} is at tick {tick}, after the run's last tick")]
    OrderAfterEnd { index: usize, tick: u32 },
    #[error("the orders: {0}")]
    Orders(ScriptError),
    #[error("{0} seats (a Tandem run has two)")]
    Seats(usize),
    #[error("the course it carries cannot be played: {0}")]
    Unplayable(String),
}

/// Unpacks an order (the seat checked).
fn unpack(index: usize, o: &BundleOrder) -> Result<OrderRecord, BundleError> {
    let seat = match o.1 {
        0 => Seat::Fore,
        1 => Seat::Aft,
        seat => return Err(BundleError::Seat { index, seat }),
    };
    let order = SeatOrder { push_x: o.2, push_y: o.3, yield_permille: o.4 };
    Ok(OrderRecord { tick: o.0, seat, order })
}

/// Packs an installed order.
pub fn pack(r: &OrderRecord) -> BundleOrder {
    (r.tick, r.seat.index() as u8, r.order.push_x, r.order.push_y, r.order.yield_permille)
}

impl TandemBundle {
    /// Parses a bundle's text (structure only; [`TandemBundle::validate`] checks the rest).
    /// Text that stops before the bundle's closing parenthesis is `Truncated` (a cut inside a
    /// number or a name is not an end-of-input error to the parser).
    pub fn parse(text: &str) -> Result<TandemBundle, BundleError> {
        ron::from_str(text).map_err(|e| {
            if e.code == ron::Error::Eof || !text.trim_end().ends_with(')') {
                BundleError::Truncated { at: text.len() }
            } else {
                BundleError::Parse(e.to_string())
            }
        })
    }

    /// The bundle as RON (one line: a live run's orders would make pretty printing long).
    pub fn to_ron(&self) -> String {
        ron::to_string(self).unwrap_or_default()
    }

    /// Everything a replay relies on: the version, the course against its digest and seed,
    /// the seats, the chain's shape, and the orders as a script (ordered, on turn
    /// boundaries, quantised). Returns the orders as a script.
    pub fn validate(&self) -> Result<TandemScript, BundleError> {
        if self.tandem_bundle_version != TANDEM_BUNDLE_VERSION {
            return Err(BundleError::Version { found: self.tandem_bundle_version });
        }
        let computed = hex(self.course.digest_of());
        if computed != self.course_digest || hex(self.course.digest) != self.course_digest {
            return Err(BundleError::CourseDigest {
                carried: self.course_digest.clone(),
                computed,
            });
        }
        if self.course.seed != self.seed {
            return Err(BundleError::CourseSeed { course: self.course.seed, bundle: self.seed });
        }
        if self.seats.len() != 2 {
            return Err(BundleError::Seats(self.seats.len()));
        }
        if self.ticks > MAX_TICKS {
            return Err(BundleError::Ticks(self.ticks));
        }
        if self.record_every != TANDEM_BUNDLE_EVERY {
            return Err(BundleError::Cadence(self.record_every));
        }
        self.validate_chain()?;
        let mut orders = Vec::with_capacity(self.orders.len());
        for (index, o) in self.orders.iter().enumerate() {
            let r = unpack(index, o)?;
            if r.tick > self.ticks {
                return Err(BundleError::OrderAfterEnd { index, tick: r.tick });
            }
            orders.push(r);
        }
        let script = TandemScript {
            name: format!("{}-{}", self.room, self.round),
            seed: self.seed,
            turn_ticks: self.turn_ticks,
            ticks: self.ticks,
            orders,
        };
        // A script's own checks, but a stopped run may be 0 ticks long.
        let probe = TandemScript { ticks: self.ticks.max(1), ..script.clone() };
        probe.validate().map_err(BundleError::Orders)?;
        Ok(script)
    }

    /// The chain: tick 0 first (the course digest), strictly rising ticks, the last at
    /// `ticks` holding `final_hash`, 16 hex digits each, a field-log entry per head.
    fn validate_chain(&self) -> Result<(), BundleError> {
        let bad = |m: String| Err(BundleError::Chain(m));
        match self.hashes.first() {
            Some((0, h)) if *h == self.course_digest => {}
            Some((0, h)) => return bad(format!("tick 0 is {h}, not the course digest")),
            _ => return bad("it does not start at tick 0".into()),
        }
        if self.hashes.windows(2).any(|w| w[0].0 >= w[1].0) {
            return bad("its ticks do not rise".into());
        }
        if let Some((_, h)) = self.hashes.iter().find(|(_, h)| !is_hex16(h)) {
            return bad(format!("`{h}` is not 16 hex digits"));
        }
        match self.hashes.last() {
            Some((t, h)) if *t == self.ticks && *h == self.final_hash => {}
            _ => return bad(format!("it does not end at tick {} with the final hash", self.ticks)),
        }
        let logged: Vec<u32> = self.fields.iter().map(|d| d.tick).collect();
        let heads: Vec<u32> = self.hashes.iter().map(|(t, _)| *t).collect();
        if logged != heads {
            return bad("the field log's ticks are not the chain's".into());
        }
        Ok(())
    }

    /// Writes `dir/<room>-<n>.tandem-bundle.ron` with the first free `n` ≥ `round`, fsynced.
    pub fn write_to(&self, dir: &Path) -> std::io::Result<PathBuf> {
        write_numbered(dir, &self.room, self.round, BUNDLE_EXT, &self.to_ron())
    }
}

impl BundleFile for TandemBundle {
    fn write_into(&self, dir: &Path) -> std::io::Result<PathBuf> {
        self.write_to(dir)
    }
    fn room(&self) -> &str {
        &self.room
    }
    fn inputs(&self) -> usize {
        self.orders.len()
    }
}

fn is_hex16(h: &str) -> bool {
    h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Whether a file's text (or name) is a Tandem bundle's.
pub fn looks_like_tandem_bundle(path: &Path, text: &str) -> bool {
    path.to_string_lossy().ends_with(BUNDLE_EXT) || text.contains(MARK)
}

/// What re-playing a bundle found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundleCheck {
    /// The chain: a match, or the first recorded tick whose head differs with the fields
    /// that differ there (bundle value vs replayed value).
    pub chain: TandemCheck,
    /// Outcome and score fields that differ: (name, bundle value, replayed value).
    pub result_diffs: Vec<(String, String, String)>,
}

impl BundleCheck {
    pub fn matches(&self) -> bool {
        matches!(self.chain, TandemCheck::Match { .. }) && self.result_diffs.is_empty()
    }
}

/// The outcome and score as named leaves (for the result comparison).
fn result_leaves(outcome: Option<Outcome>, score: &Score) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    out.insert("outcome".to_string(), format!("{outcome:?}"));
    if let Ok(serde_json::Value::Object(m)) = serde_json::to_value(score) {
        for (k, v) in m {
            out.insert(format!("score.{k}"), v.to_string());
        }
    }
    out
}

/// Re-plays a bundle on the course it carries: its orders through `TandemRoom::step` (the one
/// path live orders take), for its ticks, then compares the chain and the result. `Err` is an
/// invalid bundle (exit 2).
pub fn check_bundle(bundle: &TandemBundle) -> Result<BundleCheck, BundleError> {
    let script = bundle.validate()?;
    let room = TandemRoom::on_course(Arc::new(bundle.course.clone()), bundle.turn_ticks);
    // A course is checked against its digest only; one forged whole could still trip the
    // rules, which is a bad file, not a crash of the checker.
    let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        play_on(room, &script, bundle.ticks, true)
    }))
    .map_err(|p| BundleError::Unplayable(crate::caught::panic_message(p.as_ref())))?;
    let mut chain =
        TandemCheck::Match { ticks: bundle.ticks, final_hash: bundle.final_hash.clone() };
    for (tick, want) in &bundle.hashes {
        let got = played.hashes.get(*tick as usize).map_or_else(|| "absent".into(), |h| hex(*h));
        if &got == want {
            continue;
        }
        let mine = fields_at(&bundle.fields, *tick);
        let theirs: BTreeMap<String, i64> = played
            .fields
            .iter()
            .find(|(t, _)| t == tick)
            .map(|(_, f)| f.iter().cloned().collect())
            .unwrap_or_default();
        let mut fields: Vec<(String, Option<i64>, Option<i64>)> = mine
            .keys()
            .chain(theirs.keys())
            .filter(|k| mine.get(*k) != theirs.get(*k))
            .map(|k| (k.clone(), mine.get(k).copied(), theirs.get(k).copied()))
            .collect();
        fields.sort();
        fields.dedup();
        chain = TandemCheck::Mismatch {
            tick: *tick,
            golden: want.clone(),
            replayed: got,
            fields_tick: *tick,
            fields,
        };
        break;
    }
    let want = result_leaves(bundle.outcome, &bundle.score);
    let got = result_leaves(played.room.outcome(), &played.room.score());
    let result_diffs = want
        .iter()
        .filter(|(k, v)| got.get(*k) != Some(*v))
        .map(|(k, v)| (k.clone(), v.clone(), got.get(k).cloned().unwrap_or_default()))
        .collect();
    Ok(BundleCheck { chain, result_diffs })
}
