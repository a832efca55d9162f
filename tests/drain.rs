//! `--drain-seconds`: the built binary as the host, real sockets on 127.0.0.1, a headless
//! client stepped here. SIGTERM during a round: the round plays to its end, is recorded and
//! bundled, the process exits 0; meanwhile new rooms and joins are refused by name, `/readyz`
//! and `/metrics` say draining, and a directory stops offering the server. Waits are bounded
//! loops on observed state, never wall-clock assertions.

use serde_json::Value;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};
use undercooked::net::client::api::{api_create, api_join};
use undercooked::net::client::headless::HeadlessClient;
use undercooked::net::client::headless_inputs::InputMode;
use undercooked::net::wire::error::NetError;

/// Bounded wait for anything here: generous, since several engineers share two cores.
const PATIENCE: Duration = Duration::from_secs(60);
const BIN: &str = env!("CARGO_BIN_EXE_undercooked");

#[path = "support/short_round.rs"]
mod short_round;
use short_round::short_levels;

fn scratch(name: &str) -> PathBuf {
    short_round::scratch("drain", name)
}

/// The binary as a host with `extra` options; its web address from the banner.
fn host(dir: &Path, levels: &Path, extra: &[&str]) -> (Child, String) {
    let mut child = Command::new(BIN)
        .args(["--headless", "--port", "0", "--web-port", "0", "--bind", "127.0.0.1"])
        .arg("--levels")
        .arg(levels)
        .arg("--data-dir")
        .arg(dir.join("data"))
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    // The banner is the first line naming the web port: a host may say first what it loads
    // (a folder without index.ron, levels refused as unpublished).
    let mut line = String::new();
    let web = loop {
        line.clear();
        let read = out.read_line(&mut line).unwrap();
        assert!(read > 0, "the host ended before its banner");
        if let Some(web) = line.split("web http://").nth(1) {
            break web.trim().to_string();
        }
    };
    // Keep reading: a closed pipe would make the host's later prints fail.
    std::thread::spawn(move || out.lines().for_each(drop));
    (child, web)
}

fn signal(child: &Child) {
    let sent = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    assert!(sent.is_ok_and(|s| s.success()));
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

fn get(url: &str) -> (i32, Value) {
    match minreq::get(url).with_timeout(10).send() {
        Ok(r) => {
            (r.status_code, serde_json::from_str(r.as_str().unwrap_or("")).unwrap_or(Value::Null))
        }
        Err(_) => (0, Value::Null),
    }
}

fn metrics(web: &str) -> String {
    let r = minreq::get(format!("http://{web}/metrics")).with_timeout(10).send();
    r.ok().and_then(|r| r.as_str().ok().map(str::to_string)).unwrap_or_default()
}

fn results(data: &Path) -> Vec<Value> {
    std::fs::read_to_string(data.join("results.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("each results line is JSON"))
        .collect()
}

/// A refusal named `draining`.
fn refused_draining(r: Result<impl std::fmt::Debug, NetError>) -> bool {
    matches!(&r, Err(e) if e.to_string().contains("draining"))
}

#[test]
fn a_round_in_play_at_sigterm_finishes_is_recorded_and_the_host_exits_0() {
    let dir = scratch("finish");
    let levels = short_levels(&dir, 4);
    let (mut child, web) = host(&dir, &levels, &["--drain-seconds", "600"]);
    assert_eq!(get(&format!("http://{web}/readyz")).0, 200, "ready before the drain");
    let a = api_create(&web, "Ann", None).expect("room created");
    let mut ca = HeadlessClient::connect(&a, InputMode::Random).expect("client starts");
    assert!(pump(&mut ca, |c| c.clock().is_some_and(|r| r.tick > 5)), "round live");
    signal(&child);
    // The drain is visible: not ready by name, the gauge at 1, new rooms and joins refused.
    let mut ready = (0, Value::Null);
    assert!(
        pump(&mut ca, |_| {
            ready = get(&format!("http://{web}/readyz"));
            ready.0 == 503
        }),
        "readyz turns 503 while draining: {ready:?}"
    );
    assert_eq!(ready.1["status"], "draining");
    assert!(metrics(&web).contains("undercooked_draining 1"), "{}", metrics(&web));
    assert!(refused_draining(api_create(&web, "Bob", None)), "a new room is refused");
    assert!(refused_draining(api_join(&web, &a.code, "Cy", None)), "a new join is refused");
    // A seat's own reconnect is still answered: its player may get back into the live round.
    let back = api_join(&web, &a.code, "Ann", Some(&a.reconnect)).expect("reconnect answered");
    assert_eq!(back.seat(), a.seat());
    // The round plays on to its end; then the host stops by itself.
    let status = play_until_exit(&mut ca, &mut child);
    assert!(status.is_some_and(|s| s.success()), "exit 0 after the drain: {status:?}");
    let data = dir.join("data");
    let lines = results(&data);
    let line = lines.iter().find(|l| l["room"] == a.code.as_str()).expect("a results line");
    assert_eq!(line["reason"], "finished", "{line}");
    assert_eq!(lines.len(), 1, "one round, no new one started during the drain: {lines:?}");
    let bundle = data.join("bundles").join(format!("{}-1.ron", a.code));
    let check = Command::new(BIN).args(["replay", "check"]).arg(&bundle).output().unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
}

#[test]
fn without_drain_seconds_sigterm_still_stops_at_once() {
    let dir = scratch("plain");
    let levels = short_levels(&dir, 600);
    let (mut child, web) = host(&dir, &levels, &[]);
    let a = api_create(&web, "Ann", None).expect("room created");
    let mut ca = HeadlessClient::connect(&a, InputMode::Random).expect("client starts");
    assert!(pump(&mut ca, |c| c.clock().is_some_and(|r| r.tick > 5)), "round live");
    signal(&child);
    let status = play_until_exit(&mut ca, &mut child);
    assert!(status.is_some_and(|s| s.success()), "exit 0: {status:?}");
    let lines = results(&dir.join("data"));
    let line = lines.iter().find(|l| l["room"] == a.code.as_str()).expect("a results line");
    assert_eq!(line["reason"], "shutdown");
}

#[test]
fn a_round_still_live_when_the_bound_passes_ends_shutdown_and_is_bundled() {
    let dir = scratch("bound");
    let levels = short_levels(&dir, 600);
    let (mut child, web) = host(&dir, &levels, &["--drain-seconds", "1"]);
    let a = api_create(&web, "Ann", None).expect("room created");
    let mut ca = HeadlessClient::connect(&a, InputMode::Random).expect("client starts");
    assert!(pump(&mut ca, |c| c.clock().is_some_and(|r| r.tick > 5)), "round live");
    signal(&child);
    let status = play_until_exit(&mut ca, &mut child);
    assert!(status.is_some_and(|s| s.success()), "exit 0 after the bound: {status:?}");
    let data = dir.join("data");
    let lines = results(&data);
    let line = lines.iter().find(|l| l["room"] == a.code.as_str()).expect("a results line");
    assert_eq!(line["reason"], "shutdown", "{line}");
    let bundle = data.join("bundles").join(format!("{}-1.ron", a.code));
    let check = Command::new(BIN).args(["replay", "check"]).arg(&bundle).output().unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
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
        .args(["--lookups-per-minute", "6000", "--unknown-lookups-per-minute", "6000"])
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
fn a_draining_server_leaves_the_directory_and_a_second_signal_stops_it() {
    let dir = scratch("directory");
    let levels = short_levels(&dir, 600);
    let d = directory();
    let (mut child, web) = host(
        &dir,
        &levels,
        &["--drain-seconds", "600", "--announce", &d.addr, "--announce-secs", "1"],
    );
    let a = api_create(&web, "Ann", None).expect("room created");
    let mut ca = HeadlessClient::connect(&a, InputMode::Random).expect("client starts");
    let lookup = format!("{}/api/rooms/{}", d.addr, a.code);
    let listed = |d: &Directory| {
        let (_, v) = get(&format!("{}/api/servers", d.addr));
        v["servers"].as_array().is_some_and(|s| s.iter().any(|s| s["address"] == web.as_str()))
    };
    assert!(
        pump(&mut ca, |c| c.clock().is_some() && get(&lookup).0 == 200 && listed(&d)),
        "round live, server listed, code resolves"
    );
    signal(&child);
    let mut answer = (0, Value::Null);
    assert!(
        pump(&mut ca, |_| {
            answer = get(&lookup);
            answer.0 != 200 && !listed(&d)
        }),
        "the directory stops offering the draining server: {answer:?}"
    );
    assert_eq!((answer.0, answer.1["error"].as_str()), (410, Some("draining")), "{answer:?}");
    // The round is long: a second signal ends the drain now, as today's shutdown.
    assert!(child.try_wait().unwrap().is_none(), "the drain waits on the live round");
    signal(&child);
    let status = play_until_exit(&mut ca, &mut child);
    assert!(status.is_some_and(|s| s.success()), "exit 0: {status:?}");
    let lines = results(&dir.join("data"));
    let line = lines.iter().find(|l| l["room"] == a.code.as_str()).expect("a results line");
    assert_eq!(line["reason"], "shutdown");
}
