//! A rate per IP address: one token bucket each (a burst, refilled one token every `refill`),
//! with time given by the caller (a monotonic `Instant`), so a test steps it without sleeping.
//! Room creation on the web port ([`super::quota`]) and the directory's per-address limits
//! (`crate::directory::limits`) are each one of these.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// Addresses tracked before full buckets are forgotten (a full bucket is the default).
const TRACKED: usize = 4096;

/// One address's bucket.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: u32,
    /// When the next token is added.
    refill_at: Instant,
}

/// Every address's bucket for one rate.
#[derive(Debug)]
pub struct AddressBuckets {
    burst: u32,
    refill: Duration,
    buckets: HashMap<IpAddr, Bucket>,
}

impl AddressBuckets {
    /// `burst` tokens, one more every `refill`; `burst` 0 turns the limit off.
    pub fn new(burst: u32, refill: Duration) -> Self {
        AddressBuckets {
            burst,
            refill: refill.max(Duration::from_millis(1)),
            buckets: HashMap::new(),
        }
    }

    /// `per_minute` a minute, also the burst (0: no limit): the shape of every `--…-per-minute`
    /// flag.
    pub fn per_minute(per_minute: u32) -> Self {
        Self::new(per_minute, Duration::from_secs(60) / per_minute.max(1))
    }

    /// Whether the limit is on.
    pub fn limits(&self) -> bool {
        self.burst > 0
    }

    /// Whether `ip` has a token at `now` (none is taken).
    pub fn has(&mut self, ip: IpAddr, now: Instant) -> bool {
        if self.burst == 0 {
            return true;
        }
        let (burst, refill) = (self.burst, self.refill);
        match self.buckets.get_mut(&ip) {
            Some(b) => Self::level(b, burst, refill, now) > 0,
            None => true,
        }
    }

    /// Takes one of `ip`'s tokens at `now`; false (nothing taken) when it has none.
    pub fn take(&mut self, ip: IpAddr, now: Instant) -> bool {
        if self.burst == 0 {
            return true;
        }
        let (burst, refill) = (self.burst, self.refill);
        if self.buckets.len() >= TRACKED {
            self.buckets.retain(|_, b| Self::level(b, burst, refill, now) < burst);
        }
        let b = self.buckets.entry(ip).or_insert(Bucket { tokens: burst, refill_at: now });
        if Self::level(b, burst, refill, now) == 0 {
            return false;
        }
        if b.tokens == burst {
            b.refill_at = now + refill;
        }
        b.tokens -= 1;
        true
    }

    /// Brings a bucket up to `now`; its tokens.
    fn level(b: &mut Bucket, burst: u32, refill: Duration, now: Instant) -> u32 {
        while b.tokens < burst && b.refill_at <= now {
            b.tokens += 1;
            b.refill_at += refill;
        }
        b.tokens
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_one_token_per_refill_for_each_address() {
        let (ip, other): (IpAddr, IpAddr) = ([10, 0, 0, 1].into(), [10, 0, 0, 2].into());
        let t = Instant::now();
        let mut b = AddressBuckets::new(2, Duration::from_secs(10));
        assert!(b.has(ip, t));
        assert!(b.take(ip, t) && b.take(ip, t));
        assert!(!b.has(ip, t) && !b.take(ip, t));
        assert!(b.take(other, t), "buckets are per address");
        assert!(b.take(ip, t + Duration::from_secs(10)));
        assert!(!b.take(ip, t + Duration::from_secs(11)));
        assert!(b.has(ip, t + Duration::from_secs(30)), "refilled while nobody asked");
        let mut off = AddressBuckets::per_minute(0);
        assert!(!off.limits() && (0..1000).all(|_| off.take(ip, t)));
    }
}
