//! Versus hosted (issue 31): a room made with `{"mode": "Versus"}` plays a published versus
//! kitchen of the host's `--versus-levels` with bots on both teams (a remote planner bot in
//! seat 0, team A; the server's `--bots-fill` bot in seat 1, team B) to the buzzer; the client
//! is shown both tallies and the verdict on its replicated room view (what the window's HUD
//! reads), the results line names the winner, and the round's bundle — which carries the
//! kitchen's own text, teams and all — `replay check`s to its final hash, directly and through
//! the impairment proxy. An edited versus kitchen, and versus asked with a co-op kitchen (or
//! the reverse), are refused by name.

use super::{PATIENCE, bundle_of, data_dir, pump, results};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use undercooked::bot::publish::{PublishArgs, publish};
use undercooked::level::{ErrorCode, Trust, file_hash};
use undercooked::net::client::api::create_room;
use undercooked::net::client::headless::HeadlessClient;
use undercooked::net::client::headless_inputs::InputMode;
use undercooked::net::client::transport::Transport;
use undercooked::net::server::bots::BotsFill;
use undercooked::net::server::lobby::LobbyRefusals;
use undercooked::net::server::versus_levels::load_versus;
use undercooked::net::server::worlds::{HostConfig, ServerHandle, spawn_server};
use undercooked::net::wire::error::NetError;
use undercooked::protocol::tandem::GameMode;
use undercooked::protocol::{LobbyCommand, LobbyPhase};
use undercooked::replay::bundle::{bundle_room, check_bundle};
use undercooked::sim::verdict::Verdict;
use undercooked::sim::versus::Team;

/// The shipped Split Salad on a 20 s clock (400 ticks: two dishes a side), so a round reaches
/// its buzzer in a test's time.
fn short_salad() -> String {
    let text = std::fs::read_to_string("levels_versus/split_salad.ron").expect("the kitchen");
    let short = text.replace("time_limit: 180.0", "time_limit: 20.0");
    assert_ne!(short, text, "the clock line moved: update the test");
    short
}

/// A versus folder holding `text` as split_salad.ron, published by `level publish` itself
/// (the versus proof, one seed) into the folder's own index.
fn published_folder(name: &str, text: &str) -> PathBuf {
    let dir = data_dir(&format!("versus-levels-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("split_salad.ron");
    std::fs::write(&file, text).unwrap();
    let args = PublishArgs { file: file.clone(), seeds: 1, index: None };
    let lines = publish(&args).unwrap_or_else(|e| panic!("the short kitchen publishes: {e:?}"));
    assert!(lines.iter().any(|l| l.starts_with("published versus `split_salad`")), "{lines:?}");
    dir
}

fn versus_host(name: &str, levels: &Path) -> HostConfig {
    HostConfig {
        versus_levels: levels.to_path_buf(),
        // One player seat: the bot fill takes seat 1, team B's.
        bots_fill: Some(BotsFill::Team(2)),
        ..HostConfig::loopback(data_dir(name))
    }
}

/// Creates a versus room on `web`, seats a planner-bot client in it over `transport`, plays
/// the round to its buzzer and the results screen; checks what the client was shown and the
/// results line, and returns the room's code.
fn play_a_versus_round(h: &ServerHandle, web: &str, transport: &Transport, dir: &Path) -> String {
    let a = create_room(web, "Ann", None, 1, false, GameMode::Versus).expect("a versus room");
    let mut ann = HeadlessClient::connect_via(&a, InputMode::Bot, transport).expect("connects");
    let lobby = pump(&mut [&mut ann], |c| !c[0].lobbies().is_empty());
    assert!(lobby, "the lobby arrives");
    let view = ann.lobbies()[0].clone();
    assert_eq!((view.mode, view.level_id.as_str()), (GameMode::Versus, "split_salad"));
    assert_eq!(view.levels, vec!["split_salad".to_string()], "a versus room lists versus kitchens");
    assert_eq!(view.seats[0].team, Some(Team::A), "seat 0 plays for spawn 1's team");
    // Both tallies on the room view the HUD draws, then the buzzer's verdict.
    let mut tallies = None;
    let decided = pump(&mut [&mut ann], |c| {
        let Some(room) = c[0].room() else { return false };
        tallies = room.versus.or(tallies);
        room.result.is_some()
    });
    assert!(decided, "the round reaches its buzzer");
    let room = ann.room().expect("the decided round is still shown (its settle)");
    let tally = room.versus.or(tallies).expect("the client is shown both teams' tallies");
    assert_eq!(room.result, Some(tally.verdict()), "the verdict is the tallies' verdict");
    assert!(room.orders.iter().any(|o| o.team == Some(Team::B)), "team B's rail is shown");
    let done = pump(&mut [&mut ann], |c| {
        c[0].lobbies().first().is_some_and(|l| l.phase == LobbyPhase::Results)
    });
    assert!(done, "the room goes to its results screen");
    let live = h.with_world(|w| w.query::<&undercooked::sim::room::Room>().iter(w).count());
    assert_eq!(live, 0, "the round entity is gone with its round");
    let winner = match room.result {
        Some(Verdict::TeamA) => "a",
        Some(Verdict::TeamB) => "b",
        _ => "draw",
    };
    let end = Instant::now() + PATIENCE;
    let line = loop {
        let found = results(dir).into_iter().find(|l| l["room"] == a.code.as_str());
        match found {
            Some(line) => break line,
            None if Instant::now() < end => std::thread::sleep(Duration::from_millis(50)),
            None => panic!("no results line for {}", a.code),
        }
    };
    assert_eq!(
        (line["mode"].as_str(), line["reason"].as_str()),
        (Some("versus"), Some("finished"))
    );
    assert_eq!(line["winner"], winner, "{line}");
    assert_eq!(line["payload"]["versus"]["winner"], winner, "{line}");
    let seats = &line["payload"]["versus"]["teams"][1]["seats"];
    assert_eq!(seats, &serde_json::json!([1]), "the bot in seat 1 played for B: {line}");
    ann.disconnect();
    a.code
}

/// The round's bundle rebuilds a versus room from its own level text, and `replay check`
/// (the binary) matches it to its final hash.
fn bundle_replays(dir: &Path, code: &str) {
    let bundle = bundle_of(dir, code);
    assert!(bundle.level_source.contains("teams:"), "the bundle carries the kitchen's teams");
    assert!(bundle_room(&bundle).expect("it rebuilds").versus.is_some(), "as a versus room");
    let check = check_bundle(&bundle).expect("a valid bundle");
    assert!(check.matches(), "the bundle replays to its final hash");
    let path = dir.join("bundles").join(format!("{code}-1.ron"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_undercooked"))
        .args(["replay", "check"])
        .arg(&path)
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{text}{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_versus_room_with_bots_on_both_teams_plays_to_the_buzzer_and_replays_from_its_bundle() {
    let levels = published_folder("plain", &short_salad());
    let cfg = versus_host("versus-plain", &levels);
    let dir = cfg.data_dir.clone();
    let h = spawn_server(cfg).expect("server starts");
    let code = play_a_versus_round(&h, &h.addrs.web.to_string(), &Transport::Udp, &dir);
    h.stop();
    bundle_replays(&dir, &code);
    let _ = std::fs::remove_dir_all(&levels);
}

/// The same round over a bad link: 150 ms round trip, 15 ms jitter, 3 % loss each way.
#[test]
fn a_versus_round_over_a_bad_link_replays_from_its_bundle() {
    use undercooked::net::tools::impair::Conditions;
    use undercooked::net::tools::netbench::ImpairedHost;
    let levels = published_folder("netem", &short_salad());
    let cfg = versus_host("versus-netem", &levels);
    let dir = cfg.data_dir.clone();
    let host = ImpairedHost::start_on(cfg, Conditions::around_rtt(150, 15, 3.0), 11)
        .expect("server and proxy start");
    let code = play_a_versus_round(&host.server, &host.web(), &host.transport(), &dir);
    // The server alone (its last bundle flushed), keeping the data dir `ImpairedHost::stop`
    // would remove.
    host.server.stop();
    bundle_replays(&dir, &code);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&levels);
}

fn refused_as(reply: Result<impl std::fmt::Debug, NetError>, name: &str) {
    let e = reply.expect_err("refused");
    assert!(e.to_string().contains(name), "{e}");
}

#[test]
fn an_edited_versus_kitchen_and_versus_with_the_wrong_kind_are_refused_by_name() {
    let book = undercooked::replay::cli::recipe_book_source().expect("the book").0;
    let levels = published_folder("edited", &short_salad());
    let file = levels.join("split_salad.ron");
    let published = std::fs::read_to_string(&file).unwrap();
    // Published: offered. Edited after: LEVEL_NOT_PUBLISHED with both hashes, not offered.
    assert_eq!(load_versus(&levels, &book, Trust::Published, &[]).levels.len(), 1);
    let edited = published.replace("miss_penalty: 5", "miss_penalty: 6");
    std::fs::write(&file, &edited).unwrap();
    let offer = load_versus(&levels, &book, Trust::Published, &[]);
    assert!(offer.levels.is_empty(), "the edit is not offered");
    let why = offer.refused.join("\n");
    assert!(why.contains(ErrorCode::LevelNotPublished.as_str()), "{why}");
    assert!(why.contains(&file_hash(published.as_bytes())), "{why}");
    assert!(why.contains(&file_hash(edited.as_bytes())), "{why}");

    // A host whose only versus kitchen is that edit offers no versus.
    let h = spawn_server(versus_host("versus-refused", &levels)).expect("server starts");
    let web = h.addrs.web.to_string();
    refused_as(create_room(&web, "Ann", None, 1, false, GameMode::Versus), "no_versus_kitchens");
    h.stop();
    let _ = std::fs::remove_dir_all(&levels);

    // The shipped folder: versus with a co-op kitchen, and a versus kitchen for cooking, are
    // refused at the create and in the lobby.
    let h = spawn_server(HostConfig::loopback(data_dir("versus-kinds"))).expect("server starts");
    let web = h.addrs.web.to_string();
    let versus = GameMode::Versus;
    refused_as(create_room(&web, "A", Some("tutorial"), 1, false, versus), "level_wrong_mode");
    let cooking = GameMode::Cooking;
    refused_as(create_room(&web, "A", Some("split_salad"), 1, false, cooking), "level_wrong_mode");
    let a = create_room(&web, "Ann", Some("throw_lane"), 1, false, versus).expect("a room");
    let mut ann = HeadlessClient::connect(&a, InputMode::Idle).expect("connects");
    assert!(pump(&mut [&mut ann], |c| !c[0].lobbies().is_empty()), "the lobby arrives");
    assert_eq!(ann.lobbies()[0].level_id, "throw_lane");
    ann.command(LobbyCommand::Level("tutorial".into()));
    let counted = pump(&mut [&mut ann], |_| {
        h.with_world(|w| w.resource::<LobbyRefusals>().wrong_kitchen) == 1
    });
    assert!(counted, "a co-op kitchen in a versus room is refused and counted");
    // Back to cooking: the room moves to the first co-op kitchen, never keeps a versus one.
    ann.command(LobbyCommand::Mode(GameMode::Cooking));
    let moved = pump(&mut [&mut ann], |c| {
        c[0].lobbies().first().is_some_and(|l| l.mode == GameMode::Cooking)
    });
    assert!(moved, "the host's mode change is applied");
    let lobby = ann.lobbies()[0].clone();
    assert_eq!(lobby.level_id, "tutorial");
    assert!(!lobby.levels.contains(&"throw_lane".to_string()), "{:?}", lobby.levels);
    assert!(lobby.seats.iter().all(|s| s.team.is_none()), "no teams outside versus");
    h.stop();
}
