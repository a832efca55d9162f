//! The settings panel: Tab (or a gamepad's right-stick press) opens the kitchen's settings over
//! the grid (`level::edit::settings`'s rows). Up / Down (or the d-pad) pick a row, Left / Right
//! (d-pad, or South for one step up) step it, each step one undoable edit; on the name or hint
//! Enter (or South) starts typing, Enter (South) keeps the text (one edit), Escape (East) drops
//! it; a pad types on the letter wheel (`letter_wheel`). Tab, Escape or the
//! pad's East closes the panel. While it is open the grid's own keys rest (Ctrl+Z / Y / S and
//! the pad's undo, redo and save still work).

use super::doc::EditorDoc;
use super::letter_wheel::{WheelPress, turn_wheel};
use crate::client::state::AppState;
use crate::client::theme::{PLAIN, font};
use crate::level::edit::settings::{label, step};
use crate::level::edit::{Edit, Setting, settings_of};
use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;

/// The panel: open or not, the row picked, and the text being typed into the name or hint.
#[derive(Resource, Default, Debug)]
pub struct SettingsPanel {
    pub open: bool,
    pub row: usize,
    pub typing: Option<String>,
}

/// Whether the grid's controls may act (the settings panel is closed).
pub(super) fn settings_closed(panel: Option<Res<SettingsPanel>>) -> bool {
    panel.is_none_or(|p| !p.open)
}

/// The panel's text over the grid.
#[derive(Component)]
pub(super) struct SettingsText;

/// A fresh, closed panel on every entry into the editor.
pub(super) fn spawn_settings(mut commands: Commands) {
    commands.insert_resource(SettingsPanel::default());
    commands.spawn((
        Node {
            position_type: PositionType::Absolute,
            left: px(16.0),
            top: px(44.0),
            padding: UiRect::all(px(12.0)),
            ..default()
        },
        BackgroundColor(Color::srgba(0.06, 0.07, 0.1, 0.95)),
        Text::new(""),
        font(15.0),
        TextColor(PLAIN),
        Visibility::Hidden,
        SettingsText,
        DespawnOnExit(AppState::Editor),
    ));
}

/// The pad button that opens and closes the panel: the right stick pressed in.
const PAD_OPEN: GamepadButton = GamepadButton::RightThumb;

/// Open / close, pick, step and type, from the keyboard and every gamepad.
pub(super) fn steer_settings(
    keys: Res<ButtonInput<KeyCode>>,
    mut typed: MessageReader<KeyboardInput>,
    pads: Query<&Gamepad>,
    mut panel: ResMut<SettingsPanel>,
    mut ed: ResMut<EditorDoc>,
) {
    let pad = |b: GamepadButton| pads.iter().any(|p| p.just_pressed(b));
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let text: Vec<KeyboardInput> = typed.read().cloned().collect();
    if !panel.open {
        if !ctrl && keys.just_pressed(KeyCode::Tab) || pad(PAD_OPEN) {
            panel.open = true;
            println!("editor: settings open");
        }
        return;
    }
    let rows = settings_of(ed.doc.file(), ed.doc.book());
    panel.row = panel.row.min(rows.len().saturating_sub(1));
    let row = rows[panel.row];
    if let Some(mut typing) = panel.typing.take() {
        if keys.just_pressed(KeyCode::Escape) || pad(GamepadButton::East) {
            return;
        }
        if keys.just_pressed(KeyCode::Enter) || pad(GamepadButton::South) {
            let edit =
                if row == Setting::Name { Edit::SetName(typing) } else { Edit::SetHint(typing) };
            ed.apply(&edit);
            return;
        }
        for k in text.iter().filter(|k| k.state == ButtonState::Pressed) {
            if k.key_code == KeyCode::Backspace {
                typing.pop();
                continue;
            }
            match &k.logical_key {
                Key::Backspace => drop(typing.pop()),
                Key::Character(c) => typing.push_str(c),
                Key::Space => typing.push(' '),
                _ => {}
            }
        }
        for (button, press) in [
            (GamepadButton::DPadDown, WheelPress::Next),
            (GamepadButton::DPadUp, WheelPress::Previous),
            (GamepadButton::DPadRight, WheelPress::Add),
            (GamepadButton::DPadLeft, WheelPress::Remove),
        ] {
            if pad(button) {
                turn_wheel(&mut typing, press);
            }
        }
        panel.typing = Some(typing);
        return;
    }
    if ctrl {
        return;
    }
    if keys.any_just_pressed([KeyCode::Tab, KeyCode::Escape])
        || pad(GamepadButton::East)
        || pad(PAD_OPEN)
    {
        panel.open = false;
        println!("editor: settings closed");
        return;
    }
    let n = rows.len().max(1);
    if keys.just_pressed(KeyCode::ArrowUp) || pad(GamepadButton::DPadUp) {
        panel.row = (panel.row + n - 1) % n;
    }
    if keys.just_pressed(KeyCode::ArrowDown) || pad(GamepadButton::DPadDown) {
        panel.row = (panel.row + 1) % n;
    }
    let row = rows[panel.row.min(n - 1)];
    if row.is_text() && (keys.just_pressed(KeyCode::Enter) || pad(GamepadButton::South)) {
        let now = if row == Setting::Name { &ed.doc.file().name } else { &ed.doc.file().hint };
        panel.typing = Some(now.clone());
        return;
    }
    let left = keys.just_pressed(KeyCode::ArrowLeft) || pad(GamepadButton::DPadLeft);
    let right = keys.just_pressed(KeyCode::ArrowRight)
        || pad(GamepadButton::DPadRight)
        || pad(GamepadButton::South);
    for (go, dir) in [(left, -1), (right, 1)] {
        if go && let Some(edit) = step(ed.doc.file(), ed.doc.book(), row, dir) {
            ed.apply(&edit);
        }
    }
}

/// Rows shown at once: the picked one stays in view.
const SHOWN_ROWS: usize = 20;

/// The panel's words: every row with its value, the picked one marked, the keys at the foot.
pub(super) fn paint_settings(
    panel: Res<SettingsPanel>,
    ed: Res<EditorDoc>,
    mut text: Query<(&mut Text, &mut Visibility), With<SettingsText>>,
) {
    let Ok((mut t, mut visible)) = text.single_mut() else { return };
    let want = if panel.open { Visibility::Inherited } else { Visibility::Hidden };
    if *visible != want {
        *visible = want;
    }
    if !panel.open {
        return;
    }
    let (file, book) = (ed.doc.file(), ed.doc.book());
    let rows = settings_of(file, book);
    let first = panel.row.saturating_sub(SHOWN_ROWS - 1);
    let mut s = String::from("Kitchen settings\n");
    for (i, row) in rows.iter().enumerate().skip(first).take(SHOWN_ROWS) {
        let words = match (&panel.typing, i == panel.row) {
            (Some(typing), true) => {
                format!("{}: \"{typing}_\"", if *row == Setting::Name { "Name" } else { "Hint" })
            }
            _ => label(file, book, *row),
        };
        let mark = if i == panel.row { "> " } else { "  " };
        s.push_str(&format!("\n{mark}{words}"));
    }
    s.push_str(
        "\n\nUp/Down: row   Left/Right: step   Enter: type the name or hint\n\
         Tab/Esc: close   Pad: d-pad, A step up, B close\n\
         Typing with a pad: Up/Down turn the letter, Right adds one, Left removes, A keeps, B drops",
    );
    if t.0 != s {
        t.0 = s;
    }
}
