//! The F3 performance overlay (bevy_perf_ui): FPS, frame time, render CPU time, entities, the
//! room's sim tick, and — when connected to a server — ping, packet loss and bandwidth up and
//! down from renet's connection statistics (`RenetClient::network_info`).

use crate::protocol::RoomClock;
use bevy::diagnostic::{EntityCountDiagnosticsPlugin, FrameTimeDiagnosticsPlugin};
use bevy::ecs::system::SystemParam;
use bevy::ecs::system::lifetimeless::{Read, SRes};
use bevy::prelude::*;
use bevy_perf_ui::entry::PerfUiEntry;
use bevy_perf_ui::prelude::*;
use bevy_replicon_renet::RenetClient;
use bevy_replicon_renet::renet::NetworkInfo;

pub(super) fn plugin(app: &mut App) {
    if !app.is_plugin_added::<FrameTimeDiagnosticsPlugin>() {
        app.add_plugins(FrameTimeDiagnosticsPlugin::default());
    }
    if !app.is_plugin_added::<EntityCountDiagnosticsPlugin>() {
        app.add_plugins(EntityCountDiagnosticsPlugin::default());
    }
    app.add_plugins(PerfUiPlugin);
    app.add_perf_ui_simple_entry::<SimTickEntry>();
    app.add_perf_ui_simple_entry::<PingEntry>();
    app.add_perf_ui_simple_entry::<BandwidthEntry>();
    app.add_systems(Update, toggle_overlay.before(bevy_perf_ui::PerfUiSet::Setup));
}

/// The room's current sim tick (local or replicated).
#[derive(Component, Debug, Clone, Default)]
#[require(PerfUiRoot)]
pub struct SimTickEntry;

impl PerfUiEntry for SimTickEntry {
    type Value = u32;
    type SystemParam = Query<'static, 'static, Read<RoomClock>>;

    fn label(&self) -> &str {
        "Sim Tick"
    }
    // After bevy_perf_ui's own entries, whose keys count up from 0.
    fn sort_key(&self) -> i32 {
        10_000
    }
    fn update_value(
        &self,
        clocks: &mut <Self::SystemParam as SystemParam>::Item<'_, '_>,
    ) -> Option<u32> {
        clocks.iter().next().map(|c| c.tick)
    }
    fn format_value(&self, tick: &u32) -> String {
        tick.to_string()
    }
}

/// Round-trip time and packet loss of the server connection (only on an online client).
#[derive(Component, Debug, Clone, Default)]
#[require(PerfUiRoot)]
pub struct PingEntry;

impl PerfUiEntry for PingEntry {
    /// (rtt in ms, loss in %)
    type Value = (f64, f64);
    type SystemParam = Option<SRes<RenetClient>>;

    fn label(&self) -> &str {
        "Ping"
    }
    fn sort_key(&self) -> i32 {
        10_001
    }
    fn update_value(
        &self,
        client: &mut <Self::SystemParam as SystemParam>::Item<'_, '_>,
    ) -> Option<(f64, f64)> {
        let info = connected(client.as_deref())?;
        Some((info.rtt * 1000.0, info.packet_loss * 100.0))
    }
    fn format_value(&self, &(rtt, loss): &(f64, f64)) -> String {
        format_ping(rtt, loss)
    }
}

/// Bytes per second up and down the server connection (only on an online client).
#[derive(Component, Debug, Clone, Default)]
#[require(PerfUiRoot)]
pub struct BandwidthEntry;

impl PerfUiEntry for BandwidthEntry {
    /// (sent, received) bytes per second
    type Value = (f64, f64);
    type SystemParam = Option<SRes<RenetClient>>;

    fn label(&self) -> &str {
        "Bandwidth"
    }
    fn sort_key(&self) -> i32 {
        10_002
    }
    fn update_value(
        &self,
        client: &mut <Self::SystemParam as SystemParam>::Item<'_, '_>,
    ) -> Option<(f64, f64)> {
        let info = connected(client.as_deref())?;
        Some((info.bytes_sent_per_second, info.bytes_received_per_second))
    }
    fn format_value(&self, &(up, down): &(f64, f64)) -> String {
        format_bandwidth(up, down)
    }
}

fn connected(client: Option<&RenetClient>) -> Option<NetworkInfo> {
    client.filter(|c| c.is_connected()).map(|c| c.network_info())
}

/// "23 ms, 0.0 % loss" (renet's rtt is in seconds; the caller converts).
pub fn format_ping(rtt_ms: f64, loss_pct: f64) -> String {
    format!("{rtt_ms:.0} ms, {loss_pct:.1} % loss")
}

/// "up 0.9 KB/s, down 2.2 KB/s".
pub fn format_bandwidth(up: f64, down: f64) -> String {
    format!("up {:.1} KB/s, down {:.1} KB/s", up / 1000.0, down / 1000.0)
}

/// F3 shows or hides the overlay; its network lines are there when a connection is.
fn toggle_overlay(
    mut commands: Commands,
    keys: Res<ButtonInput<KeyCode>>,
    roots: Query<Entity, With<PerfUiRoot>>,
    client: Option<Res<RenetClient>>,
) {
    if !keys.just_pressed(KeyCode::F3) {
        return;
    }
    match roots.single() {
        Ok(e) => {
            commands.entity(e).despawn();
        }
        Err(_) => {
            let mut root = commands.spawn((
                PerfUiDefaultEntries::default(),
                SimTickEntry,
                PerfUiRoot { position: PerfUiPosition::BottomRight, ..default() },
            ));
            if client.is_some() {
                root.insert((PingEntry, BandwidthEntry));
            }
        }
    }
}
