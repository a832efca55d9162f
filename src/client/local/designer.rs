//! Designer mode (`undercooked play --level ID --designer`): the level's folder and the recipe
//! book are polled by [`LevelWatchPlugin`]; a saved edit restarts the level's room between ticks
//! with the same seats and seed ([`DesignerPlugin`]); a broken edit is listed in a red overlay at
//! the bottom of the window (clear of the ticket rail and the clock) while the last good version
//! keeps running, and fixing it clears the overlay; a file broken at start-up starts its kitchen
//! once it is fixed. An "unpublished" badge says when what runs is not what `index.ron`
//! publishes. F2 toggles grid coordinates (`x,y` from 0, as hazards and validator messages
//! count them) and station indices; F5 restarts with a new seed.

use crate::client::args::Options;
use crate::client::local::{
    DesignerLevel, HostError, LocalGame, RoundPhase, RoundSeed, restart_local_round, set_phase,
};
use crate::client::state::AppState;
use crate::client::theme::{INK, PANEL, WARNING, font};
use crate::level::error::LevelError;
use crate::level::watch::{
    DesignerPlugin, LevelLibrary, LevelReloaded, LevelWatchConfig, LevelWatchPlugin,
};
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

/// The badge under the clock that says the running kitchen is not what the index publishes.
#[derive(Component, Debug)]
pub struct PublishBadge;

/// F2's caption: which way the grid's numbers count.
#[derive(Component, Debug)]
pub struct GridCaption;

const ERROR_RED: Color = Color::srgb(1.0, 0.25, 0.2);

/// The badge's words.
pub const UNPUBLISHED: &str = "unpublished: this edit runs here only (undercooked level publish)";

/// F2's caption: one convention for every cell the designer reads.
pub const GRID_CAPTION: &str = "F2 grid: cells are (x, y) from 0 at the top left, as in \
     hazards and validator messages (FILE:LINE:COL counts the file's text from 1)";

/// F2 labels: light text on a dark chip, readable on cream floor and dark walls alike.
const LABEL_CHIP: Color = Color::srgba(0.08, 0.07, 0.06, 0.78);
const CELL_TEXT: Color = Color::srgb(0.96, 0.95, 0.9);
const STATION_TEXT: Color = Color::srgb(1.0, 0.82, 0.2);

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
        // Read by `start_fixed_level`; the watcher that writes it may be added after this.
        app.add_message::<LevelReloaded>();
        // Spawned now, not at Startup: an app that already ran (a test's) still gets it.
        app.world_mut().spawn(overlay());
        app.world_mut().spawn(designer_badges());
        app.add_systems(Update, (show_errors, start_fixed_level, say_round_starts, show_badges));
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

/// The overlay's entity: hidden until a file is broken. At the bottom of the window: the
/// ticket rail (top left) and the clock (top right) stay in sight while the errors are listed.
pub fn overlay() -> impl Bundle {
    (
        DesignerOverlay,
        Node {
            position_type: PositionType::Absolute,
            bottom: Val::Px(8.0),
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

/// The designer's badges under the score panel (top right): "unpublished" and F2's caption,
/// each hidden until it applies.
fn designer_badges() -> impl Bundle {
    (
        Node {
            position_type: PositionType::Absolute,
            top: Val::Px(96.0),
            right: Val::Px(8.0),
            max_width: Val::Px(340.0),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::End,
            row_gap: Val::Px(6.0),
            ..default()
        },
        GlobalZIndex(60),
        children![
            (
                PublishBadge,
                Node { display: Display::None, padding: UiRect::all(Val::Px(6.0)), ..default() },
                BackgroundColor(PANEL),
                Text::new(UNPUBLISHED),
                font(15.0),
                TextColor(WARNING),
            ),
            (
                GridCaption,
                Node { display: Display::None, padding: UiRect::all(Val::Px(6.0)), ..default() },
                BackgroundColor(PANEL),
                Text::new(GRID_CAPTION),
                font(13.0),
                TextColor(INK),
            ),
        ],
    )
}

/// Whether the running kitchen is published (its text hashes to its `index.ron` entry);
/// `None` while no round runs.
pub fn running_published(game: Option<&LocalGame>, lib: Option<&LevelLibrary>) -> Option<bool> {
    let (game, lib) = (game?, lib?);
    Some(lib.published(&game.level.id))
}

/// The badges follow the round and F2: "unpublished" while the running kitchen is not what
/// the index publishes, the caption while the grid labels are on.
#[allow(clippy::type_complexity)]
fn show_badges(
    game: Option<Res<LocalGame>>,
    lib: Option<Res<LevelLibrary>>,
    labels: Res<GridLabels>,
    state: Res<State<AppState>>,
    mut badge: Query<&mut Node, (With<PublishBadge>, Without<GridCaption>)>,
    mut caption: Query<&mut Node, (With<GridCaption>, Without<PublishBadge>)>,
) {
    let playing = *state.get() == AppState::Playing;
    let published = running_published(game.as_deref(), lib.as_deref());
    let unpublished = playing && published == Some(false);
    let show = |on: bool| if on { Display::Flex } else { Display::None };
    for mut node in &mut badge {
        let display = show(unpublished);
        if node.display != display {
            node.display = display;
        }
    }
    for mut node in &mut caption {
        let display = show(playing && labels.0);
        if node.display != display {
            node.display = display;
        }
    }
}

/// A level broken when the window opened could not start (the window went to the menu with
/// the reason); its first valid version starts it. With `--level FILE` the id inside the file
/// was unknown while it was broken (the file's stem stood in), so a reload of that file names
/// it.
#[allow(clippy::too_many_arguments)]
fn start_fixed_level(
    mut reloaded: MessageReader<LevelReloaded>,
    designer: Option<ResMut<DesignerLevel>>,
    lib: Option<Res<LevelLibrary>>,
    options: Option<Res<Options>>,
    refused: Option<Res<HostError>>,
    game: Option<Res<LocalGame>>,
    state: Res<State<AppState>>,
    mut next: ResMut<NextState<AppState>>,
) {
    let (Some(mut designer), Some(lib), Some(options), Some(refused)) =
        (designer, lib, options, refused)
    else {
        return;
    };
    let file = options.0.level.as_deref().map(Path::new).filter(|p| p.is_file());
    let mut fixed = false;
    for r in reloaded.read() {
        let ours = file
            .is_some_and(|f| lib.get(&r.id).is_some_and(|e| e.file.file_name() == f.file_name()));
        if ours && designer.0 != r.id {
            designer.0 = r.id.clone();
        }
        fixed |= r.id == designer.0;
    }
    if fixed && game.is_none() && refused.0.is_some() && *state.get() == AppState::Menu {
        info!("designer: `{}` is valid now; starting it", designer.0);
        next.set(AppState::Playing);
    }
}

/// One stdout line when a designer round starts, restarts on an edit, or cannot start (what a
/// person reads in the terminal beside the window, and what tests wait for).
fn say_round_starts(game: Option<Res<LocalGame>>, refused: Option<Res<HostError>>) {
    if let Some(game) = game.filter(|g| g.is_changed()) {
        let level = &game.level;
        println!(
            "designer: round started on `{}` ({}x{}, {} stations)",
            level.id,
            level.width,
            level.height,
            level.stations.len()
        );
    }
    if let Some(refused) = refused.filter(|r| r.is_changed())
        && let Some(why) = &refused.0
    {
        println!("designer: waiting for a fix: {}", why.replace('\n', " | "));
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
                spawn_label(&mut commands, at, format!("{x},{y}"), CELL_TEXT);
            }
        }
        for (s, in_room) in &stations {
            if in_room.0 != game.room {
                continue;
            }
            let (x, y) = s.cell;
            let at = Vec3::new(x as f32 + 0.5, 1.1, y as f32 + 0.5);
            spawn_label(&mut commands, at, format!("#{}", s.index), STATION_TEXT);
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
        Node {
            position_type: PositionType::Absolute,
            padding: UiRect::axes(Val::Px(2.0), Val::Px(0.0)),
            ..default()
        },
        BackgroundColor(LABEL_CHIP),
        Text::new(text),
        font(11.0),
        TextColor(color),
        GlobalZIndex(50),
        DespawnOnExit(AppState::Playing),
    ));
}
