//! Hot reload without Bevy's file watcher: a polling [`LevelWatchPlugin`] that keeps the last
//! good version of every level in [`LevelLibrary`], and the [`DesignerPlugin`] that restarts a
//! room on its edited level.
//!
//! Polling, not `bevy/file_watcher`: that feature changes Bevy's own feature set, so turning it
//! on rebuilds Bevy in every target directory, and a levels folder is a few kilobytes, so
//! re-reading it four times a second costs little: one world's poll is nothing measurable, and a
//! server's many shards share one look (`level::folder_read`). Polling also works the same in
//! the headless server, the tests and the client, with no asset server in between.
//!
//! A changed file goes through exactly the validator the `validate` CLI runs (`parse_level`,
//! `parse_recipes`); a broken edit is reported as [`LevelRejected`] and the library keeps the
//! last good level, so whatever plays it keeps playing.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bevy::log::{error, info};
use bevy::prelude::*;

use super::compile::{id_position, parse_level};
use super::error::{ErrorCode, LevelError};
use super::files::INDEX_FILE;
use super::folder_read::{FolderRead, read_folder};
use super::index::{PublishedIndex, parse_index};
use super::recipes::{builtin_recipes, parse_recipes};
use crate::sim::kitchen::Level;
use crate::sim::open::SeatSpec;
use crate::sim::recipe_book::RecipeBook;
use crate::sim::room::Room;

/// How often the watcher looks at the files by default: well under the one-second
/// save-to-screen budget, and rare enough to be free.
pub const POLL_EVERY: Duration = Duration::from_millis(250);

/// What the watcher watches. Insert before adding [`LevelWatchPlugin`] (the default is the
/// repository's `levels/` and `assets/recipes.ron`).
#[derive(Resource, Clone, Debug)]
pub struct LevelWatchConfig {
    pub levels_dir: PathBuf,
    /// The recipe book file; `None` (or a path that is not a file) means the built-in book,
    /// which never changes.
    pub recipes: Option<PathBuf>,
    /// The time between polls; zero polls on every update (tests).
    pub poll_every: Duration,
}

impl Default for LevelWatchConfig {
    fn default() -> Self {
        LevelWatchConfig {
            levels_dir: PathBuf::from("levels"),
            recipes: Some(PathBuf::from(super::cli::RECIPES_PATH)),
            poll_every: POLL_EVERY,
        }
    }
}

/// The last good version of one level.
#[derive(Clone, Debug)]
pub struct LibraryEntry {
    pub file: PathBuf,
    pub level: Arc<Level>,
    /// The file's text as validated (replay bundles carry it).
    pub source: Arc<str>,
}

/// Every level id's last good version, the book they were validated against, and the
/// current errors of every file that is broken right now.
#[derive(Resource, Clone, Debug)]
pub struct LevelLibrary {
    pub levels: BTreeMap<String, LibraryEntry>,
    pub book: Arc<RecipeBook>,
    /// The book's text as validated (replay bundles carry it).
    pub book_source: Arc<str>,
    /// File → its errors, for files whose latest version is invalid (fixing clears them).
    pub errors: BTreeMap<PathBuf, Vec<LevelError>>,
    /// The folder's index (read and followed in every mode), and whether an edit must hash to
    /// its entry to be taken ([`TrustPublished`]; else LEVEL_NOT_PUBLISHED, and the last
    /// published version stays). Without an `index.ron` nothing is published and every valid
    /// file is taken, the rule `files::load_published` follows.
    pub index: Option<PublishedIndex>,
    trusted: bool,
    /// The play order last reported ([`LevelLibrary::play_order`]).
    order: Vec<String>,
    /// The bytes last seen per file: a poll compares contents, because a same-size rewrite
    /// inside the filesystem's timestamp granularity leaves the modification time unchanged.
    seen: HashMap<PathBuf, Vec<u8>>,
}

impl LevelLibrary {
    pub fn get(&self, id: &str) -> Option<&LibraryEntry> {
        self.levels.get(id)
    }

    pub fn level(&self, id: &str) -> Option<Arc<Level>> {
        self.levels.get(id).map(|e| e.level.clone())
    }

    /// Reads the book and every level file of `cfg` once, silently (no messages): the state
    /// an app starts from. Broken files are listed in `errors`.
    pub fn scan(cfg: &LevelWatchConfig) -> LevelLibrary {
        LevelLibrary::scan_with(cfg, false)
    }

    /// [`LevelLibrary::scan`], taking only published files when `trusted`.
    pub fn scan_with(cfg: &LevelWatchConfig, trusted: bool) -> LevelLibrary {
        let mut lib = LevelLibrary {
            levels: BTreeMap::new(),
            book: Arc::new(builtin_recipes().unwrap_or_default()),
            book_source: super::recipes::BUILTIN_RECIPES_RON.into(),
            errors: BTreeMap::new(),
            index: None,
            trusted,
            order: Vec::new(),
            seen: HashMap::new(),
        };
        let mut out = Outcomes::default();
        lib.poll(cfg, &mut out);
        lib
    }

    /// One look at the files: every changed file is re-validated and its outcome pushed.
    fn poll(&mut self, cfg: &LevelWatchConfig, out: &mut Outcomes) {
        let mut revalidate_all = false;
        let mut book_changed = false;
        // Every world of the process that follows this folder shares one look at it per half
        // poll period (a server's shards), so an edit is seen at most that much later.
        let read = read_folder(&cfg.levels_dir, cfg.recipes.as_deref(), cfg.poll_every / 2);
        if let Some(path) = cfg.recipes.as_ref()
            && let Some(bytes) = self.changed(&read, path)
        {
            match parse_recipes(&bytes, &path.display().to_string()) {
                Ok(book) => {
                    self.book = Arc::new(book);
                    self.book_source = String::from_utf8_lossy(&bytes).into();
                    self.errors.remove(path);
                    revalidate_all = true;
                    book_changed = true;
                }
                Err(errors) => {
                    self.errors.insert(path.clone(), errors.clone());
                    out.rejected.push(LevelRejected { file: path.clone(), errors });
                }
            }
        }
        // The index is followed in both modes: a designer's host offers its order too, and a
        // designer's window says whether what runs is published. Only trust refuses by it.
        let index_path = cfg.levels_dir.join(INDEX_FILE);
        if self.index.is_some() && read.bytes(&index_path).is_none() {
            // The index was deleted: the folder is a designer's again, every valid file runs.
            self.index = None;
            self.seen.remove(&index_path);
            self.errors.remove(&index_path);
            revalidate_all = true;
        }
        if let Some(bytes) = self.changed(&read, &index_path) {
            match parse_index(&bytes, &index_path.display().to_string()) {
                Ok(index) => {
                    out.campaign = Some(CampaignChanged { ids: index.ids() });
                    self.index = Some(index);
                    self.errors.remove(&index_path);
                    revalidate_all = true;
                }
                Err(errors) => {
                    self.errors.insert(index_path.clone(), errors.clone());
                    out.rejected.push(LevelRejected { file: index_path.clone(), errors });
                }
            }
        }
        let files = &read.level_files;
        self.seen.retain(|p, _| {
            files.contains(p) || cfg.recipes.as_ref() == Some(p) || *p == index_path
        });
        for path in files {
            let bytes = match self.changed(&read, path) {
                Some(bytes) => bytes,
                None if revalidate_all => self.seen.get(path).cloned().unwrap_or_default(),
                None => continue,
            };
            self.validate(path, &bytes, !book_changed, out);
        }
        // Without an index the play order is the folder's valid levels by file name: a new,
        // removed or renamed level changes it, as an index edit would.
        let order = self.play_order();
        if out.campaign.is_none() && self.index.is_none() && order != self.order {
            out.campaign = Some(CampaignChanged { ids: order.clone() });
        }
        self.order = order;
    }

    /// The offered order: the index's ids, or without one every level by file name.
    fn play_order(&self) -> Vec<String> {
        if let Some(index) = &self.index {
            return index.ids();
        }
        let mut by_file: Vec<(&PathBuf, &String)> =
            self.levels.iter().map(|(id, e)| (&e.file, id)).collect();
        by_file.sort();
        by_file.into_iter().map(|(_, id)| id.clone()).collect()
    }

    /// Whether the running version of `id` is published: its text hashes to its index entry.
    /// False without an index (a designer's folder publishes nothing).
    pub fn published(&self, id: &str) -> bool {
        let (Some(index), Some(entry)) = (&self.index, self.levels.get(id)) else { return false };
        index.verify(id, &entry.file.display().to_string(), entry.source.as_bytes()).is_ok()
    }

    /// The file's bytes in `read` if they differ from the last seen ones (a new file counts).
    fn changed(&mut self, read: &FolderRead, path: &Path) -> Option<Vec<u8>> {
        let bytes = read.bytes(path)?;
        if self.seen.get(path).is_some_and(|seen| seen.as_slice() == bytes) {
            return None;
        }
        self.seen.insert(path.to_path_buf(), bytes.to_vec());
        Some(bytes.to_vec())
    }

    fn validate(&mut self, path: &Path, bytes: &[u8], quiet_if_same: bool, out: &mut Outcomes) {
        let label = path.display().to_string();
        let mut result = parse_level(bytes, &label, &self.book);
        // Ids stay unique across the folder, as `check_level_set` demands of the CLI.
        if let Ok(level) = &result
            && let Some(other) = self.levels.get(&level.id).filter(|e| e.file != path)
        {
            let msg =
                format!("level id `{}` is already used by {}", level.id, other.file.display());
            result =
                Err(vec![LevelError::new(ErrorCode::DuplicateId, &label, id_position(bytes), msg)]);
        }
        // Trusted: a valid edit runs only once it is published (its hash is in the index).
        if let (Ok(level), true, Some(index)) = (&result, self.trusted, &self.index)
            && let Err(e) = index.verify(&level.id, &label, bytes)
        {
            result = Err(vec![e]);
        }
        match result {
            Ok(level) => {
                let level = Arc::new(level);
                // A file that now holds another id gives its old id up.
                self.levels.retain(|id, e| e.file != path || *id == level.id);
                let source: Arc<str> = String::from_utf8_lossy(bytes).into();
                // Re-checked but not changed (an index edit re-checks every file): no message.
                // (A book edit always reports: every level was checked against a new book.)
                let same = quiet_if_same
                    && self.levels.get(&level.id).is_some_and(|e| {
                        e.file == path && e.source == source && *e.level == *level
                    });
                let entry = LibraryEntry { file: path.to_path_buf(), level: level.clone(), source };
                self.levels.insert(level.id.clone(), entry);
                self.errors.remove(path);
                if !same {
                    out.reloaded.push(LevelReloaded { id: level.id.clone(), level });
                }
            }
            Err(errors) => {
                self.errors.insert(path.to_path_buf(), errors.clone());
                out.rejected.push(LevelRejected { file: path.to_path_buf(), errors });
            }
        }
    }
}

#[derive(Default)]
struct Outcomes {
    reloaded: Vec<LevelReloaded>,
    rejected: Vec<LevelRejected>,
    campaign: Option<CampaignChanged>,
}

/// The play order changed: the index changed and parsed, or (a folder without one) a level
/// came, went or changed its id; `ids` is the new order. (Levels it now publishes arrive as
/// [`LevelReloaded`] in the same poll.)
#[derive(Message, Clone, Debug)]
pub struct CampaignChanged {
    pub ids: Vec<String>,
}

/// Insert before adding [`LevelWatchPlugin`] to take only published edits (the hosted server
/// without `--designer`): see [`LevelLibrary::index`].
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct TrustPublished;

/// A level file (or the book, for every level) changed and validated: `level` is the new
/// last good version of `id`.
#[derive(Message, Clone, Debug)]
pub struct LevelReloaded {
    pub id: String,
    pub level: Arc<Level>,
}

/// A changed file (a level, or the recipe book) failed validation; the last good version
/// stays in use.
#[derive(Message, Clone, Debug)]
pub struct LevelRejected {
    pub file: PathBuf,
    pub errors: Vec<LevelError>,
}

/// Polls the files of [`LevelWatchConfig`] and keeps [`LevelLibrary`] current.
pub struct LevelWatchPlugin;

/// The polling system's set (the designer and the server order after it).
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LevelWatchSystems;

impl Plugin for LevelWatchPlugin {
    fn build(&self, app: &mut App) {
        if !app.world().contains_resource::<LevelWatchConfig>() {
            app.insert_resource(LevelWatchConfig::default());
        }
        // Scanned here, not in a Startup system: a plugin added to an app that already ran
        // (the tests' `headless_app`) would never see Startup again.
        let cfg = app.world().resource::<LevelWatchConfig>().clone();
        let trusted = app.world().contains_resource::<TrustPublished>();
        app.insert_resource(LevelLibrary::scan_with(&cfg, trusted))
            .add_message::<LevelReloaded>()
            .add_message::<LevelRejected>()
            .add_message::<CampaignChanged>()
            .add_systems(PreUpdate, poll_levels.in_set(LevelWatchSystems));
    }
}

fn poll_levels(
    cfg: Res<LevelWatchConfig>,
    mut lib: ResMut<LevelLibrary>,
    mut last: Local<Option<Instant>>,
    mut reloaded: MessageWriter<LevelReloaded>,
    mut rejected: MessageWriter<LevelRejected>,
    mut campaign: MessageWriter<CampaignChanged>,
) {
    let now = Instant::now();
    if last.is_some_and(|t| now.duration_since(t) < cfg.poll_every) {
        return;
    }
    *last = Some(now);
    let mut out = Outcomes::default();
    lib.poll(&cfg, &mut out);
    if let Some(c) = out.campaign {
        info!("play order reloaded: {} level(s): {}", c.ids.len(), c.ids.join(", "));
        campaign.write(c);
    }
    for r in out.reloaded {
        info!("level reloaded: {}", r.id);
        reloaded.write(r);
    }
    for r in out.rejected {
        for e in &r.errors {
            error!("level rejected: {e}");
        }
        rejected.write(r);
    }
}

/// Designer mode: a room playing a level that was just reloaded restarts on the new version,
/// with the same seats and seed, so a saved edit shows at once. Rooms on other levels, and
/// every room when an edit is rejected, are left alone.
pub struct DesignerPlugin;

impl Plugin for DesignerPlugin {
    fn build(&self, app: &mut App) {
        // Update runs after the fixed-step loop of its frame: a restart lands between ticks.
        app.add_systems(Update, restart_edited_rooms);
    }
}

fn restart_edited_rooms(
    mut reloaded: MessageReader<LevelReloaded>,
    lib: Res<LevelLibrary>,
    rooms: Query<(Entity, &Room)>,
    mut commands: Commands,
) {
    // Only the newest version of each id matters when several arrive in one frame.
    let mut newest: HashMap<&str, &Arc<Level>> = HashMap::new();
    for r in reloaded.read() {
        newest.insert(&r.id, &r.level);
    }
    if newest.is_empty() {
        return;
    }
    for (entity, room) in &rooms {
        let Some(level) = newest.get(room.level.id.as_str()) else { continue };
        let seats: Vec<SeatSpec> =
            room.cooks.iter().map(|c| SeatSpec::new(c.seat, c.name.clone())).collect();
        // The same assists as the round it replaces, applied to the edited level.
        let fresh =
            Room::assisted((*level).clone(), lib.book.clone(), room.seed, &seats, room.assist)
                .with_survival(room.survival.is_some());
        info!("designer: room restarted on the edited level `{}`", room.level.id);
        commands.entity(entity).insert(fresh);
    }
}
