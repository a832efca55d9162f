//! The results board on a web port (the game server's with `--board`, and the directory's):
//! `POST /api/board` (a bundle: its address's rate and the size limit first, then the
//! verification queue; 200 entered with its rank, 202 with a ticket when the verdict takes
//! longer than the board's wait, a named refusal otherwise), `GET /api/board?level=&team=`
//! (the best rounds), `GET /api/board/bundle/ID` (an entry's bundle) and `GET
//! /api/board/ticket/N` (a submission's verdict), `GET /api/board/levels` (what it ranks).
//! Every answer carries CORS headers for any origin, and `OPTIONS` is answered as a preflight:
//! the board is public and asks for no credentials, so a page from anywhere may list, fetch
//! and submit ([`with_cors`]). The board itself (verification, storage) is
//! `crate::board`; this file is only its HTTP side (docs/NETWORK.md, "The results board").

use super::answer::{NamedError, json_response};
use super::body::{WebBody, full};
use super::buckets::AddressBuckets;
use crate::board::error::{BoardError, BoardRefusal};
use crate::board::queue::TicketState;
use crate::board::running::{Board, MAX_LIST, entered_json};
use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use hyper::header::{
    ACCESS_CONTROL_ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS, ACCESS_CONTROL_ALLOW_ORIGIN,
    ACCESS_CONTROL_EXPOSE_HEADERS, ACCESS_CONTROL_MAX_AGE, CONTENT_DISPOSITION, CONTENT_LENGTH,
    CONTENT_TYPE, HeaderValue,
};
use hyper::{Method, Request, Response};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The board's path; everything under it is the board's.
pub const BOARD_PATH: &str = "/api/board";

impl NamedError for BoardError {
    fn status(self) -> u16 {
        BoardError::status(self)
    }
}

/// A board and its per-address submission rate, as a port serves it.
pub struct BoardDoor {
    pub board: Board,
    rate: Mutex<AddressBuckets>,
}

impl std::fmt::Debug for BoardDoor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoardDoor").field("board", &self.board).finish_non_exhaustive()
    }
}

impl BoardDoor {
    pub fn new(board: Board) -> Arc<Self> {
        let rate = Mutex::new(AddressBuckets::per_minute(board.limits.per_minute));
        Arc::new(BoardDoor { board, rate })
    }
}

/// Whether `path` is the board's.
pub fn is_board_path(path: &str) -> bool {
    path == BOARD_PATH || path.strip_prefix(BOARD_PATH).is_some_and(|r| r.starts_with('/'))
}

fn refused(r: &BoardRefusal, close: bool) -> Response<WebBody> {
    json_response(r.error.answer(r.detail.clone()), close)
}

/// The board's CORS headers on `r`: any origin (no cookie or credential is ever asked for, so
/// `*` lends a page nothing it could not do from its own address), the methods and the one
/// request header a submission sends, and a day's preflight cache.
pub fn with_cors(mut r: Response<WebBody>) -> Response<WebBody> {
    let h = r.headers_mut();
    h.insert(ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    h.insert(ACCESS_CONTROL_ALLOW_METHODS, HeaderValue::from_static("GET, POST, OPTIONS"));
    h.insert(ACCESS_CONTROL_ALLOW_HEADERS, HeaderValue::from_static("Content-Type"));
    h.insert(ACCESS_CONTROL_EXPOSE_HEADERS, HeaderValue::from_static("Content-Disposition"));
    h.insert(ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static("86400"));
    r
}

/// Answers one request under [`BOARD_PATH`], with the board's CORS headers; `door` None: this
/// host runs no board. `body_wait` bounds how long a submission's body may take to arrive.
pub async fn serve(
    req: Request<Incoming>,
    door: Option<&Arc<BoardDoor>>,
    peer: SocketAddr,
    body_wait: Duration,
) -> Response<WebBody> {
    // A preflight is answered whether or not a board runs: what follows answers by name.
    if req.method() == Method::OPTIONS {
        let mut r = Response::new(full(Vec::new()));
        *r.status_mut() = hyper::StatusCode::NO_CONTENT;
        return with_cors(r);
    }
    with_cors(serve_board(req, door, peer, body_wait).await)
}

async fn serve_board(
    req: Request<Incoming>,
    door: Option<&Arc<BoardDoor>>,
    peer: SocketAddr,
    body_wait: Duration,
) -> Response<WebBody> {
    let Some(door) = door else {
        let r = BoardRefusal::new(BoardError::NoBoard, "this host runs no results board");
        return refused(&r, false);
    };
    let path = req.uri().path().to_string();
    let rest: Vec<String> =
        path[BOARD_PATH.len()..].split('/').filter(|s| !s.is_empty()).map(str::to_string).collect();
    let rest: Vec<&str> = rest.iter().map(String::as_str).collect();
    let method = req.method().clone();
    let answer = match (&method, rest.as_slice()) {
        (&Method::POST, []) => return submit(req, door, peer, body_wait).await,
        (&Method::GET, []) => list(req.uri().query().unwrap_or(""), door).await,
        (&Method::GET, ["bundle", id]) => return bundle(id, door).await,
        (&Method::GET, ["ticket", n]) => ticket(n, door),
        (&Method::GET, ["levels"]) => levels(door).await,
        (_, [] | ["bundle", _] | ["ticket", _] | ["levels"]) => Err(BoardRefusal::new(
            BoardError::MethodNotAllowed,
            format!("{method} is not served at {path:.80}"),
        )),
        _ => Err(BoardRefusal::new(
            BoardError::UnknownEndpoint,
            format!("no endpoint at {path:.80}"),
        )),
    };
    match answer {
        Ok(value) => json_response(value, false),
        Err(r) => refused(&r, false),
    }
}

/// Reads a submission's body: at most `max` bytes, whole within `wait`.
async fn read_bundle(
    req: Request<Incoming>,
    max: usize,
    wait: Duration,
) -> Result<Vec<u8>, BoardRefusal> {
    let too_large =
        || BoardRefusal::new(BoardError::TooLarge, format!("a bundle is at most {max} bytes"));
    let declared =
        req.headers().get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|n| n > max as u64) {
        return Err(too_large());
    }
    match tokio::time::timeout(wait, Limited::new(req.into_body(), max).collect()).await {
        Err(_) => Err(BoardRefusal::new(
            BoardError::Truncated,
            format!("the bundle did not arrive whole within {wait:?}"),
        )),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => Err(too_large()),
        Ok(Err(e)) => Err(BoardRefusal::new(BoardError::Truncated, format!("body: {e}"))),
        Ok(Ok(body)) => Ok(body.to_bytes().to_vec()),
    }
}

fn with_ticket((status, mut value): (u16, Value), ticket: u64) -> (u16, Value) {
    value["ticket"] = json!(ticket);
    (status, value)
}

/// `POST /api/board`.
async fn submit(
    req: Request<Incoming>,
    door: &BoardDoor,
    peer: SocketAddr,
    body_wait: Duration,
) -> Response<WebBody> {
    let limits = &door.board.limits;
    let allowed = door.rate.lock().map(|mut b| b.take(peer.ip(), Instant::now())).unwrap_or(false);
    if !allowed {
        let r = BoardRefusal::new(
            BoardError::TooMany,
            format!("at most {} submissions a minute from one address", limits.per_minute),
        );
        // The body is not read: the connection goes, so its rest is not read as a request.
        return refused(&r, true);
    }
    let bytes = match read_bundle(req, limits.max_bytes, body_wait).await {
        Ok(b) => b,
        Err(r) => return refused(&r, true),
    };
    let (ticket, verdict) = match door.board.submit(bytes) {
        Ok(v) => v,
        Err(r) => return refused(&r, false),
    };
    let answer = match tokio::time::timeout(limits.wait, verdict).await {
        Ok(Ok(Ok(entered))) => (200, entered_json(&entered)),
        Ok(Ok(Err(r))) => r.error.answer(r.detail),
        Ok(Err(_)) => BoardError::Busy.answer("the verification worker stopped"),
        Err(_) => (202, json!({"status": "queued"})),
    };
    json_response(with_ticket(answer, ticket), false)
}

/// `level=`, `team=` and `limit=` of a list's query.
fn list_query(query: &str) -> Result<(String, u8, usize), BoardRefusal> {
    let bad = |what: &str| BoardRefusal::new(BoardError::BadQuery, what.to_string());
    let get = |k: &str| query.split('&').find_map(|kv| kv.strip_prefix(k)?.strip_prefix('='));
    let level = get("level")
        .filter(|l| !l.is_empty() && l.len() <= 64)
        .ok_or_else(|| bad("level: a level id or hash"))?;
    if !level.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
        return Err(bad("level: letters, digits, `_` and `-`"));
    }
    let team = match get("team") {
        None => 1,
        Some(t) => t.parse::<u8>().map_err(|_| bad("team: 1 to 4"))?,
    };
    let limit = match get("limit") {
        None => 10,
        Some(n) => n
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=MAX_LIST).contains(n))
            .ok_or_else(|| bad("limit: 1 to 100"))?,
    };
    Ok((level.to_string(), team, limit))
}

/// Runs a store call on the blocking pool.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, BoardRefusal> + Send + 'static,
) -> Result<T, BoardRefusal> {
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or_else(|e| Err(BoardRefusal::new(BoardError::StoreFailed, e.to_string())))
}

/// `GET /api/board?level=L&team=N[&limit=K]`.
async fn list(query: &str, door: &Arc<BoardDoor>) -> Result<(u16, Value), BoardRefusal> {
    let (level, team, limit) = list_query(query)?;
    let d = door.clone();
    let listing = blocking(move || d.board.list(&level, team, limit)).await?;
    Ok((200, serde_json::to_value(listing).unwrap_or_default()))
}

/// `GET /api/board/levels`: `{"levels": [{"id", "hash", "daily"}]}`, the daily kitchens first.
async fn levels(door: &Arc<BoardDoor>) -> Result<(u16, Value), BoardRefusal> {
    let d = door.clone();
    let all = blocking(move || Ok(d.board.levels())).await?;
    let levels: Vec<Value> = all
        .into_iter()
        .map(|(id, hash, daily)| json!({"id": id, "hash": hash, "daily": daily}))
        .collect();
    Ok((200, json!({ "levels": levels })))
}

/// `GET /api/board/bundle/ID`: the bytes as entered.
async fn bundle(id: &str, door: &Arc<BoardDoor>) -> Response<WebBody> {
    let Ok(id) = id.parse::<u64>() else {
        return refused(
            &BoardRefusal::new(BoardError::NoSuchEntry, "an entry id is a number"),
            false,
        );
    };
    let d = door.clone();
    match blocking(move || d.board.bundle(id)).await {
        Ok(bytes) => {
            let mut r = Response::new(full(bytes));
            let h = r.headers_mut();
            h.insert(CONTENT_TYPE, HeaderValue::from_static("application/ron"));
            if let Ok(v) =
                HeaderValue::from_str(&format!("attachment; filename=\"board-{id}.ron\""))
            {
                h.insert(CONTENT_DISPOSITION, v);
            }
            r
        }
        Err(r) => refused(&r, false),
    }
}

/// `GET /api/board/ticket/N`.
fn ticket(n: &str, door: &BoardDoor) -> Result<(u16, Value), BoardRefusal> {
    let n = n
        .parse::<u64>()
        .map_err(|_| BoardRefusal::new(BoardError::NoSuchTicket, "a ticket is a number"))?;
    Ok(match door.board.ticket(n)? {
        TicketState::Queued => (202, json!({"status": "queued", "ticket": n})),
        TicketState::Done(Ok(entered)) => with_ticket((200, entered_json(&entered)), n),
        TicketState::Done(Err(r)) => with_ticket(r.error.answer(r.detail), n),
    })
}
