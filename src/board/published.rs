//! Which rounds this host ranks: levels by the hash its published index (`levels/index.ron`,
//! written by `level publish`) lists for them, the day's generated kitchens (drawn again here,
//! [`super::daily`]), and its own recipe book. A bundle carries its level's and recipes' texts;
//! only their hashes decide, so a level edited by one byte is a level nobody published.

use super::daily::DailyCheck;
use crate::level::files::INDEX_FILE;
use crate::level::index::parse_index;
use crate::replay::bundle::content_hash;
use std::collections::BTreeMap;
use std::path::Path;

/// The levels and recipes a host ranks.
pub struct Published {
    /// Published level hash → its id.
    by_hash: BTreeMap<String, String>,
    /// The recipe book's hash (the host's own book).
    pub recipes_hash: String,
    /// The daily kitchens it checks (by drawing them again).
    pub daily: DailyCheck,
}

impl Published {
    /// `levels_dir`'s index (a folder without one publishes nothing: its levels were never
    /// proven), `recipes_text` the host's book, `daily` the days it ranks.
    pub fn read(levels_dir: &Path, recipes_text: &str, daily: DailyCheck) -> Result<Self, String> {
        let path = levels_dir.join(INDEX_FILE);
        let by_hash = match std::fs::read(&path) {
            Ok(bytes) => parse_index(&bytes, &path.display().to_string())
                .map_err(|e| {
                    format!("{}: {} problem(s), first: {:?}", path.display(), e.len(), e.first())
                })?
                .levels
                .into_iter()
                .map(|e| (e.hash, e.id))
                .collect(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => BTreeMap::new(),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        Ok(Published { by_hash, recipes_hash: content_hash(recipes_text), daily })
    }

    /// The published level with this hash, by id: the index's, else a daily kitchen's.
    pub fn level_of(&self, hash: &str, claimed_id: &str) -> Option<String> {
        match self.by_hash.get(hash) {
            Some(id) => Some(id.clone()),
            None => (self.daily.hash_of(claimed_id).as_deref() == Some(hash))
                .then(|| claimed_id.to_string()),
        }
    }

    /// The published hash of level `id` in the index (a daily kitchen's is found from its
    /// entries, `store::BoardStore::latest_hash`).
    pub fn hash_of(&self, id: &str) -> Option<&str> {
        self.by_hash.iter().find(|(_, i)| *i == id).map(|(h, _)| h.as_str())
    }

    /// The index's levels as (id, hash), by id.
    pub fn indexed(&self) -> Vec<(String, String)> {
        let mut all: Vec<(String, String)> =
            self.by_hash.iter().map(|(h, id)| (id.clone(), h.clone())).collect();
        all.sort();
        all
    }

    /// Published levels in all (the index's).
    pub fn levels(&self) -> usize {
        self.by_hash.len()
    }
}
