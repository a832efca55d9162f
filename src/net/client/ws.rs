//! The WebSocket flavour of the client transport: renetcode's transport-agnostic
//! `NetcodeClient` with a WebSocket to the web port's relay (`net::server::web::relay`) where
//! renet_netcode's transport has a UDP socket. Same token, same encryption; one netcode packet
//! per binary message.
//!
//! [`NetcodeWs`] (`netcode_ws.rs`) drives netcode over any [`PacketSocket`]; the socket is the only part that
//! differs per platform. Natively it is tungstenite on a nonblocking TcpStream
//! ([`WsClientTransport`], `undercooked join HOST:WEB_PORT --ws`, tests/net.rs), which tests
//! the relay without a browser; in the browser it is the page's `WebSocket`
//! (`net::client::browser::BrowserSocket`).
//!
//! The systems mirror bevy_renet's `NetcodeClientPlugin`: receive and advance in `PreUpdate`
//! (in `RenetReceive`, after renet's own update), send in `PostUpdate` (`RenetSend`).

pub use crate::net::wire::netcode_ws::{NetcodeWs, PacketSocket, WS_PATH};
use bevy::prelude::*;
use bevy_replicon_renet::{RenetClient, RenetClientPlugin, RenetReceive, RenetSend};
#[cfg(not(target_arch = "wasm32"))]
use {
    crate::net::wire::error::NetError,
    renetcode::ConnectToken,
    std::io,
    std::net::{TcpStream, ToSocketAddrs},
    std::time::Duration,
    tungstenite::client::IntoClientRequest,
    tungstenite::{Message, WebSocket},
};

/// The WebSocket transport of this platform: tungstenite natively, the page's WebSocket in the
/// browser.
#[cfg(not(target_arch = "wasm32"))]
pub type WsClientTransport = NetcodeWs<TungsteniteSocket>;
#[cfg(target_arch = "wasm32")]
pub type WsClientTransport = NetcodeWs<crate::net::client::browser::BrowserSocket>;

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

/// How long the TCP connect and the WebSocket handshake may take.
#[cfg(not(target_arch = "wasm32"))]
const CONNECT_WAIT: Duration = Duration::from_secs(10);

/// tungstenite on a nonblocking TcpStream: the native [`PacketSocket`].
#[cfg(not(target_arch = "wasm32"))]
pub struct TungsteniteSocket {
    ws: WebSocket<TcpStream>,
    closed: Option<String>,
}

#[cfg(not(target_arch = "wasm32"))]
impl NetcodeWs<TungsteniteSocket> {
    /// Opens `ws://WEB/ws` (sending `origin` when given, as a browser would) and starts a
    /// netcode connection with `token`.
    pub fn connect(
        web: &str,
        origin: Option<&str>,
        token: ConnectToken,
    ) -> Result<WsClientTransport, NetError> {
        let unreachable = |reason: String| NetError::Unreachable { addr: web.to_string(), reason };
        let addr = web
            .to_socket_addrs()
            .map_err(|e| unreachable(e.to_string()))?
            .next()
            .ok_or_else(|| unreachable("no address".into()))?;
        let stream = TcpStream::connect_timeout(&addr, CONNECT_WAIT)?;
        stream.set_read_timeout(Some(CONNECT_WAIT))?;
        let _ = stream.set_nodelay(true);
        let url = format!("ws://{web}{WS_PATH}");
        let mut request =
            url.as_str().into_client_request().map_err(|e| NetError::WebSocket(e.to_string()))?;
        if let Some(o) = origin {
            request
                .headers_mut()
                .insert("Origin", o.parse().map_err(|_| NetError::BadOrigin(o.to_string()))?);
        }
        let (ws, _) = tungstenite::client(request, stream).map_err(|e| match e {
            tungstenite::HandshakeError::Failure(tungstenite::Error::Http(r)) => {
                NetError::WebSocketRefused(r.status().to_string())
            }
            e => NetError::WebSocket(e.to_string()),
        })?;
        // After the handshake the socket is polled once per frame, like the UDP one.
        ws.get_ref().set_nonblocking(true)?;
        NetcodeWs::new(
            TungsteniteSocket { ws, closed: None },
            token,
            crate::net::wire::tokens::unix_now(),
        )
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl PacketSocket for TungsteniteSocket {
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

    fn recv(&mut self) -> Option<Vec<u8>> {
        while self.closed.is_none() {
            match self.ws.read() {
                Ok(Message::Binary(b)) => return Some(b.to_vec()),
                Ok(Message::Close(_)) => self.closed = Some("closed by the relay".into()),
                Ok(_) => {}
                Err(tungstenite::Error::Io(e)) if e.kind() == io::ErrorKind::WouldBlock => {
                    return None;
                }
                Err(e) => self.closed = Some(e.to_string()),
            }
        }
        None
    }

    fn flush(&mut self) {
        match self.ws.flush() {
            Ok(()) => {}
            Err(tungstenite::Error::Io(e)) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) if self.closed.is_none() => self.closed = Some(e.to_string()),
            Err(_) => {}
        }
    }

    fn close(&mut self) {
        let _ = self.ws.close(None);
        self.flush();
        self.closed.get_or_insert("disconnected".into());
    }

    fn closed(&self) -> Option<String> {
        self.closed.clone()
    }
}
