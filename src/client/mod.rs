//! The desktop client: window, states, and the plugins that draw, hear and steer the kitchen.
//!
//! Everything under here reads only the view components of `protocol.rs` and the `RoomTick`
//! messages, so online play can reuse it; the one exception is `local`, the embedded server of
//! a local game, which spawns rooms and feeds them input frames. `online` is the window on a
//! hosted room: the same presentation, fed by replicon instead of the local host.

pub mod audio;
pub mod config;
pub mod designer;
pub mod device;
pub mod hud;
pub mod input;
pub mod interp;
pub mod kitchen;
pub mod loading;
pub mod local;
pub mod menu;
#[cfg(not(target_arch = "wasm32"))]
pub mod netmenu;
pub mod online;
#[cfg(not(target_arch = "wasm32"))]
pub mod paste;
pub mod perf;
pub mod save;
pub mod shot;
pub mod theme;
#[cfg(target_arch = "wasm32")]
pub mod web;

use crate::sim::units::MAX_COOKS;
use bevy::app::PluginGroupBuilder;
use bevy::prelude::*;
use bevy::window::WindowResolution;
use std::path::PathBuf;
use std::process::ExitCode;

/// `undercooked play` (and `undercooked` with no arguments).
#[derive(clap::Args, Clone, Debug)]
pub struct PlayArgs {
    /// Start this level directly (an id from the levels folder, or a path to a level file).
    /// Without it the game opens on the title screen.
    #[arg(long)]
    pub level: Option<String>,
    /// Local cooks (1–4): keyboard halves first, then gamepads.
    #[arg(
        long,
        default_value_t = 1,
        value_parser = clap::value_parser!(u8).range(1..=MAX_COOKS as i64)
    )]
    pub players: u8,
    /// Drive every cook by a generator instead of the devices (for automated looking).
    #[arg(long, value_enum)]
    pub autoplay: Option<Autoplay>,
    /// Planner bots seated after the local players (0–3; the kitchen holds four cooks).
    #[arg(
        long,
        default_value_t = 0,
        value_parser = clap::value_parser!(u8).range(0..=MAX_COOKS as i64 - 1)
    )]
    pub bots: u8,
    /// Designer mode (with `--level`): a saved edit of the level restarts it at once, a broken
    /// edit is listed on screen; F2 shows grid coordinates and station indices, F5 re-seeds.
    #[arg(long, requires = "level")]
    pub designer: bool,
    /// Save a screenshot here and exit 0 (after `--after-ticks` sim ticks, or after
    /// `--after-frames` frames on the menu when no level is given).
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    #[arg(long, default_value_t = 60)]
    pub after_ticks: u32,
    /// Frames on the menu before its screenshot (the first few come out black while the
    /// renderer compiles its pipelines).
    #[arg(long, default_value_t = 60)]
    pub after_frames: u32,
    /// Open this menu screen instead of the main menu (for screenshots of it; `host` hosts a
    /// LAN game, and with `--autoplay` goes on into its kitchen, `--after-ticks` counting there).
    #[arg(long, value_enum, conflicts_with = "level")]
    pub screen: Option<Screen>,
    /// Window size in physical pixels, WxH.
    #[arg(long, default_value = "1280x720", value_parser = parse_size)]
    pub size: (u32, u32),
    /// Override the level's round length (seconds): short rounds for testing the round end.
    #[arg(long)]
    pub round_seconds: Option<u32>,
    /// The room's seed (orders and the random autoplay derive from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print start-up time and the client systems' CPU time per frame when the app exits.
    #[arg(long)]
    pub measure: bool,
    /// Open with the F3 performance overlay shown (FPS, frame time, sim tick, network).
    #[arg(long)]
    pub perf: bool,
    /// Exit after this many sim ticks (with `--measure`: a timed run without a screenshot).
    #[arg(long)]
    pub exit_after_ticks: Option<u32>,
    /// Folder of level files (and `index.ron`).
    #[arg(long, default_value = "levels")]
    pub levels: PathBuf,
    /// The recipe book.
    #[arg(long, default_value = "assets/recipes.ron")]
    pub recipes: PathBuf,
}

impl Default for PlayArgs {
    fn default() -> Self {
        PlayArgs {
            level: None,
            players: 1,
            autoplay: None,
            bots: 0,
            designer: false,
            screenshot: None,
            after_ticks: 60,
            after_frames: 60,
            screen: None,
            size: (1280, 720),
            round_seconds: None,
            seed: 1,
            measure: false,
            perf: false,
            exit_after_ticks: None,
            levels: PathBuf::from("levels"),
            recipes: PathBuf::from("assets/recipes.ron"),
        }
    }
}

/// The menu screens `--screen` opens.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    Menu,
    LevelSelect,
    Settings,
    Host,
    Join,
}

impl Screen {
    pub fn state(self) -> AppState {
        match self {
            Screen::Menu => AppState::Menu,
            Screen::LevelSelect => AppState::LevelSelect,
            Screen::Settings => AppState::Settings,
            Screen::Host => AppState::Host,
            Screen::Join => AppState::Join,
        }
    }
}

/// Input generators for automated runs.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Autoplay {
    /// Seeded SplitMix64 stick and button presses for every seat.
    Random,
    /// Every seat is a planner bot (`bot::planner::BotTeam`) that cooks for real.
    Bot,
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s.split_once('x').ok_or("expected WxH, e.g. 1280x720")?;
    let w: u32 = w.parse().map_err(|e| format!("width: {e}"))?;
    let h: u32 = h.parse().map_err(|e| format!("height: {e}"))?;
    if w < 64 || h < 64 {
        return Err("the window must be at least 64x64".into());
    }
    Ok((w, h))
}

/// The screens of the game.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AppState {
    /// The content loads (`loading`): a progress bar, then the title.
    #[default]
    Loading,
    Title,
    Menu,
    LevelSelect,
    Settings,
    /// Hosting a LAN game (native): the address, room code and join link, and who has joined.
    Host,
    /// Joining a game (native): address and room code, or a join link.
    Join,
    Playing,
}

/// The window is connected to a server (the menu's Host or Join): the local host stands down —
/// no local room, no sim stage runs — and the kitchen shows the server's replicated views.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct Online;

/// The command line, for every plugin that needs it.
#[derive(Resource, Clone, Debug)]
pub struct Options(pub PlayArgs);

/// Client systems that run every display frame (the measured set).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PresentSystems;

/// Every client plugin, without the window and renderer (tests add them to headless apps).
pub struct ClientPlugin;

impl Plugin for ClientPlugin {
    fn build(&self, app: &mut App) {
        app.init_state::<AppState>();
        app.add_plugins(loading::plugin);
        // Local play: the embedded host first, the presentation, then the menu and the designer
        // tools on top (the order the client was built and screenshot-tested in).
        app.add_plugins(local::plugin);
        presentation(app);
        app.add_plugins((menu::plugin, designer::plugin));
        // Host and Join: the client networking, idle until the menu connects.
        #[cfg(not(target_arch = "wasm32"))]
        app.add_plugins((online::windowed_plugin, netmenu::plugin));
    }
}

/// The plugins that read views and devices and present them (no sim, no local host, no
/// menu): shared by local play ([`ClientPlugin`]) and the online client ([`online::run`]).
pub fn presentation(app: &mut App) {
    app.add_plugins((
        config::plugin,
        input::plugin,
        kitchen::plugin,
        interp::plugin,
        hud::plugin,
        audio::plugin,
        shot::plugin,
        save::plugin,
        perf::plugin,
    ));
}

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
        let group = PluginGroupBuilder::start::<Self>()
            .add(bevy::app::PanicHandlerPlugin)
            .add(bevy::log::LogPlugin::default())
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

/// Opens the game window and runs until it closes.
pub fn run(args: PlayArgs) -> ExitCode {
    let started = bevy::platform::time::Instant::now();
    let mut app = App::new();
    loading::register_content_sources(&mut app, &args.levels, &args.recipes);
    app.add_plugins(window_plugins(&args));
    app.insert_resource(shot::StartedAt(started));
    app.insert_resource(Options(args));
    app.add_plugins(ClientPlugin);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
