//! The connection every client shares, native or browser: what the web port answers to a
//! create or a join ([`JoinReply`]), the replicon/renet plugins and the send pacing of a
//! connection. The HTTP call and the socket differ per platform (`net::client::api` and
//! `net::client::transport` natively with minreq and UDP or `net::client::ws`;
//! `net::client::browser` with fetch and the page's WebSocket) and come in through
//! [`insert_client`]; what the session does once connected is `net::client::seats`.

use crate::net::wire::error::NetError;
pub use crate::net::wire::error::{BadPageQuery, BadRoomCode};
use crate::protocol::ProtocolPlugin;
use crate::sim::units::MAX_COOKS;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy_replicon::prelude::*;
use bevy_replicon_renet::{RenetClient, RenetSend, RepliconRenetPlugins};
use serde_json::Value;
use std::time::Duration;

/// With no input to send, packets (acks, lobby commands) still go out this often.
pub const KEEPALIVE: Duration = Duration::from_millis(50);

/// When the client last flushed its packets, and whether a frame is waiting.
///
/// renet sends an ack packet on every flush, and a client loop runs ~200 frames/s: flushing on
/// every frame cost ~1.4 KB/s up for acks alone. Flushing when an input frame was written
/// (once per room tick) or after [`KEEPALIVE`] keeps the input latency and bounds the rate.
#[derive(Resource)]
pub struct SendPace {
    /// Set by whoever writes an input frame: flush this frame.
    pub due: bool,
    last: Instant,
}

impl Default for SendPace {
    fn default() -> Self {
        SendPace { due: false, last: Instant::now() }
    }
}

fn send_due(pace: Res<SendPace>) -> bool {
    pace.due || pace.last.elapsed() >= KEEPALIVE
}

fn mark_sent(mut pace: ResMut<SendPace>) {
    if pace.due || pace.last.elapsed() >= KEEPALIVE {
        pace.due = false;
        pace.last = Instant::now();
    }
}

/// What the web port answers to a create or a join.
#[derive(Clone, Debug)]
pub struct JoinReply {
    pub code: String,
    /// The seats reserved, one per local player asked for (the first is `seat`).
    pub seats: Vec<u8>,
    pub token: String,
    pub reconnect: String,
}

impl JoinReply {
    /// The first seat (a single player's only one).
    pub fn seat(&self) -> u8 {
        self.seats.first().copied().unwrap_or(0)
    }
}

/// Reads the web port's answer (`status`, JSON body) to a create or a join: the seat, or the
/// server's refusal.
pub fn parse_reply(status: i32, v: Value) -> Result<JoinReply, NetError> {
    if !(200..300).contains(&status) {
        return Err(NetError::refused(
            status,
            v.get("error").and_then(Value::as_str).unwrap_or("?"),
        ));
    }
    let s = |k: &'static str| {
        v.get(k).and_then(Value::as_str).map(str::to_string).ok_or(NetError::BadReply(k))
    };
    let seats: Vec<u8> = match v.get("seats").and_then(Value::as_array) {
        Some(seats) => seats.iter().filter_map(Value::as_u64).map(|s| s as u8).collect(),
        None => vec![v.get("seat").and_then(Value::as_u64).unwrap_or(0) as u8],
    };
    if seats.is_empty() {
        return Err(NetError::BadReply("seats"));
    }
    Ok(JoinReply { code: s("code")?, seats, token: s("token")?, reconnect: s("reconnect")? })
}

/// The web port's path and JSON body asking for `players` seats on one connection: in room
/// `code`, or in a new room (with `level`, if given) when `code` is `None`. One form for the
/// native (`net::client::api`) and the browser (`net::client::browser`) clients.
pub fn seat_request(
    code: Option<&str>,
    name: &str,
    level: Option<&str>,
    players: u8,
) -> (String, Value) {
    let mut body = serde_json::json!({"name": name});
    if players != 1 {
        body["players"] = players.into();
    }
    match code {
        None => {
            body["level"] = level.into();
            ("/api/rooms".to_string(), body)
        }
        Some(code) => (format!("/api/rooms/{code}/join"), body),
    }
}

/// The plugins and systems of a network client, before it has a seat: replicon, renet, the
/// protocol, and the send pacing ([`SendPacingPlugin`]). The connection itself is
/// [`insert_client`].
pub struct ClientNetPlugin;

impl Plugin for ClientNetPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((RepliconPlugins, RepliconRenetPlugins, ProtocolPlugin, SendPacingPlugin));
    }
}

/// The send pacing ([`SendPace`]) of a client app whose replicon/renet plugins are added.
pub struct SendPacingPlugin;

impl Plugin for SendPacingPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<SendPace>();
        app.configure_sets(PostUpdate, RenetSend.run_if(send_due));
        app.add_systems(PostUpdate, mark_sent.after(RenetSend));
    }
}

/// Starts the connection: renet's client with this protocol's channels, and `transport`, the
/// resource that carries netcode's packets (UDP, or a WebSocket to the relay).
pub fn insert_client(world: &mut World, transport: impl Resource) {
    let channels = world.resource::<RepliconChannels>();
    let client = RenetClient::new(crate::net::wire::channels::connection_config(channels));
    world.insert_resource(transport);
    world.insert_resource(client);
}

/// What a page's address asks for (`?room=CODE&name=NAME&players=N`, each optional): the
/// browser client reads it from `window.location` (`net::client::browser`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageQuery {
    /// A well-formed room code (upper case).
    pub room: Option<String>,
    pub name: Option<String>,
    /// Local players on this screen (1 to [`MAX_COOKS`]), each with its own seat.
    pub players: Option<u8>,
}

impl PageQuery {
    /// From the query's `room`, `name` and `players` values (as a URL parser decoded them):
    /// blank values count as absent, a room must be a room code, players 1 to [`MAX_COOKS`].
    pub fn new(
        room: Option<&str>,
        name: Option<&str>,
        players: Option<&str>,
    ) -> Result<PageQuery, BadPageQuery> {
        let text = |v: Option<&str>| v.map(str::trim).filter(|v| !v.is_empty()).map(str::to_string);
        let room = match text(room) {
            Some(r) => Some(crate::net::wire::tokens::parse_code(&r).ok_or(BadRoomCode(r))?),
            None => None,
        };
        let players = match text(players) {
            Some(p) => Some(
                p.parse::<u8>()
                    .ok()
                    .filter(|n| (1..=MAX_COOKS as u8).contains(n))
                    .ok_or(BadPageQuery::Players(p))?,
            ),
            None => None,
        };
        Ok(PageQuery { room, name: text(name), players })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_reply_is_a_seat_or_the_servers_error() {
        let ok =
            json!({"code": "ACDEF", "seat": 2, "seats": [2, 3], "token": "t", "reconnect": "r"});
        let r = parse_reply(200, ok).unwrap();
        assert_eq!(
            (r.code.as_str(), r.seats.as_slice(), r.token.as_str()),
            ("ACDEF", &[2, 3][..], "t")
        );
        let err = parse_reply(429, json!({"error": "room_rate_limit"})).unwrap_err();
        assert_eq!(err.to_string(), "HTTP 429: room_rate_limit");
        let err = parse_reply(409, json!({"error": "room_full"})).unwrap_err();
        assert!(matches!(err, NetError::RoomFull), "{err:?}");
        assert_eq!(err.to_string(), "HTTP 409: room_full");
        let err = parse_reply(404, json!({"error": "no_such_room"})).unwrap_err();
        assert!(matches!(err, NetError::RoomNotFound), "{err:?}");
        let err = parse_reply(200, json!({"code": "ACDEF", "seat": 0})).unwrap_err();
        assert!(matches!(err, NetError::BadReply("token")), "{err:?}");
        assert_eq!(err.to_string(), "answer lacks token");
    }

    #[test]
    fn a_page_query_needs_a_real_room_code_and_ignores_blanks() {
        let q = PageQuery::new(Some(" acdef "), Some("Ann"), Some("2")).unwrap();
        let want =
            PageQuery { room: Some("ACDEF".into()), name: Some("Ann".into()), players: Some(2) };
        assert_eq!(q, want);
        assert_eq!(PageQuery::new(Some(""), Some("  "), Some(" ")).unwrap(), PageQuery::default());
        assert_eq!(PageQuery::new(None, None, None).unwrap(), PageQuery::default());
        // O and 0 are not in the code alphabet; too short is not a code either.
        let bad = |room| Err(BadPageQuery::Room(BadRoomCode(String::from(room))));
        assert_eq!(PageQuery::new(Some("OOPS0"), None, None), bad("OOPS0"));
        assert_eq!(PageQuery::new(Some("AC"), None, None), bad("AC"));
        // One to four players on a screen.
        for p in ["0", "5", "two", "-1"] {
            assert_eq!(PageQuery::new(None, None, Some(p)), Err(BadPageQuery::Players(p.into())));
        }
    }
}
