//! `undercooked edit FILE [--new WxH]`: the kitchen is read (or made) before a window opens,
//! so a missing or unreadable file ends with its reason, and the window opens on the editor.

use super::doc::EditorDoc;
use crate::client::args::PlayArgs;
use crate::client::state::AppState;
use crate::level::edit::KitchenDoc;
use crate::level::edit::document::parse_size;
use crate::level::edit::save::is_draft;
use crate::level::{builtin_recipes, load_recipes_file};
use crate::sim::recipe_book::RecipeBook;
use bevy::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `undercooked edit`.
#[derive(clap::Args, Clone, Debug)]
pub struct EditArgs {
    /// The level file to edit (with `--new`, the file the new kitchen is saved to).
    pub file: PathBuf,
    /// A new kitchen of this size (WIDTHxHEIGHT, e.g. 9x7): walls round floor.
    #[arg(long, value_name = "WxH")]
    pub new: Option<String>,
    /// Bots beside the designer in a Playtest (0–3).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=3))]
    pub bots: u8,
    /// Timed input events (key, pointer and button events, `client::editor::script`) fed to
    /// the window as if typed, then a report and exit: how the tests drive the editor.
    #[arg(long)]
    pub script: Option<PathBuf>,
    /// With `--script`: a screenshot of the editor once the script has run.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Window size in physical pixels, WxH.
    #[arg(long, default_value = "1280x720")]
    pub size: String,
    /// The recipe book the kitchen is checked against.
    #[arg(long, default_value = "assets/recipes.ron")]
    pub recipes: PathBuf,
    /// Folder of level files (the game's, for Playtest's loading screen).
    #[arg(long, default_value = "levels")]
    pub levels: PathBuf,
}

/// Why the editor did not open (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("{0}")]
    Size(#[from] crate::level::edit::NewKitchenError),
    #[error("--size `{0}`: expected WxH, e.g. 1280x720")]
    WindowSize(String),
    #[error("{}: the file exists; edit it without --new", .0.display())]
    Exists(PathBuf),
    #[error("{}: cannot read: {source}; to start a kitchen there, add --new WxH", path.display())]
    Unreadable { path: PathBuf, source: std::io::Error },
    #[error("{0}")]
    NotALevel(String),
    #[error("no recipe book: {0}")]
    Book(String),
}

/// The book at `path`, else the one built into the binary when there is no file there.
fn read_book(path: &Path) -> Result<RecipeBook, OpenError> {
    if path.exists() {
        return load_recipes_file(path).map_err(|e| OpenError::Book(e.to_string()));
    }
    builtin_recipes().map_err(|e| OpenError::Book(format!("{e:?}")))
}

/// The document the window opens on, and the window's arguments.
pub fn open_doc(args: &EditArgs) -> Result<(EditorDoc, PlayArgs), OpenError> {
    let size = parse_window(&args.size).ok_or_else(|| OpenError::WindowSize(args.size.clone()))?;
    let new = args.new.as_deref().map(parse_size).transpose()?;
    let doc = open_kitchen(&args.file, new, &args.recipes, args.bots)?;
    let play = PlayArgs {
        size,
        bots: args.bots,
        levels: args.levels.clone(),
        recipes: args.recipes.clone(),
        ..PlayArgs::default()
    };
    Ok((doc, play))
}

/// The kitchen in `file` (a draft's text when `file` is `NAME.draft.ron`, saved to `NAME.ron`),
/// or a new `new`-sized one saved to `file`, checked against the book at `recipes`: what
/// `edit FILE` and the main menu's workshop both open.
pub fn open_kitchen(
    file: &Path,
    new: Option<(usize, usize)>,
    recipes: &Path,
    bots: u8,
) -> Result<EditorDoc, OpenError> {
    let book = Arc::new(read_book(recipes)?);
    let label = file.display().to_string();
    let doc = match new {
        Some(size) => {
            if file.exists() {
                return Err(OpenError::Exists(file.to_path_buf()));
            }
            let id = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            KitchenDoc::new_blank(&id, size, book, &label)
        }
        None => {
            let bytes = std::fs::read(file)
                .map_err(|source| OpenError::Unreadable { path: file.to_path_buf(), source })?;
            KitchenDoc::from_text(&bytes, &label, book).map_err(|errors| {
                let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
                OpenError::NotALevel(lines.join("\n"))
            })?
        }
    };
    // A draft is the unfinished edit of its level: saving goes to the level's file (and back
    // to the draft while the kitchen has problems).
    let path = if is_draft(file) { level_of_draft(file) } else { file.to_path_buf() };
    Ok(EditorDoc::new(doc, path, bots))
}

/// `levels/x.draft.ron` → `levels/x.ron`.
fn level_of_draft(draft: &Path) -> PathBuf {
    let name = draft.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let stem = name.strip_suffix(".draft.ron").unwrap_or(&name);
    draft.with_file_name(format!("{stem}.ron"))
}

fn parse_window(s: &str) -> Option<(u32, u32)> {
    let (w, h) = s.split_once('x')?;
    let (w, h) = (w.parse().ok()?, h.parse().ok()?);
    (w >= 320 && h >= 240).then_some((w, h))
}

/// `undercooked edit`: the window goes past the title straight into the editor, once.
#[derive(Resource, Clone, Copy, Debug)]
pub struct OpenEditorAtStart;

/// On the title: into the editor when `edit` opened the window.
pub(super) fn skip_title(
    mut commands: Commands,
    start: Option<Res<OpenEditorAtStart>>,
    mut next: ResMut<NextState<AppState>>,
) {
    if start.is_some() {
        commands.remove_resource::<OpenEditorAtStart>();
        next.set(AppState::Editor);
    }
}
