//! `undercooked bot prove`: play campaign levels with a bot team over several seeds, headless
//! and as fast as the kernel steps, and say per level whether a competent team can win it.
//!
//! Wall-clock time is read here (to report how long proving took); the rounds themselves are a
//! function of level, seed and the bots' frames only.

use super::planner::BotTeam;
use super::shape::Shape;
use super::tuning::BotTuning;
use crate::level::cli::{DEFAULT_LEVELS_DIR, RECIPES_PATH};
use crate::level::recipes::builtin_recipes;
use crate::level::{find_level, load_campaign, load_recipes_file};
use crate::sim::events::SimEvent;
use crate::sim::kitchen::Level;
use crate::sim::open::SeatSpec;
use crate::sim::recipe_book::RecipeBook;
use crate::sim::room::Room;
use crate::sim::round::{SETTLE_TICKS, stars};
use crate::sim::step_room;
use crate::sim::verdict::Verdict;
use crate::stdout::{OutputError, print_line};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// What `undercooked bot` does.
#[derive(Subcommand, Debug, Clone)]
pub enum BotCommand {
    /// Play levels with a bot team over seeds; exit 1 if a level is won on no seed.
    Prove(ProveArgs),
}

/// Options of `bot prove`.
#[derive(Args, Debug, Clone)]
pub struct ProveArgs {
    /// Level ids or files (default: the whole campaign, in levels/index.ron order).
    pub levels: Vec<String>,
    /// Seeds 1..=N (default: 5 a kitchen level, 20 for Tandem).
    #[arg(long)]
    pub seeds: Option<u64>,
    /// Which game: `tandem` has a porter pair carry the couch on each seed (docs/TANDEM.md);
    /// `versus` plays versus kitchens (default: levels_versus/) with the bots split between
    /// the teams by their spawns, and reports wins per side and draws (docs/BOTS.md).
    #[arg(long, value_enum, default_value_t)]
    pub mode: ProveMode,
    /// Tandem only: the turn length the porters play, 1 (live, the default) or 48 (the
    /// seed's decision turns: orders install every 2 s).
    #[arg(long, default_value_t = 1)]
    pub turn: u32,
    /// Bots in the team (seats 0..N).
    #[arg(long, default_value_t = 2)]
    pub bots: u8,
    /// Print every bot's plan changes, tick by tick.
    #[arg(long)]
    pub trace: bool,
    /// Bots walk only, never dash: the baseline a kitchen's dash is measured against.
    #[arg(long)]
    pub no_dash: bool,
    /// Folder of level files.
    #[arg(long, default_value = DEFAULT_LEVELS_DIR)]
    pub levels_dir: PathBuf,
    /// Bots never throw (every ingredient is walked to its fixture): to measure what throwing
    /// buys on the same rounds.
    #[arg(long)]
    pub no_throws: bool,
}

/// Which game `bot prove` plays.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProveMode {
    /// The co-op kitchen (the default): can a team win each level?
    #[default]
    Kitchen,
    /// Tandem: two cooks carrying one couch (docs/TANDEM.md).
    Tandem,
    /// Versus: bots on both teams of a versus kitchen; wins per side over the seeds.
    Versus,
}

/// Where `--mode versus` looks for its kitchens when none is named.
pub const VERSUS_LEVELS_DIR: &str = "levels_versus";

/// How one round went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundOutcome {
    pub seed: u64,
    pub verdict: Option<Verdict>,
    pub score: i32,
    pub stars: u8,
    /// Ticks until the verdict (or until the cap).
    pub ticks: u32,
    pub served: u32,
    pub missed: u32,
    /// The hash chain head at the end.
    pub hash: u64,
    /// Items the bots threw, caught, and that came down on a fixture (the room's `Thrown`,
    /// `Caught` and `Landed { station: Some(_) }` events).
    pub thrown: u32,
    pub caught: u32,
    pub landed: u32,
}

/// Play one round with `bots` bots from tick 0 to the verdict (or `time_limit + settle`),
/// calling `each_tick` after every tick with the room and the team (tests hook in here).
pub fn play_round(
    level: Arc<Level>,
    book: Arc<RecipeBook>,
    seed: u64,
    bots: u8,
    trace: bool,
    each_tick: impl FnMut(&Room, &mut BotTeam),
) -> RoundOutcome {
    play_round_tuned(level, book, seed, bots, BotTuning::default(), trace, each_tick)
}

/// [`play_round`] with the team's planner switches set to `tuning`.
pub fn play_round_tuned(
    level: Arc<Level>,
    book: Arc<RecipeBook>,
    seed: u64,
    bots: u8,
    tuning: BotTuning,
    trace: bool,
    mut each_tick: impl FnMut(&Room, &mut BotTeam),
) -> RoundOutcome {
    let mut room = Room::new(level, book, seed, &SeatSpec::numbered(bots));
    let seats: Vec<u8> = (0..bots).collect();
    let mut team = BotTeam::new(&room, &seats);
    team.tracing = trace;
    team.tuning = tuning;
    let cap = room.level.time_limit + SETTLE_TICKS + 1;
    let (mut thrown, mut caught, mut landed) = (0, 0, 0);
    while room.result.is_none() && room.tick < cap {
        team.drive(&mut room);
        step_room(&mut room);
        for e in &room.events {
            match e {
                SimEvent::Thrown { .. } => thrown += 1,
                SimEvent::Caught { .. } => caught += 1,
                SimEvent::Landed { station: Some(_), .. } => landed += 1,
                _ => {}
            }
        }
        each_tick(&room, &mut team);
        // After `each_tick`, so a caller sees (and prints) this tick's plan changes.
        team.trace.clear();
    }
    RoundOutcome {
        seed,
        verdict: room.result,
        score: room.score,
        stars: stars(&room),
        ticks: room.tick,
        served: room.counters.served,
        missed: room.counters.missed,
        hash: room.hash,
        thrown,
        caught,
        landed,
    }
}

/// The recipe book `bot prove` and `level publish` play against: `$UNDERCOOKED_RECIPES`, else
/// `assets/recipes.ron`, else the built-in book.
pub fn recipe_book() -> Result<RecipeBook, String> {
    let path = std::env::var_os(crate::level::cli::RECIPES_ENV)
        .map(PathBuf::from)
        .unwrap_or_else(|| RECIPES_PATH.into());
    if path.is_file() {
        return load_recipes_file(&path).map_err(|e| e.to_string());
    }
    builtin_recipes().map_err(|e| format!("{} problems in the built-in recipe book", e.len()))
}

/// Run `bot prove`; the exit code is 0 when every level was won on at least one seed, 1 when
/// one was not, 2 when levels or the book could not be loaded or standard output closed (a
/// reader such as `| head` that has gone: named, not a panic).
pub fn run(command: BotCommand) -> u8 {
    let BotCommand::Prove(args) = command;
    if args.mode == ProveMode::Tandem {
        let Some(turn) = crate::tandem::room::TurnTicks::of_ticks(args.turn) else {
            eprintln!("error: --turn {} (a Tandem turn is 1 or 48 ticks)", args.turn);
            return 2;
        };
        return crate::tandem::prove::run(args.seeds.unwrap_or(20), turn);
    }
    let book = match recipe_book() {
        Ok(b) => Arc::new(b),
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let levels: Result<Vec<Level>, String> = if args.levels.is_empty() {
        if args.mode == ProveMode::Versus {
            versus_levels(&book)
        } else {
            load_campaign(&args.levels_dir, &book).map_err(|e| e.to_string())
        }
    } else {
        args.levels
            .iter()
            .map(|l| find_level(&args.levels_dir, l, &book).map_err(|e| e.to_string()))
            .collect()
    };
    let levels = match levels {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let proved = if args.mode == ProveMode::Versus {
        let tuning = BotTuning { throws: !args.no_throws, dash: !args.no_dash };
        super::versus::prove_versus(levels, book, args.seeds.unwrap_or(10), args.bots, tuning)
    } else {
        prove_levels(&args, levels, book)
    };
    match proved {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// Every versus kitchen in [`VERSUS_LEVELS_DIR`], in file-name order.
fn versus_levels(book: &RecipeBook) -> Result<Vec<Level>, String> {
    let dir = std::path::Path::new(VERSUS_LEVELS_DIR);
    let files =
        crate::level::files::level_files(dir).map_err(|e| format!("{VERSUS_LEVELS_DIR}: {e}"))?;
    files
        .iter()
        .map(|f| crate::level::load_level_file(f, book).map_err(|e| e.to_string()))
        .collect()
}

/// Plays and prints every level's seeds; `Ok(1)` when a level is won on none.
fn prove_levels(
    args: &ProveArgs,
    levels: Vec<Level>,
    book: Arc<RecipeBook>,
) -> Result<u8, OutputError> {
    let seeds = args.seeds.unwrap_or(5);
    let started = Instant::now();
    let mut code = 0;
    let mut shape = Shape::default();
    for level in levels {
        let level = Arc::new(level);
        print_line(
            &format!(
                "{} — {} bots{}, target {}, {} s",
                level.id,
                args.bots,
                if args.no_dash { " (no dash)" } else { "" },
                level.target_score,
                level.time_limit / 20
            ),
            "a level line",
        )?;
        let mut wins = 0;
        for seed in 1..=seeds {
            let t = Instant::now();
            let tuning = BotTuning { throws: !args.no_throws, dash: !args.no_dash };
            // A closed output ends the proof after this round (the round itself is cheap).
            let mut traced = Ok(());
            let o = play_round_tuned(
                level.clone(),
                book.clone(),
                seed,
                args.bots,
                tuning,
                args.trace,
                |_, team| {
                    for line in &team.trace {
                        if traced.is_ok() {
                            traced = print_line(&format!("  {line}"), "a --trace line");
                        }
                    }
                },
            );
            traced?;
            let won = o.verdict == Some(Verdict::Won);
            wins += u32::from(won);
            shape.add(won, o.stars, o.ticks, level.time_limit);
            print_line(
                &format!(
                    "  seed {seed}: {:<4} score {:>4} stars {} ticks {:>5} served {:>2} missed \
                     {:>2} thrown {:>2} caught {:>2} landed {:>2} ({} ms)",
                    o.verdict.map_or("none", |v| v.as_str()),
                    o.score,
                    o.stars,
                    o.ticks,
                    o.served,
                    o.missed,
                    o.thrown,
                    o.caught,
                    o.landed,
                    t.elapsed().as_millis()
                ),
                "a seed line",
            )?;
        }
        let verdict = if wins > 0 { "WINNABLE" } else { "NOT WON" };
        print_line(&format!("  {verdict}: won {wins}/{seeds}"), "a verdict line")?;
        if wins == 0 {
            code = 1;
            print_reasons(&level, &book, args.bots)?;
        }
    }
    print_line(&format!("all: {}", shape.line()), "the shape line")?;
    print_line(&format!("proved in {} ms", started.elapsed().as_millis()), "the closing line")?;
    Ok(code)
}

/// Under a level won on no seed: why, from the layout (`bot::why`), or that the layout has no
/// reason and `--trace` will tell the planner's.
fn print_reasons(level: &Arc<Level>, book: &Arc<RecipeBook>, bots: u8) -> Result<(), OutputError> {
    let reasons = super::why::reasons(level.clone(), book.clone(), bots);
    if reasons.is_empty() {
        return print_line(
            "  why: every part can be made and brought to a window; read --trace for the rounds",
            "a why line",
        );
    }
    for reason in reasons {
        print_line(&format!("  why: {reason}"), "a why line")?;
    }
    Ok(())
}
