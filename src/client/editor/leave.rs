//! Leaving the editor for the main menu: Escape (or a gamepad's LT + Select). With unsaved
//! changes the first press only warns (the panel says how to save); a second press leaves. The
//! kitchen on the bench goes with the editor, so the workshop's chooser opens the next one
//! fresh.

use super::doc::EditorDoc;
use crate::client::state::AppState;
use bevy::prelude::*;

/// Whether a gamepad asks to leave: Select with the left trigger (LT) held.
pub(super) fn pad_leaves(pad: &Gamepad) -> bool {
    pad.pressed(GamepadButton::LeftTrigger2) && pad.just_pressed(GamepadButton::Select)
}

/// Escape in the editor: warn once about unsaved changes, else back to the main menu.
pub(super) fn leave_editor(
    keys: Res<ButtonInput<KeyCode>>,
    pads: Query<&Gamepad>,
    mut ed: ResMut<EditorDoc>,
    mut next: ResMut<NextState<AppState>>,
) {
    let asked = keys.just_pressed(KeyCode::Escape) || pads.iter().any(pad_leaves);
    if !asked {
        return;
    }
    if ed.unsaved() && !ed.warned {
        ed.warned = true;
        ed.status = "unsaved changes: Ctrl+S saves them; Esc again leaves without saving".into();
        println!("editor: {}", ed.status);
        return;
    }
    println!("editor: back to the menu from {}", ed.path.display());
    next.set(AppState::Menu);
}

/// On the main menu: no kitchen on the bench (the workshop's chooser puts the next one there).
/// A publish under way goes on to the end on its thread (the file and index are written);
/// only its answer for the panel is dropped.
pub(super) fn clear_bench(mut commands: Commands) {
    commands.remove_resource::<EditorDoc>();
    commands.remove_resource::<super::publish::Publishing>();
}
