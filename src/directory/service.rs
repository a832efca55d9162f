//! One request on the directory's port: the probes, `/metrics`, and the API: announce, the
//! server list, quick match's candidates, a room code's lookup, the results board (`--board`), and the join link that carries
//! the directory (`/join/CODE`, a redirect to the room's server). Every refusal is a [`DirError`] answered as JSON; no
//! request can make the process panic (bodies are size- and time-limited, then typed), and
//! announces and lookups are held to each address's rates ([`super::limits`]) before any body
//! is read or the store asked.

use super::admit::{Admission, blocking};
use super::check;
use super::error::{DirError, DirRefusal};
use super::limits::{DirLimit, DirLimiter};
use super::metrics::DirCounters;
use crate::net::server::web::WebCounters;
use crate::net::server::web::answer::json_response;
use crate::net::server::web::api::parse;
use crate::net::server::web::board::{BoardDoor, is_board_path, serve as serve_board};
use crate::net::server::web::board_page::{BOARD_PAGE_PATH, board_page};
use crate::net::server::web::body::{WebBody, full};
use crate::net::server::web::service::read_json;
use crate::net::wire::directory::{
    ANNOUNCE_PATH, Announce, JOIN_PATH, MAX_ANNOUNCE_BYTES, QUICK_PATH, ROOMS_PATH, Resolved,
    SERVERS_PATH, ServerList,
};
use crate::net::wire::tokens::parse_code;
use crate::sim::units::MAX_COOKS;
use hyper::body::Incoming;
use hyper::header::{ACCESS_CONTROL_ALLOW_ORIGIN, CONTENT_TYPE, HOST, HeaderValue, LOCATION};
use hyper::{Method, Request, Response};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Quick match's candidates at most: a client measures each, and must not be sent to flood a
/// whole fleet (the native client measures at most `quick_pick::MAX_MEASURED`, the same).
const MAX_QUICK_CANDIDATES: usize = 32;

/// `players=N` of a quick match's query (1 if absent), or `out_of_range` by name.
fn quick_players(query: Option<&str>) -> Result<u8, DirRefusal> {
    let Some(value) = query.unwrap_or("").split('&').find_map(|kv| kv.strip_prefix("players="))
    else {
        return Ok(1);
    };
    value.parse::<u8>().ok().filter(|n| (1..=MAX_COOKS as u8).contains(n)).ok_or_else(|| {
        DirRefusal::new(DirError::OutOfRange, format!("players: 1 to {MAX_COOKS}, not {value:.8}"))
    })
}

/// What every request shares.
pub struct DirShared {
    pub admission: Admission,
    pub counters: DirCounters,
    /// What each address may ask per minute.
    pub limiter: DirLimiter,
    pub web: Arc<WebCounters>,
    /// An announce's body must arrive whole within this long of its head.
    pub body_wait: Duration,
    /// `--board`: the results board served under `/api/board` (`crate::board`).
    pub board: Option<Arc<BoardDoor>>,
}

/// Answers one request (never fails: every refusal is a response).
pub async fn handle(
    req: Request<Incoming>,
    shared: Arc<DirShared>,
    peer: SocketAddr,
) -> Result<Response<WebBody>, std::convert::Infallible> {
    let path = req.uri().path().to_string();
    let method = req.method().clone();
    // A join link's code: `/join/CODE`.
    let join_code =
        path.strip_prefix(JOIN_PATH).and_then(|r| r.strip_prefix('/')).map(str::to_string);
    let answer = match (&method, path.as_str()) {
        (&Method::GET, "/healthz") => json_response((200, json!({"status": "ok"})), false),
        (&Method::GET, "/readyz") => match blocking(&shared.admission.store, |s| s.ping()).await {
            Ok(()) => json_response((200, json!({"status": "ready"})), false),
            Err(r) => json_response(r.answer(), false),
        },
        (&Method::GET, "/metrics") => {
            let listed = blocking(&shared.admission.store, |s| s.list()).await.ok().map(|all| {
                (all.len() as u64, all.iter().map(|r| r.rooms.len() as u64).sum::<u64>())
            });
            let board = shared.board.as_ref().map(|d| d.board.counters().prometheus());
            let text = format!(
                "{}{}{}# EOF\n",
                shared.counters.prometheus(listed),
                shared.web.prometheus(),
                board.unwrap_or_default()
            );
            let mut r = Response::new(full(text));
            r.headers_mut().insert(
                CONTENT_TYPE,
                HeaderValue::from_static(
                    "application/openmetrics-text; version=1.0.0; charset=utf-8",
                ),
            );
            r
        }
        (&Method::GET, BOARD_PAGE_PATH) => board_page(shared.board.as_ref()).await,
        // The board's answers carry its own CORS headers (any origin: it is public).
        (_, p) if is_board_path(p) => {
            serve_board(req, shared.board.as_ref(), peer, shared.body_wait).await
        }
        (&Method::GET, _) if join_code.is_some() => {
            let code = join_code.as_deref().unwrap_or_default();
            match join_link(&req, &shared, peer, code).await {
                Ok(r) => r,
                Err(r) => {
                    shared.counters.refuse(r.error, 1);
                    json_response(r.answer(), false)
                }
            }
        }
        _ => match api(req, &shared, peer).await {
            Ok(answer) => {
                let mut r = json_response(answer, false);
                // What the directory tells anyone (the server list, a code's server, quick
                // match's candidates) is public and asks for no credentials: a browser page
                // served by any game server may read it (`?directory=` on the page).
                if method == Method::GET {
                    r.headers_mut()
                        .insert(ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
                }
                r
            }
            Err(r) => {
                shared.counters.refuse(r.error, 1);
                // Whatever of a refused body is still unread would be read as the next request.
                let close = matches!(
                    r.error,
                    DirError::BodyTooLarge | DirError::BodyTimeout | DirError::UnsupportedMediaType
                );
                json_response(r.answer(), close)
            }
        },
    };
    Ok(answer)
}

/// Where room `code` is, held to the address's lookup rates (a miss also spends one of its
/// unknown-code lookups): `GET /api/rooms/CODE` and the join link `GET /join/CODE`.
async fn lookup(shared: &DirShared, peer: SocketAddr, code: &str) -> Result<Resolved, DirRefusal> {
    let (limiter, ip) = (&shared.limiter, peer.ip());
    limiter.check(DirLimit::UnknownLookups, ip, Instant::now())?;
    limiter.take(DirLimit::Lookups, ip, Instant::now())?;
    let unknown = |why: &str| {
        DirCounters::bump(&shared.counters.lookups_unknown);
        limiter.spend(DirLimit::UnknownLookups, ip, Instant::now());
        DirRefusal::new(DirError::NoSuchRoom, why)
    };
    let Some(code) = parse_code(code) else { return Err(unknown("not a room code")) };
    let wanted = code.clone();
    let store = &shared.admission.store;
    let Some(rec) = blocking(store, move |s| s.resolve(&wanted)).await? else {
        return Err(unknown("no live server holds that code"));
    };
    if rec.draining {
        return Err(DirRefusal::new(
            DirError::Draining,
            "the server holding that code is draining: it takes no new players",
        ));
    }
    DirCounters::bump(&shared.counters.lookups);
    let room = rec.rooms.iter().find(|r| r.code == code).cloned();
    let room = room.ok_or_else(|| DirRefusal::new(DirError::NoSuchRoom, "gone"))?;
    Ok(Resolved { code, address: rec.address, server: rec.name, protocol: rec.protocol, room })
}

/// A join link that carries the directory (`GET /join/CODE`): a redirect (302) to the page of
/// the server that holds the room, which joins it on load and keeps this directory for Play
/// online (`&directory=`, this directory as the link reached it: the request's `Host`).
async fn join_link(
    req: &Request<Incoming>,
    shared: &DirShared,
    peer: SocketAddr,
    code: &str,
) -> Result<Response<WebBody>, DirRefusal> {
    let found = lookup(shared, peer, code).await?;
    let host = req.headers().get(HOST).and_then(|h| h.to_str().ok()).filter(|h| {
        // Only a plain HOST[:PORT] goes back into a URL.
        !h.is_empty() && h.chars().all(|c| c.is_ascii_alphanumeric() || ".:-[]".contains(c))
    });
    let directory = host.map(|h| format!("&directory=http://{h}")).unwrap_or_default();
    let location = format!("http://{}/?room={}{directory}", found.address, found.code);
    let body = json!({"code": found.code, "address": found.address, "location": location});
    let mut r = json_response((302, body), false);
    if let Ok(v) = HeaderValue::from_str(&location) {
        r.headers_mut().insert(LOCATION, v);
    }
    Ok(r)
}

/// The API's routes.
async fn api(
    req: Request<Incoming>,
    shared: &DirShared,
    peer: SocketAddr,
) -> Result<(u16, Value), DirRefusal> {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let store = &shared.admission.store;
    let rooms = path.strip_prefix(ROOMS_PATH).and_then(|p| p.strip_prefix('/'));
    match (&method, path.as_str(), rooms) {
        (&Method::POST, ANNOUNCE_PATH, _) => {
            shared.limiter.take(DirLimit::Announces, peer.ip(), Instant::now())?;
            let bytes = read_json(req, MAX_ANNOUNCE_BYTES, shared.body_wait).await?;
            let body: Announce = parse(&bytes)?;
            let addr = check::announce(&body)?;
            let created = body.id.is_none();
            let answer = shared.admission.announce(body, addr, peer.ip()).await?;
            DirCounters::bump(&shared.counters.announces);
            if created {
                DirCounters::bump(&shared.counters.registered);
            }
            if !answer.refused.is_empty() {
                shared.counters.refuse(DirError::CodeTaken, answer.refused.len() as u64);
            }
            Ok((200, serde_json::to_value(answer).unwrap_or(Value::Null)))
        }
        (&Method::GET, SERVERS_PATH, _) => {
            shared.limiter.take(DirLimit::Lookups, peer.ip(), Instant::now())?;
            let all = blocking(store, |s| s.list()).await?;
            // A draining server takes no one new: it is not offered.
            let offered = all.iter().filter(|r| !r.draining);
            let list = ServerList { servers: offered.map(|r| r.entry()).collect() };
            Ok((200, serde_json::to_value(list).unwrap_or(Value::Null)))
        }
        (&Method::GET, QUICK_PATH, _) => {
            shared.limiter.take(DirLimit::QuickMatches, peer.ip(), Instant::now())?;
            let players = quick_players(req.uri().query())?;
            let all = blocking(store, |s| s.list()).await?;
            let servers: Vec<_> = all
                .iter()
                .filter(|r| !r.draining)
                .map(|r| r.entry())
                .filter(|e| e.could_seat(players))
                .take(MAX_QUICK_CANDIDATES)
                .collect();
            DirCounters::bump(&shared.counters.quick_matches);
            Ok((200, serde_json::to_value(ServerList { servers }).unwrap_or(Value::Null)))
        }
        (&Method::GET, _, Some(code)) => {
            let out = lookup(shared, peer, code).await?;
            Ok((200, serde_json::to_value(out).unwrap_or(Value::Null)))
        }
        (_, ANNOUNCE_PATH | SERVERS_PATH | QUICK_PATH, _) | (_, _, Some(_)) => {
            Err(DirRefusal::new(
                DirError::MethodNotAllowed,
                format!("{method} is not served at {path}"),
            ))
        }
        _ => Err(DirRefusal::new(DirError::UnknownEndpoint, format!("no endpoint at {path}"))),
    }
}
