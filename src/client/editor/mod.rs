//! The kitchen workshop: `undercooked edit FILE` and the main menu's "Kitchen workshop". A
//! top-down grid of the kitchen drawn with the game's own art (`client::kitchen` dresses the
//! same views a round shows), a cursor steered by mouse, keyboard or a gamepad alone, a palette
//! of tools, undo and redo, the validator's problems marked on their cells and listed beside
//! the grid, save (never invalid over a valid file), and Playtest. The document and every rule
//! of editing are `level::edit`'s; this folder draws and steers it.

pub mod controls;
pub mod doc;
pub mod hazard_art;
pub mod hazard_tool;
pub mod layout;
pub mod leave;
pub mod letter_wheel;
pub mod open;
pub mod panel;
pub mod playtest;
pub mod publish;
pub mod scene;
pub mod script;
pub mod settings_panel;

use crate::client::local::PlaytestLevel;
use crate::client::state::AppState;
use crate::schedule::FrameSystems;
use bevy::prelude::*;

/// The kitchen workshop's screen, controls, scene and script hook.
pub struct EditorPlugin;

impl Plugin for EditorPlugin {
    fn build(&self, app: &mut App) {
        let editing = in_state(AppState::Editor).and_then(resource_exists::<doc::EditorDoc>);
        app.add_systems(
            OnEnter(AppState::Editor),
            (
                panel::spawn_panel,
                settings_panel::spawn_settings,
                scene::mark_redraw,
                playtest::end_playtest,
            )
                .run_if(resource_exists::<doc::EditorDoc>),
        );
        app.add_systems(
            Update,
            playtest::follow_playtest
                .run_if(in_state(AppState::Playing).and_then(resource_exists::<PlaytestLevel>)),
        );
        app.add_systems(OnExit(AppState::Editor), scene::restore_camera);
        app.add_systems(OnEnter(AppState::Menu), leave::clear_bench);
        app.add_systems(OnEnter(AppState::Title), open::skip_title);
        app.add_systems(
            Update,
            (
                controls::steer_with_keys,
                controls::steer_with_pointer.run_if(settings_panel::settings_closed),
                controls::steer_with_pad,
                playtest::start_playtest.run_if(settings_panel::settings_closed),
                publish::start_publish,
                publish::follow_publish.run_if(resource_exists::<publish::Publishing>),
                leave::leave_editor.run_if(settings_panel::settings_closed),
                // Last: a key that opens or closes the panel means nothing else this frame.
                settings_panel::steer_settings,
            )
                .chain()
                .in_set(FrameSystems::Steer)
                .run_if(editing.clone()),
        );
        app.add_systems(
            Update,
            (
                scene::redraw_kitchen,
                hazard_art::draw_hazards,
                scene::place_cursor,
                panel::paint_panel,
                settings_panel::paint_settings,
            )
                .chain()
                .in_set(FrameSystems::Paint)
                .run_if(editing.clone()),
        );
        // After the kitchen's own camera fit (which a grid's arrival triggers): the editor's
        // camera looks straight down.
        app.add_systems(Update, scene::aim_camera.after(FrameSystems::Draw).run_if(editing));
        app.add_plugins(script::ScriptPlugin);
        app.init_resource::<scene::EditorArt>();
    }
}
