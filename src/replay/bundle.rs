//! Replay bundles: one hosted round in one RON file — seed, level and recipe sources with
//! their hashes, seats, every admitted input frame, the hash chain (with a field log) at a
//! cadence and the result payload — i.e. an input script and its golden together. The server
//! writes one per finished or aborted round; `undercooked replay check BUNDLE` reproduces it.

use super::admitted::{AdmittedFrame, run_admitted};
pub use super::chain::ChainRecorder;
use super::golden::{CheckOutcome, FieldDelta, Golden};
use super::hex::hex;
use super::writer::{BundleFile, write_numbered};
use super::{ReplayRun, compare};
use crate::level::compile::parse_level;
use crate::level::recipes::parse_recipes;
use crate::sim::assist::Assist;
use crate::sim::hash::named_fields;
use crate::sim::input::InputFrame;
use crate::sim::kinds::Dir4;
use crate::sim::open::SeatSpec;
use crate::sim::room::Room;
use crate::sim::units::MAX_COOKS;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The bundle format's version (what this build writes).
pub const BUNDLE_VERSION: u32 = 2;
/// The oldest version this build reads (`bundle_read`: version 1 had no second button, read as
/// up); a checker refuses others by name (exit 2).
pub const OLDEST_BUNDLE_VERSION: u32 = 1;
/// The hash chain (and field log) is recorded every this many ticks (5 s), plus tick 0 and
/// the last tick: enough to name the first divergent window without a field log per tick.
pub const BUNDLE_EVERY: u32 = 100;

/// One admitted frame, compact: (room tick at admission, seat, seq, tick, move x, move y,
/// action, face, dash). A round is ~15,000 of these, so no field names. Version 2 added the
/// second button (dash / throw) at the end.
pub type BundleFrame = (u32, u8, u32, u32, i16, i16, bool, Option<Dir4>, bool);

/// A whole hosted round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bundle {
    pub bundle_version: u32,
    /// Room code and the round's number in it (the file is `<room>-<round>.ron`).
    pub room: String,
    pub round: u32,
    /// Why it ended (as in results.jsonl: finished, shutdown, empty, fault: …).
    pub reason: String,
    pub seed: u64,
    pub level_id: String,
    /// FNV-1a 64 of `level_source`, hex: a bundle whose level text was edited is invalid.
    pub level_hash: String,
    pub level_source: String,
    pub recipes_hash: String,
    pub recipes_source: String,
    /// (seat, name) of every cook.
    pub seats: Vec<(u8, String)>,
    /// Ticks the round ran.
    pub ticks: u32,
    pub record_every: u32,
    pub final_hash: String,
    /// (tick, chain head) at tick 0, every `record_every` ticks and the last tick.
    pub hashes: Vec<(u32, String)>,
    /// The field log at the same ticks (first entry: the full state at tick 0).
    pub fields: Vec<FieldDelta>,
    /// Every admitted frame, in admission order.
    pub frames: Vec<BundleFrame>,
    /// `report::result_payload` of the ended round, as JSON text.
    pub result: String,
    /// The round's assists; a bundle from before assist mode reads as off.
    #[serde(default)]
    pub assist: Assist,
    /// A survival round (`sim::survival`); a bundle without it is a round to the level's clock.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub survival: bool,
}

/// FNV-1a 64 of a text, as 16 hex digits.
pub fn content_hash(text: &str) -> String {
    let mut h = fnv::FnvHasher::default();
    h.write(text.as_bytes());
    hex(h.finish())
}

/// The kitchen's side of the shared chain recorder (`chain.rs`): the server keeps one per
/// live round.
impl ChainRecorder {
    /// Is `tick` one the cadence records (besides the last one)?
    pub fn due(tick: u32) -> bool {
        tick.is_multiple_of(BUNDLE_EVERY)
    }

    /// Record the room's current tick (once per tick; a repeat is ignored).
    pub fn record(&mut self, room: &Room) {
        if self.hashes.last().is_some_and(|(t, _)| *t == room.tick) {
            return;
        }
        self.record_fields(room.tick, room.hash, named_fields(room));
    }
}

/// Packs admitted frames for a bundle.
pub fn pack_frames(admitted: &[AdmittedFrame]) -> Vec<BundleFrame> {
    admitted
        .iter()
        .map(|(at, seat, f)| (*at, *seat, f.seq, f.tick, f.mv.0, f.mv.1, f.action, f.face, f.dash))
        .collect()
}

/// A bundle's frames back as the admitted log [`pack_frames`] packed.
pub fn unpack_frames(frames: &[BundleFrame]) -> Vec<AdmittedFrame> {
    frames
        .iter()
        .map(|&(at, seat, seq, tick, mx, my, action, face, dash)| {
            (at, seat, InputFrame { seq, tick, mv: (mx, my), action, face, dash })
        })
        .collect()
}

impl Bundle {
    /// The bundle as RON (one line per top-level field would be nicer, but a round's frames
    /// make pretty printing ~3× larger).
    pub fn to_ron(&self) -> String {
        ron::to_string(self).unwrap_or_default()
    }

    /// Write `DATA_DIR/bundles/<room>-<n>.ron` with the first free `n` ≥ `round` (room codes
    /// are unique among live rooms only), fsynced; returns the path.
    pub fn write_to(&self, dir: &Path) -> std::io::Result<PathBuf> {
        write_numbered(dir, &self.room, self.round, "ron", &self.to_ron())
    }
}

impl BundleFile for Bundle {
    fn write_into(&self, dir: &Path) -> std::io::Result<PathBuf> {
        self.write_to(dir)
    }
    fn room(&self) -> &str {
        &self.room
    }
    fn inputs(&self) -> usize {
        self.frames.len()
    }
}

/// What re-running a bundle found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundleCheck {
    /// The hash chain comparison (the first divergent recorded tick, with its fields).
    pub chain: CheckOutcome,
    /// Result payload leaves that differ: (path, bundle value, replayed value).
    pub result_diffs: Vec<(String, String, String)>,
    /// A panic the replay itself hit: (tick, message).
    pub panicked: Option<(u32, String)>,
}

impl BundleCheck {
    pub fn matches(&self) -> bool {
        matches!(self.chain, CheckOutcome::Match { .. }) && self.result_diffs.is_empty()
    }
}

fn flatten(prefix: &str, v: &serde_json::Value, out: &mut BTreeMap<String, String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, v) in m {
                flatten(&format!("{prefix}.{k}"), v, out);
            }
        }
        serde_json::Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                flatten(&format!("{prefix}[{i}]"), v, out);
            }
        }
        other => {
            out.insert(prefix.to_string(), other.to_string());
        }
    }
}

/// The room the bundle's round started from (every reader of a bundle builds it here:
/// [`check_bundle`] and the window's `play --bundle`); `Err` names why the bundle is invalid (a version
/// this build does not read, an edited source, a level that does not compile, a seat count
/// out of range).
pub fn bundle_room(bundle: &Bundle) -> Result<Room, String> {
    if !(OLDEST_BUNDLE_VERSION..=BUNDLE_VERSION).contains(&bundle.bundle_version) {
        return Err(format!(
            "BUNDLE_VERSION_UNSUPPORTED: bundle version {}; this build reads versions \
             {OLDEST_BUNDLE_VERSION} to {BUNDLE_VERSION}",
            bundle.bundle_version
        ));
    }
    if content_hash(&bundle.level_source) != bundle.level_hash {
        return Err("the level source does not match its hash".into());
    }
    if content_hash(&bundle.recipes_source) != bundle.recipes_hash {
        return Err("the recipe source does not match its hash".into());
    }
    let book = parse_recipes(bundle.recipes_source.as_bytes(), "bundle recipes")
        .map_err(|e| format!("recipes: {} problem(s), first: {:?}", e.len(), e.first()))?;
    let level = parse_level(bundle.level_source.as_bytes(), "bundle level", &book)
        .map_err(|e| format!("level: {} problem(s), first: {:?}", e.len(), e.first()))?;
    if level.id != bundle.level_id {
        return Err(format!("the level source is `{}`, not `{}`", level.id, bundle.level_id));
    }
    if bundle.seats.is_empty() || bundle.seats.len() > MAX_COOKS {
        return Err(format!("{} seats", bundle.seats.len()));
    }
    let seats: Vec<SeatSpec> =
        bundle.seats.iter().map(|(s, n)| SeatSpec::new(*s, n.clone())).collect();
    Ok(Room::assisted(Arc::new(level), Arc::new(book), bundle.seed, &seats, bundle.assist)
        .with_survival(bundle.survival))
}

/// Re-run a bundle: rebuild the room from its sources, seed and seats, step it the recorded
/// number of ticks from its admitted frames (`admitted::run_admitted`, as the server queued
/// them), then compare the hash chain and the result payload. `Err` is an
/// invalid bundle (exit 2).
pub fn check_bundle(bundle: &Bundle) -> Result<BundleCheck, String> {
    let mut room = bundle_room(bundle)?;
    let expected: serde_json::Value = serde_json::from_str(&bundle.result)
        .map_err(|e| format!("the result payload is not JSON: {e}"))?;

    let mut hashes = vec![(0, room.hash)];
    let mut snapshots = vec![(0, named_fields(&room))];
    let log = unpack_frames(&bundle.frames);
    // A round the server ended on a panic may panic here too: that is a reproduction, and the
    // room is left as the panic left it (its tick is where it stopped).
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_admitted(&mut room, &log, bundle.ticks, |room| {
            if ChainRecorder::due(room.tick) || room.tick == bundle.ticks {
                hashes.push((room.tick, room.hash));
                snapshots.push((room.tick, named_fields(room)));
            }
        })
    }));
    let panicked = run.err().map(|p| (room.tick, crate::caught::panic_message(p.as_ref())));
    if panicked.is_some() && hashes.last().is_none_or(|(t, _)| *t != room.tick) {
        hashes.push((room.tick, room.hash));
        snapshots.push((room.tick, named_fields(&room)));
    }
    crate::sim::round::abort(&mut room);
    let golden = Golden {
        name: format!("{}-{}", bundle.room, bundle.round),
        level: bundle.level_id.clone(),
        seed: bundle.seed,
        seats: bundle.seats.len() as u8,
        ticks: bundle.ticks,
        record_every: bundle.record_every,
        final_hash: bundle.final_hash.clone(),
        hashes: bundle.hashes.clone(),
        fields: bundle.fields.clone(),
    };
    let replayed = crate::report::result_payload(&room);
    let run = ReplayRun { room, hashes, snapshots, events: Vec::new() };
    let chain = compare(&golden, &run);
    let (mut want, mut got) = (BTreeMap::new(), BTreeMap::new());
    flatten("result", &expected, &mut want);
    flatten("result", &replayed, &mut got);
    let mut keys: Vec<&String> = want.keys().chain(got.keys()).collect();
    keys.sort();
    keys.dedup();
    let absent = || "absent".to_string();
    let result_diffs = keys
        .into_iter()
        .filter(|k| want.get(*k) != got.get(*k))
        .map(|k| {
            (
                k.clone(),
                want.get(k).cloned().unwrap_or_else(absent),
                got.get(k).cloned().unwrap_or_else(absent),
            )
        })
        .collect();
    Ok(BundleCheck { chain, result_diffs, panicked })
}

/// Does this text look like a bundle (rather than an input script)?
pub fn looks_like_bundle(text: &str) -> bool {
    text.contains("bundle_version")
}
