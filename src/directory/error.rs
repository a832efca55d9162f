//! Every way the directory refuses a request, with its HTTP status and wire name: the answer
//! is `{"error": NAME, "detail": TEXT}`, as on the game server's web port (the same
//! [`NamedError`] and [`Refusal`] of `net::web::answer`).

use crate::net::server::web::answer::{NamedError, Refusal};
use crate::net::server::web::api::ApiError;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, thiserror::Error)]
pub enum DirError {
    #[error("malformed_json")]
    MalformedJson,
    #[error("unknown_field")]
    UnknownField,
    #[error("wrong_type")]
    WrongType,
    #[error("out_of_range")]
    OutOfRange,
    #[error("unsupported_media_type")]
    UnsupportedMediaType,
    #[error("body_too_large")]
    BodyTooLarge,
    #[error("body_timeout")]
    BodyTimeout,
    /// A name or region empty, too long or holding control characters.
    #[error("bad_label")]
    BadLabel,
    /// An address that is not `HOST:PORT` with a literal IP.
    #[error("bad_address")]
    BadAddress,
    /// A protocol id this directory does not list servers for.
    #[error("unknown_protocol")]
    UnknownProtocol,
    /// More rooms than [`crate::net::wire::directory::MAX_ANNOUNCED_ROOMS`] or than the server's capacity.
    #[error("too_many_rooms")]
    TooManyRooms,
    /// A room whose code is malformed, or whose seats do not add up.
    #[error("bad_room")]
    BadRoom,
    /// The directory's health request to the claimed address got no healthy answer.
    #[error("unreachable")]
    Unreachable,
    /// A renewal whose secret is not the entry's.
    #[error("bad_secret")]
    BadSecret,
    /// A fleet secret that is not the directory's (or a directory without one).
    #[error("bad_fleet_secret")]
    BadFleetSecret,
    /// A new entry for an address a live entry holds.
    #[error("address_taken")]
    AddressTaken,
    /// A room code another live server holds.
    #[error("code_taken")]
    CodeTaken,
    #[error("no_such_room")]
    NoSuchRoom,
    /// The server holding the code is draining (`--drain-seconds`): no new joins there.
    #[error("draining")]
    Draining,
    #[error("unknown_endpoint")]
    UnknownEndpoint,
    #[error("method_not_allowed")]
    MethodNotAllowed,
    /// The shared store (Redis) did not answer.
    #[error("store_unavailable")]
    StoreUnavailable,
    /// One address sent more announces than `--announces-per-minute`.
    #[error("announce_rate_limit")]
    AnnounceRateLimit,
    /// One address asked for more room codes than `--lookups-per-minute`.
    #[error("lookup_rate_limit")]
    LookupRateLimit,
    /// One address asked for more codes nobody holds than `--unknown-lookups-per-minute`: its
    /// lookups are refused until its bucket refills (guessing codes is slow).
    #[error("unknown_lookup_rate_limit")]
    UnknownLookupRateLimit,
    /// One address asked for more quick matches than `--quick-matches-per-minute`.
    #[error("quick_match_rate_limit")]
    QuickMatchRateLimit,
}

impl NamedError for DirError {
    fn status(self) -> u16 {
        use DirError::*;
        match self {
            MalformedJson | UnknownField | WrongType | OutOfRange | BadLabel | BadAddress
            | UnknownProtocol | TooManyRooms | BadRoom => 400,
            BadSecret | BadFleetSecret => 403,
            NoSuchRoom | UnknownEndpoint => 404,
            Draining => 410,
            MethodNotAllowed => 405,
            BodyTimeout => 408,
            AddressTaken | CodeTaken => 409,
            BodyTooLarge => 413,
            UnsupportedMediaType => 415,
            Unreachable => 422,
            AnnounceRateLimit | LookupRateLimit | UnknownLookupRateLimit | QuickMatchRateLimit => {
                429
            }
            StoreUnavailable => 503,
        }
    }
}

/// A refused request of the directory.
pub type DirRefusal = Refusal<DirError>;

/// The web port's body refusals ([`crate::net::server::web::api::parse`]) under the directory's names.
impl From<Refusal<ApiError>> for DirRefusal {
    fn from(r: Refusal<ApiError>) -> Self {
        let error = match r.error {
            ApiError::UnknownField => DirError::UnknownField,
            ApiError::WrongType => DirError::WrongType,
            ApiError::OutOfRange => DirError::OutOfRange,
            ApiError::BodyTooLarge => DirError::BodyTooLarge,
            ApiError::BodyTimeout => DirError::BodyTimeout,
            ApiError::UnsupportedMediaType => DirError::UnsupportedMediaType,
            _ => DirError::MalformedJson,
        };
        DirRefusal { error, detail: r.detail }
    }
}
