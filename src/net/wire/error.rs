//! What goes wrong on the network side, as one type: the web API's refusals and unreachable
//! ports, the connection's transport and token, the browser's own APIs, and a host that cannot
//! start. Compiled for the browser too, so the native seat request (`net::client::api`) and the page's
//! (`net::client::browser`) answer the same [`NetError`]. Each variant prints the text the `String`
//! errors it replaces printed, so what a player or an operator reads is unchanged.

/// A network-side failure, named for what went wrong.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The web port refused with this status and the server's error code (`{"error": …}`),
    /// other than the refusals named below.
    #[error("HTTP {status}: {message}")]
    Http { status: i32, message: String },
    /// The room is full (409 `room_full`).
    #[error("HTTP 409: room_full")]
    RoomFull,
    /// No room has that code (404 `no_such_room`).
    #[error("HTTP 404: no_such_room")]
    RoomNotFound,
    /// The web port answered a seat, but without this field.
    #[error("answer lacks {0}")]
    BadReply(&'static str),
    /// Nothing answered at `addr` (no route, refused, timed out, no such name).
    #[error("{addr}: {reason}")]
    Unreachable { addr: String, reason: String },
    /// The relay would not upgrade to a WebSocket (its HTTP status).
    #[error("websocket refused: HTTP {0}")]
    WebSocketRefused(String),
    /// The WebSocket handshake failed otherwise.
    #[error("websocket: {0}")]
    WebSocket(String),
    /// An `Origin` that is not a header value.
    #[error("bad origin {0}")]
    BadOrigin(String),
    /// The server could not mint a connect token (renetcode's message).
    #[error("{0}")]
    TokenMint(String),
    /// The connect token would not decode, or netcode would not start with it.
    #[error("bad connect token: {0}")]
    BadToken(String),
    /// A seat's connection could not be opened (the load generator's many).
    #[error("connect: {0}")]
    Connect(Box<NetError>),
    /// A port could not be bound (in use, or not this host's address): which one, and why.
    /// A rebuilt shard retries this one while the world it replaces lets go of its ports.
    #[error("{what}: {source}")]
    Bind { what: String, source: std::io::Error },
    /// A socket or file operation failed: what was being done, and why.
    #[error("{what}: {source}")]
    Io { what: String, source: std::io::Error },
    /// A socket or file operation failed where the error alone says enough.
    #[error(transparent)]
    IoBare(#[from] std::io::Error),
    /// The netcode server would not start.
    #[error("netcode: {0}")]
    Netcode(String),
    /// The host's levels or recipe book could not be loaded (its message).
    #[error("{0}")]
    Levels(String),
    /// A server or shard thread could not be started or did not report back.
    #[error("{0}")]
    Thread(String),
    /// The command line asks for something that cannot be done.
    #[error("{0}")]
    Usage(&'static str),
    /// A directory named the room's server, which speaks another protocol (an older or newer
    /// build): joining it would fail at the connect token.
    #[error("room {code} is on {address}, which speaks another protocol")]
    OtherProtocol { code: String, address: String },
    /// A step that must happen within a deadline did not.
    #[error("{0}")]
    Timeout(&'static str),
    /// Not running in a browser window (the page's `window` is missing).
    #[error("not running in a browser window")]
    NoWindow,
    /// A browser API refused: what was asked, and the browser's message.
    #[error("{what}: {message}")]
    Browser { what: &'static str, message: String },
    /// The page's `room` is not a room code.
    #[error(transparent)]
    BadRoom(#[from] BadRoomCode),
    /// The page's query asks for something else that cannot be (`?players=9`).
    #[error(transparent)]
    BadQuery(#[from] BadPageQuery),
}

/// A page's `room` that is not a room code (`tokens::parse_code`; `session::PageQuery`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a room code: {0:?}")]
pub struct BadRoomCode(pub String);

/// Why a page's query was refused (`session::PageQuery`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadPageQuery {
    #[error(transparent)]
    Room(#[from] BadRoomCode),
    #[error("not a player count (1 to {max}): {0:?}", max = crate::sim::units::MAX_COOKS)]
    Players(String),
}

impl NetError {
    /// The web port's refusal with `status` and its error code, by name where the code tells
    /// the caller something it can act on.
    pub fn refused(status: i32, message: &str) -> NetError {
        match (status, message) {
            (409, "room_full") => NetError::RoomFull,
            (404, "no_such_room") => NetError::RoomNotFound,
            _ => NetError::Http { status, message: message.to_string() },
        }
    }

    /// An [`NetError::Io`] naming what was being done.
    pub fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> NetError {
        let what = what.into();
        move |source| NetError::Io { what, source }
    }
}

/// For callers whose own errors are still text (the fuzzer's targets, the CLI's reports).
impl From<NetError> for String {
    fn from(e: NetError) -> String {
        e.to_string()
    }
}
