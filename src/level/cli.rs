//! `undercooked validate [PATH…]`: check level files and folders, print every problem.
//!
//! Exit codes: 0 every file valid, 1 any file invalid, 2 a path missing or unreadable (that
//! wins over 1, since an unread file might have been invalid too). With no paths it checks the
//! campaign the game loads, `levels/` with its `index.ron`, so a missing index is a missing
//! path; a folder named on the command line is levels first, and its index is checked when it
//! has one (a note says when it has none). Nothing here may panic on
//! any input: the validator is what designers and the hidden-garbage test throw files at.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::error::LevelError;
use super::files::{
    INDEX_FILE, KnownLevel, LevelSource, check_campaign, check_level_set, level_files,
};
use super::recipes::{builtin_recipes, parse_recipes};
use crate::sim::recipe_book::RecipeBook;

/// Environment variable naming the recipe book to validate against.
pub const RECIPES_ENV: &str = "UNDERCOOKED_RECIPES";
/// The recipe book's path relative to a repository root (and the default working directory).
pub const RECIPES_PATH: &str = "assets/recipes.ron";
/// What `validate` checks when given no paths.
pub const DEFAULT_LEVELS_DIR: &str = "levels";

/// The worst outcome so far; the exit code is its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Valid = 0,
    Invalid = 1,
    Unreadable = 2,
}

/// Everything one run gathered: level files to check as a set, and campaign indexes with
/// the folder whose levels they order.
#[derive(Default)]
struct Job {
    levels: Vec<LevelSource>,
    seen: BTreeSet<PathBuf>,
    indexes: Vec<(PathBuf, PathBuf)>,
}

/// Runs the validator over files and folders and returns the process exit code.
pub fn run_validate(paths: &[PathBuf]) -> u8 {
    let default = [PathBuf::from(DEFAULT_LEVELS_DIR)];
    let the_campaign = paths.is_empty();
    let paths = if the_campaign { &default[..] } else { paths };
    let mut out = std::io::stdout().lock();
    let book = match resolve_book(paths, &mut out) {
        Ok(book) => book,
        Err(outcome) => return outcome as u8,
    };
    let mut worst = Outcome::Valid;
    let mut job = Job::default();
    for path in paths {
        worst = worst.max(gather(path, &mut job));
    }
    let campaign = Path::new(DEFAULT_LEVELS_DIR).join(INDEX_FILE);
    if the_campaign && Path::new(DEFAULT_LEVELS_DIR).is_dir() && !campaign.is_file() {
        let why = "the campaign's index is missing (the game and the server load it)";
        worst = worst.max(unreadable(&campaign, why));
    }
    let checked = check_level_set(&job.levels, &book);
    let mut invalid = 0usize;
    for c in &checked {
        invalid += usize::from(report(&mut out, &c.file, c.result.as_ref().err()));
    }
    for (index, dir) in &job.indexes {
        let (outcome, bad) = check_index(index, dir, &book, &mut out);
        worst = worst.max(outcome);
        invalid += usize::from(bad);
    }
    let total = checked.len() + job.indexes.len();
    let _ = writeln!(
        out,
        "{total} file(s) checked: {} valid, {invalid} invalid",
        total.saturating_sub(invalid)
    );
    if invalid > 0 {
        worst = worst.max(Outcome::Invalid);
    }
    worst as u8
}

/// Prints a file's errors (or `ok`); returns whether it was invalid.
fn report(out: &mut impl Write, file: &str, errors: Option<&Vec<LevelError>>) -> bool {
    match errors {
        None => {
            let _ = writeln!(out, "ok    {file}");
            false
        }
        Some(errors) => {
            for e in errors {
                let _ = writeln!(out, "{e}");
            }
            true
        }
    }
}

fn unreadable(path: &Path, why: impl std::fmt::Display) -> Outcome {
    eprintln!("{}: cannot read: {why}", path.display());
    Outcome::Unreadable
}

/// Adds a path's level files (and a folder's index) to the job.
fn gather(path: &Path, job: &mut Job) -> Outcome {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) => return unreadable(path, e),
    };
    if !meta.is_dir() {
        if path.file_name().is_some_and(|n| n == INDEX_FILE) {
            let dir = path.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf);
            add_index(path, &dir, job);
            return Outcome::Valid;
        }
        return add_file(path, job);
    }
    let files = match level_files(path) {
        Ok(files) => files,
        Err(e) => return unreadable(path, e),
    };
    let index = path.join(INDEX_FILE);
    if files.is_empty() && !index.is_file() {
        return unreadable(path, "the folder holds no .ron level files");
    }
    if index.is_file() {
        add_index(&index, path, job);
    } else if !files.is_empty() {
        eprintln!(
            "note: {} has no {INDEX_FILE}: its levels are checked, but it is no campaign \
             (`play --levels` and `--headless --levels` need one)",
            path.display()
        );
    }
    files.iter().map(|f| add_file(f, job)).max().unwrap_or(Outcome::Valid)
}

/// The same file named twice (a folder and a file in it) is checked once, not reported as
/// a duplicate id against itself.
fn first_sighting(path: &Path, job: &mut Job) -> bool {
    let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    job.seen.insert(key)
}

fn add_index(index: &Path, dir: &Path, job: &mut Job) {
    if first_sighting(index, job) {
        job.indexes.push((index.to_path_buf(), dir.to_path_buf()));
    }
}

fn add_file(path: &Path, job: &mut Job) -> Outcome {
    if !first_sighting(path, job) {
        return Outcome::Valid;
    }
    match std::fs::read(path) {
        Ok(bytes) => {
            job.levels.push(LevelSource { file: path.display().to_string(), bytes });
            Outcome::Valid
        }
        Err(e) => unreadable(path, e),
    }
}

/// Checks a campaign index against the ids of its folder's levels.
fn check_index(
    index: &Path,
    dir: &Path,
    book: &RecipeBook,
    out: &mut impl Write,
) -> (Outcome, bool) {
    let bytes = match std::fs::read(index) {
        Ok(bytes) => bytes,
        Err(e) => return (unreadable(index, e), false),
    };
    let files = match level_files(dir) {
        Ok(files) => files,
        Err(e) => return (unreadable(dir, e), false),
    };
    let sources: Vec<LevelSource> = files
        .iter()
        .filter_map(|f| {
            let bytes = std::fs::read(f).ok()?;
            Some(LevelSource { file: f.display().to_string(), bytes })
        })
        .collect();
    let known = KnownLevel::of(&sources, &check_level_set(&sources, book));
    let file = index.display().to_string();
    let result = check_campaign(&bytes, &file, &known);
    (Outcome::Valid, report(out, &file, result.as_ref().err()))
}

/// Picks the recipe book: `$UNDERCOOKED_RECIPES`, else `assets/recipes.ron` under the working
/// directory, else under an ancestor of the first path, else the book built into the binary.
fn resolve_book(paths: &[PathBuf], out: &mut impl Write) -> Result<RecipeBook, Outcome> {
    let chosen = match std::env::var_os(RECIPES_ENV) {
        Some(p) => Some(PathBuf::from(p)),
        None => find_book_file(paths),
    };
    let Some(path) = chosen else {
        let _ = writeln!(out, "note: no {RECIPES_PATH} found; using the built-in recipe book");
        return builtin_recipes().map_err(|errors| {
            report(out, RECIPES_PATH, Some(&errors));
            Outcome::Invalid
        });
    };
    let bytes = std::fs::read(&path).map_err(|e| unreadable(&path, e))?;
    parse_recipes(&bytes, &path.display().to_string()).map_err(|errors| {
        report(out, &path.display().to_string(), Some(&errors));
        Outcome::Invalid
    })
}

fn find_book_file(paths: &[PathBuf]) -> Option<PathBuf> {
    let here = PathBuf::from(RECIPES_PATH);
    if here.is_file() {
        return Some(here);
    }
    let first = std::fs::canonicalize(paths.first()?).ok()?;
    first.ancestors().map(|dir| dir.join(RECIPES_PATH)).find(|candidate| candidate.is_file())
}
