//! The WebSocket flavour of the client transport: renetcode's transport-agnostic
//! `NetcodeClient` with a WebSocket to the web port's relay (`net::relay`) where
//! renet_netcode's transport has a UDP socket. Same token, same encryption; one netcode packet
//! per binary message. This is what the browser client does, in native code, so the relay is
//! tested without a browser (`undercooked join HOST:WEB_PORT --ws`, tests/net.rs).
//!
//! The systems mirror bevy_renet's `NetcodeClientPlugin`: receive and advance in `PreUpdate`
//! (in `RenetReceive`, after renet's own update), send in `PostUpdate` (`RenetSend`).

use bevy::prelude::*;
use bevy_replicon_renet::{RenetClient, RenetClientPlugin, RenetReceive, RenetSend};
use renetcode::{ClientAuthentication, ConnectToken, NetcodeClient};
use std::io;
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

/// How long the TCP connect and the WebSocket handshake may take.
const CONNECT_WAIT: Duration = Duration::from_secs(10);

/// The WebSocket transport: a resource in place of `NetcodeClientTransport`.
#[derive(Resource)]
pub struct WsClientTransport {
    ws: WebSocket<TcpStream>,
    netcode: NetcodeClient,
    /// Why the socket ended, once it has.
    pub closed: Option<String>,
}

impl WsClientTransport {
    /// Opens `ws://WEB/ws` (sending `origin` when given, as a browser would) and starts a
    /// netcode connection with `token`.
    pub fn connect(
        web: &str,
        origin: Option<&str>,
        token: ConnectToken,
    ) -> Result<WsClientTransport, String> {
        let addr = web
            .to_socket_addrs()
            .map_err(|e| format!("{web}: {e}"))?
            .next()
            .ok_or(format!("{web}: no address"))?;
        let stream = TcpStream::connect_timeout(&addr, CONNECT_WAIT).map_err(|e| e.to_string())?;
        stream.set_read_timeout(Some(CONNECT_WAIT)).map_err(|e| e.to_string())?;
        let _ = stream.set_nodelay(true);
        let url = format!("ws://{web}{}", super::relay::WS_PATH);
        let mut request = url.as_str().into_client_request().map_err(|e| e.to_string())?;
        if let Some(o) = origin {
            request
                .headers_mut()
                .insert("Origin", o.parse().map_err(|_| format!("bad origin {o}"))?);
        }
        let (ws, _) = tungstenite::client(request, stream).map_err(|e| match e {
            tungstenite::HandshakeError::Failure(tungstenite::Error::Http(r)) => {
                format!("websocket refused: HTTP {}", r.status())
            }
            e => format!("websocket: {e}"),
        })?;
        // After the handshake the socket is polled once per frame, like the UDP one.
        ws.get_ref().set_nonblocking(true).map_err(|e| e.to_string())?;
        let netcode = NetcodeClient::new(
            super::tokens::unix_now(),
            ClientAuthentication::Secure { connect_token: token },
        )
        .map_err(|e| e.to_string())?;
        Ok(WsClientTransport { ws, netcode, closed: None })
    }

    fn send(&mut self, packet: &[u8]) {
        if self.closed.is_some() {
            return;
        }
        // Nonblocking: a frame that does not fit the socket now stays queued in tungstenite
        // and goes out with the next flush.
        match self.ws.write(Message::Binary(packet.to_vec().into())) {
            Ok(()) => {}
            Err(tungstenite::Error::Io(e)) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) => self.closed = Some(e.to_string()),
        }
    }

    fn flush(&mut self) {
        match self.ws.flush() {
            Ok(()) => {}
            Err(tungstenite::Error::Io(e)) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) if self.closed.is_none() => self.closed = Some(e.to_string()),
            Err(_) => {}
        }
    }

    /// Receives, advances netcode by `dt`, and keeps renet's connection state in step
    /// (renet_netcode's `NetcodeClientTransport::update`, over the WebSocket).
    pub fn update(&mut self, dt: Duration, client: &mut RenetClient) {
        if self.netcode.disconnect_reason().is_some() || self.closed.is_some() {
            client.disconnect_due_to_transport();
            return;
        }
        if client.disconnect_reason().is_some() {
            self.disconnect();
            return;
        }
        if self.netcode.is_connected() {
            client.set_connected();
        } else if self.netcode.is_connecting() {
            client.set_connecting();
        }
        loop {
            match self.ws.read() {
                Ok(Message::Binary(b)) => {
                    let mut packet = b.to_vec();
                    if let Some(payload) = self.netcode.process_packet(&mut packet) {
                        client.process_packet(payload);
                    }
                }
                Ok(Message::Close(_)) => {
                    self.closed = Some("closed by the relay".into());
                    break;
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(e)) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) => {
                    self.closed = Some(e.to_string());
                    break;
                }
            }
        }
        if let Some((packet, _)) = self.netcode.update(dt) {
            let packet = packet.to_vec();
            self.send(&packet);
        }
        self.flush();
    }

    /// Wraps and sends renet's packets.
    pub fn send_packets(&mut self, client: &mut RenetClient) {
        if self.netcode.disconnect_reason().is_some() {
            return;
        }
        for packet in client.get_packets_to_send() {
            match self.netcode.generate_payload_packet(&packet) {
                Ok((_, wrapped)) => {
                    let wrapped = wrapped.to_vec();
                    self.send(&wrapped);
                }
                Err(e) => {
                    self.closed.get_or_insert(e.to_string());
                }
            }
        }
        self.flush();
    }

    /// Sends netcode's disconnect packet now and closes the WebSocket.
    pub fn disconnect(&mut self) {
        if !self.netcode.is_disconnected()
            && let Ok((_, packet)) = self.netcode.disconnect()
        {
            let packet = packet.to_vec();
            self.send(&packet);
        }
        let _ = self.ws.close(None);
        self.flush();
        self.closed.get_or_insert("disconnected".into());
    }

    pub fn is_connected(&self) -> bool {
        self.netcode.is_connected() && self.closed.is_none()
    }
}

/// Drives a [`WsClientTransport`] resource when one is present.
pub struct WsClientPlugin;

impl Plugin for WsClientPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            PreUpdate,
            ws_update
                .in_set(RenetReceive)
                .after(RenetClientPlugin::update_system)
                .run_if(resource_exists::<WsClientTransport>)
                .run_if(resource_exists::<RenetClient>),
        );
        app.add_systems(
            PostUpdate,
            ws_send
                .in_set(RenetSend)
                .run_if(resource_exists::<WsClientTransport>)
                .run_if(resource_exists::<RenetClient>),
        );
    }
}

fn ws_update(
    mut transport: ResMut<WsClientTransport>,
    mut client: ResMut<RenetClient>,
    time: Res<Time<Real>>,
) {
    transport.update(time.delta(), &mut client);
}

fn ws_send(mut transport: ResMut<WsClientTransport>, mut client: ResMut<RenetClient>) {
    transport.send_packets(&mut client);
}
