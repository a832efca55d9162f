//! The web port's accept loop: each connection, once under the caps ([`super::conns`]), is one
//! task serving HTTP/1 with hyper, with an absolute deadline for each request head (which is
//! also the keep-alive idle limit), bounded head sizes, a write-stall deadline
//! ([`super::stall`]) and upgrades for the relay. Also the periodic pruning of the router.
//! The loop itself ([`accept_loop`]) serves the directory service's port too.

use super::body::WebBody;
use super::config::WebLimits;
use super::conns::{ConnSlot, ConnTable};
use super::counters::WebCounters;
use super::router::PRUNE_EVERY;
use super::service::{Shared, handle};
use super::stall::StallGuard;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

/// The largest request head (request line and headers); over it: 431.
const MAX_HEAD: usize = 8 * 1024;
/// What hyper may buffer per connection, either way: a file chunk ([`super::body`]) fits.
const MAX_BUFFER: usize = 64 * 1024;
/// After an accept error (out of descriptors, say), the loop waits this long before the next.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Serves `listener` until `stop` fires (or its sender is dropped).
pub async fn serve(listener: TcpListener, shared: Arc<Shared>, stop: oneshot::Receiver<()>) {
    let pruner = {
        let shared = shared.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(PRUNE_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                shared.router.prune().await;
            }
        })
    };
    let (limits, counters) = (shared.cfg.limits.clone(), shared.counters.clone());
    accept_loop(listener, &limits, counters, stop, move |req, peer, slot| {
        handle(req, shared.clone(), peer, slot)
    })
    .await;
    pruner.abort();
}

/// Accepts connections on `listener` until `stop` fires, under `limits`' caps and deadlines,
/// each served by `answer` (the request, its peer, and the connection's place, which an
/// upgraded connection keeps): the game server's web port and the directory's both run here.
pub async fn accept_loop<F, Fut>(
    listener: TcpListener,
    limits: &WebLimits,
    counters: Arc<WebCounters>,
    mut stop: oneshot::Receiver<()>,
    answer: F,
) where
    F: Fn(Request<Incoming>, SocketAddr, Arc<ConnSlot>) -> Fut + Clone + Send + 'static,
    Fut: Future<Output = Result<Response<WebBody>, Infallible>> + Send + 'static,
{
    let conns = ConnTable::new(limits.max_connections, limits.per_address, counters.clone());
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.head)
        .max_header_size(MAX_HEAD)
        .max_buf_size(MAX_BUFFER)
        .max_headers(64)
        // A client may shut its write half once its request is sent (curl --no-keepalive,
        // netcat, the fuzzer) and still gets its answer; the head deadline still bounds it.
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
        // Over a cap: dropped here, closed before a byte is read.
        // Shared with a relay the connection becomes, which keeps counting against the caps.
        let Some(slot) = conns.admit(peer.ip()).map(Arc::new) else { continue };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(StallGuard::new(stream, limits.write_stall, counters.clone()));
        let (http, answer, counters) = (http.clone(), answer.clone(), counters.clone());
        tokio::spawn(async move {
            let service = service_fn(move |req| answer(req, peer, slot.clone()));
            if let Err(e) = http.serve_connection(io, service).with_upgrades().await
                && e.is_timeout()
            {
                WebCounters::bump(&counters.head_timeouts);
            }
        });
    }
}
