//! The web API's world side: the server world answers each [`ApiCall`] the web port
//! (`net::server::web`) hands it, within one frame, so room state has one owner. Create a room, join
//! one (which issues the netcode connect token), read a room's lobby:
//!
//! | Method | Path | Body | Answer |
//! |---|---|---|---|
//! | POST | /api/rooms | `{"name"?, "level"?, "assist"?, "mode"?, "public"?, "quick"?}` | 201 `{code, seat, token, reconnect, udp}`; 200 when `quick` seated it in a public lobby |
//! | POST | /api/rooms/CODE/join | `{"name"?, "reconnect"?}` | 200 same; 404 no room; 409 full |
//! | GET | /api/rooms/CODE | — | 200 the lobby view |
//! | GET | /api/health | — | 200 `{rooms, udp}` |
//!
//! Bodies arrive parsed and range-checked ([`crate::net::server::web::api`]); what only the world knows
//! (the level ids, the rooms) is checked here. Refusals are [`ApiError`]s.

use crate::net::server::daily::DailyKitchen;
use crate::net::server::host::{HostAddrs, ServerKey};
use crate::net::server::listing::{recode, room_entries, rooms_answer};
use crate::net::server::quick_seat::quick_lobby;
use crate::net::server::rooms::{HostLevels, HostedRoom, RoomIndex, RoomPolicy, create_room};
use crate::net::server::seats::SeatRefusal;
use crate::net::server::web::answer::NamedError;
use crate::net::server::web::api::{ApiBody, ApiError, QuickSeat};
use crate::net::server::web::call::{METRICS_PATH, ROOM_CODES_PATH, ROOM_LIST_PATH};
use crate::net::wire::error::NetError;
use crate::net::wire::tokens::{Admission, connect_token, parse_code, parse_secret, sanitise_name};
use crate::protocol::LobbyView;
use crate::protocol::tandem::GameMode;
use crate::replay::hex::hex_bytes;
use bevy::prelude::*;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Instant;

pub use crate::net::server::web::{ApiCall, HttpHandle, start_router};

/// The world's end of the request channel (Mutex: a `Receiver` is not `Sync`).
#[derive(Resource)]
pub struct ApiInbox(Mutex<Receiver<ApiCall>>);

/// Answers API calls once per frame.
pub struct HttpPlugin;

impl Plugin for HttpPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, answer_api);
    }
}

/// Binds the web port at `addr` for this one world (its relays lead to the netcode server at
/// `udp`); returns the web port's bound address.
pub fn start_http(
    app: &mut App,
    addr: SocketAddr,
    udp: SocketAddr,
    web: crate::net::server::web::WebConfig,
) -> Result<SocketAddr, NetError> {
    let (tx, rx): (Sender<ApiCall>, Receiver<ApiCall>) = channel();
    let (bound, handle) = start_router(addr, vec![tx], web)?;
    handle.set_udp(&[udp]);
    app.insert_resource(ApiInbox(Mutex::new(rx))).insert_resource(handle);
    Ok(bound)
}

/// A shard's end of the web port (the router holds the other end).
impl ApiInbox {
    /// The channel's end back, to hand to a rebuilt world (`server::supervise_shard`).
    pub fn into_receiver(self) -> Receiver<ApiCall> {
        self.0.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

pub fn attach_inbox(app: &mut App, inbox: Receiver<ApiCall>) {
    app.insert_resource(ApiInbox(Mutex::new(inbox)));
}

/// Answers every pending call against the world's rooms.
fn answer_api(
    mut commands: Commands,
    inbox: Res<ApiInbox>,
    mut index: ResMut<RoomIndex>,
    mut lobbies: Query<(&mut HostedRoom, &mut LobbyView)>,
    levels: Res<HostLevels>,
    daily: Option<Res<crate::net::server::daily::DailyKitchen>>,
    policy: Res<RoomPolicy>,
    key: Res<ServerKey>,
    addrs: Res<HostAddrs>,
    metrics: Res<crate::net::server::metrics::HostMetrics>,
) {
    let Ok(rx) = inbox.0.lock() else { return };
    let no_room = || ApiError::NoSuchRoom.answer("no room has that code");
    while let Ok(call) = rx.try_recv() {
        let parts: Vec<&str> = call.path.trim_matches('/').split('/').collect();
        let answer = match (call.method.as_str(), parts.as_slice(), call.body) {
            ("GET", ["api", "health"], _) => {
                (200, json!({"rooms": index.by_code.len(), "udp": addrs.public}))
            }
            ("GET", _, _) if call.path == ROOM_CODES_PATH => {
                (200, json!({"codes": index.by_code.keys().collect::<Vec<_>>()}))
            }
            ("GET", _, _) if call.path == METRICS_PATH => (200, Value::String(metrics.encode())),
            ("GET", _, _) if call.path == ROOM_LIST_PATH => {
                rooms_answer(room_entries(lobbies.iter()))
            }
            ("POST", ["internal", "recode", code], _) => {
                let lobby =
                    parse_code(code).and_then(|c| Some((index.by_code.get(&c).copied()?, c)));
                match lobby.map(|(e, c)| (lobbies.get_mut(e), c)) {
                    Some((Ok((mut hosted, mut view)), c)) => {
                        let new = recode(&mut index, &mut hosted, &c);
                        // The players in it see the new code now, not at the next tick.
                        view.code = new.clone();
                        (200, json!({"code": new}))
                    }
                    _ => no_room(),
                }
            }
            ("POST", ["api", "rooms"], ApiBody::Create(body)) => {
                let mode = body.mode.unwrap_or_default();
                let level = match created_level(&levels, daily.as_deref(), mode, &body.level) {
                    Ok(level) => level,
                    Err(answer) => {
                        let _ = call.reply.send(answer);
                        continue;
                    }
                };
                let name = sanitise_name(body.name.as_deref().unwrap_or(""));
                let players = body.players.unwrap_or(1);
                let assist = body.assist.unwrap_or_default();
                let public = body.public.unwrap_or(false);
                if let Some(quick) = body.quick {
                    let rooms =
                        index.by_code.values().filter_map(|&e| Some((e, lobbies.get(e).ok()?.0)));
                    match (quick_lobby(rooms, players), quick) {
                        (Some(e), _) => {
                            let answer = match lobbies.get_mut(e) {
                                Ok((mut hosted, _)) => {
                                    join(&mut hosted, &name, None, players, &key.0, &addrs.public)
                                }
                                Err(_) => no_room(),
                            };
                            let _ = call.reply.send(answer);
                            continue;
                        }
                        (None, QuickSeat::Join) => {
                            let _ = call.reply.send(
                                ApiError::NoPublicRoom.answer("no public lobby here has the seats"),
                            );
                            continue;
                        }
                        // A quick match's new room is public: the next quick match finds it.
                        (None, QuickSeat::JoinOrCreate) => {}
                    }
                }
                let public = public || body.quick.is_some();
                match create_room(&mut commands, &mut index, &policy, &levels) {
                    None => ApiError::RoomLimit.answer("this server holds as many rooms as it may"),
                    Some((code, _)) => {
                        // The lobby entity exists once the command buffer applies, so the
                        // creator's seat is reserved (and answered) by a command queued after it.
                        let reply = call.reply;
                        commands.queue(move |world: &mut World| {
                            let Some(&e) = world.resource::<RoomIndex>().by_code.get(&code) else {
                                return;
                            };
                            let answer = join_world(world, e, &name, None, players);
                            if let Some(mut h) = world.get_mut::<HostedRoom>(e) {
                                if let Some(level) = level {
                                    h.level = level;
                                }
                                h.assist = assist;
                                h.mode = mode;
                                h.public = public;
                            }
                            let (status, body) = answer;
                            let _ = reply.send((if status == 200 { 201 } else { status }, body));
                        });
                        continue;
                    }
                }
            }
            ("POST", ["api", "rooms", code, "join"], ApiBody::Join(body)) => {
                let lobby = parse_code(code).and_then(|c| index.lobby(&c));
                let name = sanitise_name(body.name.as_deref().unwrap_or(""));
                match (lobby, body.reconnect.as_deref().map(parse_secret)) {
                    (None, _) => no_room(),
                    (_, Some(None)) => ApiError::BadReconnect.answer("reconnect: 32 hex digits"),
                    (Some(e), secret) => match lobbies.get_mut(e) {
                        Ok((mut hosted, _)) => {
                            let players = body.players.unwrap_or(1);
                            join(
                                &mut hosted,
                                &name,
                                secret.flatten(),
                                players,
                                &key.0,
                                &addrs.public,
                            )
                        }
                        Err(_) => no_room(),
                    },
                }
            }
            ("GET", ["api", "rooms", code], _) => {
                match parse_code(code).and_then(|c| index.lobby(&c)) {
                    Some(e) => match lobbies.get(e) {
                        Ok((_, view)) => (200, serde_json::to_value(view).unwrap_or(Value::Null)),
                        Err(_) => no_room(),
                    },
                    None => no_room(),
                }
            }
            _ => ApiError::UnknownEndpoint.answer(format!("{} {}", call.method, call.path)),
        };
        let _ = call.reply.send(answer);
    }
}

/// Reserves a seat (or finds the reconnecting one) and mints its token.
fn join(
    hosted: &mut HostedRoom,
    name: &str,
    secret: Option<crate::net::wire::tokens::Secret>,
    players: u8,
    key: &[u8; 32],
    servers: &[SocketAddr],
) -> (u16, Value) {
    let (seats, secret) = match hosted.reserve(name, secret, players, Instant::now()) {
        Ok(v) => v,
        Err(SeatRefusal::Full) if players > 1 => {
            return ApiError::RoomFull.answer(format!("fewer than {players} seats are free"));
        }
        Err(SeatRefusal::Full) => return ApiError::RoomFull.answer("every seat is taken"),
        Err(SeatRefusal::UnknownSecret) => {
            return ApiError::NoSeat.answer("no seat holds that reconnect token");
        }
        Err(SeatRefusal::TokenLimit) => {
            return ApiError::SeatTokenLimit
                .answer("this seat asked for too many tokens; wait 15 s and retry");
        }
    };
    let admission = Admission { code: hosted.code.clone(), name: name.to_string(), secret };
    match connect_token(key, servers, &admission) {
        Ok(token) => (
            200,
            json!({
                "code": hosted.code,
                "seat": seats[0],
                "seats": seats,
                "token": token,
                "reconnect": hex_bytes(&secret),
                "udp": servers,
            }),
        ),
        Err(e) => ApiError::TokenFailed.answer(format!("token: {e}")),
    }
}

fn join_world(
    world: &mut World,
    lobby: Entity,
    name: &str,
    secret: Option<crate::net::wire::tokens::Secret>,
    players: u8,
) -> (u16, Value) {
    let key = world.resource::<ServerKey>().0;
    let servers = world.resource::<HostAddrs>().public.clone();
    match world.get_mut::<HostedRoom>(lobby) {
        Some(mut hosted) => join(&mut hosted, name, secret, players, &key, &servers),
        None => ApiError::NoSuchRoom.answer("no room has that code"),
    }
}

/// A create's level in its mode's list (`None`: the list's first): `daily` resolved to today's
/// kitchen, an unknown id `unknown_level`, a kitchen of the other kind (versus for a co-op mode,
/// co-op for versus) `level_wrong_mode`, versus on a host without versus kitchens
/// `no_versus_kitchens`, each by name.
fn created_level(
    levels: &HostLevels,
    daily: Option<&DailyKitchen>,
    mode: GameMode,
    level: &Option<String>,
) -> Result<Option<usize>, (u16, Value)> {
    if mode.plays_versus() && levels.versus.is_empty() {
        let why = "this host offers no published versus kitchen (--versus-levels)";
        return Err(ApiError::NoVersusKitchens.answer(why));
    }
    let Some(name) = level else { return Ok(None) };
    // `daily`: today's generated kitchen (`net::server::daily`).
    let id = DailyKitchen::resolve(daily, name);
    match levels.find(mode, id) {
        Ok(Some(i)) => Ok(Some(i)),
        Ok(None) => Err(ApiError::UnknownLevel.answer(format!("no level `{name}` here"))),
        Err(_) => {
            let (this, that) = if mode.plays_versus() {
                ("a co-op kitchen", "versus plays versus kitchens")
            } else {
                ("a versus kitchen", "only mode Versus plays one")
            };
            let why = format!("level `{name}` is {this}: {that} (mode {})", mode.label());
            Err(ApiError::LevelWrongMode.answer(why))
        }
    }
}
