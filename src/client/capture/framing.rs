//! `play --check-framing`: one game process walks every campaign level at 4:3, 16:9 and 21:9,
//! resizing its own window, and checks from the real camera (`Camera::world_to_viewport`) that
//! every kitchen tile's corners, floor to wall top, lie inside the window's safe area (below the
//! ticket rail, inside the margin). One line per case on stdout; exit 0 when every case holds,
//! 1 when any does not.

use crate::client::args::Options;
use crate::client::kitchen::{KitchenCamera, SafeArea, TILE_TOP};
use crate::client::local::{LocalGame, SelectedLevel, restart_local_round};
use crate::client::state::AppState;
use crate::level::{load_campaign, load_recipes_file};
use crate::protocol::GridView;
use crate::schedule::FrameSystems;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

/// The window sizes every level is checked at (physical = logical pixels: the window's scale
/// factor is pinned to 1), with the aspect they stand for.
pub const FRAMING_SIZES: [(u32, u32, &str); 3] =
    [(960, 720, "4:3"), (1280, 720, "16:9"), (1680, 720, "21:9")];

/// Frames a case may wait for the window to take its size before it is failed.
const WAIT_LIMIT: u32 = 600;
/// Frames of an unchanged, correctly sized window before measuring: the camera's refit, the
/// transform propagation and the projection's aspect all land within them.
const SETTLE: u32 = 3;
/// Rounding slack of a projected corner against the safe area, in pixels.
const SLACK_PX: f32 = 1.0;

/// One level at one window size.
#[derive(Clone, Debug)]
struct Case {
    level: String,
    size: (u32, u32),
    aspect: &'static str,
}

/// Where the walk is.
#[derive(Resource, Debug, Default)]
struct FramingWalk {
    cases: Vec<Case>,
    next: usize,
    /// Frames the current case has waited, and of those, how many in a row were ready.
    waited: u32,
    ready: u32,
    started: bool,
    failures: usize,
}

/// Runs the walk when `--check-framing` is given.
pub struct FramingCheckPlugin;

impl Plugin for FramingCheckPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            walk_framing_cases
                .in_set(FrameSystems::Capture)
                .run_if(|o: Option<Res<Options>>| o.is_some_and(|o| o.0.check_framing)),
        );
    }
}

/// The cases: the campaign in play order × [`FRAMING_SIZES`].
fn framing_cases(options: &Options) -> Result<Vec<Case>, String> {
    let book = load_recipes_file(&options.0.recipes).map_err(|e| e.to_string())?;
    let levels = load_campaign(&options.0.levels, &book).map_err(|e| e.to_string())?;
    Ok(levels
        .iter()
        .flat_map(|l| {
            FRAMING_SIZES.map(|(w, h, aspect)| Case { level: l.id.clone(), size: (w, h), aspect })
        })
        .collect())
}

fn walk_framing_cases(world: &mut World) {
    if !world.contains_resource::<FramingWalk>() {
        let options = world.resource::<Options>().clone();
        match framing_cases(&options) {
            Ok(cases) => world.insert_resource(FramingWalk { cases, ..default() }),
            Err(e) => {
                println!("framing: cannot read the campaign: {e}");
                world.write_message(AppExit::from_code(2));
                return;
            }
        }
    }
    let state = *world.resource::<State<AppState>>().get();
    let walk = world.resource::<FramingWalk>();
    let Some(case) = walk.cases.get(walk.next).cloned() else { return };
    if !walk.started {
        // From the title (or the menu) into the first case's kitchen.
        if matches!(state, AppState::Title | AppState::Menu) {
            world.insert_resource(SelectedLevel(case.level.clone()));
            world.resource_mut::<NextState<AppState>>().set(AppState::Playing);
            world.resource_mut::<FramingWalk>().started = true;
            size_window(world, case.size);
        }
        return;
    }
    if state != AppState::Playing {
        return;
    }
    let mut walk = world.resource_mut::<FramingWalk>();
    walk.waited += 1;
    if walk.waited > WAIT_LIMIT {
        println!(
            "framing {} {}x{} ({}): FAILED: the window or the kitchen never settled at this size",
            case.level, case.size.0, case.size.1, case.aspect
        );
        walk.failures += 1;
        advance(world);
        return;
    }
    if !case_ready(world, &case) {
        world.resource_mut::<FramingWalk>().ready = 0;
        return;
    }
    let mut walk = world.resource_mut::<FramingWalk>();
    walk.ready += 1;
    if walk.ready < SETTLE {
        return;
    }
    if !measure(world, &case) {
        world.resource_mut::<FramingWalk>().failures += 1;
    }
    advance(world);
}

/// On to the next case: its level (restarted only when it differs) and its window size; or,
/// after the last, the summary and the exit.
fn advance(world: &mut World) {
    let mut walk = world.resource_mut::<FramingWalk>();
    walk.next += 1;
    walk.waited = 0;
    walk.ready = 0;
    let (done, total, failures) = (walk.next, walk.cases.len(), walk.failures);
    let Some(case) = walk.cases.get(done).cloned() else {
        println!("framing: {}/{total} cases inside", total - failures);
        world.write_message(if failures == 0 { AppExit::Success } else { AppExit::from_code(1) });
        return;
    };
    let playing = world.get_resource::<LocalGame>().map(|g| g.level.id.clone());
    if playing.as_deref() != Some(case.level.as_str()) {
        world.insert_resource(SelectedLevel(case.level.clone()));
        restart_local_round(world);
    }
    size_window(world, case.size);
}

fn size_window(world: &mut World, (w, h): (u32, u32)) {
    let mut windows = world.query_filtered::<&mut Window, With<PrimaryWindow>>();
    if let Ok(mut window) = windows.single_mut(world) {
        window.resolution.set_physical_resolution(w, h);
    }
}

/// The window has the case's size, the camera's viewport follows it, and the room on screen is
/// the case's level.
fn case_ready(world: &mut World, case: &Case) -> bool {
    let (w, h) = case.size;
    let mut windows = world.query_filtered::<&Window, With<PrimaryWindow>>();
    let Ok(window) = windows.single(world) else { return false };
    if (window.physical_width(), window.physical_height()) != (w, h) {
        return false;
    }
    let mut cameras = world.query_filtered::<&Camera, With<KitchenCamera>>();
    let Ok(camera) = cameras.single(world) else { return false };
    if camera.physical_viewport_size() != Some(UVec2::new(w, h)) {
        return false;
    }
    let Some(game) = world.get_resource::<LocalGame>() else { return false };
    if game.level.id != case.level {
        return false;
    }
    world.get::<GridView>(game.room).is_some()
}

/// Project every tile's corners through the real camera; print the case's line. True when all
/// lie inside the safe area.
fn measure(world: &mut World, case: &Case) -> bool {
    let (w, h) = (case.size.0 as f32, case.size.1 as f32);
    let scale = world.get_resource::<UiScale>().map_or(1.0, |s| s.0);
    let safe = SafeArea::of_window(w, h, scale);
    let Some(room) = world.get_resource::<LocalGame>().map(|g| g.room) else { return false };
    let Some(grid) = world.get::<GridView>(room).cloned() else { return false };
    let mut cameras = world.query_filtered::<(&Camera, &GlobalTransform), With<KitchenCamera>>();
    let Ok((camera, at)) = cameras.single(world) else { return false };
    let (mut lo, mut hi) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
    let (mut outside, mut corners) = (0usize, 0usize);
    for y in 0..=grid.height {
        for x in 0..=grid.width {
            for top in [0.0, TILE_TOP] {
                corners += 1;
                match camera.world_to_viewport(at, Vec3::new(x as f32, top, y as f32)) {
                    Ok(p) => {
                        lo = lo.min(p);
                        hi = hi.max(p);
                        outside += usize::from(!safe.holds(p, SLACK_PX));
                    }
                    Err(_) => outside += 1,
                }
            }
        }
    }
    let verdict = if outside == 0 { "inside" } else { "OUTSIDE" };
    println!(
        "framing {} {}x{} ({}): {verdict}: {}/{corners} tile corners in the safe area; margins left {:.0} right {:.0} top {:.0} bottom {:.0} px (safe area from top {:.0}, sides {:.0})",
        case.level,
        case.size.0,
        case.size.1,
        case.aspect,
        corners - outside,
        lo.x,
        w - hi.x,
        lo.y,
        h - hi.y,
        safe.top,
        safe.left,
    );
    outside == 0
}
