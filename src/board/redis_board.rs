//! The board in Redis (a directory on `--redis URL`): every directory process on one Redis
//! serves the same board, and a restarted one finds it there. Keys (none expire):
//!
//! - `undercooked:board:seen`, a set of every round key entered (`SADD` answers whether it is
//!   new, so two directories racing the same round enter it once)
//! - `undercooked:board:next` → the last entry id (`INCR`)
//! - `undercooked:board:entry:ID` → the [`Entry`] as JSON; `…:bundle:ID` → its bundle
//! - `undercooked:board:top:HASH:TEAM`, a set of the ids kept for a level and team size (at
//!   most `KEEP_PER_BOARD` + 1 while an insert ranks; ordered here, not by Redis)
//! - `undercooked:board:level:ID` → the newest hash entered under a level id
//!
//! One connection behind a lock, opened again after any error (`redis_link`, as the directory).

use super::entry::{Entered, Entry, KEEP_PER_BOARD, Verified, rank_among};
use super::redis_link::RedisLink;
use super::store::{BoardStore, StoreError, Stored};
use redis::{Connection, cmd};
use std::time::Duration;

const PREFIX: &str = "undercooked:board:";
/// How long connecting, and each reply, may take before the call fails.
const REDIS_WAIT: Duration = Duration::from_secs(2);

fn key(parts: &[&str]) -> String {
    format!("{PREFIX}{}", parts.join(":"))
}

fn fail(e: impl std::fmt::Display) -> StoreError {
    StoreError(e.to_string())
}

/// [`BoardStore`] on a Redis server.
pub struct RedisBoard {
    link: RedisLink,
}

impl RedisBoard {
    /// A board on `url` (`redis://HOST:PORT/DB`); the server is first reached by the first call.
    pub fn open(url: &str) -> Result<Self, StoreError> {
        Ok(RedisBoard { link: RedisLink::open(url, REDIS_WAIT).map_err(fail)? })
    }

    fn with<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> redis::RedisResult<T>,
    ) -> Result<T, StoreError> {
        self.link.with(f).map_err(fail)
    }
}

/// The entries listed in a top set, best first (an id whose entry is gone is skipped).
fn board_of(c: &mut Connection, hash: &str, team: u8) -> redis::RedisResult<Vec<Entry>> {
    let ids: Vec<String> = cmd("SMEMBERS").arg(key(&["top", hash, &team.to_string()])).query(c)?;
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let keys: Vec<String> = ids.iter().map(|id| key(&["entry", id])).collect();
    let texts: Vec<Option<String>> = cmd("MGET").arg(&keys).query(c)?;
    let mut entries: Vec<Entry> =
        texts.into_iter().flatten().filter_map(|t| serde_json::from_str(&t).ok()).collect();
    entries.sort_by(Entry::ranking);
    Ok(entries)
}

/// Writes a new entry (its key already claimed in the seen set) and prunes its top set.
fn enter(c: &mut Connection, round: &Verified, bundle: &[u8]) -> redis::RedisResult<Stored> {
    let id: u64 = cmd("INCR").arg(key(&["next"])).query(c)?;
    let entry = Entry::new(id, round);
    let text = serde_json::to_string(&entry).unwrap_or_default();
    let id_text = id.to_string();
    let top = key(&["top", &round.level_hash, &round.team.to_string()]);
    redis::pipe()
        .cmd("SET")
        .arg(key(&["entry", &id_text]))
        .arg(text)
        .ignore()
        .cmd("SET")
        .arg(key(&["bundle", &id_text]))
        .arg(bundle)
        .ignore()
        .cmd("SET")
        .arg(key(&["level", &round.level_id]))
        .arg(&round.level_hash)
        .ignore()
        .cmd("SADD")
        .arg(&top)
        .arg(&id_text)
        .ignore()
        .query::<()>(c)?;
    let kept = board_of(c, &round.level_hash, round.team)?;
    let rank = rank_among(&entry, &kept);
    for worst in kept.iter().skip(KEEP_PER_BOARD as usize) {
        let w = worst.id.to_string();
        redis::pipe()
            .cmd("SREM")
            .arg(&top)
            .arg(&w)
            .ignore()
            .cmd("DEL")
            .arg(key(&["entry", &w]))
            .arg(key(&["bundle", &w]))
            .ignore()
            .query::<()>(c)?;
    }
    Ok(Stored::Entered(Entered { rank, kept: rank <= KEEP_PER_BOARD, entry }))
}

impl BoardStore for RedisBoard {
    fn seen(&self, round: &str) -> Result<bool, StoreError> {
        self.with(|c| cmd("SISMEMBER").arg(key(&["seen"])).arg(round).query(c))
    }

    fn insert(&self, round: &Verified, bundle: &[u8]) -> Result<Stored, StoreError> {
        self.with(|c| {
            let fresh: i64 = cmd("SADD").arg(key(&["seen"])).arg(&round.key).query(c)?;
            if fresh == 0 {
                return Ok(Stored::Duplicate);
            }
            let entered = enter(c, round, bundle);
            if entered.is_err() {
                // Not entered after all: the round may be submitted again (best effort: the
                // connection that failed may fail this too, and then it stays known).
                let _: redis::RedisResult<i64> =
                    cmd("SREM").arg(key(&["seen"])).arg(&round.key).query(c);
            }
            entered
        })
    }

    fn top(&self, level_hash: &str, team: u8, limit: usize) -> Result<Vec<Entry>, StoreError> {
        self.with(|c| Ok(board_of(c, level_hash, team)?.into_iter().take(limit).collect()))
    }

    fn bundle(&self, id: u64) -> Result<Option<Vec<u8>>, StoreError> {
        self.with(|c| cmd("GET").arg(key(&["bundle", &id.to_string()])).query(c))
    }

    fn latest_hash(&self, id: &str) -> Result<Option<String>, StoreError> {
        self.with(|c| cmd("GET").arg(key(&["level", id])).query(c))
    }
}
