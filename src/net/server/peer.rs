//! A seated connection: the room and seats its token gave it (never a payload's claim).

use bevy::prelude::*;

/// A seated connection: its room and seats come from the token, never from a payload. A window
/// with several local players holds several seats on one connection; its frames name a local
/// `slot`, and `seats[slot]` is the seat they play. Its input links (what the gate did with
/// each slot's frames) are the [`crate::net::server::inputs::InputLinks`] beside it.
#[derive(Component, Debug)]
pub struct Peer {
    pub lobby: Entity,
    /// Seats by local slot (never empty).
    pub seats: Vec<u8>,
    pub code: String,
}

impl Peer {
    /// The seat local player `slot` plays, if the connection holds that many.
    pub fn seat(&self, slot: u8) -> Option<u8> {
        self.seats.get(slot as usize).copied()
    }
}

/// A connection that was refused a seat (it is being disconnected).
#[derive(Component)]
pub struct Refused;
