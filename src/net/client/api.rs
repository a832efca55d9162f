//! The web API as a client calls it: create a room or join one for a connect token (minreq),
//! and the join link a room is shared by. Used by the headless client, the load generator, the
//! game window's Host and Join, and the tests.

use crate::net::client::session::{JoinReply, parse_reply, seat_request};
use crate::net::wire::error::NetError;
use bevy::prelude::*;
use serde_json::{Value, json};

fn post(url: &str, body: &Value) -> Result<(i32, Value), NetError> {
    let resp = minreq::post(url)
        .with_header("Content-Type", "application/json")
        .with_body(body.to_string())
        .with_timeout(10)
        .send()
        .map_err(|e| NetError::Unreachable { addr: url.to_string(), reason: e.to_string() })?;
    let value = serde_json::from_str(resp.as_str().unwrap_or("")).unwrap_or(Value::Null);
    Ok((resp.status_code, value))
}

/// Asks the web port for `players` seats on one connection (1 for a single player; a window's
/// local players for couch co-op online): in a new room when `code` is `None` (with `level`,
/// if given), otherwise in the room `code`. Shared by the headless client and the windowed
/// online client; the browser asks the same over fetch (`net::client::browser`).
pub fn request_seat(
    web: &str,
    code: Option<&str>,
    name: &str,
    level: Option<&str>,
    players: u8,
) -> Result<JoinReply, NetError> {
    let (path, body) = seat_request(code, name, level, players);
    let (status, v) = post(&format!("http://{web}{path}"), &body)?;
    parse_reply(status, v)
}

/// `POST /api/rooms` for `players` seats in a new room playing `mode` that the server's
/// directory lists for everyone when `public` (quick match's new room, `join --create
/// --public`, the Host screen's Public choice); a private room is reached by its code alone,
/// as [`request_seat`] makes.
pub fn create_room(
    web: &str,
    name: &str,
    level: Option<&str>,
    players: u8,
    public: bool,
    mode: crate::protocol::tandem::GameMode,
) -> Result<JoinReply, NetError> {
    let (path, mut body) = seat_request(None, name, level, players);
    body["public"] = public.into();
    body["mode"] = json!(mode);
    let (status, v) = post(&format!("http://{web}{path}"), &body)?;
    parse_reply(status, v)
}

/// Quick match's `POST /api/rooms {"public": true, "quick": "join_or_create"}`: `players`
/// seats in a public lobby of that server with room, or in a new public room when none has.
/// The server decides under one lock, so quick matches that pick the same server at once meet.
pub fn quick_seat(web: &str, name: &str, players: u8) -> Result<JoinReply, NetError> {
    let (path, mut body) = seat_request(None, name, None, players);
    body["public"] = true.into();
    body["quick"] = "join_or_create".into();
    let (status, v) = post(&format!("http://{web}{path}"), &body)?;
    parse_reply(status, v)
}

/// `http://HOST:PORT/?room=CODE`, the form the web port serves rooms at.
pub fn join_link(web: &str, code: &str) -> String {
    format!("http://{web}/?room={code}")
}

/// A join link (`http://HOST:PORT/?room=CODE`, scheme optional) as (web address, room code).
pub fn parse_join_link(text: &str) -> Option<(String, String)> {
    let text = text.trim();
    let rest =
        text.strip_prefix("http://").or_else(|| text.strip_prefix("https://")).unwrap_or(text);
    let (web, query) = rest.split_once('?')?;
    let web = web.trim_end_matches('/');
    let code = query.split('&').find_map(|kv| kv.strip_prefix("room="))?;
    (!web.is_empty() && !code.is_empty()).then(|| (web.to_string(), code.to_string()))
}

/// `POST /api/rooms`: a new room, with the caller seated in it.
pub fn api_create(web: &str, name: &str, level: Option<&str>) -> Result<JoinReply, NetError> {
    let (status, v) =
        post(&format!("http://{web}/api/rooms"), &json!({"name": name, "level": level}))?;
    parse_reply(status, v)
}

/// [`api_create`] with the rounds' assist mode (docs/NETWORK.md, "Token flow").
pub fn api_create_assisted(
    web: &str,
    name: &str,
    level: Option<&str>,
    assist: crate::sim::assist::Assist,
) -> Result<JoinReply, NetError> {
    let body = json!({"name": name, "level": level, "assist": assist});
    let (status, v) = post(&format!("http://{web}/api/rooms"), &body)?;
    parse_reply(status, v)
}

/// [`api_create`] for a room whose rounds play `mode` (the kitchen or Tandem).
pub fn api_create_mode(
    web: &str,
    name: &str,
    mode: crate::protocol::tandem::GameMode,
) -> Result<JoinReply, NetError> {
    let body = json!({"name": name, "mode": mode});
    let (status, v) = post(&format!("http://{web}/api/rooms"), &body)?;
    parse_reply(status, v)
}

/// `POST /api/rooms/CODE/join`; `reconnect` resumes a held seat.
pub fn api_join(
    web: &str,
    code: &str,
    name: &str,
    reconnect: Option<&str>,
) -> Result<JoinReply, NetError> {
    let mut body = json!({"name": name});
    if let Some(r) = reconnect {
        body["reconnect"] = json!(r);
    }
    let (status, v) = post(&format!("http://{web}/api/rooms/{code}/join"), &body)?;
    parse_reply(status, v)
}
