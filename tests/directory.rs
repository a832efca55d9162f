//! The directory over real processes and sockets on 127.0.0.1: `undercooked directory` (in
//! process, or on a real `redis-server` started here on a free port with its own data dir),
//! game servers announcing to it (`--headless --announce`), `join --directory`, the impairment
//! proxy between a server and the directory, and hostile announces and bodies. Nothing is
//! faked; every wait is a poll with a generous deadline, never a timing assertion.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use undercooked::net::wire::tokens::PROTOCOL_ID;

#[path = "support/loopback.rs"]
mod loopback;

#[path = "directory/board.rs"]
mod board;

/// The longest any poll waits (entries expire after a few seconds here).
const PATIENCE: Duration = Duration::from_secs(40);
const BIN: &str = env!("CARGO_BIN_EXE_undercooked");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("uc-directory-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A loopback port nothing listens on (bound, then let go).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A child process killed (SIGKILL) and reaped when dropped.
struct Proc {
    child: Child,
    /// Its address, from its banner.
    addr: String,
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the binary with `args`; its address is the text after `marker` on its first line.
fn spawn(args: &[String], marker: &str) -> Proc {
    let mut child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let addr = first
        .split(marker)
        .nth(1)
        .unwrap_or_else(|| panic!("banner {first:?} lacks {marker:?}"))
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    // Keep reading: a closed pipe would fail the process's later prints.
    std::thread::spawn(move || out.lines().for_each(drop));
    Proc { child, addr }
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// `undercooked directory` on 127.0.0.1 (`port` 0: any), with `extra` options. Every test's
/// traffic comes from 127.0.0.1 and polls: its per-address rates are roomy unless `extra` sets
/// them (the tests of the limits do).
fn directory(port: u16, extra: &[&str]) -> Proc {
    let mut args = strings(&["directory", "--bind", "127.0.0.1", "--web-port"]);
    args.push(port.to_string());
    args.extend(strings(extra));
    let rates = [
        "--announces-per-minute",
        "--lookups-per-minute",
        "--unknown-lookups-per-minute",
        "--quick-matches-per-minute",
    ];
    for rate in rates {
        if !extra.contains(&rate) {
            args.extend(strings(&[rate, "6000"]));
        }
    }
    let mut p = spawn(&args, "directory: http://");
    p.addr = format!("http://{}", p.addr);
    p
}

/// A game server on 127.0.0.1 with `extra` options (`--announce …`); `addr` is its web port.
fn server(name: &str, extra: &[&str]) -> Proc {
    server_at(name, 0, extra)
}

/// [`server`] with its web port on `web_port` (0: any).
fn server_at(name: &str, web_port: u16, extra: &[&str]) -> Proc {
    let dir = scratch(name);
    let web_port = web_port.to_string();
    let mut args = strings(&[
        "--headless",
        "--port",
        "0",
        "--web-port",
        &web_port,
        "--bind",
        "127.0.0.1",
        "--levels",
        "levels",
        "--data-dir",
    ]);
    args.push(dir.display().to_string());
    args.extend(strings(extra));
    spawn(&args, "web http://")
}

/// A server announcing to `dir` every second as `name`.
fn announcing(name: &str, dir: &str, extra: &[&str]) -> Proc {
    let mut args = vec!["--announce", dir, "--name", name, "--region", "test"];
    args.extend(["--announce-secs", "1"]);
    args.extend(extra);
    server(name, &args)
}

/// A real `redis-server` on a free loopback port with its own data dir; killed when dropped.
struct Redis {
    _proc: Proc,
    url: String,
}

fn redis(name: &str) -> Redis {
    redis_on(name, free_port())
}

fn redis_on(name: &str, port: u16) -> Redis {
    let dir = scratch(&format!("redis-{name}"));
    let child = Command::new("redis-server")
        .args(["--bind", "127.0.0.1", "--port", &port.to_string(), "--save", "", "--dir"])
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("redis-server is installed (.ci/lib.sh installs it)");
    let proc = Proc { child, addr: format!("127.0.0.1:{port}") };
    until("redis answers PING", || {
        let mut s = TcpStream::connect(&proc.addr).ok()?;
        s.set_read_timeout(Some(Duration::from_secs(2))).ok()?;
        s.write_all(b"PING\r\n").ok()?;
        let mut buf = [0u8; 7];
        s.read_exact(&mut buf).ok()?;
        (&buf == b"+PONG\r\n").then_some(())
    });
    let url = format!("redis://{}/", proc.addr);
    Redis { _proc: proc, url }
}

/// Polls `f` until it gives a value; panics naming `what` after [`PATIENCE`].
fn until<T>(what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let end = Instant::now() + PATIENCE;
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < end, "gave up waiting: {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn get(url: &str) -> (i32, Value) {
    match minreq::get(url).with_timeout(10).send() {
        Ok(r) => {
            (r.status_code, serde_json::from_str(r.as_str().unwrap_or("")).unwrap_or(Value::Null))
        }
        Err(_) => (0, Value::Null),
    }
}

fn post(url: &str, body: &Value) -> (i32, Value) {
    let r = minreq::post(url)
        .with_header("Content-Type", "application/json")
        .with_body(body.to_string())
        .with_timeout(10)
        .send()
        .expect("the directory answers");
    (r.status_code, serde_json::from_str(r.as_str().unwrap_or("")).unwrap_or(Value::Null))
}

fn servers(dir: &str) -> Vec<Value> {
    let (status, v) = get(&format!("{dir}/api/servers"));
    if status != 200 {
        return Vec::new();
    }
    v["servers"].as_array().cloned().unwrap_or_default()
}

/// The listed entry whose address is `addr`.
fn entry(dir: &str, addr: &str) -> Option<Value> {
    servers(dir).into_iter().find(|s| s["address"] == addr)
}

/// A new room on the game server at `web`: its code.
fn create_room(web: &str, public: bool) -> String {
    let (status, v) =
        post(&format!("http://{web}/api/rooms"), &json!({"name": "Host", "public": public}));
    assert_eq!(status, 201, "{v}");
    v["code"].as_str().unwrap().to_string()
}

/// An announce body claiming `address` with `rooms` (codes), as the test's own sender.
fn announce_body(address: &str, codes: &[&str]) -> Value {
    let rooms: Vec<Value> = codes
        .iter()
        .map(|c| {
            json!({"code": c, "level": "tutorial", "mode": "Cooking", "phase": "Lobby",
                   "seats_taken": 1, "seats_free": 3, "public": true})
        })
        .collect();
    json!({"address": address, "name": "Tester", "region": "test", "protocol": PROTOCOL_ID,
           "capacity": 8, "rooms": rooms})
}

/// The refusal's name in an answer.
fn error(v: &Value) -> &str {
    v["error"].as_str().unwrap_or("")
}

fn metric(dir: &str, series: &str) -> u64 {
    let text = minreq::get(format!("{dir}/metrics"))
        .with_timeout(10)
        .send()
        .ok()
        .and_then(|r| r.as_str().ok().map(str::to_string))
        .unwrap_or_default();
    text.lines()
        .find_map(|l| l.strip_prefix(series).and_then(|rest| rest.trim().parse().ok()))
        .unwrap_or(0)
}

#[test]
fn an_announced_server_is_listed_and_its_codes_resolve_and_join() {
    let dir = directory(0, &[]);
    let a = announcing("list-a", &dir.addr, &[]);
    until("the server is listed", || entry(&dir.addr, &a.addr));
    let public = create_room(&a.addr, true);
    let private = create_room(&a.addr, false);
    let listed =
        until("both rooms announced", || entry(&dir.addr, &a.addr).filter(|e| e["rooms"] == 2));
    assert_eq!(listed["name"], "list-a");
    assert_eq!(listed["region"], "test");
    assert_eq!(listed["protocol"], PROTOCOL_ID);
    let shown: Vec<&str> = listed["public_rooms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap())
        .collect();
    assert_eq!(shown, vec![public.as_str()], "only the public room is listed");
    // Both codes resolve (a private room is reached by its code), in any case.
    for code in [&public, &private] {
        let (status, v) = get(&format!("{}/api/rooms/{}", dir.addr, code.to_lowercase()));
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["address"], a.addr.as_str());
        assert_eq!(v["room"]["seats_taken"], 1);
    }
    let (status, v) = get(&format!("{}/api/rooms/ACDEF", dir.addr));
    assert_eq!((status, error(&v)), (404, "no_such_room"));
    // A headless client with only the directory and the code is seated there.
    let out = Command::new(BIN)
        .args(["join", "--headless", "--directory", &dir.addr, "--room", &private])
        .args(["--seconds", "1", "--name", "Guest"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains(&format!("joined room {private}")), "{err}");
    let (status, room) = get(&format!("http://{}/api/rooms/{private}", a.addr));
    assert_eq!(status, 200);
    assert!(room["seats"].as_array().unwrap().iter().any(|s| s["name"] == "Guest"), "{room}");
    // An unknown code through join is a named failure, not a hang.
    let out = Command::new(BIN)
        .args(["join", "--headless", "--directory", &dir.addr, "--room", "ACDEF"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no_such_room"));
    assert!(metric(&dir.addr, "undercooked_directory_lookups_total") >= 2);
    assert!(metric(&dir.addr, "undercooked_directory_registered_total") >= 1);
    let (status, ready) = get(&format!("{}/readyz", dir.addr));
    assert_eq!((status, ready["status"].as_str()), (200, Some("ready")));
}

#[test]
fn a_server_that_stops_heartbeating_leaves_the_list() {
    let dir = directory(0, &["--ttl-secs", "2"]);
    let a = announcing("ttl-a", &dir.addr, &[]);
    let code = create_room(&a.addr, true);
    until("the room resolves", || {
        (get(&format!("{}/api/rooms/{code}", dir.addr)).0 == 200).then_some(())
    });
    drop(a); // SIGKILL: no goodbye, the heartbeats just stop
    until("the server leaves the list", || servers(&dir.addr).is_empty().then_some(()));
    let (status, v) = get(&format!("{}/api/rooms/{code}", dir.addr));
    assert_eq!((status, error(&v)), (404, "no_such_room"));
}

#[test]
fn an_address_that_does_not_answer_is_never_listed() {
    let dir = directory(0, &[]);
    let closed = format!("127.0.0.1:{}", free_port());
    let a = announcing("unreachable-a", &dir.addr, &["--public-web", &closed]);
    until("the probe's refusal is counted", || {
        (metric(&dir.addr, "undercooked_directory_refused_total{error=\"unreachable\"}") >= 2)
            .then_some(())
    });
    assert!(servers(&dir.addr).is_empty(), "nothing listed: {:?}", servers(&dir.addr));
    // The same claim by hand: refused by name.
    let (status, v) = post(&format!("{}/api/announce", dir.addr), &announce_body(&closed, &[]));
    assert_eq!((status, error(&v)), (422, "unreachable"), "{v}");
    // A port that answers, but not as a game server (the directory itself), is no server.
    let itself = dir.addr.trim_start_matches("http://");
    let (status, v) = post(&format!("{}/api/announce", dir.addr), &announce_body(itself, &[]));
    assert_eq!((status, error(&v)), (422, "unreachable"), "{v}");
    assert!(v["detail"].as_str().unwrap().contains("not as a game server"), "{v}");
    drop(a);
}

#[test]
fn entries_are_renewed_only_by_their_owner() {
    let dir = directory(0, &["--fleet-secret", "operators-own-secret"]);
    let a = announcing("owner-a", &dir.addr, &[]);
    let listed = until("a is listed", || entry(&dir.addr, &a.addr));
    let id_a = listed["id"].as_str().unwrap().to_string();
    let url = format!("{}/api/announce", dir.addr);
    // Another sender takes the address with a fresh entry: refused.
    let (status, v) = post(&url, &announce_body(&a.addr, &[]));
    assert_eq!((status, error(&v)), (409, "address_taken"), "{v}");
    // A's id with a forged secret: refused.
    let mut forged = announce_body(&a.addr, &[]);
    forged["id"] = json!(id_a);
    forged["secret"] = json!("0123456789abcdef0123456789abcdef");
    let (status, v) = post(&url, &forged);
    assert_eq!((status, error(&v)), (403, "bad_secret"), "{v}");
    // A real secret of another entry, replayed on A's id: refused.
    let b = server("owner-b", &[]);
    let (status, mine) = post(&url, &announce_body(&b.addr, &[]));
    assert_eq!(status, 200, "{mine}");
    let secret_b = mine["secret"].as_str().unwrap().to_string();
    let mut replayed = announce_body(&a.addr, &[]);
    replayed["id"] = json!(id_a);
    replayed["secret"] = json!(secret_b);
    let (status, v) = post(&url, &replayed);
    assert_eq!((status, error(&v)), (403, "bad_secret"), "{v}");
    // B's own secret renews B (no secret in the answer: it was given once).
    let mut renew = announce_body(&b.addr, &[]);
    renew["id"] = mine["id"].clone();
    renew["secret"] = json!(secret_b);
    let (status, v) = post(&url, &renew);
    assert_eq!(status, 200, "{v}");
    assert!(v["secret"].is_null(), "{v}");
    // A wrong fleet secret, and an address that is not the sender's, are refused by name.
    let mut fleet = announce_body(&a.addr, &[]);
    fleet["fleet"] = json!("guessed");
    let (status, v) = post(&url, &fleet);
    assert_eq!((status, error(&v)), (403, "bad_fleet_secret"), "{v}");
    let (status, v) = post(&url, &announce_body("127.0.0.2:7780", &[]));
    assert_eq!((status, error(&v)), (400, "bad_address"), "{v}");
    // A is still listed as itself.
    let still = entry(&dir.addr, &a.addr).unwrap();
    assert_eq!(
        (still["id"].as_str(), still["name"].as_str()),
        (Some(id_a.as_str()), Some("owner-a"))
    );
}

#[test]
fn directories_on_one_redis_share_entries_and_a_restart_loses_none() {
    let redis = redis("shared");
    let port = free_port();
    let one = directory(port, &["--redis", &redis.url]);
    let two = directory(0, &["--redis", &redis.url]);
    let a = announcing("redis-a", &one.addr, &[]);
    let code = create_room(&a.addr, false);
    let seen = until("the second directory lists what the first was told", || {
        entry(&two.addr, &a.addr).filter(|e| e["rooms"] == 1)
    });
    let (status, v) = get(&format!("{}/api/rooms/{code}", two.addr));
    assert_eq!((status, v["address"].as_str()), (200, Some(a.addr.as_str())), "{v}");
    assert_eq!(servers(&one.addr), servers(&two.addr));
    // The first directory restarts on its port: the entry is there at once, and A's next
    // heartbeats renew it with its secret (a renewal, not a new entry).
    let one_addr = one.addr.clone();
    drop(one);
    let again = directory(port, &["--redis", &redis.url]);
    assert_eq!(again.addr, one_addr);
    let kept = entry(&again.addr, &a.addr).expect("the entry survived the restart");
    assert_eq!(kept["id"], seen["id"]);
    until("a heartbeat renews the entry", || {
        (metric(&again.addr, "undercooked_directory_announces_total") >= 2).then_some(())
    });
    assert_eq!(metric(&again.addr, "undercooked_directory_registered_total"), 0);
    assert_eq!(entry(&again.addr, &a.addr).unwrap()["id"], seen["id"]);
    drop(redis);
}

#[test]
fn a_store_that_goes_away_gives_named_503s_and_recovers_while_rooms_play_on() {
    let port = free_port();
    let redis = redis_on("gone", port);
    let dir = directory(0, &["--redis", &redis.url]);
    assert_eq!(get(&format!("{}/readyz", dir.addr)).0, 200);
    let mut a = announcing("gone-a", &dir.addr, &[]);
    let code = create_room(&a.addr, true);
    let listed =
        until("the room is listed", || entry(&dir.addr, &a.addr).filter(|e| e["rooms"] == 1));
    drop(redis);
    let (status, v) = get(&format!("{}/api/servers", dir.addr));
    assert_eq!((status, error(&v)), (503, "store_unavailable"), "{v}");
    let (status, v) = get(&format!("{}/readyz", dir.addr));
    assert_eq!((status, error(&v)), (503, "store_unavailable"), "{v}");
    let (status, v) = get(&format!("{}/api/rooms/{code}", dir.addr));
    assert_eq!((status, error(&v)), (503, "store_unavailable"), "{v}");
    assert_eq!(get(&format!("{}/healthz", dir.addr)).0, 200, "the process itself is fine");
    // The game server's heartbeats are refused meanwhile; its room plays on, joined by address.
    until("a heartbeat refused by name", || {
        (metric(&dir.addr, "undercooked_directory_refused_total{error=\"store_unavailable\"}") >= 4)
            .then_some(())
    });
    let out = Command::new(BIN)
        .args(["join", "--headless", &a.addr, "--room", &code, "--seconds", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(a.child.try_wait().unwrap().is_none(), "the game server runs on");
    // Redis back on its port (empty: it saves nothing): the directory answers again with no
    // restart of its own, and the server's next heartbeat lists it again under its entry.
    let back = redis_on("gone", port);
    until("the directory recovers", || {
        (get(&format!("{}/api/servers", dir.addr)).0 == 200).then_some(())
    });
    assert_eq!(get(&format!("{}/readyz", dir.addr)).0, 200);
    let again = until("the server is listed again", || entry(&dir.addr, &a.addr));
    assert_eq!(again["id"], listed["id"], "renewed with its own secret");
    until("its code resolves again", || {
        (get(&format!("{}/api/rooms/{code}", dir.addr)).0 == 200).then_some(())
    });
    drop(back);
}

/// Sends raw bytes and reads the answer's status line and body (the connection's whole answer).
fn raw(dir: &str, bytes: &[u8], shut_write: bool) -> (String, Value) {
    raw_on(TcpStream::connect(dir.trim_start_matches("http://")).unwrap(), bytes, shut_write)
}

/// A connection to the directory from `source`, another loopback address (127.0.0.2): the
/// directory's per-address limits see a second peer.
fn connect_from(source: &str, dir: &str) -> TcpStream {
    loopback::connect_from(source, dir.trim_start_matches("http://").parse().unwrap())
}

/// `GET path` from `source`: the status and the refusal's name (or the body's `address`).
fn get_from(source: &str, dir: &str, path: &str) -> (u16, Value) {
    let req = format!("GET {path} HTTP/1.1\r\nHost: d\r\nConnection: close\r\n\r\n");
    let (status, v) = raw_on(connect_from(source, dir), req.as_bytes(), false);
    (status.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0), v)
}

/// Sends raw bytes on `s` and reads one answer's status line and body.
fn raw_on(mut s: TcpStream, bytes: &[u8], shut_write: bool) -> (String, Value) {
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let _ = s.write_all(bytes);
    if shut_write {
        let _ = s.shutdown(std::net::Shutdown::Write);
    }
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(n) = s.read(&mut buf) {
        if n == 0 {
            break;
        }
        answer.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&answer);
        // One answer is enough (a kept-alive connection would otherwise wait).
        if let Some((head, body)) = text.split_once("\r\n\r\n")
            && let Some(len) = head
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().to_string())
                })
                .and_then(|v| v.parse::<usize>().ok())
            && body.len() >= len
        {
            break;
        }
    }
    let text = String::from_utf8_lossy(&answer).to_string();
    let status = text.lines().next().unwrap_or("").to_string();
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

fn announce_request(body: &[u8], declared: usize, content_type: &str) -> Vec<u8> {
    let mut r = format!(
        "POST /api/announce HTTP/1.1\r\nHost: d\r\nContent-Type: {content_type}\r\nContent-Length: {declared}\r\n\r\n"
    )
    .into_bytes();
    r.extend_from_slice(body);
    r
}

#[test]
fn bad_bodies_get_named_errors() {
    let dir = directory(0, &[]);
    let url = format!("{}/api/announce", dir.addr);
    let named = |bytes: &[u8], shut: bool| {
        let (status, v) = raw(&dir.addr, bytes, shut);
        (status.split_whitespace().nth(1).unwrap_or("").to_string(), error(&v).to_string())
    };
    let json_req = |b: &[u8]| announce_request(b, b.len(), "application/json");
    let cases: Vec<(Vec<u8>, &str, &str)> = vec![
        (json_req(b"\x00\xff\xfe garbage"), "400", "malformed_json"),
        (json_req(b"{\"address\": "), "400", "malformed_json"),
        (json_req(b"[1,2,3]"), "400", "wrong_type"),
        (json_req(b"{\"address\": 7}"), "400", "wrong_type"),
        (json_req(b"{\"adress\": \"x\"}"), "400", "unknown_field"),
        (json_req(b""), "400", "malformed_json"),
        (announce_request(b"{}", 2, "text/plain"), "415", "unsupported_media_type"),
        (announce_request(b"{}", 1 << 20, "application/json"), "413", "body_too_large"),
        (b"GET /api/nothing HTTP/1.1\r\nHost: d\r\n\r\n".to_vec(), "404", "unknown_endpoint"),
        (b"DELETE /api/servers HTTP/1.1\r\nHost: d\r\n\r\n".to_vec(), "405", "method_not_allowed"),
        // A head over 8 KiB: hyper's 431, before any route is asked.
        (
            format!(
                "GET /api/servers HTTP/1.1\r\nHost: d\r\nX-Big: {}\r\n\r\n",
                "a".repeat(10_000)
            )
            .into_bytes(),
            "431",
            "",
        ),
    ];
    for (bytes, status, name) in &cases {
        assert_eq!(
            named(bytes, false),
            (status.to_string(), name.to_string()),
            "{:?}",
            String::from_utf8_lossy(bytes)
        );
    }
    // Truncated: the head promises 500 bytes, 20 arrive and the sender stops writing.
    let truncated = announce_request(b"{\"address\": \"127.0.", 500, "application/json");
    assert_eq!(named(&truncated, true), ("400".into(), "malformed_json".into()));
    // Oversized, sent whole without a declared length (chunked).
    let mut chunked = b"POST /api/announce HTTP/1.1\r\nHost: d\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    let chunk = vec![b' '; 64 * 1024];
    for _ in 0..3 {
        chunked.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        chunked.extend_from_slice(&chunk);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    assert_eq!(named(&chunked, false), ("413".into(), "body_too_large".into()));
    // Lies inside well-formed announces.
    let me = dir.addr.trim_start_matches("http://").to_string();
    let lie = |f: &dyn Fn(&mut Value)| {
        let mut b = announce_body(&me, &["ACDEF"]);
        f(&mut b);
        let (status, v) = post(&url, &b);
        (status, error(&v).to_string())
    };
    assert_eq!(lie(&|b| b["name"] = json!("bell\u{7}")), (400, "bad_label".into()));
    assert_eq!(lie(&|b| b["name"] = json!("n".repeat(200))), (400, "bad_label".into()));
    assert_eq!(lie(&|b| b["region"] = json!("eu\nwest")), (400, "bad_label".into()));
    assert_eq!(lie(&|b| b["region"] = json!("")), (400, "bad_label".into()));
    assert_eq!(lie(&|b| b["rooms"][0]["level"] = json!("a b")), (400, "bad_room".into()));
    assert_eq!(lie(&|b| b["capacity"] = json!(-1)), (400, "out_of_range".into()));
    assert_eq!(lie(&|b| b["protocol"] = json!(1)), (400, "unknown_protocol".into()));
    assert_eq!(lie(&|b| b["capacity"] = json!(0)), (400, "too_many_rooms".into()));
    assert_eq!(lie(&|b| b["rooms"][0]["seats_taken"] = json!(9)), (400, "bad_room".into()));
    assert_eq!(lie(&|b| b["rooms"][0]["seats_taken"] = json!(300)), (400, "out_of_range".into()));
    assert_eq!(lie(&|b| b["rooms"][0]["code"] = json!("'; DROP")), (400, "bad_room".into()));
    assert_eq!(lie(&|b| b["address"] = json!("localhost:80")), (400, "bad_address".into()));
    // Thousands of rooms: refused by name, under the size limit or over it.
    let many: Vec<String> = (0..2000).map(|i| format!("A{:04}", i)).collect();
    let codes: Vec<&str> = many.iter().map(String::as_str).collect();
    let mut huge = announce_body(&me, &codes);
    huge["capacity"] = json!(100_000);
    let (status, v) = post(&url, &huge);
    assert!(
        matches!((status, error(&v)), (413, "body_too_large") | (400, "too_many_rooms")),
        "{status} {v}"
    );
    // Still serving, and every refusal counted.
    assert_eq!(get(&format!("{}/healthz", dir.addr)).0, 200);
    assert!(
        metric(&dir.addr, "undercooked_directory_refused_total{error=\"malformed_json\"}") >= 3
    );
}

#[test]
fn a_code_another_server_holds_is_refused_and_the_server_picks_another() {
    let dir = directory(0, &[]);
    let a = announcing("collide-a", &dir.addr, &[]);
    let b = server("collide-b", &[]);
    until("a is listed", || entry(&dir.addr, &a.addr));
    let url = format!("{}/api/announce", dir.addr);
    // The test's own entry (for B's healthy address) claims a code A just made, before A's next
    // heartbeat does; if A's heartbeat came first, the claim is refused by name: try a new room.
    let mut created = Vec::new();
    let (code, mine) = until("the test's entry holds one of A's new codes", || {
        let code = create_room(&a.addr, true);
        created.push(code.clone());
        let (status, v) = post(&url, &announce_body(&b.addr, &[&code]));
        assert_eq!(status, 200, "{v}");
        match v["refused"].as_array().unwrap().as_slice() {
            [] => Some((code, v)),
            [r] => {
                assert_eq!(r["code"].as_str(), Some(code.as_str()));
                assert_eq!(r["error"].as_str(), Some("code_taken"));
                None
            }
            more => panic!("{more:?}"),
        }
    });
    let mut renew = announce_body(&b.addr, &[&code]);
    renew["id"] = mine["id"].clone();
    renew["secret"] = mine["secret"].clone();
    // A's heartbeat is refused that code, and A re-codes the room: A lists it under a code it
    // never had, and the old code stays the test's.
    let new = until("A announces the room under another code", || {
        let (status, v) = post(&url, &renew);
        assert_eq!(status, 200, "{v}");
        let e = entry(&dir.addr, &a.addr)?;
        let codes: Vec<String> = e["public_rooms"]
            .as_array()?
            .iter()
            .filter_map(|r| r["code"].as_str().map(str::to_string))
            .collect();
        if codes.contains(&code) {
            return None;
        }
        codes.into_iter().find(|c| !created.contains(c))
    });
    assert_ne!(new, code);
    let (status, v) = get(&format!("{}/api/rooms/{code}", dir.addr));
    assert_eq!((status, v["address"].as_str()), (200, Some(b.addr.as_str())), "{v}");
    let (status, v) = get(&format!("http://{}/api/rooms/{new}", a.addr));
    assert_eq!((status, v["code"].as_str()), (200, Some(new.as_str())), "{v}");
    // On A itself the old code still names the room (tokens and links handed out with it).
    let (status, v) = get(&format!("http://{}/api/rooms/{code}", a.addr));
    assert_eq!((status, v["code"].as_str()), (200, Some(new.as_str())), "{v}");
    assert!(metric(&dir.addr, "undercooked_directory_refused_total{error=\"code_taken\"}") >= 1);
}

#[test]
fn heartbeats_through_an_impaired_link_keep_the_server_listed() {
    let dir = directory(0, &["--ttl-secs", "6"]);
    let upstream = dir.addr.trim_start_matches("http://").to_string();
    let proxy = spawn(
        &strings(&[
            "netem",
            "--tcp",
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            &upstream,
            "--rtt",
            "150",
            "--jitter",
            "40",
            "--loss",
            "2",
            "--seed",
            "29",
        ]),
        "netem: tcp ",
    );
    let through = format!("http://{}", proxy.addr);
    let a = announcing("impaired-a", &through, &[]);
    let code = create_room(&a.addr, true);
    until("the room resolves through the impaired heartbeats", || {
        (get(&format!("{}/api/rooms/{code}", dir.addr)).0 == 200).then_some(())
    });
    // Listed across more than one TTL: the heartbeats keep arriving through the proxy.
    let start = metric(&dir.addr, "undercooked_directory_announces_total");
    until("ten more heartbeats through the proxy", || {
        (metric(&dir.addr, "undercooked_directory_announces_total") >= start + 10).then_some(())
    });
    assert!(entry(&dir.addr, &a.addr).is_some(), "still listed");
    // The player asks the directory itself (its own link is not the impaired one under test).
    let direct = dir.addr.to_string();
    let out = Command::new(BIN)
        .args(["join", "--headless", "--directory", &direct, "--room", &code, "--seconds", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `n` distinct well-formed room codes, none of them `except` (a guesser's list).
fn guesses(n: usize, except: &str) -> Vec<String> {
    let alphabet = undercooked::net::wire::tokens::CODE_ALPHABET;
    let base = alphabet.len();
    (0..)
        .map(|i: usize| {
            let mut x = i * 7919 + 12_345;
            (0..5)
                .map(|_| {
                    let c = alphabet[x % base] as char;
                    x /= base;
                    c
                })
                .collect::<String>()
        })
        .filter(|c| c != except)
        .take(n)
        .collect()
}

#[test]
fn guessing_room_codes_is_refused_by_name_and_counted_while_others_look_up() {
    let dir = directory(0, &["--unknown-lookups-per-minute", "5", "--lookups-per-minute", "1000"]);
    let a = announcing("guess-a", &dir.addr, &[]);
    let code = create_room(&a.addr, false);
    // Waited for on the list, not by looking the code up (127.0.0.1's own guesses stay unspent).
    until("the room is announced", || entry(&dir.addr, &a.addr).filter(|e| e["rooms"] == 1));
    let unknown_before = metric(&dir.addr, "undercooked_directory_lookups_unknown_total");
    // 127.0.0.2 guesses 40 codes: a few are answered `no_such_room`, then every lookup of that
    // address is refused by name until its bucket refills (one guess per 12 s here).
    let (mut missed, mut refused) = (0u64, 0u64);
    for guess in guesses(40, &code) {
        let (status, v) = get_from("127.0.0.2", &dir.addr, &format!("/api/rooms/{guess}"));
        match (status, error(&v)) {
            (404, "no_such_room") => missed += 1,
            (429, "unknown_lookup_rate_limit") => refused += 1,
            other => panic!("a guess answered {other:?}: {v}"),
        }
    }
    eprintln!("guessing: {missed} answered no_such_room, {refused} refused");
    assert!(missed >= 5, "the first guesses are answered: {missed}");
    assert!(refused >= 20, "most guesses are refused: {refused}");
    assert_eq!(
        metric(
            &dir.addr,
            "undercooked_directory_refused_total{error=\"unknown_lookup_rate_limit\"}"
        ),
        refused
    );
    assert_eq!(
        metric(&dir.addr, "undercooked_directory_lookups_unknown_total") - unknown_before,
        missed,
        "every unknown code answered is counted"
    );
    // The guesser is refused even the real code; another address looks it up as ever.
    let (status, v) = get_from("127.0.0.2", &dir.addr, &format!("/api/rooms/{code}"));
    assert_eq!((status, error(&v)), (429, "unknown_lookup_rate_limit"), "{v}");
    let (status, v) = get(&format!("{}/api/rooms/{code}", dir.addr));
    assert_eq!((status, v["address"].as_str()), (200, Some(a.addr.as_str())), "{v}");
    let (status, v) = get_from("127.0.0.3", &dir.addr, &format!("/api/rooms/{code}"));
    assert_eq!((status, v["address"].as_str()), (200, Some(a.addr.as_str())), "{v}");
}

#[test]
fn lookups_per_address_are_limited_by_name() {
    let dir = directory(0, &["--lookups-per-minute", "3"]);
    let answers: Vec<(u16, String)> = (0..8)
        .map(|_| {
            let (status, v) = get_from("127.0.0.2", &dir.addr, "/api/rooms/ACDEF");
            (status, error(&v).to_string())
        })
        .collect();
    let refused = answers.iter().filter(|a| *a == &(429, "lookup_rate_limit".into())).count();
    assert!(refused >= 4, "{answers:?}");
    assert_eq!(answers[0], (404, "no_such_room".into()));
    assert_eq!(
        metric(&dir.addr, "undercooked_directory_refused_total{error=\"lookup_rate_limit\"}"),
        refused as u64
    );
    assert_eq!(get_from("127.0.0.3", &dir.addr, "/api/rooms/ACDEF").0, 404, "another address");
}

#[test]
fn an_announce_flood_is_refused_by_name_while_a_server_elsewhere_stays_listed() {
    let dir = directory(0, &["--announces-per-minute", "20"]);
    // A beats every 5 s (12 a minute, under the limit) from 127.0.0.1.
    let a =
        server("flood-a", &["--announce", &dir.addr, "--name", "flood-a", "--announce-secs", "5"]);
    until("a is listed", || entry(&dir.addr, &a.addr));
    let before = metric(&dir.addr, "undercooked_directory_announces_total");
    // 127.0.0.2 floods announces for an address of its own that answers nothing.
    let body = announce_body(&format!("127.0.0.2:{}", free_port()), &[]).to_string();
    let request = announce_request(body.as_bytes(), body.len(), "application/json");
    let (mut unreachable, mut refused) = (0u64, 0u64);
    for _ in 0..60 {
        let (status, v) = raw_on(connect_from("127.0.0.2", &dir.addr), &request, false);
        match (status.split_whitespace().nth(1), error(&v)) {
            (Some("422"), "unreachable") => unreachable += 1,
            (Some("429"), "announce_rate_limit") => refused += 1,
            other => panic!("a flooding announce answered {other:?}: {v}"),
        }
    }
    eprintln!("announce flood: {unreachable} probed and refused, {refused} refused unread");
    assert!(unreachable >= 20 && refused >= 30, "{unreachable} {refused}");
    assert_eq!(
        metric(&dir.addr, "undercooked_directory_refused_total{error=\"announce_rate_limit\"}"),
        refused
    );
    // A's heartbeats go on being accepted, and A stays listed as itself.
    until("two more of A's heartbeats accepted", || {
        (metric(&dir.addr, "undercooked_directory_announces_total") >= before + 2).then_some(())
    });
    assert_eq!(entry(&dir.addr, &a.addr).unwrap()["name"], "flood-a");
    assert_eq!(servers(&dir.addr).len(), 1, "the flood listed nothing");
}

/// Whether the directory closed `s` (EOF or reset), waiting up to a second.
fn closed(mut s: &TcpStream) -> bool {
    s.set_read_timeout(Some(Duration::from_millis(20))).unwrap();
    let mut buf = [0u8; 1024];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return false;
            }
            Err(_) => return true,
        }
    }
}

#[test]
fn slowloris_on_the_directory_port_is_cut_off_and_others_are_answered() {
    let dir = directory(0, &["--head-secs", "2", "--max-connections-per-address", "1000"]);
    // 100 connections trickle a request head a byte at a time; 10 send a head and half a body.
    let mut slow: Vec<TcpStream> = (0..100).map(|_| connect_from("127.0.0.2", &dir.addr)).collect();
    let mut held: Vec<TcpStream> = (0..10).map(|_| connect_from("127.0.0.3", &dir.addr)).collect();
    let half = announce_request(b"{\"address\":", 200, "application/json");
    for s in &mut held {
        s.write_all(&half).unwrap();
    }
    let head = b"GET /api/servers HTTP/1.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    let start = Instant::now();
    let (mut answered, mut open) = (0, slow.len());
    for i in 0..head.len() {
        for s in &mut slow {
            let _ = s.write_all(&head[i..=i]);
        }
        answered += usize::from(get(&format!("{}/healthz", dir.addr)).0 == 200);
        open = slow.iter().filter(|s| !closed(s)).count();
        if open == 0 || start.elapsed() > PATIENCE {
            break;
        }
        std::thread::sleep(Duration::from_millis(300));
    }
    eprintln!("directory slowloris: {open} open after {:?} (head deadline 2 s)", start.elapsed());
    assert!(answered > 0, "the directory answered while 100 slow heads were held");
    assert_eq!(open, 0, "every trickling head was cut off by its deadline");
    assert!(metric(&dir.addr, "undercooked_web_head_timeouts_total") >= 100);
    // Each half-sent body is answered 408 `body_timeout` and its connection closed.
    for s in held {
        let (status, v) = raw_on(s, b"", false);
        assert_eq!((status.split_whitespace().nth(1), error(&v)), (Some("408"), "body_timeout"));
    }
    assert!(metric(&dir.addr, "undercooked_directory_refused_total{error=\"body_timeout\"}") >= 10);
}

#[test]
fn the_connection_cap_per_address_on_the_directory_port_closes_the_extra_one() {
    let dir = directory(0, &["--max-connections-per-address", "3"]);
    let held: Vec<TcpStream> = (0..3).map(|_| connect_from("127.0.0.2", &dir.addr)).collect();
    until("three connections open", || {
        (metric(&dir.addr, "undercooked_web_connections_open") >= 3).then_some(())
    });
    let (status, _) = get_from("127.0.0.2", &dir.addr, "/healthz");
    assert_eq!(status, 0, "the fourth from 127.0.0.2 is closed unanswered");
    assert_eq!(get_from("127.0.0.3", &dir.addr, "/healthz").0, 200, "another address is served");
    assert_eq!(metric(&dir.addr, "undercooked_web_refused_per_address_total"), 1);
    drop(held);
}

/// `join --headless --directory DIR --quick` as `name`, staying `seconds`.
fn quick_join(dir: &str, name: &str, seconds: &str) -> Command {
    let mut c = Command::new(BIN);
    c.args(["join", "--headless", "--directory", dir, "--quick", "--name", name])
        .args(["--seconds", seconds]);
    c
}

/// The names seated in room `code` on the server at `web`.
fn seated(web: &str, code: &str) -> Vec<String> {
    let (_, room) = get(&format!("http://{web}/api/rooms/{code}"));
    room["seats"]
        .as_array()
        .map(|s| s.iter().filter_map(|s| s["name"].as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

#[test]
fn two_quick_matching_clients_land_in_the_same_public_room() {
    let dir = directory(0, &[]);
    let a = announcing("quick-a", &dir.addr, &[]);
    let b = announcing("quick-b", &dir.addr, &[]);
    until("both servers listed", || (servers(&dir.addr).len() == 2).then_some(()));
    // The first finds no public room anywhere: it makes one (and says its code on stdout).
    let mut first = quick_join(&dir.addr, "First", "60")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(first.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    std::thread::spawn(move || out.lines().for_each(drop));
    let first = Proc { child: first, addr: String::new() };
    let code = line.strip_prefix("room: ").map(str::trim).unwrap_or_else(|| panic!("{line:?}"));
    let host = until("the new room is listed as public", || {
        servers(&dir.addr).into_iter().find_map(|s| {
            let listed = s["public_rooms"].as_array()?.iter().any(|r| r["code"] == code);
            listed.then(|| s["address"].as_str().unwrap().to_string())
        })
    });
    assert!([&a.addr, &b.addr].contains(&&host), "{host}");
    // The second, another process, finds it and sits there.
    let out = quick_join(&dir.addr, "Second", "1").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains(&format!("quick match: room {code}")), "{err}");
    assert!(err.contains(&format!("joined room {code}")), "{err}");
    let names = seated(&host, code);
    assert!(names.contains(&"First".into()) && names.contains(&"Second".into()), "{names:?}");
    drop(first);
}

#[test]
fn quick_match_prefers_the_server_without_the_impaired_link() {
    let dir = directory(0, &[]);
    let near = announcing("quick-near", &dir.addr, &[]);
    // The far server's web port is reached only through a 100 ms round-trip proxy: that is the
    // address it announces, so the directory, its probe and the players all go through it.
    let far_port = free_port();
    let proxy = spawn(
        &strings(&[
            "netem",
            "--tcp",
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            &format!("127.0.0.1:{far_port}"),
            "--rtt",
            "100",
            "--seed",
            "29",
        ]),
        "netem: tcp ",
    );
    let far_args = [
        "--announce",
        &dir.addr,
        "--name",
        "quick-far",
        "--region",
        "test",
        "--announce-secs",
        "1",
        "--public-web",
        &proxy.addr,
    ];
    let far = server_at("quick-far", far_port, &far_args);
    // Each server holds a public lobby with free seats; the far one's is the fuller, so only
    // the round trip can make the near one win.
    let near_room = create_room(&near.addr, true);
    let far_room = create_room(&far.addr, true);
    let (status, v) =
        post(&format!("http://{}/api/rooms/{far_room}/join", far.addr), &json!({"name": "Two"}));
    assert_eq!(status, 200, "{v}");
    until("both lobbies listed", || {
        let all = servers(&dir.addr);
        let listed = |code: &str| {
            all.iter().any(|s| {
                s["public_rooms"].as_array().is_some_and(|r| r.iter().any(|r| r["code"] == code))
            })
        };
        (listed(&near_room) && listed(&far_room)).then_some(())
    });
    assert!(entry(&dir.addr, &proxy.addr).is_some(), "the far server is listed at the proxy");
    let out = quick_join(&dir.addr, "Quick", "1").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains(&format!("quick match: room {near_room} on quick-near")), "{err}");
    assert!(seated(&near.addr, &near_room).contains(&"Quick".into()));
}

/// The room each finished `join --quick` process says it joined.
fn joined_room(out: &std::process::Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    err.lines()
        .find_map(|l| l.strip_prefix("joined room ").and_then(|r| r.split_whitespace().next()))
        .unwrap_or_else(|| panic!("no room joined: {err}"))
        .to_string()
}

#[test]
fn quick_matches_started_together_meet_in_one_room() {
    let dir = directory(0, &[]);
    let a = announcing("together", &dir.addr, &[]);
    until("the server is listed", || entry(&dir.addr, &a.addr));
    // Three processes at once: each finds no public room and picks this server to make one;
    // the server seats the later ones in the first one's lobby instead of making three.
    let running: Vec<_> = ["One", "Two", "Three"]
        .iter()
        .map(|name| {
            quick_join(&dir.addr, name, "2").stdout(Stdio::null()).stderr(Stdio::piped()).spawn()
        })
        .map(|c| c.unwrap())
        .collect();
    let rooms: Vec<String> =
        running.into_iter().map(|c| joined_room(&c.wait_with_output().unwrap())).collect();
    assert!(rooms.iter().all(|r| *r == rooms[0]), "one room for all: {rooms:?}");
    let (_, rooms_now) = get(&format!("http://{}/api/health", a.addr));
    assert_eq!(rooms_now["rooms"], 1, "{rooms_now}");
}

#[test]
fn a_quick_seat_that_may_only_join_is_refused_by_name_where_no_lobby_has_room() {
    let a = server("only-join", &["--rooms-per-minute", "0"]);
    let url = format!("http://{}/api/rooms", a.addr);
    let (status, v) = post(&url, &json!({"name": "Q", "quick": "join"}));
    assert_eq!((status, error(&v)), (404, "no_public_room"), "{v}");
    // A private room is never a quick match's; a public one is, and the seat is a join (200).
    create_room(&a.addr, false);
    let (status, v) = post(&url, &json!({"name": "Q", "quick": "join"}));
    assert_eq!((status, error(&v)), (404, "no_public_room"), "{v}");
    let public = create_room(&a.addr, true);
    let (status, v) = post(&url, &json!({"name": "Q", "quick": "join", "players": 3}));
    assert_eq!((status, v["code"].as_str()), (200, Some(public.as_str())), "{v}");
    // Now full: a second quick match of one makes a room of its own, public.
    let (status, v) = post(&url, &json!({"name": "R", "quick": "join_or_create"}));
    assert_eq!(status, 201, "{v}");
    assert_ne!(v["code"].as_str(), Some(public.as_str()));
    let (status, v) = post(&url, &json!({"name": "Q", "quick": "sometimes"}));
    assert_eq!((status, error(&v)), (400, "out_of_range"), "{v}");
}

#[test]
fn quick_match_candidates_are_trimmed_limited_by_name_and_readable_from_any_page() {
    let dir = directory(0, &["--quick-matches-per-minute", "3"]);
    let a = announcing("cand-a", &dir.addr, &["--max-rooms", "1"]);
    let b = announcing("cand-b", &dir.addr, &[]);
    let full = create_room(&a.addr, false);
    until("both listed, a full", || {
        (entry(&dir.addr, &a.addr)?["rooms"] == 1 && entry(&dir.addr, &b.addr).is_some())
            .then_some(())
    });
    // a holds its one room (private): it could seat nobody, so it is not a candidate.
    let (status, v) = get_from("127.0.0.2", &dir.addr, "/api/quick?players=2");
    assert_eq!(status, 200, "{v}");
    let addrs: Vec<&str> =
        v["servers"].as_array().unwrap().iter().filter_map(|s| s["address"].as_str()).collect();
    assert_eq!(addrs, vec![b.addr.as_str()], "{v} (a holds {full})");
    let (status, v) = get_from("127.0.0.2", &dir.addr, "/api/quick?players=9");
    assert_eq!((status, error(&v)), (400, "out_of_range"), "{v}");
    let (status, v) = get_from("127.0.0.2", &dir.addr, "/api/quick");
    assert_eq!(status, 200, "players defaults to one: {v}");
    let (status, v) = get_from("127.0.0.2", &dir.addr, "/api/quick?players=1");
    assert_eq!((status, error(&v)), (429, "quick_match_rate_limit"), "{v}");
    assert_eq!(
        metric(&dir.addr, "undercooked_directory_refused_total{error=\"quick_match_rate_limit\"}"),
        1
    );
    assert_eq!(metric(&dir.addr, "undercooked_directory_quick_matches_total"), 2);
    assert_eq!(get_from("127.0.0.3", &dir.addr, "/api/quick").0, 200, "another address");
    // Every GET answer may be read by a page of any origin (the browser's Play online).
    let r = minreq::get(format!("{}/api/servers", dir.addr)).with_timeout(10).send().unwrap();
    assert_eq!(r.headers.get("access-control-allow-origin").map(String::as_str), Some("*"));
    // The game server tells its page where its directory is; one that announces nowhere says so.
    let (status, v) = get(&format!("http://{}/api/directory", a.addr));
    assert_eq!((status, v["directory"].as_str()), (200, Some(dir.addr.as_str())), "{v}");
    let lone = server("no-dir", &[]);
    let (status, v) = get(&format!("http://{}/api/directory", lone.addr));
    assert_eq!((status, error(&v)), (404, "no_directory"), "{v}");
}

/// The head of a `GET path` on `addr` (no redirect followed): status code and headers, lower
/// case.
fn head_of(addr: &str, path: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).unwrap();
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    let head = text.split("\r\n\r\n").next().unwrap_or("").to_ascii_lowercase();
    let status = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (status, head)
}

#[test]
fn a_join_link_through_the_directory_finds_the_rooms_server_and_seats_there() {
    use undercooked::net::wire::directory::directory_link;
    let dir = directory(0, &[]);
    let a = announcing("link-a", &dir.addr, &[]);
    let code = create_room(&a.addr, false);
    until("the room resolves", || {
        (get(&format!("{}/api/rooms/{code}", dir.addr)).0 == 200).then_some(())
    });
    // A browser opening the link is sent to the room's server's page, directory kept.
    let host = dir.addr.trim_start_matches("http://");
    let (status, head) = head_of(host, &format!("/join/{code}"));
    assert_eq!(status, 302, "{head}");
    let want = format!("location: http://{}/?room={code}&directory=http://{host}", a.addr);
    assert!(head.contains(&want.to_ascii_lowercase()), "{head}");
    // An unknown code is a named miss, counted as one.
    let misses = metric(&dir.addr, "undercooked_directory_lookups_unknown_total");
    let (status, head) = head_of(host, "/join/ZZZZZ");
    assert_eq!(status, 404, "{head}");
    assert_eq!(metric(&dir.addr, "undercooked_directory_lookups_unknown_total"), misses + 1);
    // The same link given to `join`: the directory names the server, which seats the player.
    let link = directory_link(&dir.addr, &code);
    let out = Command::new(BIN)
        .args(["join", &link, "--headless", "--name", "Linked", "--seconds", "1"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains(&format!("joined room {code}")), "{err}");
    assert!(seated(&a.addr, &code).contains(&"Linked".into()));
}
