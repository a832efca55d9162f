//! A local round's bundle: the window's embedded host keeps its room's admitted log (as a
//! hosted room does) and, when the round is decided, takes a [`LocalRound`] from the room;
//! [`LocalRound::into_bundle`] (off the main thread: it replays the round) makes the same
//! bundle a hosted round writes, so `replay check`, the board and `play --bundle` read it.
//!
//! The chain is recorded by replaying the log, not live: the live room's final hash and result
//! payload are what the bundle claims, and the replay must reach that same hash or no bundle
//! is made (a round the window cannot reproduce would only be refused by the board).

use super::admitted::{AdmittedFrame, run_admitted};
use super::bundle::{BUNDLE_EVERY, BUNDLE_VERSION, Bundle, bundle_room, content_hash, pack_frames};
use super::chain::ChainRecorder;
use super::hex::hex;
use crate::sim::assist::Assist;
use crate::sim::room::Room;

/// What a bundle of a decided local round needs, taken from the live room in one go (the log
/// is copied; nothing is replayed on the main thread).
#[derive(Clone, Debug)]
pub struct LocalRound {
    /// What the bundle's `room` field says (a hosted bundle's room code).
    pub label: String,
    pub seed: u64,
    pub level_id: String,
    /// The level file's text, unassisted, exactly as the round was built from it.
    pub level_source: String,
    pub recipes_source: String,
    pub seats: Vec<(u8, String)>,
    pub assist: Assist,
    pub survival: bool,
    pub ticks: u32,
    pub final_hash: u64,
    pub result: String,
    pub log: Vec<AdmittedFrame>,
}

impl LocalRound {
    /// The decided `room` (its admitted log recorded from tick 0: `room.inputs.record()`),
    /// built from `level_source` and `recipes_source`.
    pub fn from_room(room: &Room, label: &str, level_source: &str, recipes_source: &str) -> Self {
        LocalRound {
            label: label.to_string(),
            seed: room.seed,
            level_id: room.level.id.clone(),
            level_source: level_source.to_string(),
            recipes_source: recipes_source.to_string(),
            seats: room.cooks.iter().map(|c| (c.seat, c.name.clone())).collect(),
            assist: room.assist,
            survival: room.survival.is_some(),
            ticks: room.tick,
            final_hash: room.hash,
            result: crate::report::result_payload(room).to_string(),
            log: room.inputs.log().to_vec(),
        }
    }

    /// The round's bundle, its chain recorded by replaying the log; `Err` names why there is
    /// none (sources that do not build the room, or a replay that parts from the live round).
    pub fn into_bundle(self) -> Result<Bundle, String> {
        let mut bundle = Bundle {
            bundle_version: BUNDLE_VERSION,
            room: self.label,
            round: 1,
            reason: "finished".into(),
            seed: self.seed,
            level_id: self.level_id,
            level_hash: content_hash(&self.level_source),
            level_source: self.level_source,
            recipes_hash: content_hash(&self.recipes_source),
            recipes_source: self.recipes_source,
            seats: self.seats,
            ticks: self.ticks,
            record_every: BUNDLE_EVERY,
            final_hash: hex(self.final_hash),
            hashes: Vec::new(),
            fields: Vec::new(),
            frames: pack_frames(&self.log),
            result: self.result,
            assist: self.assist,
            survival: self.survival,
        };
        let mut room: Room = bundle_room(&bundle)?;
        let mut rec = ChainRecorder::default();
        rec.record(&room);
        run_admitted(&mut room, &self.log, self.ticks, |room| {
            if ChainRecorder::due(room.tick) {
                rec.record(room);
            }
        });
        rec.record(&room);
        if room.hash != self.final_hash {
            return Err(format!(
                "the replay reached {} at tick {}, the round ended on {}",
                hex(room.hash),
                room.tick,
                hex(self.final_hash)
            ));
        }
        bundle.hashes = rec.hex_hashes();
        bundle.fields = rec.fields;
        Ok(bundle)
    }
}
