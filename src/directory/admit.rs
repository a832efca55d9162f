//! An announce, once its body passed [`super::check`]: who may write the entry, whether the
//! claimed address answers, and the write. A new entry (or a new address for one) is listed
//! only after [`super::probe`] reached the server's web port there; an entry is renewed only
//! with its secret (or the directory's fleet secret); a new entry may not take an address a
//! live entry holds; and the claimed address must be the sender's own IP, so a server cannot
//! be listed from elsewhere under someone else's name (a fleet secret lifts both of those).

use super::error::{DirError, DirRefusal};
use super::probe::probe;
use super::store::{ServerRecord, Store, StoreError};
use crate::net::wire::directory::{Announce, Announced, RefusedRoom};
use crate::net::wire::tokens::new_secret;
use crate::replay::hex::hex_bytes as hex;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// What every announce is judged against.
pub struct Admission {
    pub store: Arc<dyn Store>,
    pub ttl: Duration,
    /// `--fleet-secret`: the operator's own servers.
    pub fleet: Option<String>,
}

/// Runs a store call on the blocking pool; a store that fails is the named 503.
pub async fn blocking<T: Send + 'static>(
    store: &Arc<dyn Store>,
    f: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, DirRefusal> {
    let store = store.clone();
    match tokio::task::spawn_blocking(move || f(store.as_ref())).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(DirRefusal::new(DirError::StoreUnavailable, e.to_string())),
        Err(e) => Err(DirRefusal::new(DirError::StoreUnavailable, format!("store call: {e}"))),
    }
}

/// Equal without an early exit on the first differing byte (the secret is guessed byte by
/// byte otherwise).
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

impl Admission {
    /// Judges and writes one announce from `peer`, whose body passed the checks and claims
    /// `addr`.
    pub async fn announce(
        &self,
        a: Announce,
        addr: SocketAddr,
        peer: IpAddr,
    ) -> Result<Announced, DirRefusal> {
        let fleet = match (&a.fleet, &self.fleet) {
            (None, _) => false,
            (Some(given), Some(ours)) if same_secret(given, ours) => true,
            (Some(_), _) => {
                return Err(DirRefusal::new(DirError::BadFleetSecret, "not this directory's"));
            }
        };
        if !fleet && addr.ip() != peer {
            return Err(DirRefusal::new(
                DirError::BadAddress,
                format!("address {addr}: a server announces its own address (sent from {peer})"),
            ));
        }
        let existing = match a.id.clone() {
            Some(id) => blocking(&self.store, move |s| s.get(&id)).await?,
            None => None,
        };
        if let (Some(rec), Some(secret)) = (&existing, &a.secret)
            && !fleet
            && !same_secret(&rec.secret, secret)
        {
            return Err(DirRefusal::new(DirError::BadSecret, "not this entry's secret"));
        }
        let created = a.id.is_none();
        let (id, secret) = match (&a.id, &a.secret) {
            (Some(id), Some(secret)) => (id.clone(), secret.clone()),
            _ => (hex(&new_secret()), hex(&new_secret())),
        };
        let moved = existing.as_ref().is_none_or(|r| r.address != a.address);
        if moved {
            let address = a.address.clone();
            let holder = blocking(&self.store, move |s| s.holder_of_address(&address)).await?;
            if holder.is_some_and(|h| h != id) && !fleet {
                return Err(DirRefusal::new(
                    DirError::AddressTaken,
                    format!("a live entry holds {addr}: renew it with its secret"),
                ));
            }
            probe(addr).await.map_err(|e| DirRefusal::new(DirError::Unreachable, e.to_string()))?;
        }
        let record = ServerRecord {
            id: id.clone(),
            secret: existing.map(|r| r.secret).unwrap_or_else(|| secret.clone()),
            address: a.address,
            name: a.name,
            region: a.region,
            protocol: a.protocol,
            capacity: a.capacity,
            rooms: a.rooms,
            draining: a.draining,
            game_server: a.game_server,
        };
        let ttl = self.ttl;
        let taken = blocking(&self.store, move |s| s.put(&record, ttl)).await?;
        Ok(Announced {
            id,
            secret: created.then_some(secret),
            ttl_secs: self.ttl.as_secs(),
            refused: taken
                .into_iter()
                .map(|code| RefusedRoom { code, error: DirError::CodeTaken.to_string() })
                .collect(),
        })
    }
}
