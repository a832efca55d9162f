//! What one IP address may ask of the directory per minute: announces, room-code lookups,
//! lookups of codes nobody holds (far fewer, so room codes cannot be found by guessing), and
//! quick matches. Each is a token bucket per address (`net::web::buckets`, as room creation on
//! the game server's web port), and each refusal is named (429) and counted. Time is given by
//! the caller as a monotonic `Instant`, so tests step it without sleeping.

use super::error::{DirError, DirRefusal};
use crate::net::server::web::buckets::AddressBuckets;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// The `--…-per-minute` flags of `undercooked directory` (0 turns a limit off).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DirLimits {
    pub announces_per_minute: u32,
    pub lookups_per_minute: u32,
    pub unknown_lookups_per_minute: u32,
    pub quick_matches_per_minute: u32,
}

impl DirLimits {
    /// Every limit off (the benchmark, whose every request comes from one address).
    pub const OFF: DirLimits = DirLimits {
        announces_per_minute: 0,
        lookups_per_minute: 0,
        unknown_lookups_per_minute: 0,
        quick_matches_per_minute: 0,
    };
}

/// One of the directory's per-address rates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DirLimit {
    /// `POST /api/announce`.
    Announces,
    /// `GET /api/rooms/CODE`.
    Lookups,
    /// Lookups answered `no_such_room`.
    UnknownLookups,
    /// Quick-match requests.
    QuickMatches,
}

impl DirLimit {
    const ALL: [DirLimit; 4] =
        [DirLimit::Announces, DirLimit::Lookups, DirLimit::UnknownLookups, DirLimit::QuickMatches];

    /// The refusal when an address has none left.
    pub fn refusal(self) -> DirError {
        match self {
            DirLimit::Announces => DirError::AnnounceRateLimit,
            DirLimit::Lookups => DirError::LookupRateLimit,
            DirLimit::UnknownLookups => DirError::UnknownLookupRateLimit,
            DirLimit::QuickMatches => DirError::QuickMatchRateLimit,
        }
    }

    /// The flag that sets it.
    pub fn flag(self) -> &'static str {
        match self {
            DirLimit::Announces => "--announces-per-minute",
            DirLimit::Lookups => "--lookups-per-minute",
            DirLimit::UnknownLookups => "--unknown-lookups-per-minute",
            DirLimit::QuickMatches => "--quick-matches-per-minute",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Every address's buckets, one set per [`DirLimit`].
pub struct DirLimiter {
    buckets: [Mutex<AddressBuckets>; 4],
}

impl DirLimiter {
    pub fn new(l: &DirLimits) -> Self {
        let rate = |limit| match limit {
            DirLimit::Announces => l.announces_per_minute,
            DirLimit::Lookups => l.lookups_per_minute,
            DirLimit::UnknownLookups => l.unknown_lookups_per_minute,
            DirLimit::QuickMatches => l.quick_matches_per_minute,
        };
        DirLimiter {
            buckets: DirLimit::ALL.map(|limit| Mutex::new(AddressBuckets::per_minute(rate(limit)))),
        }
    }

    fn with<T>(&self, limit: DirLimit, f: impl FnOnce(&mut AddressBuckets) -> T) -> T {
        f(&mut self.buckets[limit.index()].lock().unwrap_or_else(|p| p.into_inner()))
    }

    fn refuse(limit: DirLimit) -> DirRefusal {
        DirRefusal::new(
            limit.refusal(),
            format!("this address asked more than {} allows; wait and retry", limit.flag()),
        )
    }

    /// Takes one of `ip`'s `limit` tokens at `now`, or the named refusal.
    pub fn take(&self, limit: DirLimit, ip: IpAddr, now: Instant) -> Result<(), DirRefusal> {
        match self.with(limit, |b| b.take(ip, now)) {
            true => Ok(()),
            false => Err(Self::refuse(limit)),
        }
    }

    /// The named refusal when `ip` has no `limit` token left at `now` (none is taken: the
    /// cost of an unknown code is known only after the lookup, [`DirLimiter::spend`]).
    pub fn check(&self, limit: DirLimit, ip: IpAddr, now: Instant) -> Result<(), DirRefusal> {
        match self.with(limit, |b| b.has(ip, now)) {
            true => Ok(()),
            false => Err(Self::refuse(limit)),
        }
    }

    /// Spends one of `ip`'s `limit` tokens, if it has one, for what was just answered.
    pub fn spend(&self, limit: DirLimit, ip: IpAddr, now: Instant) {
        self.with(limit, |b| b.take(ip, now));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn each_rate_is_per_address_and_refused_by_name() {
        let limits = DirLimits {
            announces_per_minute: 2,
            lookups_per_minute: 60,
            unknown_lookups_per_minute: 3,
            quick_matches_per_minute: 1,
        };
        let l = DirLimiter::new(&limits);
        let (ip, other): (IpAddr, IpAddr) = ([127, 0, 0, 2].into(), [127, 0, 0, 1].into());
        let t = Instant::now();
        let err = |r: Result<(), DirRefusal>| r.unwrap_err().error;
        assert!(l.take(DirLimit::Announces, ip, t).is_ok());
        assert!(l.take(DirLimit::Announces, ip, t).is_ok());
        assert_eq!(err(l.take(DirLimit::Announces, ip, t)), DirError::AnnounceRateLimit);
        assert!(l.take(DirLimit::Announces, other, t).is_ok(), "another address has its own");
        // 2 a minute: one more every 30 s.
        assert!(l.take(DirLimit::Announces, ip, t + Duration::from_secs(30)).is_ok());
        // Unknown codes: checked before, spent after; an address out of them is refused.
        for _ in 0..3 {
            assert!(l.check(DirLimit::UnknownLookups, ip, t).is_ok());
            l.spend(DirLimit::UnknownLookups, ip, t);
        }
        assert_eq!(err(l.check(DirLimit::UnknownLookups, ip, t)), DirError::UnknownLookupRateLimit);
        assert!(l.check(DirLimit::UnknownLookups, other, t).is_ok());
        assert!(l.check(DirLimit::UnknownLookups, ip, t + Duration::from_secs(20)).is_ok());
        // Quick match, ready for its endpoint.
        assert!(l.take(DirLimit::QuickMatches, ip, t).is_ok());
        assert_eq!(err(l.take(DirLimit::QuickMatches, ip, t)), DirError::QuickMatchRateLimit);
        // Off: no limit at all.
        let off = DirLimiter::new(&DirLimits::OFF);
        assert!((0..10_000).all(|_| off.take(DirLimit::Lookups, ip, t).is_ok()));
    }
}
