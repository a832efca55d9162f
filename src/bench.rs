//! `undercooked bench sim`: kernel throughput through the real Bevy schedule, one room and a
//! batch of rooms in one world, with seeded random cooks (`bot::random`).
//!
//! Wall-clock time is read here and only here: this module measures the simulation, it is not
//! part of it, so `sim/`'s no-clock rule does not apply. `bench compare` (native) measures a
//! change against its parent: `bench/compare.rs`.

#[cfg(not(target_arch = "wasm32"))]
pub mod compare;
#[cfg(not(target_arch = "wasm32"))]
pub mod compare_error;
#[cfg(not(target_arch = "wasm32"))]
pub mod measures;
#[cfg(not(target_arch = "wasm32"))]
pub mod rules;
#[cfg(not(target_arch = "wasm32"))]
pub mod trees;

use crate::bot::planner::BotTeam;
use crate::bot::random::RandomCooks;
use crate::clock::headless_app;
use crate::level::cli::{DEFAULT_LEVELS_DIR, RECIPES_PATH};
use crate::level::{LoadError, find_level, load_campaign, load_recipes_file};
use crate::sim::kitchen::Level;
use crate::sim::open::SeatSpec;
use crate::sim::recipe_book::RecipeBook;
use crate::sim::room::Room;
use crate::sim::step_room;
use crate::sim::units::MAX_COOKS;
use bevy::prelude::*;
use clap::{Args, Subcommand};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What `undercooked bench` measures.
#[derive(Subcommand, Debug, Clone)]
pub enum BenchCommand {
    /// Simulation kernel throughput: ticks/s for one room, room-ticks/s for a batch in one world.
    Sim(SimBenchArgs),
    /// A room of clients through the impairment proxy at several round trips: frames admitted
    /// and late, press → applied latency, prediction corrections, bandwidth.
    #[cfg(not(target_arch = "wasm32"))]
    Net(crate::net::tools::netbench::NetBenchArgs),
    /// This change against its parent (or BASE): both trees built and `bench sim` run side by
    /// side (medians, spread, ratio), every golden and seeded random rounds replayed on both
    /// ("no rules change", or the first tick and field where they part).
    #[cfg(not(target_arch = "wasm32"))]
    Compare(compare::CompareArgs),
    /// A directory's room-code lookups and heartbeats per second with p50/p99 latency, in
    /// process or on Redis (`--redis URL`), and a heartbeat's bytes per server per second.
    #[cfg(not(target_arch = "wasm32"))]
    Directory(crate::directory::bench::DirBenchArgs),
}

/// Options of `bench sim`.
#[derive(Args, Debug, Clone)]
pub struct SimBenchArgs {
    /// Rooms in the batch run (all in one world, stepped together).
    #[arg(long, default_value_t = 1024)]
    pub rooms: u32,
    /// Ticks of the batch run.
    #[arg(long, default_value_t = 200)]
    pub ticks: u32,
    /// Ticks of the single-room run.
    #[arg(long, default_value_t = 20_000)]
    pub single_ticks: u32,
    /// Level id (or file) to run; default: the first level of the campaign.
    #[arg(long)]
    pub level: Option<String>,
    /// Seed of the rooms and of the random cooks.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also time N planner bots (1–4) playing one room through `sim::step_room`: their
    /// planning cost per bot per tick, apart from the sim's.
    #[arg(
        long,
        default_value_t = 0,
        value_parser = clap::value_parser!(u8).range(0..=MAX_COOKS as i64)
    )]
    pub bots: u8,
    /// Ticks of the bots run (rounds restart with the next seed when one ends).
    #[arg(long, default_value_t = 20_000)]
    pub bot_ticks: u32,
    /// End with one JSON object on the last line.
    #[arg(long)]
    pub json: bool,
    /// Which game's rules to measure (`tandem`: docs/TANDEM.md; `--level` and `--bots` are
    /// the kitchen's).
    #[arg(long, value_enum, default_value_t)]
    pub mode: crate::tandem::cli::Mode,
}

/// Cooks per benchmark room, as the issue asks (every seat of a kitchen filled).
pub const BENCH_COOKS: u8 = MAX_COOKS as u8;

/// The bench's per-room walk, kept on the room entity so one query feeds the whole batch.
#[derive(Component)]
struct BenchCooks(RandomCooks);

/// One run's outcome.
#[derive(Clone, Copy, Debug)]
pub struct Measured {
    pub rooms: u32,
    pub ticks: u32,
    pub elapsed: Duration,
}

impl Measured {
    pub fn room_ticks_per_s(&self) -> f64 {
        self.rooms as f64 * self.ticks as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Step `rooms` kitchens of `level` together in one headless app for `ticks` ticks (after a
/// short untimed warm-up that lets the schedule build and the rooms' queues reach steady size).
/// The app is configured as the headless server is (`clock::headless_app`): single-threaded
/// executors, rooms in parallel inside each stage. Fails if any room did not advance exactly
/// one tick per update.
pub fn run_rooms(
    level: &Arc<Level>,
    book: &Arc<RecipeBook>,
    seed: u64,
    rooms: u32,
    ticks: u32,
) -> Result<Measured, String> {
    const WARMUP: u32 = 20;
    let mut app = headless_app();
    let seats = SeatSpec::numbered(BENCH_COOKS);
    for r in 0..rooms as u64 {
        let room_seed = seed.wrapping_add(r);
        app.world_mut().spawn((
            Room::new(level.clone(), book.clone(), room_seed, &seats),
            BenchCooks(RandomCooks::new(room_seed ^ 0x5EED, BENCH_COOKS)),
        ));
    }
    let mut feed = app.world_mut().query::<(&mut Room, &mut BenchCooks)>();
    // Each room's walk is its own seeded stream, so feeding the rooms in parallel gives every
    // room exactly the frames a serial loop would (the players' inputs arrive in parallel too).
    // Few rooms are fed on this thread, as the stages step them: a task-pool scope costs more.
    let mut step = |app: &mut App| {
        if (rooms as usize) < crate::sim::PAR_MIN_ROOMS {
            for (mut room, mut cooks) in feed.iter_mut(app.world_mut()) {
                cooks.0.push_frames(&mut room);
            }
        } else {
            feed.par_iter_mut(app.world_mut())
                .for_each(|(mut room, mut cooks)| cooks.0.push_frames(&mut room));
        }
        app.update();
    };
    for _ in 0..WARMUP {
        step(&mut app);
    }
    let start = Instant::now();
    for _ in 0..ticks {
        step(&mut app);
    }
    let elapsed = start.elapsed();
    let expected = WARMUP + ticks;
    let mut rooms_q = app.world_mut().query::<&Room>();
    if let Some(room) = rooms_q.iter(app.world()).find(|r| r.tick != expected) {
        return Err(format!("a room is at tick {} after {expected} updates", room.tick));
    }
    Ok(Measured { rooms, ticks, elapsed })
}

/// What [`time_bots`] measured.
#[derive(Clone, Copy, Debug)]
pub struct BotTiming {
    pub bots: u8,
    pub ticks: u32,
    /// Time inside `BotTeam::drive` (reading the room, planning, writing frames).
    pub planning: Duration,
    /// Time inside `sim::step_room`.
    pub sim: Duration,
}

/// `bots` planner bots play `level` through `sim::step_room` for `ticks` ticks, a new round
/// (next seed) whenever one is decided; the bots' `drive` and the sim's step are timed apart.
pub fn time_bots(
    level: &Arc<Level>,
    book: &Arc<RecipeBook>,
    seed: u64,
    bots: u8,
    ticks: u32,
) -> BotTiming {
    let seats: Vec<u8> = (0..bots).collect();
    let new_round = |seed: u64| {
        let room = Room::new(level.clone(), book.clone(), seed, &SeatSpec::numbered(bots));
        let team = BotTeam::new(&room, &seats);
        (room, team)
    };
    let mut round_seed = seed;
    let (mut room, mut team) = new_round(round_seed);
    let (mut planning, mut sim) = (Duration::ZERO, Duration::ZERO);
    for _ in 0..ticks {
        if room.result.is_some() {
            round_seed += 1;
            (room, team) = new_round(round_seed);
        }
        let t0 = Instant::now();
        team.drive(&mut room);
        let t1 = Instant::now();
        step_room(&mut room);
        let t2 = Instant::now();
        planning += t1 - t0;
        sim += t2 - t1;
    }
    std::hint::black_box(&room);
    BotTiming { bots, ticks, planning, sim }
}

/// Time the input generator alone for `room_ticks` room-ticks (frames pushed into a queue that is
/// cleared as the sim would drain it), so the report can say how much of a tick is input.
pub fn time_inputs(level: &Arc<Level>, book: &Arc<RecipeBook>, room_ticks: u32) -> Duration {
    let mut room = Room::new(level.clone(), book.clone(), 1, &SeatSpec::numbered(BENCH_COOKS));
    let mut cooks = RandomCooks::new(1, BENCH_COOKS);
    let start = Instant::now();
    for t in 0..room_ticks {
        room.tick = t;
        cooks.push_frames(&mut room);
        room.inputs.frames.clear();
    }
    std::hint::black_box(&room);
    start.elapsed()
}

fn load_level(id: Option<&str>, book: &RecipeBook) -> Result<Level, LoadError> {
    let dir = Path::new(DEFAULT_LEVELS_DIR);
    match id {
        Some(id) => find_level(dir, id, book),
        None => load_campaign(dir, book)?
            .into_iter()
            .next()
            .ok_or_else(|| LoadError::NotFound("the campaign's first level".into())),
    }
}

/// `undercooked bench …`; returns the exit code (0 ran, 1 a run failed, 2 missing input files).
pub fn run(command: BenchCommand) -> u8 {
    match command {
        BenchCommand::Sim(args) => run_sim(&args),
        #[cfg(not(target_arch = "wasm32"))]
        BenchCommand::Net(args) => crate::net::tools::netbench::run(&args),
        #[cfg(not(target_arch = "wasm32"))]
        BenchCommand::Compare(args) => compare::run_compare(&args),
        #[cfg(not(target_arch = "wasm32"))]
        BenchCommand::Directory(args) => crate::directory::bench::run(&args),
    }
}

fn run_sim(args: &SimBenchArgs) -> u8 {
    if args.mode == crate::tandem::cli::Mode::Tandem {
        return crate::tandem::bench::run(
            args.seed,
            args.rooms,
            args.ticks,
            args.single_ticks,
            args.json,
        );
    }
    let book = match load_recipes_file(Path::new(RECIPES_PATH)) {
        Ok(book) => Arc::new(book),
        Err(e) => {
            eprintln!("bench: {RECIPES_PATH}: {e}");
            return 2;
        }
    };
    let level = match load_level(args.level.as_deref(), &book) {
        Ok(level) => Arc::new(level),
        Err(e) => {
            eprintln!("bench: level: {e}");
            return 2;
        }
    };
    let profile = if cfg!(debug_assertions) { "debug" } else { "release" };
    println!(
        "bench sim: level `{}`, {BENCH_COOKS} cooks per room, seed {}, {profile} build",
        level.id, args.seed
    );
    let single = match run_rooms(&level, &book, args.seed, 1, args.single_ticks) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("bench: one room: {e}");
            return 1;
        }
    };
    println!(
        "one room:   {} ticks in {:.3} s = {:.0} ticks/s ({:.2} µs/tick)",
        single.ticks,
        single.elapsed.as_secs_f64(),
        single.room_ticks_per_s(),
        1e6 / single.room_ticks_per_s()
    );
    let batch = match run_rooms(&level, &book, args.seed, args.rooms, args.ticks) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("bench: batch: {e}");
            return 1;
        }
    };
    println!(
        "batch:      {} rooms × {} ticks in {:.3} s = {:.0} room-ticks/s ({:.3} µs/room-tick)",
        batch.rooms,
        batch.ticks,
        batch.elapsed.as_secs_f64(),
        batch.room_ticks_per_s(),
        1e6 / batch.room_ticks_per_s()
    );
    let input_room_ticks = 1_000_000;
    let input = time_inputs(&level, &book, input_room_ticks);
    let input_ns = input.as_secs_f64() * 1e9 / input_room_ticks as f64;
    let batch_ns = 1e9 / batch.room_ticks_per_s();
    println!(
        "inputs:     {input_ns:.1} ns per room-tick ({BENCH_COOKS} frames) = {:.1}% of a batch room-tick",
        100.0 * input_ns / batch_ns
    );
    let bots = (args.bots > 0)
        .then(|| time_bots(&level, &book, args.seed, args.bots, args.bot_ticks.max(1)));
    let per_bot_tick_us =
        |b: &BotTiming| b.planning.as_secs_f64() * 1e6 / (b.ticks as f64 * b.bots as f64);
    if let Some(b) = &bots {
        println!(
            "bots:       {} planner bots × {} ticks: planning {:.2} µs per bot per tick, the sim {:.2} µs per tick",
            b.bots,
            b.ticks,
            per_bot_tick_us(b),
            b.sim.as_secs_f64() * 1e6 / b.ticks as f64
        );
    }
    if args.json {
        let mut json = serde_json::json!({
            "bench": "sim",
            "level": level.id,
            "cooks_per_room": BENCH_COOKS,
            "seed": args.seed,
            "profile": profile,
            "single_room_ticks": single.ticks,
            "single_room_ticks_per_s": single.room_ticks_per_s().round(),
            "threads": std::thread::available_parallelism().map_or(1, |n| n.get()),
            "rooms": batch.rooms,
            "ticks": batch.ticks,
            "batch_room_ticks_per_s": batch.room_ticks_per_s().round(),
            "input_ns_per_room_tick": (input_ns * 10.0).round() / 10.0,
        });
        if let Some(b) = &bots {
            json["bots"] = b.bots.into();
            json["bot_ticks"] = b.ticks.into();
            json["bot_plan_us_per_bot_tick"] =
                ((per_bot_tick_us(b) * 100.0).round() / 100.0).into();
        }
        println!("{json}");
    }
    0
}
