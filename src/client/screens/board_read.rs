//! The results board screen's reads, each on its own thread so no frame waits on the network:
//! the board's listings (what it ranks, daily kitchens first, then each team size's entries),
//! and one entry's bundle, fetched and checked as `play --bundle` checks a file (read, its room
//! built from its own sources) before it is played.

use crate::board::client::{ReadFailed, fetch_bundle, list_entries, list_levels};
use crate::replay::bundle::{Bundle, bundle_room};
use crate::replay::bundle_read::read_bundle;
use crate::sim::units::{MAX_COOKS, TICK_HZ};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// Entries asked for per level and team size (the screen shows the top of each).
pub const LISTED: usize = 5;

/// One entry as the screen shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedEntry {
    pub id: u64,
    /// 1 for the best (the board's order).
    pub rank: usize,
    pub score: i64,
    pub team: u64,
    pub ticks: u64,
}

/// One level's entries for one team size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    pub level: String,
    pub daily: bool,
    pub team: u8,
    pub entries: Vec<ListedEntry>,
}

/// A thread's answer on its way to the screen.
pub struct Pending<T>(Mutex<Receiver<Result<T, String>>>);

impl<T: Send + 'static> Pending<T> {
    /// Runs `read` on a thread named `name`; a thread that cannot start answers at once.
    pub fn start(name: &str, read: impl FnOnce() -> Result<T, String> + Send + 'static) -> Self {
        let (tx, rx) = channel();
        let failed = tx.clone();
        let spawned = std::thread::Builder::new().name(name.into()).spawn(move || {
            let _ = tx.send(read());
        });
        if let Err(e) = spawned {
            let _ = failed.send(Err(format!("no thread for the board: {e}")));
        }
        Pending(Mutex::new(rx))
    }

    /// The answer, if it has come (`None`: still waiting).
    pub fn take(&self) -> Option<Result<T, String>> {
        let Ok(rx) = self.0.lock() else {
            return Some(Err("the board's request failed".into()));
        };
        match rx.try_recv() {
            Ok(answer) => Some(answer),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                Some(Err("the board's request ended unanswered".into()))
            }
        }
    }
}

/// A refusal by the board's name for it, or why the host was not reached.
fn said(e: ReadFailed) -> String {
    match e {
        ReadFailed::Refused(why) => format!("the board refused: {why}"),
        ReadFailed::Unreachable(why) => format!("the board was not reached: {why}"),
    }
}

/// The entries of one listing's JSON (`{"entries": [{"id", "team", "score", "ticks"}]}`).
pub fn listed_entries(listing: &serde_json::Value) -> Result<Vec<ListedEntry>, String> {
    let Some(entries) = listing["entries"].as_array() else {
        return Err(format!("a listing without entries: {listing}"));
    };
    entries
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let field =
                |name: &str| e[name].as_u64().ok_or(format!("an entry without {name}: {e}"));
            Ok(ListedEntry {
                id: field("id")?,
                rank: k + 1,
                score: e["score"].as_i64().ok_or(format!("an entry without score: {e}"))?,
                team: field("team")?,
                ticks: field("ticks")?,
            })
        })
        .collect()
}

/// Every level the board ranks (daily first) and every team size with entries.
pub fn read_board(board: &str) -> Result<Vec<Listed>, String> {
    let mut shown = Vec::new();
    for (level, daily) in list_levels(board).map_err(said)? {
        for team in 1..=MAX_COOKS as u8 {
            let listing = list_entries(board, &level, team, LISTED).map_err(said)?;
            let entries = listed_entries(&listing)?;
            if !entries.is_empty() {
                shown.push(Listed { level: level.clone(), daily, team, entries });
            }
        }
    }
    Ok(shown)
}

/// Entry `id`'s bundle, read and its room built once (an edited source or a version this
/// build does not read is refused here, by name, not in the kitchen).
pub fn read_entry_bundle(board: &str, id: u64) -> Result<Bundle, String> {
    let bytes = fetch_bundle(board, id).map_err(said)?;
    let text = String::from_utf8(bytes).map_err(|e| format!("entry {id}'s bundle: {e}"))?;
    let bundle = read_bundle(&text).map_err(|e| format!("entry {id}'s bundle: {e}"))?;
    bundle_room(&bundle).map_err(|e| format!("entry {id}: invalid bundle: {e}"))?;
    Ok(bundle)
}

/// An entry's line: rank, score, cooks of the team, its length in ticks and in time.
pub fn entry_line(e: &ListedEntry) -> String {
    let secs = e.ticks / u64::from(TICK_HZ);
    let cooks = if e.team == 1 { "1 cook".to_string() } else { format!("{} cooks", e.team) };
    format!(
        "#{}   score {}   {cooks}   {} ticks ({}:{:02})",
        e.rank,
        e.score,
        e.ticks,
        secs / 60,
        secs % 60
    )
}

/// A group's heading: the level, whether it is the daily kitchen, the team size.
pub fn group_heading(g: &Listed) -> String {
    let daily = if g.daily { " (daily kitchen)" } else { "" };
    let cooks = if g.team == 1 { "1 cook".to_string() } else { format!("{} cooks", g.team) };
    format!("{}{daily}, teams of {cooks}", g.level)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_becomes_ranked_lines_and_a_malformed_one_is_named() {
        let v = serde_json::json!({"entries": [
            {"id": 7, "team": 2, "score": 120, "ticks": 3610},
            {"id": 3, "team": 2, "score": -5, "ticks": 40},
        ]});
        let e = listed_entries(&v).expect("read");
        assert_eq!((e[0].rank, e[0].id, e[1].rank, e[1].score), (1, 7, 2, -5));
        assert_eq!(entry_line(&e[0]), "#1   score 120   2 cooks   3610 ticks (3:00)");
        let bad = serde_json::json!({"entries": [{"id": 1, "team": 1, "ticks": 3}]});
        assert!(listed_entries(&bad).unwrap_err().contains("without score"));
        assert!(listed_entries(&serde_json::json!({})).unwrap_err().contains("without entries"));
    }
}
