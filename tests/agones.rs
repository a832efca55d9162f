//! `--agones` against the Agones SDK sidecar stand-in (tests/agones-sidecar: a gRPC server on
//! 127.0.0.1 generated from the `agones` crate's own .proto files, recording what it is told).
//! The built binary is the host where signals or start-up order matter; the wedged world is
//! an in-process server whose world thread a test job holds (`ServerHandle::with_world`).
//! Waits are bounded loops on observed state (the stand-in's record, the link's step count),
//! never wall-clock assertions. Runs only with `--features server,agones` (.ci/run).

use agones_sidecar::{Answer, Sidecar};
use serde_json::Value;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use undercooked::net::client::api::api_create;
use undercooked::net::client::headless::HeadlessClient;
use undercooked::net::client::headless_inputs::InputMode;
use undercooked::net::server::agones::{Link, LinkConfig, PLAYERS_COUNTER, Pulses, ROOMS_LIST};
use undercooked::net::server::metrics::HostMetrics;
use undercooked::net::server::worlds::{HostConfig, spawn_server};
use undercooked::net::wire::tokens::PROTOCOL_ID;

/// Bounded wait for anything here: generous, since several engineers share two cores.
const PATIENCE: Duration = Duration::from_secs(90);
const BIN: &str = env!("CARGO_BIN_EXE_undercooked");

#[path = "support/short_round.rs"]
mod short_round;
use short_round::short_levels;

fn scratch(name: &str) -> PathBuf {
    short_round::scratch("agones", name)
}

/// Waits until `done` holds; false when patience runs out.
fn wait(mut done: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + PATIENCE;
    while Instant::now() < end {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// Steps `client` until `done` holds; false when patience runs out.
fn pump(client: &mut HeadlessClient, mut done: impl FnMut(&mut HeadlessClient) -> bool) -> bool {
    let end = Instant::now() + PATIENCE;
    while Instant::now() < end {
        client.step();
        if done(client) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

/// A free loopback TCP port (bound and let go: the host binds it next).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn free_udp_port() -> u16 {
    std::net::UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn status(url: &str) -> i32 {
    minreq::get(url).with_timeout(5).send().map_or(0, |r| r.status_code)
}

/// The binary as an `--agones` host of `sidecar`, web port `web_port` (0: any), with `extra`;
/// its web address from the banner, or None when it ended before one.
fn host(
    dir: &Path,
    levels: &Path,
    sidecar: &Sidecar,
    web_port: u16,
    extra: &[&str],
) -> (Host, Option<String>) {
    // As with `portPolicy: Passthrough`: the host ports Agones writes are the ones bound.
    let web_port = if web_port == 0 { free_port() } else { web_port };
    let udp_port = free_udp_port();
    sidecar.set_ports("127.0.0.1", udp_port, web_port);
    let mut child = Command::new(BIN)
        .args(["--headless", "--agones", "--bind", "127.0.0.1", "--max-rooms", "6"])
        .args(["--port", &udp_port.to_string(), "--web-port", &web_port.to_string()])
        .arg("--levels")
        .arg(levels)
        .arg("--data-dir")
        .arg(dir.join("data"))
        .args(extra)
        .env("AGONES_SDK_GRPC_HOST", "http://127.0.0.1")
        .env("AGONES_SDK_GRPC_PORT", sidecar.port().to_string())
        .stdout(Stdio::piped())
        .stderr(if std::env::var_os("AGONES_TEST_LOGS").is_some() {
            Stdio::inherit()
        } else {
            Stdio::null()
        })
        .spawn()
        .expect("the binary starts");
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let web = loop {
        line.clear();
        if out.read_line(&mut line).unwrap() == 0 {
            break None;
        }
        if let Some(web) = line.split("web http://").nth(1) {
            break Some(web.trim().to_string());
        }
    };
    std::thread::spawn(move || out.lines().for_each(drop));
    (Host(child), web)
}

/// The host process, killed if a test ends (or panics) before it exited.
struct Host(Child);

impl Drop for Host {
    fn drop(&mut self) {
        if self.0.try_wait().ok().flatten().is_none() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

impl std::ops::Deref for Host {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.0
    }
}

impl std::ops::DerefMut for Host {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

fn signal(child: &Child) {
    let sent = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    assert!(sent.is_ok_and(|s| s.success()));
}

/// Steps `client` until the host exits; its status, or None (and the host killed) on patience.
fn play_until_exit(client: &mut HeadlessClient, child: &mut Child) -> Option<ExitStatus> {
    let mut status = None;
    pump(client, |_| {
        status = child.try_wait().unwrap();
        status.is_some()
    });
    if status.is_none() {
        let _ = child.kill();
    }
    status
}

fn results(data: &Path) -> Vec<Value> {
    std::fs::read_to_string(data.join("results.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("each results line is JSON"))
        .collect()
}

/// A directory on a free loopback port; killed when dropped.
struct Directory {
    child: Child,
    addr: String,
}

impl Drop for Directory {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn directory() -> Directory {
    let mut child = Command::new(BIN)
        .args(["directory", "--bind", "127.0.0.1", "--web-port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the directory starts");
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let addr = first.split("directory: http://").nth(1).expect("banner").split_whitespace();
    let addr = format!("http://{}", addr.clone().next().unwrap());
    std::thread::spawn(move || out.lines().for_each(drop));
    Directory { child, addr }
}

#[test]
fn ready_comes_once_the_levels_are_loaded_and_the_ports_bound_and_never_before() {
    let dir = scratch("ready");
    let sidecar = Sidecar::start("fleet-ready-x1");
    // A host that cannot load its levels never says Ready.
    let empty = dir.join("no-levels");
    std::fs::create_dir_all(&empty).unwrap();
    let (mut child, web) = host(&dir, &empty, &sidecar, 0, &[]);
    assert!(web.is_none(), "no banner without levels");
    assert_eq!(child.wait().unwrap().code(), Some(2));
    assert_eq!(sidecar.record().count("Ready"), 0, "{:?}", sidecar.record().calls);
    // A host that loads: at the moment Ready arrives, the web port answers /readyz.
    let levels = short_levels(&dir, 600);
    let port = free_port();
    sidecar.on_ready(move || status(&format!("http://127.0.0.1:{port}/readyz")) == 200);
    let d = directory();
    let announce = ["--announce", d.addr.as_str(), "--announce-secs", "1"];
    let (mut child, web) = host(&dir, &levels, &sidecar, port, &announce);
    assert!(web.is_some(), "banner");
    assert!(wait(|| sidecar.record().count("Ready") == 1), "Ready told");
    let r = sidecar.record();
    assert_eq!(r.ready_checks, vec![true], "the host served /readyz when it said Ready");
    let labelled = wait(|| sidecar.record().labels.contains_key("protocol"));
    assert!(labelled, "label told: {:?}", sidecar.record());
    let r = sidecar.record();
    assert_eq!(r.labels["protocol"], PROTOCOL_ID.to_string());
    assert_eq!(r.lists[ROOMS_LIST].capacity, 6, "the rooms List holds the room cap");
    assert_eq!(r.counters[PLAYERS_COUNTER].capacity, 24, "every seat of every room");
    assert!(wait(|| sidecar.record().health >= 3), "health pings flow while the world ticks");
    // The announce names the GameServer, and the address Agones gave it (its status).
    let mut entry = Value::Null;
    let listed = wait(|| {
        let r = minreq::get(format!("{}/api/servers", d.addr)).with_timeout(5).send();
        let v: Value =
            r.ok().and_then(|r| serde_json::from_str(r.as_str().ok()?).ok()).unwrap_or_default();
        entry = v["servers"][0].clone();
        entry["game_server"] == "fleet-ready-x1"
    });
    assert!(listed, "the directory names the GameServer: {entry}");
    assert_eq!(entry["address"], format!("127.0.0.1:{port}"));
    signal(&child);
    assert!(wait(|| child.try_wait().unwrap().is_some()), "an idle host drains at once");
    assert!(child.wait().unwrap().success());
    assert_eq!(sidecar.record().calls.last(), Some(&"Shutdown"), "Shutdown is the last word");
}

/// An in-process host beating `pulses`, and a link to `sidecar` counting its steps.
fn linked(sidecar: &Sidecar) -> (Link, Arc<AtomicU64>, Pulses) {
    let pulses = Pulses::new(1);
    let steps = Arc::new(AtomicU64::new(0));
    let link = Link::start(LinkConfig {
        pulses: pulses.clone(),
        room_cap: 4,
        seat_cap: 16,
        protocol: PROTOCOL_ID,
        game_server: Default::default(),
        metrics: HostMetrics::default(),
        on_shutdown: Arc::new(|| {}),
        sidecar_port: Some(sidecar.port()),
        steps: steps.clone(),
    })
    .expect("link starts");
    (link, steps, pulses)
}

#[test]
fn health_pings_stop_while_the_world_is_wedged_and_come_back_after() {
    let dir = scratch("wedge");
    let sidecar = Sidecar::start("fleet-wedge-x1");
    let (link, steps, pulses) = linked(&sidecar);
    let server = spawn_server(HostConfig {
        agones: Some(pulses.clone()),
        ..HostConfig::loopback(dir.join("data"))
    })
    .expect("server starts");
    assert!(wait(|| sidecar.record().health >= 3), "pings while the world ticks");
    let (release, held) = std::sync::mpsc::channel::<()>();
    let (stalled, is_stalled) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|s| {
        // The test hook: a job on the world's own thread that holds it, so no frame and no
        // tick runs until it lets go.
        s.spawn(|| {
            server.with_world(move |_| {
                let _ = stalled.send(());
                let _ = held.recv();
            })
        });
        is_stalled.recv().unwrap();
        let (h0, s0) = (sidecar.record().health, steps.load(Ordering::SeqCst));
        assert!(wait(|| steps.load(Ordering::SeqCst) >= s0 + 8), "the link keeps stepping");
        let h1 = sidecar.record().health;
        // At most the ping decided before the stall and one still on the wire: 8 steps, no more.
        assert!(h1 <= h0 + 2, "pings went on while the world was wedged: {h0} -> {h1}");
        release.send(()).unwrap();
    });
    let h = sidecar.record().health;
    assert!(wait(|| sidecar.record().health >= h + 3), "pings come back once the world ticks");
    server.stop();
    link.finish();
    assert_eq!(sidecar.record().calls.last(), Some(&"Shutdown"));
}

#[test]
fn the_rooms_list_and_players_counter_follow_rooms_opening_and_closing() {
    let dir = scratch("rooms");
    let sidecar = Sidecar::start("fleet-rooms-x1");
    let (link, _steps, pulses) = linked(&sidecar);
    let server = spawn_server(HostConfig {
        agones: Some(pulses),
        empty_timeout: Duration::from_secs(1),
        ..HostConfig::loopback(dir.join("data"))
    })
    .expect("server starts");
    let web = server.addrs.web.to_string();
    let rooms = || sidecar.record().lists[ROOMS_LIST].values.clone();
    let players = || sidecar.record().counters[PLAYERS_COUNTER].count;
    assert!(wait(|| sidecar.record().lists[ROOMS_LIST].capacity == 4), "capacity told");
    let a = api_create(&web, "Ann", None).expect("room a");
    let b = api_create(&web, "Bob", None).expect("room b");
    let mut both = vec![a.code.clone(), b.code.clone()];
    both.sort();
    assert!(
        wait(|| {
            let mut r = rooms();
            r.sort();
            r == both
        }),
        "both rooms listed: {:?}",
        rooms()
    );
    // A player seated in room a counts.
    let mut ca = HeadlessClient::connect(&a, InputMode::Random).expect("client starts");
    assert!(pump(&mut ca, |c| c.clock().is_some() && players() >= 1), "players: {}", players());
    // Room b, never joined, is reclaimed when empty: it leaves the List.
    let left = pump(&mut ca, |_| rooms() == vec![a.code.clone()]);
    assert!(left, "room b left the List: {:?}", rooms());
    // The player leaves: room a empties and closes; the List and Counter empty with it.
    drop(ca);
    assert!(wait(|| rooms().is_empty() && players() == 0), "{:?} {}", rooms(), players());
    server.stop();
    link.finish();
}

/// A host with one room in play (its round `seconds` long), its client, and the room's code.
fn round_in_play(
    dir: &Path,
    sidecar: &Sidecar,
    seconds: u32,
) -> (Host, String, HeadlessClient, String) {
    let levels = short_levels(dir, seconds);
    let (child, web) = host(dir, &levels, sidecar, 0, &["--drain-seconds", "600"]);
    let web = web.expect("banner");
    assert!(wait(|| sidecar.record().count("Ready") == 1), "Ready told");
    let a = api_create(&web, "Ann", None).expect("room created");
    let mut ca = HeadlessClient::connect(&a, InputMode::Random).expect("client starts");
    assert!(pump(&mut ca, |c| c.clock().is_some_and(|r| r.tick > 5)), "round live");
    (child, web, ca, a.code)
}

/// The round played to its end (`finished`), the host exited 0, and Shutdown came last.
fn finished_then_shutdown(dir: &Path, sidecar: &Sidecar, code: &str, status: Option<ExitStatus>) {
    assert!(status.is_some_and(|s| s.success()), "exit 0 after the drain: {status:?}");
    let lines = results(&dir.join("data"));
    let line = lines.iter().find(|l| l["room"] == code).expect("a results line");
    assert_eq!(line["reason"], "finished", "{line}");
    let bundle = dir.join("data").join("bundles").join(format!("{code}-1.ron"));
    assert!(bundle.exists(), "bundle {}", bundle.display());
    let r = sidecar.record();
    assert_eq!(r.shutdowns, 1);
    assert_eq!(r.calls.last(), Some(&"Shutdown"), "{:?}", r.calls);
}

#[test]
fn sigterm_drains_the_round_then_says_shutdown() {
    let dir = scratch("sigterm");
    let sidecar = Sidecar::start("fleet-term-x1");
    let (mut child, _web, mut ca, code) = round_in_play(&dir, &sidecar, 4);
    signal(&child);
    let status = play_until_exit(&mut ca, &mut child);
    finished_then_shutdown(&dir, &sidecar, &code, status);
}

#[test]
fn an_agones_shutdown_drains_like_sigterm() {
    let dir = scratch("gs-shutdown");
    let sidecar = Sidecar::start("fleet-del-x1");
    let (mut child, web, mut ca, code) = round_in_play(&dir, &sidecar, 4);
    sidecar.set_state("Shutdown");
    assert!(pump(&mut ca, |_| status(&format!("http://{web}/readyz")) == 503), "draining");
    let status = play_until_exit(&mut ca, &mut child);
    finished_then_shutdown(&dir, &sidecar, &code, status);
}

#[test]
fn a_sidecar_that_refuses_or_vanishes_does_not_stop_a_live_round() {
    let dir = scratch("vanish");
    let mut sidecar = Sidecar::start("fleet-gone-x1");
    let (mut child, web, mut ca, code) = round_in_play(&dir, &sidecar, 8);
    let errors = |web: &str| {
        let text = minreq::get(format!("http://{web}/metrics")).with_timeout(5).send();
        let text = text.ok().and_then(|r| r.as_str().ok().map(str::to_string)).unwrap_or_default();
        text.lines()
            .filter(|l| l.starts_with("undercooked_agones_sdk_errors_total"))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<u64>().ok())
            .sum::<u64>()
    };
    sidecar.answer(Answer::Refuse);
    assert!(pump(&mut ca, |_| sidecar.refused() >= 3), "the host keeps calling");
    let e0 = errors(&web);
    sidecar.vanish();
    assert!(pump(&mut ca, |_| errors(&web) >= e0 + 3), "failures counted in /metrics");
    assert!(child.try_wait().unwrap().is_none(), "the host lives on");
    assert!(pump(&mut ca, |c| c.clock().is_some_and(|r| r.tick > 60)), "the round plays on");
    sidecar.answer(Answer::Serve);
    sidecar.come_back();
    let h = sidecar.record().health;
    assert!(pump(&mut ca, |_| sidecar.record().health >= h + 3), "pings again once it is back");
    signal(&child);
    let status = play_until_exit(&mut ca, &mut child);
    finished_then_shutdown(&dir, &sidecar, &code, status);
}
