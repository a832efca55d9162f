//! One request on the web port, routed: the health probes, `/metrics`, the JSON API (Origin,
//! Content-Type, size and deadline checks, then a typed body to the router), the WebSocket
//! relay on `/ws`, and static files for every other GET.

use super::answer::{NamedError, json_response};
use super::api::{ApiBody, ApiError, CreateBody, JoinBody, Refusal, parse};
use super::body::{WebBody, full};
use super::config::WebConfig;
use super::conns::ConnSlot;
use super::counters::WebCounters;
use super::file_response;
use super::origin::Origins;
use super::relay::{RelayPlan, upgrade};
use super::relay_slots::RelayTable;
use super::router::Router;
use crate::net::client::ws::WS_PATH;
use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use hyper::header::{CONTENT_LENGTH, CONTENT_TYPE, HeaderValue, ORIGIN};
use hyper::{Method, Request, Response};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::{Arc, RwLock};
use std::time::Duration;

/// How long `/readyz` waits for every shard world.
pub const READY_WAIT: Duration = Duration::from_secs(2);

/// What every request on the web port shares.
pub struct Shared {
    pub cfg: WebConfig,
    pub router: Router,
    pub origins: Origins,
    pub counters: Arc<WebCounters>,
    /// The netcode servers relays lead to (set once the worlds bound them).
    pub udp: Arc<RwLock<Vec<SocketAddr>>>,
    /// The relays' places, in all and per address.
    pub relays: Arc<RelayTable>,
}

fn refusal(r: &Refusal, counters: &WebCounters) -> Response<WebBody> {
    let counter = match r.error {
        ApiError::BodyTooLarge => Some(&counters.body_too_large),
        ApiError::BodyTimeout => Some(&counters.body_timeouts),
        ApiError::UnsupportedMediaType => Some(&counters.unsupported_media),
        ApiError::OriginRefused => Some(&counters.origin_refused),
        ApiError::MalformedJson
        | ApiError::UnknownField
        | ApiError::WrongType
        | ApiError::OutOfRange
        | ApiError::BadReconnect => Some(&counters.bad_requests),
        _ => None,
    };
    if let Some(c) = counter {
        WebCounters::bump(c);
    }
    // Whatever of the body is still unread would be read as the next request.
    let close = matches!(
        r.error,
        ApiError::BodyTooLarge | ApiError::BodyTimeout | ApiError::UnsupportedMediaType
    );
    json_response(r.answer(), close)
}

/// Answers one request (never fails: every refusal is a response).
pub async fn handle(
    req: Request<Incoming>,
    shared: Arc<Shared>,
    peer: SocketAddr,
    conn: Arc<ConnSlot>,
) -> Result<Response<WebBody>, std::convert::Infallible> {
    let path = req.uri().path().to_string();
    let origin_ok = shared.origins.allows(req.headers().get(ORIGIN).and_then(|v| v.to_str().ok()))
        && req.headers().get_all(ORIGIN).iter().count() <= 1;
    let method = req.method().clone();
    let answer = match (&method, path.as_str()) {
        (&Method::GET, "/healthz") => json_response((200, json!({"status": "ok"})), false),
        (&Method::GET, "/readyz") => {
            let (answered, shards) =
                (shared.router.ready(READY_WAIT).await, shared.router.shards());
            let draining = shared.cfg.draining.is_on();
            let status = if answered == shards && !draining { 200 } else { 503 };
            // A draining server answers but takes nothing new: not ready, by its own name.
            let word = match (status, draining) {
                (200, _) => "ready",
                (_, true) => "draining",
                _ => "not_ready",
            };
            json_response(
                (status, json!({"status": word, "shards": shards, "answered": answered})),
                false,
            )
        }
        (&Method::GET, "/metrics") => match shared.router.metrics().await {
            Ok(world) => {
                // The world's registry ends the exposition with `# EOF`: the web port's own
                // series go before it, so the whole is one OpenMetrics document.
                let body = world.trim_end().strip_suffix("# EOF").unwrap_or(&world);
                let draining = u8::from(shared.cfg.draining.is_on());
                let board = shared.cfg.board.as_ref().map(|d| d.board.counters().prometheus());
                let text = format!(
                    "{body}{}{}# HELP undercooked_draining 1 while the server drains \
                     (--drain-seconds).\n# TYPE undercooked_draining gauge\n\
                     undercooked_draining {draining}\n# EOF\n",
                    shared.counters.prometheus(),
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
            Err(answer) => json_response(answer, false),
        },
        (&Method::GET, super::board_page::BOARD_PAGE_PATH) => {
            super::board_page::board_page(shared.cfg.board.as_ref()).await
        }
        // The board is public to every origin (its own CORS headers, `board::with_cors`): it
        // goes before the Origin check that guards rooms and relays.
        (_, p) if super::board::is_board_path(p) => {
            super::board::serve(req, shared.cfg.board.as_ref(), peer, shared.cfg.limits.body).await
        }
        _ if (path == WS_PATH || path.starts_with("/api/")) && !origin_ok => refusal(
            &Refusal::new(ApiError::OriginRefused, "this Origin may not use this server"),
            &shared.counters,
        ),
        (&Method::GET, p) if p == WS_PATH => {
            let targets = shared.udp.read().map(|t| t.clone()).unwrap_or_default();
            let plan = RelayPlan {
                targets,
                relays: shared.relays.clone(),
                session: shared.cfg.relay_session,
                idle: shared.cfg.idle,
                counters: shared.counters.clone(),
                peer,
                conn,
            };
            upgrade(req, plan)
        }
        (_, p) if p.starts_with("/api/") => match api(req, &shared, peer).await {
            Ok(answer) => json_response(answer, false),
            Err(r) => refusal(&r, &shared.counters),
        },
        (&Method::GET | &Method::HEAD, p) => {
            file_response::respond(&shared.cfg.root, p, &method, req.headers()).await
        }
        _ => json_response(ApiError::MethodNotAllowed.answer("GET only here"), false),
    };
    Ok(answer)
}

/// Reads a POST's body: JSON only, at most `max_body` bytes, whole within the body deadline.
async fn read_body(req: Request<Incoming>, shared: &Shared) -> Result<Vec<u8>, Refusal> {
    read_json(req, shared.cfg.limits.max_body, shared.cfg.limits.body).await
}

/// Reads a request's body: JSON only, at most `max` bytes, whole within `wait` of the head
/// (also the directory's, `crate::directory::service`).
pub async fn read_json(
    req: Request<Incoming>,
    max: usize,
    wait: Duration,
) -> Result<Vec<u8>, Refusal> {
    let json = req.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| {
        v.split(';').next().is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
    });
    if !json {
        return Err(Refusal::new(
            ApiError::UnsupportedMediaType,
            "POST bodies are JSON: send Content-Type: application/json",
        ));
    }
    let too_large = || Refusal::new(ApiError::BodyTooLarge, format!("at most {max} bytes"));
    let declared =
        req.headers().get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|n| n > max as u64) {
        return Err(too_large());
    }
    let read = Limited::new(req.into_body(), max).collect();
    match tokio::time::timeout(wait, read).await {
        Err(_) => Err(Refusal::new(
            ApiError::BodyTimeout,
            format!("the body must arrive within {wait:?}"),
        )),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => Err(too_large()),
        Ok(Err(e)) => Err(Refusal::new(ApiError::MalformedJson, format!("body: {e}"))),
        Ok(Ok(body)) => Ok(body.to_bytes().to_vec()),
    }
}

/// A draining server takes no new room and no new player.
fn refuse_if_draining(shared: &Shared) -> Result<(), Refusal> {
    match shared.cfg.draining.is_on() {
        true => Err(Refusal::new(
            ApiError::Draining,
            "this server is draining: its rounds finish, nothing new starts here",
        )),
        false => Ok(()),
    }
}

/// The JSON API's routes.
async fn api(
    req: Request<Incoming>,
    shared: &Shared,
    peer: SocketAddr,
) -> Result<(u16, Value), Refusal> {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    let router = &shared.router;
    Ok(match (&method, parts.as_slice()) {
        (&Method::GET, ["api", "health"]) => router.health().await,
        // The page's Play online asks where this server's directory is (`?directory=`
        // overrides it): the one it announces to.
        (&Method::GET, ["api", "directory"]) => match &shared.cfg.announce {
            Some(a) => (200, json!({"directory": a.directory})),
            None => ApiError::NoDirectory.answer("this server announces to no directory"),
        },
        (&Method::POST, ["api", "rooms"]) => {
            let body: CreateBody = parse(&read_body(req, shared).await?)?;
            body.check()?;
            refuse_if_draining(shared)?;
            router.create(body, peer.ip()).await
        }
        (&Method::POST, ["api", "rooms", code, "join"]) => {
            let body: JoinBody = parse(&read_body(req, shared).await?)?;
            body.check()?;
            // A seat's own reconnect still works: its player is in a round that may finish.
            if body.reconnect.is_none() {
                refuse_if_draining(shared)?;
            }
            router.room("POST", &path, code, ApiBody::Join(body), peer.ip()).await
        }
        (&Method::GET, ["api", "rooms", code]) => {
            router.room("GET", &path, code, ApiBody::Empty, peer.ip()).await
        }
        (
            _,
            ["api", "health"]
            | ["api", "directory"]
            | ["api", "rooms"]
            | ["api", "rooms", _]
            | ["api", "rooms", _, "join"],
        ) => ApiError::MethodNotAllowed.answer(format!("{method} is not served at {path}")),
        _ => ApiError::UnknownEndpoint.answer(format!("no endpoint at {path}")),
    })
}
