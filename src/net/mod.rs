//! Hosting: the headless dedicated server, its rooms and web API, and the headless client.
//!
//! One plugin per module: [`server::ServerNetPlugin`] (seating, input gate, event fan-out,
//! shutdown), [`rooms::RoomsPlugin`] (lifecycle, results log), [`http::HttpPlugin`] (web API,
//! behind [`relay`]'s front door: the web port's WebSocket relay, static files via [`files`]),
//! [`bots::ServerBotsPlugin`] (`--bots-fill`: planner bots in empty seats); [`ws`] is the native
//! WebSocket flavour of the client transport.
//! docs/NETWORK.md describes the protocol, the lifecycle, the token flow and the validation.

pub mod bots;
pub mod client;
pub mod files;
pub mod http;
pub mod relay;
pub mod rooms;
pub mod server;
pub mod ticktime;
pub mod tokens;
pub mod ws;

use bevy::prelude::*;
use bevy_replicon::prelude::*;

/// Which hosted room an entity belongs to. On a room's lobby entity, its round entity, every
/// view entity of the round, and on each seated client's connection entity: replicon shows an
/// entity to a client only when the keys match (an entity without a key is shown to no one).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[component(immutable)]
pub struct RoomKey(pub u64);

impl VisibilityFilter for RoomKey {
    type ClientComponent = RoomKey;
    type Scope = Entity;

    fn is_visible(&self, _client: Entity, component: Option<&Self::ClientComponent>) -> bool {
        component == Some(self)
    }
}
