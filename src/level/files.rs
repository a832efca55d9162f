//! Levels, recipe books and the campaign on disk: read, validate as a set, look up by id.
//!
//! Some checks span files — two levels sharing an id, a campaign entry naming no level — so
//! the set-level functions here sit on top of the single-file `parse_*` functions.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::compile::{id_position, parse_level};
use super::error::{ErrorCode, LevelError, LoadError};
use super::limits::valid_id;
use super::recipes::parse_recipes;
use super::schema::CampaignFile;
use super::source_map::SourceMap;
use super::text::{decode_text, parse_ron};
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

/// The level files of a folder (`*.ron` except the index), sorted by name.
pub fn level_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let is_ron = path.extension().is_some_and(|e| e == "ron");
        let is_index = path.file_name().is_some_and(|n| n == INDEX_FILE);
        if is_ron && !is_index && path.is_file() {
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

/// Parses a campaign index and checks every entry names one of `known` level ids, once.
pub fn check_campaign(
    src: &[u8],
    file: &str,
    known: &[String],
) -> Result<Vec<String>, Vec<LevelError>> {
    let text = decode_text(src, file)?;
    let raw: CampaignFile = parse_ron(text, file, "Campaign")?;
    let map = SourceMap::new(text);
    let locs = map.field_strings("levels");
    let mut errors = Vec::new();
    if raw.levels.is_empty() {
        let msg = "the campaign lists no levels";
        errors.push(LevelError::new(ErrorCode::BadCount, file, map.field("levels"), msg));
    }
    for (i, id) in raw.levels.iter().enumerate() {
        let pos = locs.get(i).map(|l| l.start).or_else(|| map.field("levels"));
        let (code, msg) = if raw.levels[..i].contains(id) {
            (ErrorCode::DuplicateId, format!("`{id}` is listed twice"))
        } else if !valid_id(id) || !known.contains(id) {
            (ErrorCode::UnknownLevel, format!("no level with id `{id}` in this folder"))
        } else {
            continue;
        };
        errors.push(LevelError::new(code, file, pos, msg));
    }
    if errors.is_empty() { Ok(raw.levels) } else { Err(errors) }
}

fn read_sources(paths: &[PathBuf]) -> Result<Vec<LevelSource>, LoadError> {
    paths.iter().map(|p| Ok(LevelSource { file: label(p), bytes: read(p)? })).collect()
}

/// Loads the campaign of a levels folder in play order. Every level the index names must be
/// valid, and ids must be unique across the folder; levels the index does not name are
/// validated for the id check but otherwise ignored.
pub fn load_campaign(levels_dir: &Path, book: &RecipeBook) -> Result<Vec<Level>, LoadError> {
    let index_path = levels_dir.join(INDEX_FILE);
    let index = read(&index_path)?;
    let files = level_files(levels_dir)
        .map_err(|source| LoadError::Io { path: levels_dir.to_path_buf(), source })?;
    let checked = check_level_set(&read_sources(&files)?, book);
    let known: Vec<String> = checked.iter().map(CheckedLevel::claimed_id).collect();
    let order = check_campaign(&index, &label(&index_path), &known).map_err(LoadError::Invalid)?;
    let mut levels = Vec::new();
    let mut errors = Vec::new();
    for id in &order {
        for c in checked.iter().filter(|c| c.claimed_id() == *id) {
            match &c.result {
                Ok(level) => levels.push(level.clone()),
                Err(e) => errors.extend(e.iter().cloned()),
            }
        }
    }
    if errors.is_empty() { Ok(levels) } else { Err(LoadError::Invalid(errors)) }
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
