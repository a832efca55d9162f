//! Assist mode online: the host — the window holding the room's first seat — chooses the next
//! round's assists in the lobby. F6 steps the order timers (×1 → ×1.5 → ×2), F7 the longer
//! round; a choice made before connecting (Level Select, or the Host screen's lines) carries
//! over. The choice goes to the server as `LobbyCommand::Assist` and comes back on the lobby
//! view, which the panel shows to everyone (`online::lobby_panel::lobby_lines`).

use crate::client::local::assist_menu::{AssistOption, RoundAssist, step_assist};
use crate::net::client::seats::ClientSession;
use crate::protocol::{LobbyCommand, LobbyPhase, LobbyView};
use crate::sim::assist::Assist;
use bevy::prelude::*;
use bevy_replicon::prelude::*;

/// The host's assist keys in an online lobby.
pub const ASSIST_KEYS: [(KeyCode, AssistOption); 2] =
    [(KeyCode::F6, AssistOption::OrderTime), (KeyCode::F7, AssistOption::LongerRound)];

/// F6 / F7 for the host, and the host's choice sent to the room.
pub struct LobbyAssistPlugin;

impl Plugin for LobbyAssistPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (step_with_keys, send_assist).chain().run_if(
                resource_exists::<ClientSession>.and_then(in_state(ClientState::Connected)),
            ),
        );
    }
}

/// Does this window hold the room's first seat (the host's) while the lobby can still change?
fn choosing(lobby: &LobbyView, session: &ClientSession) -> bool {
    session.seats().contains(&0) && matches!(lobby.phase, LobbyPhase::Lobby | LobbyPhase::Countdown)
}

fn step_with_keys(
    keys: Res<ButtonInput<KeyCode>>,
    lobbies: Query<&LobbyView>,
    session: Res<ClientSession>,
    round: Option<ResMut<RoundAssist>>,
    mut commands: Commands,
) {
    let Some(lobby) = lobbies.iter().next() else { return };
    if !choosing(lobby, &session) {
        return;
    }
    // From what the room has now, so every press is one visible step.
    let mut assist = lobby.assist;
    let mut stepped = false;
    for (key, option) in ASSIST_KEYS {
        if keys.just_pressed(key) {
            step_assist(&mut assist, option, true);
            stepped = true;
        }
    }
    if !stepped {
        return;
    }
    match round {
        Some(mut r) => r.0 = assist,
        None => commands.insert_resource(RoundAssist(assist)),
    }
}

/// The host's choice differs from the room's: send it (once per new choice).
fn send_assist(
    lobbies: Query<&LobbyView>,
    session: Res<ClientSession>,
    round: Option<Res<RoundAssist>>,
    mut out: MessageWriter<LobbyCommand>,
    mut sent: Local<Option<Assist>>,
) {
    let (Some(lobby), Some(round)) = (lobbies.iter().next(), round) else { return };
    if !choosing(lobby, &session) || lobby.assist == round.0 || *sent == Some(round.0) {
        return;
    }
    out.write(LobbyCommand::Assist(round.0));
    *sent = Some(round.0);
}
