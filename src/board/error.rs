//! Why the board refused a submission or a request: one named error each, its wire name the
//! `error` of the JSON answer (`{"error": NAME, "detail": TEXT}`) and its HTTP status.

/// A board refusal's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum BoardError {
    /// The body is over the board's size limit.
    #[error("TOO_LARGE")]
    TooLarge,
    /// This address has sent its submissions for now.
    #[error("TOO_MANY")]
    TooMany,
    /// The verification queue is full: try again later.
    #[error("BOARD_BUSY")]
    Busy,
    /// Not a bundle at all (no version at its head, or not UTF-8).
    #[error("BUNDLE_UNREADABLE")]
    Unreadable,
    /// A bundle whose text ends before it does (cut short in transit or by hand).
    #[error("BUNDLE_TRUNCATED")]
    Truncated,
    /// A bundle of a known version whose body does not parse.
    #[error("BUNDLE_MALFORMED")]
    Malformed,
    /// A bundle version this build does not read.
    #[error("BUNDLE_VERSION_UNSUPPORTED")]
    VersionUnsupported,
    /// The bundle's level text does not hash to the hash it carries.
    #[error("LEVEL_EDITED")]
    LevelEdited,
    /// The level (by its hash) is not one this host publishes.
    #[error("LEVEL_NOT_PUBLISHED")]
    LevelNotPublished,
    /// The recipe book is not this host's.
    #[error("RECIPES_NOT_PUBLISHED")]
    RecipesNotPublished,
    /// An assisted or survival round: the board ranks standard rounds only.
    #[error("NOT_RANKED")]
    NotRanked,
    /// The round did not reach its end (aborted, shut down, a fault).
    #[error("ROUND_UNFINISHED")]
    RoundUnfinished,
    /// More ticks or frames than a round of the level can have: not replayed.
    #[error("REPLAY_TOO_LONG")]
    ReplayTooLong,
    /// The replayed hash chain parts from the bundle's.
    #[error("CHAIN_MISMATCH")]
    ChainMismatch,
    /// The bundle's final hash is not the replayed round's.
    #[error("FINAL_HASH_MISMATCH")]
    FinalHashMismatch,
    /// The replayed result payload differs from the bundle's.
    #[error("RESULT_MISMATCH")]
    ResultMismatch,
    /// The replay itself panicked.
    #[error("REPLAY_PANICKED")]
    ReplayPanicked,
    /// This round is on the board already.
    #[error("DUPLICATE")]
    Duplicate,
    /// No entry with that id.
    #[error("NO_SUCH_ENTRY")]
    NoSuchEntry,
    /// No submission with that ticket (never issued, or forgotten).
    #[error("NO_SUCH_TICKET")]
    NoSuchTicket,
    /// A list asked for a level id this host does not publish.
    #[error("NO_SUCH_LEVEL")]
    NoSuchLevel,
    /// A query parameter missing or out of range.
    #[error("BAD_QUERY")]
    BadQuery,
    /// The board's storage did not answer.
    #[error("STORE_FAILED")]
    StoreFailed,
    /// This host runs no board.
    #[error("NO_BOARD")]
    NoBoard,
    #[error("UNKNOWN_ENDPOINT")]
    UnknownEndpoint,
    #[error("METHOD_NOT_ALLOWED")]
    MethodNotAllowed,
}

impl BoardError {
    /// The HTTP status it is answered with.
    pub fn status(self) -> u16 {
        use BoardError::*;
        match self {
            Unreadable | Truncated | Malformed | VersionUnsupported | BadQuery => 400,
            NoSuchEntry | NoSuchTicket | NoSuchLevel | NoBoard | UnknownEndpoint => 404,
            MethodNotAllowed => 405,
            Duplicate => 409,
            TooLarge => 413,
            LevelEdited | LevelNotPublished | RecipesNotPublished | NotRanked | RoundUnfinished
            | ReplayTooLong | ChainMismatch | FinalHashMismatch | ResultMismatch
            | ReplayPanicked => 422,
            TooMany => 429,
            Busy | StoreFailed => 503,
        }
    }
}

/// A refusal: its name and what about it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{error}: {detail}")]
pub struct BoardRefusal {
    pub error: BoardError,
    pub detail: String,
}

impl BoardRefusal {
    pub fn new(error: BoardError, detail: impl Into<String>) -> Self {
        BoardRefusal { error, detail: detail.into() }
    }
}
