//! netcode over a message socket: [`NetcodeWs`] drives renetcode's transport-agnostic
//! `NetcodeClient` over any [`PacketSocket`] (one netcode packet per message), where
//! renet_netcode's transport has a UDP socket. The platforms' sockets (`ws.rs`'s tungstenite,
//! `browser.rs`'s page WebSocket) build on this, and `ws.rs` picks one of them.

use crate::net::wire::error::NetError;
use bevy::prelude::*;
use bevy_replicon_renet::RenetClient;
use renetcode::{ClientAuthentication, ConnectToken, NetcodeClient};
use std::time::Duration;

/// Where the relay upgrades WebSockets (`net::server::web::relay`).
pub const WS_PATH: &str = "/ws";

/// A message socket carrying one netcode packet per message.
pub trait PacketSocket: Send + Sync + 'static {
    /// Queues `packet` as one binary message (dropped once the socket has closed).
    fn send(&mut self, packet: &[u8]);
    /// The next packet received, if one is waiting; `None` also once closed.
    fn recv(&mut self) -> Option<Vec<u8>>;
    /// Pushes queued messages out, as far as the socket takes them now.
    fn flush(&mut self);
    /// Closes the socket (after what was queued).
    fn close(&mut self);
    /// Why the socket ended, once it has.
    fn closed(&self) -> Option<String>;
}

/// netcode over a [`PacketSocket`]: a resource in place of renet_netcode's
/// `NetcodeClientTransport`.
#[derive(Resource)]
pub struct NetcodeWs<S: PacketSocket> {
    socket: S,
    netcode: NetcodeClient,
    /// Netcode packet bytes received and sent (without the WebSocket framing).
    pub bytes_in: u64,
    pub bytes_out: u64,
}

impl<S: PacketSocket> NetcodeWs<S> {
    /// Starts a netcode connection with `token` over `socket`; `now` is the Unix time.
    pub fn new(socket: S, token: ConnectToken, now: Duration) -> Result<NetcodeWs<S>, NetError> {
        let netcode =
            NetcodeClient::new(now, ClientAuthentication::Secure { connect_token: token })
                .map_err(|e| NetError::BadToken(e.to_string()))?;
        Ok(NetcodeWs { socket, netcode, bytes_in: 0, bytes_out: 0 })
    }

    fn send(&mut self, packet: &[u8]) {
        self.bytes_out += packet.len() as u64;
        self.socket.send(packet);
    }

    /// Why the transport ended, once it has (the socket's reason, or netcode's).
    pub fn closed(&self) -> Option<String> {
        self.socket.closed().or_else(|| self.netcode.disconnect_reason().map(|r| r.to_string()))
    }

    /// Receives, advances netcode by `dt`, and keeps renet's connection state in step
    /// (renet_netcode's `NetcodeClientTransport::update`, over the WebSocket).
    pub fn update(&mut self, dt: Duration, client: &mut RenetClient) {
        if self.netcode.disconnect_reason().is_some() || self.socket.closed().is_some() {
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
        while let Some(mut packet) = self.socket.recv() {
            self.bytes_in += packet.len() as u64;
            if let Some(payload) = self.netcode.process_packet(&mut packet) {
                client.process_packet(payload);
            }
        }
        if let Some((packet, _)) = self.netcode.update(dt) {
            let packet = packet.to_vec();
            self.send(&packet);
        }
        self.socket.flush();
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
                    warn!("netcode: {e}");
                    self.socket.close();
                }
            }
        }
        self.socket.flush();
    }

    /// Sends netcode's disconnect packet now and closes the WebSocket.
    pub fn disconnect(&mut self) {
        if !self.netcode.is_disconnected()
            && let Ok((_, packet)) = self.netcode.disconnect()
        {
            let packet = packet.to_vec();
            self.send(&packet);
        }
        self.socket.flush();
        self.socket.close();
    }

    pub fn is_connected(&self) -> bool {
        self.netcode.is_connected() && self.socket.closed().is_none()
    }
}
