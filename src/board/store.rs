//! Where the board keeps its entries and their bundles, behind one trait: a SQLite file
//! ([`super::sqlite::SqliteBoard`]: a game server's data dir, or a directory without Redis) or
//! Redis ([`super::redis_board::RedisBoard`]: a directory on `--redis`, shared by every
//! directory process on it). Both survive a restart. Calls block (a disk write, a socket round
//! trip): the web port makes them on its blocking pool, the workers on their own threads.

use super::entry::{Entered, Entry, Verified};
use super::error::{BoardError, BoardRefusal};

/// The store did not answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("board store: {0}")]
pub struct StoreError(pub String);

impl From<StoreError> for BoardRefusal {
    fn from(e: StoreError) -> Self {
        BoardRefusal::new(BoardError::StoreFailed, e.to_string())
    }
}

/// What storing a verified round did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stored {
    Entered(Entered),
    /// Its key was there already (a resend that raced its first copy past the early check).
    Duplicate,
}

/// The board's state, wherever it lives.
pub trait BoardStore: Send + Sync {
    /// Whether a round with this key was ever entered.
    fn seen(&self, key: &str) -> Result<bool, StoreError>;
    /// Enters `round` with its bundle: its rank among its level and team size; kept only
    /// within the best `entry::KEEP_PER_BOARD` (worse entries are dropped to stay there).
    fn insert(&self, round: &Verified, bundle: &[u8]) -> Result<Stored, StoreError>;
    /// The best `limit` entries of a level (by hash) and team size, best first.
    fn top(&self, level_hash: &str, team: u8, limit: usize) -> Result<Vec<Entry>, StoreError>;
    /// An entry's bundle bytes.
    fn bundle(&self, id: u64) -> Result<Option<Vec<u8>>, StoreError>;
    /// The hash of the newest entry entered under level id `id` (a daily kitchen's, which no
    /// index lists).
    fn latest_hash(&self, id: &str) -> Result<Option<String>, StoreError>;
}
