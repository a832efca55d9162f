//! The directory as a game server and a client call it (minreq, blocking): a heartbeat's
//! `POST /api/announce`, and `GET /api/rooms/CODE` that turns a room code into the address of
//! the server holding it (`join --directory URL --room CODE`), and `GET /api/servers`, the
//! list the window's Play online reads, and `GET /api/quick?players=N`, quick match's candidates.

use crate::net::wire::directory::{
    ANNOUNCE_PATH, Announce, QUICK_PATH, ROOMS_PATH, Resolved, SERVERS_PATH, ServerList,
};
use crate::net::wire::error::NetError;
use serde_json::Value;

/// How long one call to the directory may take.
const DIRECTORY_WAIT_SECS: u64 = 5;

/// `http://HOST:PORT` from what a person typed (`HOST:PORT`, or a URL with a trailing `/`).
pub fn base_url(text: &str) -> String {
    let t = text.trim().trim_end_matches('/');
    if t.starts_with("http://") || t.starts_with("https://") {
        t.to_string()
    } else {
        format!("http://{t}")
    }
}

/// The directory's refusal as a [`NetError::Http`] naming its error.
fn refused(status: i32, v: &Value) -> NetError {
    let name = v["error"].as_str().unwrap_or("unknown");
    let detail = v["detail"].as_str().unwrap_or("");
    NetError::Http { status, message: format!("{name}: {detail}") }
}

/// One heartbeat: the directory's answer (status and JSON), or why it was not reached.
pub fn post_announce(directory: &str, body: &Announce) -> Result<(i32, Value), NetError> {
    let url = format!("{}{ANNOUNCE_PATH}", base_url(directory));
    let text = serde_json::to_string(body).map_err(|e| NetError::Thread(e.to_string()))?;
    let resp = minreq::post(&url)
        .with_header("Content-Type", "application/json")
        .with_body(text)
        .with_timeout(DIRECTORY_WAIT_SECS)
        .send()
        .map_err(|e| NetError::Unreachable { addr: url.clone(), reason: e.to_string() })?;
    let value = serde_json::from_str(resp.as_str().unwrap_or("")).unwrap_or(Value::Null);
    Ok((resp.status_code, value))
}

/// GET `url` from the directory and read its JSON as `T`, or the directory's named refusal
/// (`what` names the answer in the error when it is not the shape asked for).
fn get_json<T: serde::de::DeserializeOwned>(
    url: String,
    what: &'static str,
) -> Result<T, NetError> {
    let resp = minreq::get(&url)
        .with_timeout(DIRECTORY_WAIT_SECS)
        .send()
        .map_err(|e| NetError::Unreachable { addr: url.clone(), reason: e.to_string() })?;
    let value: Value = serde_json::from_str(resp.as_str().unwrap_or("")).unwrap_or(Value::Null);
    if resp.status_code != 200 {
        return Err(refused(resp.status_code, &value));
    }
    serde_json::from_value(value).map_err(|_| NetError::BadReply(what))
}

/// Where room `code` is: the directory's answer, or its named refusal (`no_such_room`).
pub fn resolve_room(directory: &str, code: &str) -> Result<Resolved, NetError> {
    let code = code.trim().to_ascii_uppercase();
    get_json(format!("{}{ROOMS_PATH}/{code}", base_url(directory)), "a directory's room answer")
}

/// Where room `code` is, when its server speaks this build's protocol: the directory's answer,
/// its named refusal, or [`NetError::OtherProtocol`] (the window's Join with a code alone).
pub fn find_room(directory: &str, code: &str) -> Result<Resolved, NetError> {
    let found = resolve_room(directory, code)?;
    if found.protocol != crate::net::wire::tokens::PROTOCOL_ID {
        return Err(NetError::OtherProtocol { code: found.code, address: found.address });
    }
    Ok(found)
}

/// Every live server the directory lists, with its public rooms.
pub fn list_servers(directory: &str) -> Result<ServerList, NetError> {
    get_json(format!("{}{SERVERS_PATH}", base_url(directory)), "a directory's server list")
}

/// The servers that could seat `players` now (`GET /api/quick?players=N`): quick match's
/// candidates, trimmed by the directory, which holds each address to its quick-match rate.
pub fn list_quick(directory: &str, players: u8) -> Result<ServerList, NetError> {
    let url = format!("{}{QUICK_PATH}?players={players}", base_url(directory));
    get_json(url, "a directory's quick-match list")
}
