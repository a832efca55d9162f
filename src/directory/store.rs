//! Where the directory keeps its entries, behind one trait: in this process
//! ([`super::memory::MemoryStore`], the default) or in Redis ([`super::redis_store::RedisStore`],
//! `--redis URL`, shared by every directory process on it). Every entry, its address and each
//! of its room codes expire together `ttl` after the last heartbeat. Calls block (Redis is a
//! socket round trip): the service runs them on the runtime's blocking pool.

use crate::net::wire::directory::{RoomEntry, ServerEntry};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// One server as stored: its listing and the secret that may renew it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerRecord {
    pub id: String,
    pub secret: String,
    pub address: String,
    pub name: String,
    pub region: String,
    pub protocol: u64,
    pub capacity: u32,
    pub rooms: Vec<RoomEntry>,
    /// Its last announce said it drains: kept alive, offered to nobody (absent in records
    /// written before drains existed).
    #[serde(default)]
    pub draining: bool,
    /// The Agones GameServer its announces name (absent outside a fleet, and in older records).
    #[serde(default)]
    pub game_server: Option<String>,
}

impl ServerRecord {
    /// The listing of this server: its public rooms only.
    pub fn entry(&self) -> ServerEntry {
        ServerEntry {
            id: self.id.clone(),
            address: self.address.clone(),
            name: self.name.clone(),
            region: self.region.clone(),
            protocol: self.protocol,
            capacity: self.capacity,
            players: self.rooms.iter().map(|r| u32::from(r.seats_taken)).sum(),
            rooms: self.rooms.len() as u32,
            public_rooms: self.rooms.iter().filter(|r| r.public).cloned().collect(),
            game_server: self.game_server.clone(),
        }
    }

    pub fn holds(&self, code: &str) -> bool {
        self.rooms.iter().any(|r| r.code == code)
    }
}

/// The store did not answer (Redis down, a timeout, a reply that is not ours).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("store: {0}")]
pub struct StoreError(pub String);

/// The directory's state, wherever it lives.
pub trait Store: Send + Sync {
    /// The live entry `id`.
    fn get(&self, id: &str) -> Result<Option<ServerRecord>, StoreError>;
    /// The id of the live entry at `address`.
    fn holder_of_address(&self, address: &str) -> Result<Option<String>, StoreError>;
    /// Writes `record` (renewing its address and codes for `ttl`). Each room code another live
    /// server holds is left out of the stored record; those codes are returned.
    fn put(&self, record: &ServerRecord, ttl: Duration) -> Result<Vec<String>, StoreError>;
    /// Every live entry, by id.
    fn list(&self) -> Result<Vec<ServerRecord>, StoreError>;
    /// The live entry holding room `code`.
    fn resolve(&self, code: &str) -> Result<Option<ServerRecord>, StoreError>;
    /// Whether the store answers (`/readyz`).
    fn ping(&self) -> Result<(), StoreError>;
}
