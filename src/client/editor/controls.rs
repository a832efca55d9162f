//! The editor's controls, from Bevy's input state and messages (what a real keyboard, mouse or
//! gamepad — or the input script — produced): the cursor, the tool, painting, undo, redo and
//! save. Keyboard: arrows or WASD move, Space or Enter paints, Delete paints floor, Q / E pick
//! the tool, Ctrl+Z undo, Ctrl+Y (or Ctrl+Shift+Z) redo, Ctrl+S save. Mouse: the pointer is the
//! cursor, the left button paints (hold and drag), the right paints floor. Gamepad alone: the
//! d-pad moves, South paints, East paints floor, the bumpers pick the tool, West undoes, North
//! redoes, Select saves.

use super::doc::EditorDoc;
use super::layout::GridLayout;
use crate::level::edit::{Brush, Edit};
use bevy::input::ButtonState;
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy::window::{CursorMoved, PrimaryWindow};

/// Moves the cursor one cell, kept on the grid.
fn nudge(ed: &mut EditorDoc, (dx, dy): (i32, i32)) {
    let (w, h) = ed.doc.size();
    let (x, y) = ed.cursor;
    let x = (x as i32 + dx).clamp(0, w as i32 - 1) as usize;
    let y = (y as i32 + dy).clamp(0, h as i32 - 1) as usize;
    ed.cursor = (x, y);
}

/// The tool `step` places along the palette (wrapping).
fn cycle_tool(ed: &mut EditorDoc, step: i32) {
    let n = Brush::palette().len() as i32;
    ed.brush = (ed.brush as i32 + step).rem_euclid(n) as usize;
}

fn paint(ed: &mut EditorDoc, brush: Brush) {
    let cell = ed.cursor;
    ed.apply(&Edit::Paint { cell, brush });
}

pub(super) fn steer_with_keys(keys: Res<ButtonInput<KeyCode>>, mut ed: ResMut<EditorDoc>) {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if ctrl {
        if keys.just_pressed(KeyCode::KeyZ) && shift || keys.just_pressed(KeyCode::KeyY) {
            ed.redo();
        } else if keys.just_pressed(KeyCode::KeyZ) {
            ed.undo();
        } else if keys.just_pressed(KeyCode::KeyS) {
            ed.save();
        }
        return;
    }
    let moves = [
        ([KeyCode::ArrowLeft, KeyCode::KeyA], (-1, 0)),
        ([KeyCode::ArrowRight, KeyCode::KeyD], (1, 0)),
        ([KeyCode::ArrowUp, KeyCode::KeyW], (0, -1)),
        ([KeyCode::ArrowDown, KeyCode::KeyS], (0, 1)),
    ];
    for (pair, step) in moves {
        if keys.any_just_pressed(pair) {
            nudge(&mut ed, step);
        }
    }
    if keys.just_pressed(KeyCode::KeyQ) {
        cycle_tool(&mut ed, -1);
    }
    if keys.just_pressed(KeyCode::KeyE) {
        cycle_tool(&mut ed, 1);
    }
    if keys.any_just_pressed([KeyCode::Space, KeyCode::Enter]) {
        let tool = ed.tool();
        paint(&mut ed, tool);
    }
    if keys.any_just_pressed([KeyCode::Delete, KeyCode::Backspace]) {
        paint(&mut ed, Brush::Floor);
    }
}

/// Which mouse buttons are down, as the button messages said (so a held button paints each
/// new cell the pointer enters).
#[derive(Default)]
pub(super) struct Held {
    left: bool,
    right: bool,
}

pub(super) fn steer_with_pointer(
    mut moved: MessageReader<CursorMoved>,
    mut buttons: MessageReader<MouseButtonInput>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut held: Local<Held>,
    mut ed: ResMut<EditorDoc>,
) {
    let Ok(window) = windows.single() else { return };
    let layout = GridLayout::fit(ed.doc.size(), Vec2::new(window.width(), window.height()));
    let mut entered = false;
    for m in moved.read() {
        if let Some(cell) = layout.cell_at(m.position)
            && cell != ed.cursor
        {
            ed.cursor = cell;
            entered = true;
        }
    }
    let mut pressed = None;
    for b in buttons.read() {
        let down = b.state == ButtonState::Pressed;
        match b.button {
            MouseButton::Left => held.left = down,
            MouseButton::Right => held.right = down,
            _ => continue,
        }
        if down {
            pressed = Some(b.button);
        }
    }
    let brush = if held.left { Some(ed.tool()) } else { held.right.then_some(Brush::Floor) };
    if let Some(brush) = brush
        && (pressed.is_some() || entered)
    {
        paint(&mut ed, brush);
    }
}

pub(super) fn steer_with_pad(pads: Query<&Gamepad>, mut ed: ResMut<EditorDoc>) {
    for pad in &pads {
        let moves = [
            (GamepadButton::DPadLeft, (-1, 0)),
            (GamepadButton::DPadRight, (1, 0)),
            (GamepadButton::DPadUp, (0, -1)),
            (GamepadButton::DPadDown, (0, 1)),
        ];
        for (button, step) in moves {
            if pad.just_pressed(button) {
                nudge(&mut ed, step);
            }
        }
        if pad.just_pressed(GamepadButton::LeftTrigger) {
            cycle_tool(&mut ed, -1);
        }
        if pad.just_pressed(GamepadButton::RightTrigger) {
            cycle_tool(&mut ed, 1);
        }
        if pad.just_pressed(GamepadButton::South) {
            let tool = ed.tool();
            paint(&mut ed, tool);
        }
        if pad.just_pressed(GamepadButton::East) {
            paint(&mut ed, Brush::Floor);
        }
        if pad.just_pressed(GamepadButton::West) {
            ed.undo();
        }
        if pad.just_pressed(GamepadButton::North) {
            ed.redo();
        }
        if pad.just_pressed(GamepadButton::Select) {
            ed.save();
        }
    }
}
