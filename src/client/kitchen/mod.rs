//! The kitchen in 3D: a tilted camera over the grid, primitive meshes for tiles, stations,
//! items and cooks, spawned by observers as view components appear and posed every frame.
//! One file per thing drawn; this one wires them into the frame.
//!
//! World space: x = grid column, z = grid row (rows grow toward the camera), y = up; one tile
//! is one world unit, so a µtile position divided by 1 000 000 is a world position.

pub mod interp;

pub mod art;
mod camera;
mod cooks;
mod dash;
mod food;
mod grid;
mod hazards;
mod items;
mod outline;
mod particles;
mod stations;
mod throws;

pub use camera::{KitchenCamera, SafeArea, TILE_TOP, fit_camera};
pub use stations::DressedAs;
pub use throws::FlightShadow;

use super::theme::VOID;
use crate::schedule::FrameSystems;
use bevy::prelude::*;

/// The 3D kitchen dressed from the views, posed every frame.
pub struct KitchenPlugin;

impl Plugin for KitchenPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<art::Art>().init_resource::<outline::OutlineMaterial>();
        app.insert_resource(ClearColor(VOID));
        app.insert_resource(GlobalAmbientLight {
            color: Color::WHITE,
            brightness: 500.0,
            ..default()
        });
        app.add_systems(Startup, camera::spawn_camera);
        app.add_observer(stations::dress_station)
            .add_observer(cooks::dress_cook)
            .add_observer(items::dress_item);
        app.add_systems(
            Update,
            (
                grid::build_grid,
                stations::redress_stations,
                camera::frame_kitchen,
                items::restyle_items,
                outline::outline_items,
                cooks::pose_cooks,
                // After the cooks: an item in hand follows its cook's pose of this frame.
                items::place_items,
                stations::show_station_state,
                hazards::sync_hazards,
                hazards::pose_carts,
                stations::flicker_flames,
                hazards::flash_shifts,
                particles::emit_particles,
                particles::drift_particles,
                throws::shadow_flights,
                throws::pop_catches,
                throws::fade_pops,
                dash::mark_dashes,
                dash::fade_afterimages,
            )
                .chain()
                .in_set(FrameSystems::Draw),
        );
    }
}
