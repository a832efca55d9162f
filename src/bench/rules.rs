//! The rules half of `bench compare`: every golden's script (the kitchen's and Tandem's) and a
//! set of seeded random rounds on every campaign level, recorded by each build in its own tree
//! (`replay record` into a folder of its own), then the two recordings held side by side: the
//! same hash chain, or the first tick where they part and the fields that differ there.

use super::compare_error::CompareError;
use super::trees::Side;
use crate::bot::random::RandomCooks;
use crate::level::cli::{DEFAULT_LEVELS_DIR, RECIPES_PATH};
use crate::level::{load_campaign, load_recipes_file};
use crate::replay::golden::{FieldDelta, diff_fields, fields_at};
use crate::replay::script::{InputScript, ScriptFrame};
use crate::sim::assist::Assist;
use crate::sim::units::MAX_COOKS;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One round both builds play.
#[derive(Clone, Debug)]
pub struct Round {
    pub name: String,
    pub script: PathBuf,
}

/// How one round came out on the two builds.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// Every hash the same, to the last tick.
    Same { ticks: u32 },
    /// The hash chains part at `tick`; `fields` is what differs at `fields_tick`, the first
    /// tick at or after it where the field logs differ (the logs are sparser than the chain).
    Parted { tick: u32, fields_tick: Option<u32>, fields: Vec<FieldChange> },
    /// One build could not play it (a level or script the other tree lacks): named, not hidden.
    Unplayable { side: String, reason: String },
}

/// One field at the first tick the logs differ.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct FieldChange {
    pub field: String,
    pub base: Option<i64>,
    pub head: Option<i64>,
}

/// The golden scripts of `tree` and `seeds` random rounds of `ticks` on every level of its
/// campaign, written under `scratch/random/`.
pub fn rounds(
    tree: &Path,
    scratch: &Path,
    seeds: u32,
    ticks: u32,
) -> Result<Vec<Round>, CompareError> {
    let mut out = Vec::new();
    for dir in ["goldens/scripts", "goldens/tandem/scripts"] {
        let dir = tree.join(dir);
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .collect();
        files.sort();
        for script in files {
            let file = script.file_name().map(|s| s.to_string_lossy().to_string());
            let file = file.unwrap_or_default();
            let name = file.trim_end_matches(".ron").trim_end_matches(".tandem").to_string();
            out.push(Round { name, script });
        }
    }
    let book = load_recipes_file(&tree.join(RECIPES_PATH))
        .map_err(|e| CompareError::Campaign(e.to_string()))?;
    let campaign = load_campaign(&tree.join(DEFAULT_LEVELS_DIR), &book)
        .map_err(|e| CompareError::Campaign(e.to_string()))?;
    let dir = scratch.join("random");
    std::fs::create_dir_all(&dir).map_err(CompareError::io(&dir))?;
    for level in &campaign {
        for seed in 1..=u64::from(seeds) {
            let script = random_script(&level.id, seed, ticks);
            let path = dir.join(format!("{}.ron", script.name));
            std::fs::write(&path, script.to_ron()).map_err(CompareError::io(&path))?;
            out.push(Round { name: script.name, script: path });
        }
    }
    Ok(out)
}

/// A round of four seeded random cooks (the bench's and the soak's input source) as a script,
/// runs of equal frames folded into `repeat`.
pub fn random_script(level: &str, seed: u64, ticks: u32) -> InputScript {
    let seats = MAX_COOKS as u8;
    let mut cooks = RandomCooks::new(seed, seats);
    let mut frames: Vec<ScriptFrame> = Vec::new();
    let mut last: Vec<Option<usize>> = vec![None; seats as usize];
    for tick in 0..ticks {
        for s in 0..seats {
            let f = cooks.frame(s as usize, tick);
            let frame = ScriptFrame {
                tick,
                seat: s,
                mv: f.mv,
                action: f.action,
                face: f.face,
                dash: f.dash,
                repeat: 1,
            };
            if let Some(i) = last[s as usize] {
                let prev = &mut frames[i];
                let same = (prev.mv, prev.action, prev.face, prev.dash)
                    == (frame.mv, frame.action, frame.face, frame.dash);
                if same && prev.tick + prev.repeat == tick {
                    prev.repeat += 1;
                    continue;
                }
            }
            last[s as usize] = Some(frames.len());
            frames.push(frame);
        }
    }
    frames.sort_by_key(|f| (f.tick, f.seat));
    InputScript {
        name: format!("random_{level}_{seed}"),
        level: level.to_string(),
        seed,
        seats: Some(seats),
        record_every: 1,
        ticks: Some(ticks),
        items: Vec::new(),
        frames,
        assist: Assist::default(),
        survival: false,
    }
}

/// Records `round` with `side`'s build in its tree, into `out/`; the recording's JSON.
pub fn record(side: &Side, round: &Round, out: &Path) -> Result<serde_json::Value, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let result = Command::new(&side.bin)
        .current_dir(&side.tree)
        .arg("replay")
        .arg("--goldens")
        .arg(out)
        .arg("record")
        .arg(&round.script)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", side.bin.display()))?;
    if !result.status.success() {
        return Err(String::from_utf8_lossy(&result.stderr).trim().to_string());
    }
    // The kitchen's goldens go into the folder, Tandem's into its `tandem/`.
    let file = [out.to_path_buf(), out.join("tandem")]
        .iter()
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.to_string_lossy().ends_with(".golden.json"))
        .ok_or_else(|| format!("`replay record` wrote no golden into {}", out.display()))?;
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))
}

/// A recording's hash chain as (tick, hash): the kitchen's `[tick, hash]` pairs, or Tandem's
/// one hash per tick from tick 0.
fn chain(golden: &serde_json::Value) -> Vec<(u32, String)> {
    let Some(hashes) = golden.get("hashes").and_then(|h| h.as_array()) else { return Vec::new() };
    hashes
        .iter()
        .enumerate()
        .filter_map(|(i, h)| match h {
            serde_json::Value::String(s) => Some((i as u32, s.clone())),
            serde_json::Value::Array(pair) => {
                Some((pair.first()?.as_u64()? as u32, pair.get(1)?.as_str()?.to_string()))
            }
            _ => None,
        })
        .collect()
}

fn field_log(golden: &serde_json::Value) -> Vec<FieldDelta> {
    golden.get("fields").and_then(|f| serde_json::from_value(f.clone()).ok()).unwrap_or_default()
}

/// The two recordings of one round, held side by side.
pub fn verdict(base: &serde_json::Value, head: &serde_json::Value) -> Verdict {
    let (b, h) = (chain(base), chain(head));
    let parted = b
        .iter()
        .zip(&h)
        .find(|(x, y)| x != y)
        .map(|(x, y)| x.0.min(y.0))
        // One chain ends earlier (the round ended on another tick): they part after the shorter.
        .or_else(|| (b.len() != h.len()).then(|| b.len().min(h.len()) as u32));
    let Some(tick) = parted else {
        return Verdict::Same { ticks: b.last().map_or(0, |(t, _)| *t) };
    };
    let (lb, lh) = (field_log(base), field_log(head));
    let mut logged: Vec<u32> =
        lb.iter().chain(&lh).map(|d| d.tick).filter(|t| *t >= tick).collect();
    logged.sort_unstable();
    logged.dedup();
    for at in logged {
        let diffs = diff_fields(&fields_at(&lb, at), &fields_at(&lh, at));
        if !diffs.is_empty() {
            let fields = diffs
                .into_iter()
                .map(|d| FieldChange { field: d.field, base: d.golden, head: d.replayed })
                .collect();
            return Verdict::Parted { tick, fields_tick: Some(at), fields };
        }
    }
    Verdict::Parted { tick, fields_tick: None, fields: Vec::new() }
}
