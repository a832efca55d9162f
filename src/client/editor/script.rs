//! `edit --script FILE`: timed input events written into Bevy's own input messages (key,
//! pointer and mouse-button messages, as the window's event loop writes them), so the editor
//! reads them through the same systems as a person's devices — a gamepad as `bevy_gilrs`
//! would plug it in and press it, through `bevy_input`'s gamepad systems; then an optional
//! screenshot, a report line and exit 0. The tests drive the editor — a Playtest and the way
//! back, and from `play --input-script` the menus into the workshop and out — this way under
//! Xvfb.
//!
//! ```ron
//! EditorScript(steps: [
//!     (wait: 10, then: ClickCell(4, 3)),   // pointer to the cell's centre, left press, release
//!     (wait: 2, then: Tap(KeyE)),          // press now, release next frame
//!     (wait: 2, then: Press(ControlLeft)),
//!     (wait: 1, then: Tap(KeyZ)),
//!     (wait: 1, then: Release(ControlLeft)),
//! ])
//! ```

use super::doc::EditorDoc;
use super::layout::GridLayout;
use crate::client::capture::shot::PipelinesSettled;
use crate::client::state::AppState;
use bevy::input::ButtonState;
use bevy::input::gamepad::{
    GamepadConnection, GamepadConnectionEvent, RawGamepadAxisChangedEvent,
    RawGamepadButtonChangedEvent, RawGamepadEvent,
};
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::window::{CursorMoved, PrimaryWindow};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// One input event.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
pub enum Step {
    Press(KeyCode),
    Release(KeyCode),
    /// Press now, release on the next frame.
    Tap(KeyCode),
    /// The pointer to a window position, logical pixels.
    Point(f32, f32),
    /// The pointer to a grid cell's centre (where the editor draws that cell now).
    PointCell(usize, usize),
    Down(MouseButton),
    Up(MouseButton),
    /// The pointer to a cell's centre and a left click (release on the next frame).
    ClickCell(usize, usize),
    /// A gamepad plugged in: an entity and its connection messages, as `bevy_gilrs` writes
    /// them, so `bevy_input`'s own systems make it a `Gamepad`.
    ConnectPad,
    /// A button of the connected gamepad down (value 1) or up (value 0), as raw gamepad
    /// messages that `bevy_input` filters into the `Gamepad`'s state.
    PadPress(GamepadButton),
    PadRelease(GamepadButton),
    /// Down now, up on the next frame.
    PadTap(GamepadButton),
    /// A character typed (a key down with its text, up on the next frame), as a keyboard
    /// layout makes it: the settings panel's name and hint read these.
    Type(char),
    /// An axis of the connected gamepad to a value (-1 to 1), as a raw axis message.
    PadAxis(GamepadAxis, f32),
}

/// A step after `wait` frames (counted from the step before, in the editor or a Playtest).
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
pub struct Timed {
    pub wait: u32,
    pub then: Step,
}

/// The script file.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename = "EditorScript", deny_unknown_fields)]
pub struct EditorScript {
    pub steps: Vec<Timed>,
}

/// Reads a script: a named error for an unreadable or malformed file.
pub fn read_script(path: &Path) -> Result<EditorScript, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    ron::from_str(&text).map_err(|e| format!("{}: not an EditorScript: {e}", path.display()))
}

/// A script being played, and the screenshot after it.
#[derive(Resource, Debug)]
pub struct ScriptRun {
    script: EditorScript,
    next: usize,
    waited: u32,
    /// Releases due on the next frame (a tap's, a click's).
    releases: Vec<Step>,
    shot: Option<PathBuf>,
    shot_asked: bool,
    shot_done: bool,
    /// Frames since the last step (the last change settles before the picture).
    after: u32,
    /// The gamepad `ConnectPad` plugged in.
    pad: Option<Entity>,
}

impl ScriptRun {
    pub fn new(script: EditorScript, shot: Option<PathBuf>) -> Self {
        ScriptRun {
            script,
            next: 0,
            waited: 0,
            releases: Vec::new(),
            shot,
            shot_asked: false,
            shot_done: false,
            after: 0,
            pad: None,
        }
    }
}

/// Frames after the last step before the screenshot or the exit.
const SETTLE_FRAMES: u32 = 10;

/// The script hook: its events in `First`, before Bevy's input systems read the messages.
pub struct ScriptPlugin;

impl Plugin for ScriptPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(First, play_script.run_if(resource_exists::<ScriptRun>));
        app.add_systems(Last, finish_script.run_if(resource_exists::<ScriptRun>));
    }
}

#[allow(clippy::too_many_arguments)]
fn play_script(
    mut run: ResMut<ScriptRun>,
    state: Res<State<AppState>>,
    ed: Option<Res<EditorDoc>>,
    mut windows: Query<(Entity, &mut Window), With<PrimaryWindow>>,
    mut keys: MessageWriter<KeyboardInput>,
    mut moves: MessageWriter<CursorMoved>,
    mut buttons: MessageWriter<MouseButtonInput>,
    mut pad_raw: MessageWriter<RawGamepadEvent>,
    mut pad_connections: MessageWriter<GamepadConnectionEvent>,
    mut pad_buttons: MessageWriter<RawGamepadButtonChangedEvent>,
    mut pad_axes: MessageWriter<RawGamepadAxisChangedEvent>,
    mut commands: Commands,
) {
    // The script runs from the title on (the editor, a Playtest, the menus), never on the
    // loading screen, whose length varies.
    if matches!(state.get(), AppState::Loading) {
        return;
    }
    let run = &mut *run;
    let Ok((window, mut win)) = windows.single_mut() else { return };
    let layout = ed.map(|e| GridLayout::fit(e.doc.size(), Vec2::new(win.width(), win.height())));
    // Where the pointer went, written into the window as winit does with each move (the UI's
    // hover reads it there, the editor from the move messages).
    let mut pointer = None;
    let pad = &mut run.pad;
    let mut send = |step: Step, later: &mut Vec<Step>| match step {
        Step::ConnectPad => {
            let entity = commands.spawn_empty().id();
            *pad = Some(entity);
            let connection = GamepadConnection::Connected {
                name: "script pad".into(),
                vendor_id: None,
                product_id: None,
            };
            let event = GamepadConnectionEvent::new(entity, connection);
            pad_raw.write(event.clone().into());
            pad_connections.write(event);
        }
        Step::PadAxis(axis, value) => {
            let Some(entity) = *pad else {
                println!("editor script: {step:?} before ConnectPad: no gamepad to move");
                return;
            };
            let event = RawGamepadAxisChangedEvent::new(entity, axis, value);
            pad_raw.write(event.into());
            pad_axes.write(event);
        }
        Step::PadPress(button) | Step::PadRelease(button) | Step::PadTap(button) => {
            let Some(entity) = *pad else {
                println!("editor script: {step:?} before ConnectPad: no gamepad to press");
                return;
            };
            let value = if matches!(step, Step::PadRelease(_)) { 0.0 } else { 1.0 };
            let event = RawGamepadButtonChangedEvent::new(entity, button, value);
            pad_raw.write(event.into());
            pad_buttons.write(event);
            if let Step::PadTap(button) = step {
                later.push(Step::PadRelease(button));
            }
        }
        Step::Press(key) | Step::Release(key) | Step::Tap(key) => {
            let state = if matches!(step, Step::Release(_)) {
                ButtonState::Released
            } else {
                ButtonState::Pressed
            };
            keys.write(KeyboardInput {
                key_code: key,
                logical_key: Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
                state,
                text: None,
                repeat: false,
                window,
            });
            if let Step::Tap(key) = step {
                later.push(Step::Release(key));
            }
        }
        Step::Type(c) => {
            for state in [ButtonState::Pressed, ButtonState::Released] {
                let unknown = bevy::input::keyboard::NativeKeyCode::Unidentified;
                keys.write(KeyboardInput {
                    key_code: KeyCode::Unidentified(unknown),
                    logical_key: Key::Character(c.to_string().into()),
                    state,
                    text: (state == ButtonState::Pressed).then(|| c.to_string().into()),
                    repeat: false,
                    window,
                });
            }
        }
        Step::Point(x, y) => {
            pointer = Some(Vec2::new(x, y));
            moves.write(CursorMoved { window, position: Vec2::new(x, y), delta: None });
        }
        Step::PointCell(x, y) | Step::ClickCell(x, y) => {
            if let Some(layout) = layout {
                pointer = Some(layout.centre_of((x, y)));
                moves.write(CursorMoved {
                    window,
                    position: layout.centre_of((x, y)),
                    delta: None,
                });
            }
            if matches!(step, Step::ClickCell(..)) {
                buttons.write(MouseButtonInput {
                    button: MouseButton::Left,
                    state: ButtonState::Pressed,
                    window,
                });
                later.push(Step::Up(MouseButton::Left));
            }
        }
        Step::Down(button) | Step::Up(button) => {
            let state = if matches!(step, Step::Down(_)) {
                ButtonState::Pressed
            } else {
                ButtonState::Released
            };
            buttons.write(MouseButtonInput { button, state, window });
        }
    };
    let due = std::mem::take(&mut run.releases);
    let mut later = Vec::new();
    for step in due {
        send(step, &mut later);
    }
    run.after += 1;
    while let Some(timed) = run.script.steps.get(run.next).copied() {
        if run.waited < timed.wait {
            run.waited += 1;
            break;
        }
        send(timed.then, &mut later);
        run.next += 1;
        run.waited = 0;
        run.after = 0;
    }
    run.releases = later;
    if let Some(at) = pointer {
        win.set_cursor_position(Some(at));
    }
}

fn finish_script(
    mut run: ResMut<ScriptRun>,
    settled: Res<PipelinesSettled>,
    ed: Option<Res<EditorDoc>>,
    state: Res<State<AppState>>,
    mut commands: Commands,
    mut exit: MessageWriter<AppExit>,
) {
    let finished =
        run.next >= run.script.steps.len() && run.releases.is_empty() && run.after >= SETTLE_FRAMES;
    if !finished {
        return;
    }
    if let Some(path) = run.shot.clone()
        && !run.shot_done
    {
        if !run.shot_asked && settled.0 >= 5 {
            run.shot_asked = true;
            commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path)).observe(
                |_: On<ScreenshotCaptured>, mut run: ResMut<ScriptRun>| run.shot_done = true,
            );
        }
        return;
    }
    let Some(ed) = ed else {
        println!("editor report: state {:?}, no kitchen on the bench", state.get());
        exit.write(AppExit::Success);
        return;
    };
    {
        let problems = ed.doc.problems().len();
        let (w, h) = ed.doc.size();
        println!(
            "editor report: state {:?}, {w}x{h}, {problems} problem(s), undo {}, grid {}",
            state.get(),
            ed.doc.can_undo(),
            ed.doc.file().grid.join("/")
        );
    }
    exit.write(AppExit::Success);
}
