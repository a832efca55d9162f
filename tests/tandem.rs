//! Tandem (docs/TANDEM.md) end to end: every committed Tandem golden replays to its hash chain
//! through the library and the CLI (exit 0, 1 on a changed golden, 2 on a missing one); the
//! goldens cover a delivery, a wreck, a drop and regrip and an out-of-time run; the seed's
//! physics numbers (drop, regrip, damage formulas, end-check order); determinism; the porter
//! pair delivering on most of seeds 1..20 at live and at decision turns; and recorded runs'
//! replay bundles (written, re-played, tampered with).

use std::path::{Path, PathBuf};
use std::process::Command;
use undercooked::tandem::bundle::{BundleError, TANDEM_BUNDLE_EVERY, TandemBundle, check_bundle};
use undercooked::tandem::cli::{golden_path, load_golden, load_script};
use undercooked::tandem::control::{Seat, SeatOrder};
use undercooked::tandem::course::generate;
use undercooked::tandem::events::{Outcome, Phase, TandemEvent};
use undercooked::tandem::porter::{Porter, play_pair};
use undercooked::tandem::recorder::TandemRecorder;
use undercooked::tandem::room::{OrderRecord, TandemRoom, TurnTicks};
use undercooked::tandem::route::Step;
use undercooked::tandem::script::{TandemCheck, TandemScript, check, play};
use undercooked::tandem::step::{
    REGRIP_TICKS, SLIP_DROP, WRECK_DAMAGE, drop_damage, impact_damage, scrape_damage,
};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scripts() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("goldens/tandem/scripts"))
        .expect("goldens/tandem/scripts")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".tandem.ron"))
        .collect();
    v.sort();
    v
}

fn cli(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_undercooked"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run the binary");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

fn record(tick: u32, seat: Seat, x: i32, y: i32, yld: i32) -> OrderRecord {
    OrderRecord { tick, seat, order: SeatOrder::new(x, y, yld) }
}

/// A full stick along the start heading of `seed`'s course, and one across it (view frame).
fn ahead_and_across(seed: u64) -> ((i32, i32), (i32, i32)) {
    match generate(seed).doorways[0].step {
        Step::East => ((1000, 0), (0, 1000)),
        Step::South => ((0, -1000), (1000, 0)),
        Step::North => ((0, 1000), (1000, 0)),
    }
}

/// The committed scripts, as they were authored (`author_the_tandem_scripts` writes them).
fn authored() -> Vec<TandemScript> {
    let delivery = play_pair(TandemRoom::new(2, TurnTicks::Live));
    assert_eq!(delivery.outcome(), Some(Outcome::Delivered));
    let mut wreck = Vec::new();
    let (_, (ax, ay)) = ahead_and_across(3);
    for turn in 0..24u32 {
        let sign = if turn % 2 == 0 { 1 } else { -1 };
        wreck.push(record(turn * 48, Seat::Fore, sign * ax, sign * ay, 0));
        wreck.push(record(turn * 48, Seat::Aft, sign * ax, sign * ay, 0));
    }
    let ((dx, dy), _) = ahead_and_across(4);
    let ((ox, oy), _) = ahead_and_across(5);
    vec![
        TandemScript::of_run("tandem_delivery", &delivery),
        TandemScript {
            name: "tandem_wreck".into(),
            seed: 3,
            turn_ticks: TurnTicks::Decision,
            ticks: 2400,
            orders: wreck,
        },
        TandemScript {
            name: "tandem_drop_regrip".into(),
            seed: 4,
            turn_ticks: TurnTicks::Live,
            ticks: 360,
            orders: vec![
                record(0, Seat::Fore, dx, dy, 0),
                record(0, Seat::Aft, -dx, -dy, 0),
                record(200, Seat::Fore, dx / 2, dy / 2, 0),
                record(200, Seat::Aft, dx / 2, dy / 2, 0),
                record(280, Seat::Aft, 0, 0, 1000),
            ],
        },
        TandemScript {
            name: "tandem_out_of_time".into(),
            seed: 5,
            turn_ticks: TurnTicks::Live,
            ticks: 2400,
            orders: vec![
                record(0, Seat::Fore, ox / 4, oy / 4, 0),
                record(0, Seat::Aft, ox / 4, oy / 4, 0),
            ],
        },
    ]
}

/// Writes the scripts (then `undercooked replay record goldens/tandem/scripts/*.tandem.ron`
/// writes their goldens). Run by hand: `cargo test --test tandem -- --ignored`.
#[test]
#[ignore]
fn author_the_tandem_scripts() {
    for s in authored() {
        let path = root().join(format!("goldens/tandem/scripts/{}.tandem.ron", s.name));
        std::fs::write(&path, s.to_ron()).expect("write a script");
    }
}

#[test]
fn the_committed_scripts_are_as_authored() {
    for s in authored() {
        let path = root().join(format!("goldens/tandem/scripts/{}.tandem.ron", s.name));
        assert_eq!(load_script(&path).expect("committed script"), s, "{}", s.name);
    }
}

#[test]
fn every_tandem_golden_matches_and_the_four_outcomes_are_covered() {
    let mut outcomes = Vec::new();
    for path in scripts() {
        let script = load_script(&path).expect("script");
        let golden =
            load_golden(&golden_path(&root().join("goldens"), &script.name)).expect("golden");
        match check(&script, &golden) {
            TandemCheck::Match { .. } => {}
            other => panic!("{}: {other:?}", path.display()),
        }
        outcomes.push((script.name.clone(), golden.outcome));
    }
    let find = |n: &str| outcomes.iter().find(|(name, _)| name == n).map(|(_, o)| *o);
    assert_eq!(find("tandem_delivery"), Some(Some(Outcome::Delivered)));
    assert_eq!(find("tandem_wreck"), Some(Some(Outcome::Wrecked)));
    assert_eq!(find("tandem_out_of_time"), Some(Some(Outcome::OutOfTime)));
    // The drop-and-regrip script stops mid-run, after the regrip.
    let drop =
        load_script(&root().join("goldens/tandem/scripts/tandem_drop_regrip.tandem.ron")).unwrap();
    let mut room = TandemRoom::new(drop.seed, drop.turn_ticks);
    let (mut dropped, mut regripped) = (None, None);
    let mut current = [SeatOrder::HOLD; 2];
    while room.tick < drop.ticks {
        for r in drop.orders.iter().filter(|r| r.tick == room.tick) {
            current[r.seat.index()] = r.order;
        }
        let t = room.tick;
        for e in room.step(current).expect("runs").to_vec() {
            match e {
                TandemEvent::Drop { .. } => dropped = Some(t),
                TandemEvent::Regrip => regripped = Some(t),
                _ => {}
            }
        }
    }
    let (d, r) = (dropped.expect("a drop"), regripped.expect("a regrip"));
    assert_eq!(r - d, REGRIP_TICKS + 1, "held for 48 ticks, re-attached on the next");
}

#[test]
fn the_cli_checks_records_and_runs_tandem_scripts() {
    let script = "goldens/tandem/scripts/tandem_drop_regrip.tandem.ron";
    let (code, text) = cli(&["replay", "check", script]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains(": ok,"), "{text}");
    // A golden with one hash changed: exit 1, and the first divergent tick named.
    let tmp = std::env::temp_dir().join(format!("uc-tandem-{}", std::process::id()));
    let gold = tmp.join("tandem");
    std::fs::create_dir_all(&gold).unwrap();
    let name = "tandem_drop_regrip.golden.json";
    let text = std::fs::read_to_string(root().join("goldens/tandem").join(name)).unwrap();
    let mut g: serde_json::Value = serde_json::from_str(&text).unwrap();
    g["hashes"][150] = "0000000000000000".into();
    std::fs::write(gold.join(name), g.to_string()).unwrap();
    let dir = tmp.to_string_lossy().into_owned();
    let (code, out) = cli(&["replay", "check", "--goldens", &dir, script]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("MISMATCH at tick 150"), "{out}");
    // Missing: exit 2.
    std::fs::remove_file(gold.join(name)).unwrap();
    let (code, out) = cli(&["replay", "check", "--goldens", &dir, script]);
    assert_eq!(code, 2, "{out}");
    // Record into the temporary folder gives back the committed golden, byte for byte.
    let (code, out) = cli(&["replay", "record", "--goldens", &dir, script]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(std::fs::read_to_string(gold.join(name)).unwrap(), text);
    let (code, out) = cli(&["replay", "run", script, "--json"]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(v["mode"], "tandem");
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn a_run_is_deterministic() {
    let s = load_script(&root().join("goldens/tandem/scripts/tandem_wreck.tandem.ron")).unwrap();
    let (a, b) = (play(&s, 600, false), play(&s, 600, false));
    assert_eq!(a.hashes, b.hashes);
    assert_eq!(a.room.hash, b.room.hash);
}

#[test]
fn the_damage_formulas_are_the_seeds() {
    assert_eq!(impact_damage(250), 0);
    assert_eq!(impact_damage(1250), 40);
    assert_eq!(impact_damage(100_000), 200, "clamped at 200");
    assert_eq!(scrape_damage(51), 1, "at least 1 a tick");
    assert_eq!(scrape_damage(1600), 2);
    assert_eq!(scrape_damage(100_000), 4, "at most 4 a tick");
    assert_eq!(drop_damage(0), 60);
    assert_eq!(drop_damage(145_833), 100, "+ up to 40 for speed");
    assert_eq!(drop_damage(1_000_000), 100);
}

#[test]
fn opposed_cogs_drop_the_couch_at_slip_240_and_regrip_48_ticks_later() {
    let mut room = TandemRoom::new(4, TurnTicks::Live);
    let ((dx, dy), _) = ahead_and_across(4);
    let orders = [SeatOrder::new(dx, dy, 0), SeatOrder::new(-dx, -dy, 0)];
    let mut drop_tick = None;
    while drop_tick.is_none() {
        let before = room.slip;
        let t = room.tick;
        let events = room.step(orders).expect("runs").to_vec();
        if let Some(TandemEvent::Drop { damage, .. }) =
            events.iter().find(|e| matches!(e, TandemEvent::Drop { .. }))
        {
            assert!(room.slip.iter().any(|&s| s >= SLIP_DROP));
            assert!(before.iter().all(|&s| s < SLIP_DROP));
            assert_eq!(room.damage, *damage as i32);
            assert!((60..=100).contains(damage));
            assert_eq!(room.phase, Phase::Regrip);
            assert_eq!((room.motion.vx, room.motion.vy, room.motion.spin), (0, 0, 0));
            drop_tick = Some(t);
        }
        assert!(room.tick < 1000, "opposed full pushes drop the couch");
    }
    let pose = (room.motion.x, room.motion.y, room.motion.angle);
    for _ in 0..REGRIP_TICKS {
        let events = room.step(orders).unwrap().to_vec();
        assert!(!events.contains(&TandemEvent::Regrip));
        assert_eq!(room.forces, [(0, 0); 2], "no forces while held");
        assert_eq!((room.motion.x, room.motion.y, room.motion.angle), pose, "nothing moves");
    }
    let events = room.step(orders).unwrap().to_vec();
    assert!(events.contains(&TandemEvent::Regrip));
    assert_eq!(room.phase, Phase::Carrying);
    assert!(room.slip.iter().all(|&s| s <= 2), "slip reset at the regrip");
}

#[test]
fn the_end_checks_run_in_the_seeds_order() {
    // Delivered beats wrecked in the same tick: the couch in the goal pad with damage at 2000.
    let mut room = TandemRoom::new(6, TurnTicks::Live);
    let pad = room.course.goal_pad;
    room.motion.x = (pad.x0 + pad.x1) / 2;
    room.motion.y = (pad.y0 + pad.y1) / 2;
    room.motion.angle = 0;
    room.damage = 2 * WRECK_DAMAGE;
    room.step([SeatOrder::HOLD; 2]).unwrap();
    assert_eq!(room.outcome(), Some(Outcome::Delivered));
    assert_eq!(room.score().condition, 0);
    assert!(room.score().score >= 300, "any delivery beats every non-delivery");
    // Wrecked beats out of time on the last tick.
    let mut room = TandemRoom::new(6, TurnTicks::Live);
    room.tick = 2399;
    room.damage = WRECK_DAMAGE;
    room.step([SeatOrder::HOLD; 2]).unwrap();
    assert_eq!(room.outcome(), Some(Outcome::Wrecked));
    assert_eq!(room.score().score, 0, "a wrecked couch scores nothing");
    // The invariant guard beats out of time: a body thrown outside the world.
    let mut room = TandemRoom::new(6, TurnTicks::Live);
    room.tick = 2399;
    room.motion.x = -5_000_000;
    room.step([SeatOrder::HOLD; 2]).unwrap();
    assert_eq!(room.outcome(), Some(Outcome::SimFault));
    // Out of time last, at 2400 ticks; then the room refuses more ticks.
    let mut room = TandemRoom::new(6, TurnTicks::Live);
    room.tick = 2399;
    room.step([SeatOrder::HOLD; 2]).unwrap();
    assert_eq!(room.outcome(), Some(Outcome::OutOfTime));
    assert!(room.step([SeatOrder::HOLD; 2]).is_err());
}

#[test]
fn orders_install_only_on_turn_boundaries() {
    let mut room = TandemRoom::new(2, TurnTicks::Decision);
    room.step([SeatOrder::new(500, 0, 0); 2]).unwrap();
    assert_eq!(room.active[0], SeatOrder::new(500, 0, 0));
    for _ in 1..48 {
        room.step([SeatOrder::new(-500, 0, 0); 2]).unwrap();
        assert_eq!(room.active[0], SeatOrder::new(500, 0, 0), "collected, not installed");
    }
    room.step([SeatOrder::new(-500, 0, 0); 2]).unwrap();
    assert_eq!(room.active[0], SeatOrder::new(-500, 0, 0), "installed at tick 48");
    assert_eq!(room.order_log.len(), 4);
}

#[test]
fn a_bad_script_is_refused_by_name() {
    let bad = "(name: \"x\", seed: 1, turn_ticks: Decision, ticks: 100, orders: [(tick: 5, seat: Fore, order: (push_x: 0, push_y: 0, yield_permille: 0))])";
    let e = TandemScript::parse(bad).unwrap_err().to_string();
    assert!(e.contains("not on a turn boundary"), "{e}");
    let bad = "(name: \"x\", seed: 1, turn_ticks: Live, ticks: 100, orders: [(tick: 5, seat: Middle, order: (push_x: 0, push_y: 0, yield_permille: 0))])";
    assert!(TandemScript::parse(bad).is_err());
    let bad = "(name: \"x\", seed: 1, turn_ticks: Live, ticks: 9000, orders: [])";
    assert!(TandemScript::parse(bad).unwrap_err().to_string().contains("ticks"));
    assert!(Path::new(&root().join("docs/TANDEM.md")).is_file(), "the rules are written down");
}

#[test]
fn a_porter_pair_delivers_on_most_seeds_at_both_turn_lengths() {
    for turn in [TurnTicks::Live, TurnTicks::Decision] {
        let delivered = (1..=20u64)
            .filter(|&s| play_pair(TandemRoom::new(s, turn)).outcome() == Some(Outcome::Delivered))
            .count();
        assert!(delivered > 10, "delivered on {delivered} of seeds 1..20 at {turn:?} turns");
    }
    // Seed 8's turn cell with a pillar beside its exit door (docs/TANDEM.md, "The porter").
    let seed8 = play_pair(TandemRoom::new(8, TurnTicks::Live));
    assert_eq!(seed8.outcome(), Some(Outcome::Delivered), "seed 8 at live turns");
    assert_eq!(seed8.stats.drops, 0);
}

/// The text of a source file without its comments and its inline test module.
fn code_without_tests(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("readable source");
    let text = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
    text.lines().map(|l| l.find("//").map_or(l, |i| &l[..i])).collect::<Vec<_>>().join("\n")
}

#[test]
fn the_rules_are_apart_from_the_kitchen_and_free_of_floats() {
    let dir = root().join("src/tandem");
    // The files that read the clock to report timings (the bench, bot prove).
    let measuring = ["bench.rs", "prove.rs"];
    for entry in std::fs::read_dir(&dir).expect("src/tandem") {
        let path = entry.expect("entry").path();
        let code = code_without_tests(&path);
        assert!(!code.contains("crate::sim"), "{} names the kitchen's rules", path.display());
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if measuring.contains(&name.as_str()) {
            continue;
        }
        for bad in [
            "f32",
            "f64",
            "Instant",
            "SystemTime",
            "thread_rng",
            ".sqrt(",
            ".atan2(",
            ".sin(",
            ".cos(",
        ] {
            assert!(!code.contains(bad), "{}: `{bad}` in the rules", path.display());
        }
    }
    for entry in std::fs::read_dir(root().join("src/sim")).expect("src/sim") {
        let path = entry.expect("entry").path();
        if path.is_file() {
            assert!(!code_without_tests(&path).contains("crate::tandem"), "{}", path.display());
        }
    }
}

/// A porter pair's run recorded the way the window records one (`TandemRecorder::step` each
/// tick, `finish` at the end), written as a bundle file.
fn recorded_bundle(seed: u64, turn: TurnTicks, dir: &Path) -> (TandemBundle, PathBuf) {
    let mut room = TandemRoom::new(seed, turn);
    let seats = vec![(0, "porter".to_string()), (1, "porter".to_string())];
    let mut rec = TandemRecorder::start(&room, "test", 1, seats);
    let mut bots = Seat::BOTH.map(|s| Porter::new(s, &room.course, room.turn_ticks));
    while room.outcome().is_none() {
        let orders = [bots[0].order(&room), bots[1].order(&room)];
        rec.step(&mut room, orders).expect("the run has not ended");
    }
    let bundle = rec.finish(&room, "ended");
    let path = bundle.write_to(dir).expect("the bundle is written");
    (bundle, path)
}

#[test]
fn a_recorded_run_writes_a_bundle_that_replays_and_tampering_is_named() {
    let dir = std::env::temp_dir().join(format!("uc-tandem-bundle-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (bundle, path) = recorded_bundle(2, TurnTicks::Live, &dir);
    assert!(path.ends_with("test-1.tandem-bundle.ron"), "{}", path.display());
    assert_eq!(bundle.outcome, Some(Outcome::Delivered));
    assert_eq!(bundle.reason, "delivered");
    assert_eq!(bundle.hashes.first().map(|h| h.0), Some(0));
    assert_eq!(bundle.hashes.last().map(|h| h.0), Some(bundle.ticks));
    assert!(bundle.hashes.len() as u32 >= bundle.ticks / TANDEM_BUNDLE_EVERY, "on the cadence");
    let text = std::fs::read_to_string(&path).unwrap();
    let back = TandemBundle::parse(&text).expect("it parses back");
    assert_eq!(back, bundle);
    assert!(check_bundle(&back).expect("valid").matches());
    let (code, out) = cli(&["replay", "check", &path.to_string_lossy()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("outcome and score reproduced"), "{out}");
    // A second run gets the next free number; decision turns record and replay too.
    let (b48, p48) = recorded_bundle(2, TurnTicks::Decision, &dir);
    assert!(p48.ends_with("test-2.tandem-bundle.ron"), "{}", p48.display());
    assert!(check_bundle(&b48).expect("valid").matches());

    // One byte of one order changed (its yield 0 → 1): the first recorded tick after it.
    let mid = bundle.orders[bundle.orders.len() / 2];
    let (t, s, x, y, yld) = mid;
    assert_eq!(yld, 0, "the porter never yields");
    let was = format!("({t},{s},{x},{y},0)");
    assert_eq!(text.matches(&was).count(), 1, "{was} once");
    let tampered = text.replace(&was, &format!("({t},{s},{x},{y},1)"));
    assert_eq!(tampered.len(), text.len());
    let bad = dir.join("tampered.tandem-bundle.ron");
    std::fs::write(&bad, &tampered).unwrap();
    let first = (t + 1).div_ceil(TANDEM_BUNDLE_EVERY) * TANDEM_BUNDLE_EVERY;
    let first = first.min(bundle.ticks);
    match check_bundle(&TandemBundle::parse(&tampered).unwrap()).unwrap().chain {
        TandemCheck::Mismatch { tick, fields, .. } => {
            assert_eq!(tick, first, "the first recorded tick after the order at {t}");
            assert!(!fields.is_empty(), "the fields that differ are named");
        }
        other => panic!("a tampered order replayed as {other:?}"),
    }
    let (code, out) = cli(&["replay", "check", &bad.to_string_lossy()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("MISMATCH at tick {first}")), "{out}");

    // Truncated: a named parse error, exit 2.
    let cut = text[..text.len() / 2].trim_end_matches(')');
    assert!(matches!(TandemBundle::parse(cut), Err(BundleError::Truncated { .. })));
    std::fs::write(&bad, cut).unwrap();
    let (code, out) = cli(&["replay", "check", &bad.to_string_lossy()]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("ends early"), "{out}");

    // Other tampering is named before anything is re-played.
    let digest = bundle.course_digest.clone();
    let cases: Vec<(TandemBundle, fn(&BundleError) -> bool)> = vec![
        (TandemBundle { tandem_bundle_version: 9, ..bundle.clone() }, |e| {
            matches!(e, BundleError::Version { found: 9 })
        }),
        (TandemBundle { course_digest: "0".repeat(16), ..bundle.clone() }, |e| {
            matches!(e, BundleError::CourseDigest { .. })
        }),
        (TandemBundle { seed: bundle.seed + 1, ..bundle.clone() }, |e| {
            matches!(e, BundleError::CourseSeed { .. })
        }),
        (TandemBundle { ticks: 9_000, ..bundle.clone() }, |e| matches!(e, BundleError::Ticks(_))),
        (TandemBundle { final_hash: digest, ..bundle.clone() }, |e| {
            matches!(e, BundleError::Chain(_))
        }),
        (TandemBundle { orders: vec![(0, 7, 0, 0, 0)], ..bundle.clone() }, |e| {
            matches!(e, BundleError::Seat { index: 0, seat: 7 })
        }),
        (TandemBundle { orders: vec![(0, 0, 1000, 1000, 0)], ..bundle.clone() }, |e| {
            matches!(e, BundleError::Orders(_))
        }),
    ];
    for (b, named) in cases {
        let e = check_bundle(&b).expect_err("refused");
        assert!(named(&e), "{e}");
    }
    assert!(matches!(TandemBundle::parse("(nonsense)"), Err(BundleError::Parse(_))));
    let _ = std::fs::remove_dir_all(&dir);
}
