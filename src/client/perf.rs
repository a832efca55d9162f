//! The F3 performance overlay's readings and lines: FPS, frame time (and the worst of the
//! history) and entity count from Bevy's diagnostics, the room's sim tick, and — when connected
//! to a server — round trip, packet loss and bandwidth up and down from renet's connection
//! statistics (`RenetClient::network_info`), the input link's delay and late frames
//! (`net::uplink`) and the prediction's corrections per second (`net::predict`). They read one
//! resource, [`PerfReadings`], refreshed a few times a second, and are drawn by
//! `perf_panel` on the desktop (on `bevy_perf_ui`, the maintained continuation of iyes_perf_ui
//! that DESIGN.md names, as its custom entries) and by `perf_text` in the browser (plain text:
//! with the crate the browser build measured 15,078,713 bytes, over its 15 MB budget,
//! docs/PERFORMANCE.md).

use super::online::OnlineSession;
#[cfg(not(target_arch = "wasm32"))]
use super::perf_panel::{PerfPanelPlugin, spawn_overlay};
#[cfg(target_arch = "wasm32")]
use super::perf_text::{PerfTextPlugin, spawn_overlay};
use crate::net::uplink::Uplink;
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

/// The overlay's root (bottom right, above the HUD); present while it is shown.
#[derive(Component, Debug)]
pub struct PerfOverlay;

/// What our entries show; `None` where there is nothing to show yet (the entry reads "-").
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct PerfReadings {
    /// Frames per second, smoothed.
    pub fps: Option<f64>,
    /// Frame time in ms: the smoothed value and the worst in the diagnostic's history.
    pub frame_ms: Option<(f64, f64)>,
    pub entities: Option<f64>,
    /// The room's current sim tick (local or replicated).
    pub tick: Option<u32>,
    pub net: Option<NetReadings>,
    /// Prediction corrections per second over the last refresh (online, once measured).
    pub corrections_per_s: Option<f64>,
}

/// The server connection's statistics, in display units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NetReadings {
    pub rtt_ms: f64,
    pub loss_pct: f64,
    /// Bytes per second sent and received.
    pub up: f64,
    pub down: f64,
    /// The input link (`net::uplink`), once a round is live: how far ahead of the server's
    /// clock frames are stamped, in ticks, and how many the server applied late.
    pub input: Option<(f64, u32)>,
}

/// The connection's statistics while it is connected (an online client); `None` otherwise.
/// The round trip is the uplink's (tick stamps both ways) once it has one, renet's before.
pub fn net_readings(
    client: Option<&RenetClient>,
    link: Option<(&Uplink, Duration)>,
) -> Option<NetReadings> {
    let info = client.filter(|c| c.is_connected())?.network_info();
    let measured = link.and_then(|(l, _)| l.stats.rtt_ms);
    Some(NetReadings {
        rtt_ms: measured.unwrap_or(info.rtt * 1000.0),
        loss_pct: info.packet_loss * 100.0,
        up: info.bytes_sent_per_second,
        down: info.bytes_received_per_second,
        input: link
            .filter(|_| measured.is_some())
            .map(|(l, now)| (l.input_delay_ticks(now), l.stats.late)),
    })
}

/// "up 0.9 KB/s, down 2.2 KB/s".
pub fn format_bandwidth(up: f64, down: f64) -> String {
    format!("up {:.1} KB/s, down {:.1} KB/s", up / 1000.0, down / 1000.0)
}

/// One line of the overlay: its label and its value from the readings (`None`: "-").
pub type PerfLine = (&'static str, fn(&PerfReadings) -> Option<String>);

/// Every line, in the order shown — one table for both overlays.
pub const PERF_LINES: [PerfLine; 10] = [
    ("FPS", |r| r.fps.map(|v| format!("{v:.1}"))),
    ("Frame time", |r| r.frame_ms.map(|(v, worst)| format!("{v:.1} ms (worst {worst:.1})"))),
    ("Entities", |r| r.entities.map(|v| format!("{v:.0}"))),
    ("Sim tick", |r| r.tick.map(|v| v.to_string())),
    // The input link's round trip, renet's until it has one.
    ("Round trip", |r| r.net.map(|n| format!("{:.0} ms", n.rtt_ms))),
    ("Loss", |r| r.net.map(|n| format!("{:.1} %", n.loss_pct))),
    ("Bandwidth", |r| r.net.map(|n| format_bandwidth(n.up, n.down))),
    // How far ahead of the server's clock frames are stamped.
    ("Input delay", |r| r.net.and_then(|n| n.input).map(|i| format!("{:.1} ticks", i.0))),
    ("Late frames", |r| r.net.and_then(|n| n.input).map(|i| i.1.to_string())),
    ("Corrections", |r| r.corrections_per_s.map(|v| format!("{v:.1} /s"))),
];

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
    session: Option<Res<OnlineSession>>,
    mut readings: ResMut<PerfReadings>,
) {
    let now = time.elapsed();
    if now < *next && added.is_empty() {
        return;
    }
    *next = now + REFRESH;
    let corrected: Option<u64> = session
        .as_deref()
        .filter(|s| !s.players.is_empty())
        .map(|s| s.players.iter().map(|p| p.predictor.stats.corrected).sum());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_reads_the_readings_and_formats_them() {
        let r = PerfReadings {
            fps: Some(59.94),
            frame_ms: Some((16.68, 33.3)),
            entities: Some(412.0),
            tick: Some(1234),
            net: Some(NetReadings {
                rtt_ms: 23.4,
                loss_pct: 0.0,
                up: 900.0,
                down: 2200.0,
                input: Some((3.24, 2)),
            }),
            corrections_per_s: Some(0.5),
        };
        let shown: Vec<(&str, Option<String>)> =
            PERF_LINES.iter().map(|(label, value)| (*label, value(&r))).collect();
        let want = [
            ("FPS", "59.9"),
            ("Frame time", "16.7 ms (worst 33.3)"),
            ("Entities", "412"),
            ("Sim tick", "1234"),
            ("Round trip", "23 ms"),
            ("Loss", "0.0 %"),
            ("Bandwidth", "up 0.9 KB/s, down 2.2 KB/s"),
            ("Input delay", "3.2 ticks"),
            ("Late frames", "2"),
            ("Corrections", "0.5 /s"),
        ];
        for ((label, value), (l, v)) in shown.iter().zip(want) {
            assert_eq!((*label, value.as_deref()), (l, Some(v)));
        }
        // Offline, before any measurement: the network lines have nothing to show.
        let offline = PerfReadings::default();
        assert!(PERF_LINES.iter().all(|(_, value)| value(&offline).is_none()));
    }
}
