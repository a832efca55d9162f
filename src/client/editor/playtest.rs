//! Playtest: the kitchen on the bench played at once by the local host (P, or a gamepad's
//! Start), the designer in seat 1 and 0–3 planner bots beside them (B changes how many);
//! Escape (or the round's end and M) comes back to the editor with the kitchen as it was.
//! Only a valid kitchen can be played: the panel says why not.

use super::doc::EditorDoc;
use crate::client::local::{LocalBots, LocalGame, PlaytestLevel};
use crate::client::state::AppState;
use crate::sim::room::Room;
use bevy::prelude::*;

/// P or a gamepad's Start in the editor: into the kitchen; B: one more bot (0–3, round).
pub(super) fn start_playtest(
    keys: Res<ButtonInput<KeyCode>>,
    pads: Query<&Gamepad>,
    mut ed: ResMut<EditorDoc>,
    mut next: ResMut<NextState<AppState>>,
    mut commands: Commands,
) {
    if keys.just_pressed(KeyCode::KeyB) {
        ed.bots = (ed.bots + 1) % 4;
        ed.status = format!("Playtest with {} bot(s)", ed.bots);
    }
    // Ctrl+P and LT + Start publish (`publish.rs`).
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let asked = keys.just_pressed(KeyCode::KeyP) && !ctrl
        || pads.iter().any(|p| {
            p.just_pressed(GamepadButton::Start) && !p.pressed(GamepadButton::LeftTrigger2)
        });
    if !asked {
        return;
    }
    let Some(level) = ed.doc.level().cloned() else {
        ed.status = format!("no Playtest: {} problem(s) to fix first", ed.doc.problems().len());
        println!("editor: {}", ed.status);
        return;
    };
    println!("editor: playtest {} with {} bot(s)", level.id, ed.bots);
    commands.insert_resource(PlaytestLevel {
        level,
        book: ed.doc.book().clone(),
        bots: ed.bots,
        last_tick: 0,
    });
    next.set(AppState::Playing);
}

/// In a Playtest: the room's tick noted each frame, its seats said once, Escape back.
pub(super) fn follow_playtest(
    keys: Res<ButtonInput<KeyCode>>,
    game: Option<Res<LocalGame>>,
    bots: Option<Res<LocalBots>>,
    rooms: Query<&Room>,
    mut playtest: ResMut<PlaytestLevel>,
    mut next: ResMut<NextState<AppState>>,
    mut said: Local<bool>,
) {
    if let Some(room) = game.as_ref().and_then(|g| rooms.get(g.room).ok()) {
        playtest.last_tick = room.tick;
        if !*said {
            *said = true;
            let bot_seats = bots.map(|b| b.seats.clone()).unwrap_or_default();
            println!(
                "editor: playtest live: {} cook(s), bots at seats {bot_seats:?}",
                room.cooks.len()
            );
        }
    }
    if keys.just_pressed(KeyCode::Escape) {
        *said = false;
        next.set(AppState::Editor);
    }
}

/// Back in the editor: the Playtest is over (its room went with the Playing state).
pub(super) fn end_playtest(
    playtest: Option<Res<PlaytestLevel>>,
    ed: Res<EditorDoc>,
    mut commands: Commands,
) {
    let Some(p) = playtest else { return };
    println!(
        "editor: back from playtest at tick {}: {} problem(s), grid {}",
        p.last_tick,
        ed.doc.problems().len(),
        ed.doc.file().grid.join("/")
    );
    commands.remove_resource::<PlaytestLevel>();
}
