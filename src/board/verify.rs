//! A submitted bundle's bytes to a verified round, or the named reason not: read it (any
//! version this build knows), check its level and recipes are what this host publishes, bound
//! its length before any replay, refuse a round already on the board, then replay it
//! (`replay::bundle::check_bundle`, the same check as `replay check`) and take the score from
//! the result the replay reproduced. Runs on a verification worker ([`super::queue`]), never on
//! a tick thread.

use super::entry::Verified;
use super::error::{BoardError, BoardRefusal};
use super::published::Published;
use crate::level::compile::parse_level;
use crate::level::recipes::parse_recipes;
use crate::replay::bundle::{Bundle, check_bundle, content_hash};
use crate::replay::bundle_read::{BundleReadError, read_bundle};
use crate::replay::golden::CheckOutcome;
use crate::replay::hex::hex;

/// Ticks past the level's round length a bundle may run (the last tick's own step).
const TICK_SLACK: u32 = 20;
/// Frames per seat a log may hold beyond one a tick: the gate admits frames up to its window
/// ahead of the room's tick, and merges any second frame for a seat's tick into the first.
const FRAME_SLACK: usize = 1_200;

fn refuse(error: BoardError, detail: impl Into<String>) -> BoardRefusal {
    BoardRefusal::new(error, detail)
}

/// The round's identity on the board (see [`Verified::key`]).
pub fn round_key(b: &Bundle) -> String {
    format!("{}:{}:{}:{}:{}", b.level_hash, b.seed, b.seats.len(), b.ticks, b.final_hash)
}

/// Reads `bytes` as a bundle, its refusal named.
pub fn read(bytes: &[u8]) -> Result<Bundle, BoardRefusal> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| refuse(BoardError::Unreadable, format!("not UTF-8 text: {e}")))?;
    read_bundle(text).map_err(|e| {
        let error = match &e {
            BundleReadError::Unreadable(_) => BoardError::Unreadable,
            BundleReadError::Unsupported { .. } => BoardError::VersionUnsupported,
            BundleReadError::Truncated { .. } => BoardError::Truncated,
            BundleReadError::Malformed { .. } => BoardError::Malformed,
        };
        refuse(error, e.to_string())
    })
}

/// What is checked before the replay: ranked kind of round, published sources, its end, its
/// length. Cheap (no step of the room).
fn admit(b: &Bundle, published: &Published) -> Result<String, BoardRefusal> {
    if b.assist.is_on() || b.survival {
        let kind = if b.survival { "a survival round" } else { "an assisted round" };
        return Err(refuse(
            BoardError::NotRanked,
            format!("{kind}: the board ranks standard rounds"),
        ));
    }
    if content_hash(&b.level_source) != b.level_hash {
        return Err(refuse(
            BoardError::LevelEdited,
            format!(
                "the level text hashes {}, the bundle says {}",
                content_hash(&b.level_source),
                b.level_hash
            ),
        ));
    }
    if content_hash(&b.recipes_source) != b.recipes_hash || b.recipes_hash != published.recipes_hash
    {
        return Err(refuse(
            BoardError::RecipesNotPublished,
            format!(
                "recipes {}; this host's book is {}",
                content_hash(&b.recipes_source),
                published.recipes_hash
            ),
        ));
    }
    let Some(id) = published.level_of(&b.level_hash, &b.level_id) else {
        return Err(refuse(
            BoardError::LevelNotPublished,
            format!("level `{}` hashing {} is not published here", b.level_id, b.level_hash),
        ));
    };
    if id != b.level_id {
        return Err(refuse(
            BoardError::LevelNotPublished,
            format!(
                "the level hashing {} is published as `{id}`, not `{}`",
                b.level_hash, b.level_id
            ),
        ));
    }
    if b.reason != "finished" {
        return Err(refuse(BoardError::RoundUnfinished, format!("the round ended `{}`", b.reason)));
    }
    let book = parse_recipes(b.recipes_source.as_bytes(), "bundle recipes")
        .map_err(|e| refuse(BoardError::Malformed, format!("recipes: {:?}", e.first())))?;
    let level = parse_level(b.level_source.as_bytes(), "bundle level", &book)
        .map_err(|e| refuse(BoardError::Malformed, format!("level: {:?}", e.first())))?;
    let most_ticks = level.time_limit.saturating_add(TICK_SLACK);
    let most_frames = (b.ticks as usize + FRAME_SLACK) * b.seats.len();
    if b.ticks > most_ticks || b.frames.len() > most_frames {
        return Err(refuse(
            BoardError::ReplayTooLong,
            format!(
                "{} ticks and {} frames; a round of `{id}` has at most {most_ticks} ticks and {most_frames} frames",
                b.ticks,
                b.frames.len()
            ),
        ));
    }
    Ok(id)
}

/// Replays `b` and compares; the score the replay reproduced.
fn replay(b: &Bundle) -> Result<i32, BoardRefusal> {
    let check = check_bundle(b).map_err(|e| refuse(BoardError::Malformed, e))?;
    if let Some((tick, msg)) = check.panicked {
        return Err(refuse(BoardError::ReplayPanicked, format!("at tick {tick}: {msg}")));
    }
    match check.chain {
        CheckOutcome::Mismatch { tick, golden, replayed, .. } => {
            return Err(refuse(
                BoardError::ChainMismatch,
                format!("at tick {tick} the bundle says {golden}, the replay {replayed}"),
            ));
        }
        CheckOutcome::Match { final_hash, .. } if hex(final_hash) != b.final_hash => {
            return Err(refuse(
                BoardError::FinalHashMismatch,
                format!(
                    "the bundle's final hash is {}, the replay's {}",
                    b.final_hash,
                    hex(final_hash)
                ),
            ));
        }
        CheckOutcome::Match { .. } => {}
    }
    if let Some((path, said, got)) = check.result_diffs.first() {
        return Err(refuse(
            BoardError::ResultMismatch,
            format!("{path}: the bundle says {said}, the replay {got}"),
        ));
    }
    let result: serde_json::Value = serde_json::from_str(&b.result)
        .map_err(|e| refuse(BoardError::Malformed, format!("result: {e}")))?;
    if !matches!(result["result"].as_str(), Some("won" | "lost")) {
        return Err(refuse(
            BoardError::RoundUnfinished,
            format!("the replayed result is {}", result["result"]),
        ));
    }
    let score = result["score"].as_i64().and_then(|s| i32::try_from(s).ok());
    score.ok_or_else(|| refuse(BoardError::Malformed, "the result has no score"))
}

/// Verifies a submission. `seen` says whether a round key is on the board already (asked
/// before the replay, so a resent bundle costs no replay).
pub fn verify(
    bytes: &[u8],
    published: &Published,
    seen: impl Fn(&str) -> Result<bool, BoardRefusal>,
) -> Result<Verified, BoardRefusal> {
    let b = read(bytes)?;
    let level_id = admit(&b, published)?;
    let key = round_key(&b);
    if seen(&key)? {
        return Err(refuse(BoardError::Duplicate, format!("round {key} is on the board already")));
    }
    let score = replay(&b)?;
    Ok(Verified {
        key,
        level_id,
        level_hash: b.level_hash.clone(),
        team: b.seats.len() as u8,
        score,
        ticks: b.ticks,
        seed: b.seed,
        final_hash: b.final_hash.clone(),
        names: b.seats.iter().map(|(_, n)| n.clone()).collect(),
    })
}
