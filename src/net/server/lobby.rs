//! A seated connection's lobby commands: ready flags, the level, the host's assists and mode
//! (a versus room plays only versus kitchens, every other mode only co-op ones).
//! What is not applied is refused by name ([`LobbyRefusal`]): logged and counted in
//! [`LobbyRefusals`] (metrics and tests read it), never a panic and never half applied.

use crate::net::server::hosted::{HostLevels, HostedRoom};
use crate::net::server::peer::Peer;
use crate::protocol::tandem::{GameMode, LobbyRefusal};
use crate::protocol::{LobbyCommand, LobbyPhase};
use bevy::prelude::*;
use bevy_replicon::prelude::*;

/// Lobby commands refused since the server started, by reason.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LobbyRefusals {
    pub not_host: u64,
    pub wrong_phase: u64,
    /// A kitchen of the other kind (co-op in a versus room, versus in another), or versus
    /// asked of a host without versus kitchens.
    pub wrong_kitchen: u64,
}

impl LobbyRefusals {
    fn count(&mut self, refusal: LobbyRefusal) {
        match refusal {
            LobbyRefusal::NotHost => self.not_host += 1,
            LobbyRefusal::WrongPhase => self.wrong_phase += 1,
            LobbyRefusal::LevelWrongMode | LobbyRefusal::NoVersusKitchens => {
                self.wrong_kitchen += 1
            }
        }
    }
}

/// Applies one command of a connection holding `seats` to its room, or says why not.
pub fn apply(
    hosted: &mut HostedRoom,
    seats: &[u8],
    command: &LobbyCommand,
    levels: &HostLevels,
) -> Result<(), LobbyRefusal> {
    if !matches!(hosted.phase, LobbyPhase::Lobby | LobbyPhase::Countdown) {
        return Err(LobbyRefusal::WrongPhase);
    }
    // The host's choices: the first seat is the room's creator (or whoever holds it now).
    let host = seats.contains(&0);
    match command {
        LobbyCommand::Ready(r) => {
            // One connection's players are ready together (one window, one choice).
            for &seat in seats {
                if let Some(slot) = hosted.seats.get_mut(seat as usize).and_then(Option::as_mut) {
                    slot.ready = *r;
                }
            }
        }
        LobbyCommand::Level(id) => {
            if let Some(i) = levels.find(hosted.mode, id)? {
                hosted.level = i;
            }
        }
        LobbyCommand::Assist(assist) if host => hosted.assist = *assist,
        LobbyCommand::Mode(mode) if host => switch_mode(hosted, *mode, levels)?,
        LobbyCommand::Assist(_) | LobbyCommand::Mode(_) => return Err(LobbyRefusal::NotHost),
    }
    Ok(())
}

/// The room's mode to `mode`. Crossing between versus and the co-op modes moves the room to
/// the first kitchen of the new kind (a room never holds a kitchen its mode does not play);
/// versus on a host with no versus kitchen is refused by name.
pub fn switch_mode(
    hosted: &mut HostedRoom,
    mode: GameMode,
    levels: &HostLevels,
) -> Result<(), LobbyRefusal> {
    if mode.plays_versus() && levels.versus.is_empty() {
        return Err(LobbyRefusal::NoVersusKitchens);
    }
    if mode.plays_versus() != hosted.mode.plays_versus() {
        hosted.level = 0;
    }
    hosted.mode = mode;
    Ok(())
}

/// Every lobby command of a seated connection, applied or refused by name.
pub fn lobby_commands(
    mut commands_in: MessageReader<FromClient<LobbyCommand>>,
    peers: Query<&Peer>,
    mut lobbies: Query<&mut HostedRoom>,
    levels: Res<HostLevels>,
    mut refusals: ResMut<LobbyRefusals>,
) {
    for FromClient { client_id, message } in commands_in.read() {
        let Some(peer) = client_id.entity().and_then(|e| peers.get(e).ok()) else { continue };
        let Ok(mut hosted) = lobbies.get_mut(peer.lobby) else { continue };
        if let Err(refusal) = apply(&mut hosted, &peer.seats, message, &levels) {
            refusals.count(refusal);
            warn!(room = %hosted.code, seats = ?peer.seats, command = ?message, %refusal, "lobby command refused");
        }
    }
}
