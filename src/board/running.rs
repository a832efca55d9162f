//! A running board, what a port serves: submissions onto the verification queue, a level's
//! list, an entry's bundle, a ticket's verdict. Built from a [`BoardConfig`] by the game
//! server (`--headless --board`: `DATA_DIR/board.sqlite`) and by the directory (`--board`:
//! `--board-db FILE`, or Redis with `--redis`).

use super::daily::{DailyCheck, DailyWindow};
use super::entry::{Entered, Listing};
use super::error::{BoardError, BoardRefusal};
use super::published::Published;
use super::queue::{TicketState, Verdict, VerifyQueue, Work};
use super::redis_board::RedisBoard;
use super::sqlite::SqliteBoard;
use super::store::{BoardStore, Stored};
use super::verify::verify;
use crate::sim::units::MAX_COOKS;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::oneshot;

/// A list's longest answer.
pub const MAX_LIST: usize = 100;

/// Where the board's entries live.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardHome {
    /// A SQLite file.
    Sqlite(PathBuf),
    /// A Redis server (`redis://HOST:PORT/DB`).
    Redis(String),
}

/// The board's limits (docs/NETWORK.md, "The results board").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardLimits {
    /// Largest bundle taken (a 3-minute four-cook round is ~0.6 MB).
    pub max_bytes: usize,
    /// Submissions one address may make per minute, also its burst (0: no limit).
    pub per_minute: u32,
    /// Submissions waiting for a worker at most.
    pub queue: usize,
    /// Verification threads.
    pub workers: usize,
    /// How long a submission's request waits for its verdict before it is answered 202 with
    /// its ticket.
    pub wait: Duration,
}

impl Default for BoardLimits {
    fn default() -> Self {
        BoardLimits {
            max_bytes: 4 << 20,
            per_minute: 6,
            queue: 16,
            workers: 1,
            wait: Duration::from_secs(20),
        }
    }
}

/// What a board is built from.
#[derive(Clone, Debug)]
pub struct BoardConfig {
    pub home: BoardHome,
    /// The levels folder whose index says what is published.
    pub levels: PathBuf,
    pub daily: DailyWindow,
    pub limits: BoardLimits,
}

/// A running board.
pub struct Board {
    store: Arc<dyn BoardStore>,
    published: Arc<Published>,
    queue: VerifyQueue,
    pub limits: BoardLimits,
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Board").field("limits", &self.limits).finish_non_exhaustive()
    }
}

/// One verification: verify, then store.
fn verify_and_store(bytes: &[u8], published: &Published, store: &dyn BoardStore) -> Verdict {
    let round = verify(bytes, published, |key| store.seen(key).map_err(BoardRefusal::from))?;
    match store.insert(&round, bytes)? {
        Stored::Entered(entered) => Ok(entered),
        Stored::Duplicate => Err(BoardRefusal::new(
            BoardError::Duplicate,
            format!("round {} is on the board already", round.key),
        )),
    }
}

impl Board {
    /// Opens the store, reads what is published and starts the workers.
    pub fn open(cfg: &BoardConfig) -> Result<Board, String> {
        let (book, book_text) =
            crate::replay::cli::recipe_book_source().map_err(|e| e.to_string())?;
        let daily = DailyCheck::new(cfg.daily, Arc::new(book));
        let published = Arc::new(Published::read(&cfg.levels, &book_text, daily)?);
        let store: Arc<dyn BoardStore> = match &cfg.home {
            BoardHome::Sqlite(path) => {
                Arc::new(SqliteBoard::open(path).map_err(|e| e.to_string())?)
            }
            BoardHome::Redis(url) => Arc::new(RedisBoard::open(url).map_err(|e| e.to_string())?),
        };
        let (p, s) = (published.clone(), store.clone());
        let work: Work = Arc::new(move |bytes| verify_and_store(bytes, &p, s.as_ref()));
        let queue = VerifyQueue::start(cfg.limits.workers, cfg.limits.queue, work)
            .map_err(|e| format!("board workers: {e}"))?;
        Ok(Board { store, published, queue, limits: cfg.limits.clone() })
    }

    /// Queues a bundle for verification (its size already checked by the port).
    pub fn submit(
        &self,
        bytes: Vec<u8>,
    ) -> Result<(u64, oneshot::Receiver<Verdict>), BoardRefusal> {
        self.queue.offer(bytes)
    }

    /// A ticket's state.
    pub fn ticket(&self, n: u64) -> Result<TicketState, BoardRefusal> {
        self.queue.tickets.get(n).ok_or_else(|| {
            BoardRefusal::new(BoardError::NoSuchTicket, format!("no submission {n} is kept here"))
        })
    }

    /// The queue's counters.
    pub fn counters(&self) -> &super::queue::BoardCounters {
        &self.queue.counters
    }

    /// The best `limit` entries of `level` (its published hash, or an id) for `team` cooks.
    /// Blocks on the store.
    pub fn list(&self, level: &str, team: u8, limit: usize) -> Result<Listing, BoardRefusal> {
        if !(1..=MAX_COOKS as u8).contains(&team) {
            return Err(BoardRefusal::new(BoardError::BadQuery, format!("team: 1 to {MAX_COOKS}")));
        }
        let is_hash = level.len() == 16 && level.bytes().all(|b| b.is_ascii_hexdigit());
        let hash = match (is_hash, self.published.hash_of(level)) {
            (true, _) => level.to_ascii_lowercase(),
            (false, Some(h)) => h.to_string(),
            (false, None) => self.store.latest_hash(level)?.ok_or_else(|| {
                BoardRefusal::new(
                    BoardError::NoSuchLevel,
                    format!("no level `{level:.40}` is ranked here"),
                )
            })?,
        };
        let entries = self.store.top(&hash, team, limit.min(MAX_LIST))?;
        Ok(Listing { level_hash: hash, team, entries })
    }

    /// What this board ranks, as (id, hash, daily): the daily kitchens newest first, then the
    /// index's levels by id. Blocks while a day not drawn yet is drawn.
    pub fn levels(&self) -> Vec<(String, String, bool)> {
        let daily = self.published.daily.kitchens().into_iter().map(|(id, h)| (id, h, true));
        daily.chain(self.published.indexed().into_iter().map(|(id, h)| (id, h, false))).collect()
    }

    /// Entry `id`'s bundle. Blocks on the store.
    pub fn bundle(&self, id: u64) -> Result<Vec<u8>, BoardRefusal> {
        self.store.bundle(id)?.ok_or_else(|| {
            BoardRefusal::new(BoardError::NoSuchEntry, format!("no entry {id} on this board"))
        })
    }
}

/// An entered round as its answer's JSON body.
pub fn entered_json(e: &Entered) -> serde_json::Value {
    serde_json::to_value(e).unwrap_or_default()
}
