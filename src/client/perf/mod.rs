//! The F3 performance overlay's readings and lines: FPS, frame time (and the worst of the
//! history) and entity count from Bevy's diagnostics, the room's sim tick, and — when connected
//! to a server — round trip, packet loss and bandwidth up and down from renet's connection
//! statistics (`RenetClient::network_info`), the input link's delay and late frames
//! (`net::client::uplink`) and the prediction's corrections per second (`net::client::predict`). They read one
//! resource, [`PerfReadings`], refreshed a few times a second, and are drawn by
//! `perf_panel` on the desktop (on `bevy_perf_ui`, the maintained continuation of iyes_perf_ui
//! that DESIGN.md names, as its custom entries) and by `perf_text` in the browser (plain text:
//! with the crate the browser build measured 15,078,713 bytes, over its 15 MB budget,
//! docs/PERFORMANCE.md).

#[cfg(not(target_arch = "wasm32"))]
pub mod panel;
pub mod readings;
#[cfg(target_arch = "wasm32")]
pub mod text;

#[cfg(not(target_arch = "wasm32"))]
use super::perf::panel::{PerfPanelPlugin, spawn_overlay};
pub use super::perf::readings::{
    NetReadings, PERF_LINES, PerfLine, PerfOverlay, PerfReadings, format_bandwidth, net_readings,
};
#[cfg(target_arch = "wasm32")]
use super::perf::text::{PerfTextPlugin, spawn_overlay};
use crate::net::client::seats::ClientSession;
use crate::protocol::RoomClock;
use bevy::diagnostic::{
    DiagnosticsStore, EntityCountDiagnosticsPlugin, FrameTimeDiagnosticsPlugin,
};
use bevy::prelude::*;
use bevy_replicon_renet::RenetClient;
use std::time::Duration;

/// How often [`PerfReadings`] is refreshed: often enough to read, rarely enough that the
/// numbers do not flicker.
const REFRESH: Duration = Duration::from_millis(250);

/// The F3 overlay, the diagnostics it reads and our entries.
pub struct PerfPlugin;

impl Plugin for PerfPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<FrameTimeDiagnosticsPlugin>() {
            app.add_plugins(FrameTimeDiagnosticsPlugin::default());
        }
        if !app.is_plugin_added::<EntityCountDiagnosticsPlugin>() {
            app.add_plugins(EntityCountDiagnosticsPlugin::default());
        }
        #[cfg(not(target_arch = "wasm32"))]
        app.add_plugins(PerfPanelPlugin);
        #[cfg(target_arch = "wasm32")]
        app.add_plugins(PerfTextPlugin);
        app.init_resource::<PerfReadings>();
        app.add_systems(Startup, show_overlay_when_asked);
        app.add_systems(
            Update,
            (toggle_overlay, refresh_readings.run_if(any_with_component::<PerfOverlay>)).chain(),
        );
    }
}

/// `--perf`: the overlay is up from the first frame.
fn show_overlay_when_asked(commands: Commands, options: Option<Res<super::args::Options>>) {
    if options.is_some_and(|o| o.0.perf) {
        spawn_overlay(commands);
    }
}

/// F3 shows or hides the overlay.
fn toggle_overlay(
    mut commands: Commands,
    keys: Res<ButtonInput<KeyCode>>,
    shown: Query<Entity, With<PerfOverlay>>,
) {
    if !keys.just_pressed(KeyCode::F3) {
        return;
    }
    match shown.single() {
        Ok(e) => {
            commands.entity(e).despawn();
        }
        Err(_) => spawn_overlay(commands),
    }
}

/// Rebuilds [`PerfReadings`] from the room clock and the connection a few times a second (and
/// at once when the overlay has just been shown).
fn refresh_readings(
    time: Res<Time<Real>>,
    mut next: Local<Duration>,
    mut last_corrected: Local<Option<(Duration, u64)>>,
    added: Query<(), Added<PerfOverlay>>,
    diagnostics: Res<DiagnosticsStore>,
    clocks: Query<&RoomClock>,
    client: Option<Res<RenetClient>>,
    session: Option<Res<ClientSession>>,
    mut readings: ResMut<PerfReadings>,
) {
    let now = time.elapsed();
    if now < *next && added.is_empty() {
        return;
    }
    *next = now + REFRESH;
    let corrected: Option<u64> = session.as_deref().filter(|s| !s.players.is_empty()).map(|s| {
        s.players.iter().filter_map(|p| p.predictor.as_ref()).map(|p| p.stats.corrected).sum()
    });
    let corrections_per_s = match (corrected, *last_corrected) {
        (Some(n), Some((then, m))) if now > then => {
            Some(n.saturating_sub(m) as f64 / (now - then).as_secs_f64())
        }
        _ => None,
    };
    *last_corrected = corrected.map(|n| (now, n));
    let fresh = PerfReadings {
        fps: diagnostics.get(&FrameTimeDiagnosticsPlugin::FPS).and_then(|d| d.smoothed()),
        frame_ms: diagnostics
            .get(&FrameTimeDiagnosticsPlugin::FRAME_TIME)
            .and_then(|d| Some((d.smoothed()?, d.values().copied().reduce(f64::max)?))),
        entities: diagnostics
            .get(&EntityCountDiagnosticsPlugin::ENTITY_COUNT)
            .and_then(|d| d.value()),
        tick: clocks.iter().next().map(|c| c.tick),
        net: net_readings(
            client.as_deref(),
            session.as_deref().and_then(|s| Some((s.uplink()?, s.clock_now()))),
        ),
        corrections_per_s,
    };
    readings.set_if_neq(fresh);
}
