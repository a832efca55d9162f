//! The API's strict contract: each POST body is one typed struct that refuses unknown fields,
//! every refusal is one [`ApiError`] with a stable name, and the answer is
//! `{"error": NAME, "detail": TEXT}` ([`super::answer`]).

use crate::protocol::tandem::GameMode;
use crate::sim::assist::Assist;
use crate::sim::units::MAX_COOKS;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::answer::NamedError;

/// A raw player name longer than this is refused (a kept name is at most
/// [`crate::net::wire::tokens::NAME_MAX_CHARS`] after sanitising; this only bounds the input).
pub const NAME_INPUT_MAX: usize = 64;
/// A level id longer than this is refused before the world looks it up.
pub const LEVEL_ID_MAX: usize = 64;

/// Every way the web port refuses a request, with its HTTP status and wire name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    #[error("malformed_json")]
    MalformedJson,
    #[error("unknown_field")]
    UnknownField,
    #[error("wrong_type")]
    WrongType,
    #[error("out_of_range")]
    OutOfRange,
    #[error("unknown_level")]
    UnknownLevel,
    /// A create whose level and mode disagree: a versus kitchen for a co-op mode, or a co-op
    /// kitchen for versus.
    #[error("level_wrong_mode")]
    LevelWrongMode,
    /// `"mode": "Versus"` on a host that offers no published versus kitchen.
    #[error("no_versus_kitchens")]
    NoVersusKitchens,
    #[error("bad_reconnect")]
    BadReconnect,
    #[error("unsupported_media_type")]
    UnsupportedMediaType,
    #[error("body_too_large")]
    BodyTooLarge,
    #[error("body_timeout")]
    BodyTimeout,
    #[error("origin_refused")]
    OriginRefused,
    #[error("room_rate_limit")]
    RoomRateLimit,
    #[error("rooms_per_address")]
    RoomsPerAddress,
    /// A seat's reconnect secret minted its tokens for now (`seats::SEAT_TOKENS`).
    #[error("seat_token_limit")]
    SeatTokenLimit,
    #[error("no_such_room")]
    NoSuchRoom,
    /// A quick seat that may only join (`"quick": "join"`) found no public lobby with the seats.
    #[error("no_public_room")]
    NoPublicRoom,
    /// `GET /api/directory` on a server that announces to no directory.
    #[error("no_directory")]
    NoDirectory,
    #[error("room_full")]
    RoomFull,
    #[error("no_seat")]
    NoSeat,
    #[error("room_limit")]
    RoomLimit,
    #[error("relay_limit")]
    RelayLimit,
    /// One address holds `relays_per_address` relays (a browser player elsewhere still gets one).
    #[error("relays_per_address")]
    RelaysPerAddress,
    #[error("not_a_websocket")]
    NotAWebSocket,
    #[error("server_starting")]
    ServerStarting,
    #[error("server_busy")]
    ServerBusy,
    #[error("server_stopping")]
    ServerStopping,
    /// The server is draining (`--drain-seconds`): live rounds finish, nothing new starts.
    #[error("draining")]
    Draining,
    #[error("unknown_endpoint")]
    UnknownEndpoint,
    #[error("method_not_allowed")]
    MethodNotAllowed,
    #[error("token_failed")]
    TokenFailed,
}

impl NamedError for ApiError {
    fn status(self) -> u16 {
        use ApiError::*;
        match self {
            MalformedJson | UnknownField | WrongType | OutOfRange | UnknownLevel | BadReconnect
            | NotAWebSocket => 400,
            OriginRefused => 403,
            NoSuchRoom | NoPublicRoom | NoDirectory | NoSeat | UnknownEndpoint
            | NoVersusKitchens => 404,
            MethodNotAllowed => 405,
            BodyTimeout => 408,
            RoomFull | LevelWrongMode => 409,
            BodyTooLarge => 413,
            UnsupportedMediaType => 415,
            RoomRateLimit | RoomsPerAddress | SeatTokenLimit | RelaysPerAddress => 429,
            TokenFailed => 500,
            RoomLimit | RelayLimit | ServerStarting | ServerBusy | ServerStopping | Draining => 503,
        }
    }
}

/// A refused request of the web port.
pub type Refusal = super::answer::Refusal<ApiError>;

/// `POST /api/rooms`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateBody {
    #[serde(default)]
    pub name: Option<String>,
    /// A level id of the host's campaign (the world refuses one it does not have).
    #[serde(default)]
    pub level: Option<String>,
    /// Seats for this many players on one connection (couch co-op online), 1 to 4; 1 if absent.
    #[serde(default)]
    pub players: Option<u8>,
    /// The first round's assists (`{"order_time": "Longer", "longer_round": true}`); the
    /// creator holds seat 0, so changes them later in the lobby. Off if absent.
    #[serde(default)]
    pub assist: Option<Assist>,
    /// The first round's mode (`"Cooking"`, `"Survival"`, `"Tandem"` or `"Versus"`); the
    /// creator holds seat 0, so changes it later in the lobby (F8). Cooking if absent. Versus
    /// takes `level` from the host's versus kitchens (the first if absent); a level of the
    /// other kind is refused (`level_wrong_mode`).
    #[serde(default)]
    pub mode: Option<GameMode>,
    /// Listed in the directory for everyone (when the server announces to one); private, so
    /// reached only by its code, if absent.
    #[serde(default)]
    pub public: Option<bool>,
    /// Quick match's seat: a public kitchen lobby of this server with the seats if there is
    /// one, rather than a new room (two players who quick-match at once meet in one room).
    #[serde(default)]
    pub quick: Option<QuickSeat>,
}

/// How a quick match's `POST /api/rooms` is seated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuickSeat {
    /// Only in a public lobby that has the seats; 404 `no_public_room` when none has.
    Join,
    /// In a public lobby that has the seats, else in a new public room.
    JoinOrCreate,
}

/// `POST /api/rooms/CODE/join`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinBody {
    #[serde(default)]
    pub name: Option<String>,
    /// The `reconnect` secret of an earlier answer (32 hex digits).
    #[serde(default)]
    pub reconnect: Option<String>,
    /// Seats for this many players on one connection (couch co-op online), 1 to 4; 1 if absent.
    /// A reconnect takes back the seats its secret held, whatever this says.
    #[serde(default)]
    pub players: Option<u8>,
}

/// What a call carries to the world, already parsed and checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ApiBody {
    /// A GET.
    #[default]
    Empty,
    Create(CreateBody),
    Join(JoinBody),
}

fn check_name(name: Option<&str>) -> Result<(), Refusal> {
    match name {
        Some(n) if n.chars().count() > NAME_INPUT_MAX => Err(Refusal::new(
            ApiError::OutOfRange,
            format!("name: at most {NAME_INPUT_MAX} characters"),
        )),
        _ => Ok(()),
    }
}

/// A player count a body may ask seats for: 1 to [`MAX_COOKS`].
fn check_players(players: Option<u8>) -> Result<(), Refusal> {
    match players {
        Some(n) if !(1..=MAX_COOKS as u8).contains(&n) => Err(Refusal::new(
            ApiError::OutOfRange,
            format!("players: 1 to {MAX_COOKS} on one connection"),
        )),
        _ => Ok(()),
    }
}

impl CreateBody {
    /// The range checks serde cannot express.
    pub fn check(&self) -> Result<(), Refusal> {
        check_name(self.name.as_deref())?;
        check_players(self.players)?;
        match self.level.as_deref() {
            Some(l)
                if l.is_empty()
                    || l.len() > LEVEL_ID_MAX
                    || !l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') =>
            {
                Err(Refusal::new(
                    ApiError::OutOfRange,
                    format!("level: 1 to {LEVEL_ID_MAX} of a-z, 0-9, `_`, `-`"),
                ))
            }
            _ => Ok(()),
        }
    }
}

impl JoinBody {
    /// The range checks serde cannot express.
    pub fn check(&self) -> Result<(), Refusal> {
        check_name(self.name.as_deref())?;
        check_players(self.players)?;
        match self.reconnect.as_deref() {
            Some(r) if crate::net::wire::tokens::parse_secret(r).is_none() => {
                Err(Refusal::new(ApiError::BadReconnect, "reconnect: 32 hex digits"))
            }
            _ => Ok(()),
        }
    }
}

/// Parses a body into `T`, naming what was wrong with it. The body must be a JSON object
/// (serde's derived structs would also take an array of their fields in order). serde reports
/// unknown fields and wrong types only as text; its messages start with fixed words
/// (`unknown field`, `invalid type`, …, from `serde::de::Error`'s provided constructors),
/// which is what is matched.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Refusal> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Refusal::new(ApiError::MalformedJson, "empty body: send a JSON object"));
    }
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| Refusal::new(ApiError::MalformedJson, e.to_string()))?;
    if !value.is_object() {
        return Err(Refusal::new(ApiError::WrongType, "the body must be a JSON object"));
    }
    T::deserialize(value).map_err(|e| {
        let text = e.to_string();
        let error = if text.starts_with("unknown field") {
            ApiError::UnknownField
        } else if text.starts_with("invalid value")
            || text.starts_with("invalid length")
            || text.starts_with("unknown variant")
        {
            ApiError::OutOfRange
        } else {
            ApiError::WrongType
        };
        Refusal::new(error, text)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_refused_by_name() {
        let err = |b: &str| parse::<CreateBody>(b.as_bytes()).unwrap_err().error;
        assert_eq!(err(""), ApiError::MalformedJson);
        assert_eq!(err("{\"name\":"), ApiError::MalformedJson);
        assert_eq!(err("{\"nmae\":\"Ann\"}"), ApiError::UnknownField);
        assert_eq!(err("{\"name\":7}"), ApiError::WrongType);
        assert_eq!(err("[1]"), ApiError::WrongType);
        let ok: CreateBody = parse(b"{\"name\":\"Ann\",\"level\":null}").unwrap();
        assert_eq!(ok.name.as_deref(), Some("Ann"));
        let long = CreateBody { name: Some("x".repeat(65)), ..Default::default() };
        assert_eq!(long.check().unwrap_err().error, ApiError::OutOfRange);
        let bad = JoinBody { reconnect: Some("zz".into()), ..Default::default() };
        assert_eq!(bad.check().unwrap_err().error, ApiError::BadReconnect);
        // One to four players on one connection; a count past a byte is out of range too.
        for n in [0u8, 5, 255] {
            let many = JoinBody { players: Some(n), ..Default::default() };
            assert_eq!(many.check().unwrap_err().error, ApiError::OutOfRange, "{n}");
        }
        assert_eq!(err("{\"players\":256}"), ApiError::OutOfRange);
        assert_eq!(err("{\"players\":\"two\"}"), ApiError::WrongType);
        let two: CreateBody = parse(b"{\"players\":2}").unwrap();
        assert!(two.check().is_ok());
        assert_eq!(ApiError::RoomRateLimit.answer("x").1["error"], "room_rate_limit");
        // A room may be made for Tandem; a mode the server does not have is refused by name.
        let tandem: CreateBody = parse(b"{\"mode\":\"Tandem\"}").unwrap();
        assert_eq!(tandem.mode, Some(GameMode::Tandem));
        assert_eq!(err("{\"mode\":\"Chess\"}"), ApiError::OutOfRange);
        assert_eq!(err("{\"mode\":7}"), ApiError::WrongType);
    }
}
