//! The directory's port: one TCP listener served by hyper on a tokio runtime of its own thread,
//! with the game server's web-port guards (`net::web`): the connection caps at accept, the
//! request-head deadline and size, the write-stall deadline, and the same connection counters.

use super::service::{DirShared, handle};
use crate::net::server::web::WebLimits;
use crate::net::server::web::conns::ConnTable;
use crate::net::server::web::counters::WebCounters;
use crate::net::server::web::stall::StallGuard;
use crate::net::wire::error::NetError;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

/// The largest request head; over it: 431 (as on the game server's web port).
const MAX_HEAD: usize = 8 * 1024;
/// After an accept error (out of descriptors, say), the loop waits this long before the next.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);
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
                    Ok(l) => serve(l, shared, limits, stopped).await,
                    Err(e) => bevy::log::error!(error = %e, "directory: listener"),
                }
            });
            runtime.shutdown_timeout(Duration::from_secs(1));
        })
        .map_err(|e| NetError::Thread(e.to_string()))?;
    Ok(DirectoryHandle { addr: bound, stop: Some(stop), thread: Some(thread) })
}

async fn serve(
    listener: TcpListener,
    shared: Arc<DirShared>,
    limits: WebLimits,
    mut stop: oneshot::Receiver<()>,
) {
    let conns = ConnTable::new(limits.max_connections, limits.per_address, shared.web.clone());
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.head)
        .max_header_size(MAX_HEAD)
        .max_headers(64)
        .half_close(true);
    loop {
        let accepted = tokio::select! {
            _ = &mut stop => break,
            a = listener.accept() => a,
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(_) => {
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        let Some(slot) = conns.admit(peer.ip()) else { continue };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(StallGuard::new(stream, limits.write_stall, shared.web.clone()));
        let (http, shared) = (http.clone(), shared.clone());
        tokio::spawn(async move {
            let counters = shared.web.clone();
            let service = service_fn(move |req| handle(req, shared.clone(), peer));
            if let Err(e) = http.serve_connection(io, service).await
                && e.is_timeout()
            {
                WebCounters::bump(&counters.head_timeouts);
            }
            drop(slot);
        });
    }
}
