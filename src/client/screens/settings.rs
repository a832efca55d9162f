//! The Settings screen: the volume, the key table (one column per slot, a control a line,
//! rebound by pressing the new key), the accessibility options, the directory Play online asks
//! (typed, saved in config.ron when typing ends), and resetting the keys.

use crate::client::save::SaveData;
use crate::client::screens::join_form::{JoinField, JoinForm};
use crate::client::screens::nav::{
    Cursor, MenuAction, MenuChoice, MenuItem, spawn_item, spawn_items,
};
use crate::client::settings::access::{AccessOption, Accessibility};
use crate::client::settings::access_sync::AccessChoice;
use crate::client::settings::config::{
    Bindings, ConfigFile, ConfigWarning, Control, Slot, store_bindings, warning_line,
};
use crate::client::settings::rebind::{Rebinding, capture_rebind};
use crate::client::state::AppState;
use crate::client::theme::{MENU_GAP, PLAIN, WARNING, paragraph, screen, title};
use crate::schedule::FrameSystems;
use bevy::prelude::*;

/// The Settings screen's line under the key table: what rebinding waits for, its last answer,
/// or why the config file was refused at start.
#[derive(Component)]
struct RebindText;

/// The Settings screen and its lines' answers.
pub struct SettingsScreenPlugin;

impl Plugin for SettingsScreenPlugin {
    fn build(&self, app: &mut App) {
        app.add_observer(answer_settings);
        app.add_systems(OnEnter(AppState::Settings), spawn_settings);
        app.add_systems(OnExit(AppState::Settings), |mut r: ResMut<Rebinding>| *r = default());
        let here = || in_state(AppState::Settings);
        app.add_systems(Update, capture_rebind.in_set(FrameSystems::Listen).run_if(here()));
        app.add_systems(
            Update,
            (store_directory, relabel_settings)
                .chain()
                .in_set(FrameSystems::Relabel)
                .run_if(here()),
        );
        app.add_systems(Update, paint_rebind_text.in_set(FrameSystems::Paint).run_if(here()));
    }
}

fn volume_label(v: f32) -> String {
    format!("Volume  < {:>3}% >", (v * 100.0).round() as u32)
}

fn rebind_label(
    bindings: &Bindings,
    rebinding: &Rebinding,
    slot: Slot,
    control: Control,
) -> String {
    if rebinding.target == Some((slot, control)) {
        format!("{}: press...", control.name())
    } else {
        format!("{}: {}", control.name(), bindings.label(slot, control))
    }
}

fn spawn_settings(
    mut commands: Commands,
    mut cursor: ResMut<Cursor>,
    save: Res<SaveData>,
    bindings: Res<Bindings>,
    warning: Res<ConfigWarning>,
    mut form: ResMut<JoinForm>,
) {
    cursor.0 = 0;
    form.editing = None;
    form.directory = bindings.directory.clone().unwrap_or_default();
    let directory = form.field_label(JoinField::Directory);
    let rebinding = Rebinding::default();
    commands.spawn(screen(AppState::Settings, MENU_GAP)).with_children(|p| {
        p.spawn(title("Settings", 44.0));
        spawn_items(p, vec![(MenuAction::Volume, volume_label(save.volume))]);
        // The key table: one column per slot, one cell per control (index 1 + column * 8 + row).
        p.spawn(Node { flex_direction: FlexDirection::Row, column_gap: px(16), ..default() })
            .with_children(|table| {
                for (col, slot) in Slot::ALL.into_iter().enumerate() {
                    table
                        .spawn(Node {
                            flex_direction: FlexDirection::Column,
                            align_items: AlignItems::Center,
                            row_gap: px(4),
                            ..default()
                        })
                        .with_children(|column| {
                            column.spawn(title(slot.name(), 20.0));
                            for (row, control) in Control::ALL.into_iter().enumerate() {
                                let label = rebind_label(&bindings, &rebinding, slot, control);
                                spawn_item(
                                    column,
                                    1 + col * Control::ALL.len() + row,
                                    MenuAction::Rebind(slot, control),
                                    label,
                                    // Wide enough for "Dash / throw: Right Shift" on one line.
                                    (px(310), 18.0),
                                );
                            }
                        });
                }
            });
        let first = 1 + Slot::ALL.len() * Control::ALL.len();
        // The accessibility options, one row under the key table, each on one line (five of
        // them across a 1280 px window; a wrapped one pushed the help text off the bottom).
        p.spawn(Node { flex_direction: FlexDirection::Row, column_gap: px(6), ..default() })
            .with_children(|row| {
                for (k, option) in AccessOption::ALL.into_iter().enumerate() {
                    let line = bindings.accessibility.label(option);
                    spawn_item(row, first + k, MenuAction::Access(option), line, (px(246), 15.0));
                }
            });
        let first = first + AccessOption::ALL.len();
        let typed = MenuAction::EditField(JoinField::Directory);
        spawn_item(p, first, typed, directory, (px(640), 18.0));
        let reset = "Reset keys to defaults".into();
        spawn_item(p, first + 1, MenuAction::ResetKeys, reset, (px(420), 22.0));
        spawn_item(p, first + 2, MenuAction::Back, "Back".into(), (px(420), 22.0));
        let refusal = warning.0.as_deref().map(warning_line).unwrap_or_default();
        p.spawn((RebindText, paragraph(refusal, 16.0, WARNING)));
        p.spawn(paragraph(
            "Choose a control, then press its new key (or gamepad button). The left stick always moves.\nHold Emote and push a direction: up Here!, left Help!, right Thanks!, down Hurry!\nIn a round: P / Esc / Start pauses, then R restarts and M leaves; F3 shows the performance overlay",
            15.0,
            PLAIN,
        ));
    });
}

/// The volume, a control to rebind, an accessibility option, and the keys reset.
fn answer_settings(
    choice: On<MenuChoice>,
    mut save: ResMut<SaveData>,
    mut bindings: ResMut<Bindings>,
    mut rebinding: ResMut<Rebinding>,
    file: Res<ConfigFile>,
    mut commands: Commands,
) {
    match choice.action {
        MenuAction::Volume => {
            let step = if choice.left { -0.1 } else { 0.1 };
            let v = save.volume + step;
            // Confirm and Right go up and wrap to mute after full; Left goes down.
            save.volume = if v > 1.05 { 0.0 } else { v.clamp(0.0, 1.0) };
            save.store();
        }
        MenuAction::Rebind(slot, control) => rebinding.start(slot, control),
        MenuAction::Access(option) => {
            commands.trigger(AccessChoice { option, up: !choice.left });
        }
        MenuAction::ResetKeys => {
            // Only the keys: the accessibility options and directory saved beside them stay.
            let directory = bindings.directory.clone();
            *bindings = Bindings { accessibility: bindings.accessibility, directory, ..default() };
            rebinding.message = Some(match &file.0 {
                Some(path) => match store_bindings(path, &bindings) {
                    Ok(()) => format!("Default keys restored (saved to {})", path.display()),
                    Err(e) => format!("Default keys restored, NOT saved: {e}"),
                },
                None => "Default keys restored".into(),
            });
        }
        _ => {}
    }
}

/// The volume, each key and each accessibility option as they are now.
fn relabel_settings(
    save: Res<SaveData>,
    bindings: Res<Bindings>,
    rebinding: Res<Rebinding>,
    access: Res<Accessibility>,
    form: Res<JoinForm>,
    mut items: Query<&mut MenuItem>,
) {
    for mut item in &mut items {
        match item.action {
            MenuAction::Volume => item.label = volume_label(save.volume),
            MenuAction::Rebind(slot, control) => {
                item.label = rebind_label(&bindings, &rebinding, slot, control);
            }
            MenuAction::Access(option) => item.label = access.label(option),
            MenuAction::EditField(field) => item.label = form.field_label(field),
            _ => {}
        }
    }
}

/// When typing into the directory field ends, its text is the saved directory (blank: none),
/// written to config.ron at once.
fn store_directory(
    form: Res<JoinForm>,
    mut bindings: ResMut<Bindings>,
    mut rebinding: ResMut<Rebinding>,
    file: Res<ConfigFile>,
) {
    if form.editing.is_some() || !form.is_changed() {
        return;
    }
    let typed = form.directory.trim();
    let wanted = (!typed.is_empty()).then(|| typed.to_string());
    if bindings.directory == wanted {
        return;
    }
    bindings.directory = wanted;
    let what = bindings.directory.as_deref().unwrap_or("none");
    rebinding.message = Some(match &file.0 {
        Some(path) => match store_bindings(path, &bindings) {
            Ok(()) => format!("Directory {what} (saved to {})", path.display()),
            Err(e) => format!("Directory {what}, NOT saved: {e}"),
        },
        None => format!("Directory {what}"),
    });
}

/// The line under the key table says rebinding's last word.
fn paint_rebind_text(rebinding: Res<Rebinding>, mut text: Query<&mut Text, With<RebindText>>) {
    if let Ok(mut t) = text.single_mut()
        && let Some(message) = &rebinding.message
        && t.0 != *message
    {
        t.0 = message.clone();
    }
}
