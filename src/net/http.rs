//! The web port's JSON API: create a room, join one (which issues the netcode connect token),
//! read a room's lobby. tiny_http runs on its own thread and hands each request to the Bevy
//! world through a channel; the world answers within one frame, so room state has one owner.
//!
//! | Method | Path | Body | Answer |
//! |---|---|---|---|
//! | POST | /api/rooms | `{"name"?, "level"?}` | 201 `{code, seat, token, reconnect, udp}` |
//! | POST | /api/rooms/CODE/join | `{"name"?, "reconnect"?}` | 200 same; 404 no room; 409 full |
//! | GET | /api/rooms/CODE | — | 200 the lobby view |
//! | GET | /api/health | — | 200 `{rooms, udp}` |
//! | GET | any other path | — | a static file of `--web-root` (`net::files`) |
//!
//! The public web port is `net::relay`'s front door: it relays WebSocket upgrades on `/ws` and
//! splices every other connection to this server, which listens on loopback only. A sharded
//! host (`--shards N`) runs N server worlds behind the one web port; the router here sends
//! each API call to the right one.

use super::rooms::{HostLevels, HostedRoom, RoomIndex, RoomPolicy, SeatRefusal, create_room};
use super::server::{HostAddrs, ServerKey};
use super::tokens::{Admission, connect_token, hex, parse_code, parse_secret, sanitise_name};
use crate::protocol::LobbyView;
use bevy::prelude::*;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::Read;
use std::net::SocketAddr;
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The largest request body read.
const MAX_BODY: u64 = 4096;
/// How long the HTTP thread waits for the world's answer.
const ANSWER_WAIT: Duration = Duration::from_secs(3);

/// One request handed to the world.
pub struct ApiCall {
    pub method: String,
    pub path: String,
    pub body: Value,
    pub reply: SyncSender<(u16, Value)>,
}

/// The world's end of the request channel (Mutex: a `Receiver` is not `Sync`).
#[derive(Resource)]
pub struct ApiInbox(Mutex<Receiver<ApiCall>>);

/// The HTTP server handle, kept so the thread is unblocked at exit, and the front door (the
/// public web port), kept so it stops accepting with the app.
#[derive(Resource)]
pub struct HttpHandle(pub Arc<tiny_http::Server>, pub super::relay::FrontDoor);

impl Drop for HttpHandle {
    fn drop(&mut self) {
        self.0.unblock();
    }
}

/// Answers API calls once per frame.
pub struct HttpPlugin;

impl Plugin for HttpPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, answer_api);
    }
}

/// Binds the web port (the front door at `addr`, which relays WebSockets to the netcode server
/// at `udp`) and the HTTP thread behind it; returns the web port's bound address.
pub fn start_http(
    app: &mut App,
    addr: SocketAddr,
    udp: SocketAddr,
    web: super::relay::WebConfig,
) -> Result<SocketAddr, String> {
    let (tx, rx): (Sender<ApiCall>, Receiver<ApiCall>) = channel();
    let (bound, handle) = start_router(addr, vec![tx], web)?;
    handle.1.set_udp(&[udp]);
    app.insert_resource(ApiInbox(Mutex::new(rx))).insert_resource(handle);
    Ok(bound)
}

/// A shard's end of the web port (the router holds the other end).
pub fn attach_inbox(app: &mut App, inbox: Receiver<ApiCall>) {
    app.insert_resource(ApiInbox(Mutex::new(inbox)));
}

/// Binds the web port (the front door at `addr`) and the HTTP server behind it on loopback, and
/// serves it for `shards` (one world each): a create goes to the next shard in turn, anything
/// naming a room code to the shard that created it, health to all. With one shard every call
/// goes to it. The front door's relays lead nowhere until [`super::relay::FrontDoor::set_udp`]
/// names the shards' netcode servers.
pub fn start_router(
    addr: SocketAddr,
    shards: Vec<Sender<ApiCall>>,
    web: super::relay::WebConfig,
) -> Result<(SocketAddr, HttpHandle), String> {
    let inner = SocketAddr::new(std::net::Ipv4Addr::LOCALHOST.into(), 0);
    let server =
        Arc::new(tiny_http::Server::http(inner).map_err(|e| format!("http bind {inner}: {e}"))?);
    let inner = server.server_addr().to_ip().ok_or("http server is not an IP socket")?;
    let root = web.root.clone();
    let front = super::relay::start_front(addr, inner, web)?;
    let bound = front.addr;
    let thread_server = server.clone();
    let mut router = Router { shards, codes: HashMap::new(), next: 0 };
    std::thread::Builder::new()
        .name("undercooked-http".into())
        .spawn(move || serve(&thread_server, &mut router, &root))
        .map_err(|e| e.to_string())?;
    Ok((bound, HttpHandle(server, front)))
}

/// Which shard's world answers a call.
struct Router {
    shards: Vec<Sender<ApiCall>>,
    /// Room code → shard, learnt from each create's answer.
    codes: HashMap<String, usize>,
    next: usize,
}

impl Router {
    /// Sends a call to one shard and waits for its answer.
    fn ask(&self, shard: usize, method: &str, path: &str, body: Value) -> (u16, Value) {
        let (reply, answer) = sync_channel(1);
        let call = ApiCall { method: method.to_string(), path: path.to_string(), body, reply };
        if self.shards[shard].send(call).is_err() {
            (503, json!({"error": "server stopping"}))
        } else {
            answer.recv_timeout(ANSWER_WAIT).unwrap_or((503, json!({"error": "server busy"})))
        }
    }

    fn route(&mut self, method: &str, path: &str, body: Value) -> (u16, Value) {
        if self.shards.len() == 1 {
            return self.ask(0, method, path, body);
        }
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        match parts.as_slice() {
            ["api", "health"] => {
                let (mut rooms, mut udp) = (0, Vec::new());
                for shard in 0..self.shards.len() {
                    let (_, v) = self.ask(shard, method, path, body.clone());
                    rooms += v["rooms"].as_u64().unwrap_or(0);
                    udp.extend(v["udp"].as_array().cloned().unwrap_or_default());
                }
                (200, json!({"rooms": rooms, "udp": udp}))
            }
            ["api", "rooms"] if method == "POST" => {
                // In turn, skipping a full shard (503) until every one has refused.
                for _ in 0..self.shards.len() {
                    let shard = self.next % self.shards.len();
                    self.next += 1;
                    let answer = self.ask(shard, method, path, body.clone());
                    if let Some(code) = answer.1["code"].as_str() {
                        self.codes.insert(code.to_string(), shard);
                    }
                    if answer.0 != 503 {
                        return answer;
                    }
                }
                (503, json!({"error": "room limit reached"}))
            }
            ["api", "rooms", code, ..] => {
                match parse_code(code).and_then(|c| self.codes.get(&c).copied()) {
                    Some(shard) => self.ask(shard, method, path, body),
                    None => (404, json!({"error": "no such room"})),
                }
            }
            _ => self.ask(0, method, path, body),
        }
    }
}

/// Answers a GET outside `/api/` from the static root, on this thread (no world needed).
fn serve_static(request: tiny_http::Request, root: &std::path::Path) {
    let path = request.url().split('?').next().unwrap_or("/").to_string();
    let header = |v: &str| tiny_http::Header::from_bytes(&b"Content-Type"[..], v.as_bytes()).ok();
    let _ = match super::files::answer(root, &path) {
        super::files::StaticAnswer::File { path, mime } => match std::fs::File::open(&path) {
            Ok(file) => {
                let mut r = tiny_http::Response::from_file(file);
                if let Some(h) = header(mime) {
                    r = r.with_header(h);
                }
                request.respond(r)
            }
            Err(_) => request.respond(tiny_http::Response::empty(404)),
        },
        super::files::StaticAnswer::Page { status, html } => {
            let mut r = tiny_http::Response::from_string(html).with_status_code(status);
            if let Some(h) = header("text/html; charset=utf-8") {
                r = r.with_header(h);
            }
            request.respond(r)
        }
    };
}

fn serve(server: &tiny_http::Server, router: &mut Router, root: &std::path::Path) {
    for mut request in server.incoming_requests() {
        if *request.method() == tiny_http::Method::Get && !request.url().starts_with("/api/") {
            serve_static(request, root);
            continue;
        }
        let mut text = String::new();
        let body = match request.as_reader().take(MAX_BODY).read_to_string(&mut text) {
            Ok(_) if text.trim().is_empty() => Value::Object(Default::default()),
            Ok(_) => serde_json::from_str(&text).unwrap_or(Value::Null),
            Err(_) => Value::Null,
        };
        let method = request.method().as_str().to_string();
        let path = request.url().split('?').next().unwrap_or("").to_string();
        let (status, value) = router.route(&method, &path, body);
        let header = tiny_http::Header::from_bytes(&b"Content-Type"[..], &b"application/json"[..]);
        let mut response =
            tiny_http::Response::from_string(value.to_string()).with_status_code(status);
        if let Ok(h) = header {
            response = response.with_header(h);
        }
        let _ = request.respond(response);
    }
}

/// Answers every pending call against the world's rooms.
fn answer_api(
    mut commands: Commands,
    inbox: Res<ApiInbox>,
    mut index: ResMut<RoomIndex>,
    mut lobbies: Query<(&mut HostedRoom, &LobbyView)>,
    levels: Res<HostLevels>,
    policy: Res<RoomPolicy>,
    key: Res<ServerKey>,
    addrs: Res<HostAddrs>,
    metrics: Res<super::metrics::HostMetrics>,
) {
    let Ok(rx) = inbox.0.lock() else { return };
    while let Ok(call) = rx.try_recv() {
        let parts: Vec<&str> = call.path.trim_matches('/').split('/').collect();
        let name = sanitise_name(call.body.get("name").and_then(Value::as_str).unwrap_or(""));
        let answer = match (call.method.as_str(), parts.as_slice()) {
            _ if call.body.is_null() => (400, json!({"error": "body must be JSON"})),
            ("GET", ["metrics"]) => (200, Value::String(metrics.encode())),
            ("GET", ["api", "health"]) => {
                (200, json!({"rooms": index.by_code.len(), "udp": addrs.public}))
            }
            ("POST", ["api", "rooms"]) => {
                match create_room(&mut commands, &mut index, &policy, &levels) {
                    None => (503, json!({"error": "room limit reached"})),
                    Some((code, _)) => {
                        // The lobby entity exists once the command buffer applies, so the
                        // creator's seat is reserved (and answered) by a command queued after it.
                        let level =
                            call.body.get("level").and_then(Value::as_str).map(str::to_string);
                        commands.queue(move |world: &mut World| {
                            let Some(&e) = world.resource::<RoomIndex>().by_code.get(&code) else {
                                return;
                            };
                            let ids = world.resource::<HostLevels>().ids();
                            let answer = join_world(world, e, &name, None);
                            if let (Some(level), Some(mut h)) =
                                (level, world.get_mut::<HostedRoom>(e))
                                && let Some(i) = ids.iter().position(|id| *id == level)
                            {
                                h.level = i;
                            }
                            let (status, body) = answer;
                            let _ =
                                call.reply.send((if status == 200 { 201 } else { status }, body));
                        });
                        continue;
                    }
                }
            }
            ("POST", ["api", "rooms", code, "join"]) => {
                let lobby = parse_code(code).and_then(|c| index.by_code.get(&c).copied());
                let reconnect = call.body.get("reconnect").and_then(Value::as_str);
                match (lobby, reconnect.map(parse_secret)) {
                    (None, _) => (404, json!({"error": "no such room"})),
                    (_, Some(None)) => (400, json!({"error": "malformed reconnect token"})),
                    (Some(e), secret) => match lobbies.get_mut(e) {
                        Ok((mut hosted, _)) => {
                            join(&mut hosted, &name, secret.flatten(), &key.0, &addrs.public)
                        }
                        Err(_) => (404, json!({"error": "no such room"})),
                    },
                }
            }
            ("GET", ["api", "rooms", code]) => {
                match parse_code(code).and_then(|c| index.by_code.get(&c).copied()) {
                    Some(e) => match lobbies.get(e) {
                        Ok((_, view)) => (200, serde_json::to_value(view).unwrap_or(Value::Null)),
                        Err(_) => (404, json!({"error": "no such room"})),
                    },
                    None => (404, json!({"error": "no such room"})),
                }
            }
            _ => (404, json!({"error": "unknown endpoint"})),
        };
        let _ = call.reply.send(answer);
    }
}

/// Reserves a seat (or finds the reconnecting one) and mints its token.
fn join(
    hosted: &mut HostedRoom,
    name: &str,
    secret: Option<super::tokens::Secret>,
    key: &[u8; 32],
    servers: &[SocketAddr],
) -> (u16, Value) {
    let (seat, secret) = match hosted.reserve(name, secret, Instant::now()) {
        Ok(v) => v,
        Err(SeatRefusal::Full) => return (409, json!({"error": "room is full"})),
        Err(SeatRefusal::UnknownSecret) => {
            return (404, json!({"error": "no seat holds that reconnect token"}));
        }
        Err(SeatRefusal::TokenLimit) => {
            return (
                429,
                json!({"error": "seat_token_limit", "detail": "this seat asked for too many tokens; wait and retry"}),
            );
        }
    };
    let admission = Admission { code: hosted.code.clone(), name: name.to_string(), secret };
    match connect_token(key, servers, &admission) {
        Ok(token) => (
            200,
            json!({
                "code": hosted.code,
                "seat": seat,
                "token": token,
                "reconnect": hex(&secret),
                "udp": servers,
            }),
        ),
        Err(e) => (500, json!({"error": format!("token: {e}")})),
    }
}

fn join_world(
    world: &mut World,
    lobby: Entity,
    name: &str,
    secret: Option<super::tokens::Secret>,
) -> (u16, Value) {
    let key = world.resource::<ServerKey>().0;
    let servers = world.resource::<HostAddrs>().public.clone();
    match world.get_mut::<HostedRoom>(lobby) {
        Some(mut hosted) => join(&mut hosted, name, secret, &key, &servers),
        None => (404, json!({"error": "no such room"})),
    }
}
