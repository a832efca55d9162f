//! The `undercooked` binary: one CLI (clap) over every mode of the game.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "undercooked", version, about = "A co-op cooking game")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate level files (files or folders; default `levels/`). Exit 0 valid, 1 invalid, 2 unreadable.
    Validate {
        /// Level files or folders of levels.
        paths: Vec<std::path::PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Validate { paths } => ExitCode::from(undercooked::level::cli::run_validate(&paths)),
    }
}
