//! The camera over the kitchen and the light it sees by: tilted over the grid and re-aimed
//! whenever a grid arrives (`grid::build_grid`).

use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::prelude::*;

/// The camera over the kitchen.
#[derive(Component)]
pub struct KitchenCamera;

/// The camera (aimed at a default grid until one arrives) and the sun.
pub(super) fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Camera3d::default(),
        // Bevy's default curve (TonyMcMapface) reads a lookup table the client does not ship
        // (Cargo.toml: no `tonemapping_luts`, ~1 MB of the browser download); this one is
        // computed in the shader and looks close to it.
        Tonemapping::SomewhatBoringDisplayTransform,
        KitchenCamera,
        Transform::from_xyz(4.5, 9.0, 9.0).looking_at(Vec3::new(4.5, 0.0, 2.5), Vec3::Y),
    ));
    commands.spawn((
        DirectionalLight { illuminance: 9_000.0, shadow_maps_enabled: false, ..default() },
        Transform::from_xyz(2.0, 10.0, 6.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

/// Fit the camera to a `w`×`h` grid: tilted ~55°, far enough back to show every column.
pub(super) fn camera_for_grid(w: f32, h: f32) -> Transform {
    let centre = Vec3::new(w / 2.0, 0.0, h / 2.0);
    let dist = ((w / 2.0 + 1.0) / 0.75).max((h / 2.0 + 1.2) / 0.45).max(6.0);
    let tilt = 55f32.to_radians();
    // Aim a little above the middle row: the order rail covers the top of the window.
    let target = centre + Vec3::new(0.0, 0.0, -0.35);
    Transform::from_translation(target + Vec3::new(0.0, dist * tilt.sin(), dist * tilt.cos()))
        .looking_at(target, Vec3::Y)
}
