//! Quick match's seat on this server (`POST /api/rooms {"quick": …}`): the public kitchen
//! lobby with the seats asked for, the fullest first (players meet players), then the lower
//! code, so two quick matches that reach this server at once sit in one room instead of each
//! making one. Counted from the room's reserved seats, not the lobby view, so a seat handed out
//! a moment ago (its player not yet connected) already counts as taken.

use super::hosted::HostedRoom;
use crate::protocol::LobbyPhase;
use crate::protocol::tandem::GameMode;
use bevy::prelude::Entity;

/// Free seats of a room: seats nobody holds or has reserved.
fn free_seats(hosted: &HostedRoom) -> usize {
    hosted.seats.iter().filter(|s| s.is_none()).count()
}

/// The lobby a quick match of `players` sits in, if this world has one.
pub fn quick_lobby<'a>(
    rooms: impl Iterator<Item = (Entity, &'a HostedRoom)>,
    players: u8,
) -> Option<Entity> {
    rooms
        .filter(|(_, h)| h.public && h.mode == GameMode::Cooking && h.phase == LobbyPhase::Lobby)
        .filter(|(_, h)| free_seats(h) >= usize::from(players))
        .min_by(|(_, a), (_, b)| {
            free_seats(a).cmp(&free_seats(b)).then_with(|| a.code.cmp(&b.code))
        })
        .map(|(e, _)| e)
}
