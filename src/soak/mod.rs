//! `undercooked soak`: every campaign level's room stepped for many ticks with four seeded
//! cooks, every law of `sim::invariants` and the event ledger checked after every tick.
//!
//! Seats 0 and 1 are planner bots (`bot::planner`), so dishes are really cooked, plated,
//! served and washed and the rail, the stock and the score all move; seats 2 and 3 are the
//! seeded random cooks (`bot::random::RandomCooks`), which walk into everything, grab, drop,
//! trash and hold buttons at every station, including out-of-range sticks. A round that ends is
//! restarted with the next seed. Wall-clock time is read only to report ticks/s.

pub mod ledger;
pub mod team_ledger;

use crate::bot::planner::BotTeam;
use crate::bot::random::RandomCooks;
use crate::level::cli::{DEFAULT_LEVELS_DIR, RECIPES_PATH};
use crate::level::{find_level, load_campaign, load_recipes_file};
use crate::sim::invariants::{self, Violation};
use crate::sim::kitchen::Level;
use crate::sim::open::SeatSpec;
use crate::sim::recipe_book::RecipeBook;
use crate::sim::room::Room;
use crate::sim::step_room;
use crate::sim::units::MAX_COOKS;
use clap::Args;
use ledger::{Drift, Ledger};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Cooks in every soaked room: a full kitchen, two planner bots and the rest random.
pub const SOAK_COOKS: u8 = MAX_COOKS as u8;
/// The seats the planner bots drive; the rest are random.
const BOT_SEATS: [u8; 2] = [0, 1];

/// Options of `undercooked soak`.
#[derive(Args, Debug, Clone)]
pub struct SoakArgs {
    /// Folder of level files (with index.ron): every campaign level is soaked.
    #[arg(long, default_value = DEFAULT_LEVELS_DIR)]
    pub levels: PathBuf,
    /// Ticks per level.
    #[arg(long, default_value_t = 1_000_000)]
    pub ticks: u64,
    /// Seed of the first round (each later round takes the next) and of the random cooks.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Soak only this level id (or file).
    #[arg(long)]
    pub level: Option<String>,
    /// Every round a survival round (`sim::survival`): the clock laws and the ledger's clock
    /// check too.
    #[arg(long)]
    pub survival: bool,
}

/// What a clean soak of one level saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelSoak {
    pub ticks: u64,
    pub rounds: u32,
    pub served: u64,
    pub max_items: usize,
}

/// What broke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Broken {
    Invariant(Violation),
    Ledger(Drift),
}

/// A failed soak: where and when, so `soak --level L --seed S` reproduces it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SoakFailure {
    pub level: String,
    /// The run's seed (as given to `--seed`).
    pub seed: u64,
    /// The failing round's seed.
    pub round_seed: u64,
    /// The room tick whose step broke the law (the tick the room had just simulated).
    pub tick: u32,
    pub broken: Broken,
    /// The events of the tick that broke it, for whoever reads the report.
    pub events: Vec<String>,
}

impl fmt::Display for SoakFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match &self.broken {
            Broken::Invariant(v) => format!("invariant: {v}"),
            Broken::Ledger(d) => format!("ledger: {d}"),
        };
        write!(
            f,
            "level `{}`, seed {}, round seed {}, tick {}: {what}\n  that tick's events: {}",
            self.level,
            self.seed,
            self.round_seed,
            self.tick,
            self.events.join(", ")
        )
    }
}

/// One round in progress: the room, its bots, its random cooks and its ledger.
struct Round {
    seed: u64,
    room: Room,
    bots: BotTeam,
    random: RandomCooks,
    ledger: Ledger,
}

impl Round {
    fn new(level: &Arc<Level>, book: &Arc<RecipeBook>, seed: u64, survival: bool) -> Round {
        let room = Room::new(level.clone(), book.clone(), seed, &SeatSpec::numbered(SOAK_COOKS))
            .with_survival(survival);
        let bots = BotTeam::new(&room, &BOT_SEATS);
        // The random cooks' stream is keyed off the round seed, so a round replays alone.
        let random = RandomCooks::new(seed ^ 0x50A6_50A6, SOAK_COOKS);
        Round { seed, room, bots, random, ledger: Ledger::default() }
    }

    /// One tick: the bots' and the random cooks' frames, the step, then every check.
    fn step(&mut self) -> Result<(), Broken> {
        self.bots.drive(&mut self.room);
        let tick = self.room.tick;
        for s in BOT_SEATS.len()..SOAK_COOKS as usize {
            let frame = self.random.frame(s, tick);
            self.room.inputs.queue_stamped(s as u8, frame);
        }
        step_room(&mut self.room);
        if let Some(v) = invariants::check(&self.room) {
            return Err(Broken::Invariant(v));
        }
        self.ledger.after_tick(&self.room).map_err(Broken::Ledger)
    }
}

/// Soak one level for `ticks` ticks from `seed`: Ok with what it saw, or the first failure.
pub fn soak_level(
    level: &Arc<Level>,
    book: &Arc<RecipeBook>,
    seed: u64,
    ticks: u64,
    survival: bool,
) -> Result<LevelSoak, SoakFailure> {
    let mut round = Round::new(level, book, seed, survival);
    let mut out = LevelSoak { ticks, rounds: 1, served: 0, max_items: 0 };
    // The tick-0 state is checked too: a level that starts broken fails before any input.
    let start = invariants::check(&round.room).map(Broken::Invariant);
    let fail = |round: &Round, broken: Broken| SoakFailure {
        level: level.id.clone(),
        seed,
        round_seed: round.seed,
        tick: round.room.tick.saturating_sub(1),
        broken,
        events: round.room.events.iter().map(|e| format!("{e:?}")).collect(),
    };
    if let Some(broken) = start {
        return Err(fail(&round, broken));
    }
    for _ in 0..ticks {
        if round.room.result.is_some() {
            out.served += round.room.counters.served as u64;
            round = Round::new(level, book, round.seed.wrapping_add(1), survival);
            out.rounds += 1;
        }
        round.step().map_err(|b| fail(&round, b))?;
        out.max_items = out.max_items.max(round.room.items.len());
    }
    out.served += round.room.counters.served as u64;
    Ok(out)
}

/// `undercooked soak`; the exit code: 0 clean, 1 a law broke, 2 unreadable levels.
pub fn run(args: &SoakArgs) -> u8 {
    let book = match load_recipes_file(std::path::Path::new(RECIPES_PATH)) {
        Ok(book) => Arc::new(book),
        Err(e) => {
            eprintln!("soak: {RECIPES_PATH}: {e}");
            return 2;
        }
    };
    let levels = match &args.level {
        Some(id) => find_level(&args.levels, id, &book).map(|l| vec![l]),
        None => load_campaign(&args.levels, &book),
    };
    let levels = match levels {
        Ok(levels) => levels,
        Err(e) => {
            eprintln!("soak: levels: {e}");
            return 2;
        }
    };
    let profile = if cfg!(debug_assertions) { "debug" } else { "release" };
    println!(
        "soak: {} level(s) × {} ticks, {SOAK_COOKS} cooks (seats 0-1 planner bots, 2-3 random), seed {}, {}{profile} build",
        levels.len(),
        args.ticks,
        args.seed,
        if args.survival { "survival rounds, " } else { "" }
    );
    for level in levels {
        let level = Arc::new(level);
        let start = Instant::now();
        match soak_level(&level, &book, args.seed, args.ticks, args.survival) {
            Ok(s) => {
                let secs = start.elapsed().as_secs_f64().max(1e-9);
                println!(
                    "{:<16} {:>9} ticks  {:>9.0} ticks/s  {:>5} rounds  {:>6} served  max {:>3} items alive",
                    level.id,
                    s.ticks,
                    s.ticks as f64 / secs,
                    s.rounds,
                    s.served,
                    s.max_items
                );
            }
            Err(failure) => {
                println!("soak FAILED: {failure}");
                return 1;
            }
        }
    }
    0
}
