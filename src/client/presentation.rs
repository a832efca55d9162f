//! The plugins every game window presents the kitchen with, whoever runs its rooms.

use super::audio::SoundPlugin;
use super::capture::shot::ShotPlugin;
use super::hud::HudPlugin;
use super::input::CookInputPlugin;
use super::kitchen::KitchenPlugin;
use super::kitchen::interp::InterpPlugin;
use super::perf::PerfPlugin;
use super::save::SavePlugin;
use super::settings::access_sync::AccessibilityPlugin;
use super::settings::rebind::ConfigPlugin;
use super::tandem::beats::TandemBeatsPlugin;
use super::tandem::camera::TandemCameraPlugin;
use super::tandem::hud::TandemHudPlugin;
use super::tandem::scene::TandemScenePlugin;
use bevy::prelude::*;

/// The plugins that read views and devices and present them (no sim, no local host, no
/// menu): shared by local play ([`super::app::ClientPlugin`]), the online client
/// ([`super::online::join::run`]) and the browser.
pub struct PresentationPlugin;

impl Plugin for PresentationPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((
            ConfigPlugin,
            AccessibilityPlugin,
            CookInputPlugin,
            KitchenPlugin,
            InterpPlugin,
            HudPlugin,
            SoundPlugin,
            ShotPlugin,
            SavePlugin,
            PerfPlugin,
            // Tandem's scene, camera, HUD and sounds: whenever a run is on screen, local or
            // online.
            TandemScenePlugin,
            TandemCameraPlugin,
            TandemHudPlugin,
            TandemBeatsPlugin,
        ));
    }
}
