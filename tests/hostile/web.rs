//! The web port under abuse, over real sockets: slow and idle connections by the hundred, held
//! bodies, a peer that stops reading, connection caps, oversized and malformed bodies, room
//! creation floods, foreign and rebinding origins, and the health probes. Every server is
//! `spawn_server` on port 0; waits are bounded loops on observed state, and latencies are
//! printed, never asserted (machines are noisy).

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use undercooked::net::server::http::HttpHandle;
use undercooked::net::server::web::{WebConfig, WebCounters, WebLimits};
use undercooked::net::server::worlds::{HostConfig, ServerHandle, spawn_server};
use undercooked::net::wire::error::NetError;

/// Bounded wait for any answer here: generous, since several engineers share two cores.
const PATIENCE: Duration = Duration::from_secs(10);

fn data_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("uc-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Limits for tests whose hostile peers and probes all come from 127.0.0.1.
fn roomy() -> WebLimits {
    WebLimits { per_address: 4000, max_connections: 8000, ..WebLimits::default() }
}

fn server(name: &str, web: WebConfig) -> ServerHandle {
    let cfg = HostConfig { web, ..HostConfig::loopback(data_dir(name)) };
    spawn_server(cfg).expect("server starts")
}

/// Reads one of the web port's counters.
fn counter(h: &ServerHandle, read: fn(&WebCounters) -> &std::sync::atomic::AtomicU64) -> u64 {
    h.with_world(move |w| read(&w.resource::<HttpHandle>().counters).load(Ordering::SeqCst))
}

/// Waits (bounded) until `done` holds.
fn eventually(mut done: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + PATIENCE;
    while Instant::now() < end {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// One HTTP exchange on a fresh connection: `raw` is sent as is (it should ask
/// `Connection: close`); the status and body, or None when no answer came in time.
fn exchange(addr: SocketAddr, raw: &[u8]) -> Option<(u16, String)> {
    let mut s = TcpStream::connect_timeout(&addr, PATIENCE).ok()?;
    s.set_read_timeout(Some(PATIENCE)).ok()?;
    s.write_all(raw).ok()?;
    let mut text = Vec::new();
    let _ = s.read_to_end(&mut text);
    parse_answer(&text)
}

fn parse_answer(text: &[u8]) -> Option<(u16, String)> {
    let text = String::from_utf8_lossy(text);
    let status = text.split(' ').nth(1)?.parse().ok()?;
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string();
    Some((status, body))
}

fn get(addr: SocketAddr, path: &str) -> Option<(u16, String)> {
    exchange(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
}

/// A POST with `headers` (each ending in CRLF) and `body`.
fn post(addr: SocketAddr, path: &str, headers: &str, body: &str) -> Option<(u16, String)> {
    let raw = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    exchange(addr, raw.as_bytes())
}

fn post_json(addr: SocketAddr, path: &str, body: &str) -> Option<(u16, String)> {
    post(addr, path, "Content-Type: application/json\r\n", body)
}

/// The `error` name of an API refusal.
fn error_name(answer: &Option<(u16, String)>) -> String {
    answer
        .as_ref()
        .and_then(|(_, b)| serde_json::from_str::<serde_json::Value>(b).ok())
        .and_then(|v| v["error"].as_str().map(str::to_string))
        .unwrap_or_default()
}

/// `GET /api/health` `n` times; each one answered (200) or not, and the slowest, printed.
fn probe_health(addr: SocketAddr, n: usize, what: &str) -> usize {
    let mut answered = 0;
    let mut worst = Duration::ZERO;
    for _ in 0..n {
        let t = Instant::now();
        if get(addr, "/api/health").is_some_and(|(s, _)| s == 200) {
            answered += 1;
        }
        worst = worst.max(t.elapsed());
    }
    eprintln!("{what}: /api/health answered {answered}/{n}, slowest {worst:?}");
    answered
}

/// Whether the server closed `s` (a read sees EOF or a reset, after any bytes it sent).
fn closed(mut s: &TcpStream) -> bool {
    let _ = s.set_nonblocking(true);
    let mut buf = [0u8; 4096];
    let gone = loop {
        match s.read(&mut buf) {
            Ok(0) => break true,
            Ok(_) => continue,
            Err(e) if e.kind() == ErrorKind::WouldBlock => break false,
            Err(_) => break true,
        }
    };
    let _ = s.set_nonblocking(false);
    gone
}

#[test]
fn slowloris_heads_leave_the_api_answering_and_hit_the_head_deadline() {
    let limits = WebLimits { head: Duration::from_secs(3), ..roomy() };
    let h = server("slowloris", WebConfig { limits, ..WebConfig::default() });
    let addr = h.addrs.web;
    // 300 connections, each trickling a request head a byte at a time.
    let mut slow: Vec<TcpStream> = (0..300)
        .filter_map(|_| TcpStream::connect_timeout(&addr, PATIENCE).ok())
        .inspect(|s| {
            let _ = s.set_write_timeout(Some(Duration::from_secs(1)));
        })
        .collect();
    assert_eq!(slow.len(), 300);
    let head =
        b"GET /api/health HTTP/1.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    let start = Instant::now();
    let mut open = slow.len();
    let mut answered = 0;
    for i in 0..head.len() {
        for s in &mut slow {
            let _ = s.write_all(&head[i..=i]);
        }
        answered += probe_health(addr, 1, "during slowloris");
        open = slow.iter().filter(|s| !closed(s)).count();
        if open == 0 || start.elapsed() > PATIENCE * 2 {
            break;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    eprintln!("slowloris: all 300 closed after {:?} (head deadline 3 s)", start.elapsed());
    assert!(answered > 0, "the API answered while 300 slow heads were held");
    assert_eq!(open, 0, "every trickling head was cut off by its absolute deadline");
    assert!(counter(&h, |c| &c.head_timeouts) >= 300);
    h.stop();
}

#[test]
fn a_half_sent_body_gets_408_at_its_deadline_and_others_are_answered() {
    let limits = WebLimits { body: Duration::from_secs(2), ..roomy() };
    let h = server("halfbody", WebConfig { limits, ..WebConfig::default() });
    let addr = h.addrs.web;
    let mut held = TcpStream::connect_timeout(&addr, PATIENCE).unwrap();
    let head = format!(
        "POST /api/rooms HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{{\"name\":"
    );
    held.write_all(head.as_bytes()).unwrap();
    // While that body is held, everyone else is served, creates included.
    assert_eq!(probe_health(addr, 3, "during a held body"), 3);
    let created = post_json(addr, "/api/rooms", r#"{"name":"Ann"}"#);
    assert_eq!(created.as_ref().map(|a| a.0), Some(201), "{created:?}");
    held.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut text = Vec::new();
    let _ = held.read_to_end(&mut text);
    let answer = parse_answer(&text);
    assert_eq!(answer.as_ref().map(|a| a.0), Some(408), "{answer:?}");
    assert_eq!(error_name(&answer), "body_timeout");
    assert_eq!(counter(&h, |c| &c.body_timeouts), 1);
    h.stop();
}

#[test]
fn a_peer_that_stops_reading_a_large_file_blocks_no_one() {
    let root = data_dir("slowreader-root");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("index.html"), "<!doctype html><canvas></canvas>").unwrap();
    std::fs::write(root.join("big.wasm"), vec![7u8; 48 << 20]).unwrap();
    let limits = WebLimits { write_stall: Duration::from_secs(2), ..roomy() };
    let h = server("slowreader", WebConfig { root, limits, ..WebConfig::default() });
    let addr = h.addrs.web;
    let mut reader = TcpStream::connect_timeout(&addr, PATIENCE).unwrap();
    reader.write_all(format!("GET /big.wasm HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes()).unwrap();
    // It reads a few bytes, then nothing: the server's writes stall once the buffers fill.
    let mut first = [0u8; 64];
    reader.set_read_timeout(Some(PATIENCE)).unwrap();
    assert!(reader.read(&mut first).unwrap() > 0);
    assert_eq!(probe_health(addr, 3, "during a stalled reader"), 3);
    let page = get(addr, "/");
    assert_eq!(page.map(|p| p.0), Some(200), "static files still served");
    assert!(
        eventually(|| counter(&h, |c| &c.write_stalls) >= 1),
        "the stalled download was ended by the write-stall deadline"
    );
    h.stop();
    let _ = std::fs::remove_dir_all(data_dir("slowreader-root"));
}

#[test]
fn a_thousand_idle_connections_leave_the_api_answering() {
    let limits = WebLimits { head: Duration::from_secs(120), ..roomy() };
    let h = server("idle1000", WebConfig { limits, ..WebConfig::default() });
    let addr = h.addrs.web;
    let idle: Vec<TcpStream> =
        (0..1000).filter_map(|_| TcpStream::connect_timeout(&addr, PATIENCE).ok()).collect();
    assert_eq!(idle.len(), 1000);
    assert!(
        eventually(|| counter(&h, |c| &c.open) >= 1000),
        "all 1,000 accepted and held: {}",
        counter(&h, |c| &c.open)
    );
    assert_eq!(probe_health(addr, 5, "with 1,000 idle connections"), 5);
    drop(idle);
    assert!(eventually(|| counter(&h, |c| &c.open) == 0), "closed connections are given back");
    h.stop();
}

#[test]
fn the_connection_cap_per_address_closes_the_extra_one_at_once() {
    let limits = WebLimits { per_address: 3, ..WebLimits::default() };
    let h = server("percap", WebConfig { limits, ..WebConfig::default() });
    let addr = h.addrs.web;
    let mut held: Vec<TcpStream> =
        (0..3).map(|_| TcpStream::connect_timeout(&addr, PATIENCE).unwrap()).collect();
    assert!(eventually(|| counter(&h, |c| &c.open) == 3));
    let mut extra = TcpStream::connect_timeout(&addr, PATIENCE).unwrap();
    extra.set_read_timeout(Some(PATIENCE)).unwrap();
    let _ = extra.write_all(format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes());
    let mut buf = [0u8; 64];
    let got = extra.read(&mut buf);
    assert!(matches!(got, Ok(0) | Err(_)), "the fourth connection is closed unanswered: {got:?}");
    assert_eq!(counter(&h, |c| &c.refused_per_address), 1);
    held.pop();
    assert!(eventually(|| counter(&h, |c| &c.open) == 2));
    assert_eq!(get(addr, "/healthz").map(|a| a.0), Some(200), "a freed place is reusable");
    h.stop();
}

#[test]
fn oversized_bodies_get_413_and_posts_without_json_content_type_415() {
    let h = server("sizes", WebConfig { limits: roomy(), ..WebConfig::default() });
    let addr = h.addrs.web;
    let big = format!(r#"{{"name":"{}"}}"#, "a".repeat(5000));
    let declared = post_json(addr, "/api/rooms", &big);
    assert_eq!(declared.as_ref().map(|a| a.0), Some(413), "{declared:?}");
    assert_eq!(error_name(&declared), "body_too_large");
    // Chunked, so no length is declared: the limit holds while reading.
    let chunk = "a".repeat(3000);
    let raw = format!(
        "POST /api/rooms HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{n:x}\r\n{chunk}\r\n{n:x}\r\n{chunk}\r\n0\r\n\r\n",
        n = chunk.len()
    );
    let chunked = exchange(addr, raw.as_bytes());
    assert_eq!(chunked.as_ref().map(|a| a.0), Some(413), "{chunked:?}");
    let none = post(addr, "/api/rooms", "", r#"{"name":"Ann"}"#);
    assert_eq!(none.as_ref().map(|a| a.0), Some(415), "{none:?}");
    assert_eq!(error_name(&none), "unsupported_media_type");
    // A cross-site form post's type.
    let form = post(addr, "/api/rooms", "Content-Type: text/plain\r\n", r#"{"name":"Ann"}"#);
    assert_eq!(form.map(|a| a.0), Some(415));
    assert_eq!(counter(&h, |c| &c.body_too_large), 2);
    assert_eq!(counter(&h, |c| &c.unsupported_media), 2);
    let health = get(addr, "/api/health").unwrap();
    assert!(health.1.contains("\"rooms\":0"), "nothing was created: {}", health.1);
    h.stop();
}

#[test]
fn malformed_bodies_get_400_with_a_named_error_and_create_nothing() {
    let h = server("strict", WebConfig { limits: roomy(), ..WebConfig::default() });
    let addr = h.addrs.web;
    let cases = [
        ("/api/rooms", r#"{"name":"Ann","admin":true}"#, "unknown_field"),
        ("/api/rooms", r#"{"name":7}"#, "wrong_type"),
        ("/api/rooms", r#"["Ann"]"#, "wrong_type"),
        ("/api/rooms", r#"{"name":"Ann""#, "malformed_json"),
        ("/api/rooms", "", "malformed_json"),
        ("/api/rooms", &format!(r#"{{"name":"{}"}}"#, "n".repeat(65)), "out_of_range"),
        ("/api/rooms", r#"{"level":"../etc"}"#, "out_of_range"),
        ("/api/rooms", r#"{"mode":"Chess"}"#, "out_of_range"),
        ("/api/rooms", r#"{"level":"no_such_level"}"#, "unknown_level"),
        ("/api/rooms/ABCDE/join", r#"{"name":"Bob","seat":3}"#, "unknown_field"),
        ("/api/rooms/ABCDE/join", r#"{"reconnect":"zz"}"#, "bad_reconnect"),
    ];
    for (path, body, name) in cases {
        let answer = post_json(addr, path, body);
        assert_eq!(answer.as_ref().map(|a| a.0), Some(400), "{body}: {answer:?}");
        assert_eq!(error_name(&answer), name, "{body}");
    }
    let health = get(addr, "/api/health").unwrap();
    assert!(health.1.contains("\"rooms\":0"), "nothing was created: {}", health.1);
    let ok = post_json(addr, "/api/rooms", r#"{"name":"Ann","level":null}"#);
    assert_eq!(ok.map(|a| a.0), Some(201), "the well-formed body still creates");
    h.stop();
}

#[test]
fn room_creation_is_limited_per_address_by_count_and_by_rate() {
    let limits = WebLimits { rooms_per_address: 2, room_burst: 100, ..roomy() };
    let h = server("quota-count", WebConfig { limits, ..WebConfig::default() });
    let addr = h.addrs.web;
    let create = || post_json(addr, "/api/rooms", r#"{"name":"Ann"}"#);
    let first = create().unwrap();
    assert_eq!(first.0, 201);
    assert_eq!(create().map(|a| a.0), Some(201));
    let third = create();
    assert_eq!(third.as_ref().map(|a| a.0), Some(429), "{third:?}");
    assert_eq!(error_name(&third), "rooms_per_address");
    assert_eq!(counter(&h, |c| &c.rooms_per_address), 1);
    // The first room ends: once the router learns it (a 404 for its code), it no longer
    // counts against its creator.
    let code = serde_json::from_str::<serde_json::Value>(&first.1).unwrap()["code"]
        .as_str()
        .unwrap()
        .to_string();
    let gone = code.clone();
    h.with_world(move |w| {
        let e =
            w.resource_mut::<undercooked::net::server::rooms::RoomIndex>().by_code.remove(&gone);
        if let Some(e) = e {
            w.despawn(e);
        }
    });
    assert_eq!(get(addr, &format!("/api/rooms/{code}")).map(|a| a.0), Some(404));
    assert_eq!(create().map(|a| a.0), Some(201), "an ended room frees its creator's place");
    h.stop();

    let limits = WebLimits {
        rooms_per_address: 0,
        room_burst: 2,
        room_refill: Duration::from_secs(3600),
        ..roomy()
    };
    let h = server("quota-rate", WebConfig { limits, ..WebConfig::default() });
    let addr = h.addrs.web;
    let create = || post_json(addr, "/api/rooms", r#"{"name":"Ann"}"#);
    assert_eq!(create().map(|a| a.0), Some(201));
    assert_eq!(create().map(|a| a.0), Some(201));
    let third = create();
    assert_eq!(third.as_ref().map(|a| a.0), Some(429), "{third:?}");
    assert_eq!(error_name(&third), "room_rate_limit");
    assert_eq!(counter(&h, |c| &c.room_rate_limited), 1);
    h.stop();
}

#[test]
fn the_router_prunes_rooms_that_ended_on_its_own() {
    let limits = WebLimits { rooms_per_address: 1, ..roomy() };
    let h = server("prune", WebConfig { limits, ..WebConfig::default() });
    let addr = h.addrs.web;
    let create = || post_json(addr, "/api/rooms", r#"{"name":"Ann"}"#).map(|a| a.0);
    assert_eq!(create(), Some(201));
    assert_eq!(create(), Some(429));
    // Every room ends, and nobody asks for its code: the periodic prune finds out.
    h.with_world(|w| {
        let codes: Vec<_> = w
            .resource_mut::<undercooked::net::server::rooms::RoomIndex>()
            .by_code
            .drain()
            .collect();
        for (_, e) in codes {
            w.despawn(e);
        }
    });
    let end = Instant::now() + PATIENCE * 2;
    let mut again = None;
    while Instant::now() < end {
        again = create();
        if again == Some(201) {
            break;
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    assert_eq!(again, Some(201), "the pruned room no longer counts");
    h.stop();
}

#[test]
fn only_configured_origins_may_call_the_api_or_open_a_relay() {
    let web = WebConfig {
        origins: vec!["https://play.example".into()],
        limits: WebLimits { rooms_per_address: 0, room_burst: 0, ..roomy() },
        ..WebConfig::default()
    };
    let h = server("origins", web);
    let addr = h.addrs.web;
    let port = addr.port();
    let create = |origin: &str, host: &str| {
        let raw = format!(
            "POST /api/rooms HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{{}}"
        );
        exchange(addr, raw.as_bytes())
    };
    let foreign = create("http://evil.example", &addr.to_string());
    assert_eq!(foreign.as_ref().map(|a| a.0), Some(403), "{foreign:?}");
    assert_eq!(error_name(&foreign), "origin_refused");
    // DNS rebinding: the page's own name in both Host and Origin.
    let host = format!("evil.example:{port}");
    let rebound = create(&format!("http://{host}"), &host);
    assert_eq!(rebound.map(|a| a.0), Some(403), "a rebinding page is refused");
    assert_eq!(
        create(&format!("http://127.0.0.1:{port}"), &addr.to_string()).map(|a| a.0),
        Some(201)
    );
    assert_eq!(
        create(&format!("http://localhost:{port}"), &addr.to_string()).map(|a| a.0),
        Some(201)
    );
    assert_eq!(create("https://play.example", &addr.to_string()).map(|a| a.0), Some(201));
    let reply = undercooked::net::client::api::api_create(&addr.to_string(), "Ann", None).unwrap();
    let token = || undercooked::net::wire::tokens::read_token(&reply.token).unwrap();
    let open = |origin: Option<&str>| {
        undercooked::net::client::ws::WsClientTransport::connect(&addr.to_string(), origin, token())
    };
    let err = open(Some(&format!("http://evil.example:{port}"))).err().expect("refused");
    assert!(matches!(&err, NetError::WebSocketRefused(s) if s.starts_with("403")), "{err}");
    assert!(open(Some("https://play.example")).is_ok(), "a listed origin opens a relay");
    assert!(open(None).is_ok(), "no Origin: a native client");
    assert_eq!(counter(&h, |c| &c.origin_refused), 3);
    h.stop();
}

#[test]
fn healthz_answers_while_the_process_is_up_and_readyz_only_while_the_world_answers() {
    let h = server("probes", WebConfig { limits: roomy(), ..WebConfig::default() });
    let addr = h.addrs.web;
    let healthz = get(addr, "/healthz").unwrap();
    assert_eq!(healthz.0, 200);
    assert_eq!(serde_json::from_str::<serde_json::Value>(&healthz.1).unwrap()["status"], "ok");
    assert_eq!(get(addr, "/readyz").map(|a| a.0), Some(200));
    // The world stalls (one frame of 8 s, four times /readyz's wait): the process is up, the
    // world is not ready.
    let stalled = Arc::new(AtomicBool::new(false));
    std::thread::scope(|scope| {
        let flag = stalled.clone();
        let h = &h;
        scope.spawn(move || {
            h.with_world(move |_| {
                flag.store(true, Ordering::SeqCst);
                std::thread::sleep(Duration::from_secs(8));
            })
        });
        assert!(eventually(|| stalled.load(Ordering::SeqCst)));
        let t = Instant::now();
        let ready = get(addr, "/readyz");
        eprintln!("readyz with a stalled world: {ready:?} after {:?}", t.elapsed());
        assert_eq!(ready.map(|a| a.0), Some(503));
        assert_eq!(get(addr, "/healthz").map(|a| a.0), Some(200), "healthz needs no world");
    });
    assert_eq!(get(addr, "/readyz").map(|a| a.0), Some(200), "ready again once it answers");
    h.stop();
}

#[test]
fn a_relay_keeps_its_connections_place_under_the_per_address_cap() {
    let limits = WebLimits { per_address: 2, ..WebLimits::default() };
    // These relays never start a netcode session: give them a long session deadline.
    let relay_session = Duration::from_secs(600);
    let h = server("relaycap", WebConfig { limits, relay_session, ..WebConfig::default() });
    let web = h.addrs.web.to_string();
    let reply = undercooked::net::client::api::api_create(&web, "Ann", None).unwrap();
    let token = || undercooked::net::wire::tokens::read_token(&reply.token).unwrap();
    let open = || undercooked::net::client::ws::WsClientTransport::connect(&web, None, token());
    let first = open().expect("relay 1");
    let _second = open().expect("relay 2");
    let relays = |h: &ServerHandle| h.with_world(|w| w.resource::<HttpHandle>().relays());
    assert!(eventually(|| relays(&h) == 2));
    assert_eq!(counter(&h, |c| &c.open), 2, "each relay still holds its connection's place");
    assert!(open().is_err(), "a third connection from the address is closed at accept");
    assert!(counter(&h, |c| &c.refused_per_address) >= 1);
    drop(first);
    assert!(eventually(|| relays(&h) == 1 && counter(&h, |c| &c.open) == 1));
    assert!(open().is_ok(), "a closed relay gives its place back");
    h.stop();
}

/// A browser's netcode handshake through the relay, from `source` (another loopback address):
/// its own WebSocket (the TCP socket bound to `source` first) and the connected netcode client.
fn relay_session_from(
    source: &str,
    web: SocketAddr,
    reply: &undercooked::net::client::session::JoinReply,
) -> (tungstenite::WebSocket<TcpStream>, renetcode::NetcodeClient) {
    let tcp = crate::loopback::connect_from(source, web);
    let (mut ws, _) = tungstenite::client(format!("ws://{web}/ws"), tcp).expect("relay upgrade");
    ws.get_mut().set_read_timeout(Some(Duration::from_millis(20))).unwrap();
    let token = undercooked::net::wire::tokens::read_token(&reply.token).unwrap();
    let auth = renetcode::ClientAuthentication::Secure { connect_token: token };
    let now = undercooked::net::wire::tokens::unix_now();
    let mut netcode = renetcode::NetcodeClient::new(now, auth).unwrap();
    let end = Instant::now() + PATIENCE;
    while !netcode.is_connected() && Instant::now() < end {
        pump(&mut ws, &mut netcode);
    }
    assert!(netcode.is_connected(), "the netcode handshake completes through the relay");
    (ws, netcode)
}

/// One step of a relayed netcode client: what it wants to send, then what arrived.
fn pump(ws: &mut tungstenite::WebSocket<TcpStream>, netcode: &mut renetcode::NetcodeClient) {
    if let Some((packet, _)) = netcode.update(Duration::from_millis(20)) {
        let _ = ws.send(tungstenite::Message::binary(packet.to_vec()));
    }
    while let Ok(msg) = ws.read() {
        if let tungstenite::Message::Binary(b) = msg {
            netcode.process_packet(&mut b.to_vec());
        }
    }
}

#[test]
fn one_address_cannot_hold_every_relay_with_pings_alone() {
    let cfg = WebConfig {
        max_relays: 32,
        relays_per_address: 4,
        relay_session: Duration::from_secs(2),
        limits: roomy(),
        ..WebConfig::default()
    };
    let h = server("relaylock", cfg);
    let web = h.addrs.web;
    let upgrade = || tungstenite::connect(format!("ws://{web}/ws"));
    // 40 upgrades from one address: four relays, then named refusals.
    let (mut held, mut refused) = (Vec::new(), Vec::new());
    for _ in 0..40 {
        match upgrade() {
            Ok((mut ws, _)) => {
                if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_mut() {
                    s.set_read_timeout(Some(Duration::from_millis(20))).unwrap();
                }
                held.push(ws);
            }
            Err(tungstenite::Error::Http(r)) => {
                let body = r.body().as_deref().map(String::from_utf8_lossy).unwrap_or_default();
                refused.push((r.status().as_u16(), body.to_string()));
            }
            Err(e) => panic!("an upgrade is answered, not dropped: {e}"),
        }
    }
    assert_eq!(held.len(), 4, "the address's relay cap");
    assert_eq!(refused.len(), 36);
    assert!(
        refused.iter().all(|(status, body)| *status == 429 && body.contains("relays_per_address")),
        "each refusal names the limit met: {:?}",
        refused.first()
    );
    assert_eq!(counter(&h, |c| &c.relay_refused_per_address), 36);
    assert_eq!(counter(&h, |c| &c.relay_refused), 0, "the total cap was never the limit");
    // A browser player at another address still gets a relay, and a session through it.
    let reply = undercooked::net::client::api::api_create(&web.to_string(), "Bea", None).unwrap();
    let (mut ws, mut netcode) = relay_session_from("127.0.0.2", web, &reply);
    // Pings keep the four sockets busy, but no session runs through them: each is closed, while
    // the player's relay, carrying keep-alives, stays.
    let relays = |h: &ServerHandle| h.with_world(|w| w.resource::<HttpHandle>().relays());
    let closed = eventually(|| {
        for held in &mut held {
            let _ = held.send(tungstenite::Message::Ping(Vec::new().into()));
            let _ = held.read();
        }
        pump(&mut ws, &mut netcode);
        counter(&h, |c| &c.relays_sessionless) >= 4
    });
    assert!(closed, "sessionless relays closed: {}", counter(&h, |c| &c.relays_sessionless));
    assert!(eventually(|| {
        pump(&mut ws, &mut netcode);
        relays(&h) == 1
    }));
    assert!(netcode.is_connected(), "the player's session outlived the pinging sockets");
    assert_eq!(counter(&h, |c| &c.relays_sessionless), 4);
    // The address's places are back.
    assert!(upgrade().is_ok(), "a closed relay gives its address's place back");
    h.stop();
}
