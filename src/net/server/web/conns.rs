//! The connection caps: in all and per remote address. A connection over either is closed at
//! accept (before a byte is read); one under both holds a [`ConnSlot`] until it ends.

use super::counters::WebCounters;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

/// Open connections, in all and by address.
pub struct ConnTable {
    max: usize,
    per_address: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
    counters: Arc<WebCounters>,
}

/// One open connection's place; given back when dropped.
pub struct ConnSlot {
    table: Arc<ConnTable>,
    ip: IpAddr,
}

impl ConnTable {
    pub fn new(max: usize, per_address: usize, counters: Arc<WebCounters>) -> Arc<Self> {
        Arc::new(ConnTable { max, per_address, open: Mutex::new(HashMap::new()), counters })
    }

    /// A place for a new connection from `ip`, or None (counted) when a cap is reached.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Option<ConnSlot> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if self.counters.open.load(Ordering::SeqCst) as usize >= self.max {
            WebCounters::bump(&self.counters.refused_max_connections);
            return None;
        }
        let n = open.entry(ip).or_insert(0);
        if *n >= self.per_address {
            WebCounters::bump(&self.counters.refused_per_address);
            return None;
        }
        *n += 1;
        self.counters.open.fetch_add(1, Ordering::SeqCst);
        WebCounters::bump(&self.counters.accepted);
        Some(ConnSlot { table: self.clone(), ip })
    }
}

impl Drop for ConnSlot {
    fn drop(&mut self) {
        let mut open = self.table.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
        self.table.counters.open.fetch_sub(1, Ordering::SeqCst);
    }
}
