//! Rebinding on the Settings screen: the control waiting for its new key, the capture of the
//! next press, and the plugin that loads `config.ron` at start (defaults and a warning when it
//! is refused). Kept apart from `config` (the bindings and their file) so that file stays one
//! idea: what is bound, not how a player changes it.

use crate::client::settings::config::{
    Bindings, ConfigFile, ConfigWarning, Control, Press, Slot, bad_copy_path, config_path,
    load_bindings, store_bindings,
};
use bevy::prelude::*;

/// The Settings screen's rebinding: the control waiting for its new key, and the last answer.
#[derive(Resource, Clone, Debug, Default)]
pub struct Rebinding {
    pub target: Option<(Slot, Control)>,
    /// Set on the frame a capture starts: the press that chose the control is not its new key.
    pub armed: bool,
    /// "Up is now I", or why a press was refused.
    pub message: Option<String>,
}

impl Rebinding {
    pub fn start(&mut self, slot: Slot, control: Control) {
        self.target = Some((slot, control));
        self.armed = false;
        self.message = Some(format!(
            "Press the new {} for {} {} (Esc cancels{})",
            if slot == Slot::Gamepad { "button" } else { "key" },
            slot.name(),
            control.name(),
            if control.clearable() { ", Backspace clears" } else { "" }
        ));
    }
}

/// The key bindings from config.ron (defaults, with a warning, when it cannot be read).
pub struct ConfigPlugin;

impl Plugin for ConfigPlugin {
    fn build(&self, app: &mut App) {
        let file = ConfigFile(config_path());
        let (bindings, warning) = match &file.0 {
            Some(path) => load_bindings(path),
            None => (Bindings::default(), None),
        };
        let warning = warning.map(|e| {
            let kept = file.0.as_deref().map(bad_copy_path);
            let note = match kept {
                Some(bad) if e.code() != "CONFIG_UNREADABLE" => {
                    format!("{e}; using the default keys (your file is kept as {})", bad.display())
                }
                _ => format!("{e}; using the default keys"),
            };
            warn!("{note}");
            note
        });
        app.insert_resource(bindings).insert_resource(file).insert_resource(ConfigWarning(warning));
        app.init_resource::<Rebinding>();
    }
}

/// While a control waits for its key: the first key (keyboard slots) or gamepad button (the
/// gamepad slot) pressed becomes its binding if [`Bindings::rebind`] accepts it, and the
/// config file is rewritten. Esc cancels; Backspace or Delete clears a second action or the
/// emote button.
pub fn capture_rebind(
    keys: Res<ButtonInput<KeyCode>>,
    pads: Query<&Gamepad>,
    mut rebinding: ResMut<Rebinding>,
    mut bindings: ResMut<Bindings>,
    file: Res<ConfigFile>,
) {
    let Some((slot, control)) = rebinding.target else { return };
    if !rebinding.armed {
        rebinding.armed = true;
        return;
    }
    let press = if keys.just_pressed(KeyCode::Escape) {
        rebinding.target = None;
        rebinding.message = Some("Cancelled".into());
        return;
    } else if keys.any_just_pressed([KeyCode::Backspace, KeyCode::Delete]) {
        None
    } else if let Some(k) = keys.get_just_pressed().next() {
        Some(Press::Key(*k))
    } else if let Some(b) = pads.iter().find_map(|p| p.get_just_pressed().next().copied()) {
        Some(Press::Button(b))
    } else {
        return;
    };
    match bindings.rebind(slot, control, press) {
        Ok(()) => {
            rebinding.target = None;
            let saved = match &file.0 {
                Some(path) => match store_bindings(path, &bindings) {
                    Ok(()) => format!("saved to {}", path.display()),
                    Err(e) => format!("NOT saved: cannot write {}: {e}", path.display()),
                },
                None => "not saved: no folder for the config file".to_string(),
            };
            rebinding.message = Some(format!(
                "{} {} is now {} ({saved})",
                slot.name(),
                control.name(),
                bindings.label(slot, control)
            ));
        }
        // Refused: say why and keep waiting for another press.
        Err(why) => {
            rebinding.message = Some(format!("Refused: {why}. Press another (Esc cancels)"))
        }
    }
}
