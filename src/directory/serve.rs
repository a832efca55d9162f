//! The directory's port: one TCP listener served by hyper on a tokio runtime of its own thread,
//! through the game server's own accept loop (`net::web::server::accept_loop`): the same
//! connection caps at accept, request-head deadline and size, write-stall deadline, and
//! connection counters.

use super::service::{DirShared, handle};
use crate::net::server::web::WebLimits;
use crate::net::server::web::server::accept_loop;
use crate::net::wire::error::NetError;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

/// Threads for store calls (Redis round trips) and probes' sockets.
const STORE_THREADS: usize = 8;

/// The running directory; dropping it stops the listener.
pub struct DirectoryHandle {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl DirectoryHandle {
    /// Waits until the listener's thread ends (after [`DirectoryHandle::stop`]).
    pub fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for DirectoryHandle {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }
}

/// Binds `addr` and serves the directory on it.
pub fn start(
    addr: SocketAddr,
    shared: DirShared,
    limits: WebLimits,
) -> Result<DirectoryHandle, NetError> {
    let listener = std::net::TcpListener::bind(addr)
        .map_err(|source| NetError::Bind { what: format!("directory bind {addr}"), source })?;
    let bound = listener.local_addr()?;
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .max_blocking_threads(STORE_THREADS)
        .thread_name("undercooked-directory-store")
        .build()
        .map_err(NetError::io("directory runtime"))?;
    let shared = Arc::new(shared);
    let (stop, stopped) = oneshot::channel();
    let thread = std::thread::Builder::new()
        .name("undercooked-directory".into())
        .spawn(move || {
            runtime.block_on(async move {
                match TcpListener::from_std(listener) {
                    Ok(l) => {
                        let web = shared.web.clone();
                        accept_loop(l, &limits, web, stopped, move |req, peer, _| {
                            handle(req, shared.clone(), peer)
                        })
                        .await
                    }
                    Err(e) => bevy::log::error!(error = %e, "directory: listener"),
                }
            });
            runtime.shutdown_timeout(Duration::from_secs(1));
        })
        .map_err(|e| NetError::Thread(e.to_string()))?;
    Ok(DirectoryHandle { addr: bound, stop: Some(stop), thread: Some(thread) })
}
