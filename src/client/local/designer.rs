//! Designer mode (`undercooked play --level ID --designer`): the level's folder and the recipe
//! book are polled by [`LevelWatchPlugin`]; a saved edit restarts the level's room between ticks
//! with the same seats and seed ([`DesignerPlugin`]); a broken edit is listed in a red overlay at
//! the top of the window while the last good version keeps running, and fixing it clears the
//! overlay. F2 toggles grid coordinates and station indices; F5 restarts with a new seed.

use crate::client::args::Options;
use crate::client::local::{
    DesignerLevel, LocalGame, RoundPhase, RoundSeed, restart_local_round, set_phase,
};
use crate::client::state::AppState;
use crate::client::theme::font;
use crate::level::error::LevelError;
use crate::level::watch::{DesignerPlugin, LevelLibrary, LevelWatchConfig, LevelWatchPlugin};
use crate::level::{load_level_file, load_recipes_file};
use crate::protocol::{GridView, InRoom, StationView};
use crate::sim::room::Room;
use bevy::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The red error list at the top of the window (hidden while every file is valid).
#[derive(Component, Debug)]
pub struct DesignerOverlay;

/// Whether F2's coordinate and station labels are shown.
#[derive(Resource, Debug, Default)]
pub struct GridLabels(pub bool);

/// One F2 label, pinned to a point of the kitchen.
#[derive(Component, Debug)]
pub struct GridLabel(pub Vec3);

const ERROR_RED: Color = Color::srgb(1.0, 0.25, 0.2);

/// Designer mode when `--designer` asks for it: the watcher, the error overlay, F2 and F5.
pub struct DesignerOverlayPlugin;

impl Plugin for DesignerOverlayPlugin {
    fn build(&self, app: &mut App) {
        let Some(options) = app.world().get_resource::<Options>().map(|o| o.0.clone()) else {
            return;
        };
        if !options.designer {
            return;
        }
        let Some(level) = options.level.as_deref() else { return };
        let (levels_dir, id) = watched_level(level, &options.levels, &options.recipes);
        info!("designer: watching {} for level `{id}`", levels_dir.display());
        // Designer mode is where unpublished edits run; say so, as the host does.
        info!("designer: running unpublished edits (not only what index.ron publishes)");
        app.insert_resource(LevelWatchConfig {
            levels_dir,
            recipes: Some(options.recipes.clone()),
            ..default()
        });
        app.insert_resource(DesignerLevel(id));
        app.add_plugins((LevelWatchPlugin, DesignerPlugin));
        app.add_plugins(DesignerToolsPlugin);
    }
}

/// The overlay and the designer keys, without the watcher (tests add their own watcher).
pub struct DesignerToolsPlugin;

impl Plugin for DesignerToolsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<GridLabels>();
        // Spawned now, not at Startup: an app that already ran (a test's) still gets it.
        app.world_mut().spawn(overlay());
        app.add_systems(Update, show_errors);
        app.add_systems(
            PostUpdate,
            (follow_reloads, reseed_on_f5, toggle_grid_labels, place_grid_labels)
                .chain()
                .run_if(in_state(AppState::Playing)),
        );
    }
}

/// The folder to watch and the level id for `--level` (an id in `levels`, or a file path).
pub fn watched_level(level: &str, levels: &Path, recipes: &Path) -> (PathBuf, String) {
    let path = Path::new(level);
    if !path.is_file() {
        return (levels.to_path_buf(), level.to_string());
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    // The id is inside the file; a file broken at start-up falls back to its stem.
    let id = load_recipes_file(recipes)
        .ok()
        .and_then(|book| load_level_file(path, &book).ok())
        .map(|l| l.id.clone())
        .or_else(|| path.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_else(|| level.to_string());
    (dir.to_path_buf(), id)
}

/// Every current error, one per line: `file:line:col: CODE: message`.
pub fn overlay_text(errors: &BTreeMap<PathBuf, Vec<LevelError>>) -> String {
    errors.values().flatten().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")
}

/// The overlay's entity: hidden until a file is broken.
pub fn overlay() -> impl Bundle {
    (
        DesignerOverlay,
        Node {
            position_type: PositionType::Absolute,
            top: Val::Px(4.0),
            left: Val::Px(8.0),
            right: Val::Px(8.0),
            padding: UiRect::all(Val::Px(6.0)),
            display: Display::None,
            ..default()
        },
        BackgroundColor(Color::srgba(0.05, 0.0, 0.0, 0.8)),
        Text::new(""),
        font(15.0),
        TextColor(ERROR_RED),
        GlobalZIndex(100),
    )
}

/// The overlay follows the library's error list: shown with every error, hidden when clear.
pub fn show_errors(
    lib: Option<Res<LevelLibrary>>,
    mut overlay: Query<(&mut Text, &mut Node), With<DesignerOverlay>>,
) {
    let Some(lib) = lib else { return };
    if !lib.is_changed() {
        return;
    }
    let text = overlay_text(&lib.errors);
    for (mut t, mut node) in &mut overlay {
        let display = if text.is_empty() { Display::None } else { Display::Flex };
        if node.display != display {
            node.display = display;
        }
        if t.0 != text {
            t.0 = text.clone();
        }
    }
}

/// After a reload swapped the room's level: the host's record follows, and a round that had
/// ended is live again (the restarted room has no verdict).
fn follow_reloads(world: &mut World) {
    let Some(game) = world.get_resource::<LocalGame>() else { return };
    let Some(room) = world.get::<Room>(game.room) else { return };
    if Arc::ptr_eq(&room.level, &game.level) {
        return;
    }
    let level = room.level.clone();
    let fresh = room.result.is_none();
    world.resource_mut::<LocalGame>().level = level;
    if fresh && *world.resource::<RoundPhase>() == RoundPhase::Over {
        set_phase(world, RoundPhase::Live);
    }
}

/// F5: the same level again with the next seed.
fn reseed_on_f5(world: &mut World) {
    if !world.resource::<ButtonInput<KeyCode>>().just_pressed(KeyCode::F5) {
        return;
    }
    let Some(game) = world.get_resource::<LocalGame>() else { return };
    let seed = world.get::<Room>(game.room).map_or(1, |r| r.seed).wrapping_add(1);
    info!("designer: restart with seed {seed}");
    world.insert_resource(RoundSeed(seed));
    restart_local_round(world);
}

fn toggle_grid_labels(keys: Res<ButtonInput<KeyCode>>, mut on: ResMut<GridLabels>) {
    if keys.just_pressed(KeyCode::F2) {
        on.0 = !on.0;
    }
}

/// The F2 labels: `x,y` on every floor cell and `#index` over every station, rebuilt when the
/// grid changes, and pinned each frame to where the camera sees their point.
#[allow(clippy::type_complexity)]
fn place_grid_labels(
    mut commands: Commands,
    on: Res<GridLabels>,
    game: Option<Res<LocalGame>>,
    grids: Query<Ref<GridView>>,
    stations: Query<(&StationView, &InRoom)>,
    mut labels: Query<(Entity, &GridLabel, &mut Node)>,
    camera: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
) {
    let grid = game.as_ref().and_then(|g| grids.get(g.room).ok());
    let rebuild = on.is_changed() || grid.as_ref().is_some_and(|g| g.is_changed());
    if rebuild || !on.0 {
        for (e, ..) in &labels {
            commands.entity(e).despawn();
        }
    }
    let (Some(game), Some(grid)) = (game, grid) else { return };
    if !on.0 {
        return;
    }
    if rebuild {
        for y in 0..grid.height {
            for x in 0..grid.width {
                let at = Vec3::new(x as f32 + 0.5, 0.05, y as f32 + 0.5);
                spawn_label(&mut commands, at, format!("{x},{y}"), Color::srgb(0.9, 0.9, 0.9));
            }
        }
        for (s, in_room) in &stations {
            if in_room.0 != game.room {
                continue;
            }
            let (x, y) = s.cell;
            let at = Vec3::new(x as f32 + 0.5, 1.1, y as f32 + 0.5);
            spawn_label(&mut commands, at, format!("#{}", s.index), Color::srgb(1.0, 0.85, 0.2));
        }
        return;
    }
    let Some((cam, cam_at)) = camera.iter().next() else { return };
    for (_, label, mut node) in &mut labels {
        if let Ok(p) = cam.world_to_viewport(cam_at, label.0) {
            node.left = Val::Px(p.x - 10.0);
            node.top = Val::Px(p.y - 7.0);
        }
    }
}

fn spawn_label(commands: &mut Commands, at: Vec3, text: String, color: Color) {
    commands.spawn((
        GridLabel(at),
        Node { position_type: PositionType::Absolute, ..default() },
        Text::new(text),
        font(11.0),
        TextColor(color),
        GlobalZIndex(50),
        DespawnOnExit(AppState::Playing),
    ));
}
