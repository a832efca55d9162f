//! What the board keeps and lists: a verified round ([`Verified`], what the replay proved) and
//! its stored entry ([`Entry`]), a submission's answer ([`Entered`]) and a level's list
//! ([`Listing`]). Entries are ranked by score (higher first), then ticks (fewer first), then
//! id (earlier first): a total order, so two hosts list the same rounds the same way.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// Entries kept per level and team size; a round ranked below is answered with its rank and
/// not stored (the best rounds are what the board is for, and storage stays bounded).
pub const KEEP_PER_BOARD: u32 = 100;

/// A round the host replayed itself: every field here comes from the replay (or from the
/// bundle where the replay reproduced it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// The round's identity: level hash, seed, team, ticks and final hash. A second bundle of
    /// the same round (re-encoded, or the same bytes) has the same key.
    pub key: String,
    pub level_id: String,
    pub level_hash: String,
    pub team: u8,
    pub score: i32,
    pub ticks: u32,
    pub seed: u64,
    pub final_hash: String,
    /// The cooks' names, by seat.
    pub names: Vec<String>,
}

/// A stored entry, as listed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub id: u64,
    pub level_id: String,
    pub level_hash: String,
    pub team: u8,
    pub score: i32,
    pub ticks: u32,
    pub seed: u64,
    pub final_hash: String,
    pub names: Vec<String>,
}

impl Entry {
    pub fn new(id: u64, v: &Verified) -> Entry {
        Entry {
            id,
            level_id: v.level_id.clone(),
            level_hash: v.level_hash.clone(),
            team: v.team,
            score: v.score,
            ticks: v.ticks,
            seed: v.seed,
            final_hash: v.final_hash.clone(),
            names: v.names.clone(),
        }
    }

    /// The board's order: `Less` ranks first.
    pub fn ranking(&self, other: &Entry) -> Ordering {
        other.score.cmp(&self.score).then(self.ticks.cmp(&other.ticks)).then(self.id.cmp(&other.id))
    }
}

/// A submission's answer: entered at `rank` (1 is the best) of its level and team size;
/// `kept` false when that rank is past [`KEEP_PER_BOARD`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entered {
    pub rank: u32,
    pub kept: bool,
    pub entry: Entry,
}

/// `GET /api/board`: a level's best rounds for one team size, best first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listing {
    pub level_hash: String,
    pub team: u8,
    pub entries: Vec<Entry>,
}

/// The rank `entry` takes among `others` (1-based).
pub fn rank_among(entry: &Entry, others: &[Entry]) -> u32 {
    let ahead = others.iter().filter(|o| o.id != entry.id && o.ranking(entry).is_lt()).count();
    ahead as u32 + 1
}
