//! The directory's results board (`undercooked directory --board`) over real sockets: on a
//! real `redis-server` and in a SQLite file, a verified round is entered, a resent one refused
//! as a duplicate, and both keep their entries across a restart of the directory. A module of
//! `tests/directory.rs`.

use super::{directory, redis, scratch};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use undercooked::bot::random::RandomCooks;
use undercooked::level::compile::parse_level;
use undercooked::level::index::file_hash;
use undercooked::level::recipes::parse_recipes;
use undercooked::replay::admitted::run_admitted;
use undercooked::replay::bundle::{
    BUNDLE_EVERY, BUNDLE_VERSION, Bundle, ChainRecorder, content_hash, pack_frames,
};
use undercooked::replay::hex::hex;
use undercooked::sim::open::SeatSpec;
use undercooked::sim::room::Room;

/// `dir/levels`: the tutorial with a 3 s round, published by an index of its hash.
fn published(dir: &Path) -> PathBuf {
    let levels = dir.join("levels");
    std::fs::create_dir_all(&levels).unwrap();
    let text = std::fs::read_to_string("levels/tutorial.ron").unwrap();
    assert!(text.contains("time_limit: 180.0"), "the tutorial's length moved: update this test");
    let text = text.replace("time_limit: 180.0", "time_limit: 3.0");
    std::fs::write(levels.join("tutorial.ron"), &text).unwrap();
    let index = format!(
        "Campaign(levels: [(id: \"tutorial\", hash: {:?}, target: 1, proof: (seeds: 1, teams: \
         [(bots: 1, wins: 1, median_ticks: 1)]), build: \"test\")])\n",
        file_hash(text.as_bytes())
    );
    std::fs::write(levels.join("index.ron"), index).unwrap();
    levels
}

/// A real round of the published tutorial played to its end by two seeded random cooks,
/// recorded as the server records one (chain, fields, frames, result) and written as a bundle.
fn played_round(levels: &Path) -> Vec<u8> {
    let recipes = std::fs::read_to_string("assets/recipes.ron").unwrap();
    let book = parse_recipes(recipes.as_bytes(), "recipes").unwrap();
    let source = std::fs::read_to_string(levels.join("tutorial.ron")).unwrap();
    let level = Arc::new(parse_level(source.as_bytes(), "tutorial", &book).unwrap());
    let seats = SeatSpec::numbered(2);
    let mut room = Room::new(level.clone(), Arc::new(book), 11, &seats);
    let mut cooks = RandomCooks::new(11, 2);
    let admitted: Vec<_> = (0..level.time_limit + 20)
        .flat_map(|t| (0..2).map(move |s| (t, s)))
        .map(|(t, s)| (t, s as u8, cooks.frame(s, t)))
        .collect();
    let mut rec = ChainRecorder::default();
    rec.record(&room);
    while room.result.is_none() {
        assert!(room.tick < level.time_limit + 20, "the round ends on its clock");
        let next = room.tick + 1;
        run_admitted(&mut room, &admitted, next, |room| {
            if ChainRecorder::due(room.tick) {
                rec.record(room);
            }
        });
    }
    rec.record(&room);
    let ticks = room.tick;
    let frames: Vec<_> = admitted.into_iter().filter(|(t, _, _)| *t < ticks).collect();
    let bundle = Bundle {
        bundle_version: BUNDLE_VERSION,
        room: "BOARD".into(),
        round: 1,
        reason: "finished".into(),
        seed: 11,
        level_id: level.id.clone(),
        level_hash: content_hash(&source),
        level_source: source,
        recipes_hash: content_hash(&recipes),
        recipes_source: recipes,
        seats: seats.iter().map(|s| (s.seat, s.name.clone())).collect(),
        ticks,
        record_every: BUNDLE_EVERY,
        final_hash: hex(room.hash),
        hashes: rec.hashes.iter().map(|(t, h)| (*t, hex(*h))).collect(),
        fields: rec.fields,
        frames: pack_frames(&frames),
        result: undercooked::report::result_payload(&room).to_string(),
        assist: Default::default(),
        survival: false,
    };
    bundle.to_ron().into_bytes()
}

fn submit(board: &str, body: &[u8]) -> (i32, serde_json::Value) {
    let r = minreq::post(format!("{board}/api/board"))
        .with_header("Content-Type", "application/ron")
        .with_body(body.to_vec())
        .with_timeout(60)
        .send()
        .expect("the board answers");
    (r.status_code, serde_json::from_slice(r.as_bytes()).unwrap_or_default())
}

fn listed(board: &str) -> serde_json::Value {
    let r = minreq::get(format!("{board}/api/board?level=tutorial&team=2"))
        .with_timeout(30)
        .send()
        .expect("the board answers");
    assert_eq!(r.status_code, 200, "{}", r.as_str().unwrap_or(""));
    serde_json::from_slice(r.as_bytes()).unwrap()
}

/// Enters the round on a directory started with `args`, restarts it, and finds it listed.
fn entered_and_kept(args: &[&str], bundle: &[u8]) {
    let d = directory(0, args);
    let (status, v) = submit(&d.addr, bundle);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["rank"], 1, "{v}");
    let id = v["entry"]["id"].clone();
    let (status, v) = submit(&d.addr, bundle);
    assert_eq!((status, v["error"].as_str()), (409, Some("DUPLICATE")), "{v}");
    drop(d);
    let d = directory(0, args);
    let list = listed(&d.addr);
    assert_eq!(list["entries"][0]["id"], id, "kept across a restart: {list}");
    assert_eq!(list["entries"][0]["names"][1], "Cook 2", "{list}");
    let (status, v) = submit(&d.addr, bundle);
    assert_eq!((status, v["error"].as_str()), (409, Some("DUPLICATE")), "{v}");
}

#[test]
fn a_directorys_board_enters_a_verified_round_and_keeps_it_across_a_restart_on_redis_or_sqlite() {
    let dir = scratch("board");
    let levels = published(&dir);
    let bundle = played_round(&levels);
    let levels = levels.to_str().unwrap();
    let r = redis("board");
    entered_and_kept(&["--board", "--levels", levels, "--redis", &r.url], &bundle);
    let db = dir.join("board.sqlite");
    entered_and_kept(&["--board", "--levels", levels, "--board-db", db.to_str().unwrap()], &bundle);
}
