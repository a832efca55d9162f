//! The F3 performance overlay: FPS, frame time, entities, the room's sim tick, and — when
//! connected to a server — round trip, packet loss and bandwidth up and down from renet's
//! connection statistics (`RenetClient::network_info`), and the input link's own round trip,
//! input delay and late frames (`net::uplink`). One text panel refreshed by one system: a generic
//! overlay crate's per-entry systems cost the browser download ~420 KB (docs/ARCHITECTURE.md).

use super::hud::font;
use super::online::OnlineSession;
use crate::net::uplink::Uplink;
use crate::protocol::RoomClock;
use bevy::diagnostic::{
    DiagnosticsStore, EntityCountDiagnosticsPlugin, FrameTimeDiagnosticsPlugin,
};
use bevy::prelude::*;
use bevy_replicon_renet::RenetClient;
use std::time::Duration;

/// How often the panel's text is rebuilt: often enough to read, rarely enough that the text
/// layout it causes stays out of the frame times it shows.
const REFRESH: Duration = Duration::from_millis(250);

/// The F3 overlay and the diagnostics it reads.
pub struct PerfPlugin;

impl Plugin for PerfPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<FrameTimeDiagnosticsPlugin>() {
            app.add_plugins(FrameTimeDiagnosticsPlugin::default());
        }
        if !app.is_plugin_added::<EntityCountDiagnosticsPlugin>() {
            app.add_plugins(EntityCountDiagnosticsPlugin::default());
        }
        app.add_systems(Startup, show_overlay_when_asked);
        app.add_systems(
            Update,
            (toggle_overlay, refresh_overlay.run_if(any_with_component::<PerfOverlay>)).chain(),
        );
    }
}

/// `--perf`: the overlay is up from the first frame.
fn show_overlay_when_asked(commands: Commands, options: Option<Res<super::args::Options>>) {
    if options.is_some_and(|o| o.0.perf) {
        spawn_overlay(commands);
    }
}

/// The overlay's text panel (bottom right, above the HUD); present while it is shown.
#[derive(Component, Debug)]
pub struct PerfOverlay;

/// One look at the numbers the overlay shows; `None` where there is nothing to show yet.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PerfReadings {
    /// Frames per second, smoothed.
    pub fps: Option<f64>,
    /// Frame time in ms: the smoothed value and the worst in the diagnostic's history.
    pub frame_ms: Option<(f64, f64)>,
    pub entities: Option<f64>,
    /// The room's current sim tick (local or replicated).
    pub tick: Option<u32>,
    pub net: Option<NetReadings>,
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

/// The panel's lines: a label column and a value column, "-" for what is not known yet.
pub fn overlay_text(r: &PerfReadings) -> String {
    let or_dash = |v: Option<String>| v.unwrap_or_else(|| "-".into());
    let mut lines = vec![
        ("FPS", or_dash(r.fps.map(|f| format!("{f:.1}")))),
        (
            "Frame time",
            or_dash(r.frame_ms.map(|(avg, worst)| format!("{avg:.1} ms (worst {worst:.1})"))),
        ),
        ("Entities", or_dash(r.entities.map(|n| format!("{n:.0}")))),
        ("Sim tick", or_dash(r.tick.map(|t| t.to_string()))),
    ];
    if let Some(n) = r.net {
        lines.push(("Ping", format_ping(n.rtt_ms, n.loss_pct)));
        lines.push(("Bandwidth", format_bandwidth(n.up, n.down)));
        if let Some((delay, late)) = n.input {
            lines.push(("Input", format!("{delay:.1} ticks ahead, {late} late")));
        }
    }
    lines.iter().map(|(label, value)| format!("{label:<11}{value}")).collect::<Vec<_>>().join("\n")
}

/// "23 ms, 0.0 % loss".
pub fn format_ping(rtt_ms: f64, loss_pct: f64) -> String {
    format!("{rtt_ms:.0} ms, {loss_pct:.1} % loss")
}

/// "up 0.9 KB/s, down 2.2 KB/s".
pub fn format_bandwidth(up: f64, down: f64) -> String {
    format!("up {:.1} KB/s, down {:.1} KB/s", up / 1000.0, down / 1000.0)
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

fn spawn_overlay(mut commands: Commands) {
    commands.spawn((
        PerfOverlay,
        Node {
            position_type: PositionType::Absolute,
            right: Val::Px(8.0),
            bottom: Val::Px(8.0),
            padding: UiRect::axes(Val::Px(8.0), Val::Px(6.0)),
            ..default()
        },
        BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.7)),
        GlobalZIndex(90),
        Text::new(overlay_text(&PerfReadings::default())),
        font(14.0),
        TextColor(Color::srgb(0.85, 0.95, 0.85)),
    ));
}

/// Rebuilds the panel's text from the diagnostics, the room clock and the connection, a few
/// times a second (and at once when it has just been shown).
fn refresh_overlay(
    time: Res<Time<Real>>,
    mut next: Local<Duration>,
    added: Query<(), Added<PerfOverlay>>,
    diagnostics: Res<DiagnosticsStore>,
    clocks: Query<&RoomClock>,
    client: Option<Res<RenetClient>>,
    session: Option<Res<OnlineSession>>,
    mut panels: Query<&mut Text, With<PerfOverlay>>,
) {
    let now = time.elapsed();
    if now < *next && added.is_empty() {
        return;
    }
    *next = now + REFRESH;
    let readings = PerfReadings {
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
    };
    let text = overlay_text(&readings);
    for mut panel in &mut panels {
        if panel.0 != text {
            panel.0.clone_from(&text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlay_text_dashes_what_is_unknown_and_adds_network_lines_when_connected() {
        let empty = overlay_text(&PerfReadings::default());
        assert_eq!(empty.lines().count(), 4);
        assert!(empty.lines().all(|l| l.ends_with('-')), "{empty}");
        let full = overlay_text(&PerfReadings {
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
        });
        let lines: Vec<&str> = full.lines().collect();
        assert_eq!(lines[0], "FPS        59.9");
        assert_eq!(lines[1], "Frame time 16.7 ms (worst 33.3)");
        assert_eq!(lines[2], "Entities   412");
        assert_eq!(lines[3], "Sim tick   1234");
        assert_eq!(lines[4], "Ping       23 ms, 0.0 % loss");
        assert_eq!(lines[5], "Bandwidth  up 0.9 KB/s, down 2.2 KB/s");
        assert_eq!(lines[6], "Input      3.2 ticks ahead, 2 late");
    }
}
