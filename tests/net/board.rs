//! The results board over real sockets (issue 30 items 3 and 5): a real round's bundle is
//! entered, forged, edited, cut and resent ones are refused by name, a bad link still gets a
//! submission through, entries survive a restart, and a flood of submissions leaves a live
//! room's tick alone (its p99 printed, not timed). A module of `tests/net.rs`.

use super::{PATIENCE, connect, data_dir, pump};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use undercooked::board::daily::DailyWindow;
use undercooked::board::running::{Board, BoardConfig, BoardHome, BoardLimits};
use undercooked::level::index::file_hash;
use undercooked::net::client::api::api_create;
use undercooked::net::client::headless_inputs::InputMode;
use undercooked::net::server::ticktime::TickTimes;
use undercooked::net::server::web::WebConfig;
use undercooked::net::server::web::board::BoardDoor;
use undercooked::net::server::worlds::{HostConfig, ServerHandle, spawn_server};
use undercooked::net::tools::impair::conditions::Conditions;
use undercooked::net::tools::impair::tcp::TcpProxy;
use undercooked::protocol::LobbyPhase;
use undercooked::replay::bundle::{Bundle, content_hash};
use undercooked::replay::bundle_read::read_bundle;

/// The short round's length: long enough for a few hundred frames, short for a test.
const SHORT_SECONDS: u32 = 3;

/// `dir/levels`: the tutorial with a `SHORT_SECONDS` round and the shipped `dash_diner` (its
/// full 180 s round: the live room of the flood), both published by an index of their hashes.
fn published_levels(dir: &Path) -> PathBuf {
    let levels = dir.join("levels");
    std::fs::create_dir_all(&levels).unwrap();
    let tutorial = std::fs::read_to_string("levels/tutorial.ron").unwrap();
    assert!(
        tutorial.contains("time_limit: 180.0"),
        "the tutorial's length moved: update this test"
    );
    let tutorial = tutorial.replace("time_limit: 180.0", &format!("time_limit: {SHORT_SECONDS}.0"));
    let diner = std::fs::read_to_string("levels/dash_diner.ron").unwrap();
    let mut index = String::from("Campaign(\n    levels: [\n");
    for (id, text) in [("tutorial", &tutorial), ("dash_diner", &diner)] {
        std::fs::write(levels.join(format!("{id}.ron")), text).unwrap();
        index.push_str(&format!(
            "        (id: {id:?}, hash: {:?}, target: 1, proof: (seeds: 1, teams: [(bots: 1, wins: 1, median_ticks: 1)]), build: \"test\"),\n",
            file_hash(text.as_bytes())
        ));
    }
    index.push_str("    ],\n)\n");
    std::fs::write(levels.join("index.ron"), index).unwrap();
    levels
}

fn board_limits(per_minute: u32) -> BoardLimits {
    BoardLimits { per_minute, ..BoardLimits::default() }
}

/// A host on `dir` serving `levels` with a board in `dir/board.sqlite`.
fn board_host(dir: &Path, levels: &Path, limits: BoardLimits) -> ServerHandle {
    board_host_with(dir, levels, limits).0
}

/// [`board_host`], and its board (for its counters).
fn board_host_with(
    dir: &Path,
    levels: &Path,
    limits: BoardLimits,
) -> (ServerHandle, Arc<BoardDoor>) {
    let board = Board::open(&BoardConfig {
        home: BoardHome::Sqlite(dir.join("board.sqlite")),
        levels: levels.to_path_buf(),
        daily: DailyWindow::Off,
        limits,
    })
    .expect("the board opens");
    let door = BoardDoor::new(board);
    let web = WebConfig { board: Some(door.clone()), ..WebConfig::default() };
    let cfg =
        HostConfig { levels: levels.to_path_buf(), web, ..HostConfig::loopback(dir.to_path_buf()) };
    (spawn_server(cfg).expect("server starts"), door)
}

/// Plays one short tutorial round to its end on `h`; its bundle's bytes.
fn play_a_round(h: &ServerHandle, dir: &Path) -> Vec<u8> {
    let web = h.addrs.web.to_string();
    let a = api_create(&web, "Ann", Some("tutorial")).expect("room created");
    let mut ca = connect(&a, InputMode::Random);
    let path = dir.join("bundles").join(format!("{}-1.ron", a.code));
    assert!(
        pump(&mut [&mut ca], |c| {
            c[0].lobbies().first().is_some_and(|l| l.phase == LobbyPhase::Results) && path.is_file()
        }),
        "the round finished and wrote its bundle"
    );
    let bytes = std::fs::read(&path).unwrap();
    let b = read_bundle(std::str::from_utf8(&bytes).unwrap()).unwrap();
    assert_eq!(b.reason, "finished", "a round played to its end");
    bytes
}

/// `POST /api/board` at `web`: status and JSON body.
fn submit(web: &str, body: &[u8]) -> (i32, serde_json::Value) {
    let r = minreq::post(format!("http://{web}/api/board"))
        .with_header("Content-Type", "application/ron")
        .with_body(body.to_vec())
        .with_timeout(60)
        .send()
        .expect("the board answers");
    (r.status_code, serde_json::from_slice(r.as_bytes()).unwrap_or_default())
}

fn get(url: &str) -> (i32, Vec<u8>) {
    let r = minreq::get(url).with_timeout(30).send().expect("the board answers");
    (r.status_code, r.into_bytes())
}

/// A submission declaring one byte over the limit: answered before its body is sent.
fn declared_too_large(web: &str) -> serde_json::Value {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(web).unwrap();
    let over = BoardLimits::default().max_bytes + 1;
    write!(s, "POST /api/board HTTP/1.1\r\nHost: {web}\r\nContent-Length: {over}\r\n\r\n").unwrap();
    s.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    serde_json::from_str(answer.split("\r\n\r\n").nth(1).unwrap_or_default()).unwrap_or_default()
}

fn refused_as(web: &str, body: &[u8], name: &str) {
    let (status, v) = submit(web, body);
    assert_eq!(v["error"], name, "status {status}: {v}");
    assert!((400..500).contains(&status), "{status} {v}");
}

/// The bundle with `edit` applied, as RON bytes.
fn edited(b: &Bundle, edit: impl FnOnce(&mut Bundle)) -> Vec<u8> {
    let mut b = b.clone();
    edit(&mut b);
    b.to_ron().into_bytes()
}

#[test]
fn a_real_rounds_bundle_is_entered_and_forged_edited_cut_or_resent_ones_are_refused_by_name() {
    let dir = data_dir("board");
    let levels = published_levels(&dir);
    let h = board_host(&dir, &levels, board_limits(0));
    let web = h.addrs.web.to_string();
    let bytes = play_a_round(&h, &dir);
    let b = read_bundle(std::str::from_utf8(&bytes).unwrap()).unwrap();
    assert!(b.frames.len() > 20, "{} frames", b.frames.len());

    // Forgeries first: each has the real round's key, so after the real one it would be a
    // duplicate before any replay.
    let mid = b.frames.len() / 2;
    refused_as(
        &web,
        &edited(&b, |b| {
            let f = &mut b.frames[mid];
            f.4 = if f.4 > 0 { -1000 } else { 1000 };
            f.5 = if f.5 > 0 { -1000 } else { 1000 };
        }),
        "CHAIN_MISMATCH",
    );
    refused_as(&web, &edited(&b, |b| b.hashes[0].1 = "0123456789abcdef".into()), "CHAIN_MISMATCH");
    refused_as(
        &web,
        &edited(&b, |b| b.final_hash = "0123456789abcdef".into()),
        "FINAL_HASH_MISMATCH",
    );
    let more_time = |b: &mut Bundle| {
        b.level_source =
            b.level_source.replace(&format!("time_limit: {SHORT_SECONDS}.0"), "time_limit: 9.0");
    };
    refused_as(&web, &edited(&b, more_time), "LEVEL_EDITED");
    refused_as(
        &web,
        &edited(&b, |b| {
            more_time(b);
            b.level_hash = content_hash(&b.level_source);
        }),
        "LEVEL_NOT_PUBLISHED",
    );
    refused_as(&web, &bytes[..bytes.len() / 2], "BUNDLE_TRUNCATED");
    refused_as(&web, &edited(&b, |b| b.reason = "shutdown".into()), "ROUND_UNFINISHED");
    refused_as(&web, &edited(&b, |b| b.ticks += 10_000), "REPLAY_TOO_LONG");
    refused_as(&web, b"not a bundle", "BUNDLE_UNREADABLE");
    assert_eq!(declared_too_large(&web)["error"], "TOO_LARGE");

    // The real round, over a bad link (`undercooked netem --tcp`'s proxy: 200 ms, jitter, loss).
    let link = Conditions::from_rtt(200, 20, 2.0);
    let proxy = TcpProxy::spawn(h.addrs.web, link, link, 30).expect("the proxy starts");
    let (status, v) = submit(&proxy.local_addr().to_string(), &bytes);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["rank"], 1, "{v}");
    assert_eq!(v["entry"]["level_id"], "tutorial");
    let id = v["entry"]["id"].as_u64().expect("an entry id");
    refused_as(&web, &bytes, "DUPLICATE");

    // Listed by id or hash, its bundle downloadable byte for byte.
    let hash = file_hash(std::fs::read(levels.join("tutorial.ron")).unwrap().as_slice());
    for level in ["tutorial", hash.as_str()] {
        let (status, body) = get(&format!("http://{web}/api/board?level={level}&team=1"));
        let list: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(status, 200, "{list}");
        assert_eq!(list["entries"][0]["id"], id, "{list}");
    }
    assert_eq!(get(&format!("http://{web}/api/board/bundle/{id}")), (200, bytes.clone()));
    let (status, body) = get(&format!("http://{web}/api/board/bundle/{}", id + 99));
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!((status, v["error"].as_str()), (404, Some("NO_SUCH_ENTRY")));
    h.stop();

    // A restart keeps the entry, and still knows the round.
    let h = board_host(&dir, &levels, board_limits(0));
    let web = h.addrs.web.to_string();
    let (_, body) = get(&format!("http://{web}/api/board?level=tutorial&team=1"));
    let list: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(list["entries"][0]["id"], id, "kept across a restart: {list}");
    refused_as(&web, &bytes, "DUPLICATE");
    // The command line agrees: the round is refused by name (exit 1), the list shows it.
    let cli = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_undercooked")).args(args).output().unwrap()
    };
    let file = dir.join("again.ron");
    std::fs::write(&file, &bytes).unwrap();
    let board_url = format!("http://{web}");
    let out = cli(&["board", "submit", file.to_str().unwrap(), "--board", &board_url]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("refused: DUPLICATE"));
    let out = cli(&["board", "list", "--board", &board_url, "--level", "tutorial"]);
    assert_eq!(out.status.code(), Some(0));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("Ann"), "{said}");
    h.stop();
}

/// The live world's frames recorded so far, and the p99 of the tick phase over those since
/// `from` (ms).
fn tick_p99(h: &ServerHandle, from: usize) -> (usize, f64) {
    h.with_world(move |w| {
        let t = w.resource::<TickTimes>();
        let mut v: Vec<u32> = t.all.iter().skip(from).map(|s| s[2]).collect();
        v.sort_unstable();
        let at = v.get((v.len() * 99).div_ceil(100).saturating_sub(1)).copied().unwrap_or(0);
        (t.all.len(), f64::from(at) / 1000.0)
    })
}

/// Sends every body from 8 threads at once; the refusal names (or `entered`) in order sent.
fn flood(web: &str, bodies: Arc<Vec<Vec<u8>>>) -> std::thread::JoinHandle<Vec<String>> {
    let web = web.to_string();
    std::thread::spawn(move || {
        let senders: Vec<_> = (0..8)
            .map(|t| {
                let (web, bodies) = (web.clone(), bodies.clone());
                std::thread::spawn(move || {
                    (t..bodies.len())
                        .step_by(8)
                        .map(|i| {
                            let (_, v) = submit(&web, &bodies[i]);
                            v["error"].as_str().unwrap_or("entered").to_string()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        senders.into_iter().flat_map(|s| s.join().unwrap()).collect()
    })
}

#[test]
fn a_flood_of_submissions_leaves_a_live_rooms_tick_alone_and_an_address_is_held_to_its_rate() {
    let dir = data_dir("board-flood");
    let levels = published_levels(&dir);
    let (h, door) = board_host_with(&dir, &levels, board_limits(0));
    let web = h.addrs.web.to_string();
    let bundle = play_a_round(&h, &dir);
    let b = read_bundle(std::str::from_utf8(&bundle).unwrap()).unwrap();
    // A live 180 s round to watch.
    let live = api_create(&web, "Cy", Some("dash_diner")).expect("room created");
    let mut cl = connect(&live, InputMode::Random);
    assert!(pump(&mut [&mut cl], |c| c[0].clock().is_some_and(|r| r.tick > 20)), "round live");
    let (from, _) = tick_p99(&h, 0);
    let quiet = Instant::now() + Duration::from_secs(3);
    pump(&mut [&mut cl], |_| Instant::now() >= quiet);
    let (before_n, before_p99) = tick_p99(&h, from);

    // 1,000 submissions, each a different forgery (its final hash), so none is a duplicate
    // before its replay: every one is replayed whole, or refused BOARD_BUSY when the queue is
    // full.
    let bodies: Vec<Vec<u8>> =
        (0..1000).map(|i| edited(&b, |b| b.final_hash = format!("{i:016x}"))).collect();
    let started = Instant::now();
    let sending = flood(&web, Arc::new(bodies));
    let end = Instant::now() + PATIENCE * 4;
    pump(&mut [&mut cl], |_| sending.is_finished() || Instant::now() > end);
    let names = sending.join().unwrap();
    let flood_took = started.elapsed();
    let (_, during_p99) = tick_p99(&h, before_n);
    let mut tally = std::collections::BTreeMap::<String, usize>::new();
    for name in &names {
        *tally.entry(name.clone()).or_default() += 1;
    }
    let c = door.board.counters();
    let replays = c.replays.load(std::sync::atomic::Ordering::Relaxed).max(1);
    let cpu = c.cpu_micros.load(std::sync::atomic::Ordering::Relaxed);
    let cpu_max = c.cpu_max_micros.load(std::sync::atomic::Ordering::Relaxed);
    println!(
        "board flood: {} submissions {tally:?} in {:.1} s; replays {replays}, CPU {} µs mean, {cpu_max} µs max; \
         the live room's tick p99 {before_p99:.2} ms before, {during_p99:.2} ms during",
        names.len(),
        flood_took.as_secs_f64(),
        cpu / replays
    );
    assert_eq!(names.len(), 1000);
    let named = ["FINAL_HASH_MISMATCH", "BOARD_BUSY"];
    assert!(tally.keys().all(|k| named.contains(&k.as_str())), "{tally:?}");
    assert!(cl.clock().is_some_and(|r| r.tick > 60), "the live round ticked on");
    let (_, metrics) = get(&format!("http://{web}/metrics"));
    let metrics = String::from_utf8_lossy(&metrics);
    assert!(metrics.contains("undercooked_board_refused_total 1000"), "{metrics}");
    h.stop();

    // One address is held to its rate: the third submission within the minute is TOO_MANY.
    // This board answers at once (no wait): a submission is 202 with its ticket, whose verdict
    // is then read back.
    let dir = data_dir("board-rate");
    let levels = published_levels(&dir);
    let limits = BoardLimits { wait: Duration::ZERO, ..board_limits(2) };
    let h = board_host(&dir, &levels, limits);
    let web = h.addrs.web.to_string();
    let (status, v) = submit(&web, b"x");
    assert!(status == 202 || v["error"] == "BUNDLE_UNREADABLE", "{status} {v}");
    let ticket = v["ticket"].as_u64().expect("a ticket");
    let mut verdict = (202, Vec::new());
    let end = Instant::now() + PATIENCE;
    while verdict.0 == 202 && Instant::now() < end {
        verdict = get(&format!("http://{web}/api/board/ticket/{ticket}"));
        std::thread::sleep(Duration::from_millis(20));
    }
    let v: serde_json::Value = serde_json::from_slice(&verdict.1).unwrap();
    assert_eq!(
        (verdict.0, v["error"].as_str(), v["ticket"].as_u64()),
        (400, Some("BUNDLE_UNREADABLE"), Some(ticket))
    );
    let (status, _) = submit(&web, b"x");
    assert!(status == 202 || status == 400, "the second is taken");
    refused_as(&web, b"x", "TOO_MANY");
    h.stop();
}

/// A raw request to `web`: the answer's head, lower-cased, and its body.
fn raw(web: &str, request: &str) -> (String, String) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(web).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    s.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    (head.to_ascii_lowercase(), body.to_string())
}

#[test]
fn the_board_answers_pages_from_any_origin_and_renders_itself_escaped() {
    let dir = data_dir("board-cors");
    let levels = published_levels(&dir);
    let h = board_host(&dir, &levels, board_limits(60));
    let web = h.addrs.web.to_string();
    let from = "Origin: https://fans.example\r\nConnection: close\r\n";
    // The preflight a page's POST with Content-Type: application/ron sends first.
    let (head, _) = raw(
        &web,
        &format!(
            "OPTIONS /api/board HTTP/1.1\r\nHost: {web}\r\n{from}\
             Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\n\r\n"
        ),
    );
    assert!(head.starts_with("http/1.1 204"), "{head}");
    for h in [
        "access-control-allow-origin: *",
        "access-control-allow-methods: get, post, options",
        "access-control-allow-headers: content-type",
    ] {
        assert!(head.contains(h), "no `{h}` in:\n{head}");
    }
    // A listing and a submission from that origin: answered by the board, readable by the page
    // (the game server's Origin allow-list guards rooms and relays, not the board).
    let (head, body) = raw(
        &web,
        &format!("GET /api/board?level=tutorial&team=1 HTTP/1.1\r\nHost: {web}\r\n{from}\r\n"),
    );
    assert!(head.starts_with("http/1.1 200"), "{head}\n{body}");
    assert!(head.contains("access-control-allow-origin: *"), "{head}");
    let (head, body) = raw(
        &web,
        &format!(
            "POST /api/board HTTP/1.1\r\nHost: {web}\r\n{from}Content-Type: application/ron\r\n\
             Content-Length: 5\r\n\r\nhello"
        ),
    );
    assert!(head.starts_with("http/1.1 400"), "{head}\n{body}");
    assert!(head.contains("access-control-allow-origin: *"), "{head}");
    assert!(body.contains("BUNDLE_UNREADABLE"), "{body}");
    // The page: every ranked level, an entered round's bundle linked (names are escaped:
    // `board_page`'s own test).
    let bytes = play_a_round(&h, &dir);
    let (status, v) = submit(&web, &bytes);
    assert_eq!(status, 200, "{v}");
    let id = v["entry"]["id"].as_u64().unwrap();
    let (head, page) = raw(&web, &format!("GET /board HTTP/1.1\r\nHost: {web}\r\n{from}\r\n"));
    assert!(head.starts_with("http/1.1 200") && head.contains("content-type: text/html"), "{head}");
    assert!(page.contains("<h2>tutorial</h2>") && page.contains("<h2>dash_diner</h2>"), "{page}");
    assert!(page.contains(&format!("href=\"/api/board/bundle/{id}\"")), "{page}");
    assert!(!page.contains("<script"), "a page with no script: {page}");
}
