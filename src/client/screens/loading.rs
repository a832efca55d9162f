//! The Loading screen before the title: a bevy_asset_loader `LoadingState` loads the game's
//! content — the recipe book and every level file of the levels folder — through the asset
//! server as [`GameAssets`], with a progress bar drawn from how many of its handles have
//! loaded. Level files are validated as they load (`level::loader`), so a broken level is
//! named in the log before the menu opens; the level select lists the campaign from these
//! assets. A local round still reads its level from disk when it starts, so a level edited
//! while the game runs is played as it is now.

use crate::client::args::Options;
use crate::client::state::AppState;
use crate::client::theme::{BUTTON, GOLD, PLAIN, label, screen, title};
use crate::level::files::{INDEX_FILE, level_files};
use crate::level::loader::{LEVELS_SOURCE, LevelLoaderSettings};
use crate::level::{
    KnownLevel, LevelAsset, LevelPlugin, RecipeBookAsset, check_campaign, file_hash,
};
use crate::sim::kitchen::Level;
use bevy::asset::io::AssetSourceBuilder;
use bevy::asset::{AssetApp, UntypedHandle};
use bevy::prelude::*;
use bevy_asset_loader::prelude::*;
use std::path::{Path, PathBuf};

/// The asset source holding the recipe book's folder: `book://recipes.ron`.
pub const BOOK_SOURCE: &str = "book";

/// Everything the Loading state loads.
#[derive(Resource, Clone, Debug)]
pub struct GameAssets {
    pub book: Handle<RecipeBookAsset>,
    /// Every level file of the levels folder, in file-name order.
    pub levels: Vec<Handle<LevelAsset>>,
}

/// The handles being loaded, kept for the progress bar (bevy_asset_loader keeps its own copy
/// private, and its progress reporting needs `iyes_progress`, which this project does not use).
#[derive(Resource, Clone, Debug, Default)]
pub struct LoadingHandles(pub Vec<UntypedHandle>);

/// Loaded and total handles of the Loading state.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadProgress {
    pub done: usize,
    pub total: usize,
}

/// Mounts the content folders as asset sources, by absolute path: the levels folder as
/// `levels://` and the recipe book's folder as `book://`. Bevy resolves a relative source
/// against the executable's folder when not run by cargo; the command line's paths are relative
/// to where the game was started. Must run before `AssetPlugin` is added.
pub fn register_content_sources(app: &mut App, levels: &Path, recipes: &Path) {
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let book_dir = abs(recipes).parent().map(Path::to_path_buf).unwrap_or_default();
    for (name, dir) in [(LEVELS_SOURCE, abs(levels)), (BOOK_SOURCE, book_dir)] {
        let dir = dir.to_string_lossy().into_owned();
        app.register_asset_source(name, AssetSourceBuilder::platform_default(&dir, None));
    }
}

/// The recipe book's asset path (`book://<file name>`).
fn book_asset_path(recipes: &Path) -> String {
    let name = recipes.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    format!("{BOOK_SOURCE}://{name}")
}

impl bevy_asset_loader::asset_collection::AssetCollection for GameAssets {
    fn create(world: &mut World) -> Self {
        let handles = world.resource::<LoadingHandles>().0.clone();
        let mut handles = handles.into_iter();
        let book = handles.next().map(UntypedHandle::typed).unwrap_or_default();
        GameAssets { book, levels: handles.map(UntypedHandle::typed).collect() }
    }

    fn load(world: &mut World) -> Vec<UntypedHandle> {
        let options = world.resource::<Options>().0.clone();
        let book_path = book_asset_path(&options.recipes);
        let server = world.resource::<AssetServer>().clone();
        let mut handles = vec![server.load::<RecipeBookAsset>(book_path.clone()).untyped()];
        let files = level_files(&options.levels).unwrap_or_else(|e| {
            warn!("cannot list the levels folder {}: {e}", options.levels.display());
            Vec::new()
        });
        for file in files {
            let Some(name) = file.file_name().map(|n| n.to_string_lossy().into_owned()) else {
                continue;
            };
            let book = book_path.clone();
            let handle: Handle<LevelAsset> = server
                .load_builder()
                .with_settings(move |s: &mut LevelLoaderSettings| s.recipes = book.clone())
                .load(format!("{LEVELS_SOURCE}://{name}"));
            handles.push(handle.untyped());
        }
        world.insert_resource(LoadingHandles(handles.clone()));
        handles
    }
}

/// The Loading state, its collection and its screen (the app must have `AppState` and
/// [`Options`], and [`register_content_sources`] must have run before `AssetPlugin`).
pub struct LoadingPlugin;

impl Plugin for LoadingPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<LevelPlugin>() {
            app.add_plugins(LevelPlugin);
        }
        app.init_resource::<LoadProgress>();
        app.add_loading_state(
            LoadingState::new(AppState::Loading)
                .continue_to_state(AppState::Title)
                // An unreadable file: the title anyway; the level select then reads the folder
                // itself and names the problem.
                .on_failure_continue_to_state(AppState::Title)
                .load_collection::<GameAssets>(),
        );
        app.add_systems(OnEnter(AppState::Loading), spawn_loading_screen);
        app.add_systems(
            Update,
            (count_loaded, paint_bar).chain().run_if(in_state(AppState::Loading)),
        );
        app.add_systems(OnExit(AppState::Loading), |mut commands: Commands| {
            commands.remove_resource::<LoadingHandles>();
        });
    }
}

/// Loaded over total handles (a failed load counts as done: nothing more will come of it).
fn count_loaded(
    handles: Option<Res<LoadingHandles>>,
    server: Res<AssetServer>,
    mut progress: ResMut<LoadProgress>,
) {
    let Some(handles) = handles else { return };
    let done = handles
        .0
        .iter()
        .filter(|h| {
            server.is_loaded_with_dependencies(h.id())
                || server.get_load_state(h.id()).is_some_and(|s| s.is_failed())
        })
        .count();
    let next = LoadProgress { done, total: handles.0.len() };
    if *progress != next {
        *progress = next;
    }
}

#[derive(Component)]
struct BarFill;

#[derive(Component)]
struct BarText;

fn spawn_loading_screen(mut commands: Commands) {
    commands.spawn(screen(AppState::Loading, 16.0)).with_children(|p| {
        p.spawn(title("UNDERCOOKED", 56.0));
        p.spawn((
            Node {
                width: px(480),
                height: px(20),
                border: UiRect::all(px(2)),
                border_radius: BorderRadius::all(px(6)),
                ..default()
            },
            BorderColor::all(PLAIN),
            BackgroundColor(BUTTON),
        ))
        .with_child((
            BarFill,
            Node { width: percent(0), height: percent(100), ..default() },
            BackgroundColor(GOLD),
        ));
        p.spawn((BarText, label("loading the recipe book and levels", 18.0, PLAIN)));
    });
}

fn paint_bar(
    progress: Res<LoadProgress>,
    mut fill: Query<&mut Node, With<BarFill>>,
    mut text: Query<&mut Text, With<BarText>>,
) {
    if !progress.is_changed() || progress.total == 0 {
        return;
    }
    let share = progress.done as f32 / progress.total as f32;
    for mut node in &mut fill {
        node.width = percent(share * 100.0);
    }
    for mut t in &mut text {
        t.0 = format!("loading the recipe book and levels: {} / {}", progress.done, progress.total);
    }
}

/// The campaign in play order from the loaded assets and the folder's `index.ron`: every level
/// the index names must have loaded valid and its file must still hash to its entry
/// (LEVEL_NOT_PUBLISHED). A folder without an index is a designer's folder: its valid levels in
/// file-name order, the rule the headless server follows too (`level::load_published`).
pub fn campaign_from_assets(
    assets: &GameAssets,
    levels: &Assets<LevelAsset>,
    levels_dir: &Path,
) -> Result<Vec<Level>, String> {
    let loaded: Vec<&LevelAsset> = assets.levels.iter().filter_map(|h| levels.get(h)).collect();
    let name = |file: &str| file.rsplit('/').next().unwrap_or(file).to_string();
    let stem = |file: &str| {
        let name = name(file);
        name.strip_suffix(".ron").unwrap_or(&name).to_string()
    };
    let id_of = |a: &LevelAsset| a.level().map_or_else(|| stem(&a.file), |l| l.id.clone());
    let index: PathBuf = levels_dir.join(INDEX_FILE);
    let order: Vec<String> = if index.is_file() {
        let known: Vec<KnownLevel> = loaded
            .iter()
            .map(|a| KnownLevel {
                id: id_of(a),
                hash: std::fs::read(levels_dir.join(name(&a.file)))
                    .map(|b| file_hash(&b))
                    .unwrap_or_default(),
            })
            .collect();
        let bytes = std::fs::read(&index).map_err(|e| format!("{}: {e}", index.display()))?;
        check_campaign(&bytes, &index.display().to_string(), &known)
            .map_err(|errors| {
                errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
            })?
            .ids()
    } else {
        loaded.iter().filter(|a| a.level().is_some()).map(|a| id_of(a)).collect()
    };
    let mut campaign = Vec::new();
    for id in order {
        let Some(asset) = loaded.iter().find(|a| id_of(a) == id) else { continue };
        match &asset.result {
            Ok(level) => campaign.push(level.clone()),
            Err(errors) => {
                let first = errors.first().map(ToString::to_string).unwrap_or_default();
                return Err(format!("{} has {} problem(s): {first}", asset.file, errors.len()));
            }
        }
    }
    Ok(campaign)
}
