//! The editor's Publish (Ctrl+P, or a gamepad's LT + Start): the same publish as
//! `undercooked level publish FILE` (`bot::publish`: validate, prove with 1–4 planner bots over
//! the seeds, derive the target, write the file's target and the index entry), run on a thread
//! of its own because the bots' proofs take seconds; the window keeps drawing, the panel says
//! it is proving and for how long, then the result: published with its hash and target, or the
//! refusal naming the team sizes and seeds that lost. It publishes the file on disk, so the
//! kitchen must be saved and valid first; the target the publish wrote into the file is set in
//! the kitchen too (one undoable edit).

use super::doc::EditorDoc;
use crate::bot::publish::{PUBLISH_SEEDS, PublishArgs, PublishError, publish};
use bevy::prelude::*;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// A publish under way: its answer comes on `answer`.
#[derive(Resource)]
pub struct Publishing {
    answer: Mutex<Receiver<Result<Vec<String>, PublishError>>>,
    /// Seconds since it started (real time: what the panel shows, never a rule).
    pub elapsed: f32,
}

/// Whether a gamepad asks to publish: Start with the left trigger (LT) held.
fn pad_publishes(pad: &Gamepad) -> bool {
    pad.pressed(GamepadButton::LeftTrigger2) && pad.just_pressed(GamepadButton::Start)
}

/// Ctrl+P or LT + Start: a publish on its own thread, if the kitchen is saved and valid and
/// none is under way.
pub(super) fn start_publish(
    keys: Res<ButtonInput<KeyCode>>,
    pads: Query<&Gamepad>,
    running: Option<Res<Publishing>>,
    mut ed: ResMut<EditorDoc>,
    mut commands: Commands,
) {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let asked = ctrl && keys.just_pressed(KeyCode::KeyP) || pads.iter().any(pad_publishes);
    if !asked {
        return;
    }
    let why_not = if running.is_some() {
        Some("a publish is already under way".to_string())
    } else if !ed.doc.problems().is_empty() {
        Some(format!("{} problem(s) to fix first", ed.doc.problems().len()))
    } else if ed.unsaved() {
        Some("save first (Ctrl+S): Publish proves the file on disk".to_string())
    } else {
        None
    };
    if let Some(why) = why_not {
        ed.status = format!("not published: {why}");
        println!("editor: {}", ed.status);
        return;
    }
    let args = PublishArgs { file: ed.path.clone(), seeds: PUBLISH_SEEDS, index: None };
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        // The window may have closed meanwhile: then nobody is listening, and that is fine.
        let _ = tx.send(publish(&args));
    });
    ed.status = format!("publishing: proving with 1-4 bots over {PUBLISH_SEEDS} seeds...");
    println!("editor: {}", ed.status);
    commands.insert_resource(Publishing { answer: Mutex::new(rx), elapsed: 0.0 });
}

/// Each frame of a publish: the time it has taken on the panel, then its answer.
pub(super) fn follow_publish(
    time: Res<Time<Real>>,
    mut running: ResMut<Publishing>,
    mut ed: ResMut<EditorDoc>,
    mut commands: Commands,
) {
    running.elapsed += time.delta_secs();
    let answer = match running.answer.lock().map(|rx| rx.try_recv()) {
        Ok(Ok(answer)) => answer,
        Ok(Err(TryRecvError::Empty)) => {
            let secs = running.elapsed as u32;
            ed.status =
                format!("publishing: proving with 1-4 bots over {PUBLISH_SEEDS} seeds... {secs} s");
            return;
        }
        Ok(Err(TryRecvError::Disconnected)) | Err(_) => {
            Err(PublishError::Io("the publish thread stopped without an answer".into()))
        }
    };
    commands.remove_resource::<Publishing>();
    ed.status = match answer {
        Ok(lines) => {
            let reread = ed.adopt_published();
            let mut s = lines.join("\n");
            if let Err(e) = reread {
                s.push_str(&format!("\n(the file could not be read back: {e})"));
            }
            s
        }
        Err(PublishError::Refused(why)) => format!("not published:\n{why}"),
        Err(PublishError::Invalid(errors)) => {
            let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
            format!("not published: the file is not valid:\n{}", lines.join("\n"))
        }
        Err(PublishError::Io(e)) => format!("not published: {e}"),
    };
    for line in ed.status.lines() {
        println!("editor: publish: {line}");
    }
}
