//! One seat of a hosted room: how many a room has, how long a seat is held for a reconnect or
//! reserved for a token, how many tokens its secret may mint, and why a seat could not be
//! reserved. On its own so the bots that fill seats and the rooms that hold them both build on
//! it, one way.

use crate::net::server::limiter::{BucketSpec, TokenBucket};
use crate::net::wire::tokens::Secret;
use bevy::prelude::*;
use std::time::{Duration, Instant};

/// Seats per room.
pub const MAX_SEATS: usize = crate::sim::units::MAX_COOKS;

/// A seat whose player left is kept this long for a reconnect.
pub const SEAT_HOLD: Duration = Duration::from_secs(60);
/// An issued token reserves its seat this long before the connection arrives.
pub const RESERVATION: Duration = Duration::from_secs(crate::net::wire::tokens::TOKEN_EXPIRE_SECS);
/// Connect tokens one seat secret can mint: a few at once (a reconnect that retries), then one
/// every 15 s. A secret is a seat, not a source of sessions.
pub const SEAT_TOKENS: BucketSpec = BucketSpec { burst: 4, per_token: Duration::from_secs(15) };

/// The name of a connection's `k`-th local player: the first keeps the name, the others are
/// numbered after it ("Ann 2"), cut to the name limit with the number kept.
pub fn local_player_name(name: &str, k: usize) -> String {
    if k == 0 {
        return name.to_string();
    }
    let number = format!(" {}", k + 1);
    let keep = crate::net::wire::tokens::NAME_MAX_CHARS.saturating_sub(number.len());
    let base: String = name.chars().take(keep).collect();
    format!("{}{number}", base.trim_end())
}

/// Why a seat could not be reserved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatRefusal {
    /// Every seat is taken.
    Full,
    /// No seat holds the reconnect secret given.
    UnknownSecret,
    /// The seat's secret has minted its [`SEAT_TOKENS`] for now.
    TokenLimit,
}

/// One seat of a hosted room.
#[derive(Clone)]
pub struct SeatSlot {
    pub name: String,
    pub secret: Secret,
    pub ready: bool,
    /// The connected client entity, if any.
    pub client: Option<Entity>,
    /// When the seat lost its client (the reconnect window runs from here).
    pub away_since: Option<Instant>,
    /// Until when an issued token holds this seat without a connection.
    pub reserved_until: Option<Instant>,
    /// What is left of the secret's [`SEAT_TOKENS`].
    pub tokens: TokenBucket,
}

/// Written without the secret: a room's state may reach a log, and the secret is the seat.
impl std::fmt::Debug for SeatSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SeatSlot")
            .field("name", &self.name)
            .field("secret", &"<redacted>")
            .field("ready", &self.ready)
            .field("client", &self.client)
            .field("away_since", &self.away_since)
            .field("reserved_until", &self.reserved_until)
            .finish()
    }
}
