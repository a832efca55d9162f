//! The relays' places: at most `max_relays` open at once and at most `per_address` from one IP
//! address, so one address cannot take every relay and lock browser players out. Asked before
//! the upgrade (a refusal names the limit met) and taken once the handshake completed (two
//! upgrades racing for the last place: the later is closed).

use super::api::ApiError;
use super::counters::WebCounters;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

/// Open relays, in all and by address.
pub struct RelayTable {
    max: usize,
    per_address: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
    counters: Arc<WebCounters>,
}

/// One open relay's place; given back when dropped.
pub struct RelaySlot {
    table: Arc<RelayTable>,
    ip: IpAddr,
}

impl RelayTable {
    /// `per_address` 0 turns the per-address cap off.
    pub fn new(max: usize, per_address: usize, counters: Arc<WebCounters>) -> Arc<Self> {
        Arc::new(RelayTable { max, per_address, open: Mutex::new(HashMap::new()), counters })
    }

    /// Whether `ip` may open one more relay now: the limit it would pass, counted, if not.
    pub fn check(&self, ip: IpAddr) -> Result<(), ApiError> {
        let open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        self.refusal(&open, ip).map_or(Ok(()), Err)
    }

    /// Takes a place for `ip`, or names (and counts) the limit met.
    pub fn take(self: &Arc<Self>, ip: IpAddr) -> Result<RelaySlot, ApiError> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(limit) = self.refusal(&open, ip) {
            return Err(limit);
        }
        *open.entry(ip).or_insert(0) += 1;
        self.counters.relays_open.fetch_add(1, Ordering::SeqCst);
        Ok(RelaySlot { table: self.clone(), ip })
    }

    fn refusal(&self, open: &HashMap<IpAddr, usize>, ip: IpAddr) -> Option<ApiError> {
        if self.counters.relays_open.load(Ordering::SeqCst) as usize >= self.max {
            WebCounters::bump(&self.counters.relay_refused);
            return Some(ApiError::RelayLimit);
        }
        if self.per_address > 0 && open.get(&ip).copied().unwrap_or(0) >= self.per_address {
            WebCounters::bump(&self.counters.relay_refused_per_address);
            return Some(ApiError::RelaysPerAddress);
        }
        None
    }
}

impl Drop for RelaySlot {
    fn drop(&mut self) {
        let mut open = self.table.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
        self.table.counters.relays_open.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_address_is_capped_while_another_still_gets_a_place() {
        let counters = Arc::new(WebCounters::default());
        let table = RelayTable::new(4, 2, counters.clone());
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let held = [table.take(a).unwrap(), table.take(a).unwrap()];
        assert_eq!(table.check(a), Err(ApiError::RelaysPerAddress));
        assert!(matches!(table.take(a), Err(ApiError::RelaysPerAddress)));
        let other = [table.take(b).unwrap(), table.take(b).unwrap()];
        // Four open: the total cap is met before anyone's own.
        let c: IpAddr = "127.0.0.3".parse().unwrap();
        assert_eq!(table.check(c), Err(ApiError::RelayLimit));
        drop(held);
        assert!(table.check(a).is_ok(), "closed relays give their places back");
        assert_eq!(counters.relays_open.load(Ordering::SeqCst), 2);
        assert_eq!(counters.relay_refused_per_address.load(Ordering::SeqCst), 2);
        assert_eq!(counters.relay_refused.load(Ordering::SeqCst), 1);
        drop(other);
        assert_eq!(counters.relays_open.load(Ordering::SeqCst), 0);
    }
}
