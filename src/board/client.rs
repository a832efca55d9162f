//! Talking to a board over HTTP (minreq, blocking: callers run it on their own thread): a
//! bundle posted and its verdict followed through a queued ticket, a level's listing, an
//! entry's bundle. Shared by `undercooked board` (`cli.rs`) and the window (the round end's
//! submit and the results board screen).

use std::time::{Duration, Instant};

/// How long a queued submission's ticket is followed.
pub const FOLLOW: Duration = Duration::from_secs(120);
/// Each request's own timeout, in seconds.
const REQUEST_SECS: u64 = 30;

/// What a board said to a submission.
#[derive(Clone, Debug, PartialEq)]
pub enum Submitted {
    /// Entered: the board's answer (`rank`, `kept`, `entry`).
    Entered(serde_json::Value),
    /// Refused by name: `NAME: detail` (or the status and body of an answer not the board's).
    Refused(String),
    /// Still queued after [`FOLLOW`]: its ticket.
    Queued(u64),
    /// The host was not reached (or stopped answering).
    Unreachable(String),
}

/// Why a read of the board gave nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadFailed {
    /// The board answered with a refusal: `NAME: detail`.
    Refused(String),
    /// The host was not reached, or its answer was not the board's JSON.
    Unreachable(String),
}

impl std::fmt::Display for ReadFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadFailed::Refused(s) => write!(f, "refused: {s}"),
            ReadFailed::Unreachable(s) => write!(f, "{s}"),
        }
    }
}

/// `board` + `path`, one slash between.
pub fn url(board: &str, path: &str) -> String {
    format!("{}{path}", board.trim_end_matches('/'))
}

/// A GET's status and body; `Err` the host not reached.
pub fn get(board: &str, path: &str) -> Result<(i32, Vec<u8>), String> {
    let r = minreq::get(url(board, path))
        .with_timeout(REQUEST_SECS)
        .send()
        .map_err(|e| format!("{board}: {e}"))?;
    Ok((r.status_code, r.into_bytes()))
}

/// A refusal's `NAME: detail`, or the status and body when it is not one of ours.
pub fn refusal(status: i32, body: &[u8]) -> String {
    let v: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
    match (v["error"].as_str(), v["detail"].as_str()) {
        (Some(e), Some(d)) => format!("{e}: {d}"),
        _ => format!("HTTP {status}: {}", String::from_utf8_lossy(&body[..body.len().min(200)])),
    }
}

/// Posts a bundle's bytes and follows a queued verdict (`queued` hears each ticket).
pub fn submit_bundle(board: &str, bytes: Vec<u8>, mut queued: impl FnMut(u64)) -> Submitted {
    let sent = minreq::post(url(board, "/api/board"))
        .with_header("Content-Type", "application/ron")
        .with_body(bytes)
        .with_timeout(REQUEST_SECS)
        .send();
    let (mut status, mut body) = match sent {
        Ok(r) => (r.status_code, r.into_bytes()),
        Err(e) => return Submitted::Unreachable(format!("{board}: {e}")),
    };
    let start = Instant::now();
    let mut last_ticket = 0;
    while status == 202 && start.elapsed() < FOLLOW {
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        let Some(ticket) = v["ticket"].as_u64() else { break };
        last_ticket = ticket;
        queued(ticket);
        std::thread::sleep(Duration::from_secs(1));
        match get(board, &format!("/api/board/ticket/{ticket}")) {
            Ok(a) => (status, body) = a,
            Err(e) => return Submitted::Unreachable(e),
        }
    }
    match status {
        200 => Submitted::Entered(serde_json::from_slice(&body).unwrap_or_default()),
        202 => Submitted::Queued(last_ticket),
        _ => Submitted::Refused(refusal(status, &body)),
    }
}

/// A GET that must answer 200: its body.
fn get_ok(board: &str, path: &str) -> Result<Vec<u8>, ReadFailed> {
    let (status, body) = get(board, path).map_err(ReadFailed::Unreachable)?;
    if status != 200 {
        return Err(ReadFailed::Refused(refusal(status, &body)));
    }
    Ok(body)
}

/// A level's listing (`GET /api/board?level=&team=&limit=`) as JSON.
pub fn list_entries(
    board: &str,
    level: &str,
    team: u8,
    limit: usize,
) -> Result<serde_json::Value, ReadFailed> {
    let body = get_ok(board, &format!("/api/board?level={level}&team={team}&limit={limit}"))?;
    serde_json::from_slice(&body)
        .map_err(|e| ReadFailed::Unreachable(format!("{board}: the listing is not JSON: {e}")))
}

/// An entry's bundle bytes.
pub fn fetch_bundle(board: &str, id: u64) -> Result<Vec<u8>, ReadFailed> {
    get_ok(board, &format!("/api/board/bundle/{id}"))
}

/// What the board ranks (`GET /api/board/levels`): each level's id and whether it is a daily
/// kitchen, the dailies first (the board's own order).
pub fn list_levels(board: &str) -> Result<Vec<(String, bool)>, ReadFailed> {
    let body = get_ok(board, "/api/board/levels")?;
    let v: serde_json::Value = serde_json::from_slice(&body)
        .map_err(|e| ReadFailed::Unreachable(format!("{board}: the levels are not JSON: {e}")))?;
    let Some(levels) = v["levels"].as_array() else {
        return Err(ReadFailed::Unreachable(format!("{board}: no `levels` in its answer: {v}")));
    };
    levels
        .iter()
        .map(|l| match (l["id"].as_str(), l["daily"].as_bool()) {
            (Some(id), Some(daily)) => Ok((id.to_string(), daily)),
            _ => Err(ReadFailed::Unreachable(format!("{board}: a level without id/daily: {l}"))),
        })
        .collect()
}
