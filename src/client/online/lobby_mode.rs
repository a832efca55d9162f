//! The room's mode online: the host — the window holding the room's first seat — steps the
//! next round through the kitchen, survival and Tandem with F8 in the lobby. The choice goes to the
//! server as `LobbyCommand::Mode` and comes back on the lobby view, which the panel shows to
//! everyone (`online::lobby_panel::lobby_lines`); another seat's request is refused there by name.

use crate::net::client::seats::ClientSession;
use crate::protocol::{LobbyCommand, LobbyPhase, LobbyView};
use bevy::prelude::*;
use bevy_replicon::prelude::*;

/// The host's key for the room's mode.
pub const MODE_KEY: KeyCode = KeyCode::F8;

/// F8 for the host: the next round's mode.
pub struct LobbyModePlugin;

impl Plugin for LobbyModePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            step_mode.run_if(
                resource_exists::<ClientSession>.and_then(in_state(ClientState::Connected)),
            ),
        );
    }
}

fn step_mode(
    keys: Res<ButtonInput<KeyCode>>,
    lobbies: Query<&LobbyView>,
    session: Res<ClientSession>,
    mut out: MessageWriter<LobbyCommand>,
) {
    let Some(lobby) = lobbies.iter().next() else { return };
    let host = session.seats().contains(&0);
    let open = matches!(lobby.phase, LobbyPhase::Lobby | LobbyPhase::Countdown);
    if host && open && keys.just_pressed(MODE_KEY) {
        out.write(LobbyCommand::Mode(lobby.mode.next_offered(lobby.versus_offered)));
    }
}
