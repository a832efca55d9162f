//! The directory's health request to the address a server claims: a server is listed only if
//! its web port answers `GET /api/health` there with 200 and its netcode addresses (`udp`),
//! which is what a game server's web port answers and a mere HTTP server (this directory
//! included) does not, so nobody lists an address that does not answer as a game server.

use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// How long connecting and the whole answer may take.
pub const PROBE_WAIT: Duration = Duration::from_secs(3);
/// The most of the answer read (the health answer is a few hundred bytes).
const PROBE_READ: usize = 4096;

/// Why a probe failed (the detail of the `unreachable` refusal).
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    #[error("no answer from {0} within {PROBE_WAIT:?}")]
    Timeout(SocketAddr),
    #[error("{0}: {1}")]
    Io(SocketAddr, std::io::Error),
    #[error("{0} answered, but not as a game server ({1})")]
    NotHealthy(SocketAddr, String),
}

/// Asks `addr` for its health; Ok when it answered healthy.
pub async fn probe(addr: SocketAddr) -> Result<(), ProbeError> {
    match tokio::time::timeout(PROBE_WAIT, ask(addr)).await {
        Err(_) => Err(ProbeError::Timeout(addr)),
        Ok(r) => r,
    }
}

async fn ask(addr: SocketAddr) -> Result<(), ProbeError> {
    let io = |e| ProbeError::Io(addr, e);
    let mut s = TcpStream::connect(addr).await.map_err(io)?;
    let request = format!(
        "GET /api/health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nUser-Agent: undercooked-directory\r\n\r\n"
    );
    s.write_all(request.as_bytes()).await.map_err(io)?;
    let mut answer = Vec::new();
    s.take(PROBE_READ as u64).read_to_end(&mut answer).await.map_err(io)?;
    let text = String::from_utf8_lossy(&answer);
    let status_ok = text.lines().next().is_some_and(|l| l.starts_with("HTTP/1.1 200"));
    let body = text.split("\r\n\r\n").nth(1).unwrap_or("");
    let healthy = serde_json::from_str::<serde_json::Value>(body.trim())
        .is_ok_and(|v| v["udp"].as_array().is_some_and(|u| !u.is_empty()));
    if status_ok && healthy {
        Ok(())
    } else {
        let first = text.lines().next().unwrap_or("nothing").chars().take(80).collect();
        Err(ProbeError::NotHealthy(addr, first))
    }
}
