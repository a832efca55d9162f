//! Hosting: the headless dedicated server, its rooms and web API, and the headless client.
//!
//! One plugin per module: [`connections::ServerNetPlugin`] (seating, input gate, event fan-out,
//! shutdown), [`rooms::RoomsPlugin`] (lifecycle, results log),
//! [`tandem_round::TandemRoundsPlugin`] (a room's Tandem round at 24 Hz), [`http::HttpPlugin`]
//! (the web API's world side, answering what [`web`] hands it: the web port's hyper server with the JSON
//! API, static files, the WebSocket relay and its limits),
//! [`bots::ServerBotsPlugin`] (`--bots-fill`: planner bots in empty seats); [`ws`] is the
//! WebSocket flavour of the client transport, [`session`] what every client shares.
//! [`impair`] is a tool, not part of a host: a seeded impairment proxy put between clients and a
//! server by tests, benches and `undercooked netem`.
//! docs/NETWORK.md describes the protocol, the lifecycle, the token flow and the validation.
//!
//! A browser neither listens on ports nor opens UDP sockets: on wasm32 only the client side is
//! built ([`session`], [`tokens`], [`ws`] with [`browser`]'s socket and fetch).

#[cfg(not(target_arch = "wasm32"))]
pub mod announce;
#[cfg(not(target_arch = "wasm32"))]
pub mod api;
#[cfg(not(target_arch = "wasm32"))]
pub mod bots;
#[cfg(target_arch = "wasm32")]
pub mod browser;
pub mod channels;
#[cfg(not(target_arch = "wasm32"))]
pub mod connections;
#[cfg(not(target_arch = "wasm32"))]
pub mod directory_api;
pub mod error;
#[cfg(not(target_arch = "wasm32"))]
pub mod gate;
#[cfg(not(target_arch = "wasm32"))]
pub mod headless;
#[cfg(not(target_arch = "wasm32"))]
pub mod host;
#[cfg(not(target_arch = "wasm32"))]
pub mod hosted;
#[cfg(not(target_arch = "wasm32"))]
pub mod http;
#[cfg(not(target_arch = "wasm32"))]
pub mod impair;
#[cfg(not(target_arch = "wasm32"))]
pub mod inputs;
#[cfg(not(target_arch = "wasm32"))]
pub mod limiter;
#[cfg(not(target_arch = "wasm32"))]
pub mod listing;
#[cfg(not(target_arch = "wasm32"))]
pub mod loadgen;
#[cfg(not(target_arch = "wasm32"))]
pub mod lobby;
#[cfg(not(target_arch = "wasm32"))]
pub mod logs;
#[cfg(not(target_arch = "wasm32"))]
pub mod metrics;
#[cfg(not(target_arch = "wasm32"))]
pub mod netbench;
pub mod netcode_ws;
#[cfg(not(target_arch = "wasm32"))]
pub mod peer;
pub mod predict;
#[cfg(not(target_arch = "wasm32"))]
pub mod records;
#[cfg(not(target_arch = "wasm32"))]
pub mod rooms;
#[cfg(not(target_arch = "wasm32"))]
pub mod seats;
pub mod seen;
#[cfg(not(target_arch = "wasm32"))]
pub mod server;
pub mod session;
#[cfg(not(target_arch = "wasm32"))]
pub mod tandem_round;
pub mod tandem_seat;
#[cfg(not(target_arch = "wasm32"))]
pub mod tandem_watch;
#[cfg(not(target_arch = "wasm32"))]
pub mod ticktime;
pub mod tokens;
#[cfg(not(target_arch = "wasm32"))]
pub mod udp;
pub mod uplink;
#[cfg(not(target_arch = "wasm32"))]
pub mod web;
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
