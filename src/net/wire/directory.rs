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
