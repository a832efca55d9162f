//! The UDP impairment proxy (the netcode path): one listening socket for the clients, an
//! upstream socket per client source address, and every datagram waiting in a binary heap for
//! its delivery time, all on one thread.
//!
//! One thread owns every socket and the heap, so nothing is locked per datagram: it polls the
//! sockets until the earliest delivery time, reads what arrived, draws each datagram's fate and
//! pushes it (and a duplicate) into the heap, then sends what is due.

use super::addr::{local_for, loopback_any_port};
use super::conditions::Conditions;
use super::direction::{Direction, stream};
use super::stats::{Counters, DirectionCounters, ProxyStats, bump, drop_one};
use crate::sim::rng::SplitMix64;
use bevy::log::warn;
use rustix::event::{PollFd, PollFlags, Timespec, poll};
use std::collections::{BinaryHeap, HashMap};
use std::io;
use std::net::{SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A client address silent this long in both directions loses its upstream socket (its next
/// datagram opens a new one, which the server sees as a new peer), so a long run by hand does
/// not collect sockets. Longer than netcode's timeouts, so a live client never expires.
pub const SESSION_IDLE: Duration = Duration::from_secs(60);
/// The most client addresses served at once; datagrams from more are dropped (and counted as
/// errors) rather than the process running out of file descriptors.
pub const MAX_SESSIONS: usize = 1024;
/// The most datagrams read from one socket per wake-up, so a flood on one socket cannot keep
/// the thread from delivering what is due.
const MAX_READS_PER_WAKE: usize = 256;
/// The largest UDP payload.
const MAX_DATAGRAM: usize = 65_536;
/// How often idle sessions are expired; also the longest the thread sleeps.
const HOUSEKEEPING: Duration = Duration::from_secs(1);
/// Socket errors are logged at most this often (a server that went away answers every
/// datagram with an ICMP error); every one is counted.
const WARN_EVERY: Duration = Duration::from_secs(5);

/// A running UDP impairment proxy. Clients send to [`UdpProxy::local_addr`] instead of the
/// server; each client address gets its own upstream socket, so the server sees one peer per
/// client. Stops and joins its thread on [`UdpProxy::stop`] or drop; datagrams still waiting
/// are discarded.
pub struct UdpProxy {
    local: SocketAddr,
    /// A second handle on the thread's wake socket: a datagram to it ends the thread's poll.
    waker: UdpSocket,
    stop: Arc<AtomicBool>,
    counters: Arc<Counters>,
    thread: Option<JoinHandle<()>>,
}

impl UdpProxy {
    /// A proxy on 127.0.0.1 (an ephemeral port) in front of `upstream`, impairing client →
    /// server traffic with `up` and server → client with `down`, its fates drawn from `seed`.
    pub fn spawn(
        upstream: SocketAddr,
        up: Conditions,
        down: Conditions,
        seed: u64,
    ) -> io::Result<UdpProxy> {
        UdpProxy::bind(loopback_any_port(), upstream, up, down, seed)
    }

    /// As [`UdpProxy::spawn`], listening on `listen`.
    pub fn bind(
        listen: SocketAddr,
        upstream: SocketAddr,
        up: Conditions,
        down: Conditions,
        seed: u64,
    ) -> io::Result<UdpProxy> {
        let listener = UdpSocket::bind(listen)?;
        listener.set_nonblocking(true)?;
        let wake = UdpSocket::bind(loopback_any_port())?;
        wake.set_nonblocking(true)?;
        let waker = wake.try_clone()?;
        let local = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let counters = Arc::new(Counters::default());
        let mut worker = Worker {
            listener,
            wake,
            upstream,
            up,
            down,
            rng_up: stream(seed, Direction::Up, 0),
            rng_down: stream(seed, Direction::Down, 0),
            sessions: HashMap::new(),
            by_client: HashMap::new(),
            next_session: 0,
            heap: BinaryHeap::new(),
            next_order: 0,
            counters: counters.clone(),
            stop: stop.clone(),
            buf: vec![0; MAX_DATAGRAM],
            quiet_until: None,
        };
        let thread =
            std::thread::Builder::new().name("impair-udp".into()).spawn(move || worker.run())?;
        Ok(UdpProxy { local, waker, stop, counters, thread: Some(thread) })
    }

    /// Where clients send: the listening socket's address.
    pub fn local_addr(&self) -> SocketAddr {
        self.local
    }

    /// The counters so far.
    pub fn stats(&self) -> ProxyStats {
        self.counters.snapshot()
    }

    /// Stops the thread and waits for it. Idempotent.
    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let Some(thread) = self.thread.take() else { return };
        // Wakes the poll at once; should this send fail, the thread still notices within
        // HOUSEKEEPING.
        if let Ok(addr) = self.waker.local_addr() {
            let _ = self.waker.send_to(&[], addr);
        }
        if thread.join().is_err() {
            warn!("impairment proxy: the UDP thread panicked");
        }
    }
}

impl Drop for UdpProxy {
    fn drop(&mut self) {
        self.stop();
    }
}

/// One client source address and its upstream socket.
struct Session {
    client: SocketAddr,
    /// Connected to the server: it only hears the server, and the server sees one peer.
    socket: UdpSocket,
    last_seen: Instant,
    /// Datagrams that arrived so far, per direction ([`index`]): each one's arrival number.
    arrivals: [u64; 2],
    /// The latest arrival number delivered, per direction: a lower one delivered after it was
    /// overtaken, and counts as reordered.
    newest_delivered: [Option<u64>; 2],
}

/// A datagram waiting for its delivery time.
struct Pending {
    at: Instant,
    /// Push order: equal delivery times leave in arrival order.
    order: u64,
    direction: Direction,
    session: u64,
    arrival: u64,
    /// The duplicate's second copy (not counted as reordered).
    copy: bool,
    bytes: Vec<u8>,
}

// The heap is a max-heap: the earliest (at, order) must compare greatest.
impl Ord for Pending {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (other.at, other.order).cmp(&(self.at, self.order))
    }
}

impl PartialOrd for Pending {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Pending {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.order) == (other.at, other.order)
    }
}

impl Eq for Pending {}

/// Which socket poll found readable.
enum Ready {
    Listener,
    Wake,
    Session(u64),
}

fn index(direction: Direction) -> usize {
    match direction {
        Direction::Up => 0,
        Direction::Down => 1,
    }
}

/// The proxy's thread: every socket, the heap and both random streams.
struct Worker {
    listener: UdpSocket,
    wake: UdpSocket,
    upstream: SocketAddr,
    up: Conditions,
    down: Conditions,
    rng_up: SplitMix64,
    rng_down: SplitMix64,
    sessions: HashMap<u64, Session>,
    by_client: HashMap<SocketAddr, u64>,
    next_session: u64,
    heap: BinaryHeap<Pending>,
    next_order: u64,
    counters: Arc<Counters>,
    stop: Arc<AtomicBool>,
    buf: Vec<u8>,
    /// Socket errors are not logged until then.
    quiet_until: Option<Instant>,
}

impl Worker {
    fn run(&mut self) {
        let mut housekeeping = Instant::now() + HOUSEKEEPING;
        while !self.stop.load(Ordering::SeqCst) {
            let now = Instant::now();
            self.deliver_due(now);
            if now >= housekeeping {
                self.expire_idle(now);
                housekeeping = now + HOUSEKEEPING;
            }
            let deadline = self.heap.peek().map_or(housekeeping, |p| p.at.min(housekeeping));
            for ready in self.wait(deadline.saturating_duration_since(Instant::now())) {
                match ready {
                    Ready::Listener => self.read_clients(),
                    Ready::Wake => self.drain_wake(),
                    Ready::Session(id) => self.read_server(id),
                }
            }
        }
        for _ in self.sessions.drain() {
            drop_one(&self.counters.active);
        }
    }

    /// Polls every socket for at most `timeout`; answers the readable ones.
    fn wait(&self, timeout: Duration) -> Vec<Ready> {
        let mut ids = Vec::with_capacity(self.sessions.len());
        let mut fds = Vec::with_capacity(self.sessions.len() + 2);
        fds.push(PollFd::new(&self.listener, PollFlags::IN));
        fds.push(PollFd::new(&self.wake, PollFlags::IN));
        for (&id, session) in &self.sessions {
            ids.push(id);
            fds.push(PollFd::new(&session.socket, PollFlags::IN));
        }
        let timeout =
            Timespec { tv_sec: timeout.as_secs() as _, tv_nsec: timeout.subsec_nanos() as _ };
        match poll(&mut fds, Some(&timeout)) {
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(e) => {
                warn!(error = %e, "impairment proxy: poll failed");
                std::thread::sleep(Duration::from_millis(10));
                return Vec::new();
            }
        }
        fds.iter()
            .enumerate()
            .filter(|(_, fd)| !fd.revents().is_empty())
            .map(|(i, _)| match i {
                0 => Ready::Listener,
                1 => Ready::Wake,
                i => Ready::Session(ids[i - 2]),
            })
            .collect()
    }

    /// Empties the wake socket; the loop then checks the stop flag.
    fn drain_wake(&mut self) {
        while self.wake.recv(&mut self.buf).is_ok() {}
    }

    /// Datagrams from clients: each opens (or finds) its address's session and goes up.
    fn read_clients(&mut self) {
        for _ in 0..MAX_READS_PER_WAKE {
            let (n, from) = match self.listener.recv_from(&mut self.buf) {
                Ok(got) => got,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(e) => {
                    self.socket_error(Direction::Up, "receive from clients", &e);
                    return;
                }
            };
            let now = Instant::now();
            self.counters.up.received(n);
            let bytes = self.buf[..n].to_vec();
            if let Some(id) = self.session_for(from, now) {
                self.schedule(Direction::Up, id, bytes, now);
            }
        }
    }

    /// Datagrams from the server on one client's upstream socket: they go down to that client.
    fn read_server(&mut self, id: u64) {
        for _ in 0..MAX_READS_PER_WAKE {
            let Some(session) = self.sessions.get(&id) else { return };
            let n = match session.socket.recv(&mut self.buf) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                // Typically ECONNREFUSED: an ICMP error for an earlier send (no server there).
                Err(e) => {
                    self.socket_error(Direction::Down, "receive from the server", &e);
                    return;
                }
            };
            self.counters.down.received(n);
            let bytes = self.buf[..n].to_vec();
            self.schedule(Direction::Down, id, bytes, Instant::now());
        }
    }

    /// The session of a client address, opening its upstream socket on its first datagram.
    fn session_for(&mut self, client: SocketAddr, now: Instant) -> Option<u64> {
        if let Some(&id) = self.by_client.get(&client) {
            return Some(id);
        }
        if self.sessions.len() >= MAX_SESSIONS {
            let e = io::Error::other(format!("more than {MAX_SESSIONS} client addresses"));
            self.socket_error(Direction::Up, "open a session", &e);
            return None;
        }
        let socket = match open_upstream(self.upstream) {
            Ok(socket) => socket,
            Err(e) => {
                self.socket_error(Direction::Up, "open an upstream socket", &e);
                return None;
            }
        };
        let id = self.next_session;
        self.next_session += 1;
        self.sessions.insert(
            id,
            Session {
                client,
                socket,
                last_seen: now,
                arrivals: [0; 2],
                newest_delivered: [None; 2],
            },
        );
        self.by_client.insert(client, id);
        bump(&self.counters.sessions, 1);
        bump(&self.counters.active, 1);
        Some(id)
    }

    /// Draws a datagram's fate and queues it (and its duplicate) for delivery.
    fn schedule(&mut self, direction: Direction, id: u64, bytes: Vec<u8>, now: Instant) {
        let (conditions, rng, counters) = match direction {
            Direction::Up => (&self.up, &mut self.rng_up, &self.counters.up),
            Direction::Down => (&self.down, &mut self.rng_down, &self.counters.down),
        };
        let fate = conditions.fate(rng);
        let Some(session) = self.sessions.get_mut(&id) else { return };
        session.last_seen = now;
        let arrival = session.arrivals[index(direction)];
        session.arrivals[index(direction)] += 1;
        if fate.lost {
            bump(&counters.dropped, 1);
            return;
        }
        let mut delay = fate.delay;
        if fate.held {
            bump(&counters.held, 1);
            delay += conditions.reorder_hold();
        }
        let pending = |at: Instant, order: u64, copy: bool, bytes: Vec<u8>| Pending {
            at,
            order,
            direction,
            session: id,
            arrival,
            copy,
            bytes,
        };
        if let Some(copy_delay) = fate.copy {
            bump(&counters.duplicated, 1);
            self.heap.push(pending(now + copy_delay, self.next_order, true, bytes.clone()));
            self.next_order += 1;
        }
        self.heap.push(pending(now + delay, self.next_order, false, bytes));
        self.next_order += 1;
    }

    /// Sends every datagram whose time has come.
    fn deliver_due(&mut self, now: Instant) {
        while self.heap.peek().is_some_and(|p| p.at <= now) {
            if let Some(pending) = self.heap.pop() {
                self.deliver(pending);
            }
        }
    }

    fn deliver(&mut self, p: Pending) {
        // A session expired meanwhile takes its late datagrams with it.
        let Some(session) = self.sessions.get_mut(&p.session) else { return };
        let counters = match p.direction {
            Direction::Up => &self.counters.up,
            Direction::Down => &self.counters.down,
        };
        let sent = match p.direction {
            Direction::Up => session.socket.send(&p.bytes),
            Direction::Down => self.listener.send_to(&p.bytes, session.client),
        };
        match sent {
            Ok(_) => {
                counters.delivered(p.bytes.len());
                let newest = &mut session.newest_delivered[index(p.direction)];
                match *newest {
                    Some(n) if p.arrival < n => {
                        if !p.copy {
                            bump(&counters.reordered, 1);
                        }
                    }
                    _ => *newest = Some(p.arrival),
                }
            }
            Err(e) => self.socket_error(p.direction, "send", &e),
        }
    }

    /// Drops sessions silent for [`SESSION_IDLE`].
    fn expire_idle(&mut self, now: Instant) {
        let idle: Vec<u64> = self
            .sessions
            .iter()
            .filter(|(_, s)| now.duration_since(s.last_seen) >= SESSION_IDLE)
            .map(|(&id, _)| id)
            .collect();
        for id in idle {
            if let Some(session) = self.sessions.remove(&id) {
                self.by_client.remove(&session.client);
                drop_one(&self.counters.active);
            }
        }
    }

    fn counters_of(&self, direction: Direction) -> &DirectionCounters {
        match direction {
            Direction::Up => &self.counters.up,
            Direction::Down => &self.counters.down,
        }
    }

    /// Counts a socket error and logs it, at most once per [`WARN_EVERY`]: the proxy goes on.
    fn socket_error(&mut self, direction: Direction, what: &str, e: &io::Error) {
        bump(&self.counters_of(direction).errors, 1);
        let now = Instant::now();
        if self.quiet_until.is_none_or(|t| now >= t) {
            self.quiet_until = Some(now + WARN_EVERY);
            warn!(?direction, error = %e, "impairment proxy: {what} failed");
        }
    }
}

/// A nonblocking socket connected to the server, for one client.
fn open_upstream(upstream: SocketAddr) -> io::Result<UdpSocket> {
    let socket = UdpSocket::bind(local_for(upstream))?;
    socket.connect(upstream)?;
    socket.set_nonblocking(true)?;
    Ok(socket)
}
