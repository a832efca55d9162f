//! The `undercooked` binary: one CLI (clap) over every mode of the game.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use undercooked::replay::cli::{self as replay_cli, ReplayPaths};

#[derive(Parser)]
#[command(name = "undercooked", version, about = "A co-op cooking game")]
struct Cli {
    /// Without a subcommand the game window opens (client builds).
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Open the game window: the title screen, or `--level` straight into a kitchen.
    #[cfg(feature = "client")]
    Play(undercooked::client::PlayArgs),
    /// Validate level files (files or folders; default `levels/`). Exit 0 valid, 1 invalid, 2 unreadable.
    Validate {
        /// Level files or folders of levels.
        paths: Vec<std::path::PathBuf>,
    },
    /// Replay input scripts against committed goldens (record, check, run).
    Replay {
        #[command(subcommand)]
        action: ReplayAction,
        /// Folder of level files a script's level id is looked up in.
        #[arg(long, default_value = "levels", global = true)]
        levels: PathBuf,
        /// Folder of golden files.
        #[arg(long, default_value = "goldens", global = true)]
        goldens: PathBuf,
    },
    /// Measure throughput (release build): `bench sim` steps rooms of random cooks.
    Bench {
        #[command(subcommand)]
        what: undercooked::bench::BenchCommand,
    },
}

#[derive(Subcommand)]
enum ReplayAction {
    /// Run a script and (re)write its golden: the manual re-bless after a deliberate rule change.
    Record {
        /// Input scripts (RON).
        #[arg(required = true)]
        scripts: Vec<PathBuf>,
    },
    /// Run scripts and compare with their goldens. Exit 0 all match, 1 a mismatch, 2 missing.
    Check {
        /// Input scripts (RON).
        #[arg(required = true)]
        scripts: Vec<PathBuf>,
    },
    /// Run a script and print the final state summary.
    Run {
        /// Input script (RON).
        script: PathBuf,
        /// Print the summary as one JSON line.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let Some(command) = cli.command else { return play_default() };
    match command {
        #[cfg(feature = "client")]
        Command::Play(args) => undercooked::client::run(args),
        Command::Validate { paths } => {
            ExitCode::from(undercooked::level::cli::run_validate(&paths))
        }
        Command::Replay { action, levels, goldens } => {
            ExitCode::from(run_replay(action, &ReplayPaths { levels, goldens }))
        }
        Command::Bench { what } => ExitCode::from(undercooked::bench::run(what)),
    }
}

/// No subcommand: the game window where there is one, otherwise the usage.
fn play_default() -> ExitCode {
    #[cfg(feature = "client")]
    return undercooked::client::run(undercooked::client::PlayArgs::default());
    #[cfg(not(feature = "client"))]
    {
        use clap::CommandFactory;
        let _ = Cli::command().print_help();
        ExitCode::from(2)
    }
}

/// Runs one replay command; the worst outcome decides the exit code (2 > 1 > 0).
fn run_replay(action: ReplayAction, paths: &ReplayPaths) -> u8 {
    let fail = |e: replay_cli::ReplayError| {
        eprintln!("error: {e}");
        2
    };
    match action {
        ReplayAction::Record { scripts } => scripts
            .iter()
            .map(|s| {
                replay_cli::record(s, paths)
                    .map(|line| println!("{line}"))
                    .map_or_else(fail, |()| 0)
            })
            .max()
            .unwrap_or(0),
        ReplayAction::Check { scripts } => scripts
            .iter()
            .map(|s| match replay_cli::check(s, paths) {
                Ok(outcome) => replay_cli::report_check(s, &outcome),
                Err(e) => fail(e),
            })
            .max()
            .unwrap_or(0),
        ReplayAction::Run { script, json } => match replay_cli::run_summary(&script, paths) {
            Ok((summary, payload)) if json => {
                println!("{summary}");
                println!("{payload}");
                0
            }
            Ok((summary, payload)) => {
                println!("{}", serde_json::to_string_pretty(&summary).unwrap_or_default());
                println!("{}", serde_json::to_string_pretty(&payload).unwrap_or_default());
                0
            }
            Err(e) => fail(e),
        },
    }
}
