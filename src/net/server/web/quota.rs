//! Room creation per IP address: a token bucket (a burst, refilled one room at a time,
//! [`super::buckets`]) and a cap on the live rooms an address created. Kept by the router, which sees every shard's
//! creates and learns of closed rooms when it prunes its code table.

use super::api::ApiError;
use super::buckets::AddressBuckets;
use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// The limits and each address's state.
#[derive(Debug)]
pub struct RoomQuota {
    per_address: usize,
    buckets: AddressBuckets,
    /// Creates admitted but not answered yet, per address (they count as live rooms).
    pending: HashMap<IpAddr, usize>,
}

impl RoomQuota {
    /// `per_address` 0 or `burst` 0 turns that limit off.
    pub fn new(per_address: usize, burst: u32, refill: Duration) -> Self {
        RoomQuota {
            per_address,
            buckets: AddressBuckets::new(burst, refill),
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
        if !self.buckets.take(ip, now) {
            return Err(ApiError::RoomRateLimit);
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
