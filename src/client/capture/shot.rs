//! Automated looking and measuring: `--screenshot` saves one frame with Bevy's screenshot API
//! and exits 0; `--measure` prints start-up time to the first presented frame and the client
//! systems' time per frame; `--exit-after-ticks` ends a timed run.

use crate::client::args::Options;
use crate::client::kitchen::FlightShadow;
use crate::client::state::{AppState, BackdropRoom, ServerListShown};
use crate::protocol::{ItemPlace, ItemView, RoomClock, RoomView};
use crate::schedule::FrameSystems;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy::render::render_resource::PipelineCache;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::render::{ExtractSchedule, MainWorld, RenderApp};
use std::time::Duration;

/// When the process started (for the start-up measurement).
#[derive(Resource, Clone, Copy, Debug)]
pub struct StartedAt(pub Instant);

/// Progress of the automated screenshot and of the measurement.
#[derive(Resource, Default, Debug)]
struct Automation {
    frames_on_menu: u32,
    shot_requested: bool,
    shot_taken: bool,
    first_frame: Option<Duration>,
    first_frame_requested: bool,
    present_start: Option<Instant>,
    present: Vec<Duration>,
    ticks: u32,
    reported: bool,
    /// Real seconds since the round's verdict came in (for `--at-round-end`).
    since_verdict: Option<f32>,
}

/// Real seconds after the verdict that an `--at-round-end` screenshot waits: the round end's
/// three stars have lit and settled by then (`hud`: 0.8 s, then one every 0.7 s).
const ROUND_END_SHOT_SECS: f32 = 3.5;

/// Frames in a row with no render pipeline still compiling. A screenshot waits for a few, so it
/// never catches a kitchen whose meshes are drawn by pipelines the (software) renderer has not
/// finished compiling — which takes real time, however many sim ticks have passed.
#[derive(Resource, Default, Debug)]
pub struct PipelinesSettled(pub u32);

/// Frames of settled pipelines a screenshot waits for.
const SETTLED_FRAMES: u32 = 5;

/// Runs in the render world's extract: counts frames with no pipeline waiting.
fn note_pipelines(cache: Res<PipelineCache>, mut main: ResMut<MainWorld>) {
    let waiting = cache.waiting_pipelines().next().is_some();
    if let Some(mut settled) = main.get_resource_mut::<PipelinesSettled>() {
        settled.0 = if waiting { 0 } else { settled.0.saturating_add(1) };
    }
}

/// Screenshots, automated exits and the `--measure` timings.
pub struct ShotPlugin;

impl Plugin for ShotPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Automation>();
        app.init_resource::<PipelinesSettled>();
        if let Some(render) = app.get_sub_app_mut(RenderApp) {
            render.add_systems(ExtractSchedule, note_pipelines);
        }
        app.add_systems(
            Update,
            (request_screenshot, exit_when_done).chain().in_set(FrameSystems::Capture),
        );
        app.add_systems(
            Update,
            (
                start_present_clock.before(FrameSystems::Blend),
                stop_present_clock.in_set(FrameSystems::Capture),
            ),
        );
        app.add_systems(Last, report_measurements);
    }
}

#[allow(clippy::too_many_arguments)]
fn request_screenshot(
    mut commands: Commands,
    options: Res<Options>,
    state: Res<State<AppState>>,
    rooms: Query<&RoomClock, Without<BackdropRoom>>,
    views: Query<&RoomView, Without<BackdropRoom>>,
    time: Res<Time<Real>>,
    mut auto: ResMut<Automation>,
    started: Option<Res<StartedAt>>,
    settled: Res<PipelinesSettled>,
    items: Query<(&ItemView, &Visibility)>,
    shadows: Query<(), With<FlightShadow>>,
    tandem: Option<Res<crate::client::tandem::screen::TandemScreen>>,
    listed: Option<Res<ServerListShown>>,
    online: Option<Res<bevy_replicon_renet::RenetClient>>,
) {
    let o = &options.0;
    if o.measure && !auto.first_frame_requested {
        // The first frame that reaches the screen: a screenshot of it completes only once it
        // has been rendered and read back.
        auto.first_frame_requested = true;
        let started = started.map_or_else(Instant::now, |s| s.0);
        commands.spawn(Screenshot::primary_window()).observe(
            move |_: On<ScreenshotCaptured>, mut auto: ResMut<Automation>| {
                auto.first_frame.get_or_insert(started.elapsed());
            },
        );
    }
    if let Some(clock) = rooms.iter().next() {
        auto.ticks = clock.tick;
    }
    // A Tandem run on screen, local or an online room's: its ticks.
    if let Some(screen) = &tandem {
        auto.ticks = screen.view.tick;
    }
    let Some(path) = &o.screenshot else { return };
    if auto.shot_requested {
        return;
    }
    let hosted_round = o.screen == Some(crate::client::args::Screen::Host) && o.autoplay.is_some();
    // `--screen board --autoplay`: the first entry's playback, by the room's ticks.
    let board_watch = o.screen == Some(crate::client::args::Screen::Board) && o.autoplay.is_some();
    if views.iter().any(|v| v.result.is_some()) {
        let dt = time.delta_secs();
        auto.since_verdict = Some(auto.since_verdict.map_or(0.0, |s| s + dt));
    }
    let due = if o.at_round_end {
        *state.get() == AppState::Playing
            && auto.since_verdict.is_some_and(|s| s >= ROUND_END_SHOT_SECS)
    } else if o.mode == Some(crate::client::args::PlayMode::Tandem) {
        *state.get() == AppState::Tandem && tandem.is_some() && auto.ticks >= o.after_ticks
    } else if tandem.as_ref().is_some_and(|s| s.online) {
        // An online room's Tandem round (`join … --autoplay bot --screenshot`).
        auto.ticks >= o.after_ticks
    } else if o.level.is_some()
        || o.daily
        || o.bundle.is_some()
        || hosted_round
        || board_watch
        || (online.is_some() && o.screen.is_none())
    {
        // A local round, or the window `join` opened on a room (no menu screen named): the
        // room's own ticks.
        *state.get() == AppState::Playing && auto.ticks >= o.after_ticks
    } else {
        // Play online is looked at once the directory's answer is on it, not before; with
        // `--autoplay` it quick-matches, and the picture is of the room it seated the cooks in.
        use crate::client::args::Screen;
        let online = o.screen == Some(Screen::PlayOnline);
        // The results board is looked at once the board's answer is on it, too.
        let waits = online || o.screen == Some(Screen::Board);
        let quick = online && o.autoplay.is_some();
        let looked_at = match quick {
            true => AppState::Playing,
            false => o.screen.map_or(AppState::Menu, |s| s.state()),
        };
        if *state.get() == looked_at && !(waits && !quick && listed.is_none()) {
            auto.frames_on_menu += 1;
        }
        auto.frames_on_menu >= o.after_frames
    };
    if due && settled.0 >= SETTLED_FRAMES {
        auto.shot_requested = true;
        // What the picture shows, from the game state (a test checks it, not only pixels).
        let flying = items
            .iter()
            .filter(|(i, vis)| {
                matches!(i.place, ItemPlace::Flying { .. }) && **vis != Visibility::Hidden
            })
            .count();
        println!(
            "screenshot: tick {}, items in flight drawn {flying}, flight shadows {}",
            auto.ticks,
            shadows.iter().count()
        );
        commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path.clone())).observe(
            |_: On<ScreenshotCaptured>, mut auto: ResMut<Automation>| auto.shot_taken = true,
        );
    }
}

fn exit_when_done(options: Res<Options>, auto: Res<Automation>, mut exit: MessageWriter<AppExit>) {
    let o = &options.0;
    let shot_done = o.screenshot.is_some() && auto.shot_taken;
    let ticks_done = o.exit_after_ticks.is_some_and(|n| auto.ticks >= n);
    let measured = !o.measure || auto.first_frame.is_some();
    if (shot_done || ticks_done) && measured {
        exit.write(AppExit::Success);
    }
}

fn start_present_clock(mut auto: ResMut<Automation>) {
    auto.present_start = Some(Instant::now());
}

fn stop_present_clock(
    mut auto: ResMut<Automation>,
    options: Res<Options>,
    state: Res<State<AppState>>,
) {
    if let Some(t) = auto.present_start.take()
        && options.0.measure
        && *state.get() == AppState::Playing
    {
        auto.present.push(t.elapsed());
    }
}

/// Percentile of sorted durations, in µs.
fn pct(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let k = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[k].as_secs_f64() * 1e6
}

fn report_measurements(
    options: Res<Options>,
    mut exits: MessageReader<AppExit>,
    mut auto: ResMut<Automation>,
) {
    if exits.read().next().is_none() || !options.0.measure || auto.reported {
        return;
    }
    auto.reported = true;
    let mut d = auto.present.clone();
    d.sort();
    let mean = if d.is_empty() {
        0.0
    } else {
        d.iter().map(Duration::as_secs_f64).sum::<f64>() / d.len() as f64 * 1e6
    };
    println!(
        "measure: first frame presented {:.0} ms after start; client systems per frame over {} frames: mean {:.0} µs, p50 {:.0} µs, p95 {:.0} µs, max {:.0} µs; sim ticks {}",
        auto.first_frame.map_or(f64::NAN, |f| f.as_secs_f64() * 1e3),
        d.len(),
        mean,
        pct(&d, 0.5),
        pct(&d, 0.95),
        pct(&d, 1.0),
        auto.ticks,
    );
}
