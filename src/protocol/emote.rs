//! Emotes on the wire: the four quick calls a player makes without a voice channel ("Here!",
//! "Help!", "Thanks!", "Hurry!"), what a client says ([`EmoteSaid`]), what the room's other
//! clients are shown ([`EmoteShown`]) and the sender is refused ([`EmoteRefused`]), and the pace
//! both ends keep ([`EmotePace`]). Presentation only: an emote never reaches a room's inputs, its
//! rules or its hash (docs/NETWORK.md, "Emotes").

use crate::sim::kinds::Dir4;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// One quick call, picked by the emote button plus a direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Emote {
    /// Up: "come here" (where the cook stands).
    Here,
    /// Left: "I need a hand".
    Help,
    /// Right: "thank you".
    Thanks,
    /// Down: "the order is about to go".
    Hurry,
}

impl Emote {
    pub const ALL: [Emote; 4] = [Emote::Here, Emote::Help, Emote::Thanks, Emote::Hurry];

    /// The words over the cook.
    pub fn words(self) -> &'static str {
        match self {
            Emote::Here => "Here!",
            Emote::Help => "Help!",
            Emote::Thanks => "Thanks!",
            Emote::Hurry => "Hurry!",
        }
    }

    /// The emote a direction picks while the emote button is held.
    pub fn of_direction(dir: Dir4) -> Emote {
        match dir {
            Dir4::Up => Emote::Here,
            Dir4::Left => Emote::Help,
            Dir4::Right => Emote::Thanks,
            Dir4::Down => Emote::Hurry,
        }
    }

    /// Its name on a command line and in `--stats` (`here`, `help`, `thanks`, `hurry`).
    pub fn name(self) -> &'static str {
        match self {
            Emote::Here => "here",
            Emote::Help => "help",
            Emote::Thanks => "thanks",
            Emote::Hurry => "hurry",
        }
    }

    /// The emote named `name` (as [`Emote::name`] writes it, any case).
    pub fn parse(name: &str) -> Result<Emote, String> {
        Emote::ALL.into_iter().find(|e| e.name().eq_ignore_ascii_case(name)).ok_or_else(|| {
            let names: Vec<&str> = Emote::ALL.iter().map(|e| e.name()).collect();
            format!("unknown emote {name:?}: one of {}", names.join(", "))
        })
    }
}

/// Client → server: local player `slot` of the sender's connection makes `emote` (the seat is
/// the connection's `Welcome.seats[slot]`, never a payload's claim).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmoteSaid {
    pub slot: u8,
    pub emote: Emote,
}

/// Server → client: the cook in `seat` made `emote` (to the room's other connections: the
/// sender drew its own at once).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmoteShown {
    pub seat: u8,
    pub emote: Emote,
}

/// Server → client: the sender's `emote` from `slot` was shown to nobody, and why.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmoteRefused {
    pub slot: u8,
    pub emote: Emote,
    pub reason: EmoteRefusal,
}

/// Why an emote was not passed on (named in the server's log, counted in its metrics, and told
/// to the sender).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, thiserror::Error)]
pub enum EmoteRefusal {
    /// The seat spent its emotes: [`EmotePace`]'s burst, then one a second.
    #[error("too many emotes: at most {EMOTE_BURST} at once, then one a second")]
    TooFast,
    /// The slot names no seat of the sender's connection.
    #[error("no seat for that local player")]
    NoSeat,
}

/// Emotes one seat may make at once before the pace applies.
pub const EMOTE_BURST: u32 = 3;
/// Then one more every this long.
pub const EMOTE_EVERY: Duration = Duration::from_secs(1);

/// One seat's emote allowance: [`EMOTE_BURST`] at once, then one every [`EMOTE_EVERY`]. The
/// server keeps one per seat and refuses past it; a client keeps the same so an honest player
/// is told "slow down" at once rather than after a round trip. Time is whatever monotonic
/// clock the owner reads, passed in (the browser has no `std::time::Instant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmotePace {
    /// Emotes in hand, in thousandths (a refill between two calls is kept to the thousandth).
    milli: u64,
    at: Duration,
}

impl EmotePace {
    /// A full allowance as of `now`.
    pub fn full(now: Duration) -> EmotePace {
        EmotePace { milli: EMOTE_BURST as u64 * 1000, at: now }
    }

    /// Takes one emote if the allowance has one at `now`.
    pub fn take(&mut self, now: Duration) -> bool {
        let elapsed = now.saturating_sub(self.at).as_micros() as u64;
        let earned = elapsed.saturating_mul(1000) / EMOTE_EVERY.as_micros() as u64;
        if earned > 0 {
            self.milli = self.milli.saturating_add(earned).min(EMOTE_BURST as u64 * 1000);
            self.at = now;
        }
        if self.milli >= 1000 {
            self.milli -= 1000;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_one_a_second() {
        let s = Duration::from_secs;
        let mut pace = EmotePace::full(s(10));
        assert!((0..EMOTE_BURST).all(|_| pace.take(s(10))), "the burst");
        assert!(!pace.take(s(10)), "then nothing at once");
        assert!(!pace.take(s(10) + Duration::from_millis(999)));
        assert!(pace.take(s(11)), "one a second");
        assert!(!pace.take(s(11)));
        assert!((0..EMOTE_BURST).all(|_| pace.take(s(100))), "refilled to the burst");
        assert!(!pace.take(s(100)), "never past it");
        // A clock that runs backwards (a peer's own) earns nothing.
        assert!(!pace.take(s(5)));
    }

    #[test]
    fn every_emote_has_a_direction_a_name_and_crosses_the_wire() {
        let dirs = [Dir4::Up, Dir4::Left, Dir4::Right, Dir4::Down];
        let picked: Vec<Emote> = dirs.into_iter().map(Emote::of_direction).collect();
        assert_eq!(picked, Emote::ALL);
        for e in Emote::ALL {
            assert_eq!(Emote::parse(e.name()), Ok(e));
            let said = EmoteSaid { slot: 1, emote: e };
            let mut buf = [0u8; 8];
            let bytes = postcard::to_slice(&said, &mut buf).unwrap();
            assert_eq!(bytes.len(), 2, "an emote costs two bytes");
            assert_eq!(postcard::from_bytes::<EmoteSaid>(bytes).unwrap(), said);
        }
        assert!(Emote::parse("wave").unwrap_err().contains("here, help, thanks, hurry"));
        assert!(postcard::from_bytes::<EmoteSaid>(&[0, 9]).is_err(), "an unknown emote");
    }
}
