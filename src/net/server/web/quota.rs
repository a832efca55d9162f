//! Room creation per IP address: a token bucket (a burst, refilled one room at a time) and a
//! cap on the live rooms an address created. Kept by the router, which sees every shard's
//! creates and learns of closed rooms when it prunes its code table.

use super::api::ApiError;
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

/// The limits and each address's state.
#[derive(Debug)]
pub struct RoomQuota {
    per_address: usize,
    burst: u32,
    refill: Duration,
    buckets: HashMap<IpAddr, Bucket>,
    /// Creates admitted but not answered yet, per address (they count as live rooms).
    pending: HashMap<IpAddr, usize>,
}

impl RoomQuota {
    /// `per_address` 0 or `burst` 0 turns that limit off.
    pub fn new(per_address: usize, burst: u32, refill: Duration) -> Self {
        RoomQuota {
            per_address,
            burst,
            refill: refill.max(Duration::from_millis(1)),
            buckets: HashMap::new(),
            pending: HashMap::new(),
        }
    }

    /// Admits one create by `ip`, which has `live` rooms now, or names the limit it hit.
    /// An admitted create must be ended with [`RoomQuota::done`].
    pub fn admit(&mut self, ip: IpAddr, live: usize, now: Instant) -> Result<(), ApiError> {
        let pending = self.pending.get(&ip).copied().unwrap_or(0);
        if self.per_address > 0 && live + pending >= self.per_address {
            return Err(ApiError::RoomsPerAddress);
        }
        if self.burst > 0 {
            let (burst, refill) = (self.burst, self.refill);
            if self.buckets.len() >= TRACKED {
                self.buckets.retain(|_, b| Self::level(b, burst, refill, now) < burst);
            }
            let b = self.buckets.entry(ip).or_insert(Bucket { tokens: burst, refill_at: now });
            if Self::level(b, burst, refill, now) == 0 {
                return Err(ApiError::RoomRateLimit);
            }
            if b.tokens == burst {
                b.refill_at = now + refill;
            }
            b.tokens -= 1;
        }
        *self.pending.entry(ip).or_insert(0) += 1;
        Ok(())
    }

    /// Ends an admitted create (answered, whichever way).
    pub fn done(&mut self, ip: IpAddr) {
        if let Some(n) = self.pending.get_mut(&ip) {
            *n -= 1;
            if *n == 0 {
                self.pending.remove(&ip);
            }
        }
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
    fn a_burst_then_one_per_refill_and_a_live_cap() {
        let ip: IpAddr = [10, 0, 0, 1].into();
        let other: IpAddr = [10, 0, 0, 2].into();
        let t = Instant::now();
        let mut q = RoomQuota::new(0, 2, Duration::from_secs(10));
        assert_eq!(q.admit(ip, 0, t), Ok(()));
        assert_eq!(q.admit(ip, 0, t), Ok(()));
        assert_eq!(q.admit(ip, 0, t), Err(ApiError::RoomRateLimit));
        assert_eq!(q.admit(other, 0, t), Ok(()), "buckets are per address");
        assert_eq!(q.admit(ip, 0, t + Duration::from_secs(10)), Ok(()));
        assert_eq!(q.admit(ip, 0, t + Duration::from_secs(11)), Err(ApiError::RoomRateLimit));
        let mut q = RoomQuota::new(2, 0, Duration::ZERO);
        assert_eq!(q.admit(ip, 1, t), Ok(()));
        assert_eq!(q.admit(ip, 1, t), Err(ApiError::RoomsPerAddress), "a pending create counts");
        q.done(ip);
        assert_eq!(q.admit(ip, 1, t), Ok(()));
    }
}
