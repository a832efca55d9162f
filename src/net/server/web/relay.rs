//! The browser transport's relay: one WebSocket on `/ws` ↔ one UDP socket into the unchanged
//! netcode server. Each binary message is one datagram and each datagram one binary message,
//! never parsed (netcode encrypts them; the relay could not read them if it wanted to). The
//! netcode server sees the relay's socket as the client's address; connect tokens still name
//! the server's public UDP address, which netcode checks against its own list, not against
//! the sender. A sharded host (`--shards N`) has N netcode servers: until one answers, the
//! relay sends the browser's packets to all of them, and only the shard its token names
//! answers (the others drop a token that does not list their address); the relay then talks
//! to that shard alone. A relay counts against `max_relays` and its address's
//! `relays_per_address` from the completed handshake on (`relay_slots`), and its connection
//! against the connection caps until it closes. The relay cannot read a packet, but netcode's
//! prefix byte is plain: a relay the server has sent no session packet (keep-alive or payload)
//! for `relay_session` is closed, so sockets held open by WebSocket pings alone, with no
//! netcode session behind them, give their places back.

use super::answer::{NamedError, json_response};
use super::api::ApiError;
use super::body::{WebBody, full};
use super::conns::ConnSlot;
use super::counters::WebCounters;
use super::relay_slots::RelayTable;
use futures_util::{SinkExt, StreamExt};
use hyper::body::Incoming;
use hyper::header::{CONNECTION, HeaderValue, SEC_WEBSOCKET_ACCEPT, SEC_WEBSOCKET_KEY, UPGRADE};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::UdpSocket;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};

/// The largest message a relay forwards: one netcode packet.
pub const MAX_MESSAGE: usize = renetcode::NETCODE_MAX_PACKET_BYTES;

/// What one relay needs besides its request.
pub struct RelayPlan {
    /// The netcode servers (one per shard), on addresses this machine reaches.
    pub targets: Vec<SocketAddr>,
    /// The relays' places, in all and per address.
    pub relays: Arc<RelayTable>,
    /// Closed when the server sent no session packet through it for this long.
    pub session: Duration,
    /// Closed after this long with no message from the browser (or a write stalled so long).
    pub idle: Duration,
    pub counters: Arc<WebCounters>,
    pub peer: SocketAddr,
    /// The connection's place under the connection caps, held as long as the relay runs.
    pub conn: Arc<ConnSlot>,
}

/// The address a netcode server bound to every interface is reached at: loopback (the relay
/// never leaves the machine).
pub fn reachable(a: SocketAddr) -> SocketAddr {
    if !a.ip().is_unspecified() {
        return a;
    }
    let ip: IpAddr =
        if a.is_ipv4() { Ipv4Addr::LOCALHOST.into() } else { Ipv6Addr::LOCALHOST.into() };
    SocketAddr::new(ip, a.port())
}

fn refuse(error: ApiError, detail: &str) -> Response<WebBody> {
    json_response(error.answer(detail), false)
}

fn header_has(req: &Request<Incoming>, name: hyper::header::HeaderName, token: &str) -> bool {
    req.headers().get_all(name).iter().any(|v| {
        v.to_str().is_ok_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
    })
}

/// Answers a `GET /ws`: 101 and a relay task, or the refusal (400 not an upgrade, 503 no
/// netcode server yet or at the relay cap). The Origin was checked before.
pub fn upgrade(mut req: Request<Incoming>, plan: RelayPlan) -> Response<WebBody> {
    let key = req.headers().get(SEC_WEBSOCKET_KEY).map(|k| k.as_bytes().to_vec());
    let version_13 = req.headers().get("sec-websocket-version").is_some_and(|v| v == "13");
    let (true, true, true, Some(key)) = (
        header_has(&req, UPGRADE, "websocket"),
        header_has(&req, CONNECTION, "upgrade"),
        version_13,
        key,
    ) else {
        return refuse(ApiError::NotAWebSocket, "GET /ws is a WebSocket upgrade (version 13)");
    };
    if plan.targets.is_empty() {
        return refuse(ApiError::ServerStarting, "the netcode server is not listening yet");
    }
    if let Err(limit) = plan.relays.check(plan.peer.ip()) {
        bevy::log::warn!(peer = %plan.peer, limit = %limit, "websocket refused");
        let detail = match limit {
            ApiError::RelaysPerAddress => "this address holds all the relays it may",
            _ => "relay limit reached",
        };
        return refuse(limit, detail);
    }
    let accept = tokio_tungstenite::tungstenite::handshake::derive_accept_key(&key);
    let on_upgrade = hyper::upgrade::on(&mut req);
    tokio::spawn(async move {
        let Ok(upgraded) = on_upgrade.await else { return };
        // The handshake is complete: only now does the relay take a place (two upgrades
        // racing for the last one: the later is closed).
        let Ok(_slot) = plan.relays.take(plan.peer.ip()) else { return };
        let config = WebSocketConfig::default()
            .max_message_size(Some(MAX_MESSAGE))
            .max_frame_size(Some(MAX_MESSAGE));
        let ws =
            WebSocketStream::from_raw_socket(TokioIo::new(upgraded), Role::Server, Some(config))
                .await;
        run(ws, &plan).await;
    });
    let mut r = Response::new(full(Vec::new()));
    *r.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let h = r.headers_mut();
    h.insert(UPGRADE, HeaderValue::from_static("websocket"));
    h.insert(CONNECTION, HeaderValue::from_static("Upgrade"));
    if let Ok(v) = HeaderValue::from_str(&accept) {
        h.insert(SEC_WEBSOCKET_ACCEPT, v);
    }
    r
}

/// Relays until close, idle, an oversized or text message, or a socket error.
async fn run<S>(mut ws: WebSocketStream<S>, plan: &RelayPlan)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let targets = &plan.targets;
    let single = targets.len() == 1;
    let udp = match UdpSocket::bind(SocketAddr::new(targets[0].ip(), 0)).await {
        Ok(u) => u,
        Err(e) => {
            bevy::log::warn!(error = %e, "relay: no UDP socket");
            let _ = ws.close(None).await;
            return;
        }
    };
    // One server: a connected socket (its ICMP errors end the relay). Several: unconnected,
    // until the shard the token names answers.
    if single && udp.connect(targets[0]).await.is_err() {
        let _ = ws.close(None).await;
        return;
    }
    let mut locked: Option<usize> = single.then_some(0);
    let local = udp.local_addr().ok();
    bevy::log::info!(peer = %plan.peer, relay = ?local, "websocket relay open");
    let mut buf = vec![0u8; MAX_MESSAGE];
    let mut session_seen = tokio::time::Instant::now();
    let why = loop {
        tokio::select! {
            () = tokio::time::sleep_until(session_seen + plan.session) => {
                WebCounters::bump(&plan.counters.relays_sessionless);
                break "no netcode session";
            }
            msg = tokio::time::timeout(plan.idle, ws.next()) => match msg {
                Err(_) => break "idle",
                Ok(None) => break "closed by client",
                Ok(Some(Err(_))) => break "websocket error (or an oversized message)",
                Ok(Some(Ok(Message::Binary(b)))) => {
                    let sent = match locked {
                        Some(_) if single => udp.send(&b).await.map(drop),
                        Some(i) => udp.send_to(&b, targets[i]).await.map(drop),
                        None => {
                            let mut r = Ok(());
                            for a in targets {
                                r = r.and(udp.send_to(&b, a).await.map(drop));
                            }
                            r
                        }
                    };
                    if sent.is_err() {
                        break "udp send failed";
                    }
                }
                Ok(Some(Ok(Message::Text(_)))) => break "text message (binary only)",
                Ok(Some(Ok(Message::Close(_)))) => break "closed by client",
                Ok(Some(Ok(_))) => {}
            },
            got = udp.recv_from(&mut buf) => match got {
                Ok((n, from)) => {
                    let Some(i) = targets.iter().position(|a| *a == from) else { continue };
                    if *locked.get_or_insert(i) != i {
                        continue;
                    }
                    if n > 0 && is_session_packet(buf[0]) {
                        session_seen = tokio::time::Instant::now();
                    }
                    let frame = Message::Binary(buf[..n].to_vec().into());
                    // A browser that stops reading must not hold the relay for ever.
                    match tokio::time::timeout(plan.idle, ws.send(frame)).await {
                        Ok(Ok(())) => {}
                        _ => break "browser not reading",
                    }
                }
                // The server went away (ICMP unreachable on loopback) or the socket broke.
                Err(_) => break "udp error",
            },
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), ws.close(None)).await;
    bevy::log::info!(peer = %plan.peer, relay = ?local, reason = why, "websocket relay closed");
}

/// Whether a netcode packet with this prefix byte belongs to an established session: a
/// keep-alive or a payload (netcode's packet types 4 and 5, in the prefix's low four bits,
/// which netcode leaves unencrypted). Challenges and denials do not count.
pub fn is_session_packet(prefix: u8) -> bool {
    matches!(prefix & 0x0f, 4 | 5)
}
