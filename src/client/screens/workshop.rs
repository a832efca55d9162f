//! The main menu's "Kitchen workshop": a chooser of what to edit — a new kitchen of a size
//! stepped with Left / Right, and every level file in the levels folder with its draft — then
//! the editor (`client::editor`) on it. Steered like every menu screen (`nav`); Esc, or Back,
//! returns to the main menu, and Esc in the editor comes back to the main menu too.

use crate::client::args::Options;
use crate::client::editor::open::open_kitchen;
use crate::client::screens::nav::{Cursor, MenuAction, MenuChoice, spawn_item, spawn_two_columns};
use crate::client::state::AppState;
use crate::client::theme::{ERROR, label, screen, title};
use crate::level::edit::save::is_draft;
use bevy::prelude::*;
use std::path::{Path, PathBuf};

/// The sizes a new kitchen steps through (Left / Right on its line).
pub const NEW_SIZES: [(usize, usize); 5] = [(7, 5), (9, 7), (11, 7), (13, 9), (15, 11)];

/// The new kitchen's size: an index into [`NEW_SIZES`] (9×7 at first).
#[derive(Resource, Clone, Copy, Debug)]
pub struct NewSize(pub usize);

impl Default for NewSize {
    fn default() -> Self {
        NewSize(1)
    }
}

/// Why the chosen kitchen did not open, on the chooser.
#[derive(Resource, Default, Debug)]
struct OpenRefusal(Option<String>);

/// The chooser's error line.
#[derive(Component)]
struct RefusalText;

/// The workshop's chooser, and its lines' answers.
pub struct WorkshopPlugin;

impl Plugin for WorkshopPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<NewSize>().init_resource::<OpenRefusal>();
        app.add_observer(answer_workshop);
        app.add_systems(OnEnter(AppState::Workshop), spawn_workshop);
        app.add_systems(Update, paint_refusal.run_if(in_state(AppState::Workshop)));
    }
}

/// The new kitchen's line.
pub fn new_kitchen_label((w, h): (usize, usize)) -> String {
    format!("New kitchen  < {w}x{h} >")
}

/// The level files in `folder` (drafts among them), by name.
pub fn level_files(folder: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(folder) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .filter(|p| p.file_name().is_some_and(|n| n != "index.ron"))
        .collect();
    files.sort();
    files
}

/// The first `new_kitchen_N.ron` not yet in `folder`.
pub fn free_new_path(folder: &Path) -> PathBuf {
    (1..)
        .map(|n| folder.join(format!("new_kitchen_{n}.ron")))
        .find(|p| !p.exists() && !crate::level::edit::draft_path(p).exists())
        .unwrap_or_else(|| folder.join("new_kitchen.ron"))
}

fn spawn_workshop(
    mut commands: Commands,
    mut cursor: ResMut<Cursor>,
    options: Res<Options>,
    size: Res<NewSize>,
    mut refusal: ResMut<OpenRefusal>,
) {
    cursor.0 = 0;
    refusal.0 = None;
    let files = level_files(&options.0.levels);
    let rows: Vec<(MenuAction, String)> = files
        .into_iter()
        .map(|path| {
            let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into());
            let line = if is_draft(&path) { format!("{name}  (draft)") } else { name };
            (MenuAction::EditKitchen(path), line)
        })
        .collect();
    let sized = NEW_SIZES[size.0 % NEW_SIZES.len()];
    commands.spawn(screen(AppState::Workshop, 8.0)).with_children(|p| {
        p.spawn(title("Kitchen workshop", 40.0));
        spawn_item(p, 0, MenuAction::NewKitchen, new_kitchen_label(sized), (px(420), 20.0));
        let index = spawn_two_columns(p, 1, rows, px(900));
        spawn_item(p, index, MenuAction::Back, "Back".into(), (px(420), 20.0));
        p.spawn((RefusalText, label("", 16.0, ERROR)));
    });
}

/// A file chosen: the editor on it; the new kitchen's line: its size stepped (Left / Right)
/// or, confirmed, the editor on a new kitchen saved as the first free `new_kitchen_N.ron`.
fn answer_workshop(
    choice: On<MenuChoice>,
    options: Res<Options>,
    mut size: ResMut<NewSize>,
    mut refusal: ResMut<OpenRefusal>,
    mut items: Query<&mut crate::client::screens::nav::MenuItem>,
    mut next: ResMut<NextState<AppState>>,
    mut commands: Commands,
) {
    let o = &options.0;
    let opened = match &choice.action {
        MenuAction::NewKitchen if choice.stepped => {
            let n = NEW_SIZES.len();
            size.0 = if choice.left { (size.0 + n - 1) % n } else { (size.0 + 1) % n };
            for mut item in &mut items {
                if item.action == MenuAction::NewKitchen {
                    item.label = new_kitchen_label(NEW_SIZES[size.0]);
                }
            }
            return;
        }
        MenuAction::NewKitchen => {
            let path = free_new_path(&o.levels);
            open_kitchen(&path, Some(NEW_SIZES[size.0 % NEW_SIZES.len()]), &o.recipes, o.bots)
        }
        MenuAction::EditKitchen(path) => open_kitchen(path, None, &o.recipes, o.bots),
        _ => return,
    };
    match opened {
        Ok(doc) => {
            println!("workshop: editing {}", doc.path.display());
            commands.insert_resource(doc);
            next.set(AppState::Editor);
        }
        Err(e) => {
            println!("workshop: not opened: {e}");
            refusal.0 = Some(e.to_string());
        }
    }
}

fn paint_refusal(refusal: Res<OpenRefusal>, mut text: Query<&mut Text, With<RefusalText>>) {
    if !refusal.is_changed() {
        return;
    }
    for mut t in &mut text {
        t.0 = refusal.0.clone().unwrap_or_default();
    }
}
