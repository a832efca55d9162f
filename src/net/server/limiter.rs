//! Rate limits for netcode connection requests: a token bucket per source address and one for
//! all sources together.
//!
//! A connection request is the one packet a sender without a session can make the server spend
//! crypto on (netcode decrypts its 1 KB private token), so a flood of forged ones is what could
//! starve the world's frame. One address gets a burst big enough for a household's players
//! connecting at once (a client resends its request every 100 ms until challenged); spoofed
//! sources are held by the global bucket. The per-source table is bounded: at
//! [`MAX_SOURCES`] it forgets the sources idle longest, and new sources meet the global bucket
//! alone until there is room.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// One source's bucket: a burst big enough for a household connecting at once, then 8/s.
pub const SOURCE: BucketSpec = BucketSpec { burst: 16, per_token: Duration::from_millis(125) };
/// All sources' bucket: each request costs a decryption of ~1 KB; 2,000/s is a few % of a core.
pub const GLOBAL: BucketSpec = BucketSpec { burst: 512, per_token: Duration::from_micros(500) };
/// Sources tracked at once.
pub const MAX_SOURCES: usize = 16_384;

/// Tokens are kept in thousandths, so refills stay integers at any frame rate.
const MILLI: u64 = 1000;

/// A bucket's size and refill: `burst` tokens, one more every `per_token`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BucketSpec {
    pub burst: u32,
    pub per_token: Duration,
}

/// Which bucket refused a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateLimit {
    /// The source address's own.
    Source,
    /// All sources' together.
    Global,
}

/// A token bucket (network limits only: it reads the wall clock, never the sim's).
#[derive(Clone, Copy, Debug)]
pub struct TokenBucket {
    milli_tokens: u64,
    at: Instant,
}

impl TokenBucket {
    pub fn full(spec: BucketSpec, now: Instant) -> Self {
        TokenBucket { milli_tokens: spec.burst as u64 * MILLI, at: now }
    }

    fn refill(&mut self, spec: BucketSpec, now: Instant) {
        let elapsed = now.saturating_duration_since(self.at).as_micros() as u64;
        let per_token = (spec.per_token.as_micros() as u64).max(1);
        let earned = elapsed.saturating_mul(MILLI) / per_token;
        // The clock moves only when a whole thousandth was earned, so calls closer together
        // than that still add up (the remainder lost is under a thousandth of a token).
        if earned > 0 {
            let cap = spec.burst as u64 * MILLI;
            self.milli_tokens = self.milli_tokens.saturating_add(earned).min(cap);
            self.at = now;
        }
    }

    /// Takes one token if there is one.
    pub fn take(&mut self, spec: BucketSpec, now: Instant) -> bool {
        self.refill(spec, now);
        if self.milli_tokens >= MILLI {
            self.milli_tokens -= MILLI;
            true
        } else {
            false
        }
    }

    fn is_full(&self, spec: BucketSpec, now: Instant) -> bool {
        let mut b = *self;
        b.refill(spec, now);
        b.milli_tokens == spec.burst as u64 * MILLI
    }
}

/// The per-source buckets and the global one.
#[derive(Debug, Default)]
pub struct RequestLimiter {
    sources: HashMap<IpAddr, TokenBucket>,
    global: Option<TokenBucket>,
}

impl RequestLimiter {
    /// Admits one connection request from `source`, or names the limit it met. The source's
    /// bucket is asked first, so one noisy address does not spend the global budget.
    pub fn admit(&mut self, source: IpAddr, now: Instant) -> Result<(), RateLimit> {
        if !self.sources.contains_key(&source) && self.sources.len() >= MAX_SOURCES {
            self.forget_idle(now);
        }
        if self.sources.len() < MAX_SOURCES || self.sources.contains_key(&source) {
            let bucket =
                self.sources.entry(source).or_insert_with(|| TokenBucket::full(SOURCE, now));
            if !bucket.take(SOURCE, now) {
                return Err(RateLimit::Source);
            }
        }
        let global = self.global.get_or_insert_with(|| TokenBucket::full(GLOBAL, now));
        if !global.take(GLOBAL, now) {
            return Err(RateLimit::Global);
        }
        Ok(())
    }

    /// Drops the sources whose buckets have refilled (they would start full anyway); if none
    /// has, the older half.
    fn forget_idle(&mut self, now: Instant) {
        let before = self.sources.len();
        self.sources.retain(|_, b| !b.is_full(SOURCE, now));
        if self.sources.len() == before {
            let mut ages: Vec<Instant> = self.sources.values().map(|b| b.at).collect();
            ages.sort_unstable();
            let cut = ages[ages.len() / 2];
            self.sources.retain(|_, b| b.at > cut);
        }
    }

    pub fn tracked_sources(&self) -> usize {
        self.sources.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_source_gets_its_burst_then_its_rate() {
        let mut l = RequestLimiter::default();
        let t0 = Instant::now();
        let ip: IpAddr = [192, 0, 2, 1].into();
        for _ in 0..SOURCE.burst {
            assert_eq!(l.admit(ip, t0), Ok(()));
        }
        assert_eq!(l.admit(ip, t0), Err(RateLimit::Source));
        // One second refills 8 requests, no more.
        let t1 = t0 + Duration::from_secs(1);
        for _ in 0..8 {
            assert_eq!(l.admit(ip, t1), Ok(()));
        }
        assert_eq!(l.admit(ip, t1), Err(RateLimit::Source));
        // Another source is not held by the first one's limit.
        assert_eq!(l.admit([192, 0, 2, 2].into(), t1), Ok(()));
    }

    #[test]
    fn many_sources_meet_the_global_bucket_and_the_table_stays_bounded() {
        let mut l = RequestLimiter::default();
        let t0 = Instant::now();
        let mut admitted = 0;
        for i in 0..(MAX_SOURCES as u32 * 2) {
            let ip: IpAddr = std::net::Ipv4Addr::from(0x0a00_0000 + i).into();
            if l.admit(ip, t0).is_ok() {
                admitted += 1;
            }
        }
        assert_eq!(admitted, GLOBAL.burst);
        assert!(l.tracked_sources() <= MAX_SOURCES);
    }
}
