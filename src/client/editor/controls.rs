//! The editor's controls, from Bevy's input state and messages (what a real keyboard, mouse or
//! gamepad — or the input script — produced): the cursor, the tool, painting, undo, redo and
//! save. Keyboard: arrows or WASD move, Space or Enter paints, Delete erases (a brush paints
//! floor, a hazard tool takes the cell out of its hazard), Q / E pick the tool, Ctrl+Z undo,
//! Ctrl+Y (or Ctrl+Shift+Z) redo, Ctrl+S save. Mouse: the pointer is the cursor, the left
//! button paints (hold and drag), the right erases. Shift + an arrow adds a line of wall at
//! that edge, Alt + an arrow takes the edge's line away. N starts a new hazard, Shift + Delete
//! removes the hazard under the cursor. Gamepad alone: the d-pad or left stick moves, South
//! paints, East erases, the bumpers pick the tool, West undoes, North redoes, Select saves;
//! LT + d-pad adds a line, RT + d-pad takes one away; L3 starts a new hazard, RT + East
//! removes the one under the cursor.

use super::doc::EditorDoc;
use super::hazard_tool::{
    erase_hazard_here, paint_hazard_here, remove_hazard_here, start_new_hazard,
};
use super::layout::GridLayout;
use super::settings_panel::SettingsPanel;
use crate::level::edit::{Brush, Edge, Edit, Tool};
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
    let n = Tool::palette().len() as i32;
    ed.brush = (ed.brush as i32 + step).rem_euclid(n) as usize;
}

/// The arrow keys' edges: Shift + arrow adds a line there, Alt + arrow takes one away.
const EDGE_KEYS: [(KeyCode, Edge); 4] = [
    (KeyCode::ArrowUp, Edge::Top),
    (KeyCode::ArrowDown, Edge::Bottom),
    (KeyCode::ArrowLeft, Edge::Left),
    (KeyCode::ArrowRight, Edge::Right),
];

/// The d-pad's edges, for the triggers' resize (LT + d-pad adds, RT + d-pad takes away).
const EDGE_PADS: [(GamepadButton, Edge); 4] = [
    (GamepadButton::DPadUp, Edge::Top),
    (GamepadButton::DPadDown, Edge::Bottom),
    (GamepadButton::DPadLeft, Edge::Left),
    (GamepadButton::DPadRight, Edge::Right),
];

/// A line added at (or taken from) an edge; the cursor moves with the kitchen and stays on it.
fn resize(ed: &mut EditorDoc, edge: Edge, grow: bool) {
    let before = ed.doc.size();
    ed.apply(&if grow { Edit::AddLine(edge) } else { Edit::RemoveLine(edge) });
    if ed.doc.size() == before {
        return;
    }
    let step = if grow { 1 } else { -1 };
    match edge {
        Edge::Top => nudge(ed, (0, step)),
        Edge::Left => nudge(ed, (step, 0)),
        Edge::Bottom | Edge::Right => nudge(ed, (0, 0)),
    }
}

/// The tool's paint at the cursor: a brush paints the cell, a hazard tool places its hazard.
fn paint(ed: &mut EditorDoc) {
    match ed.tool() {
        Tool::Brush(brush) => {
            let cell = ed.cursor;
            ed.apply(&Edit::Paint { cell, brush });
        }
        Tool::Hazard(kind) => paint_hazard_here(ed, kind),
    }
}

/// The eraser at the cursor: a brush's is floor, a hazard tool's takes the cell out of its
/// kind of hazard.
fn erase(ed: &mut EditorDoc) {
    match ed.tool() {
        Tool::Brush(_) => {
            let cell = ed.cursor;
            ed.apply(&Edit::Paint { cell, brush: Brush::Floor });
        }
        Tool::Hazard(kind) => erase_hazard_here(ed, kind),
    }
}

pub(super) fn steer_with_keys(
    keys: Res<ButtonInput<KeyCode>>,
    panel: Option<Res<SettingsPanel>>,
    mut ed: ResMut<EditorDoc>,
) {
    // With the settings panel open only the Ctrl chords (undo, redo, save) are the grid's.
    let open = panel.is_some_and(|p| p.open);
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
    if open {
        return;
    }
    let alt = keys.any_pressed([KeyCode::AltLeft, KeyCode::AltRight]);
    if shift || alt {
        for (key, edge) in EDGE_KEYS {
            if keys.just_pressed(key) {
                resize(&mut ed, edge, shift);
            }
        }
        if shift && keys.any_just_pressed([KeyCode::Delete, KeyCode::Backspace]) {
            remove_hazard_here(&mut ed);
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
    if keys.just_pressed(KeyCode::KeyN) {
        start_new_hazard(&mut ed);
    }
    if keys.any_just_pressed([KeyCode::Space, KeyCode::Enter]) {
        paint(&mut ed);
    }
    if keys.any_just_pressed([KeyCode::Delete, KeyCode::Backspace]) {
        erase(&mut ed);
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
    if pressed.is_some() || entered {
        if held.left {
            paint(&mut ed);
        } else if held.right {
            erase(&mut ed);
        }
    }
}

/// How far the left stick must lean to move the cursor (one cell a lean: back to the middle
/// before the next).
const STICK_LEAN: f32 = 0.6;

/// The direction a stick leans, if it leans far enough: the larger axis wins.
fn stick_step(at: Vec2) -> Option<(i32, i32)> {
    if at.x.abs().max(at.y.abs()) < STICK_LEAN {
        return None;
    }
    // Stick up is +y; the grid's rows grow downward.
    Some(if at.x.abs() >= at.y.abs() {
        (at.x.signum() as i32, 0)
    } else {
        (0, -(at.y.signum() as i32))
    })
}

pub(super) fn steer_with_pad(
    pads: Query<&Gamepad>,
    panel: Option<Res<SettingsPanel>>,
    mut leaning: Local<Option<(i32, i32)>>,
    mut ed: ResMut<EditorDoc>,
) {
    // With the settings panel open the d-pad and South / East are the panel's; undo, redo
    // and save stay the grid's.
    if panel.is_some_and(|p| p.open) {
        for pad in &pads {
            undo_redo_save_on_pad(pad, &mut ed);
        }
        return;
    }
    let lean = pads.iter().find_map(|p| stick_step(p.left_stick()));
    if let Some(step) = lean
        && *leaning != lean
    {
        nudge(&mut ed, step);
    }
    *leaning = lean;
    for pad in &pads {
        // The triggers held: the d-pad resizes (LT adds a line, RT takes one away), and the
        // other buttons belong to the triggers' chords (LT + Select leaves, LT + Start
        // publishes), not to painting.
        let (lt, rt) =
            (pad.pressed(GamepadButton::LeftTrigger2), pad.pressed(GamepadButton::RightTrigger2));
        if lt || rt {
            for (button, edge) in EDGE_PADS {
                if pad.just_pressed(button) {
                    resize(&mut ed, edge, lt);
                }
            }
            if rt && pad.just_pressed(GamepadButton::East) {
                remove_hazard_here(&mut ed);
            }
            continue;
        }
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
        if pad.just_pressed(GamepadButton::LeftThumb) {
            start_new_hazard(&mut ed);
        }
        if pad.just_pressed(GamepadButton::South) {
            paint(&mut ed);
        }
        if pad.just_pressed(GamepadButton::East) {
            erase(&mut ed);
        }
        undo_redo_save_on_pad(pad, &mut ed);
    }
}

/// West undoes, North redoes, Select saves: the pad's buttons that act the same whether the
/// grid or the settings panel has the d-pad.
fn undo_redo_save_on_pad(pad: &Gamepad, ed: &mut EditorDoc) {
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
