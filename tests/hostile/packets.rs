//! The packets that ended the whole server process (issue 20's table), sent to a real server
//! over real sockets — straight to its UDP port, through the WebSocket relay, and from a
//! connected client — after which a round must still be played on it. Plus the netcode-side
//! limits: forged connection requests rate-limited per source, a session that never passes the
//! protocol check dropped, and tokens per seat secret.

use std::net::{SocketAddr, UdpSocket};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use undercooked::net::client::api::{api_create, api_join};
use undercooked::net::client::headless::HeadlessClient;
use undercooked::net::client::headless_inputs::InputMode;
use undercooked::net::client::session::JoinReply;
use undercooked::net::server::udp::{HostTransport, Refusal};
use undercooked::net::server::worlds::{HostConfig, ServerHandle, spawn_server};
use undercooked::net::wire::error::NetError;
use undercooked::net::wire::tokens::{read_token, unix_now};

/// Bounded wait for anything here: generous, since the machines are shared.
const PATIENCE: Duration = Duration::from_secs(40);

fn host(name: &str) -> ServerHandle {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("uc-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    spawn_server(HostConfig::loopback(dir)).expect("server starts")
}

/// A netcode peer made of a real `NetcodeClient` over a socket of the test's own, so it can say
/// what a real client says and then what a hostile one would.
struct RawPeer {
    socket: UdpSocket,
    netcode: renetcode::NetcodeClient,
    server: SocketAddr,
    last: Instant,
}

impl RawPeer {
    fn new(reply: &JoinReply) -> RawPeer {
        let token = read_token(&reply.token).expect("the API's token parses");
        let server = token.server_addresses[0].expect("the token names the server");
        let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
        socket.set_read_timeout(Some(Duration::from_millis(20))).unwrap();
        let auth = renetcode::ClientAuthentication::Secure { connect_token: token };
        let netcode = renetcode::NetcodeClient::new(unix_now(), auth).unwrap();
        RawPeer { socket, netcode, server, last: Instant::now() }
    }

    /// Advances the client's clock and sends what it wants to send (a connection request while
    /// connecting, keep-alives once connected).
    fn tick(&mut self) {
        let now = Instant::now();
        let dt = now - self.last;
        self.last = now;
        if let Some((packet, addr)) = self.netcode.update(dt) {
            self.socket.send_to(packet, addr).unwrap();
        }
        let mut buf = [0u8; 1500];
        while let Ok((len, _)) = self.socket.recv_from(&mut buf) {
            self.netcode.process_packet(&mut buf[..len]);
        }
    }

    /// Completes the netcode handshake (the server's protocol check comes after; a raw peer
    /// never answers it).
    fn connect(&mut self) {
        let end = Instant::now() + PATIENCE;
        while !self.netcode.is_connected() && Instant::now() < end {
            self.tick();
        }
        assert!(self.netcode.is_connected(), "the raw peer completes the netcode handshake");
    }

    /// A renet packet, sealed as this client's netcode payload.
    fn send_renet(&mut self, renet: &[u8]) {
        let (addr, packet) = self.netcode.generate_payload_packet(renet).unwrap();
        self.socket.send_to(packet, addr).unwrap();
    }

    fn send_raw(&self, datagram: &[u8]) {
        self.socket.send_to(datagram, self.server).unwrap();
    }
}

/// The crafted datagram: prefix 0x94 (a keep-alive claiming a 9-byte sequence) and 17 bytes.
fn overlong_sequence() -> Vec<u8> {
    let mut d = vec![0x94];
    d.extend([0xAB; 17]);
    d
}

/// A QUIC-style varint, as renet's `octets` writes them (values under 2^14 here).
fn varint(out: &mut Vec<u8>, v: u16) {
    if v < 64 {
        out.push(v as u8);
    } else {
        out.extend([0x40 | (v >> 8) as u8, v as u8]);
    }
}

/// A renet slice packet: `kind` 2 (reliable) or 3 (unreliable), on client channel 0 (replicon's
/// mutation acks, reliable ordered), slice `index` of `count`, with a full 1,200-byte slice so
/// it passes renet's size check and reaches the slice table.
fn slice(kind: u8, message: u16, index: u16, count: u16) -> Vec<u8> {
    let mut p = vec![kind];
    varint(&mut p, message); // sequence
    p.push(0); // channel
    varint(&mut p, message);
    varint(&mut p, index);
    varint(&mut p, count);
    varint(&mut p, 1200);
    p.extend([0xEE; 1200]);
    p
}

/// Two clients connect to a fresh room, the round starts and each sees both cooks move: the
/// server is whole.
fn play_round(h: &ServerHandle) {
    let web = h.addrs.web.to_string();
    let a = api_create(&web, "After", None).expect("the API still answers");
    let b = api_join(&web, &a.code, "Attack", None).expect("joins still work");
    let mut clients = [
        HeadlessClient::connect(&a, InputMode::Random).unwrap(),
        HeadlessClient::connect(&b, InputMode::Random).unwrap(),
    ];
    let mut start: [[Option<(i32, i32)>; 2]; 2] = [[None; 2]; 2];
    let end = Instant::now() + PATIENCE;
    let mut moved = false;
    while !moved && Instant::now() < end {
        moved = true;
        for (viewer, c) in clients.iter_mut().enumerate() {
            c.step();
            for seat in 0..2u8 {
                let pos = c.cooks().into_iter().find(|(v, _)| v.seat == seat).map(|(_, m)| m.pos);
                let first = &mut start[viewer][seat as usize];
                moved &= match (pos, *first) {
                    (Some(p), None) => {
                        *first = Some(p);
                        false
                    }
                    (Some(p), Some(f)) => p != f,
                    (None, _) => false,
                };
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(moved, "after the attack, two clients play a round and see each other move");
}

fn refused(h: &ServerHandle, r: Refusal) -> u64 {
    h.with_world(move |w| w.resource::<HostTransport>().stats.refused(r))
}

#[test]
fn an_overlong_sequence_after_a_connection_request_is_refused_and_the_server_plays_on() {
    let h = host("seq");
    let web = h.addrs.web.to_string();
    let reply = api_create(&web, "Mallory", None).unwrap();
    let mut peer = RawPeer::new(&reply);
    // The connection request makes the address a pending client: its next packets are
    // decrypted with that session's key, which is where the sequence was read.
    peer.tick();
    std::thread::sleep(Duration::from_millis(100));
    for _ in 0..3 {
        peer.send_raw(&overlong_sequence());
    }
    // And from an address the server has never seen.
    UdpSocket::bind("127.0.0.1:0").unwrap().send_to(&overlong_sequence(), peer.server).unwrap();
    let end = Instant::now() + PATIENCE;
    while refused(&h, Refusal::BadPrefix) < 4 && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(refused(&h, Refusal::BadPrefix), 4, "each crafted datagram refused by name");
    play_round(&h);
    // The metric says what the transport counted: the four crafted datagrams, no more.
    let text = metrics(&h);
    let line = r#"undercooked_udp_refused_total{shard="0",reason="bad_prefix"} 4"#;
    assert!(text.lines().any(|l| l == line), "{line} in:\n{text}");
    h.stop();
}

fn metrics(h: &ServerHandle) -> String {
    h.with_world(|w| w.resource::<undercooked::net::server::metrics::HostMetrics>().encode())
}

/// The value of one exposition line whose name and labels start with `prefix`.
fn metric(text: &str, prefix: &str) -> Option<u64> {
    text.lines().find(|l| l.starts_with(prefix))?.rsplit(' ').next()?.parse().ok()
}

#[test]
fn metrics_count_what_they_claim_to_measure() {
    let h = host("metrics");
    play_round(&h);
    // Stop the clients' traffic reaching the gate before comparing: give the last batches a
    // few frames to land, then read both sides between the same two frames.
    std::thread::sleep(Duration::from_millis(300));
    let (admitted, text) = h.with_world(|w| {
        let mut q = w.query::<&undercooked::sim::room::Room>();
        let admitted: usize = q.iter(w).map(|r| r.inputs.log().len()).sum();
        (admitted, w.resource::<undercooked::net::server::metrics::HostMetrics>().encode())
    });
    // Published in `Last` of the frame before this job ran: nothing was admitted in between.
    let said = metric(&text, r#"undercooked_input_frames_total{shard="0",outcome="admitted"}"#);
    assert_eq!(said, Some(admitted as u64), "admitted frames as the rooms logged them:\n{text}");
    assert!(admitted > 0);
    let stats = h.with_world(|w| w.resource::<HostTransport>().stats.clone());
    let bytes_in = metric(&text, r#"undercooked_udp_bytes_total{shard="0",direction="received"}"#);
    assert!(
        bytes_in.is_some_and(|b| b > 0 && b <= stats.bytes_in),
        "{bytes_in:?} vs {stats:?}:\n{text}"
    );
    assert_eq!(metric(&text, r#"undercooked_clients{shard="0"}"#), Some(2));
    assert_eq!(metric(&text, r#"undercooked_rounds_live{shard="0"}"#), Some(1));
    assert!(text.contains("undercooked_tick_seconds_bucket"), "the tick histogram is exposed");
    // Over HTTP: the world's registry and the web port's own counters in one document.
    let web = h.addrs.web.to_string();
    let r = minreq::get(format!("http://{web}/metrics")).with_timeout(10).send().unwrap();
    assert_eq!(r.status_code, 200);
    let body = r.as_str().unwrap();
    assert!(body.contains("undercooked_udp_bytes_total") && body.contains("undercooked_web_"));
    assert!(body.ends_with("# EOF\n") && body.matches("# EOF").count() == 1, "{body}");
    h.stop();
}

#[test]
fn the_same_datagram_through_the_websocket_relay_is_refused_and_the_server_plays_on() {
    let h = host("relay");
    let web = h.addrs.web.to_string();
    let reply = api_create(&web, "Mallory", None).unwrap();
    let (mut ws, _) = tungstenite::connect(format!("ws://{web}/ws")).expect("relay upgrade");
    // A real connection request first, relayed as a browser's would be.
    let mut peer = RawPeer::new(&reply);
    let (request, _) = peer.netcode.update(Duration::ZERO).expect("a connection request");
    ws.send(tungstenite::Message::binary(request.to_vec())).unwrap();
    for _ in 0..3 {
        ws.send(tungstenite::Message::binary(overlong_sequence())).unwrap();
    }
    ws.flush().unwrap();
    let end = Instant::now() + PATIENCE;
    while refused(&h, Refusal::BadPrefix) < 3 && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(refused(&h, Refusal::BadPrefix), 3);
    let _ = ws.close(None);
    play_round(&h);
    h.stop();
}

#[test]
fn a_connected_client_sending_bad_slices_loses_its_connection_only() {
    let h = host("slice");
    let web = h.addrs.web.to_string();
    let reply = api_create(&web, "Mallory", None).unwrap();
    let mut peer = RawPeer::new(&reply);
    peer.connect();
    let connected = h.with_world(|w| w.resource::<HostTransport>().connected_clients());
    assert_eq!(connected, 1);
    // Slice 5 of 1: renet 2.0.1 indexed its received-slices list with it and panicked.
    peer.send_renet(&slice(2, 0, 5, 1));
    // renet drops the connection for the invalid slice; netcode then forgets the session.
    let end = Instant::now() + PATIENCE;
    while h.with_world(|w| w.resource::<HostTransport>().connected_clients()) > 0
        && Instant::now() < end
    {
        peer.tick();
        std::thread::sleep(Duration::from_millis(20));
    }
    let left = h.with_world(|w| w.resource::<HostTransport>().connected_clients());
    assert_eq!(left, 0, "the lying client's connection was ended");
    let panics = h.with_world(|w| w.resource::<HostTransport>().stats.panics);
    assert_eq!(panics, 0, "refused by the patched renet, not caught as a panic");
    play_round(&h);
    h.stop();
}

#[test]
fn a_flood_of_connection_requests_from_one_source_is_rate_limited_and_counted() {
    let h = host("flood");
    let web = h.addrs.web.to_string();
    let reply = api_create(&web, "Flood", None).unwrap();
    let mut peer = RawPeer::new(&reply);
    let (request, _) = peer.netcode.update(Duration::ZERO).expect("a connection request");
    let request = request.to_vec();
    // A replayed real request, far over one source's burst, from one address.
    let flood = UdpSocket::bind("127.0.0.1:0").unwrap();
    for _ in 0..400 {
        flood.send_to(&request, peer.server).unwrap();
    }
    let end = Instant::now() + PATIENCE;
    while refused(&h, Refusal::SourceRate) == 0 && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(refused(&h, Refusal::SourceRate) > 0, "the source's rate limit named");
    // The API and live rooms stay responsive.
    play_round(&h);
    h.stop();
}

#[test]
fn a_session_that_never_passes_the_protocol_check_is_dropped() {
    let h = host("auth");
    let web = h.addrs.web.to_string();
    let reply = api_create(&web, "Silent", None).unwrap();
    let mut peer = RawPeer::new(&reply);
    peer.connect();
    // The raw peer keeps its netcode session alive but never sends replicon's protocol hash.
    let end = Instant::now() + PATIENCE;
    let dropped =
        || h.with_world(|w| w.resource::<undercooked::net::server::gate::UnauthorisedDrops>().0);
    while dropped() == 0 && Instant::now() < end {
        peer.tick();
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(dropped(), 1, "dropped once, by the deadline");
    while h.with_world(|w| w.resource::<HostTransport>().connected_clients()) > 0
        && Instant::now() < end
    {
        peer.tick();
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(h.with_world(|w| w.resource::<HostTransport>().connected_clients()), 0);
    h.stop();
}

#[test]
fn one_seat_secret_mints_a_bounded_number_of_tokens() {
    let h = host("tokens");
    let web = h.addrs.web.to_string();
    let a = api_create(&web, "Ann", None).unwrap();
    let mut minted = 0;
    let mut refusal = None;
    for _ in 0..20 {
        match api_join(&web, &a.code, "Ann", Some(&a.reconnect)) {
            Ok(_) => minted += 1,
            Err(e) => {
                refusal = Some(e);
                break;
            }
        }
    }
    let burst = undercooked::net::server::seats::SEAT_TOKENS.burst as usize;
    // The create spent one of the seat's tokens.
    assert_eq!(minted, burst - 1, "a burst of reconnect tokens, then refusals");
    let refusal = refusal.expect("the limit was met");
    assert!(
        matches!(&refusal, NetError::Http { status: 429, message } if message == "seat_token_limit"),
        "named: {refusal}"
    );
    h.stop();
}

#[test]
fn the_binary_survives_the_crafted_datagram_and_logs_json() {
    use std::io::BufRead;
    let dir = std::env::temp_dir().join(format!("uc-hostile-json-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_undercooked"))
        .args(["--headless", "--port", "0", "--web-port", "0", "--bind", "127.0.0.1"])
        .args(["--levels", "levels", "--log-format", "json", "--data-dir"])
        .arg(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut banner = String::new();
    out.read_line(&mut banner).unwrap();
    std::thread::spawn(move || out.lines().for_each(drop));
    let field = |after: &str, until: char| -> String {
        let rest = banner.split(after).nth(1).expect("the banner names it");
        rest.split(until).next().unwrap().trim().to_string()
    };
    let udp: SocketAddr = field("udp ", ' ').parse().unwrap();
    let web = field("web http://", '\n');
    let stderr = child.stderr.take().unwrap();
    let lines = std::thread::spawn(move || {
        std::io::BufReader::new(stderr).lines().map_while(Result::ok).collect::<Vec<_>>()
    });
    // The packet that used to end the process, from a fresh address and after a request.
    let reply = api_create(&web, "Mallory", None).unwrap();
    let mut peer = RawPeer::new(&reply);
    peer.tick();
    peer.send_raw(&overlong_sequence());
    UdpSocket::bind("127.0.0.1:0").unwrap().send_to(&overlong_sequence(), udp).unwrap();
    // Still serving: a new room is created after it.
    std::thread::sleep(Duration::from_millis(300));
    assert!(api_create(&web, "After", None).is_ok(), "the process still answers");
    assert!(child.try_wait().unwrap().is_none(), "the process is alive");
    let pid = child.id().to_string();
    let killed = std::process::Command::new("kill").args(["-TERM", &pid]).status();
    assert!(killed.is_ok_and(|s| s.success()));
    let end = Instant::now() + PATIENCE;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < end, "exits on SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "exit 0: {status:?}");
    let lines = lines.join().unwrap();
    assert!(!lines.is_empty());
    for line in &lines {
        let v: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        assert!(v["level"].is_string() && v["fields"]["message"].is_string(), "{line}");
    }
    let summary = lines.iter().find(|l| l.contains("udp datagrams refused")).expect("summary");
    assert!(summary.contains("bad_prefix="), "the refusal named: {summary}");
}

#[test]
fn a_panic_in_a_server_frame_rebuilds_the_world_and_the_host_plays_on() {
    let h = host("supervised");
    let web = h.addrs.web.to_string();
    let a = api_create(&web, "Before", None).unwrap();
    let mut c = HeadlessClient::connect(&a, InputMode::Random).unwrap();
    let end = Instant::now() + PATIENCE;
    while c.clock().is_none_or(|r| r.tick < 10) && Instant::now() < end {
        c.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(c.clock().is_some_and(|r| r.tick >= 10), "a round is live");
    // A bug anywhere in a frame: here, a world job that panics between two systems' runs.
    let answer = h.try_with_world(|_| -> u8 { panic!("injected: a bug in a network system") });
    assert_eq!(answer, None, "the job never answered: its frame unwound");
    // The same host, on the same ports, serves a new round. This embedded host's web server
    // lives in its world, so it is back once the world is rebuilt: a job is answered only by
    // the new world's frames (`undercooked --headless` keeps its web port outside the worlds,
    // and calls queued during a rebuild wait for the new one).
    assert_eq!(h.try_with_world(|_| ()), Some(()), "a rebuilt world answers");
    play_round(&h);
    assert_eq!(h.addrs.web.to_string(), web);
    let text = metrics(&h);
    let line = r#"undercooked_panics_caught_total{shard="0",at="shard"} 1"#;
    assert!(text.lines().any(|l| l == line), "{line} in:\n{text}");
    // The round that was live is on record as a fault.
    let dir = std::env::temp_dir().join(format!("uc-hostile-supervised-{}", std::process::id()));
    let results = std::fs::read_to_string(dir.join("results.jsonl")).unwrap_or_default();
    let line = results.lines().find(|l| l.contains(&a.code)).expect("the live round recorded");
    assert!(line.contains("fault: server panic"), "{line}");
    h.stop();
}
