//! `undercooked level generate`: draw a kitchen from a seed and write it as a level file.
//!
//! Exit codes: 0 written, 1 no kitchen came out (the error is named), 2 the recipe book or
//! the output file could not be read or written.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::options::{GenerateOptions, HazardKind, Size};
use super::run::generate;
use crate::level::cli::{RECIPES_ENV, RECIPES_PATH};
use crate::level::files::load_recipes_file;
use crate::level::recipes::builtin_recipes;
use crate::sim::recipe_book::RecipeBook;

/// What `undercooked level` does.
#[derive(Subcommand, Debug, Clone)]
pub enum LevelCommand {
    /// Draw a kitchen from a seed: a level file that validates, with its target set from
    /// what bots score on it (docs/LEVELS.md, "Generated kitchens").
    Generate(GenerateArgs),
    /// Validate a kitchen, prove it with 1-4 planner bots, set its target by the publishing
    /// rule and write its hashed entry into index.ron (docs/LEVELS.md, "Publishing").
    Publish(crate::bot::publish::PublishArgs),
}

/// Options of `level generate`.
#[derive(Args, Debug, Clone)]
pub struct GenerateArgs {
    /// The seed: the same seed and options give the same file.
    #[arg(long)]
    pub seed: u64,
    /// Kitchen size.
    #[arg(long, value_enum, default_value_t)]
    pub size: Size,
    /// Recipe ids for the order pool, comma-separated (default: the seed picks).
    #[arg(long, value_delimiter = ',')]
    pub dishes: Vec<String>,
    /// Hazards to add, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub hazards: Vec<HazardKind>,
    /// Write here instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs `level` and returns the exit code.
pub fn run(command: LevelCommand) -> u8 {
    let args = match command {
        LevelCommand::Generate(args) => args,
        LevelCommand::Publish(args) => return crate::bot::publish::run(&args),
    };
    let book = match load_book() {
        Ok(book) => book,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let opts = GenerateOptions {
        seed: args.seed,
        size: args.size,
        dishes: args.dishes.iter().map(|d| d.trim().to_string()).collect(),
        hazards: args.hazards,
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
    eprintln!(
        "{}: {}×{}, dishes {}, target {} (two bots scored {:?} on a full clock, one bot {})",
        generated.id,
        generated.width,
        generated.height,
        generated.pool.join(","),
        generated.target,
        generated.measured.two_bots,
        generated.measured.one_bot
    );
    0
}

/// The book `validate` would use: `$UNDERCOOKED_RECIPES`, else `assets/recipes.ron` here,
/// else the built-in one.
fn load_book() -> Result<RecipeBook, String> {
    let path =
        std::env::var_os(RECIPES_ENV).map(PathBuf::from).unwrap_or_else(|| RECIPES_PATH.into());
    if std::env::var_os(RECIPES_ENV).is_some() || path.is_file() {
        return load_recipes_file(&path).map_err(|e| e.to_string());
    }
    builtin_recipes().map_err(|e| format!("{} problems in the built-in recipe book", e.len()))
}
