//! The results board end to end (issue 30): a daily kitchen's local round, played by two bots
//! through the embedded host's own path (the room's admitted log, `replay::local_round` for
//! the bundle, written beside the save), is submitted to a real board over a real socket,
//! listed, fetched, shown on the board's page, and the fetched entry plays back in the game
//! window to "matches the bundle" (under Xvfb, killed after a bound).

use super::{temp_dir, xvfb_or_skip};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use undercooked::board::client::{Submitted, fetch_bundle, list_entries, submit_bundle};
use undercooked::board::daily::DailyWindow;
use undercooked::board::running::{Board, BoardConfig, BoardHome, BoardLimits};
use undercooked::bot::generate::generate;
use undercooked::bot::planner::BotTeam;
use undercooked::level::generate::{Date, daily_options};
use undercooked::level::recipes::parse_recipes;
use undercooked::net::server::web::WebConfig;
use undercooked::net::server::web::board::BoardDoor;
use undercooked::net::server::worlds::{HostConfig, spawn_server};
use undercooked::replay::bundle::{Bundle, check_bundle};
use undercooked::replay::local_round::LocalRound;
use undercooked::sim::open::SeatSpec;
use undercooked::sim::room::Room;
use undercooked::sim::step_room;

/// The window's playback is killed after this long (a hang must not hold the build).
const WINDOW_BOUND: Duration = Duration::from_secs(400);

/// The daily kitchen of `day` played by two bots to its verdict, as the window's local host
/// plays it (frames through the room's gate, the log on from tick 0); its bundle written into
/// `bundles` the way the window writes one. The bundle's path.
fn play_daily_round(day: Date, bundles: &Path) -> std::path::PathBuf {
    let recipes = std::fs::read_to_string("assets/recipes.ron").expect("recipes");
    let book = parse_recipes(recipes.as_bytes(), "recipes").expect("the shipped book");
    let kitchen = generate(&daily_options(day), &book).expect("the daily kitchen");
    let seats = SeatSpec::numbered(2);
    let mut room = Room::new(Arc::new(kitchen.level.clone()), Arc::new(book), 7, &seats);
    room.inputs.record();
    let mut team = BotTeam::new(&room, &[0, 1]);
    let bound = room.level.time_limit + 100;
    while room.result.is_none() && room.tick < bound {
        team.drive(&mut room);
        step_room(&mut room);
    }
    assert!(room.result.is_some(), "the round reached its verdict by tick {}", room.tick);
    let round = LocalRound::from_room(&room, "local-daily", &kitchen.text, &recipes);
    let bundle = round.into_bundle().expect("the replay reaches the round's own hash");
    bundle.write_to(bundles).expect("written")
}

/// A game server on loopback with a board ranking `day`'s daily kitchen; its web address.
fn board_host(dir: &Path, day: Date) -> (undercooked::net::server::worlds::ServerHandle, String) {
    let levels = dir.join("levels");
    std::fs::create_dir_all(&levels).expect("levels dir");
    // A server needs a playable level; with no index, the board ranks only the daily kitchen.
    std::fs::copy("levels/tutorial.ron", levels.join("tutorial.ron")).expect("tutorial");
    let board = Board::open(&BoardConfig {
        home: BoardHome::Sqlite(dir.join("board.sqlite")),
        levels: levels.clone(),
        daily: DailyWindow::Fixed(day),
        limits: BoardLimits::default(),
    })
    .expect("the board opens");
    let web = WebConfig { board: Some(BoardDoor::new(board)), ..WebConfig::default() };
    let cfg = HostConfig { levels, web, ..HostConfig::loopback(dir.to_path_buf()) };
    let h = spawn_server(cfg).expect("server starts");
    let url = format!("http://{}", h.addrs.web);
    (h, url)
}

/// `cmd` run in its own process group, killed (the whole group) after `bound`: its exit
/// status (None: killed), stdout and stderr.
fn run_bounded(mut cmd: Command, bound: Duration) -> (Option<i32>, String, String) {
    use std::os::unix::process::CommandExt;
    let mut child =
        cmd.process_group(0).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn");
    let read = |mut r: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let out = read(Box::new(child.stdout.take().expect("stdout")));
    let err = read(Box::new(child.stderr.take().expect("stderr")));
    let start = Instant::now();
    let code = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break status.code();
        }
        if start.elapsed() > bound {
            let _ = Command::new("kill").arg("-KILL").arg(format!("-{}", child.id())).status();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    (code, out.join().unwrap_or_default(), err.join().unwrap_or_default())
}

#[test]
fn a_daily_rounds_bundle_is_entered_listed_fetched_shown_and_played_back_in_the_window() {
    let dir = temp_dir("board-e2e");
    let day = Date::new(2026, 12, 6).expect("a date");
    let path = play_daily_round(day, &dir.join("bundles"));
    let bytes = std::fs::read(&path).expect("the written bundle");
    let written: Bundle = ron::from_str(std::str::from_utf8(&bytes).unwrap()).expect("parses");
    assert!(check_bundle(&written).expect("checks").matches(), "replay check passes");

    let (_host, url) = board_host(&dir, day);
    let entered = match submit_bundle(&url, bytes.clone(), |_| {}) {
        Submitted::Entered(v) => v,
        other => panic!("not entered: {other:?}"),
    };
    assert_eq!(entered["rank"], 1, "{entered}");
    let id = entered["entry"]["id"].as_u64().expect("an entry id");
    match submit_bundle(&url, bytes.clone(), |_| {}) {
        Submitted::Refused(why) => assert!(why.starts_with("DUPLICATE"), "{why}"),
        other => panic!("a resend is refused: {other:?}"),
    }

    let listing = list_entries(&url, &written.level_id, 2, 10).expect("listed");
    assert_eq!(listing["entries"][0]["id"], id, "{listing}");
    assert_eq!(listing["entries"][0]["final_hash"], written.final_hash.as_str());
    let levels = minreq::get(format!("{url}/api/board/levels")).send().expect("levels");
    let levels: serde_json::Value = serde_json::from_slice(levels.as_bytes()).expect("JSON");
    assert_eq!(levels["levels"][0]["id"], written.level_id.as_str(), "{levels}");
    assert_eq!(levels["levels"][0]["daily"], true);
    let page = minreq::get(format!("{url}/board")).send().expect("the page");
    let html = page.as_str().expect("text");
    assert!(html.contains(&format!("href=\"/api/board/bundle/{id}\"")), "{html}");
    assert!(html.contains(&written.level_id), "{html}");
    let fetched = fetch_bundle(&url, id).expect("fetched");
    assert_eq!(fetched, bytes, "the entry's bundle is the one submitted");
    let file = dir.join(format!("board-{id}.ron"));
    std::fs::write(&file, &fetched).expect("write");

    let Some(xvfb) = xvfb_or_skip() else { return };
    let mut cmd = Command::new(xvfb);
    cmd.args(["-a", "-s", "-screen 0 1024x768x24"])
        .arg(env!("CARGO_BIN_EXE_undercooked"))
        .args(["play", "--bundle"])
        .arg(&file)
        .args(["--speed", "8", "--screenshot"])
        .arg(dir.join("playback.png"))
        .args(["--after-ticks", &written.ticks.to_string(), "--size", "640x360"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("UNDERCOOKED_SAVE", dir.join("save.json"));
    let (code, said, log) = run_bounded(cmd, WINDOW_BOUND);
    assert_eq!(
        code,
        Some(0),
        "the window exited (None: killed after {WINDOW_BOUND:?}):\n{said}\n{log}"
    );
    let want = format!(
        "bundle playback: tick {} final hash {} matches the bundle",
        written.ticks, written.final_hash
    );
    assert!(log.contains(&want), "no match line ({want}):\n{log}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `dir/levels`: the tutorial with a 3 s round, published by an index of its hash.
fn short_published_tutorial(dir: &Path) -> std::path::PathBuf {
    let levels = dir.join("levels");
    std::fs::create_dir_all(&levels).expect("levels dir");
    let text = std::fs::read_to_string("levels/tutorial.ron").expect("tutorial");
    assert!(text.contains("time_limit: 180.0"), "the tutorial's length moved: update this test");
    let text = text.replace("time_limit: 180.0", "time_limit: 3.0");
    std::fs::write(levels.join("tutorial.ron"), &text).expect("write");
    let index = format!(
        "Campaign(\n    levels: [\n        (id: \"tutorial\", hash: {:?}, target: 1, proof: (seeds: 1, teams: [(bots: 1, wins: 1, median_ticks: 1)]), build: \"test\"),\n    ],\n)\n",
        undercooked::level::index::file_hash(text.as_bytes())
    );
    std::fs::write(levels.join("index.ron"), index).expect("index");
    levels
}

#[test]
fn a_local_round_in_the_window_writes_a_bundle_beside_the_save_that_replays() {
    let Some(xvfb) = xvfb_or_skip() else { return };
    let dir = temp_dir("round-bundle");
    let levels = short_published_tutorial(&dir);
    let mut cmd = Command::new(xvfb);
    cmd.args(["-a", "-s", "-screen 0 1024x768x24"])
        .arg(env!("CARGO_BIN_EXE_undercooked"))
        .args(["play", "--level", "tutorial", "--autoplay", "bot", "--levels"])
        .arg(&levels)
        .args(["--board", "http://127.0.0.1:9", "--at-round-end", "--screenshot"])
        .arg(dir.join("round-end.png"))
        .args(["--size", "640x360"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("UNDERCOOKED_SAVE", dir.join("save.json"));
    let (code, said, log) = run_bounded(cmd, WINDOW_BOUND);
    assert_eq!(code, Some(0), "the window exited (None: killed):\n{said}\n{log}");
    let file = dir.join("bundles").join("local-tutorial-1.ron");
    assert!(log.contains("round bundle written"), "no bundle line:\n{log}");
    let text = std::fs::read_to_string(&file).expect("the round's bundle beside the save");
    let bundle: Bundle = ron::from_str(&text).expect("parses");
    assert_eq!((bundle.level_id.as_str(), bundle.reason.as_str()), ("tutorial", "finished"));
    let check = check_bundle(&bundle).expect("checks");
    assert!(check.matches(), "the window's round replays to its own hashes: {check:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The window's results board screen (`--screen board`) against a real board holding one
/// entry: the screen lists it (rank, score, cooks, ticks and time, under its daily level),
/// read back from the UI's own texts (`board screen: …`); then `--autoplay` plays that entry
/// from the board (fetched, checked, into the playback).
#[test]
fn the_board_screen_lists_the_entry_and_plays_it_back_in_the_window() {
    let Some(xvfb) = xvfb_or_skip() else { return };
    let dir = temp_dir("board-screen");
    let day = Date::new(2026, 12, 6).expect("a date");
    let path = play_daily_round(day, &dir.join("bundles"));
    let bytes = std::fs::read(&path).expect("the written bundle");
    let written: Bundle = ron::from_str(std::str::from_utf8(&bytes).unwrap()).expect("parses");
    let (_host, url) = board_host(&dir, day);
    let entered = match submit_bundle(&url, bytes, |_| {}) {
        Submitted::Entered(v) => v,
        other => panic!("not entered: {other:?}"),
    };
    let score = entered["entry"]["score"].as_i64().expect("a score");
    let window = |extra: &[&str], shot: &str| {
        let mut cmd = Command::new(&xvfb);
        cmd.args(["-a", "-s", "-screen 0 1920x1080x24"])
            .arg(env!("CARGO_BIN_EXE_undercooked"))
            .args(["play", "--board", &url, "--screen", "board", "--screenshot"])
            .arg(dir.join(shot))
            .args(extra)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("UNDERCOOKED_SAVE", dir.join("save.json"));
        let (code, said, log) = run_bounded(cmd, WINDOW_BOUND);
        assert_eq!(code, Some(0), "the window exited (None: killed):\n{said}\n{log}");
        (said, log)
    };

    let (said, log) = window(&["--size", "1280x720"], "board.png");
    let shown = said.lines().find(|l| l.starts_with("board screen: ")).unwrap_or_else(|| {
        panic!("no board screen line:\n{said}\n{log}");
    });
    let secs = written.ticks / 20;
    let line = format!(
        "#1   score {score}   2 cooks   {} ticks ({}:{:02})",
        written.ticks,
        secs / 60,
        secs % 60
    );
    let heading = format!("{} (daily kitchen), teams of 2 cooks", written.level_id);
    assert!(shown.contains(&heading), "no heading {heading:?}: {shown}");
    assert!(shown.contains(&line), "no entry line {line:?}: {shown}");
    assert!(!shown.contains("Loading"), "still loading: {shown}");
    assert!(dir.join("board.png").exists(), "no screenshot");

    let (_, log) =
        window(&["--autoplay", "bot", "--after-ticks", "40", "--size", "640x360"], "w.png");
    let from_board = format!(
        "bundle playback: `{}`, {} ticks (from the board)",
        written.level_id, written.ticks
    );
    assert!(log.contains(&from_board), "the entry was not played ({from_board}):\n{log}");
    let _ = std::fs::remove_dir_all(&dir);
}
