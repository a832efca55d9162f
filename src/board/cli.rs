//! `undercooked board submit|list|fetch`: a round's bundle to a host's board, a level's best
//! rounds, an entry's bundle. Exit 0 done, 1 refused by the board (its name printed), 2 a file
//! or host that could not be reached.

use super::client::{FOLLOW, ReadFailed, Submitted, fetch_bundle, list_entries, submit_bundle};
use std::path::PathBuf;

/// `undercooked board …`.
#[derive(clap::Subcommand, Clone, Debug)]
pub enum BoardCommand {
    /// Submit a round's bundle (DATA_DIR/bundles/*.ron) to a board; it enters only if the host's
    /// own replay confirms it.
    Submit {
        bundle: PathBuf,
        /// The host: a game server's web port or a directory (`http://HOST:PORT`).
        #[arg(long, value_name = "URL")]
        board: String,
    },
    /// A level's best verified rounds for one team size.
    List {
        #[arg(long, value_name = "URL")]
        board: String,
        /// A published level's id or hash.
        #[arg(long)]
        level: String,
        /// Cooks in the team (1-4).
        #[arg(long, default_value_t = 1)]
        team: u8,
        #[arg(long, default_value_t = 10)]
        limit: usize,
        /// The answer as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Download an entry's bundle (then `replay check FILE`, or watch it).
    Fetch {
        id: u64,
        #[arg(long, value_name = "URL")]
        board: String,
        /// Where to write it (default `board-ID.ron`).
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

fn print_entered(v: &serde_json::Value) {
    let e = &v["entry"];
    let kept = if v["kept"].as_bool() == Some(false) {
        " (below the kept places: not stored)"
    } else {
        ""
    };
    println!(
        "entered: rank {} on `{}` for {} cook(s), score {} in {} ticks, entry {}{kept}",
        v["rank"],
        e["level_id"].as_str().unwrap_or("?"),
        e["team"],
        e["score"],
        e["ticks"],
        e["id"]
    );
}

/// `board submit`.
fn submit(bundle: &PathBuf, board: &str) -> u8 {
    let bytes = match std::fs::read(bundle) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {}: {e}", bundle.display());
            return 2;
        }
    };
    match submit_bundle(board, bytes, |ticket| eprintln!("queued: ticket {ticket}")) {
        Submitted::Entered(v) => {
            print_entered(&v);
            0
        }
        Submitted::Queued(ticket) => {
            eprintln!("still queued after {FOLLOW:?}: ask again with its ticket ({ticket})");
            2
        }
        Submitted::Refused(why) => {
            println!("refused: {why}");
            1
        }
        Submitted::Unreachable(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// A failed read: a board's refusal (exit 1) or a host not reached (exit 2).
fn say_failed(e: &ReadFailed) -> u8 {
    match e {
        ReadFailed::Refused(_) => {
            println!("{e}");
            1
        }
        ReadFailed::Unreachable(_) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// `board list`.
fn list(board: &str, level: &str, team: u8, limit: usize, json: bool) -> u8 {
    let v = match list_entries(board, level, team, limit) {
        Ok(v) => v,
        Err(e) => return say_failed(&e),
    };
    if json {
        println!("{v}");
        return 0;
    }
    println!("`{level}` ({}), {team} cook(s):", v["level_hash"].as_str().unwrap_or("?"));
    for (i, e) in v["entries"].as_array().into_iter().flatten().enumerate() {
        let names: Vec<&str> =
            e["names"].as_array().into_iter().flatten().filter_map(|n| n.as_str()).collect();
        println!(
            "{:>3}. {:>6}  {:>5} ticks  entry {:<6} {}",
            i + 1,
            e["score"],
            e["ticks"],
            e["id"],
            names.join(", ")
        );
    }
    0
}

/// `board fetch`.
fn fetch(id: u64, board: &str, out: Option<PathBuf>) -> u8 {
    let body = match fetch_bundle(board, id) {
        Ok(b) => b,
        Err(e) => return say_failed(&e),
    };
    let out = out.unwrap_or_else(|| PathBuf::from(format!("board-{id}.ron")));
    match std::fs::write(&out, &body) {
        Ok(()) => {
            println!("{}: entry {id}, {} bytes", out.display(), body.len());
            0
        }
        Err(e) => {
            eprintln!("error: {}: {e}", out.display());
            2
        }
    }
}

/// Runs a board command; the exit code.
pub fn run(cmd: &BoardCommand) -> u8 {
    match cmd {
        BoardCommand::Submit { bundle, board } => submit(bundle, board),
        BoardCommand::List { board, level, team, limit, json } => {
            list(board, level, *team, *limit, *json)
        }
        BoardCommand::Fetch { id, board, out } => fetch(*id, board, out.clone()),
    }
}
