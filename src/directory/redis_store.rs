//! The Redis store (`--redis URL`): every directory process on one Redis shares its entries,
//! and a restarted directory finds them still there. Keys, each with the entry's TTL (Redis
//! expires them, so no clock of ours is involved):
//!
//! - `undercooked:dir:server:ID` → the [`ServerRecord`] as JSON
//! - `undercooked:dir:addr:HOST:PORT` → ID (who holds an address)
//! - `undercooked:dir:code:CODE` → ID (who holds a room code: `SET NX` makes it first-come)
//! - `undercooked:dir:servers`, a set of IDs (no TTL; an ID whose record expired is dropped
//!   from it when listed)
//!
//! One connection, behind a lock, opened again after any error: a Redis that went away gives
//! [`StoreError`]s (the service's named 503s) until it is back, with no restart of ours.

use super::store::{ServerRecord, Store, StoreError};
use crate::board::redis_link::RedisLink;
use redis::{Cmd, Connection, FromRedisValue, cmd};
use std::time::Duration;

const PREFIX: &str = "undercooked:dir:";
/// How long connecting, and each reply, may take before the call fails.
const REDIS_WAIT: Duration = Duration::from_secs(1);

fn key(kind: &str, name: &str) -> String {
    format!("{PREFIX}{kind}:{name}")
}

fn fail(e: impl std::fmt::Display) -> StoreError {
    StoreError(e.to_string())
}

/// [`Store`] on a Redis server.
pub struct RedisStore {
    link: RedisLink,
}

impl RedisStore {
    /// A store on `url` (`redis://HOST:PORT/DB`); the URL is checked here, the server is first
    /// reached by the first call.
    pub fn open(url: &str) -> Result<Self, StoreError> {
        Ok(RedisStore { link: RedisLink::open(url, REDIS_WAIT).map_err(fail)? })
    }

    /// Runs `f` on the connection (opening it first if needed); an error drops the connection
    /// so the next call opens a fresh one.
    fn with<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> redis::RedisResult<T>,
    ) -> Result<T, StoreError> {
        self.link.with(f).map_err(fail)
    }
}

fn run<T: FromRedisValue>(c: &mut Connection, command: &Cmd) -> redis::RedisResult<T> {
    command.query(c)
}

fn record_at(c: &mut Connection, id: &str) -> redis::RedisResult<Option<ServerRecord>> {
    let text: Option<String> = run(c, cmd("GET").arg(key("server", id)))?;
    // A value that is not a record (written by something else) is no entry.
    Ok(text.and_then(|t| serde_json::from_str(&t).ok()))
}

impl Store for RedisStore {
    fn get(&self, id: &str) -> Result<Option<ServerRecord>, StoreError> {
        self.with(|c| record_at(c, id))
    }

    fn holder_of_address(&self, address: &str) -> Result<Option<String>, StoreError> {
        self.with(|c| {
            let id: Option<String> = run(c, cmd("GET").arg(key("addr", address)))?;
            let Some(id) = id else { return Ok(None) };
            Ok(record_at(c, &id)?.filter(|r| r.address == address).map(|r| r.id))
        })
    }

    fn put(&self, record: &ServerRecord, ttl: Duration) -> Result<Vec<String>, StoreError> {
        let ms = ttl.as_millis().max(1) as u64;
        self.with(|c| {
            let mut kept = record.clone();
            let mut taken = Vec::new();
            kept.rooms.clear();
            for room in &record.rooms {
                let k = key("code", &room.code);
                let set: Option<String> =
                    run(c, cmd("SET").arg(&k).arg(&record.id).arg("NX").arg("PX").arg(ms))?;
                let free = match set {
                    Some(_) => true,
                    None => {
                        let holder: Option<String> = run(c, cmd("GET").arg(&k))?;
                        match holder {
                            Some(id) if id == record.id => true,
                            // A code whose holder no longer lists the room (or expired since
                            // the SET) is free again.
                            Some(id) => !record_at(c, &id)?.is_some_and(|r| r.holds(&room.code)),
                            None => true,
                        }
                    }
                };
                if free {
                    let _: () = run(c, cmd("SET").arg(&k).arg(&record.id).arg("PX").arg(ms))?;
                    kept.rooms.push(room.clone());
                } else {
                    taken.push(room.code.clone());
                }
            }
            let text = serde_json::to_string(&kept).map_err(|e| {
                redis::RedisError::from((redis::ErrorKind::Client, "encode", e.to_string()))
            })?;
            let _: () =
                run(c, cmd("SET").arg(key("server", &record.id)).arg(text).arg("PX").arg(ms))?;
            let _: () = run(
                c,
                cmd("SET").arg(key("addr", &record.address)).arg(&record.id).arg("PX").arg(ms),
            )?;
            let _: i64 = run(c, cmd("SADD").arg(format!("{PREFIX}servers")).arg(&record.id))?;
            Ok(taken)
        })
    }

    fn list(&self) -> Result<Vec<ServerRecord>, StoreError> {
        self.with(|c| {
            let set = format!("{PREFIX}servers");
            let mut ids: Vec<String> = run(c, cmd("SMEMBERS").arg(&set))?;
            ids.sort();
            let mut out = Vec::new();
            for id in ids {
                match record_at(c, &id)? {
                    Some(r) => out.push(r),
                    None => {
                        let _: i64 = run(c, cmd("SREM").arg(&set).arg(&id))?;
                    }
                }
            }
            Ok(out)
        })
    }

    fn resolve(&self, code: &str) -> Result<Option<ServerRecord>, StoreError> {
        self.with(|c| {
            let id: Option<String> = run(c, cmd("GET").arg(key("code", code)))?;
            let Some(id) = id else { return Ok(None) };
            Ok(record_at(c, &id)?.filter(|r| r.holds(code)))
        })
    }

    fn ping(&self) -> Result<(), StoreError> {
        self.with(|c| run::<String>(c, &cmd("PING")).map(drop))
    }
}
