//! `undercooked level generate|publish`: the level tools that need bots. `generate` draws a
//! kitchen from a seed (or the day's daily kitchen) and writes it proved as `publish` would.
//!
//! `generate`'s exit codes: 0 written, 1 no kitchen came out (the error is named), 2 the recipe
//! book or the output file could not be read or written.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::generate::generate;
use super::prove::recipe_book;
use crate::level::generate::{Date, GenerateOptions, HazardKind, Size, daily_options};

/// What `undercooked level` does.
#[derive(Subcommand, Debug, Clone)]
pub enum LevelCommand {
    /// Draw a kitchen from a seed: a level file that validates, proved and targeted as
    /// `level publish` would (docs/LEVELS.md, "Generated kitchens").
    Generate(GenerateArgs),
    /// Validate a kitchen, prove it with 1-4 planner bots, set its target by the publishing
    /// rule and write its hashed entry into index.ron (docs/LEVELS.md, "Publishing").
    Publish(super::publish::PublishArgs),
}

/// Options of `level generate`.
#[derive(Args, Debug, Clone)]
pub struct GenerateArgs {
    /// The seed: the same seed and options give the same file.
    #[arg(long, required_unless_present = "daily", conflicts_with = "daily")]
    pub seed: Option<u64>,
    /// Kitchen size.
    #[arg(long, value_enum, default_value_t)]
    pub size: Size,
    /// Recipe ids for the order pool, comma-separated (default: the seed picks).
    #[arg(long, value_delimiter = ',')]
    pub dishes: Vec<String>,
    /// Hazards to add, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub hazards: Vec<HazardKind>,
    /// The daily kitchen (seed YYYYMMDD of the UTC day, fixed options); the size, dishes and
    /// hazards options are not used.
    #[arg(long, conflicts_with_all = ["size", "dishes", "hazards"])]
    pub daily: bool,
    /// With `--daily`: this day (YYYY-MM-DD) instead of today.
    #[arg(long, requires = "daily")]
    pub date: Option<String>,
    /// Write here instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Today's UTC date from the wall clock: the CLI's edge, never the rules.
pub fn today_utc() -> Option<Date> {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).ok()?;
    Date::from_unix_seconds(i64::try_from(since.as_secs()).ok()?)
}

/// The day `--date` names, else today; the error as words.
pub fn day_of(date: Option<&str>) -> Result<Date, String> {
    match date {
        Some(text) => Date::parse(text).map_err(|e| e.to_string()),
        None => today_utc().ok_or_else(|| "the system clock is before 1970".to_string()),
    }
}

/// The options `args` ask for.
fn options_of(args: &GenerateArgs) -> Result<GenerateOptions, String> {
    if args.daily {
        return day_of(args.date.as_deref()).map(daily_options);
    }
    Ok(GenerateOptions {
        seed: args.seed.unwrap_or_default(),
        size: args.size,
        dishes: args.dishes.iter().map(|d| d.trim().to_string()).collect(),
        hazards: args.hazards.clone(),
    })
}

/// Runs `level` and returns the exit code.
pub fn run(command: LevelCommand) -> u8 {
    let args = match command {
        LevelCommand::Generate(args) => args,
        LevelCommand::Publish(args) => return super::publish::run(&args),
    };
    let opts = match options_of(&args) {
        Ok(opts) => opts,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let book = match recipe_book() {
        Ok(book) => book,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let generated = match generate(&opts, &book) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let written = match &args.out {
        Some(path) => {
            std::fs::write(path, &generated.text).map_err(|e| format!("{}: {e}", path.display()))
        }
        None => {
            std::io::stdout().lock().write_all(generated.text.as_bytes()).map_err(|e| e.to_string())
        }
    };
    if let Err(e) = written {
        eprintln!("error: cannot write: {e}");
        return 2;
    }
    let p = &generated.publication;
    let wins: Vec<String> = p
        .proof()
        .teams
        .iter()
        .map(|t| format!("{} bot(s) {}/{}", t.bots, t.wins, p.full_clock.len()))
        .collect();
    eprintln!(
        "{}: {}×{}, dishes {}, target {} (two bots over the whole clock {:?}; won {})",
        generated.id,
        generated.width,
        generated.height,
        generated.pool.join(","),
        generated.target,
        p.full_clock,
        wins.join(", ")
    );
    0
}
