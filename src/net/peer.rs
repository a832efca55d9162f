//! A seated connection: the room and seat its token gave it (never a payload's claim).

use bevy::prelude::*;

/// A seated connection: its room and seat come from the token, never from a payload. Its input
/// link (what the gate did with its frames) is the [`super::inputs::InputLink`] beside it.
#[derive(Component, Debug)]
pub struct Peer {
    pub lobby: Entity,
    pub seat: u8,
    pub code: String,
}

/// A connection that was refused a seat (it is being disconnected).
#[derive(Component)]
pub struct Refused;
