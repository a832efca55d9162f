//! Opening a native client's connection: the renet client and a netcode transport carrying the
//! connect token of the web port's answer, over UDP or the web port's WebSocket relay. The
//! headless client, the load generator and the game window all connect through here; the
//! browser opens its own (`net::client::browser`).

use crate::net::client::session::{ClientNetPlugin, JoinReply, insert_client};
use crate::net::wire::error::NetError;
use crate::net::wire::tokens::read_token;
use bevy::prelude::*;
use bevy_replicon_renet::netcode::{ClientAuthentication, NetcodeClientTransport};
use std::net::UdpSocket;

/// How a client's netcode packets travel.
#[derive(Clone, Debug)]
pub enum Transport {
    /// Straight to the server's UDP port (the token's address).
    Udp,
    /// Through the web port's WebSocket relay at `web` (HOST:WEB_PORT), as a browser does;
    /// `origin` is sent as the `Origin` header when given.
    WebSocket { web: String, origin: Option<String> },
}

/// Makes `app` a network client seated by `reply`: replicon, renet, the protocol, a netcode
/// transport (UDP, or the web port's WebSocket relay) carrying the reply's connect token, and
/// the send pacing. The window's `join` and tests; the session is added beside it.
pub fn add_connection(
    app: &mut App,
    reply: &JoinReply,
    transport: &Transport,
) -> Result<(), NetError> {
    app.add_plugins(ClientNetPlugin);
    app.add_plugins(crate::net::client::ws::WsClientPlugin);
    open_connection(app.world_mut(), reply, transport)
}

/// Connects a world that has [`ClientNetPlugin`] (and, for the relay, `ws::WsClientPlugin`):
/// the renet client and the netcode transport carrying `reply`'s connect token. Separate from
/// [`add_connection`] so the game window adds the plugins at start and connects when the
/// menu's Host or Join says so.
pub fn open_connection(
    world: &mut World,
    reply: &JoinReply,
    transport: &Transport,
) -> Result<(), NetError> {
    open_probed_connection(world, reply, transport).map(drop)
}

/// [`open_connection`], also answering a second handle on the UDP socket (none for the relay):
/// the load generator polls it to step a connection only when a packet is waiting.
pub fn open_probed_connection(
    world: &mut World,
    reply: &JoinReply,
    transport: &Transport,
) -> Result<Option<UdpSocket>, NetError> {
    let token = read_token(&reply.token)?;
    match transport {
        Transport::Udp => {
            let socket = UdpSocket::bind(("0.0.0.0", 0))?;
            let probe = socket.try_clone()?;
            let transport = NetcodeClientTransport::new(
                crate::net::wire::tokens::unix_now(),
                ClientAuthentication::Secure { connect_token: token },
                socket,
            )
            .map_err(|e| NetError::BadToken(e.to_string()))?;
            insert_client(world, transport);
            Ok(Some(probe))
        }
        Transport::WebSocket { web, origin } => {
            let transport =
                crate::net::client::ws::WsClientTransport::connect(web, origin.as_deref(), token)?;
            insert_client(world, transport);
            Ok(None)
        }
    }
}

/// Disconnects cleanly: netcode's disconnect packets go out on the next update, over whichever
/// transport carries them.
pub fn disconnect(world: &mut World) {
    if let Some(mut t) = world.get_resource_mut::<NetcodeClientTransport>() {
        t.disconnect();
    }
    if let Some(mut t) = world.get_resource_mut::<crate::net::client::ws::WsClientTransport>() {
        t.disconnect();
    }
}
