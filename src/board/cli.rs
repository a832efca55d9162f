//! `undercooked board submit|list|fetch`: a round's bundle to a host's board, a level's best
//! rounds, an entry's bundle. Exit 0 done, 1 refused by the board (its name printed), 2 a file
//! or host that could not be reached.

use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How long `submit` follows a queued submission's ticket.
const FOLLOW: Duration = Duration::from_secs(120);
/// Each request's own timeout, in seconds.
const REQUEST_SECS: u64 = 30;

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

/// What a board answered: status and body.
type Answer = (i32, Vec<u8>);

fn url(board: &str, path: &str) -> String {
    format!("{}{path}", board.trim_end_matches('/'))
}

fn get(board: &str, path: &str) -> Result<Answer, String> {
    let r = minreq::get(url(board, path))
        .with_timeout(REQUEST_SECS)
        .send()
        .map_err(|e| format!("{board}: {e}"))?;
    Ok((r.status_code, r.into_bytes()))
}

/// A refusal's `NAME: detail`, or the status and body when it is not one of ours.
fn refusal(status: i32, body: &[u8]) -> String {
    let v: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
    match (v["error"].as_str(), v["detail"].as_str()) {
        (Some(e), Some(d)) => format!("{e}: {d}"),
        _ => format!("HTTP {status}: {}", String::from_utf8_lossy(&body[..body.len().min(200)])),
    }
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
    let sent = minreq::post(url(board, "/api/board"))
        .with_header("Content-Type", "application/ron")
        .with_body(bytes)
        .with_timeout(REQUEST_SECS)
        .send();
    let (mut status, mut body) = match sent {
        Ok(r) => (r.status_code, r.into_bytes()),
        Err(e) => {
            eprintln!("error: {board}: {e}");
            return 2;
        }
    };
    let start = Instant::now();
    while status == 202 && start.elapsed() < FOLLOW {
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        let Some(ticket) = v["ticket"].as_u64() else { break };
        eprintln!("queued: ticket {ticket}");
        std::thread::sleep(Duration::from_secs(1));
        match get(board, &format!("/api/board/ticket/{ticket}")) {
            Ok(a) => (status, body) = a,
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        }
    }
    match status {
        200 => {
            print_entered(&serde_json::from_slice(&body).unwrap_or_default());
            0
        }
        202 => {
            eprintln!("still queued after {FOLLOW:?}: ask again with its ticket");
            2
        }
        _ => {
            println!("refused: {}", refusal(status, &body));
            1
        }
    }
}

/// `board list`.
fn list(board: &str, level: &str, team: u8, limit: usize, json: bool) -> u8 {
    let (status, body) =
        match get(board, &format!("/api/board?level={level}&team={team}&limit={limit}")) {
            Ok(a) => a,
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        };
    if status != 200 {
        println!("refused: {}", refusal(status, &body));
        return 1;
    }
    if json {
        println!("{}", String::from_utf8_lossy(&body));
        return 0;
    }
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
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
    let (status, body) = match get(board, &format!("/api/board/bundle/{id}")) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    if status != 200 {
        println!("refused: {}", refusal(status, &body));
        return 1;
    }
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
