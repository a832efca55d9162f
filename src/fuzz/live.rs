//! A real server on 127.0.0.1 (`net::server::worlds::spawn_server`, ephemeral ports) for the socket
//! targets, raw TCP exchanges with it, and the after-run proof that it still serves and plays.

use crate::board::daily::DailyWindow;
use crate::board::running::{Board, BoardConfig, BoardHome, BoardLimits};
use crate::net::client::api::{api_create, api_join};
use crate::net::client::headless::HeadlessClient;
use crate::net::client::headless_inputs::InputMode;
use crate::net::server::web::board::BoardDoor;
use crate::net::server::web::{WebConfig, WebLimits};
use crate::net::server::worlds::{HostConfig, ServerHandle, spawn_server};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How long one exchange waits for the server's answer before moving on (a refused input
/// may get no answer at all; the relay closes a silent socket itself).
pub const ANSWER_WAIT: Duration = Duration::from_millis(100);
/// Bounded wait for the after-run checks: generous, since the machine may be shared.
const PATIENCE: Duration = Duration::from_secs(40);

/// The server under fuzzing.
pub struct LiveServer {
    handle: Option<ServerHandle>,
    pub web: SocketAddr,
    pub udp: SocketAddr,
    dir: PathBuf,
}

impl LiveServer {
    pub fn start(name: &str) -> Result<LiveServer, String> {
        let dir = std::env::temp_dir().join(format!("uc-fuzz-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let handle = spawn_server(HostConfig {
            // Fuzzed `POST /api/rooms` really create rooms: room enough, and reclaimed within a
            // second, so the after-run probe finds a free one as a player would.
            max_rooms: 256,
            empty_timeout: Duration::from_secs(1),
            // Every fuzzed request comes from 127.0.0.1: the per-address room quotas would
            // answer 429 before the API's parser saw most bodies (and refuse the after-run
            // probe). They are tested on their own in tests/hostile/web.rs.
            web: WebConfig {
                limits: WebLimits { rooms_per_address: 0, room_burst: 0, ..Default::default() },
                board: Some(BoardDoor::new(Board::open(&BoardConfig {
                    home: BoardHome::Sqlite(dir.join("board.sqlite")),
                    levels: "levels".into(),
                    daily: DailyWindow::Off,
                    // As the room quotas: every fuzzed submission reaches the board's reader.
                    limits: BoardLimits { per_minute: 0, ..Default::default() },
                })?)),
                ..Default::default()
            },
            ..HostConfig::loopback(dir.clone())
        })?;
        let (web, udp) = (handle.addrs.web, handle.addrs.udp);
        Ok(LiveServer { handle: Some(handle), web, udp, dir })
    }

    /// Send `bytes` on a fresh connection, close our half, and read what comes back (up to
    /// [`ANSWER_WAIT`] of silence). The first answer line, or what went wrong.
    pub fn exchange(&self, bytes: &[u8]) -> String {
        self.exchange_waiting(bytes, ANSWER_WAIT)
    }

    /// [`LiveServer::exchange`] with its own patience for the answer.
    fn exchange_waiting(&self, bytes: &[u8], wait: Duration) -> String {
        let Ok(mut s) = TcpStream::connect_timeout(&self.web, PATIENCE) else {
            return "connect refused".into();
        };
        let _ = s.set_read_timeout(Some(wait));
        let _ = s.set_write_timeout(Some(wait));
        if s.write_all(bytes).is_err() {
            return "write cut off".into();
        }
        let _ = s.shutdown(std::net::Shutdown::Write);
        status_line(&mut s)
    }

    /// `GET /api/health` answers 200 (within [`PATIENCE`]: a loaded debug build is slow).
    pub fn healthy(&self) -> Result<(), String> {
        let end = Instant::now() + PATIENCE;
        loop {
            let answer = self.exchange_waiting(
                b"GET /api/health HTTP/1.1\r\nHost: fuzz\r\nConnection: close\r\n\r\n",
                Duration::from_secs(2),
            );
            if answer == "HTTP 200" {
                return Ok(());
            }
            if Instant::now() > end {
                return Err(format!("/api/health answered `{answer}`"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A client can still create a room, connect to it over netcode, and a second can join.
    pub fn plays(&self) -> Result<(), String> {
        let web = self.web.to_string();
        let reply = api_create(&web, "Probe", None)?;
        let mut client = HeadlessClient::connect(&reply, InputMode::Idle)?;
        let end = Instant::now() + PATIENCE;
        while !client.connected() {
            if Instant::now() > end {
                return Err("a new client did not connect".into());
            }
            client.step();
            std::thread::sleep(Duration::from_millis(5));
        }
        api_join(&web, &reply.code, "Probe 2", None).map(|_| ()).map_err(String::from)
    }
}

impl Drop for LiveServer {
    fn drop(&mut self) {
        if let Some(h) = self.handle.take() {
            h.stop();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The first line of an answer's head (read to its blank line), as text.
pub fn status_line(s: &mut TcpStream) -> String {
    let mut buf = [0u8; 512];
    let mut got = Vec::new();
    while got.len() < buf.len() {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
        if got.windows(4).any(|w| w == b"\r\n\r\n") {
            break;
        }
    }
    if got.is_empty() {
        return "no answer".into();
    }
    let text = String::from_utf8_lossy(&got);
    let line = text.lines().next().unwrap_or_default();
    // "HTTP/1.1 404 Not Found" → "HTTP 404"; anything else is named by its first byte.
    match line.split_whitespace().nth(1) {
        Some(code) if line.starts_with("HTTP/") => format!("HTTP {code}"),
        _ => format!("non-HTTP answer (first byte {:#04x})", got[0]),
    }
}
