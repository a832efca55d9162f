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
    /// Host: run the headless dedicated server (no window, render or audio).
    #[cfg(not(target_arch = "wasm32"))]
    #[arg(long)]
    headless: bool,
    #[cfg(not(target_arch = "wasm32"))]
    #[command(flatten)]
    host: HostArgs,
}

/// `undercooked --headless` options (docs/NETWORK.md).
#[cfg(not(target_arch = "wasm32"))]
#[derive(clap::Args)]
struct HostArgs {
    /// UDP port of the netcode server (0: any free port).
    #[arg(long, default_value_t = 7777)]
    port: u16,
    /// HTTP port of the web API (0: any free port).
    #[arg(long, default_value_t = 7780)]
    web_port: u16,
    /// Folder of level files the rooms offer: the levels its index.ron publishes (without one,
    /// every valid level, unpublished: docs/LEVELS.md, "What runs").
    #[arg(long, default_value = "levels")]
    levels: PathBuf,
    /// Folder of versus kitchens a versus room offers: the ones its index.ron publishes (written
    /// by `level publish`), by the same rule as --levels; a missing folder offers none.
    #[arg(long, default_value = "levels_versus")]
    versus_levels: PathBuf,
    /// Run unpublished level files and edits too (a designer's own host), not only what the
    /// index trusts by hash.
    #[arg(long)]
    designer: bool,
    /// Offer no daily kitchen (by default the host draws the UTC day's generated kitchen and
    /// offers it as level `daily`: docs/LEVELS.md, "The daily kitchen").
    #[arg(long)]
    no_daily: bool,
    /// Where results.jsonl and the server key live.
    #[arg(long, default_value = "data")]
    data_dir: PathBuf,
    /// Most rooms hosted at once.
    #[arg(long, default_value_t = 128)]
    max_rooms: usize,
    /// Address both ports bind to.
    #[arg(long, default_value = "0.0.0.0")]
    bind: std::net::IpAddr,
    /// UDP address players reach this server at, put into connect tokens (repeatable;
    /// default: the bind address, or 127.0.0.1 when binding every interface).
    #[arg(long = "public")]
    public: Vec<std::net::SocketAddr>,
    /// Seconds an empty room is kept before it is reclaimed.
    #[arg(long, default_value_t = 120)]
    empty_room_secs: u64,
    /// Fill empty seats with planner bots when a round starts: alone, up to the level's spawn
    /// count; `--bots-fill N`, up to N cooks in all (1-4). Players are never displaced.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "spawns")]
    bots_fill: Option<undercooked::net::server::bots::BotsFill>,
    /// Server worlds behind the one web port, each on its own UDP port (--port + i) with
    /// --max-rooms split between them: for big hosts (docs/PERFORMANCE.md, capacity).
    #[arg(long, default_value_t = 1)]
    shards: usize,
    /// Folder of the browser build served at `/` on the web port (`web/build.sh` writes it).
    #[arg(long, default_value = "web/dist")]
    web_root: PathBuf,
    /// Most WebSocket relays (browser connections) open at once.
    #[arg(long, default_value_t = 256)]
    max_relays: usize,
    /// Most WebSocket relays open at once from one IP address (0: no limit), so one address
    /// cannot hold every relay and lock browser players out.
    #[arg(long, default_value_t = 8)]
    relays_per_address: usize,
    /// Seconds a relay stays open without a netcode session running through it (from the
    /// upgrade on, and after the session ends): WebSocket pings alone keep no relay open.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=600))]
    relay_session_secs: u64,
    /// An Origin (`https://play.example`) allowed to call the API and open a WebSocket besides
    /// this host's own names on the web port: localhost, the bind address, each --public host
    /// (repeatable).
    #[arg(long = "allow-origin")]
    allow_origin: Vec<String>,
    /// Log lines on stderr: `text` (key=value) or `json` (one object per line).
    #[arg(long, value_enum, default_value_t = undercooked::net::server::logs::LogFormat::Text)]
    log_format: undercooked::net::server::logs::LogFormat,
    /// Most connections open on the web port at once; the next is closed at accept.
    #[arg(long, default_value_t = 4096)]
    max_connections: usize,
    /// Most web-port connections open at once from one IP address; the next is closed at accept.
    #[arg(long, default_value_t = 64)]
    max_connections_per_address: usize,
    /// Most live rooms created from one IP address (0: no limit); over it, 429.
    #[arg(long, default_value_t = 4)]
    rooms_per_address: usize,
    /// Rooms one IP address may create per minute, also its burst (0: no limit); over it, 429.
    #[arg(long, default_value_t = 4)]
    rooms_per_minute: u32,
    /// Heartbeat to this directory (`http://HOST:PORT`, `undercooked directory`): it lists
    /// this server and its public rooms, and resolves its room codes.
    #[arg(long, value_name = "URL")]
    announce: Option<String>,
    /// This server's name in the directory.
    #[arg(long, default_value = "Undercooked server", requires = "announce")]
    name: String,
    /// This server's region in the directory (free text: `eu-west`, `home`).
    #[arg(long, default_value = "unknown", requires = "announce")]
    region: String,
    /// The directory's fleet secret, for a directory's operator's own servers.
    #[arg(long, requires = "announce")]
    fleet_secret: Option<String>,
    /// Where players reach the web port, as announced (IP:PORT; default: the bound address,
    /// or 127.0.0.1 when binding every interface).
    #[arg(long, requires = "announce")]
    public_web: Option<std::net::SocketAddr>,
    /// Seconds between heartbeats.
    #[arg(long, default_value_t = 5, requires = "announce", value_parser = clap::value_parser!(u64).range(1..=60))]
    announce_secs: u64,
    /// On SIGTERM/SIGINT, drain: take no new rooms or joins, leave the directory's offers, let
    /// rounds in play finish for up to this many seconds, then stop (exit 0). Without it a
    /// signal stops at once (live rounds end `shutdown`). A second signal stops at once.
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=86_400))]
    drain_seconds: Option<u64>,
    /// Run as an Agones game server (builds with the `agones` feature): Ready once up, health
    /// pings from the worlds' ticks, rooms as the `rooms` List and `players` Counter, an Agones
    /// shutdown drains (default 300 s without --drain-seconds), then Shutdown. The SDK sidecar
    /// is found at AGONES_SDK_GRPC_HOST/AGONES_SDK_GRPC_PORT (docs/HOSTING.md, "An Agones fleet").
    #[arg(long)]
    agones: bool,
    /// Serve the results board on the web port (`/api/board`): submitted bundles of published
    /// levels and the daily kitchen are replayed off the tick threads and the verified rounds
    /// kept in DATA_DIR/board.sqlite (docs/NETWORK.md, "The results board").
    #[arg(long)]
    board: bool,
    /// Bundles one IP address may submit to the board per minute, also its burst (0: no
    /// limit); over it, 429 `TOO_MANY`.
    #[arg(long, default_value_t = 6, requires = "board")]
    board_per_minute: u32,
}

#[derive(Subcommand)]
enum Command {
    /// Open the game window: the title screen, or `--level` straight into a kitchen.
    #[cfg(feature = "client")]
    Play(undercooked::client::args::PlayArgs),
    /// The kitchen workshop: edit a level file in the window (`--new WxH` for a new kitchen);
    /// the validator on every change, undo and redo, save, Playtest (docs/LEVELS.md, "The editor").
    #[cfg(all(feature = "client", not(target_arch = "wasm32")))]
    Edit(undercooked::client::editor::open::EditArgs),
    /// Validate level files (files or folders; default `levels/`). Exit 0 valid, 1 invalid, 2 unreadable.
    Validate {
        /// Level files or folders of levels.
        paths: Vec<std::path::PathBuf>,
    },
    /// Level tools: `level generate` draws a kitchen from a seed, `level publish` proves one
    /// and writes its hashed entry into index.ron.
    Level {
        #[command(subcommand)]
        what: undercooked::bot::level_cli::LevelCommand,
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
    /// Measure (release build): `bench sim` steps rooms of random cooks (`--mode tandem`: the
    /// couch), `bench net` plays a room of clients through a simulated bad link, `bench
    /// compare` measures this change against its parent, `bench directory` times a directory's
    /// lookups and heartbeats.
    Bench {
        #[command(subcommand)]
        what: undercooked::bench::BenchCommand,
    },
    /// Join a hosted room: the game window on it, or (`--headless`) the network test client
    /// and load generator.
    #[cfg(not(target_arch = "wasm32"))]
    Join {
        #[command(flatten)]
        args: undercooked::net::tools::loadgen::JoinArgs,
        /// No window: the headless client (scripted inputs, `--stats`, `--clients`). Without it
        /// the game window opens on the room (client builds).
        #[arg(long)]
        headless: bool,
        /// Players at this window (couch co-op online), each in a seat of their own with a
        /// keyboard half or a gamepad, all on one connection (the window only).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=undercooked::sim::units::MAX_COOKS as i64))]
        players: u8,
        /// The window's local players play themselves (`random`: seeded sticks and presses),
        /// for automated looking and tests (the window only).
        #[cfg(feature = "client")]
        #[arg(long, value_enum)]
        autoplay: Option<undercooked::client::args::Autoplay>,
        /// Save a screenshot of the window here once the room's round reaches `--after-ticks`,
        /// and exit 0 (the window only: for looking at an online round, and its tests).
        #[cfg(feature = "client")]
        #[arg(long)]
        screenshot: Option<std::path::PathBuf>,
        /// The room tick of `--screenshot`.
        #[cfg(feature = "client")]
        #[arg(long, default_value_t = 60, requires = "screenshot")]
        after_ticks: u32,
    },
    /// Bot cooks: `bot prove` plays levels with a bot team to show they can be won.
    Bot {
        #[command(subcommand)]
        what: undercooked::bot::prove::BotCommand,
    },
    /// Step every campaign level for many ticks with seeded cooks, checking every invariant
    /// every tick. Exit 0 clean, 1 a law broke (level, seed, tick printed), 2 unreadable levels.
    Soak(undercooked::soak::SoakArgs),
    /// Feed seeded mutations of real packets, requests and files to the network stack and the
    /// loaders. Exit 0 no panic, 1 a panic (seed and input printed), 2 a target failed to start.
    #[cfg(not(target_arch = "wasm32"))]
    Fuzz(undercooked::fuzz::runner::FuzzArgs),
    /// Impair traffic to a server by hand: a UDP or TCP proxy adding delay, jitter, loss,
    /// reordering and duplication, printing its counters every second.
    #[cfg(not(target_arch = "wasm32"))]
    Netem(undercooked::net::tools::impair::cli::NetemArgs),
    /// The directory: lists announcing game servers and their public rooms, and resolves room
    /// codes to the server holding them (in this process, or shared through `--redis URL`).
    #[cfg(not(target_arch = "wasm32"))]
    Directory(undercooked::directory::cli::DirectoryArgs),
    /// The results board: `board submit BUNDLE --board URL` sends a round's bundle to a host
    /// that replays it before entering it; `board list` a level's best rounds; `board fetch`
    /// an entry's bundle.
    #[cfg(not(target_arch = "wasm32"))]
    Board {
        #[command(subcommand)]
        what: undercooked::board::cli::BoardCommand,
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
    /// Run scripts and compare with their goldens, or re-run played rounds' bundles
    /// (DATA_DIR/bundles/*.ron; Tandem's *.tandem-bundle.ron). Exit 0 all match, 1 a mismatch,
    /// 2 missing or invalid.
    Check {
        /// Input scripts or replay bundles (RON).
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

/// In the browser there is no command line: the page's address says what to do
/// (`client::web`). True when the browser client was started.
#[cfg(all(target_arch = "wasm32", feature = "client"))]
fn browser_start() -> bool {
    undercooked::client::web::run();
    true
}

#[cfg(not(all(target_arch = "wasm32", feature = "client")))]
fn browser_start() -> bool {
    false
}

fn main() -> ExitCode {
    if browser_start() {
        return ExitCode::SUCCESS;
    }
    let cli = Cli::parse();
    let Some(command) = cli.command else {
        #[cfg(not(target_arch = "wasm32"))]
        if cli.headless {
            return ExitCode::from(run_host(cli.host));
        }
        return play_default();
    };
    match command {
        #[cfg(feature = "client")]
        Command::Play(args) => undercooked::client::app::run(args),
        #[cfg(all(feature = "client", not(target_arch = "wasm32")))]
        Command::Edit(args) => undercooked::client::app::run_editor(args),
        Command::Validate { paths } => {
            ExitCode::from(undercooked::level::cli::run_validate(&paths))
        }
        Command::Level { what } => ExitCode::from(undercooked::bot::level_cli::run(what)),
        Command::Replay { action, levels, goldens } => {
            ExitCode::from(run_replay(action, &ReplayPaths { levels, goldens }))
        }
        Command::Bench { what } => ExitCode::from(undercooked::bench::run(what)),
        #[cfg(not(target_arch = "wasm32"))]
        Command::Join {
            mut args,
            headless,
            players,
            #[cfg(feature = "client")]
            autoplay,
            #[cfg(feature = "client")]
            screenshot,
            #[cfg(feature = "client")]
            after_ticks,
        } => {
            // A directory's join link names the directory and the room:
            // `join http://DIRECTORY/join/CODE` is `join --directory DIRECTORY --room CODE`.
            if args.room.is_none()
                && !args.create
                && let Some((directory, code)) =
                    undercooked::net::wire::directory::parse_directory_link(&args.web)
            {
                args.web = String::new();
                args.directory = Some(directory);
                args.room = Some(code);
            }
            // A join link names the room: `join http://HOST:PORT/?room=CODE` needs no --room.
            if args.room.is_none()
                && !args.create
                && let Some((web, code)) = undercooked::net::client::api::parse_join_link(&args.web)
            {
                args.web = web;
                args.room = Some(code);
            }
            if args.quick {
                // Quick match needs as many seats as this process takes: the window's local
                // players, or the headless client's connections (`--players N` asks N).
                if headless && players > 1 && !args.quick {
                    args.clients = usize::from(players);
                }
                let seats = if headless { args.clients.clamp(1, 4) as u8 } else { players };
                if let Err(code) = quick_match(&mut args, seats) {
                    return ExitCode::from(code);
                }
            }
            if args.room.is_none() && !args.create {
                eprintln!("error: give --room CODE, --create, --quick, or a join link");
                return ExitCode::from(2);
            }
            // A code alone: the directory says which server holds it.
            if let (Some(directory), Some(code)) = (&args.directory, &args.room) {
                match undercooked::net::client::directory::find_room(directory, code) {
                    Ok(found) => {
                        eprintln!("room {} is on {} ({})", found.code, found.server, found.address);
                        args.web = found.address;
                    }
                    Err(e) => {
                        eprintln!("error: directory {directory}: {e}");
                        return ExitCode::from(1);
                    }
                }
            }
            if args.web.is_empty() {
                eprintln!("error: give the server's HOST:PORT, a join link, or --directory URL");
                return ExitCode::from(2);
            }
            #[cfg(feature = "client")]
            if headless && screenshot.is_some() {
                eprintln!("error: --screenshot is the window's: leave out --headless");
                return ExitCode::from(2);
            }
            if headless && players > 1 && !args.quick {
                eprintln!(
                    "error: --players is the window's; the headless client holds one seat per \
                     connection (use --clients)"
                );
                return ExitCode::from(2);
            }
            if !headless {
                #[cfg(feature = "client")]
                return undercooked::client::online::join::run(
                    &args.web,
                    if args.create { None } else { args.room.as_deref() },
                    (&args.name, args.public),
                    args.level.as_deref(),
                    undercooked::client::args::PlayArgs {
                        players,
                        autoplay,
                        screenshot,
                        after_ticks,
                        ..Default::default()
                    },
                );
                #[cfg(not(feature = "client"))]
                {
                    eprintln!("error: this build has no window: use `join --headless`");
                    return ExitCode::from(2);
                }
            }
            ExitCode::from(undercooked::net::tools::loadgen::run_join(&args))
        }
        Command::Bot { what } => ExitCode::from(undercooked::bot::prove::run(what)),
        Command::Soak(args) => ExitCode::from(undercooked::soak::run(&args)),
        #[cfg(not(target_arch = "wasm32"))]
        Command::Fuzz(args) => ExitCode::from(undercooked::fuzz::runner::run(&args)),
        #[cfg(not(target_arch = "wasm32"))]
        Command::Netem(args) => ExitCode::from(undercooked::net::tools::impair::cli::run(&args)),
        #[cfg(not(target_arch = "wasm32"))]
        Command::Directory(args) => ExitCode::from(undercooked::directory::cli::run(&args)),
        #[cfg(not(target_arch = "wasm32"))]
        Command::Board { what } => ExitCode::from(undercooked::board::cli::run(&what)),
    }
}

/// Runs the headless dedicated server until SIGINT/SIGTERM.
#[cfg(not(target_arch = "wasm32"))]
fn run_host(h: HostArgs) -> u8 {
    #[cfg(not(feature = "agones"))]
    if h.agones {
        eprintln!(
            "error: --agones: this build has no Agones support (build with --features server,agones)"
        );
        return 2;
    }
    #[cfg(feature = "agones")]
    let agones = h.agones.then(|| undercooked::net::server::agones::Pulses::new(h.shards));
    // In a fleet, players dial the node and the host ports Agones allocated: ask the sidecar.
    #[cfg(feature = "agones")]
    let mut h = h;
    #[cfg(feature = "agones")]
    if h.agones && h.public.is_empty() {
        if h.shards > 1 {
            eprintln!(
                "error: --agones: a fleet's game server runs one world (Agones allocates one netcode port): drop --shards, or give --public"
            );
            return 2;
        }
        match undercooked::net::server::agones::address::fleet_addresses(None) {
            Ok(at) => {
                h.public = vec![at.netcode];
                h.public_web = h.public_web.or(Some(at.web));
            }
            Err(e) => {
                eprintln!("error: --agones: {e} (or give --public and --public-web)");
                return 2;
            }
        }
    }
    #[cfg(feature = "agones")]
    let drain = h
        .drain_seconds
        .map(std::time::Duration::from_secs)
        .or(h.agones.then_some(undercooked::net::server::agones::DEFAULT_DRAIN));
    #[cfg(not(feature = "agones"))]
    let drain = h.drain_seconds.map(std::time::Duration::from_secs);
    let board = match h.board.then(|| host_board(&h)).transpose() {
        Ok(board) => board,
        Err(e) => {
            eprintln!("error: --board: {e}");
            return 2;
        }
    };
    undercooked::net::server::worlds::run_headless(
        &undercooked::net::server::worlds::HostConfig {
            bind: h.bind,
            port: h.port,
            web_port: h.web_port,
            levels: h.levels,
            versus_levels: h.versus_levels,
            data_dir: h.data_dir,
            max_rooms: h.max_rooms,
            public: h.public,
            empty_timeout: std::time::Duration::from_secs(h.empty_room_secs),
            bots_fill: h.bots_fill,
            shards: h.shards,
            drain,
            daily: if h.no_daily {
                undercooked::net::server::daily::DailyDays::Off
            } else {
                undercooked::net::server::daily::DailyDays::WallClock
            },
            web: undercooked::net::server::web::WebConfig {
                root: h.web_root,
                max_relays: h.max_relays,
                relays_per_address: h.relays_per_address,
                relay_session: std::time::Duration::from_secs(h.relay_session_secs),
                origins: h.allow_origin,
                limits: undercooked::net::server::web::WebLimits {
                    max_connections: h.max_connections,
                    per_address: h.max_connections_per_address,
                    rooms_per_address: h.rooms_per_address,
                    room_burst: h.rooms_per_minute,
                    room_refill: std::time::Duration::from_secs(60) / h.rooms_per_minute.max(1),
                    ..Default::default()
                },
                announce: h.announce.map(|directory| {
                    undercooked::net::server::announce::AnnounceConfig {
                        directory,
                        name: h.name,
                        region: h.region,
                        fleet: h.fleet_secret,
                        address: h.public_web,
                        every: std::time::Duration::from_secs(h.announce_secs),
                        capacity: h.max_rooms,
                    }
                }),
                board,
                ..Default::default()
            },
            designer: h.designer,
            #[cfg(feature = "agones")]
            agones,
        },
        h.log_format,
    )
}

/// The game server's results board (`--board`): DATA_DIR/board.sqlite, ranking the levels
/// `--levels` publishes and (unless `--no-daily`) the daily kitchens.
#[cfg(not(target_arch = "wasm32"))]
fn host_board(
    h: &HostArgs,
) -> Result<std::sync::Arc<undercooked::net::server::web::board::BoardDoor>, String> {
    use undercooked::board::daily::DailyWindow;
    use undercooked::board::running::{Board, BoardConfig, BoardHome, BoardLimits};
    let board = Board::open(&BoardConfig {
        home: BoardHome::Sqlite(h.data_dir.join("board.sqlite")),
        levels: h.levels.clone(),
        daily: if h.no_daily { DailyWindow::Off } else { DailyWindow::WallClock },
        limits: BoardLimits { per_minute: h.board_per_minute, ..BoardLimits::default() },
    })?;
    Ok(undercooked::net::server::web::board::BoardDoor::new(board))
}

/// No subcommand: the game window where there is one, otherwise the usage.
fn play_default() -> ExitCode {
    #[cfg(feature = "client")]
    return undercooked::client::app::run(undercooked::client::args::PlayArgs::default());
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
                if undercooked::tandem::cli::is_tandem_script(s) {
                    return match undercooked::tandem::cli::record(s, &paths.goldens) {
                        Ok(line) => {
                            println!("{line}");
                            0
                        }
                        Err(e) => {
                            eprintln!("error: {e}");
                            2
                        }
                    };
                }
                replay_cli::record(s, paths)
                    .map(|line| println!("{line}"))
                    .map_or_else(fail, |()| 0)
            })
            .max()
            .unwrap_or(0),
        ReplayAction::Check { scripts } => scripts
            .iter()
            .map(|s| {
                // A played round's bundle carries its own level (or course) and golden.
                let text = std::fs::read_to_string(s).unwrap_or_default();
                if undercooked::tandem::bundle::looks_like_tandem_bundle(s, &text) {
                    return undercooked::tandem::cli::check_bundle_file(s);
                }
                if undercooked::replay::bundle::looks_like_bundle(&text) {
                    return undercooked::replay::bundle_read::check_bundle_file(s);
                }
                if undercooked::tandem::cli::is_tandem_script(s) {
                    return undercooked::tandem::cli::check_file(s, &paths.goldens);
                }
                match replay_cli::check(s, paths) {
                    Ok(outcome) => replay_cli::report_check(s, &outcome),
                    Err(e) => fail(e),
                }
            })
            .max()
            .unwrap_or(0),
        ReplayAction::Run { script, json }
            if undercooked::tandem::cli::is_tandem_script(&script) =>
        {
            match undercooked::tandem::cli::run_summary(&script) {
                Ok(summary) => {
                    let text = if json {
                        summary.to_string()
                    } else {
                        serde_json::to_string_pretty(&summary).unwrap_or_default()
                    };
                    println!("{text}");
                    0
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    2
                }
            }
        }
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

/// `join --directory URL --quick`: asks the directory and measures its servers, then points
/// `args` at the room picked (`--room CODE` on its server) or at a new public room there
/// (`--create --public`), so the join goes on as a join by code or a create does. Err: the
/// exit code (1, said on stderr).
#[cfg(not(target_arch = "wasm32"))]
fn quick_match(args: &mut undercooked::net::tools::loadgen::JoinArgs, seats: u8) -> Result<(), u8> {
    use undercooked::net::client::quick::{QuickPick, find};
    let directory = args.directory.take().unwrap_or_default();
    let pick = find(&directory, seats).map_err(|e| {
        eprintln!("error: quick match through {directory}: {e}");
        1
    })?;
    args.web = pick.address().to_string();
    match pick {
        QuickPick::Join { server, code, in_play, .. } => {
            let watch = if in_play { " (in play: watching until its next round)" } else { "" };
            eprintln!("quick match: room {code} on {server} ({}){watch}", args.web);
            args.room = Some(code);
        }
        QuickPick::Create { server, .. } => {
            eprintln!(
                "quick match: no public room has {seats} free seats; a new public room on {server} ({})",
                args.web
            );
            args.create = true;
            args.public = true;
        }
    }
    Ok(())
}
