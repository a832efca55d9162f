//! One Redis connection behind a lock, opened on first use and opened again after any error:
//! a Redis that went away gives errors until it is back, with no restart of ours. Shared by
//! the board's store (`redis_board`) and the directory's (`directory::redis_store`).

use redis::{Client, Connection, RedisResult};
use std::sync::Mutex;
use std::time::Duration;

/// A client and its one connection; `wait` bounds connecting and each reply.
pub struct RedisLink {
    client: Client,
    conn: Mutex<Option<Connection>>,
    wait: Duration,
}

impl RedisLink {
    /// A link to `url` (`redis://HOST:PORT/DB`); the URL is checked here, the server is first
    /// reached by the first call.
    pub fn open(url: &str, wait: Duration) -> RedisResult<Self> {
        Ok(RedisLink { client: Client::open(url)?, conn: Mutex::new(None), wait })
    }

    /// Runs `f` on the connection (opening it first if needed); an error drops the connection
    /// so the next call opens a fresh one.
    pub fn with<T>(&self, f: impl FnOnce(&mut Connection) -> RedisResult<T>) -> RedisResult<T> {
        let mut slot = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        let conn = match slot.as_mut() {
            Some(conn) => conn,
            None => {
                let c = self.client.get_connection_with_timeout(self.wait)?;
                c.set_read_timeout(Some(self.wait))?;
                c.set_write_timeout(Some(self.wait))?;
                slot.insert(c)
            }
        };
        let out = f(conn);
        if out.is_err() {
            *slot = None;
        }
        out
    }
}
