//! The accessibility options in force: applied from the saved config (Bevy's `UiScale`, the
//! [`Palette`], the [`Accessibility`] resource) and stepped and saved from Settings.

use crate::client::settings::access::{AccessOption, Accessibility};
use crate::client::settings::config::{Bindings, ConfigFile, store_bindings};
use crate::client::settings::palette::Palette;
use crate::client::settings::rebind::Rebinding;
use bevy::prelude::*;

/// The Settings screen stepped an option (`up`: Right or confirm).
#[derive(Event, Clone, Copy, Debug)]
pub struct AccessChoice {
    pub option: AccessOption,
    pub up: bool,
}

/// The accessibility options: applied from the loaded config, and changed from Settings.
pub struct AccessibilityPlugin;

impl Plugin for AccessibilityPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Accessibility>().init_resource::<Palette>().init_resource::<UiScale>();
        app.add_observer(step_option);
        app.add_systems(PreUpdate, apply_accessibility);
    }
}

/// The options saved in the bindings file are the ones in force: whenever `Bindings` changes
/// (loaded at start, saved from Settings), the resource, the palette and the UI scale follow.
fn apply_accessibility(
    bindings: Option<Res<Bindings>>,
    mut access: ResMut<Accessibility>,
    mut palette: ResMut<Palette>,
    mut scale: ResMut<UiScale>,
) {
    let Some(bindings) = bindings else { return };
    let wanted = bindings.accessibility;
    if *access != wanted {
        *access = wanted;
    }
    if palette.0 != wanted.palette {
        palette.0 = wanted.palette;
        crate::client::settings::palette::set_active(wanted.palette);
    }
    if scale.0 != wanted.ui_factor() {
        scale.0 = wanted.ui_factor();
    }
}

/// Step the option in the bindings and save the file, saying so on the Settings screen.
fn step_option(
    choice: On<AccessChoice>,
    mut bindings: ResMut<Bindings>,
    file: Res<ConfigFile>,
    mut rebinding: ResMut<Rebinding>,
) {
    let mut access = bindings.accessibility;
    access.step(choice.option, choice.up);
    bindings.accessibility = access;
    let saved = match &file.0 {
        Some(path) => match store_bindings(path, &bindings) {
            Ok(()) => format!("saved to {}", path.display()),
            Err(e) => format!("NOT saved: cannot write {}: {e}", path.display()),
        },
        None => "not saved: no folder for the config file".to_string(),
    };
    rebinding.message = Some(format!("{} ({saved})", access.label(choice.option)));
}
