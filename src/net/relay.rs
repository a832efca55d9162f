//! The web port's front door and the browser transport's relay.
//!
//! One TCP listener is the web port. Each connection's request head is *peeked* (never
//! consumed): a WebSocket upgrade on [`WS_PATH`] becomes a relay, anything else is spliced
//! byte for byte to the tiny_http server (JSON API and static files) listening on loopback.
//! Owning the listener is what lets a relay own its TcpStream: tiny_http's own upgrade hands
//! back a boxed stream that can neither be split for two directions nor given a read timeout.
//!
//! A relay is one WebSocket ↔ one loopback UDP socket into the unchanged netcode server: each
//! binary message is one datagram and each datagram one binary message, never parsed (netcode
//! encrypts them; the relay could not read them if it wanted to). The netcode server sees the
//! relay socket as the client's address; connect tokens still name the server's public UDP
//! address, which netcode checks against its own list, not against the sender. A sharded host
//! (`--shards N`) has N netcode servers: until one answers, a relay sends the browser's packets
//! to all of them, and only the shard its token names answers (the others drop a token that
//! does not list their address); the relay then talks to that shard alone. Limits: at most
//! [`WebConfig::max_relays`] at once (the next upgrade gets 503), a socket silent for
//! [`WebConfig::idle`] is closed (a connected netcode client sends keep-alives every 100 ms),
//! messages over [`MAX_MESSAGE`] bytes close the socket, and a browser's `Origin` must be this
//! host's own or one of [`WebConfig::origins`]. docs/NETWORK.md has the protocol.

use bevy::log::{info, warn};
use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, UdpSocket};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};
use tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tungstenite::protocol::WebSocketConfig;
use tungstenite::{Message, WebSocket};

/// Where the browser transport's WebSocket is upgraded (shared with the clients).
pub use super::ws::WS_PATH;
/// The largest message a relay forwards: one netcode packet.
pub const MAX_MESSAGE: usize = renetcode::NETCODE_MAX_PACKET_BYTES;
/// The most a request head may take before it is dispatched.
const HEAD_LIMIT: usize = 8192;
/// How long a new connection has to send its request head.
const HEAD_WAIT: Duration = Duration::from_secs(5);
/// A keep-alive HTTP connection idle this long is closed (each holds two proxy threads).
const HTTP_IDLE: Duration = Duration::from_secs(30);
/// At most this many HTTP connections are spliced at once (two threads each).
const MAX_HTTP: usize = 256;
/// How often a relay's UDP side looks whether its WebSocket side has ended.
const UDP_POLL: Duration = Duration::from_millis(500);

/// The web port's settings beyond its address.
#[derive(Clone, Debug)]
pub struct WebConfig {
    /// Static files served at `/` (the browser build, `web/build.sh`'s output).
    pub root: PathBuf,
    /// Most WebSocket relays open at once.
    pub max_relays: usize,
    /// A relay with no message from its browser for this long is closed.
    pub idle: Duration,
    /// Origins allowed besides the page's own (`http://HOST:PORT` as the browser sends it).
    pub origins: Vec<String>,
}

impl Default for WebConfig {
    fn default() -> Self {
        WebConfig {
            root: PathBuf::from("web/dist"),
            max_relays: 256,
            idle: Duration::from_secs(15),
            origins: Vec::new(),
        }
    }
}

/// The running front door; dropping it stops accepting (open relays run until they close).
pub struct FrontDoor {
    pub addr: SocketAddr,
    stop: Arc<AtomicBool>,
    /// Relays open now (tests read it to check the cap).
    pub relays: Arc<AtomicUsize>,
    udp: Arc<RwLock<Vec<SocketAddr>>>,
}

impl FrontDoor {
    /// The netcode servers relays lead to (one per shard); until set, an upgrade gets 503.
    pub fn set_udp(&self, udp: &[SocketAddr]) {
        // A netcode server bound to every interface is reached on loopback; the relay never
        // leaves the machine.
        let udp = udp.iter().map(|a| {
            if a.ip().is_unspecified() {
                let ip = if a.is_ipv4() {
                    std::net::IpAddr::from([127, 0, 0, 1])
                } else {
                    std::net::Ipv6Addr::LOCALHOST.into()
                };
                SocketAddr::new(ip, a.port())
            } else {
                *a
            }
        });
        if let Ok(mut w) = self.udp.write() {
            *w = udp.collect();
        }
    }
}

impl Drop for FrontDoor {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Unblocks the accept loop, which then sees the flag.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(200));
    }
}

/// What a dispatcher needs, shared by every connection.
struct Shared {
    http: SocketAddr,
    udp: Arc<RwLock<Vec<SocketAddr>>>,
    cfg: WebConfig,
    relays: Arc<AtomicUsize>,
    spliced: Arc<AtomicUsize>,
}

/// Binds the web port at `bind` and starts accepting: upgrades on [`WS_PATH`] relay to the
/// netcode servers given by [`FrontDoor::set_udp`], everything else goes to the HTTP server at
/// `http`.
pub fn start_front(
    bind: SocketAddr,
    http: SocketAddr,
    cfg: WebConfig,
) -> Result<FrontDoor, String> {
    let listener = TcpListener::bind(bind).map_err(|e| format!("web bind {bind}: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let stop = Arc::new(AtomicBool::new(false));
    let relays = Arc::new(AtomicUsize::new(0));
    let udp = Arc::new(RwLock::new(Vec::new()));
    let shared = Arc::new(Shared {
        http,
        udp: udp.clone(),
        cfg,
        relays: relays.clone(),
        spliced: Arc::new(AtomicUsize::new(0)),
    });
    let flag = stop.clone();
    std::thread::Builder::new()
        .name("undercooked-web".into())
        .spawn(move || {
            for stream in listener.incoming() {
                if flag.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let shared = shared.clone();
                let _ = std::thread::Builder::new()
                    .name("undercooked-web-conn".into())
                    .spawn(move || dispatch(stream, &shared));
            }
        })
        .map_err(|e| e.to_string())?;
    Ok(FrontDoor { addr, stop, relays, udp })
}

/// The parts of a request head that decide where a connection goes.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Head {
    pub method: String,
    /// Without the query.
    pub path: String,
    pub upgrade_websocket: bool,
}

/// Parses a (complete) request head: the request line and the `Upgrade` header.
pub fn parse_head(text: &str) -> Head {
    let mut lines = text.split("\r\n");
    let mut parts = lines.next().unwrap_or("").split(' ');
    let method = parts.next().unwrap_or("").to_string();
    let target = parts.next().unwrap_or("");
    let path = target.split('?').next().unwrap_or("").to_string();
    let upgrade_websocket = lines.take_while(|l| !l.is_empty()).any(|l| {
        l.split_once(':').is_some_and(|(k, v)| {
            k.trim().eq_ignore_ascii_case("upgrade") && v.trim().eq_ignore_ascii_case("websocket")
        })
    });
    Head { method, path, upgrade_websocket }
}

/// Waits (bounded) for a whole request head without consuming it.
fn peek_head(stream: &TcpStream) -> Option<String> {
    stream.set_read_timeout(Some(HEAD_WAIT)).ok()?;
    let end = Instant::now() + HEAD_WAIT;
    let mut buf = vec![0u8; HEAD_LIMIT];
    let mut seen = 0;
    loop {
        let n = stream.peek(&mut buf).ok()?;
        if n == 0 {
            return None;
        }
        let head = &buf[..n];
        if head.windows(4).any(|w| w == b"\r\n\r\n") || n == HEAD_LIMIT {
            return Some(String::from_utf8_lossy(head).into_owned());
        }
        if Instant::now() > end {
            return None;
        }
        // peek returns at once while the bytes seen so far are all there is: wait for more.
        if n == seen {
            std::thread::sleep(Duration::from_millis(5));
        }
        seen = n;
    }
}

fn dispatch(stream: TcpStream, shared: &Shared) {
    let Some(head) = peek_head(&stream) else { return };
    let head = parse_head(&head);
    if head.method == "GET" && head.path == WS_PATH && head.upgrade_websocket {
        relay(stream, shared);
    } else {
        splice(stream, shared);
    }
}

fn refuse(mut stream: TcpStream, status: &str, why: &str) {
    // Consume the (peeked) request first: closing a socket with unread bytes resets it, and
    // the client could lose the answer.
    let mut head = [0u8; HEAD_LIMIT];
    let _ = stream.read(&mut head);
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{why}",
        why.len()
    );
    let _ = stream.shutdown(Shutdown::Both);
}

/// Counts one open connection of a kind; the count drops with the last clone.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn take_slot(count: &Arc<AtomicUsize>, max: usize) -> Option<Slot> {
    if count.fetch_add(1, Ordering::SeqCst) >= max {
        count.fetch_sub(1, Ordering::SeqCst);
        return None;
    }
    Some(Slot(count.clone()))
}

/// Splices an HTTP connection to the internal tiny_http server until either side closes or
/// the client is idle for [`HTTP_IDLE`].
fn splice(client: TcpStream, shared: &Shared) {
    let Some(_slot) = take_slot(&shared.spliced, MAX_HTTP) else {
        return refuse(client, "503 Service Unavailable", "too many connections\n");
    };
    let Ok(inner) = TcpStream::connect(shared.http) else {
        return refuse(client, "503 Service Unavailable", "web server not running\n");
    };
    let _ = client.set_read_timeout(Some(HTTP_IDLE));
    let (Ok(mut client_r), Ok(mut inner_w)) = (client.try_clone(), inner.try_clone()) else {
        return;
    };
    let up = std::thread::Builder::new().name("undercooked-web-up".into()).spawn(move || {
        let _ = io::copy(&mut client_r, &mut inner_w);
        // Client done (closed, or idle past the timeout): the request side ends.
        let _ = inner_w.shutdown(Shutdown::Write);
        let _ = client_r.shutdown(Shutdown::Read);
    });
    let (mut inner_r, mut client_w) = (inner, client);
    let _ = io::copy(&mut inner_r, &mut client_w);
    let _ = client_w.shutdown(Shutdown::Both);
    let _ = inner_r.shutdown(Shutdown::Both);
    if let Ok(up) = up {
        let _ = up.join();
    }
}

/// Whether a WebSocket's `Origin` may open a relay: none (a native client: Origin only
/// protects browsers, and anything else can forge it), the page's own origin (`http://` or
/// `https://` plus the request's `Host`), or one listed in `allowed`.
pub fn origin_allowed(origin: Option<&str>, host: Option<&str>, allowed: &[String]) -> bool {
    let Some(origin) = origin else { return true };
    let origin = origin.trim_end_matches('/');
    if allowed.iter().any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin)) {
        return true;
    }
    host.is_some_and(|h| {
        origin.eq_ignore_ascii_case(&format!("http://{h}"))
            || origin.eq_ignore_ascii_case(&format!("https://{h}"))
    })
}

/// The relay's TCP stream: reads from its own handle, writes through the lock the UDP side
/// writes with, so a pong or close that tungstenite sends never interleaves with a frame.
struct RelayStream {
    read: TcpStream,
    write: Arc<Mutex<TcpStream>>,
}

impl Read for RelayStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.read.read(buf)
    }
}

impl Write for RelayStream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut w = self.write.lock().map_err(|_| io::Error::other("poisoned"))?;
        w.write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.write.lock().map_err(|_| io::Error::other("poisoned"))?.flush()
    }
}

/// One unmasked, unfragmented binary frame (server to client, RFC 6455 §5.2).
fn binary_frame(payload: &[u8]) -> Vec<u8> {
    let mut f = Vec::with_capacity(payload.len() + 10);
    f.push(0x82);
    match payload.len() {
        n if n < 126 => f.push(n as u8),
        n if n <= u16::MAX as usize => {
            f.push(126);
            f.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            f.push(127);
            f.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    f.extend_from_slice(payload);
    f
}

// The handshake callback's error type is tungstenite's (`ErrorResponse`), not ours to shrink.
#[allow(clippy::result_large_err)]
fn relay(stream: TcpStream, shared: &Shared) {
    let peer = stream.peer_addr().ok();
    let targets = shared.udp.read().map(|t| t.clone()).unwrap_or_default();
    if targets.is_empty() {
        return refuse(stream, "503 Service Unavailable", "server starting\n");
    }
    let Some(slot) = take_slot(&shared.relays, shared.cfg.max_relays) else {
        warn!(peer = ?peer, max = shared.cfg.max_relays, "websocket refused: relay limit");
        return refuse(stream, "503 Service Unavailable", "relay limit reached\n");
    };
    let slot = Arc::new(slot);
    let (Ok(read), Ok(write)) = (stream.try_clone(), stream.try_clone()) else { return };
    let _ = stream.set_nodelay(true);
    let write = Arc::new(Mutex::new(write));
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE));
    let origins = shared.cfg.origins.clone();
    let check = |req: &Request, resp: Response| -> Result<Response, ErrorResponse> {
        let header = |k: &str| req.headers().get(k).and_then(|v| v.to_str().ok());
        if origin_allowed(header("origin"), header("host"), &origins) {
            Ok(resp)
        } else {
            let mut refused = ErrorResponse::new(Some("origin not allowed\n".into()));
            *refused.status_mut() = tungstenite::http::StatusCode::FORBIDDEN;
            Err(refused)
        }
    };
    let rs = RelayStream { read, write: write.clone() };
    let mut ws: WebSocket<RelayStream> =
        match tungstenite::accept_hdr_with_config(rs, check, Some(config)) {
            Ok(ws) => ws,
            Err(e) => {
                warn!(peer = ?peer, error = %e, "websocket refused");
                let _ = stream.shutdown(Shutdown::Both);
                return;
            }
        };
    // One server: a connected socket (its ICMP errors end the relay). Several: unconnected,
    // until the shard the token names answers (`NONE`: none has yet).
    const NONE: usize = usize::MAX;
    let single = targets.len() == 1;
    let locked = Arc::new(AtomicUsize::new(if single { 0 } else { NONE }));
    let udp = match UdpSocket::bind(SocketAddr::new(targets[0].ip(), 0))
        .and_then(|u| if single { u.connect(targets[0]).map(|()| u) } else { Ok(u) })
    {
        Ok(u) => u,
        Err(e) => {
            warn!(error = %e, "relay: no UDP socket");
            let _ = ws.close(None);
            return;
        }
    };
    let local = udp.local_addr().ok();
    info!(peer = ?peer, relay = ?local, "websocket relay open");
    let _ = stream.set_read_timeout(Some(shared.cfg.idle));
    // A browser that stops reading must not hold the down thread in a write for ever.
    let _ = stream.set_write_timeout(Some(shared.cfg.idle));
    let _ = udp.set_read_timeout(Some(UDP_POLL));
    let closed = Arc::new(AtomicBool::new(false));
    // Netcode server → browser: one datagram, one binary message.
    let down = {
        let (udp, write, closed, slot) =
            (udp.try_clone(), write.clone(), closed.clone(), slot.clone());
        let (targets, locked) = (targets.clone(), locked.clone());
        std::thread::Builder::new().name("undercooked-relay".into()).spawn(move || {
            let _slot = slot;
            let Ok(udp) = udp else { return };
            let mut buf = [0u8; MAX_MESSAGE];
            while !closed.load(Ordering::SeqCst) {
                match udp.recv_from(&mut buf) {
                    Ok((n, from)) => {
                        let Some(i) = targets.iter().position(|a| *a == from) else { continue };
                        let shard = locked
                            .compare_exchange(NONE, i, Ordering::SeqCst, Ordering::SeqCst)
                            .unwrap_or_else(|current| current);
                        if shard != i {
                            continue;
                        }
                        let frame = binary_frame(&buf[..n]);
                        let sent = write.lock().map(|mut w| w.write_all(&frame));
                        if !matches!(sent, Ok(Ok(()))) {
                            break;
                        }
                    }
                    Err(e)
                        if matches!(
                            e.kind(),
                            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                        ) => {}
                    // The server went away (ICMP unreachable on loopback) or the socket broke.
                    Err(_) => break,
                }
            }
            closed.store(true, Ordering::SeqCst);
            if let Ok(w) = write.lock() {
                let _ = w.shutdown(Shutdown::Both);
            }
        })
    };
    // Browser → netcode server, on this thread, until close, idle timeout or error.
    let why = loop {
        match ws.read() {
            Ok(Message::Binary(b)) => {
                let sent = match locked.load(Ordering::SeqCst) {
                    _ if single => udp.send(&b).map(drop),
                    NONE => targets.iter().try_for_each(|a| udp.send_to(&b, a).map(drop)),
                    i => udp.send_to(&b, targets[i]).map(drop),
                };
                if sent.is_err() {
                    break "udp send failed".to_string();
                }
            }
            Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_)) => {}
            Ok(Message::Text(_)) => break "text message (binary only)".to_string(),
            Ok(Message::Close(_)) => break "closed by client".to_string(),
            Err(tungstenite::Error::Io(e))
                if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) =>
            {
                break "idle".to_string();
            }
            Err(e) => break e.to_string(),
        }
        if closed.load(Ordering::SeqCst) {
            break "server side closed".to_string();
        }
    };
    closed.store(true, Ordering::SeqCst);
    let _ = ws.close(None);
    let _ = ws.flush();
    let _ = stream.shutdown(Shutdown::Both);
    if let Ok(down) = down {
        let _ = down.join();
    }
    info!(peer = ?peer, relay = ?local, reason = %why, "websocket relay closed");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_route_upgrades_and_strip_queries() {
        let h = parse_head(
            "GET /ws?x=1 HTTP/1.1\r\nHost: a:1\r\nConnection: Upgrade\r\nupgrade: WebSocket\r\n\r\n",
        );
        assert_eq!((h.method.as_str(), h.path.as_str(), h.upgrade_websocket), ("GET", "/ws", true));
        let h = parse_head("GET /?room=ABCDE HTTP/1.1\r\nHost: a\r\n\r\n");
        assert_eq!((h.path.as_str(), h.upgrade_websocket), ("/", false));
    }

    #[test]
    fn origins_same_host_listed_or_absent() {
        let listed = vec!["https://play.example".to_string()];
        assert!(origin_allowed(None, Some("h:7780"), &[]));
        assert!(origin_allowed(Some("http://h:7780"), Some("h:7780"), &[]));
        assert!(origin_allowed(Some("https://play.example/"), Some("h:7780"), &listed));
        assert!(!origin_allowed(Some("http://evil.example"), Some("h:7780"), &listed));
        assert!(!origin_allowed(Some("http://h:7781"), Some("h:7780"), &[]));
    }

    #[test]
    fn frames_use_the_right_length_form() {
        assert_eq!(&binary_frame(&[1, 2])[..2], &[0x82, 2]);
        let f = binary_frame(&[0; 300]);
        assert_eq!(&f[..4], &[0x82, 126, 1, 44]);
        assert_eq!(f.len(), 304);
    }
}
