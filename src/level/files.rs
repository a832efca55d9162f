//! Levels, recipe books and the campaign on disk: read, validate as a set, look up by id.
//!
//! Some checks span files — two levels sharing an id, a campaign entry naming no level — so
//! the set-level functions here sit on top of the single-file `parse_*` functions.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::compile::{id_position, parse_level};
use super::error::{ErrorCode, LevelError, LoadError};
use super::index::{PublishedIndex, file_hash, parse_index};
use super::limits::valid_id;
use super::recipes::parse_recipes;
use super::source_map::SourceMap;
use super::text::decode_text;
use crate::sim::kitchen::Level;
use crate::sim::recipe_book::RecipeBook;

/// The campaign index inside a levels folder; it is not a level.
pub const INDEX_FILE: &str = "index.ron";

/// One level file's bytes and the name to report it under.
#[derive(Clone, Debug)]
pub struct LevelSource {
    pub file: String,
    pub bytes: Vec<u8>,
}

/// One level file's validation outcome.
#[derive(Clone, Debug)]
pub struct CheckedLevel {
    pub file: String,
    pub result: Result<Level, Vec<LevelError>>,
}

impl CheckedLevel {
    /// The level's id, or for a broken file its file stem (what its id most likely is), so a
    /// campaign entry for a broken level reports the level's errors, not UNKNOWN_LEVEL too.
    pub fn claimed_id(&self) -> String {
        match &self.result {
            Ok(level) => level.id.clone(),
            Err(_) => file_stem(&self.file),
        }
    }
}

fn file_stem(file: &str) -> String {
    Path::new(file).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

fn read(path: &Path) -> Result<Vec<u8>, LoadError> {
    std::fs::read(path).map_err(|source| LoadError::Io { path: path.to_path_buf(), source })
}

fn label(path: &Path) -> String {
    path.display().to_string()
}

/// Reads and validates a recipe book file.
pub fn load_recipes_file(path: &Path) -> Result<RecipeBook, LoadError> {
    parse_recipes(&read(path)?, &label(path)).map_err(LoadError::Invalid)
}

/// Reads, validates and compiles one level file.
pub fn load_level_file(path: &Path, book: &RecipeBook) -> Result<Level, LoadError> {
    parse_level(&read(path)?, &label(path), book).map_err(LoadError::Invalid)
}

/// The level files of a folder (`*.ron` except the index and the editor's drafts,
/// `*.draft.ron`), sorted by name.
pub fn level_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let is_ron = path.extension().is_some_and(|e| e == "ron");
        let is_index = path.file_name().is_some_and(|n| n == INDEX_FILE);
        if is_ron && !is_index && !super::edit::save::is_draft(&path) && path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Validates level files as one set: each file alone, then ids unique across the set (every
/// file after the first to use an id gets DUPLICATE_ID).
pub fn check_level_set(sources: &[LevelSource], book: &RecipeBook) -> Vec<CheckedLevel> {
    let mut first_with_id: BTreeMap<String, String> = BTreeMap::new();
    let mut checked = Vec::with_capacity(sources.len());
    for src in sources {
        let mut result = parse_level(&src.bytes, &src.file, book);
        if let Ok(level) = &result {
            match first_with_id.get(&level.id) {
                Some(first) => {
                    let msg = format!("level id `{}` is already used by {first}", level.id);
                    let pos = id_position(&src.bytes);
                    result =
                        Err(vec![LevelError::new(ErrorCode::DuplicateId, &src.file, pos, msg)]);
                }
                None => {
                    first_with_id.insert(level.id.clone(), src.file.clone());
                }
            }
        }
        checked.push(CheckedLevel { file: src.file.clone(), result });
    }
    checked
}

/// A level file a folder holds, as an index entry is checked against it: its id (a broken
/// file's stem) and the hash of its bytes.
#[derive(Clone, Debug)]
pub struct KnownLevel {
    pub id: String,
    pub hash: String,
}

impl KnownLevel {
    /// The known levels of a validated set, `checked` in the order of `sources`.
    pub fn of(sources: &[LevelSource], checked: &[CheckedLevel]) -> Vec<KnownLevel> {
        sources
            .iter()
            .zip(checked)
            .map(|(s, c)| KnownLevel { id: c.claimed_id(), hash: file_hash(&s.bytes) })
            .collect()
    }
}

/// Parses a published index and checks every entry names one of `known` levels, once, and
/// that the level's file still hashes to the entry (LEVEL_NOT_PUBLISHED, both hashes).
pub fn check_campaign(
    src: &[u8],
    file: &str,
    known: &[KnownLevel],
) -> Result<PublishedIndex, Vec<LevelError>> {
    let index = parse_index(src, file)?;
    let map = SourceMap::new(decode_text(src, file)?);
    let mut errors = Vec::new();
    if index.levels.is_empty() {
        let msg = "the campaign lists no levels";
        errors.push(LevelError::new(ErrorCode::BadCount, file, map.field("levels"), msg));
    }
    for (i, entry) in index.levels.iter().enumerate() {
        let id = &entry.id;
        let pos = map.list_item_field("levels", i, "id").or_else(|| map.field("levels"));
        let found = known.iter().find(|k| k.id == *id);
        let (code, msg) = if index.levels[..i].iter().any(|e| e.id == *id) {
            (ErrorCode::DuplicateId, format!("`{id}` is listed twice"))
        } else if !valid_id(id) || found.is_none() {
            (ErrorCode::UnknownLevel, format!("no level with id `{id}` in this folder"))
        } else if let Some(k) = found.filter(|k| k.hash != entry.hash) {
            let msg = format!(
                "level `{id}` changed since it was published: the file hashes {}, the index \
                 entry {}; run `undercooked level publish` on it",
                k.hash, entry.hash
            );
            (ErrorCode::LevelNotPublished, msg)
        } else {
            continue;
        };
        errors.push(LevelError::new(code, file, pos, msg));
    }
    if errors.is_empty() { Ok(index) } else { Err(errors) }
}

fn read_sources(paths: &[PathBuf]) -> Result<Vec<LevelSource>, LoadError> {
    paths.iter().map(|p| Ok(LevelSource { file: label(p), bytes: read(p)? })).collect()
}

/// Loads the campaign of a levels folder in play order. Every level the index names must be
/// valid and still hash to its entry, and ids must be unique across the folder; levels the
/// index does not name are validated for the id check but otherwise ignored.
pub fn load_campaign(levels_dir: &Path, book: &RecipeBook) -> Result<Vec<Level>, LoadError> {
    let index_path = levels_dir.join(INDEX_FILE);
    let index = read(&index_path)?;
    let (sources, checked) = read_folder(levels_dir, book)?;
    let known = KnownLevel::of(&sources, &checked);
    let order = check_campaign(&index, &label(&index_path), &known).map_err(LoadError::Invalid)?;
    let mut levels = Vec::new();
    let mut errors = Vec::new();
    for id in order.ids() {
        for c in checked.iter().filter(|c| c.claimed_id() == id) {
            match &c.result {
                Ok(level) => levels.push(level.clone()),
                Err(e) => errors.extend(e.iter().cloned()),
            }
        }
    }
    if errors.is_empty() { Ok(levels) } else { Err(LoadError::Invalid(errors)) }
}

fn read_folder(
    levels_dir: &Path,
    book: &RecipeBook,
) -> Result<(Vec<LevelSource>, Vec<CheckedLevel>), LoadError> {
    let files = level_files(levels_dir)
        .map_err(|source| LoadError::Io { path: levels_dir.to_path_buf(), source })?;
    let sources = read_sources(&files)?;
    let checked = check_level_set(&sources, book);
    Ok((sources, checked))
}

/// What a host (or the campaign screen) may play from a folder: see [`load_published`].
#[derive(Clone, Debug)]
pub struct Offered {
    /// In play order.
    pub levels: Vec<Level>,
    /// Each offered level's file text, by id (replay bundles carry it).
    pub sources: BTreeMap<String, String>,
    /// Files refused: LEVEL_NOT_PUBLISHED, or invalid. They are not offered.
    pub refused: Vec<LevelError>,
    /// The folder's index, or `None` for a folder without one (then nothing is published).
    pub index: Option<PublishedIndex>,
}

/// Which levels may run: [`Trust::Published`] only files that hash to their index entry;
/// [`Trust::Designer`] every valid file (unpublished edits; `--designer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trust {
    Published,
    Designer,
}

/// The levels a host offers and the campaign screen lists, by one rule (docs/LEVELS.md, "What
/// runs"): with an `index.ron`, its entries in order — under [`Trust::Published`] only those
/// whose file hashes to the entry, the rest refused by name; without one, the folder is a
/// designer's folder: every valid level in file-name order, none published. Broken files are
/// refused, never fatal; only an unreadable folder or a broken index is an error.
pub fn load_published(
    levels_dir: &Path,
    book: &RecipeBook,
    trust: Trust,
) -> Result<Offered, LoadError> {
    let (sources, checked) = read_folder(levels_dir, book)?;
    let index_path = levels_dir.join(INDEX_FILE);
    let index = match std::fs::read(&index_path) {
        Ok(bytes) => Some(parse_index(&bytes, &label(&index_path)).map_err(LoadError::Invalid)?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(source) => return Err(LoadError::Io { path: index_path, source }),
    };
    let mut offered =
        Offered { levels: Vec::new(), sources: BTreeMap::new(), refused: Vec::new(), index };
    let order: Vec<String> = match &offered.index {
        Some(index) => index.ids(),
        None => {
            checked.iter().filter_map(|c| c.result.as_ref().ok().map(|l| l.id.clone())).collect()
        }
    };
    for id in order {
        let Some((src, c)) = sources.iter().zip(&checked).find(|(_, c)| c.claimed_id() == id)
        else {
            let msg = format!("no level with id `{id}` in this folder");
            let file = label(&index_path);
            offered.refused.push(LevelError::new(ErrorCode::UnknownLevel, &file, None, msg));
            continue;
        };
        let level = match &c.result {
            Ok(level) => level,
            Err(errors) => {
                offered.refused.extend(errors.iter().cloned());
                continue;
            }
        };
        if let (Trust::Published, Some(index)) = (trust, &offered.index)
            && let Err(e) = index.verify(&id, &src.file, &src.bytes)
        {
            offered.refused.push(e);
            continue;
        }
        offered.sources.insert(id.clone(), String::from_utf8_lossy(&src.bytes).into_owned());
        offered.levels.push(level.clone());
    }
    Ok(offered)
}

/// Finds a level by file path, or by id inside `levels_dir` (`<dir>/<id>.ron` first, then any
/// file whose id matches).
pub fn find_level(
    levels_dir: &Path,
    id_or_path: &str,
    book: &RecipeBook,
) -> Result<Level, LoadError> {
    let as_path = Path::new(id_or_path);
    if as_path.is_file() {
        return load_level_file(as_path, book);
    }
    let named = levels_dir.join(format!("{id_or_path}.ron"));
    if named.is_file() {
        let level = load_level_file(&named, book)?;
        if level.id == id_or_path {
            return Ok(level);
        }
    }
    let files = level_files(levels_dir)
        .map_err(|source| LoadError::Io { path: levels_dir.to_path_buf(), source })?;
    for path in files {
        if let Ok(level) = load_level_file(&path, book)
            && level.id == id_or_path
        {
            return Ok(level);
        }
    }
    Err(LoadError::NotFound(id_or_path.to_string()))
}
