//! The directory protocol's bodies (docs/NETWORK.md, "The directory"): what a game server
//! announces, what the directory answers, and what a lookup returns. Plain serde types that
//! refuse unknown fields, shared by the directory (`src/directory/`) and the announcing
//! server (`net::server::announce`), so both sides read one definition.

use serde::{Deserialize, Serialize};

/// The announce endpoint.
pub const ANNOUNCE_PATH: &str = "/api/announce";
/// The server list (every live, probed server and its public rooms).
pub const SERVERS_PATH: &str = "/api/servers";
/// Quick match's candidates: `GET /api/quick?players=N`, the servers that could seat N now.
pub const QUICK_PATH: &str = "/api/quick";
/// A join link that carries the directory, not a server: `http://DIRECTORY/join/CODE`. The
/// directory answers it with a redirect to the page of the server holding the room.
pub const JOIN_PATH: &str = "/join";
/// A room code's lookup: `GET /api/rooms/CODE`.
pub const ROOMS_PATH: &str = "/api/rooms";

/// Most rooms one announce may carry (a server's `--max-rooms` beyond it is clamped).
pub const MAX_ANNOUNCED_ROOMS: usize = 1024;
/// A server's name or region: at most this many characters, none a control character.
pub const MAX_LABEL_CHARS: usize = 48;
/// The largest announce body the directory reads (1,024 rooms of ~90 bytes fit).
pub const MAX_ANNOUNCE_BYTES: usize = 128 * 1024;

/// One room as its server announces it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomEntry {
    /// Its code (unique across the directory: a code another server holds is refused).
    pub code: String,
    /// The level id picked in its lobby.
    pub level: String,
    /// `Cooking` or `Tandem`.
    pub mode: String,
    /// `Lobby`, `Countdown`, `Round` or `Results`.
    pub phase: String,
    pub seats_taken: u8,
    pub seats_free: u8,
    /// Listed for everyone (true) or reachable only by its code (false, the default).
    pub public: bool,
}

/// `POST /api/announce`: a server's heartbeat. The first one carries no `id`/`secret`; the
/// answer gives both, and every later heartbeat must carry them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Announce {
    /// The entry's id, from the first answer.
    #[serde(default)]
    pub id: Option<String>,
    /// The entry's secret, from the first answer (32 hex digits).
    #[serde(default)]
    pub secret: Option<String>,
    /// The host's fleet secret, for servers the directory's operator runs: such an announce
    /// may take over the entry at its address (a restarted server) without the old secret.
    #[serde(default)]
    pub fleet: Option<String>,
    /// The web port players (and the directory's probe) reach this server at: `HOST:PORT`.
    pub address: String,
    pub name: String,
    pub region: String,
    /// The netcode protocol id the server speaks (`net::tokens::PROTOCOL_ID`).
    pub protocol: u64,
    /// Most rooms the server hosts at once.
    pub capacity: u32,
    pub rooms: Vec<RoomEntry>,
    /// The server is draining (`--drain-seconds`): the directory keeps its entry alive but
    /// lists none of it and resolves none of its codes. Sent only while true, so a server that
    /// never drains announces what older directories read.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub draining: bool,
    /// The Agones GameServer behind this entry (`--agones`): in a fleet, the name the cluster
    /// knows the process by. Sent only when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_server: Option<String>,
}

/// A room the directory did not take from an announce, and why (its error's wire name).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RefusedRoom {
    pub code: String,
    pub error: String,
}

/// The answer to an accepted announce.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Announced {
    pub id: String,
    /// Present only on the answer that created the entry.
    #[serde(default)]
    pub secret: Option<String>,
    /// The entry leaves the list this long after its last heartbeat.
    pub ttl_secs: u64,
    /// Rooms left out (a code another server holds: `code_taken`); the server re-codes them.
    pub refused: Vec<RefusedRoom>,
}

/// One live server as the directory lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerEntry {
    pub id: String,
    pub address: String,
    pub name: String,
    pub region: String,
    pub protocol: u64,
    pub capacity: u32,
    /// Seats taken over all its rooms.
    pub players: u32,
    /// All its rooms, public or not.
    pub rooms: u32,
    /// Its public rooms.
    pub public_rooms: Vec<RoomEntry>,
    /// Its Agones GameServer, when it runs in a fleet (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_server: Option<String>,
}

impl RoomEntry {
    /// Quick match may seat `players` here: a public kitchen room with that many seats free
    /// (quick match never seats strangers in a Tandem room, two friends' couch game).
    pub fn fits_quick(&self, players: u8) -> bool {
        self.public && self.mode == "Cooking" && self.seats_free >= players
    }
}

impl ServerEntry {
    /// Quick match could seat `players` here now: a public room fits them, or the server may
    /// make another room.
    pub fn could_seat(&self, players: u8) -> bool {
        self.rooms < self.capacity || self.public_rooms.iter().any(|r| r.fits_quick(players))
    }
}

/// `GET /api/servers`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerList {
    pub servers: Vec<ServerEntry>,
}

/// `GET /api/rooms/CODE`: where the room is. The connect token still comes from that server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resolved {
    pub code: String,
    /// The server's web port, `HOST:PORT`: join there.
    pub address: String,
    pub server: String,
    pub protocol: u64,
    pub room: RoomEntry,
}

/// The join link for room `code` through the directory at `directory` (`http://HOST:PORT`,
/// as `--directory` gives it; a bare `HOST:PORT` gets `http://`).
pub fn directory_link(directory: &str, code: &str) -> String {
    let base = directory.trim().trim_end_matches('/');
    let base = match base.starts_with("http://") || base.starts_with("https://") {
        true => base.to_string(),
        false => format!("http://{base}"),
    };
    format!("{base}{JOIN_PATH}/{code}")
}

/// A directory's join link (`http(s)://HOST:PORT/join/CODE`, scheme optional) as (the
/// directory's URL, the room code); `None` for anything else (a server's `/?room=` link too).
pub fn parse_directory_link(text: &str) -> Option<(String, String)> {
    let text = text.trim();
    let (scheme, rest) = match text.split_once("://") {
        Some((s @ ("http" | "https"), rest)) => (s, rest),
        Some(_) => return None,
        None => ("http", text),
    };
    let (host, path) = rest.split_once('/')?;
    let code = path.strip_prefix(JOIN_PATH.trim_start_matches('/'))?.strip_prefix('/')?;
    let code = code.trim_end_matches('/');
    let valid =
        !host.is_empty() && !code.is_empty() && code.chars().all(|c| c.is_ascii_alphanumeric());
    valid.then(|| (format!("{scheme}://{host}"), code.to_ascii_uppercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_link_round_trips_and_other_links_are_not_one() {
        let link = directory_link("http://dir.example:7790/", "KQX4P");
        assert_eq!(link, "http://dir.example:7790/join/KQX4P");
        let back = Some(("http://dir.example:7790".to_string(), "KQX4P".to_string()));
        assert_eq!(parse_directory_link(&link), back);
        assert_eq!(parse_directory_link("dir.example:7790/join/kqx4p"), back, "no scheme");
        assert_eq!(directory_link("dir.example:7790", "KQX4P"), link);
        let https = parse_directory_link("https://d.example/join/ABCDE");
        assert_eq!(https, Some(("https://d.example".into(), "ABCDE".into())));
        for not in [
            "http://192.168.1.5:7780/?room=KQX4",
            "http://d.example/join/",
            "http://d.example/join/AB%20C",
            "ftp://d.example/join/ABCDE",
            "d.example:7790",
            "",
        ] {
            assert_eq!(parse_directory_link(not), None, "{not}");
        }
    }
}
