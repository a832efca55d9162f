//! Tandem's side of the CLI: the mode switch the shared subcommands take (`--mode`), and
//! `replay record|check|run` for Tandem scripts (`*.tandem.ron`; goldens in
//! `GOLDENS/tandem/NAME.golden.json`), and `replay check` of Tandem bundles
//! (`*.tandem-bundle.ron`). Exit codes as the kitchen's: 0 match, 1 mismatch,
//! 2 missing or invalid.

use super::bundle::{TandemBundle, check_bundle};
use super::script::{
    SCRIPT_SUFFIX, TandemCheck, TandemGolden, TandemScript, check, make_golden, play,
};
use crate::replay::hex::hex;
use crate::replay::verdict;
use std::path::{Path, PathBuf};

/// Which game a shared subcommand plays.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// The kitchen (the default).
    #[default]
    Kitchen,
    /// Tandem: two cooks carrying one couch (docs/TANDEM.md).
    Tandem,
}

/// Whether a path names a Tandem script.
pub fn is_tandem_script(path: &Path) -> bool {
    path.to_string_lossy().ends_with(SCRIPT_SUFFIX)
}

/// A script's golden under a goldens folder.
pub fn golden_path(goldens: &Path, name: &str) -> PathBuf {
    goldens.join("tandem").join(format!("{name}.golden.json"))
}

/// Reads and validates a script.
pub fn load_script(path: &Path) -> Result<TandemScript, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    TandemScript::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads a golden.
pub fn load_golden(path: &Path) -> Result<TandemGolden, String> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        format!("{}: no golden (record one with `undercooked replay record`): {e}", path.display())
    })?;
    serde_json::from_str(&text).map_err(|e| format!("{}: not a Tandem golden: {e}", path.display()))
}

/// `replay record` of a Tandem script: play it and (re)write its golden.
pub fn record(path: &Path, goldens: &Path) -> Result<String, String> {
    let script = load_script(path)?;
    let played = play(&script, script.ticks, true);
    let golden = make_golden(&script, &played);
    let out = golden_path(goldens, &script.name);
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let json = serde_json::to_string_pretty(&golden).map_err(|e| e.to_string())? + "\n";
    std::fs::write(&out, json).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(format!(
        "{}: RE-BLESSED {} ticks ({:?}), final hash {} — commit it only for a deliberate rule change",
        out.display(),
        golden.ticks,
        golden.outcome,
        golden.final_hash
    ))
}

/// `replay check` of a Tandem script; prints the outcome, returns the exit code.
pub fn check_file(path: &Path, goldens: &Path) -> u8 {
    let loaded = load_script(path).and_then(|s| {
        let g = load_golden(&golden_path(goldens, &s.name))?;
        Ok((s, g))
    });
    let (script, golden) = match loaded {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    report_check(path, &check(&script, &golden))
}

/// Prints a chain check; returns the exit code (0 match, 1 mismatch).
pub fn report_check(path: &Path, outcome: &TandemCheck) -> u8 {
    match outcome {
        TandemCheck::Match { ticks, final_hash } => {
            println!("{}: ok, {ticks} ticks, final hash {final_hash}", path.display());
            0
        }
        TandemCheck::Mismatch { tick, golden, replayed, fields_tick, fields } => {
            println!(
                "{}: MISMATCH at tick {tick}: golden {golden}, replayed {replayed}",
                path.display()
            );
            let show = |v: &Option<i64>| v.map_or("absent".to_string(), |v| v.to_string());
            println!("  fields differing at tick {fields_tick}:");
            for (name, g, r) in fields {
                println!("  {name}: golden {}, replayed {}", show(g), show(r));
            }
            1
        }
    }
}

/// `replay check` of a Tandem bundle (`*.tandem-bundle.ron`): parse, re-play, print; the exit
/// code (0 match, 1 mismatch, 2 unreadable or invalid).
pub fn check_bundle_file(path: &Path) -> u8 {
    let checked = verdict::read_and_check(path, "Tandem bundle", |text| {
        TandemBundle::parse(text).and_then(|b| check_bundle(&b).map(|c| (b, c)))
    });
    let (bundle, check) = match checked {
        Ok(v) => v,
        Err(code) => return code,
    };
    let chain_code = report_check(path, &check.chain);
    let code =
        verdict::fold_result_diffs(path, chain_code, &check.result_diffs, "the outcome or score");
    if code == 0 {
        println!(
            "{}: tandem {} run {} ({}), seed {}, {} orders, outcome and score reproduced",
            path.display(),
            bundle.room,
            bundle.round,
            bundle.reason,
            bundle.seed,
            bundle.orders.len()
        );
    }
    code
}

/// `replay run` of a Tandem script: the end state and the score as JSON.
pub fn run_summary(path: &Path) -> Result<serde_json::Value, String> {
    let script = load_script(path)?;
    let played = play(&script, script.ticks, false);
    let room = &played.room;
    Ok(serde_json::json!({
        "script": script.name,
        "mode": "tandem",
        "seed": script.seed,
        "turn_ticks": room.turn_ticks.ticks(),
        "ticks": room.tick,
        "hash": hex(room.hash),
        "course_digest": hex(room.course.digest),
        "outcome": room.outcome(),
        "score": room.score(),
        "damage": room.damage,
        "best_progress_permille": room.best_progress_permille,
        "doorways_passed": room.doorways_passed.count_ones(),
        "doorways": room.course.doorways.len(),
        "stats": room.stats,
    }))
}
