//! Networking, in four rooms by who runs them: `server/` (the host: rooms, admission, the web
//! port, limits, metrics), `client/` (one client session core and its transports, native and
//! browser), `wire/` (what both ends share: channels, tokens, the error type) and `tools/` (the
//! impairment proxy, the load generator, `bench net`). A browser neither listens on ports nor
//! opens UDP sockets: on wasm32 only `client/` and `wire/` are built — one gate per folder here.
//! docs/NETWORK.md describes the protocol, the lifecycle, the token flow and the validation.

pub mod client;
#[cfg(not(target_arch = "wasm32"))]
pub mod server;
#[cfg(not(target_arch = "wasm32"))]
pub mod tools;
pub mod wire;

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
