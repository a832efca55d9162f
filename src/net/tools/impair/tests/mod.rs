//! Tests of the impairment proxies over real sockets on 127.0.0.1 only, with echo servers
//! behind them. Wall-clock bounds are generous (the machine is shared): a delay is checked as
//! "at least the configured floor, within 100 ms of the expected mean"; seeded counters exactly
//! or within a band.

mod tcp;
mod udp;

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a test waits for something before failing.
const PATIENCE: Duration = Duration::from_secs(20);
/// The period test threads check their stop flag at.
const TICK: Duration = Duration::from_millis(20);

fn loopback() -> SocketAddr {
    "127.0.0.1:0".parse().expect("a socket address")
}

/// Polls `done` until it holds or `limit` passes; answers whether it held.
fn wait_until(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + limit;
    while Instant::now() < end {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    done()
}

/// One datagram a [`Recorder`] received.
struct Received {
    from: SocketAddr,
    bytes: Vec<u8>,
    at: Instant,
}

/// A thread receiving on a UDP socket until stopped, keeping what came, and (as an echo
/// server) sending each datagram back to its sender.
struct Recorder {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<Vec<Received>>>,
}

impl Recorder {
    /// An echo server on 127.0.0.1.
    fn echo() -> Recorder {
        let socket = UdpSocket::bind(loopback()).expect("bind the echo server");
        Recorder::start(socket, true)
    }

    /// Records what arrives on `socket` (a client's, cloned).
    fn listen(socket: &UdpSocket) -> Recorder {
        Recorder::start(socket.try_clone().expect("clone a socket"), false)
    }

    fn start(socket: UdpSocket, echo: bool) -> Recorder {
        socket.set_read_timeout(Some(TICK)).expect("a read timeout");
        let addr = socket.local_addr().expect("an address");
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut got = Vec::new();
            let mut buf = vec![0; 65_536];
            // Once stopped, it still takes what already waits in the socket: it ends on the
            // first receive that finds nothing.
            loop {
                match socket.recv_from(&mut buf) {
                    Ok((n, from)) => {
                        let at = Instant::now();
                        if echo {
                            let _ = socket.send_to(&buf[..n], from);
                        }
                        got.push(Received { from, bytes: buf[..n].to_vec(), at });
                    }
                    // A timeout, an ICMP error from an earlier send, or an interrupted call.
                    Err(_) if flag.load(Ordering::SeqCst) => return got,
                    Err(_) => {}
                }
            }
        });
        Recorder { addr, stop, thread: Some(thread) }
    }

    /// Stops the thread and answers what it received.
    fn finish(mut self) -> Vec<Received> {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.take().map(|t| t.join().expect("the recorder thread")).unwrap_or_default()
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A test datagram: the sending client's number, a sequence number, and when it was sent (µs
/// since the test's start).
fn packet(client: u32, seq: u32, sent_us: u64) -> Vec<u8> {
    let mut p = Vec::with_capacity(16);
    p.extend_from_slice(&client.to_le_bytes());
    p.extend_from_slice(&seq.to_le_bytes());
    p.extend_from_slice(&sent_us.to_le_bytes());
    p
}

/// (client, seq, sent µs) of a [`packet`].
fn unpack(p: &[u8]) -> (u32, u32, u64) {
    let u32_at = |at: usize| u32::from_le_bytes(p[at..at + 4].try_into().expect("4 bytes"));
    (u32_at(0), u32_at(4), u64::from_le_bytes(p[8..16].try_into().expect("8 bytes")))
}

/// Datagrams (of `seqs` in arrival order) that arrived after a later-sent one.
fn inversions(seqs: impl IntoIterator<Item = u32>) -> usize {
    let mut newest = None;
    let mut late = 0;
    for s in seqs {
        match newest {
            Some(n) if s < n => late += 1,
            _ => newest = Some(s),
        }
    }
    late
}

/// A TCP echo server on 127.0.0.1: it sends back what it reads and half-closes when its client
/// does. Every thread checks a stop flag, so dropping it ends them.
struct TcpEcho {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl TcpEcho {
    fn spawn() -> TcpEcho {
        let listener = TcpListener::bind(loopback()).expect("bind the echo server");
        listener.set_nonblocking(true).expect("nonblocking");
        let addr = listener.local_addr().expect("an address");
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut conns = Vec::new();
            while !flag.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let flag = flag.clone();
                        conns.push(std::thread::spawn(move || echo_connection(stream, &flag)));
                    }
                    Err(_) => std::thread::sleep(TICK),
                }
            }
            for c in conns {
                let _ = c.join();
            }
        });
        TcpEcho { addr, stop, thread: Some(thread) }
    }
}

fn echo_connection(mut stream: TcpStream, stop: &AtomicBool) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(TICK));
    let mut buf = vec![0; 8192];
    while !stop.load(Ordering::SeqCst) {
        match stream.read(&mut buf) {
            Ok(0) => {
                let _ = stream.shutdown(Shutdown::Write);
                return;
            }
            Ok(n) => {
                if stream.write_all(&buf[..n]).is_err() {
                    return;
                }
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return,
        }
    }
}

impl Drop for TcpEcho {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
