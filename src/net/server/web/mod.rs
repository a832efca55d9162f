//! The web port: one TCP listener, served by hyper on a small tokio runtime of its own thread,
//! for the JSON API (handed to the server worlds over a channel, [`call::ApiCall`]), static
//! files of `--web-root`, the WebSocket relay on `/ws`, and the health and metrics probes.
//! Every connection is a task, not a thread, and is held to deadlines and caps
//! (docs/NETWORK.md, "The web port"); what was refused is counted in [`WebCounters`].
//!
//! Files, one idea each: [`config`] (settings and limits), [`server`] (accept loop and
//! per-connection deadlines), [`conns`] (connection caps), [`stall`] (write deadline),
//! [`service`] (routing and request checks), [`api`] (typed bodies and named errors),
//! [`answer`] (a named error as a JSON answer), [`board`] (the results board's routes, with CORS), [`board_page`] (`/board`, the board as a page), [`buckets`] (per-address rates),
//! [`call`] (the world channel's message), [`router`] (which shard answers), [`quota`] (room
//! creation per address), [`origin`] (the Origin allow-list), [`relay`] (WebSocket ↔ UDP),
//! [`files`] (which file, which representation), [`encoding`] (`Accept-Encoding`), [`etag`]
//! (validators), [`file_response`] (the response, 304 or streamed by [`body`]), [`counters`],
//! [`fds`] (descriptor limit).

pub mod answer;
pub mod api;
pub mod board;
pub mod board_page;
pub mod body;
pub mod buckets;
pub mod call;
pub mod config;
pub mod conns;
pub mod counters;
pub mod encoding;
pub mod etag;
pub mod fds;
pub mod file_response;
pub mod files;
pub mod origin;
pub mod quota;
pub mod relay;
pub mod relay_slots;
pub mod router;
pub mod server;
pub mod service;
pub mod stall;

pub use call::ApiCall;
pub use config::{WebConfig, WebLimits};
pub use counters::WebCounters;

use crate::net::wire::error::NetError;
use bevy::prelude::Resource;
use std::net::SocketAddr;
use std::sync::mpsc::Sender;
use std::sync::{Arc, RwLock};
use tokio::sync::oneshot;

/// The running web port; dropping it stops the listener and ends every connection.
#[derive(Resource)]
pub struct HttpHandle {
    /// Where the web port listens.
    pub addr: SocketAddr,
    /// What it refused, and the open connections and relays.
    pub counters: Arc<WebCounters>,
    udp: Arc<RwLock<Vec<SocketAddr>>>,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl HttpHandle {
    /// The netcode servers relays lead to (one per shard); until set, an upgrade gets 503.
    pub fn set_udp(&self, udp: &[SocketAddr]) {
        if let Ok(mut w) = self.udp.write() {
            *w = udp.iter().copied().map(relay::reachable).collect();
        }
    }

    /// WebSocket relays open now.
    pub fn relays(&self) -> u64 {
        self.counters.relays_open.load(std::sync::atomic::Ordering::SeqCst)
    }
}

impl Drop for HttpHandle {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// How long stopping waits for file reads in flight on the runtime's blocking threads.
const STOP_WAIT: std::time::Duration = std::time::Duration::from_secs(1);
/// Threads for file reads and stats (tokio's blocking pool).
const FILE_THREADS: usize = 4;

/// Binds the web port at `addr` and serves it for `shards` (one world each, see
/// [`router::Router`]). Relays lead nowhere until [`HttpHandle::set_udp`] names the shards'
/// netcode servers. Returns the bound address.
pub fn start_router(
    addr: SocketAddr,
    shards: Vec<Sender<ApiCall>>,
    web: WebConfig,
) -> Result<(SocketAddr, HttpHandle), NetError> {
    fds::raise_nofile();
    let listener = std::net::TcpListener::bind(addr)
        .map_err(|source| NetError::Bind { what: format!("web bind {addr}"), source })?;
    let bound = listener.local_addr()?;
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .max_blocking_threads(FILE_THREADS)
        .thread_name("undercooked-web-files")
        .build()
        .map_err(NetError::io("web runtime"))?;
    let counters = Arc::new(WebCounters::default());
    let udp = Arc::new(RwLock::new(Vec::new()));
    let limits = &web.limits;
    let quota =
        quota::RoomQuota::new(limits.rooms_per_address, limits.room_burst, limits.room_refill);
    let origins = origin::Origins::new(bound.port(), addr.ip(), &web.public_hosts, &web.origins);
    let shared = Arc::new(service::Shared {
        router: router::Router::new(shards, quota, counters.clone()),
        origins,
        counters: counters.clone(),
        udp: udp.clone(),
        relays: relay_slots::RelayTable::new(
            web.max_relays,
            web.relays_per_address,
            counters.clone(),
        ),
        cfg: web,
    });
    let (stop, stopped) = oneshot::channel();
    let thread = std::thread::Builder::new()
        .name("undercooked-web".into())
        .spawn(move || {
            runtime.block_on(async move {
                if let Some(a) = shared.cfg.announce.clone() {
                    tokio::spawn(crate::net::server::announce::run(a, shared.clone(), bound));
                }
                match tokio::net::TcpListener::from_std(listener) {
                    Ok(l) => server::serve(l, shared, stopped).await,
                    Err(e) => bevy::log::error!(error = %e, "web port: listener"),
                }
            });
            runtime.shutdown_timeout(STOP_WAIT);
        })
        .map_err(|e| NetError::Thread(e.to_string()))?;
    let handle = HttpHandle { addr: bound, counters, udp, stop: Some(stop), thread: Some(thread) };
    Ok((bound, handle))
}
