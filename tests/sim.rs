//! The kernel end to end: the no-float/no-clock scan of `src/sim/`, zero ambiguities in
//! `FixedUpdate`, the Bevy schedule equal to `step_room` room by room, and seeded random walks
//! (a maze and every campaign level) checked for containment, overlap, displacement and items
//! after every tick.
//!
//! One test binary on purpose: each integration binary links Bevy, and link time dominates.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bevy::ecs::schedule::{LogLevel, ScheduleBuildSettings};
use bevy::prelude::*;
use undercooked::bot::random::RandomCooks;
use undercooked::clock::headless_app;
use undercooked::level::sketch::sketch_level;
use undercooked::level::{load_campaign, load_recipes_file};
use undercooked::sim::cook::CookState;
use undercooked::sim::events::SimEvent;
use undercooked::sim::hazards::{CART_RADIUS, cart_pos};
use undercooked::sim::item::{ItemKind, Place};
use undercooked::sim::kinds::{Form, Ingredient, Tile};
use undercooked::sim::kitchen::Level;
use undercooked::sim::movement::{Axis, sweep_axis};
use undercooked::sim::open::SeatSpec;
use undercooked::sim::recipe_book::RecipeBook;
use undercooked::sim::room::Room;
use undercooked::sim::station::StationState;
use undercooked::sim::step_room;
use undercooked::sim::units::Cell;
use undercooked::sim::units::{
    DASH_SPEED, MAX_SPEED, PUSH_ITERATIONS, PUSH_SLOP, RADIUS, cell_of, length,
};
use undercooked::sim::v2::V2;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn book() -> Arc<RecipeBook> {
    Arc::new(
        load_recipes_file(&root().join("assets/recipes.ron")).expect("the shipped recipe book"),
    )
}

fn campaign() -> Vec<Level> {
    load_campaign(&root().join("levels"), &book()).expect("the shipped campaign loads")
}

// ---------------------------------------------------------------------------------------------
// The scan: no floats, no clock, no OS randomness under src/sim/.
// ---------------------------------------------------------------------------------------------

/// Substrings that have no business in a deterministic kernel wherever they appear.
const BANNED_TEXT: [&str; 4] = ["std::time", "thread_rng", "getrandom", "rand::"];
/// Identifiers that are banned as whole tokens (so `Instantly` or `SystemTimeout` pass).
const BANNED_TOKENS: [&str; 2] = ["Instant", "SystemTime"];

/// Is this token a float type, alone (`f64`) or as a literal suffix (`1.0f32` splits at the dot
/// into `1` and `0f32`; `2f64`)? A hex literal such as `0x1f64` is an integer and passes.
fn is_float_token(token: &str) -> bool {
    ["f32", "f64"].iter().any(|f| {
        token
            .strip_suffix(f)
            .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit() || c == '_'))
    })
}

/// The banned words on one source line, ignoring whole-line `//` comments (docs may say what
/// the kernel does not use).
fn banned_on_line(line: &str) -> Vec<String> {
    if line.trim_start().starts_with("//") {
        return Vec::new();
    }
    let mut found: Vec<String> =
        BANNED_TEXT.iter().filter(|b| line.contains(*b)).map(|b| b.to_string()).collect();
    for token in line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if is_float_token(token) || BANNED_TOKENS.contains(&token) {
            found.push(token.to_string());
        }
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_scanner_catches_what_it_must_and_only_that() {
    assert_eq!(banned_on_line("let x: f64 = 0.5;"), ["f64"]);
    assert_eq!(banned_on_line("let x = 1.0f32;"), ["0f32"]);
    assert_eq!(banned_on_line("let t = std::time::Instant::now();"), ["std::time", "Instant"]);
    assert_eq!(banned_on_line("let r = rand::thread_rng();"), ["thread_rng", "rand::"]);
    assert_eq!(banned_on_line("getrandom::fill(&mut b)"), ["getrandom"]);
    assert_eq!(banned_on_line("use std::time::SystemTime;"), ["std::time", "SystemTime"]);
    assert!(banned_on_line("    // f64 is banned here, std::time too").is_empty());
    assert!(banned_on_line("/// Instant feedback").is_empty());
    assert!(banned_on_line("const K: u64 = 0x1f64_9E37;").is_empty());
    // A trailing comment is code-line text and is scanned; look-alike identifiers pass.
    assert_eq!(banned_on_line("let instantly = self64; // Instant"), ["Instant"]);
}

#[test]
fn the_kernel_has_no_floats_no_clock_and_no_os_randomness() {
    let mut files = Vec::new();
    rust_files(&root().join("src/sim"), &mut files);
    files.sort();
    assert!(files.len() >= 10, "src/sim/ should hold the kernel, found {files:?}");
    let mut hits = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable source");
        for (n, line) in text.lines().enumerate() {
            for word in banned_on_line(line) {
                let rel = file.strip_prefix(root()).unwrap_or(file).display().to_string();
                hits.push(format!("{rel}:{}: `{word}` in: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        hits.is_empty(),
        "src/sim/ must stay integer, clock-free and seeded:\n{}",
        hits.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// The schedule: zero ambiguities in FixedUpdate.
// ---------------------------------------------------------------------------------------------

/// Turn ambiguity detection to Error on FixedUpdate and build it; the error names the systems.
/// The conflict list is read too, so a schedule that was already built cannot slip through.
fn fixed_update_ambiguities(app: &mut App) -> Result<(), String> {
    app.edit_schedule(FixedUpdate, |schedule| {
        let mut settings: ScheduleBuildSettings = schedule.get_build_settings();
        settings.ambiguity_detection = LogLevel::Error;
        schedule.set_build_settings(settings);
    });
    app.world_mut().schedule_scope(FixedUpdate, |world, schedule| {
        schedule.initialize(world).map_err(|e| e.to_string(schedule.graph(), world))?;
        let conflicts = schedule.graph().conflicting_systems();
        if conflicts.is_empty() {
            Ok(())
        } else {
            let names: Vec<String> = conflicts
                .to_string(schedule.graph(), world.components())
                .map(|(a, b, on)| format!("{a} / {b} on {on:?}"))
                .collect();
            Err(names.join("\n"))
        }
    })
}

#[test]
fn fixed_update_has_zero_system_order_ambiguities() {
    let mut app = headless_app();
    if let Err(e) = fixed_update_ambiguities(&mut app) {
        panic!("FixedUpdate has unordered systems with conflicting access:\n{e}");
    }
    // The strict schedule still runs, one tick per update.
    let level = Arc::new(maze());
    let e = app.world_mut().spawn(Room::new(level, book(), 1, &SeatSpec::numbered(4))).id();
    for t in 1..=3 {
        app.update();
        assert_eq!(app.world().get::<Room>(e).expect("room").tick, t);
    }
}

/// Another system writing rooms, deliberately left out of the chain.
fn rogue_room_writer(mut rooms: Query<&mut Room>) {
    for mut room in &mut rooms {
        room.plates_clean += 0;
    }
}

#[test]
fn the_ambiguity_check_catches_an_unordered_system() {
    let mut app = headless_app();
    app.add_systems(FixedUpdate, rogue_room_writer);
    let err =
        fixed_update_ambiguities(&mut app).expect_err("an unordered Room writer must be caught");
    // System names need Bevy's `debug` feature, which the server set leaves out; the sets the
    // rogue system collides in are named either way.
    assert!(err.contains("conflicting data access"), "{err}");
    assert!(err.contains("ResolveInput") && err.contains("Advance"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// The maze the random walks run in.
// ---------------------------------------------------------------------------------------------

/// Pillars and one-tile doorways, a void tile (3,4), a counter run (5..=7,3) and two single
/// counters, two shelves, a plate rack, two trashes (one beside a shelf, so full hands reach
/// it) and a serve window at the end of a one-tile
/// alcove (the doorway deadlock candidate), four spawns in the corners. Every floor cell is
/// connected.
const MAZE: [&str; 11] = [
    "###############",
    "#1....#....oT2#",
    "#.#.#.#.#.#...#",
    "#....---....#.#",
    "#.#_#...#.#..R#",
    "#.....###.....#",
    "###.#.....#.###",
    "#...T.#.#.....#",
    "#.#...-.-.#.#.#",
    "#3....#W#...t4#",
    "###############",
];

fn maze() -> Level {
    sketch_level("maze", &MAZE)
}

// ---------------------------------------------------------------------------------------------
// Invariants checked after every tick.
// ---------------------------------------------------------------------------------------------

/// The cells a body covers: `[pos − R, pos + R)` half-open on both axes.
fn covered_cells(pos: V2) -> impl Iterator<Item = Cell> {
    let xs = cell_of(pos.x - RADIUS)..=cell_of(pos.x + RADIUS - 1);
    let ys = cell_of(pos.y - RADIUS)..=cell_of(pos.y + RADIUS - 1);
    ys.flat_map(move |y| xs.clone().map(move |x| (x, y)))
}

fn blocked_cells(level: &Level, pos: V2) -> Vec<Cell> {
    covered_cells(pos).filter(|&c| level.tile(c).blocks_body()).collect()
}

fn overlap(a: V2, b: V2) -> (i32, i32) {
    (2 * RADIUS - (a.x - b.x).abs(), 2 * RADIUS - (a.y - b.y).abs())
}

fn overlapping(a: V2, b: V2) -> bool {
    let (ox, oy) = overlap(a, b);
    ox > PUSH_SLOP && oy > PUSH_SLOP
}

/// Can terrain let this pair gain separation on `axis` (a 1 µtile probe of each body, the
/// way the kernel tells a queue from a real deadlock)?
fn can_separate(level: &Level, a: V2, b: V2, axis: Axis) -> bool {
    let (pa, pb) = match axis {
        Axis::X => (a.x, b.x),
        Axis::Y => (a.y, b.y),
    };
    let sign = if pa <= pb { -1 } else { 1 };
    sweep_axis(level, a, axis, sign) != 0 || sweep_axis(level, b, axis, -sign) != 0
}

/// How deep a pair may stay overlapped after a tick. Two soft-push passes do not fully drain a
/// chain that a cook keeps driving (seed 48 of the maze: seat 3 walks up a one-tile corridor
/// into seats 0 and 2 for 40+ ticks and they stay 23 343 µtiles deep), so a residue is allowed
/// for as long as the drive lasts; but it must stay below one walking tick of travel, or bodies
/// would be sinking into each other tick after tick. A dash into a pair pinned against a third
/// cook used to leave up to a dash's tick of travel and more (the pinned pocket, §6.5); the
/// pinned-pocket rule reverts the driver of any such pair deeper than `MAX_SPEED`.
const MAX_RESIDUAL_OVERLAP: i32 = MAX_SPEED;

/// What the walk did, so a test can prove it exercised the rules it claims to check.
#[derive(Debug, Default)]
struct Tally {
    ticks: u32,
    picked: u32,
    handed_off: u32,
    dropped: u32,
    trashed: u32,
    trashed_empty: u32,
    denied: u32,
    rejected: u32,
    /// Ticks on which some pair ended overlapped beyond slop, and the longest such run.
    overlap_ticks: u32,
    longest_overlap: u32,
    /// The deepest such overlap (on its shallower axis).
    max_overlap: i32,
    /// Pairs left overlapped that terrain kept from separating (the deadlock rule's case).
    deadlocked_ticks: u32,
    /// Largest per-axis step of any cook in a tick, and the largest push part of one.
    max_step: i32,
    max_push: i32,
    max_items: usize,
    /// Stage 6's facts.
    knocked: u32,
    rescued: u32,
    spilled: u32,
    ignited: u32,
    spread: u32,
    extinguished: u32,
    shift_warnings: u32,
    shifted: u32,
    wasted: u32,
}

/// The per-tick checker: remembers which cooks started inside terrain and how long each pair
/// has stayed overlapped.
struct Watch {
    /// Cooks whose spawn put their body over a blocking cell; exempt until they first clear it.
    exempt: Vec<bool>,
    streak: BTreeMap<(usize, usize), u32>,
    tally: Tally,
}

impl Watch {
    fn new(room: &Room) -> Watch {
        let exempt =
            room.cooks.iter().map(|c| !blocked_cells(&room.level, c.pos).is_empty()).collect();
        Watch { exempt, streak: BTreeMap::new(), tally: Tally::default() }
    }

    /// Check the room after one tick; `starts` are the cooks' positions before it.
    fn check(&mut self, room: &Room, starts: &[V2]) {
        let tick = room.tick;
        let level = &room.level;
        let t = &mut self.tally;
        t.ticks += 1;
        for e in &room.events {
            match e {
                SimEvent::Picked { .. } => t.picked += 1,
                SimEvent::HandedOff { .. } => t.handed_off += 1,
                SimEvent::Dropped { .. } => t.dropped += 1,
                SimEvent::Trashed { .. } => t.trashed += 1,
                SimEvent::TrashedAlreadyEmpty { .. } => t.trashed_empty += 1,
                SimEvent::Denied { .. } => t.denied += 1,
                SimEvent::InputRejected { .. } => t.rejected += 1,
                SimEvent::Knocked { .. } => t.knocked += 1,
                SimEvent::Rescued { .. } => t.rescued += 1,
                SimEvent::Spilled { .. } => t.spilled += 1,
                SimEvent::Ignited { .. } => t.ignited += 1,
                SimEvent::Spread { .. } => t.spread += 1,
                SimEvent::Extinguished { .. } => t.extinguished += 1,
                SimEvent::ShiftWarning { .. } => t.shift_warnings += 1,
                SimEvent::Shifted { .. } => t.shifted += 1,
                SimEvent::Wasted { .. } => t.wasted += 1,
                // The kitchen's facts (work, serves, orders) are the pipeline tests' business.
                _ => {}
            }
        }

        // Containment.
        for (k, cook) in room.cooks.iter().enumerate() {
            let blocked = blocked_cells(level, cook.pos);
            if blocked.is_empty() {
                self.exempt[k] = false;
            } else {
                assert!(
                    self.exempt[k],
                    "{}: tick {tick}: seat {} at {:?} overlaps blocking cells {blocked:?}",
                    level.id, cook.seat, cook.pos
                );
            }
        }

        // Bounded displacement. A cook's own motion is its velocity (the sweep writes what it
        // really moved back into `vel`), capped by the speed ceiling; the rest is push. One
        // push call moves a cook at most the pair's overlap on one axis (≤ 2R), and a cook is in
        // at most (n − 1) pairs per pass, PUSH_ITERATIONS passes per tick.
        let n = room.cooks.len() as i32;
        let push_bound = PUSH_ITERATIONS as i32 * (n - 1).max(0) * 2 * RADIUS;
        let pre_push: Vec<V2> = room
            .cooks
            .iter()
            .zip(starts)
            .map(|(c, s)| V2::new(s.x + c.vel.x, s.y + c.vel.y))
            .collect();
        let any_pre_overlap = (0..pre_push.len())
            .any(|i| (i + 1..pre_push.len()).any(|j| overlapping(pre_push[i], pre_push[j])));
        // Stage 6 moves cooks off their velocity on purpose: a cart's shove (the cook is then
        // stunned, or was already) and the set-down after a floor vanished (RESCUED).
        let hazard_moved = |seat: u8| {
            room.events.iter().any(|e| {
                matches!(e, SimEvent::Knocked { seat: s, .. } | SimEvent::Rescued { seat: s, .. } if *s == seat)
            })
        };
        for (k, cook) in room.cooks.iter().enumerate() {
            if hazard_moved(cook.seat) || cook.stun > 0 || cook.state == CookState::Stunned {
                continue;
            }
            // Spills only ever lower the ceiling, and a cook entering one slows over a few
            // ticks, so the bound is the floor's ceiling (the exact bound on a calm level).
            // A dash's burst ticks go at DASH_SPEED along the facing (its last tick walks).
            let top = if cook.dash > 0 { DASH_SPEED } else { MAX_SPEED };
            let v = cook.vel;
            // `clamp_move` keeps a stick whose floored length is 1000, so its true length is
            // below 1001 and the speed may exceed the ceiling by under 0.1% (plus rounding).
            let len_cap = top as i64 + top as i64 / 1000 + 2;
            assert!(
                v.x.abs() <= top && v.y.abs() <= top && length(v.x as i64, v.y as i64) <= len_cap,
                "{}: tick {tick}: seat {} velocity {v:?} exceeds the ceiling {top}",
                level.id,
                cook.seat
            );
            let step = V2::new(cook.pos.x - starts[k].x, cook.pos.y - starts[k].y);
            let push = V2::new(step.x - v.x, step.y - v.y);
            assert!(
                push.x.abs() <= push_bound && push.y.abs() <= push_bound,
                "{}: tick {tick}: seat {} was pushed {push:?} (bound {push_bound})",
                level.id,
                cook.seat
            );
            if !any_pre_overlap {
                assert_eq!(
                    push,
                    V2::ZERO,
                    "{}: tick {tick}: seat {} moved off its velocity with nobody to push it",
                    level.id,
                    cook.seat
                );
            }
            t.max_step = t.max_step.max(step.x.abs()).max(step.y.abs());
            t.max_push = t.max_push.max(push.x.abs()).max(push.y.abs());
        }

        // Overlap beyond slop: tolerated only briefly (a draining jam or a reverted deadlock).
        let mut any = false;
        for i in 0..room.cooks.len() {
            for j in i + 1..room.cooks.len() {
                let (a, b) = (room.cooks[i].pos, room.cooks[j].pos);
                let s = self.streak.entry((i, j)).or_insert(0);
                if overlapping(a, b) {
                    any = true;
                    *s += 1;
                    if !can_separate(level, a, b, Axis::X) && !can_separate(level, a, b, Axis::Y) {
                        t.deadlocked_ticks += 1;
                    }
                    t.longest_overlap = t.longest_overlap.max(*s);
                    let (ox, oy) = overlap(a, b);
                    t.max_overlap = t.max_overlap.max(ox.min(oy));
                    assert!(
                        ox.min(oy) <= MAX_RESIDUAL_OVERLAP,
                        "{}: tick {tick}: seats {} and {} overlap {:?} (for {s} ticks) at {a:?} / {b:?}",
                        level.id,
                        room.cooks[i].seat,
                        room.cooks[j].seat,
                        overlap(a, b)
                    );
                } else {
                    *s = 0;
                }
            }
        }
        t.overlap_ticks += u32::from(any);

        // Carts: no cook overlaps one after the tick.
        for (k, cart) in room.hazards.carts.iter().enumerate() {
            let at = cart_pos(&level.hazards.carts[k].path, *cart);
            for cook in &room.cooks {
                let reach = RADIUS + CART_RADIUS;
                let (ox, oy) =
                    (reach - (cook.pos.x - at.x).abs(), reach - (cook.pos.y - at.y).abs());
                assert!(
                    ox <= PUSH_SLOP || oy <= PUSH_SLOP,
                    "{}: tick {tick}: seat {} at {:?} overlaps cart {k} at {at:?}",
                    level.id,
                    cook.seat,
                    cook.pos
                );
            }
        }

        check_items(room);
        t.max_items = t.max_items.max(room.items.len());
    }
}

/// Item conservation: the count matches the ledger, every item is in exactly one valid place,
/// hands and items point at each other, a hand holds one item, a plain counter holds one.
fn check_items(room: &Room) {
    let tick = room.tick;
    let id = &room.level.id;
    let ledger = room.counters.created as usize - room.counters.destroyed as usize;
    assert_eq!(room.items.len(), ledger, "{id}: tick {tick}: items vs created − destroyed");
    for pair in room.items.windows(2) {
        assert!(pair[0].id < pair[1].id, "{id}: tick {tick}: items out of id order");
    }
    let mut in_hand: BTreeMap<u8, u32> = BTreeMap::new();
    let mut on_station: BTreeMap<u16, u32> = BTreeMap::new();
    for item in &room.items {
        assert!(
            item.id.0 < room.next_item,
            "{id}: tick {tick}: item #{} from the future",
            item.id.0
        );
        match item.place {
            Place::Hand(seat) => {
                *in_hand.entry(seat).or_default() += 1;
                let cook = room.cooks.iter().find(|c| c.seat == seat);
                assert!(
                    cook.is_some_and(|c| c.held == Some(item.id)),
                    "{id}: tick {tick}: item #{} is in seat {seat}'s hand, which does not hold it",
                    item.id.0
                );
            }
            Place::Station(s) => {
                assert!((s as usize) < room.stations.len(), "{id}: tick {tick}: no station {s}");
                *on_station.entry(s).or_default() += 1;
            }
            Place::Floor(at) => assert_eq!(
                room.tile(at.cell()),
                Tile::Floor,
                "{id}: tick {tick}: item #{} lies on the floor of a cell that is not floor",
                item.id.0
            ),
            Place::Air(f) => assert_ne!(
                room.tile(f.pos.cell()),
                Tile::Wall,
                "{id}: tick {tick}: item #{} flies inside a wall",
                item.id.0
            ),
        }
    }
    for (seat, n) in &in_hand {
        assert_eq!(*n, 1, "{id}: tick {tick}: seat {seat} holds {n} items");
    }
    for cook in &room.cooks {
        if let Some(held) = cook.held {
            let item = room.item(held);
            assert!(
                item.is_some_and(|i| i.place == Place::Hand(cook.seat)),
                "{id}: tick {tick}: seat {} holds #{} which is not in its hand",
                cook.seat,
                held.0
            );
        }
    }
    for (s, n) in &on_station {
        let kind = room.stations[*s as usize].kind;
        if kind == undercooked::sim::kinds::StationKind::Counter {
            assert_eq!(*n, 1, "{id}: tick {tick}: counter {s} holds {n} items");
        }
    }
    let plates =
        room.items.iter().filter(|i| matches!(i.kind, ItemKind::Plate { .. })).count() as u32;
    assert!(
        room.plates_clean + room.plates_dirty + plates <= room.level.props.plates,
        "{id}: tick {tick}: more plates than the kitchen owns"
    );
}

/// A seeded four-cook walk checked after every tick; returns the hash chain and the tally.
fn walk(level: Level, seed: u64, ticks: u32) -> (Vec<u64>, Tally) {
    let room = Room::new(Arc::new(level), book(), seed, &SeatSpec::numbered(4));
    walk_room(room, seed, ticks)
}

/// The same walk from a prepared room.
fn walk_room(mut room: Room, seed: u64, ticks: u32) -> (Vec<u64>, Tally) {
    let mut cooks = RandomCooks::new(seed, 4);
    let mut watch = Watch::new(&room);
    let mut chain = vec![room.hash];
    for _ in 0..ticks {
        let starts: Vec<V2> = room.cooks.iter().map(|c| c.pos).collect();
        cooks.push_frames(&mut room);
        step_room(&mut room);
        watch.check(&room, &starts);
        chain.push(room.hash);
    }
    (chain, watch.tally)
}

#[test]
fn a_four_cook_random_walk_on_the_maze_keeps_every_invariant_for_2000_ticks() {
    // Seed 8 is one whose walk reaches a full-hand trash and hand-offs (most seeds reach some;
    // the cooks dash and throw too since the second button, which moved seed 3's walk off them).
    let (chain, tally) = walk(maze(), 8, 2000);
    println!("{tally:#?}");
    // The walk must really have exercised the hands and the pushes, or it proves nothing.
    assert_eq!(tally.ticks, 2000);
    assert!(tally.picked > 0 && tally.dropped > 0 && tally.denied > 0, "{tally:?}");
    assert!(tally.trashed > 0 && tally.handed_off > 0, "no trash or hand-off: {tally:?}");
    assert_eq!(tally.deadlocked_ticks, 0, "the maze has no terrain lock: {tally:?}");
    assert!(tally.max_push > 0, "no cook was ever pushed: {tally:?}");
    assert_eq!(tally.rejected, 0, "every frame names a seated cook");
    assert!(tally.max_step <= DASH_SPEED + PUSH_ITERATIONS as i32 * 3 * 2 * RADIUS);

    let (again, _) = walk(maze(), 8, 2000);
    assert_eq!(chain, again, "the same seed must give the same hash chain");
    let (other, _) = walk(maze(), 4, 2000);
    assert_eq!(other.len(), chain.len());
    let first_diff = chain.iter().zip(&other).position(|(a, b)| a != b);
    assert_eq!(first_diff, Some(0), "two seeds differ from the first link (the rng is hashed)");
    assert_ne!(chain.last(), other.last());
}

/// The every-hazard kitchen with a patty one tick from burning on the first stove, so fire
/// is certain early in the run (random cooks rarely leave a dish long enough by themselves).
fn every_hazard_room(seed: u64) -> Room {
    let path = root().join("tests/fixtures/levels/every_hazard.ron");
    let level = undercooked::level::parse_level(
        &std::fs::read(&path).expect("fixture"),
        "every_hazard.ron",
        &book(),
    )
    .expect("the every-hazard fixture is valid");
    let mut room = Room::new(Arc::new(level), book(), seed, &SeatSpec::numbered(4));
    let stove = room
        .stations
        .iter()
        .position(|s| matches!(s.kind, undercooked::sim::kinds::StationKind::Stove(_)))
        .expect("a stove");
    let id = room.preplace(stove, ItemKind::Food(Ingredient::Patty, Form::Cooked));
    let i = room.item_index(id).expect("placed");
    room.items[i].mark = None;
    room.items[i].heat = 1;
    room.stations[stove].state = StationState::Ready;
    room.hash = undercooked::sim::hash::chain(0, &room);
    room
}

#[test]
fn a_four_cook_stress_run_on_every_hazard_keeps_every_invariant_for_2000_ticks() {
    let (chain, tally) = walk_room(every_hazard_room(7), 7, 2000);
    println!("{tally:#?}");
    assert_eq!(tally.ticks, 2000);
    // The run must really have met every hazard, or it proves nothing about them.
    assert!(tally.knocked > 0, "no cart ever hit anyone: {tally:?}");
    assert!(tally.spilled > 0 && tally.shift_warnings > 0 && tally.shifted > 0, "{tally:?}");
    assert!(tally.ignited > 0 && tally.spread > 0 && tally.wasted > 0, "{tally:?}");
    assert!(tally.picked > 0 && tally.dropped > 0, "{tally:?}");
    let (again, _) = walk_room(every_hazard_room(7), 7, 2000);
    assert_eq!(chain, again, "the same seed must give the same hash chain");
}

#[test]
fn two_seeds_walk_the_cooks_differently() {
    // Differing chains could come from the hashed rng state alone; the bodies must differ too.
    let run = |seed: u64| {
        let mut room = Room::new(Arc::new(maze()), book(), 1, &SeatSpec::numbered(4));
        let mut cooks = RandomCooks::new(seed, 4);
        for _ in 0..200 {
            cooks.push_frames(&mut room);
            step_room(&mut room);
        }
        room.cooks.iter().map(|c| c.pos).collect::<Vec<_>>()
    };
    assert_eq!(run(3), run(3));
    assert_ne!(run(3), run(4));
}

#[test]
fn every_campaign_level_stays_walkable_under_four_random_cooks() {
    let levels = campaign();
    assert!(!levels.is_empty());
    for (k, level) in levels.into_iter().enumerate() {
        let id = level.id.clone();
        let (_, tally) = walk(level, 100 + k as u64, 600);
        println!("{id}: {tally:?}");
        assert_eq!(tally.ticks, 600, "{id}");
        assert!(tally.picked > 0, "{id}: nobody picked anything in 600 ticks: {tally:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// The Bevy schedule against step_room, and rooms side by side.
// ---------------------------------------------------------------------------------------------

/// A room and the seeded cooks that drive it.
#[derive(Clone)]
struct Scenario {
    room: Room,
    cooks: RandomCooks,
}

fn scenario(level: &Arc<Level>, seed: u64, walk_seed: u64) -> Scenario {
    Scenario {
        room: Room::new(level.clone(), book(), seed, &SeatSpec::numbered(4)),
        cooks: RandomCooks::new(walk_seed, 4),
    }
}

/// The chain `step_room` gives, outside any schedule.
fn chain_by_step(mut s: Scenario, ticks: u32) -> Vec<u64> {
    let mut chain = vec![s.room.hash];
    for _ in 0..ticks {
        s.cooks.push_frames(&mut s.room);
        step_room(&mut s.room);
        chain.push(s.room.hash);
    }
    chain
}

/// The chains of all scenarios stepped together as entities of one headless app.
fn chains_in_app(scenarios: Vec<Scenario>, ticks: u32) -> Vec<Vec<u64>> {
    let mut app = headless_app();
    let mut rooms: Vec<(Entity, RandomCooks, Vec<u64>)> = scenarios
        .into_iter()
        .map(|s| {
            let hash = s.room.hash;
            (app.world_mut().spawn(s.room).id(), s.cooks, vec![hash])
        })
        .collect();
    for t in 1..=ticks {
        for (e, cooks, _) in &mut rooms {
            let mut room = app.world_mut().get_mut::<Room>(*e).expect("room entity");
            cooks.push_frames(&mut room);
        }
        app.update();
        for (e, _, chain) in &mut rooms {
            let room = app.world().get::<Room>(*e).expect("room entity");
            assert_eq!(room.tick, t, "one update must be exactly one tick");
            chain.push(room.hash);
        }
    }
    rooms.into_iter().map(|(_, _, chain)| chain).collect()
}

#[test]
fn the_bevy_schedule_steps_a_room_exactly_like_step_room() {
    let s = scenario(&Arc::new(maze()), 5, 5);
    let by_step = chain_by_step(s.clone(), 300);
    let in_app = chains_in_app(vec![s], 300).remove(0);
    assert_eq!(in_app, by_step);
}

#[test]
fn rooms_in_one_world_never_touch_each_other() {
    let maze = Arc::new(maze());
    let first = Arc::new(campaign().remove(0));
    let alone = scenario(&maze, 21, 21);
    // Neighbours with other seeds, other inputs, and one on another level; one shares room A's
    // level and room seed but not its inputs, the likeliest case to leak through shared state.
    let others = [scenario(&maze, 22, 22), scenario(&first, 23, 23), scenario(&maze, 21, 99)];
    let ticks = 300;
    let solo = chains_in_app(vec![alone.clone()], ticks).remove(0);
    let mut all = vec![alone.clone()];
    all.extend(others.iter().cloned());
    let together = chains_in_app(all, ticks);
    assert_eq!(together[0], solo, "room A's chain changed when other rooms shared its world");
    assert_eq!(solo, chain_by_step(alone, ticks));
    for (k, other) in others.into_iter().enumerate() {
        assert_eq!(together[k + 1], chain_by_step(other, ticks), "neighbour {k}");
    }
    assert_ne!(together[0], together[3], "same level and seed, different inputs, must differ");
}

/// `dash_diner` as it first shipped: seat 1 spawned above seat 2 at the kitchen's left end.
/// Seed 101's four-cook walk packs seats 0 and 1 into the pocket there while a third cook keeps
/// driving in from the open side (docs/SIMULATION.md §6.5, "The pinned pocket").
fn dash_diner_first_layout() -> Level {
    let path = root().join("levels/dash_diner.ron");
    let text = std::fs::read_to_string(&path).expect("the shipped dash_diner");
    assert!(
        text.contains("\"R.2.") && text.contains("\"P.1."),
        "the spawn rows of dash_diner moved; rewrite this fixture"
    );
    let swapped = text.replace("\"R.2.", "\"R.1.").replace("\"P.1.", "\"P.2.");
    undercooked::level::parse_level(swapped.as_bytes(), "dash_diner_first.ron", &book())
        .expect("the first dash_diner layout is valid")
}

#[test]
fn a_pair_pinned_in_a_pocket_by_a_third_cook_does_not_stay_sunk() {
    // Before the pinned-pocket rule this walk left seats 0 and 1 overlapped 625 000 µtiles for
    // 6 ticks at tick 24 (seat 1 dashing up into seat 0, pinned against seat 2 at the wall);
    // Watch fails any pair left deeper than a walking tick.
    let (_, tally) = walk(dash_diner_first_layout(), 101, 600);
    println!("{tally:?}");
    assert_eq!(tally.ticks, 600);
    assert!(tally.max_push > 0, "no cook was ever pushed: {tally:?}");
    assert!(tally.overlap_ticks > 0, "the walk never jammed anyone: {tally:?}");
}

/// `undercooked --help` and `bench --help` open with one line about `bench`: it names every
/// bench subcommand clap lists (it named only `bench sim` when `bench net` was there too).
#[test]
fn bench_help_names_every_bench_subcommand() {
    let help = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_undercooked"))
            .args(args)
            .output()
            .expect("the binary runs");
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stdout).expect("help is text")
    };
    let bench = help(&["bench", "--help"]);
    let commands: Vec<&str> = bench
        .split("Commands:")
        .nth(1)
        .expect("bench --help lists its commands")
        .lines()
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 2, "{bench}");
    let about = bench.lines().next().unwrap_or_default().to_string();
    let top = help(&["--help"]);
    let listed = top.lines().find(|l| l.trim_start().starts_with("bench ")).expect("bench listed");
    for c in commands {
        let named = format!("`bench {c}`");
        assert!(about.contains(&named), "bench --help's first line lacks {named}: {about}");
        assert!(listed.contains(&named), "--help's bench line lacks {named}: {listed}");
    }
}
