//! A generated kitchen played in the window: the daily kitchen (`play --daily [--date D]`, the
//! menu's "Daily kitchen") and a random one (the menu's "Random kitchen"), drawn and proved by
//! `bot::generate` against the window's recipe book; a random one can be saved into the
//! workshop folder (`levels/`) as an ordinary level file.
//!
//! The day and the random seed come from the wall clock here, at the menu's edge; the kitchen
//! itself is a pure function of them (docs/LEVELS.md, "Generated kitchens").

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use crate::bot::generate::generate;
use crate::bot::level_cli::day_of;
use crate::level::generate::{Date, GenerateOptions, Size, daily_options};
use crate::level::load_recipes_file;
use crate::sim::kitchen::Level;

/// Which generated kitchen the window holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KitchenKind {
    Daily(Date),
    Random(u64),
}

/// The generated kitchen the next local round plays when [`super::SelectedLevel`] names it.
#[derive(Resource, Clone, Debug)]
pub struct GeneratedKitchen {
    pub kind: KitchenKind,
    pub level: Level,
    pub text: String,
}

/// What the menu says about a saved (or unsaved) random kitchen.
#[derive(Resource, Clone, Debug, Default)]
pub struct SavedNote(pub Option<String>);

/// Draws the kitchen for `opts` with the recipe book at `recipes`.
fn draw(
    kind: KitchenKind,
    opts: &GenerateOptions,
    recipes: &Path,
) -> Result<GeneratedKitchen, String> {
    let book = load_recipes_file(recipes).map_err(|e| e.to_string())?;
    let g = generate(opts, &book).map_err(|e| e.to_string())?;
    Ok(GeneratedKitchen { kind, level: g.level, text: g.text })
}

/// The daily kitchen of `date` (`YYYY-MM-DD`), or of today by the wall clock.
pub fn draw_daily(date: Option<&str>, recipes: &Path) -> Result<GeneratedKitchen, String> {
    let date = day_of(date)?;
    draw(KitchenKind::Daily(date), &daily_options(date), recipes)
}

/// A random kitchen: a fresh seed from the wall clock (1 to 999 999, short enough to say aloud),
/// the medium size, the seed's own dishes and no hazards.
pub fn draw_random(recipes: &Path) -> Result<GeneratedKitchen, String> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let seed = (nanos % 999_999) as u64 + 1;
    let opts = GenerateOptions { seed, size: Size::M, dishes: Vec::new(), hazards: Vec::new() };
    draw(KitchenKind::Random(seed), &opts, recipes)
}

/// Writes the kitchen into `levels` as `ID.ron` (never over an existing file) and says what
/// a hosted server needs before it runs it.
pub fn save_into(kitchen: &GeneratedKitchen, levels: &Path) -> Result<String, String> {
    let path: PathBuf = levels.join(format!("{}.ron", kitchen.level.id));
    if path.exists() {
        return Err(format!("{} is already there", path.display()));
    }
    std::fs::create_dir_all(levels).map_err(|e| format!("{}: {e}", levels.display()))?;
    std::fs::write(&path, &kitchen.text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(format!(
        "Saved {}. A hosted server runs it only once published: undercooked level publish {}",
        path.display(),
        path.display()
    ))
}
