//! `undercooked replay record|check|run`: the one-command contract around goldens.
//!
//! Exit codes: 0 everything matched (or was recorded / run), 1 a golden mismatch, 2 a missing
//! or invalid script, level or golden.

use super::golden::{CheckOutcome, Golden};
use super::hex::hex;
use super::script::InputScript;
use super::{compare, make_golden, run_script};
use crate::level::cli::{RECIPES_ENV, RECIPES_PATH};
use crate::level::files::{find_level, load_recipes_file};
use crate::level::recipes::builtin_recipes;
use crate::sim::kitchen::Level;
use crate::sim::recipe_book::RecipeBook;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where a replay command finds its inputs.
#[derive(Clone, Debug)]
pub struct ReplayPaths {
    pub levels: PathBuf,
    pub goldens: PathBuf,
}

/// A failure that is not a mismatch: exit 2, with the reason.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("{}: cannot read the script: {source}", path.display())]
    ScriptUnreadable { path: PathBuf, source: std::io::Error },
    #[error("{}: {}", path.display(), reasons.join("; "))]
    ScriptInvalid { path: PathBuf, reasons: Vec<String> },
    #[error("level `{level}`: {reason}")]
    Level { level: String, reason: String },
    #[error("recipe book: {0}")]
    Recipes(String),
    #[error("{}: no golden (record one with `undercooked replay record`): {source}", path.display())]
    GoldenMissing { path: PathBuf, source: std::io::Error },
    #[error("{}: not a golden: {reason}", path.display())]
    GoldenInvalid { path: PathBuf, reason: String },
    #[error("{}: cannot write the golden: {source}", path.display())]
    GoldenUnwritable { path: PathBuf, source: std::io::Error },
}

/// The recipe book: `$UNDERCOOKED_RECIPES`, else `assets/recipes.ron`, else the built-in one.
pub fn recipe_book() -> Result<RecipeBook, ReplayError> {
    recipe_book_source().map(|(book, _)| book)
}

/// The recipe book and the text it was compiled from (a replay bundle carries the text).
pub fn recipe_book_source() -> Result<(RecipeBook, String), ReplayError> {
    let path =
        std::env::var_os(RECIPES_ENV).map(PathBuf::from).unwrap_or_else(|| RECIPES_PATH.into());
    if path.is_file() {
        let book = load_recipes_file(&path).map_err(|e| ReplayError::Recipes(e.to_string()))?;
        let text = std::fs::read_to_string(&path)
            .map_err(|e| ReplayError::Recipes(format!("{}: {e}", path.display())))?;
        return Ok((book, text));
    }
    builtin_recipes()
        .map(|book| (book, crate::level::recipes::BUILTIN_RECIPES_RON.to_string()))
        .map_err(|e| ReplayError::Recipes(format!("{} problems in the built-in book", e.len())))
}

/// A script, its level and book, ready to run.
pub struct Loaded {
    pub script: InputScript,
    pub level: Arc<Level>,
    pub book: Arc<RecipeBook>,
}

/// Read and validate a script and resolve its level.
pub fn load(path: &Path, paths: &ReplayPaths) -> Result<Loaded, ReplayError> {
    let text = std::fs::read_to_string(path)
        .map_err(|source| ReplayError::ScriptUnreadable { path: path.into(), source })?;
    let script = InputScript::parse(&text).map_err(|e| ReplayError::ScriptInvalid {
        path: path.into(),
        reasons: vec![e.to_string()],
    })?;
    let book = recipe_book()?;
    let level = find_level(&paths.levels, &script.level, &book)
        .map_err(|e| ReplayError::Level { level: script.level.clone(), reason: e.to_string() })?;
    script.validate(level.stations.len()).map_err(|errors| ReplayError::ScriptInvalid {
        path: path.into(),
        reasons: errors.iter().map(ToString::to_string).collect(),
    })?;
    Ok(Loaded { script, level: Arc::new(level), book: Arc::new(book) })
}

fn golden_path(paths: &ReplayPaths, script: &InputScript) -> PathBuf {
    paths.goldens.join(format!("{}.golden.json", script.name))
}

/// Read a committed golden.
pub fn read_golden(path: &Path) -> Result<Golden, ReplayError> {
    let text = std::fs::read_to_string(path)
        .map_err(|source| ReplayError::GoldenMissing { path: path.into(), source })?;
    serde_json::from_str(&text)
        .map_err(|e| ReplayError::GoldenInvalid { path: path.into(), reason: e.to_string() })
}

/// `replay record`: run the script and (re)write its golden. This is the manual re-bless.
pub fn record(script_path: &Path, paths: &ReplayPaths) -> Result<String, ReplayError> {
    let l = load(script_path, paths)?;
    let run = run_script(l.level, l.book, &l.script, l.script.run_ticks(), true);
    let golden = make_golden(&l.script, &run);
    let path = golden_path(paths, &l.script);
    let mut json = serde_json::to_string_pretty(&golden).unwrap_or_default();
    json.push('\n');
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|source| ReplayError::GoldenUnwritable { path: path.clone(), source })?;
    }
    std::fs::write(&path, json)
        .map_err(|source| ReplayError::GoldenUnwritable { path: path.clone(), source })?;
    Ok(format!(
        "{}: RE-BLESSED {} ticks, final hash {} — commit it only for a deliberate sim-contract change",
        path.display(),
        golden.ticks,
        golden.final_hash
    ))
}

/// `replay check`: run the script for the golden's ticks and compare every recorded hash.
pub fn check(script_path: &Path, paths: &ReplayPaths) -> Result<CheckOutcome, ReplayError> {
    let l = load(script_path, paths)?;
    let golden = read_golden(&golden_path(paths, &l.script))?;
    let run = run_script(l.level, l.book, &l.script, golden.ticks, true);
    Ok(compare(&golden, &run))
}

/// `replay run`: the final state summary and the round's result payload.
pub fn run_summary(
    script_path: &Path,
    paths: &ReplayPaths,
) -> Result<(serde_json::Value, serde_json::Value), ReplayError> {
    let l = load(script_path, paths)?;
    let run = run_script(l.level.clone(), l.book, &l.script, l.script.run_ticks(), false);
    let room = &run.room;
    let summary = serde_json::json!({
        "script": l.script.name,
        "level_id": l.level.id,
        "seed": l.script.seed,
        "ticks": room.tick,
        "hash": hex(room.hash),
        "cooks": room.cooks.iter().map(|c| serde_json::json!({
            "seat": c.seat,
            "name": c.name,
            "x": c.pos.x,
            "y": c.pos.y,
            "facing": format!("{:?}", c.facing),
            "held": c.held.map(|i| i.0),
        })).collect::<Vec<_>>(),
        "items": room.items.len(),
        "events": run.events.iter().map(|(t, e)| format!("{t}: {e:?}")).collect::<Vec<_>>(),
        "counters": {
            "created": room.counters.created,
            "destroyed": room.counters.destroyed,
            "trashed": room.counters.trashed,
            "served": room.counters.served,
            "missed": room.counters.missed,
            "wasted": room.counters.wasted,
        },
        "score": room.score,
        "orders": room.orders.iter().map(|o| o.id).collect::<Vec<_>>(),
        "plates": { "clean": room.plates_clean, "dirty": room.plates_dirty },
    });
    Ok((summary, crate::report::result_payload(room)))
}

/// Print a check outcome; returns the exit code.
pub fn report_check(script: &Path, outcome: &CheckOutcome) -> u8 {
    match outcome {
        CheckOutcome::Match { ticks, final_hash } => {
            println!("{}: ok, {ticks} ticks, final hash {}", script.display(), hex(*final_hash));
            0
        }
        CheckOutcome::Mismatch { tick, golden, replayed, fields } => {
            println!(
                "{}: MISMATCH at tick {tick}: golden {golden}, replayed {replayed}",
                script.display()
            );
            let show = |v: &Option<i64>| v.map_or("absent".to_string(), |v| v.to_string());
            for f in fields {
                println!(
                    "  {}: golden {}, replayed {}",
                    f.field,
                    show(&f.golden),
                    show(&f.replayed)
                );
            }
            1
        }
    }
}
