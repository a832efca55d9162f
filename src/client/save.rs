//! The local save file: best stars per level (and which were earned with assist mode, and
//! which levels were skipped with it), best survival rounds per level and settings, as JSON in the user's data folder
//! (`UNDERCOOKED_SAVE` overrides the path, so tests never touch a real save). The key bindings'
//! config file (`config.rs`) lives beside it. Both are written atomically ([`write_atomic`]).

use super::args::Options;
use crate::project::RoomTick;
use crate::protocol::RoomView;
use crate::sim::events::SimEvent;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What survives between runs.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SaveData {
    /// Best stars per level id.
    pub best_stars: BTreeMap<String, u8>,
    /// Master volume, 0..=1.
    pub volume: f32,
    /// Levels whose best stars were earned in an assisted round (the level select marks them);
    /// a level leaves the set when an unassisted round equals or beats its best.
    pub assisted: BTreeSet<String>,
    /// Levels skipped with assist mode's "skip level": the next level opens as if this one had
    /// a star, and this one keeps whatever stars it has.
    pub skipped: BTreeSet<String>,
    /// Best survival round per level id (`sim::survival`): the longest, more dishes breaking a
    /// tie.
    pub best_survival: BTreeMap<String, SurvivalBest>,
}

/// A survival round's result as the save keeps it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SurvivalBest {
    /// Ticks survived (20 a second).
    pub ticks: u32,
    /// Dishes served.
    pub dishes: u32,
}

impl Default for SaveData {
    fn default() -> Self {
        SaveData {
            best_stars: BTreeMap::new(),
            volume: 0.7,
            assisted: BTreeSet::new(),
            skipped: BTreeSet::new(),
            best_survival: BTreeMap::new(),
        }
    }
}

/// Where the save file lives.
pub fn save_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("UNDERCOOKED_SAVE") {
        return Some(PathBuf::from(p));
    }
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
    Some(base.join("undercooked").join("save.json"))
}

/// Where a hosted game keeps its results and server key: beside the save file.
pub fn host_data_dir() -> PathBuf {
    save_path()
        .and_then(|p| p.parent().map(|d| d.join("host")))
        .unwrap_or_else(|| std::env::temp_dir().join("undercooked-host"))
}

/// Write `bytes` to `path` through a temporary file beside it and a rename, so a crash or a
/// full disk mid-write leaves the old file whole (a rename within a folder is atomic).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut tmp = path.file_name().unwrap_or_default().to_os_string();
    tmp.push(".tmp");
    let tmp = path.with_file_name(tmp);
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

impl SaveData {
    /// The saved data, or defaults when there is none (or it does not parse: a broken save
    /// must never stop the game from starting).
    pub fn load() -> SaveData {
        save_path()
            .and_then(|p| std::fs::read(p).ok())
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    pub fn store(&self) {
        let Some(path) = save_path() else { return };
        match serde_json::to_vec_pretty(self) {
            Ok(bytes) => {
                if let Err(e) = write_atomic(&path, &bytes) {
                    warn!("cannot write the save file {}: {e}", path.display());
                }
            }
            Err(e) => warn!("cannot encode the save file: {e}"),
        }
    }

    /// Keep the better of the saved and the new stars, and whether the best was assisted; true
    /// when the save changed. An unassisted round that equals an assisted best takes its mark
    /// away; an assisted round only ever raises the stars.
    pub fn record(&mut self, level: &str, stars: u8, assisted: bool) -> bool {
        let best = self.best_stars.entry(level.to_string()).or_default();
        let was_assisted = self.assisted.contains(level);
        if stars > *best {
            *best = stars;
            if assisted {
                self.assisted.insert(level.to_string());
            } else {
                self.assisted.remove(level);
            }
            true
        } else if !assisted && was_assisted && stars == *best && stars > 0 {
            self.assisted.remove(level);
            true
        } else {
            false
        }
    }

    /// Keep the better survival round of `level`: longer, or as long with more dishes. True
    /// when the save changed.
    pub fn record_survival(&mut self, level: &str, run: SurvivalBest) -> bool {
        let better = self
            .best_survival
            .get(level)
            .is_none_or(|best| (run.ticks, run.dishes) > (best.ticks, best.dishes));
        if better {
            self.best_survival.insert(level.to_string(), run);
        }
        better
    }

    /// Assist mode's "skip level": the level after `level` opens. True when it was not
    /// skipped already.
    pub fn skip(&mut self, level: &str) -> bool {
        self.skipped.insert(level.to_string())
    }
}

/// The save file: loaded at start, best stars recorded as rounds end.
pub struct SavePlugin;

impl Plugin for SavePlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(SaveData::load());
        app.add_systems(Update, record_stars);
    }
}

/// A round's verdict: remember its stars if they beat the saved best. A designer's test
/// rounds (`--designer`) are never the player's: they may run an unpublished edit of a
/// campaign level, so their stars are not saved.
fn record_stars(
    mut ticks: MessageReader<RoomTick>,
    rooms: Query<&RoomView>,
    mut save: ResMut<SaveData>,
    options: Option<Res<Options>>,
) {
    if options.is_some_and(|o| o.0.designer) {
        ticks.clear();
        return;
    }
    for tick in ticks.read() {
        for event in &tick.events {
            let SimEvent::RoundEnd { stars, .. } = event else { continue };
            let Ok(view) = rooms.get(tick.room) else { continue };
            // A survival round has no stars: its best is its length and its dishes.
            if let Some(s) = view.survival {
                let run = SurvivalBest { ticks: s.survived, dishes: view.served };
                if save.record_survival(&view.level_id, run) {
                    save.store();
                }
                continue;
            }
            if save.record(&view.level_id, *stars, view.assist.is_on()) {
                save.store();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_survival_is_the_longest_then_the_most_dishes() {
        let mut save = SaveData::default();
        assert!(save.record_survival("tutorial", SurvivalBest { ticks: 2000, dishes: 4 }));
        assert!(!save.record_survival("tutorial", SurvivalBest { ticks: 1999, dishes: 9 }));
        assert!(!save.record_survival("tutorial", SurvivalBest { ticks: 2000, dishes: 4 }));
        assert!(save.record_survival("tutorial", SurvivalBest { ticks: 2000, dishes: 5 }));
        assert!(save.record_survival("tutorial", SurvivalBest { ticks: 2400, dishes: 1 }));
        assert_eq!(save.best_survival["tutorial"], SurvivalBest { ticks: 2400, dishes: 1 });
        assert!(save.best_stars.is_empty(), "a survival round records no stars");
        // It survives the save file, and a save from before survival still reads.
        let text = serde_json::to_string(&save).unwrap();
        assert_eq!(serde_json::from_str::<SaveData>(&text).unwrap(), save);
        let old: SaveData = serde_json::from_str(r#"{"best_stars": {"tutorial": 2}}"#).unwrap();
        assert!(old.best_survival.is_empty() && old.best_stars["tutorial"] == 2);
    }
}
