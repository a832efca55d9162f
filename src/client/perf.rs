//! The F3 performance overlay, on `bevy_perf_ui` (the maintained continuation of iyes_perf_ui
//! that DESIGN.md names) as its authors intend: one `PerfUiRoot` entity carrying its entries,
//! every one of them ours, written as its custom entries (`PerfUiEntry`): FPS, frame time (and
//! the worst of the history) and entity count from Bevy's diagnostics, the room's sim tick, and
//! — when connected to a server — round trip, packet loss and bandwidth up and down from
//! renet's connection statistics (`RenetClient::network_info`), the input link's delay and late
//! frames (`net::uplink`) and the prediction's corrections per second (`net::predict`). They
//! read one resource, [`PerfReadings`], refreshed a few times a second.
//!
//! The crate's own `entries` feature is off: it registers some twenty predefined entry kinds,
//! each a setup and an update system, whether a root shows them or not, and with it the browser
//! build measured 15,181,609 bytes, over its 15 MB budget (docs/PERFORMANCE.md).

use super::online::OnlineSession;
use crate::net::uplink::Uplink;
use crate::protocol::RoomClock;
use bevy::diagnostic::{
    DiagnosticsStore, EntityCountDiagnosticsPlugin, FrameTimeDiagnosticsPlugin,
};
use bevy::ecs::system::SystemParam;
use bevy::ecs::system::lifetimeless::SRes;
use bevy::prelude::*;
use bevy_perf_ui::entry::PerfUiEntry;
use bevy_perf_ui::prelude::*;
use bevy_perf_ui::utils::next_sort_key;
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
        if !app.is_plugin_added::<PerfUiPlugin>() {
            app.add_plugins(PerfUiPlugin);
        }
        app.add_perf_ui_simple_entry::<PerfUiEntryFps>()
            .add_perf_ui_simple_entry::<PerfUiEntryFrameTime>()
            .add_perf_ui_simple_entry::<PerfUiEntryEntities>()
            .add_perf_ui_simple_entry::<PerfUiEntrySimTick>()
            .add_perf_ui_simple_entry::<PerfUiEntryRoundTrip>()
            .add_perf_ui_simple_entry::<PerfUiEntryLoss>()
            .add_perf_ui_simple_entry::<PerfUiEntryBandwidth>()
            .add_perf_ui_simple_entry::<PerfUiEntryInputDelay>()
            .add_perf_ui_simple_entry::<PerfUiEntryLateFrames>()
            .add_perf_ui_simple_entry::<PerfUiEntryCorrections>();
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

/// One of our entries: a label, the reading it takes from [`PerfReadings`] and its format.
macro_rules! reading_entry {
    ($(#[$doc:meta])* $name:ident, $label:literal, $value:ty,
     |$r:ident| $get:expr, |$v:ident| $format:expr) => {
        $(#[$doc])*
        #[derive(Component, Debug, Clone)]
        #[require(PerfUiRoot)]
        pub struct $name {
            /// Where the entry sits in the overlay (the order the entries were made in).
            pub sort_key: i32,
        }

        impl Default for $name {
            fn default() -> Self {
                $name { sort_key: next_sort_key() }
            }
        }

        impl PerfUiEntry for $name {
            type SystemParam = SRes<PerfReadings>;
            type Value = $value;

            fn label(&self) -> &str {
                $label
            }

            fn sort_key(&self) -> i32 {
                self.sort_key
            }

            fn update_value(
                &self,
                $r: &mut <Self::SystemParam as SystemParam>::Item<'_, '_>,
            ) -> Option<$value> {
                $get
            }

            fn format_value(&self, $v: &$value) -> String {
                $format
            }
        }
    };
}

reading_entry!(
    /// Frames per second (Bevy's diagnostic, smoothed).
    PerfUiEntryFps, "FPS", f64, |r| r.fps, |v| format!("{v:.1}")
);
reading_entry!(
    /// Frame time, smoothed, and the worst of the diagnostic's history.
    PerfUiEntryFrameTime, "Frame time", (f64, f64), |r| r.frame_ms,
    |v| format!("{:.1} ms (worst {:.1})", v.0, v.1)
);
reading_entry!(
    /// Entities in the world.
    PerfUiEntryEntities, "Entities", f64, |r| r.entities, |v| format!("{v:.0}")
);
reading_entry!(
    /// The room's sim tick.
    PerfUiEntrySimTick, "Sim tick", u32, |r| r.tick, |v| v.to_string()
);
reading_entry!(
    /// Round trip to the server (the input link's, renet's until it has one).
    PerfUiEntryRoundTrip, "Round trip", f64, |r| r.net.map(|n| n.rtt_ms), |v| format!("{v:.0} ms")
);
reading_entry!(
    /// Packet loss (renet).
    PerfUiEntryLoss, "Loss", f64, |r| r.net.map(|n| n.loss_pct), |v| format!("{v:.1} %")
);
reading_entry!(
    /// Bytes per second up and down (renet).
    PerfUiEntryBandwidth, "Bandwidth", (f64, f64), |r| r.net.map(|n| (n.up, n.down)),
    |v| format_bandwidth(v.0, v.1)
);
reading_entry!(
    /// How far ahead of the server's clock frames are stamped (the input delay), in ticks.
    PerfUiEntryInputDelay, "Input delay", f64, |r| r.net.and_then(|n| n.input).map(|i| i.0),
    |v| format!("{v:.1} ticks")
);
reading_entry!(
    /// Frames the server applied after their tick.
    PerfUiEntryLateFrames, "Late frames", u32, |r| r.net.and_then(|n| n.input).map(|i| i.1),
    |v| v.to_string()
);
reading_entry!(
    /// The predicted cook's corrections per second.
    PerfUiEntryCorrections, "Corrections", f64, |r| r.corrections_per_s, |v| format!("{v:.1} /s")
);

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

/// The root and its entries, in the order shown (each entry's sort key is taken as it is made).
fn spawn_overlay(mut commands: Commands) {
    let root = PerfUiRoot {
        position: PerfUiPosition::BottomRight,
        margin: 8.0,
        background_color: Color::srgba(0.0, 0.0, 0.0, 0.7),
        text_err: "-".into(),
        fontsize_label: 14.0,
        fontsize_value: 14.0,
        values_col_width: 190.0,
        z_index: GlobalZIndex(90),
        ..default()
    };
    commands.spawn((
        PerfOverlay,
        root,
        (
            PerfUiEntryFps::default(),
            PerfUiEntryFrameTime::default(),
            PerfUiEntryEntities::default(),
            PerfUiEntrySimTick::default(),
        ),
        (
            PerfUiEntryRoundTrip::default(),
            PerfUiEntryLoss::default(),
            PerfUiEntryBandwidth::default(),
            PerfUiEntryInputDelay::default(),
            PerfUiEntryLateFrames::default(),
            PerfUiEntryCorrections::default(),
        ),
    ));
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
    fn our_entries_read_the_readings_and_format_them() {
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
        assert_eq!(format_bandwidth(900.0, 2200.0), "up 0.9 KB/s, down 2.2 KB/s");
        let e = PerfUiEntryInputDelay::default();
        assert_eq!(e.format_value(&3.24), "3.2 ticks");
        assert_eq!(PerfUiEntryRoundTrip::default().format_value(&23.4), "23 ms");
        assert_eq!(PerfUiEntryCorrections::default().format_value(&0.5), "0.5 /s");
        assert!(r.net.is_some());
        assert_eq!(
            PerfUiEntryFrameTime::default().format_value(&(16.68, 33.3)),
            "16.7 ms (worst 33.3)"
        );
        assert_eq!(PerfUiEntryFps::default().format_value(&59.94), "59.9");
        // Made in order, shown in order.
        let (a, b) = (PerfUiEntrySimTick::default(), PerfUiEntryLoss::default());
        assert!(PerfUiEntry::sort_key(&a) < PerfUiEntry::sort_key(&b));
    }
}
