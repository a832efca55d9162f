//! The in-process store: three maps behind one lock, each value with its deadline (wall clock
//! is fine here: the directory is no part of the simulation). What this process knows dies
//! with it; `--redis` is the store that outlives a restart.

use super::store::{ServerRecord, Store, StoreError};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Default)]
struct Maps {
    servers: HashMap<String, (ServerRecord, Instant)>,
    /// Room code → (server id, deadline).
    codes: HashMap<String, (String, Instant)>,
    /// Address → (server id, deadline).
    addresses: HashMap<String, (String, Instant)>,
}

impl Maps {
    /// Drops everything past its deadline.
    fn expire(&mut self, now: Instant) {
        self.servers.retain(|_, (_, d)| *d > now);
        self.codes.retain(|_, (_, d)| *d > now);
        self.addresses.retain(|_, (_, d)| *d > now);
    }
}

/// [`Store`] in this process.
#[derive(Default)]
pub struct MemoryStore {
    maps: Mutex<Maps>,
}

impl MemoryStore {
    fn maps(&self) -> std::sync::MutexGuard<'_, Maps> {
        let mut m = self.maps.lock().unwrap_or_else(|p| p.into_inner());
        m.expire(Instant::now());
        m
    }
}

impl Store for MemoryStore {
    fn get(&self, id: &str) -> Result<Option<ServerRecord>, StoreError> {
        Ok(self.maps().servers.get(id).map(|(r, _)| r.clone()))
    }

    fn holder_of_address(&self, address: &str) -> Result<Option<String>, StoreError> {
        let m = self.maps();
        Ok(m.addresses
            .get(address)
            .map(|(id, _)| id.clone())
            .filter(|id| m.servers.get(id).is_some_and(|(r, _)| r.address == address)))
    }

    fn put(&self, record: &ServerRecord, ttl: Duration) -> Result<Vec<String>, StoreError> {
        let deadline = Instant::now() + ttl;
        let mut m = self.maps();
        let mut kept = record.clone();
        let mut taken = Vec::new();
        kept.rooms.retain(|room| {
            let holder = m.codes.get(&room.code).map(|(id, _)| id.clone());
            let free = match holder {
                None => true,
                Some(id) if id == record.id => true,
                // A code whose holder no longer lists the room is free again.
                Some(id) => !m.servers.get(&id).is_some_and(|(r, _)| r.holds(&room.code)),
            };
            if free {
                m.codes.insert(room.code.clone(), (record.id.clone(), deadline));
            } else {
                taken.push(room.code.clone());
            }
            free
        });
        m.addresses.insert(record.address.clone(), (record.id.clone(), deadline));
        m.servers.insert(record.id.clone(), (kept, deadline));
        Ok(taken)
    }

    fn list(&self) -> Result<Vec<ServerRecord>, StoreError> {
        let mut all: Vec<ServerRecord> =
            self.maps().servers.values().map(|(r, _)| r.clone()).collect();
        all.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(all)
    }

    fn resolve(&self, code: &str) -> Result<Option<ServerRecord>, StoreError> {
        let m = self.maps();
        Ok(m.codes
            .get(code)
            .and_then(|(id, _)| m.servers.get(id))
            .map(|(r, _)| r.clone())
            .filter(|r| r.holds(code)))
    }

    fn ping(&self) -> Result<(), StoreError> {
        Ok(())
    }
}
