//! The golden check for wasm32: replays one input script and compares its hash chain with the
//! committed golden, exactly as `undercooked replay check` does natively (same `run_script`,
//! same `compare`). No file system in a browser or a wasm module, so the caller (the node
//! harness `web/check-goldens.mjs`) reads the files and passes their text in. Tandem's
//! goldens (issue 21) go through [`check_tandem`], the same `tandem::script::check` as
//! `undercooked replay check` on a `*.tandem.ron`.

use undercooked::level::compile::parse_level;
use undercooked::level::recipes::{builtin_recipes, parse_recipes};
use undercooked::replay::golden::{CheckOutcome, Golden};
use undercooked::replay::hex::hex;
use undercooked::replay::script::InputScript;
use undercooked::replay::{compare, run_script};
use undercooked::tandem::script::{
    TandemCheck, TandemGolden, TandemScript, check as check_tandem_run,
};
use wasm_bindgen::prelude::*;

use serde_json::{Value, json};
use std::sync::Arc;

/// The level reference a script names (a level id, or a path to a level file), so the harness
/// knows which file to read: `""` when the script does not parse.
#[wasm_bindgen]
pub fn script_level(script_ron: &str) -> String {
    InputScript::parse(script_ron).map(|s| s.level).unwrap_or_default()
}

/// The target this was compiled for, printed by the harness so a log shows it really ran
/// wasm32 code.
#[wasm_bindgen]
pub fn target_arch() -> String {
    std::env::consts::ARCH.to_string()
}

/// Checks one script against its golden. Returns one JSON object: `{"ok": true, "ticks",
/// "final_hash"}` on a match; `{"ok": false, "tick", "golden", "replayed", "fields"}` on a
/// mismatch; `{"ok": false, "error"}` when an input does not parse. An empty `recipes_ron`
/// means the built-in book (as natively without `assets/recipes.ron`).
#[wasm_bindgen]
pub fn check(script_ron: &str, golden_json: &str, level_ron: &str, recipes_ron: &str) -> String {
    match check_value(script_ron, golden_json, level_ron, recipes_ron) {
        Ok(v) => v.to_string(),
        Err(e) => json!({"ok": false, "error": e}).to_string(),
    }
}

/// [`check`] as a Rust value (the rlib side, for a native cross-check).
pub fn check_value(
    script_ron: &str,
    golden_json: &str,
    level_ron: &str,
    recipes_ron: &str,
) -> Result<Value, String> {
    let script = InputScript::parse(script_ron).map_err(|e| format!("script: {e}"))?;
    let book = if recipes_ron.is_empty() {
        builtin_recipes()
    } else {
        parse_recipes(recipes_ron.as_bytes(), "recipes.ron")
    }
    .map_err(|e| format!("recipes: {} problems", e.len()))?;
    let level = parse_level(level_ron.as_bytes(), &script.level, &book)
        .map_err(|e| format!("level {}: {} problems", script.level, e.len()))?;
    script.validate(level.stations.len()).map_err(|e| {
        format!("script: {}", e.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))
    })?;
    let golden: Golden = serde_json::from_str(golden_json).map_err(|e| format!("golden: {e}"))?;
    if golden.name != script.name {
        return Err(format!("golden is `{}`, script is `{}`", golden.name, script.name));
    }
    let run = run_script(Arc::new(level), Arc::new(book), &script, golden.ticks, true);
    Ok(match compare(&golden, &run) {
        CheckOutcome::Match { ticks, final_hash } => {
            json!({"ok": true, "ticks": ticks, "final_hash": hex(final_hash)})
        }
        CheckOutcome::Mismatch { tick, golden, replayed, fields } => json!({
            "ok": false,
            "tick": tick,
            "golden": golden,
            "replayed": replayed,
            "fields": fields.iter().map(|f| json!({
                "field": f.field, "golden": f.golden, "replayed": f.replayed,
            })).collect::<Vec<_>>(),
        }),
    })
}

/// Checks one Tandem script (`*.tandem.ron`) against its golden, as `replay check` does
/// natively: the same JSON answers as [`check`] (`{"ok": true, "ticks", "final_hash"}`, a
/// mismatch with its tick, hashes and differing fields, or `{"ok": false, "error"}`).
#[wasm_bindgen]
pub fn check_tandem(script_ron: &str, golden_json: &str) -> String {
    match check_tandem_value(script_ron, golden_json) {
        Ok(v) => v.to_string(),
        Err(e) => json!({"ok": false, "error": e}).to_string(),
    }
}

/// [`check_tandem`] as a Rust value.
pub fn check_tandem_value(script_ron: &str, golden_json: &str) -> Result<Value, String> {
    let script = TandemScript::parse(script_ron).map_err(|e| format!("script: {e}"))?;
    let golden: TandemGolden =
        serde_json::from_str(golden_json).map_err(|e| format!("golden: {e}"))?;
    if golden.name != script.name {
        return Err(format!("golden is `{}`, script is `{}`", golden.name, script.name));
    }
    Ok(match check_tandem_run(&script, &golden) {
        TandemCheck::Match { ticks, final_hash } => {
            json!({"ok": true, "ticks": ticks, "final_hash": final_hash})
        }
        TandemCheck::Mismatch { tick, golden, replayed, fields, .. } => json!({
            "ok": false,
            "tick": tick,
            "golden": golden,
            "replayed": replayed,
            "fields": fields.iter().map(|(field, g, r)| json!({
                "field": field, "golden": g, "replayed": r,
            })).collect::<Vec<_>>(),
        }),
    })
}
