//! The TCP impairment proxy (the WebSocket path, `ws://`): each connection is forwarded to the
//! server both ways, every chunk delayed by delay + jitter with byte order kept, loss modelled
//! as a retransmission stall, half-closes and closes passed through.
//!
//! TCP cannot drop, duplicate or reorder bytes, so what a lossy, jittery path does to it is
//! lateness: a chunk is delivered at `max(previous chunk's delivery, arrival + delay + jitter)`,
//! and a chunk chosen as lost at `arrival + delay + jitter + max(200 ms, 2 × delay)`, every later
//! chunk waiting behind it (head-of-line blocking). A chunk is what one `read` returned, not a
//! segment, so loss is drawn per chunk.
//!
//! Threads: one accepting; per connection one that connects upstream and four pumps (a reader
//! and a writer per direction, joined by a bounded channel), so a chunk waiting for its time
//! never stops the next one being read.

use super::addr::loopback_any_port;
use super::conditions::Conditions;
use super::direction::{Direction, stream};
use super::stats::{Counters, DirectionCounters, ProxyStats, bump, drop_one};
use crate::sim::rng::SplitMix64;
use bevy::log::{debug, warn};
use rustix::event::{PollFd, PollFlags, Timespec, poll};
use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long connecting to the server may take before the client's connection is closed.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
/// The most bytes one read takes (one chunk).
const CHUNK_BYTES: usize = 16 * 1024;
/// Chunks in flight per direction before the reader stops reading: the sender then feels
/// backpressure as it would from a real TCP window, and memory stays bounded (16 MiB).
const CHANNEL_CHUNKS: usize = 1024;
/// The accept loop's poll period: the longest [`TcpProxy::stop`] waits for it to notice.
const ACCEPT_POLL: Duration = Duration::from_millis(50);
/// A writer waiting for a chunk's delivery time checks the stop flag this often.
const SLEEP_SLICE: Duration = Duration::from_millis(20);

/// A running TCP impairment proxy. Clients connect to [`TcpProxy::local_addr`] instead of the
/// server; each connection gets its own connection upstream. Reordering and duplication do not
/// apply to TCP (the conditions' rates for them are ignored). Stops, closes every connection and
/// joins every thread on [`TcpProxy::stop`] or drop.
pub struct TcpProxy {
    local: SocketAddr,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

/// What every thread of a proxy shares.
struct Shared {
    stop: AtomicBool,
    counters: Counters,
    /// The open connections, by number, so that stopping can close them all.
    links: Mutex<HashMap<u64, Arc<Link>>>,
}

/// One proxied connection's two sockets; the pumps read and write them through `&TcpStream`.
struct Link {
    client: TcpStream,
    server: OnceLock<TcpStream>,
}

impl Link {
    /// Shuts both sockets down both ways: every pump blocked on them wakes and ends.
    fn close(&self) {
        let _ = self.client.shutdown(Shutdown::Both);
        if let Some(server) = self.server.get() {
            let _ = server.shutdown(Shutdown::Both);
        }
    }

    /// (source, destination) of a direction; `None` before the server is connected.
    fn ends(&self, direction: Direction) -> Option<(&TcpStream, &TcpStream)> {
        let server = self.server.get()?;
        Some(match direction {
            Direction::Up => (&self.client, server),
            Direction::Down => (server, &self.client),
        })
    }
}

impl TcpProxy {
    /// A proxy on 127.0.0.1 (an ephemeral port) in front of `upstream`, impairing client →
    /// server bytes with `up` and server → client with `down`; connection *i*'s fates are drawn
    /// from forks of `seed` numbered by accept order.
    pub fn spawn(
        upstream: SocketAddr,
        up: Conditions,
        down: Conditions,
        seed: u64,
    ) -> io::Result<TcpProxy> {
        TcpProxy::bind(loopback_any_port(), upstream, up, down, seed)
    }

    /// As [`TcpProxy::spawn`], listening on `listen`.
    pub fn bind(
        listen: SocketAddr,
        upstream: SocketAddr,
        up: Conditions,
        down: Conditions,
        seed: u64,
    ) -> io::Result<TcpProxy> {
        let listener = TcpListener::bind(listen)?;
        // Nonblocking, polled with a timeout: the loop notices the stop flag without a wake-up
        // connection that might itself fail.
        listener.set_nonblocking(true)?;
        let local = listener.local_addr()?;
        let shared = Arc::new(Shared {
            stop: AtomicBool::new(false),
            counters: Counters::default(),
            links: Mutex::new(HashMap::new()),
        });
        let setup = Setup { upstream, up, down, seed };
        let accept_shared = shared.clone();
        let thread = std::thread::Builder::new()
            .name("impair-tcp".into())
            .spawn(move || accept_loop(&listener, setup, &accept_shared))?;
        Ok(TcpProxy { local, shared, thread: Some(thread) })
    }

    /// Where clients connect.
    pub fn local_addr(&self) -> SocketAddr {
        self.local
    }

    /// The counters so far (a unit is a chunk: what one read returned).
    pub fn stats(&self) -> ProxyStats {
        self.shared.counters.snapshot()
    }

    /// Closes every connection and joins every thread (a connection still connecting upstream
    /// is waited for, at most [`CONNECT_TIMEOUT`]). Idempotent.
    pub fn stop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            warn!("impairment proxy: the TCP accept thread panicked");
        }
    }
}

impl Drop for TcpProxy {
    fn drop(&mut self) {
        self.stop();
    }
}

/// What each connection is forwarded with.
#[derive(Clone, Copy)]
struct Setup {
    upstream: SocketAddr,
    up: Conditions,
    down: Conditions,
    seed: u64,
}

/// Accepts until stopped, then closes every connection and joins its threads.
fn accept_loop(listener: &TcpListener, setup: Setup, shared: &Arc<Shared>) {
    let mut connections: Vec<JoinHandle<()>> = Vec::new();
    let mut number = 0u64;
    while !shared.stop.load(Ordering::SeqCst) {
        if !readable(listener, ACCEPT_POLL) {
            continue;
        }
        match listener.accept() {
            Ok((client, _)) => {
                // Finished connections' handles are dropped here, so a long run keeps none.
                connections.retain(|h| !h.is_finished());
                let id = number;
                number += 1;
                let conn_shared = shared.clone();
                let spawned = std::thread::Builder::new()
                    .name("impair-tcp-conn".into())
                    .spawn(move || connection(id, client, setup, &conn_shared));
                match spawned {
                    Ok(handle) => connections.push(handle),
                    Err(e) => {
                        bump(&shared.counters.up.errors, 1);
                        warn!(error = %e, "impairment proxy: no thread for a connection");
                    }
                }
            }
            Err(e)
                if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted) => {}
            Err(e) => {
                // E.g. out of file descriptors: wait a little rather than spin on it.
                bump(&shared.counters.up.errors, 1);
                warn!(error = %e, "impairment proxy: accept failed");
                std::thread::sleep(ACCEPT_POLL);
            }
        }
    }
    for link in shared.links.lock().unwrap_or_else(PoisonError::into_inner).values() {
        link.close();
    }
    for handle in connections {
        if handle.join().is_err() {
            warn!("impairment proxy: a TCP connection thread panicked");
        }
    }
}

/// True when `listener` has a connection waiting, after at most `timeout`.
fn readable(listener: &TcpListener, timeout: Duration) -> bool {
    let mut fds = [PollFd::new(listener, PollFlags::IN)];
    let timeout = Timespec { tv_sec: timeout.as_secs() as _, tv_nsec: timeout.subsec_nanos() as _ };
    match poll(&mut fds, Some(&timeout)) {
        Ok(n) => n > 0,
        Err(_) => false,
    }
}

/// One connection, from accept to both directions closed.
fn connection(id: u64, client: TcpStream, setup: Setup, shared: &Arc<Shared>) {
    let counters = &shared.counters;
    bump(&counters.sessions, 1);
    bump(&counters.active, 1);
    // The listener is nonblocking; the pumps block.
    let _ = client.set_nonblocking(false);
    // Chunks are timed by the proxy: Nagle's algorithm would add its own wait to small writes.
    let _ = client.set_nodelay(true);
    let link = Arc::new(Link { client, server: OnceLock::new() });
    lock(&shared.links).insert(id, link.clone());
    forward(id, &link, setup, shared);
    lock(&shared.links).remove(&id);
    drop_one(&counters.active);
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Connects upstream, then runs the four pumps until both directions are done.
fn forward(id: u64, link: &Arc<Link>, setup: Setup, shared: &Arc<Shared>) {
    let server = match TcpStream::connect_timeout(&setup.upstream, CONNECT_TIMEOUT) {
        Ok(server) => server,
        Err(e) => {
            bump(&shared.counters.up.errors, 1);
            warn!(upstream = %setup.upstream, error = %e, "impairment proxy: connect failed");
            link.close();
            return;
        }
    };
    let _ = server.set_nodelay(true);
    let _ = link.server.set(server);
    // Registered before this check, so a stop either saw the link (and closed it) or is seen.
    if shared.stop.load(Ordering::SeqCst) {
        link.close();
        return;
    }
    let mut pumps = Vec::with_capacity(4);
    for direction in [Direction::Up, Direction::Down] {
        let conditions = match direction {
            Direction::Up => setup.up,
            Direction::Down => setup.down,
        };
        let (tx, rx) = sync_channel(CHANNEL_CHUNKS);
        let reader = Reader {
            link: link.clone(),
            shared: shared.clone(),
            direction,
            conditions,
            rng: stream(setup.seed, direction, id),
            tx,
        };
        let writer = Writer { link: link.clone(), shared: shared.clone(), direction, rx };
        for (name, pump) in [
            ("impair-tcp-read", Box::new(move || reader.run()) as Box<dyn FnOnce() + Send>),
            ("impair-tcp-write", Box::new(move || writer.run())),
        ] {
            match std::thread::Builder::new().name(name.into()).spawn(pump) {
                Ok(handle) => pumps.push(handle),
                Err(e) => {
                    // The other pumps end once the link is closed (or their channel is).
                    bump(&shared.counters.up.errors, 1);
                    warn!(error = %e, "impairment proxy: no thread for a pump");
                    link.close();
                }
            }
        }
    }
    for pump in pumps {
        if pump.join().is_err() {
            warn!("impairment proxy: a TCP pump panicked");
            link.close();
        }
    }
}

/// What a reader hands its writer, with the time to act on it.
struct Item {
    at: Instant,
    what: What,
}

enum What {
    Data(Vec<u8>),
    /// The source half-closed: half-close the destination.
    Fin,
    /// The source failed (reset): close the whole connection.
    Reset,
}

fn counters_of(shared: &Shared, direction: Direction) -> &DirectionCounters {
    match direction {
        Direction::Up => &shared.counters.up,
        Direction::Down => &shared.counters.down,
    }
}

/// Reads one direction's source and stamps each chunk with its delivery time.
struct Reader {
    link: Arc<Link>,
    shared: Arc<Shared>,
    direction: Direction,
    conditions: Conditions,
    rng: SplitMix64,
    tx: SyncSender<Item>,
}

impl Reader {
    fn run(mut self) {
        let Some((mut src, _)) = self.link.ends(self.direction) else { return };
        let counters = counters_of(&self.shared, self.direction);
        let delay = Duration::from_millis(u64::from(self.conditions.delay_ms));
        let mut buf = vec![0; CHUNK_BYTES];
        // The latest delivery time handed out: no chunk may overtake an earlier one.
        let mut last = Instant::now();
        let end = loop {
            let n = match src.read(&mut buf) {
                Ok(0) => break What::Fin,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    debug!(direction = ?self.direction, error = %e, "impairment proxy: read failed");
                    break What::Reset;
                }
            };
            let now = Instant::now();
            counters.received(n);
            let fate = self.conditions.fate(&mut self.rng);
            let mut wait = fate.delay;
            if fate.lost {
                bump(&counters.stalled, 1);
                wait += self.conditions.tcp_stall();
            }
            last = last.max(now + wait);
            let item = Item { at: last, what: What::Data(buf[..n].to_vec()) };
            if self.tx.send(item).is_err() {
                // The writer is gone (its destination failed, or the proxy stops).
                return;
            }
        };
        // The close travels the path too: after the data before it, one delay later.
        let at = last.max(Instant::now() + delay);
        let _ = self.tx.send(Item { at, what: end });
    }
}

/// Writes one direction's chunks to its destination, each at its delivery time.
struct Writer {
    link: Arc<Link>,
    shared: Arc<Shared>,
    direction: Direction,
    rx: Receiver<Item>,
}

impl Writer {
    fn run(self) {
        let Some((_, mut dst)) = self.link.ends(self.direction) else { return };
        let counters = counters_of(&self.shared, self.direction);
        // Ends when the reader is gone and every chunk it sent has been handled.
        for item in self.rx.iter() {
            if !sleep_until(item.at, &self.shared.stop) {
                return;
            }
            match item.what {
                What::Data(bytes) => match dst.write_all(&bytes) {
                    Ok(()) => counters.delivered(bytes.len()),
                    Err(e) => {
                        // The destination is gone: so is the connection, both ways.
                        bump(&counters.errors, 1);
                        debug!(direction = ?self.direction, error = %e, "impairment proxy: write failed");
                        self.link.close();
                        return;
                    }
                },
                What::Fin => {
                    let _ = dst.shutdown(Shutdown::Write);
                    return;
                }
                What::Reset => {
                    self.link.close();
                    return;
                }
            }
        }
    }
}

/// Sleeps until `at`, in slices so a stop is noticed; false when stopped first.
fn sleep_until(at: Instant, stop: &AtomicBool) -> bool {
    loop {
        if stop.load(Ordering::SeqCst) {
            return false;
        }
        let now = Instant::now();
        if now >= at {
            return true;
        }
        std::thread::sleep((at - now).min(SLEEP_SLICE));
    }
}
