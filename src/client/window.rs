//! The window and renderer: Bevy's default plugins as the game uses them.

use super::args::PlayArgs;
use bevy::app::PluginGroupBuilder;
use bevy::prelude::*;
use bevy::window::WindowResolution;

/// Bevy's default plugins as the game uses them, in `DefaultPlugins`' order (bevy_internal's
/// `default_plugins.rs` for the features the `client` set turns on), minus the 2D renderer:
/// sprites, 2D meshes and their ColorMaterial, tilemaps (`SpriteRenderPlugin`), which nothing
/// here draws with and which cost the browser download 0.7 MB. The group is spelled out
/// because `DefaultPlugins.build().disable::<…>()` still constructs (and so links) what it
/// disables. [`UiImageEventsPlugin`] keeps the one thing of the 2D renderer that Bevy's UI
/// renderer reads. Left out too: `DefaultPlugins`' private plugin that only silences the
/// ambiguity checker for animation and UI pairs we do not have.
pub struct GamePlugins;

impl PluginGroup for GamePlugins {
    fn build(self) -> PluginGroupBuilder {
        // Colour codes in the log only on a terminal (the browser logs to its console).
        #[cfg(not(target_arch = "wasm32"))]
        let log = crate::net::server::logs::log_plugin(crate::net::server::logs::LogFormat::Text);
        #[cfg(target_arch = "wasm32")]
        let log = bevy::log::LogPlugin::default();
        let group = PluginGroupBuilder::start::<Self>()
            .add(bevy::app::PanicHandlerPlugin)
            .add(log)
            .add(bevy::app::TaskPoolPlugin::default())
            .add(bevy::diagnostic::FrameCountPlugin)
            .add(bevy::time::TimePlugin)
            .add(bevy::transform::TransformPlugin)
            .add(bevy::diagnostic::DiagnosticsPlugin)
            .add(bevy::input::InputPlugin)
            .add(bevy::window::WindowPlugin::default())
            .add(bevy::a11y::AccessibilityPlugin);
        #[cfg(not(target_arch = "wasm32"))]
        let group = group.add(bevy::app::TerminalCtrlCHandlerPlugin);
        let group = group
            .add(bevy::asset::AssetPlugin::default())
            .add(bevy::winit::WinitPlugin::default())
            .add(bevy::render::RenderPlugin::default())
            .add(bevy::image::ImagePlugin::default())
            .add(bevy::mesh::MeshPlugin)
            .add(bevy::camera::CameraPlugin)
            .add(bevy::light::LightPlugin);
        #[cfg(not(target_arch = "wasm32"))]
        let group = group.add(bevy::render::pipelined_rendering::PipelinedRenderingPlugin);
        group
            .add(bevy::core_pipeline::CorePipelinePlugin)
            .add(bevy::sprite::SpritePlugin)
            .add(UiImageEventsPlugin)
            .add(bevy::text::TextPlugin)
            .add(bevy::ui::UiPlugin)
            .add(bevy::ui_render::UiRenderPlugin)
            .add(bevy::pbr::PbrPlugin::default())
            .add(bevy::audio::AudioPlugin::default())
            .add(bevy::gilrs::GilrsPlugin)
            .add(bevy::state::app::StatesPlugin)
    }
}

/// The part of `SpriteRenderPlugin` that `bevy_ui_render` depends on: the render world's list of
/// this frame's image events (`SpriteAssetEvents`), which it reads to drop bind groups of
/// images that changed. Without it every UI draw would fail its system-parameter check.
pub struct UiImageEventsPlugin;

impl Plugin for UiImageEventsPlugin {
    fn build(&self, app: &mut App) {
        use bevy::render::{ExtractSchedule, RenderApp};
        use bevy::sprite_render::{SpriteAssetEvents, extract_sprite_events};
        if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
            render_app
                .init_resource::<SpriteAssetEvents>()
                .add_systems(ExtractSchedule, extract_sprite_events);
        }
    }
}

/// Bevy's default plugins with the game window of `args`.
pub fn window_plugins(args: &PlayArgs) -> impl PluginGroup + use<> {
    let (w, h) = args.size;
    GamePlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "Undercooked".into(),
            // A fixed scale factor keeps screenshots exactly the requested size on any display.
            resolution: WindowResolution::new(w, h).with_scale_factor_override(1.0),
            ..default()
        }),
        ..default()
    })
}
