//! The F3 performance overlay (bevy_perf_ui): FPS, frame time, render CPU time, entities.

use bevy::diagnostic::{EntityCountDiagnosticsPlugin, FrameTimeDiagnosticsPlugin};
use bevy::prelude::*;
use bevy_perf_ui::prelude::*;

pub(super) fn plugin(app: &mut App) {
    if !app.is_plugin_added::<FrameTimeDiagnosticsPlugin>() {
        app.add_plugins(FrameTimeDiagnosticsPlugin::default());
    }
    if !app.is_plugin_added::<EntityCountDiagnosticsPlugin>() {
        app.add_plugins(EntityCountDiagnosticsPlugin::default());
    }
    app.add_plugins(PerfUiPlugin);
    app.add_systems(Update, toggle_overlay.before(bevy_perf_ui::PerfUiSet::Setup));
}

/// F3 shows or hides the overlay.
fn toggle_overlay(
    mut commands: Commands,
    keys: Res<ButtonInput<KeyCode>>,
    roots: Query<Entity, With<PerfUiRoot>>,
) {
    if !keys.just_pressed(KeyCode::F3) {
        return;
    }
    match roots.single() {
        Ok(e) => commands.entity(e).despawn(),
        Err(_) => {
            commands.spawn((
                PerfUiDefaultEntries::default(),
                PerfUiRoot { position: PerfUiPosition::BottomRight, ..default() },
            ));
        }
    }
}
