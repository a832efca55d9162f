//! The client's app: every client plugin in the order they are added, and `undercooked play`.

use super::args::{Options, PlayArgs};
use super::capture::framing::FramingCheckPlugin;
use super::capture::readout::HudReadoutPlugin;
use super::capture::report::DesignerReportPlugin;
use super::capture::shot::StartedAt;
use super::local::LocalHostPlugin;
use super::local::assist_menu::AssistMenuPlugin;
use super::local::backdrop::BackdropPlugin;
use super::local::bundle_playback::{PlaybackBundle, open_bundle};
use super::local::designer::DesignerOverlayPlugin;
use super::local::survival_menu::SurvivalMenuPlugin;
#[cfg(not(target_arch = "wasm32"))]
use super::online::WindowedOnlinePlugin;
#[cfg(not(target_arch = "wasm32"))]
use super::online::lobby_assist::LobbyAssistPlugin;
use super::online::lobby_mode::LobbyModePlugin;
use super::presentation::PresentationPlugin;
use super::screens::MenuScreensPlugin;
use super::screens::loading::{LoadingPlugin, register_content_sources};
use super::state::AppState;
use super::tandem::online::TandemOnlinePlugin;
use super::tandem::run::TandemRunPlugin;
use super::tandem::setup::TandemSetupPlugin;
use super::window::window_plugins;
use bevy::prelude::*;
use std::process::ExitCode;

/// Every client plugin, without the window and renderer (tests add them to headless apps).
pub struct ClientPlugin;

impl Plugin for ClientPlugin {
    fn build(&self, app: &mut App) {
        app.init_state::<AppState>();
        app.add_plugins(LoadingPlugin);
        // Local play: the embedded host first, the presentation, then the menu screens (Host and
        // Join among them, idle until chosen) and the designer tools on top (the order the
        // client was built and screenshot-tested in).
        app.add_plugins((
            LocalHostPlugin,
            PresentationPlugin,
            MenuScreensPlugin,
            DesignerOverlayPlugin,
        ));
        app.add_plugins((
            FramingCheckPlugin,
            AssistMenuPlugin,
            SurvivalMenuPlugin,
            DesignerReportPlugin,
            HudReadoutPlugin,
        ));
        // The live kitchen behind the title and menus, run by the same embedded host.
        app.add_plugins(BackdropPlugin);
        // Moving Day (Tandem): its setup screen, run, scene and HUD.
        // (The scene and HUD are the presentation's: online rounds draw with them too.)
        app.add_plugins((TandemSetupPlugin, TandemRunPlugin));
        // Host and Join: the client networking, idle until the menu connects; and a local
        // round's submission to a results board.
        #[cfg(not(target_arch = "wasm32"))]
        app.add_plugins((
            WindowedOnlinePlugin,
            LobbyAssistPlugin,
            super::local::board_submit::BoardSubmitPlugin,
        ));
        // Tandem runs' replay bundles (a folder to write them to: not in the browser).
        #[cfg(not(target_arch = "wasm32"))]
        app.add_plugins(super::tandem::record::TandemRecordPlugin);
        app.add_plugins((LobbyModePlugin, TandemOnlinePlugin));
        // The kitchen workshop (a desktop tool: it reads and writes level files).
        #[cfg(not(target_arch = "wasm32"))]
        app.add_plugins(super::editor::EditorPlugin);
    }
}

/// `undercooked edit`: the kitchen is read before the window opens (an unreadable file or a
/// bad size ends here, exit 2), then the game's window opens on the editor.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_editor(args: super::editor::open::EditArgs) -> ExitCode {
    use super::editor::open::{OpenEditorAtStart, open_doc};
    use super::editor::script::{ScriptRun, read_script};
    let started = bevy::platform::time::Instant::now();
    let opened = open_doc(&args).map_err(|e| e.to_string());
    let script = args.script.as_deref().map(read_script).transpose();
    let ((doc, play), script) = match (opened, script) {
        (Ok(opened), Ok(script)) => (opened, script),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut app = App::new();
    register_content_sources(&mut app, &play.levels, &play.recipes);
    app.add_plugins(window_plugins(&play));
    app.insert_resource(StartedAt(started));
    app.insert_resource(doc).insert_resource(OpenEditorAtStart);
    if let Some(script) = script {
        app.insert_resource(ScriptRun::new(script, args.screenshot.clone()));
    }
    app.insert_resource(Options(play));
    app.add_plugins(ClientPlugin);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// Opens the game window and runs until it closes.
pub fn run(args: PlayArgs) -> ExitCode {
    let started = bevy::platform::time::Instant::now();
    // A bundle to watch is read and checked before any window opens: a missing, unreadable or
    // edited one ends here with its reason (exit 2), as `replay check` would.
    let playback = match args.bundle.as_deref().map(open_bundle) {
        None => None,
        Some(Ok(bundle)) => Some(PlaybackBundle(bundle)),
        Some(Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // (Mutable only where an input script can take the screenshot from the options.)
    #[cfg(not(target_arch = "wasm32"))]
    let mut args = args;
    #[cfg(not(target_arch = "wasm32"))]
    let input_script = match args.input_script.as_deref().map(super::editor::script::read_script) {
        None => None,
        // `--screenshot` with an input script: the picture once the script has run.
        Some(Ok(script)) => {
            let shot = args.screenshot.take();
            Some(super::editor::script::ScriptRun::new(script, shot))
        }
        Some(Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut app = App::new();
    if let Some(p) = playback {
        app.insert_resource(p);
    }
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(run) = input_script {
        app.insert_resource(run);
    }
    register_content_sources(&mut app, &args.levels, &args.recipes);
    app.add_plugins(window_plugins(&args));
    app.insert_resource(StartedAt(started));
    app.insert_resource(Options(args));
    app.add_plugins(ClientPlugin);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
