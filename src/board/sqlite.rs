//! The board in a SQLite file (`DATA_DIR/board.sqlite` on a game server, `--board-db` on a
//! directory without Redis): entries and their bundles in one table, every round key ever
//! entered in another (a round pruned from its top list is still a duplicate). One connection
//! behind a lock: the board's writes are one per verified round, far below SQLite's pace.

use super::entry::{Entered, Entry, KEEP_PER_BOARD, Verified, rank_among};
use super::store::{BoardStore, StoreError, Stored};
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;
use std::sync::{Mutex, MutexGuard};

fn fail(e: impl std::fmt::Display) -> StoreError {
    StoreError(e.to_string())
}

const SCHEMA: &str = "
    PRAGMA journal_mode = WAL;
    CREATE TABLE IF NOT EXISTS entries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        level_id TEXT NOT NULL,
        level_hash TEXT NOT NULL,
        team INTEGER NOT NULL,
        score INTEGER NOT NULL,
        ticks INTEGER NOT NULL,
        seed INTEGER NOT NULL,
        final_hash TEXT NOT NULL,
        names TEXT NOT NULL,
        bundle BLOB NOT NULL
    );
    CREATE INDEX IF NOT EXISTS entries_by_board ON entries (level_hash, team, score DESC, ticks, id);
    CREATE INDEX IF NOT EXISTS entries_by_level_id ON entries (level_id, id);
    CREATE TABLE IF NOT EXISTS seen (key TEXT PRIMARY KEY);
";

/// [`BoardStore`] in a SQLite file.
pub struct SqliteBoard {
    conn: Mutex<Connection>,
}

impl SqliteBoard {
    /// Opens (or creates) the file and its tables.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| fail(format!("{}: {e}", dir.display())))?;
        }
        let conn = Connection::open(path).map_err(|e| fail(format!("{}: {e}", path.display())))?;
        conn.execute_batch(SCHEMA).map_err(fail)?;
        Ok(SqliteBoard { conn: Mutex::new(conn) })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn row_entry(r: &rusqlite::Row<'_>) -> rusqlite::Result<Entry> {
    let names: String = r.get(8)?;
    Ok(Entry {
        id: r.get::<_, i64>(0)? as u64,
        level_id: r.get(1)?,
        level_hash: r.get(2)?,
        team: r.get(3)?,
        score: r.get(4)?,
        ticks: r.get(5)?,
        seed: r.get::<_, i64>(6)? as u64,
        final_hash: r.get(7)?,
        names: serde_json::from_str(&names).unwrap_or_default(),
    })
}

const COLUMNS: &str = "id, level_id, level_hash, team, score, ticks, seed, final_hash, names";

fn top_of(conn: &Connection, hash: &str, team: u8, limit: usize) -> Result<Vec<Entry>, StoreError> {
    let sql = format!(
        "SELECT {COLUMNS} FROM entries WHERE level_hash = ?1 AND team = ?2
         ORDER BY score DESC, ticks ASC, id ASC LIMIT ?3"
    );
    let mut st = conn.prepare_cached(&sql).map_err(fail)?;
    let rows = st.query_map(params![hash, team, limit as i64], row_entry).map_err(fail)?;
    rows.collect::<Result<Vec<_>, _>>().map_err(fail)
}

impl BoardStore for SqliteBoard {
    fn seen(&self, key: &str) -> Result<bool, StoreError> {
        let conn = self.conn();
        let found: Option<i64> = conn
            .query_row("SELECT 1 FROM seen WHERE key = ?1", [key], |r| r.get(0))
            .optional()
            .map_err(fail)?;
        Ok(found.is_some())
    }

    fn insert(&self, round: &Verified, bundle: &[u8]) -> Result<Stored, StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(fail)?;
        let fresh = tx
            .execute("INSERT OR IGNORE INTO seen (key) VALUES (?1)", [&round.key])
            .map_err(fail)?;
        if fresh == 0 {
            return Ok(Stored::Duplicate);
        }
        let names = serde_json::to_string(&round.names).map_err(fail)?;
        tx.execute(
            "INSERT INTO entries (level_id, level_hash, team, score, ticks, seed, final_hash, names, bundle)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                round.level_id,
                round.level_hash,
                round.team,
                round.score,
                round.ticks,
                round.seed as i64,
                round.final_hash,
                names,
                bundle
            ],
        )
        .map_err(fail)?;
        let entry = Entry::new(tx.last_insert_rowid() as u64, round);
        let kept = top_of(&tx, &round.level_hash, round.team, KEEP_PER_BOARD as usize + 1)?;
        let rank = rank_among(&entry, &kept);
        // Past the kept places: the worst entry goes (it may be this one).
        if kept.len() > KEEP_PER_BOARD as usize
            && let Some(worst) = kept.last()
        {
            tx.execute("DELETE FROM entries WHERE id = ?1", [worst.id as i64]).map_err(fail)?;
        }
        tx.commit().map_err(fail)?;
        Ok(Stored::Entered(Entered { rank, kept: rank <= KEEP_PER_BOARD, entry }))
    }

    fn top(&self, level_hash: &str, team: u8, limit: usize) -> Result<Vec<Entry>, StoreError> {
        top_of(&self.conn(), level_hash, team, limit)
    }

    fn bundle(&self, id: u64) -> Result<Option<Vec<u8>>, StoreError> {
        self.conn()
            .query_row("SELECT bundle FROM entries WHERE id = ?1", [id as i64], |r| r.get(0))
            .optional()
            .map_err(fail)
    }

    fn latest_hash(&self, id: &str) -> Result<Option<String>, StoreError> {
        self.conn()
            .query_row(
                "SELECT level_hash FROM entries WHERE level_id = ?1 ORDER BY id DESC LIMIT 1",
                [id],
                |r| r.get(0),
            )
            .optional()
            .map_err(fail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(key: &str, score: i32, ticks: u32) -> Verified {
        Verified {
            key: key.into(),
            level_id: "tutorial".into(),
            level_hash: "00000000000000aa".into(),
            team: 2,
            score,
            ticks,
            seed: 1,
            final_hash: "ff".into(),
            names: vec!["Ann".into(), "Bob".into()],
        }
    }

    fn entered(s: Stored) -> Entered {
        match s {
            Stored::Entered(e) => e,
            Stored::Duplicate => panic!("entered, not a duplicate"),
        }
    }

    #[test]
    fn entries_rank_by_score_then_ticks_keep_the_best_and_survive_reopening() {
        let path =
            std::env::temp_dir().join(format!("uc-board-sqlite-{}.sqlite", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let board = SqliteBoard::open(&path).unwrap();
        assert_eq!(entered(board.insert(&round("a", 50, 60), b"A").unwrap()).rank, 1);
        assert_eq!(entered(board.insert(&round("b", 80, 60), b"B").unwrap()).rank, 1);
        assert_eq!(
            entered(board.insert(&round("c", 50, 40), b"C").unwrap()).rank,
            2,
            "fewer ticks first"
        );
        assert_eq!(board.insert(&round("a", 99, 1), b"A").unwrap(), Stored::Duplicate);
        // Past the kept places the worst goes; a round worse than all of them is not stored.
        for i in 0..KEEP_PER_BOARD {
            entered(board.insert(&round(&format!("k{i}"), 60, 60), b"K").unwrap());
        }
        let last = entered(board.insert(&round("worst", -5, 60), b"W").unwrap());
        assert_eq!((last.rank, last.kept), (KEEP_PER_BOARD + 1, false));
        assert_eq!(board.bundle(last.entry.id).unwrap(), None);
        drop(board);
        let board = SqliteBoard::open(&path).unwrap();
        let top = board.top("00000000000000aa", 2, 1000).unwrap();
        assert_eq!(top.len(), KEEP_PER_BOARD as usize);
        assert_eq!(
            (top[0].score, top[0].names.clone()),
            (80, vec!["Ann".to_string(), "Bob".into()])
        );
        assert!(top.iter().all(|e| e.score >= 50), "the two 50s went first");
        assert_eq!(board.bundle(top[0].id).unwrap(), Some(b"B".to_vec()));
        assert!(board.seen("worst").unwrap(), "a round not kept is still known");
        assert_eq!(board.latest_hash("tutorial").unwrap().as_deref(), Some("00000000000000aa"));
        assert_eq!(board.top("00000000000000aa", 3, 10).unwrap(), Vec::new(), "per team size");
        let _ = std::fs::remove_file(&path);
    }
}
