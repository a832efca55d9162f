//! The headless dedicated server: the app (sim + projection + replicon/renet netcode + rooms +
//! HTTP, with [`crate::net::server::connections`] seating and serving each connection), and the threads
//! that run its worlds (one or `--shards N`, each supervised: a panicking frame rebuilds it).

use crate::clock::{TICK, TickClockPlugin};
use crate::level::{Offered, Trust, load_published};
use crate::net::RoomKey;
use crate::net::server::bots::{BotsFill, BotsFillPolicy, ServerBotsPlugin};
use crate::net::server::connections::ServerNetPlugin;
use crate::net::server::daily::DailyKitchen;
use crate::net::server::host::{HostAddrs, ServerKey, Shutdown};
use crate::net::server::http::{HttpPlugin, start_http};
pub use crate::net::server::peer::{Peer, Refused};
use crate::net::server::records::{BundleWriter, ResultsLog, Source};
use crate::net::server::rooms::{HostLevels, RoomPolicy, RoomsPlugin, abort_all};
use crate::net::server::versus_levels::load_versus;
use crate::net::wire::error::NetError;
use crate::net::wire::tokens::{PROTOCOL_ID, load_or_create_key};
use crate::project::ProjectionPlugin;
use crate::protocol::ProtocolPlugin;
use crate::sim::SimPlugin;
use bevy::app::ScheduleRunnerPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use bevy_replicon::prelude::*;
use bevy_replicon_renet::netcode::{ServerAuthentication, ServerConfig};
use bevy_replicon_renet::{RenetServer, RepliconRenetPlugins};
use std::net::{IpAddr, SocketAddr, UdpSocket};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The idle loop's period: the app wakes this often to read sockets; ticks still run at 20 Hz
/// on the fixed clock. 10 ms keeps input latency well under a tick without spinning a core.
pub const LOOP_PERIOD: Duration = Duration::from_millis(10);

/// Everything `undercooked --headless` is told on the command line.
#[derive(Clone, Debug)]
pub struct HostConfig {
    pub bind: IpAddr,
    /// UDP (netcode); 0 picks a free port.
    pub port: u16,
    /// HTTP; 0 picks a free port.
    pub web_port: u16,
    pub levels: PathBuf,
    /// `--versus-levels`: the versus kitchens' folder, under the same trust rule as `levels`.
    pub versus_levels: PathBuf,
    pub data_dir: PathBuf,
    pub max_rooms: usize,
    /// Addresses players reach the UDP port at (put into tokens). Empty: the bind address, or
    /// 127.0.0.1 when bound to an unspecified address.
    pub public: Vec<SocketAddr>,
    pub empty_timeout: Duration,
    /// `--bots-fill`: top each round up with planner bots (None: players only).
    pub bots_fill: Option<BotsFill>,
    /// Server worlds behind the one web port (each its own UDP port, `port + i`): replicon
    /// pairs every replicated entity with every client each tick, so one world's send cost
    /// grows with the square of its rooms; shards keep it linear (docs/PERFORMANCE.md).
    pub shards: usize,
    /// The web port's static root, WebSocket relay limits and allowed origins.
    pub web: crate::net::server::web::WebConfig,
    /// `--drain-seconds`: a signal drains for at most this long before the shutdown
    /// (`net::server::drain`); None: a signal shuts down at once.
    pub drain: Option<Duration>,
    /// `--designer`: run unpublished level files and edits (not only what the index trusts).
    pub designer: bool,
    /// `--agones`: the slots each world beats for the Agones link (`net::server::agones`).
    #[cfg(feature = "agones")]
    pub agones: Option<crate::net::server::agones::Pulses>,
    /// Which day's generated kitchen is offered as `daily` (`net::server::daily`).
    pub daily: crate::net::server::daily::DailyDays,
}

impl HostConfig {
    /// A host on 127.0.0.1 with ephemeral ports, the shipped levels, 16 rooms, players only
    /// and the default web port: what tests, the fuzzer and embedders start from (override
    /// fields with `..HostConfig::loopback(dir)`).
    pub fn loopback(data_dir: PathBuf) -> HostConfig {
        HostConfig {
            bind: [127, 0, 0, 1].into(),
            port: 0,
            web_port: 0,
            levels: PathBuf::from("levels"),
            versus_levels: PathBuf::from(crate::bot::prove::VERSUS_LEVELS_DIR),
            data_dir,
            max_rooms: 16,
            public: Vec::new(),
            empty_timeout: Duration::from_secs(60),
            bots_fill: None,
            shards: 1,
            web: Default::default(),
            drain: None,
            designer: false,
            #[cfg(feature = "agones")]
            agones: None,
            daily: crate::net::server::daily::DailyDays::Off,
        }
    }
}

/// Builds the whole server app, with its sockets bound (so the caller can read [`HostAddrs`]).
pub fn build_server(cfg: &HostConfig) -> Result<App, NetError> {
    build_server_with(cfg, None, Metered::default())
}

/// Which shard a world is and the process-wide metrics it publishes into.
#[derive(Clone, Default)]
pub struct Metered {
    pub shard: u32,
    pub metrics: crate::net::server::metrics::HostMetrics,
}

/// [`build_server`], or with `web` = (its inbox, the router's address) one shard of a sharded
/// host, whose web port is served by [`crate::net::server::web::start_router`].
pub fn build_server_with(
    cfg: &HostConfig,
    web: Option<(std::sync::mpsc::Receiver<crate::net::server::http::ApiCall>, SocketAddr)>,
    metered: Metered,
) -> Result<App, NetError> {
    let (book, book_text) =
        crate::replay::cli::recipe_book_source().map_err(|e| NetError::Levels(e.to_string()))?;
    let trust = if cfg.designer { Trust::Designer } else { Trust::Published };
    let offered = load_published(&cfg.levels, &book, trust)
        .map_err(|e| NetError::Levels(format!("levels {}: {e}", cfg.levels.display())))?;
    let mut notes = offered_notes(cfg, &offered);
    // A co-op room plays co-op kitchens: one with teams belongs in the versus folder.
    let (levels, misplaced): (Vec<_>, Vec<_>) =
        offered.levels.into_iter().partition(|l| l.teams.is_none());
    notes.refused.extend(
        misplaced
            .iter()
            .map(|l| format!("level refused: `{}` has teams: serve it with --versus-levels", l.id)),
    );
    if levels.is_empty() {
        return Err(NetError::Levels(format!("no playable levels in {}", cfg.levels.display())));
    }
    let ids: Vec<String> = levels.iter().map(|l| l.id.clone()).collect();
    let versus = load_versus(&cfg.versus_levels, &book, trust, &ids);
    notes.refused.extend(versus.refused);
    notes.said.extend(versus.said);
    let sources: std::collections::HashMap<String, Source> = offered
        .sources
        .into_iter()
        .filter(|(id, _)| ids.contains(id))
        .chain(versus.sources)
        .map(|(id, text)| (id, Source::new(text)))
        .collect();
    let mut bundles =
        BundleWriter::start(cfg.data_dir.join("bundles"), sources, Source::new(book_text));
    let mut levels = HostLevels {
        levels: levels.into_iter().map(Arc::new).collect(),
        versus: versus.levels.into_iter().map(Arc::new).collect(),
        book: Arc::new(book),
    };
    // A day whose kitchen cannot be drawn leaves the host without one, not down.
    let daily = match cfg.daily.today().map(|date| DailyKitchen::draw(date, &levels.book)) {
        Some(Ok(daily)) => {
            let (date, id) = (daily.date, &daily.level.id);
            notes.said.push(format!("daily kitchen {date}: `{id}`, offered as level `daily`"));
            Some(daily)
        }
        Some(Err(e)) => {
            notes.refused.push(e);
            None
        }
        None => None,
    };
    if let Some(daily) = &daily {
        crate::net::server::daily::offer(&mut levels, &mut bundles, daily, None);
    }
    let key = load_or_create_key(&cfg.data_dir).map_err(NetError::io("data dir"))?;
    let results = ResultsLog::open(cfg.data_dir.join("results.jsonl"))
        .map_err(NetError::io("results.jsonl"))?;

    let mut app = App::new();
    #[cfg(feature = "agones")]
    if let Some(pulses) = &cfg.agones {
        let (pulses, shard) = (pulses.clone(), metered.shard as usize);
        app.add_plugins(crate::net::server::agones::PulsePlugin { pulses, shard });
    }
    app.insert_resource(metered.metrics)
        .insert_resource(crate::net::server::metrics::ShardIndex(metered.shard));
    app.add_plugins((
        MinimalPlugins
            .set(ScheduleRunnerPlugin::run_loop(LOOP_PERIOD))
            .set(crate::clock::sim_task_pools()),
        StatesPlugin,
        TickClockPlugin,
        SimPlugin,
        ProjectionPlugin,
        RepliconPlugins,
        RepliconRenetPlugins,
        ProtocolPlugin,
    ));
    app.add_visibility_filter::<RoomKey>();
    app.add_plugins((
        ServerNetPlugin,
        RoomsPlugin,
        crate::net::server::tandem_round::TandemRoundsPlugin,
        HttpPlugin,
        ServerBotsPlugin,
        crate::net::server::ticktime::TickTimePlugin,
        crate::net::server::udp::HostTransportPlugin,
        crate::net::server::gate::AuthDeadlinePlugin,
        crate::net::server::metrics::MetricsPlugin,
    ));
    // Hot reload: rounds start from the watcher's library, so an edit reaches a room at its
    // next round and never touches a live one.
    let recipes = std::env::var_os(crate::level::cli::RECIPES_ENV)
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::level::cli::RECIPES_PATH.into());
    app.insert_resource(crate::level::LevelWatchConfig {
        levels_dir: cfg.levels.clone(),
        recipes: Some(recipes),
        poll_every: crate::level::watch::POLL_EVERY,
    });
    if !cfg.designer {
        app.insert_resource(crate::level::TrustPublished);
    }
    app.insert_resource(notes);
    app.add_plugins((crate::level::LevelWatchPlugin, crate::net::server::offered::OfferedPlugin));
    if let Some(fill) = cfg.bots_fill {
        app.insert_resource(BotsFillPolicy(fill));
    }

    let socket = UdpSocket::bind((cfg.bind, cfg.port))
        .map_err(|source| NetError::Bind { what: "udp bind".into(), source })?;
    let udp = socket.local_addr()?;
    let public = if !cfg.public.is_empty() {
        cfg.public.clone()
    } else if cfg.bind.is_unspecified() {
        vec![SocketAddr::new(IpAddr::from([127, 0, 0, 1]), udp.port())]
    } else {
        vec![udp]
    };
    let channels = app.world().resource::<RepliconChannels>();
    let server = RenetServer::new(crate::net::wire::channels::connection_config(channels));
    let transport = crate::net::server::udp::HostTransport::new(
        ServerConfig {
            current_time: crate::net::wire::tokens::unix_now(),
            max_clients: client_cap(cfg.max_rooms),
            protocol_id: PROTOCOL_ID,
            public_addresses: public.clone(),
            authentication: ServerAuthentication::Secure { private_key: key },
        },
        socket,
    )
    .map_err(|e| NetError::Netcode(e.to_string()))?;
    let web = match web {
        Some((inbox, addr)) => {
            crate::net::server::http::attach_inbox(&mut app, inbox);
            addr
        }
        None => {
            // A page from any address tokens name is this host's own origin.
            let web = cfg.web.clone().with_public(&public);
            start_http(&mut app, SocketAddr::new(cfg.bind, cfg.web_port), udp, web)?
        }
    };

    app.insert_resource(server)
        .insert_resource(transport)
        .insert_resource(ServerKey(key))
        .insert_resource(results)
        .insert_resource(bundles)
        .insert_resource(Shutdown::default())
        .insert_resource(cfg.web.draining.clone())
        .insert_resource(HostAddrs { udp, web, public })
        .insert_resource(levels)
        .insert_resource(RoomPolicy {
            max_rooms: cfg.max_rooms,
            empty_timeout: cfg.empty_timeout,
            tandem_wall_limit: crate::net::server::rooms::TANDEM_WALL_LIMIT,
        });
    if let Some(daily) = daily {
        app.insert_resource(daily);
    }
    app.add_plugins(crate::net::server::daily::DailyPlugin(cfg.daily));
    crate::clock::run_schedules_single_threaded(&mut app);
    Ok(app)
}

/// The start-up warning of a server that listens on every interface while its connect tokens
/// name loopback only (no `--public`): a player on another machine is refused by netcode, and
/// nothing else would say why.
pub fn loopback_only_warning(cfg: &HostConfig, public: &[SocketAddr]) -> Option<String> {
    let loopback = public.iter().all(|a| a.ip().is_loopback());
    (cfg.public.is_empty() && cfg.bind.is_unspecified() && loopback).then(|| {
        format!(
            "WARNING: listening on every interface ({}), but connect tokens name only {public:?}: \
             players on other machines cannot join. Give the address they dial: --public ADDR \
             (e.g. --public 203.0.113.7:{})",
            cfg.bind,
            public.first().map_or(cfg.port, SocketAddr::port)
        )
    })
}

/// Netcode's client slots: every seat of every room, plus one per room for a seat's new
/// connection arriving before its old one is dropped (a reconnect takes the seat over), within
/// netcode's own maximum. A session that never passes replicon's protocol check is dropped
/// after [`crate::net::server::gate::AUTH_DEADLINE`], so a slot cannot be held by one.
pub fn client_cap(max_rooms: usize) -> usize {
    (max_rooms.max(1) * (crate::net::server::seats::MAX_SEATS + 1)).min(NETCODE_MAX_CLIENTS)
}

/// renetcode's own client-slot maximum (private to that crate).
const NETCODE_MAX_CLIENTS: usize = 1024;

/// What the host will run, said once its log is up (`OfferedPlugin` logs these at startup):
/// refused files by name (LEVEL_NOT_PUBLISHED with both hashes, or their validation errors), a
/// folder with no index, and designer mode.
fn offered_notes(cfg: &HostConfig, offered: &Offered) -> crate::net::server::offered::StartNotes {
    let mut notes = crate::net::server::offered::StartNotes {
        refused: offered.refused.iter().map(|e| format!("level refused: {e}")).collect(),
        said: Vec::new(),
    };
    if offered.index.is_none() {
        notes.said.push(format!(
            "levels: {} has no index.ron: serving its {} valid level(s) in file-name order, none \
             published (docs/LEVELS.md, \"What runs\")",
            cfg.levels.display(),
            offered.levels.len()
        ));
    }
    if cfg.designer {
        notes.said.push("designer: running unpublished level files and edits (--designer)".into());
    }
    notes
}

/// `undercooked --headless`: build, announce, run until a signal. Returns the exit code. One
/// world or N (`--shards`), each on a supervised thread (a panicking frame rebuilds its world
/// instead of ending the process) behind one web port.
pub fn run_headless(cfg: &HostConfig, log: crate::net::server::logs::LogFormat) -> u8 {
    run_sharded(cfg, log)
}

/// `--shards N`: N server worlds on their own threads (UDP `port + i`, rooms split evenly)
/// behind one web port whose router sends each API call to the right world.
fn run_sharded(cfg: &HostConfig, log: crate::net::server::logs::LogFormat) -> u8 {
    let n = cfg.shards.max(1);
    let (senders, inboxes): (Vec<_>, Vec<_>) = (0..n).map(|_| std::sync::mpsc::channel()).unzip();
    let (web, http) = match crate::net::server::web::start_router(
        SocketAddr::new(cfg.bind, cfg.web_port),
        senders,
        cfg.web.clone().with_public(&cfg.public),
    ) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let mut shards = Vec::new();
    let epoch = Instant::now();
    let metrics = crate::net::server::metrics::HostMetrics::default();
    for (i, inbox) in inboxes.into_iter().enumerate() {
        let mut shard = cfg.clone();
        shard.shards = 1;
        shard.port = if cfg.port == 0 { 0 } else { cfg.port.saturating_add(i as u16) };
        shard.public = cfg
            .public
            .iter()
            .map(|a| SocketAddr::new(a.ip(), a.port().saturating_add(i as u16)))
            .collect();
        shard.max_rooms = cfg.max_rooms.div_ceil(n).max(1);
        // Each shard ticks a share of a tick after the previous one: with every world ticking
        // on the same instant, 13 shards queued for the core and the last one's frame
        // measured the other twelve.
        // One frame per tick, not one per LOOP_PERIOD: the four frames between ticks only
        // received (inputs wait for their tick anyway), yet they were ~40 % of a 100-room
        // host's CPU and, on 13 shards' 10 ms grids, landed on other shards' tick frames.
        // A lone world keeps the 10 ms loop: nothing else queues for its core, and a frame
        // every LOOP_PERIOD reads inputs sooner.
        let period = if n == 1 { LOOP_PERIOD } else { TICK };
        let frames = Frames { grid: epoch + TICK * i as u32 / n as u32, period };
        // The log subscriber is global: install it once, with the first shard.
        let metered = Metered { shard: i as u32, metrics: metrics.clone() };
        match spawn_shard(shard, Some((inbox, web)), (i == 0).then_some(log), frames, metered) {
            Ok(h) => shards.push(h),
            Err(e) => {
                eprintln!("error: shard {i}: {e}");
                return 2;
            }
        }
    }
    let flags: Vec<Arc<AtomicBool>> = shards.iter().map(|h| h.shutdown.clone()).collect();
    let (drain, draining) = (cfg.drain, cfg.web.draining.clone());
    #[cfg(feature = "agones")]
    let on_agones_shutdown = {
        let (draining, flags) = (draining.clone(), flags.clone());
        move || crate::net::server::drain::on_signal(drain, &draining, &flags, true)
    };
    let signalled = AtomicBool::new(false);
    if let Err(e) = ctrlc::set_handler(move || {
        let first = !signalled.swap(true, Ordering::SeqCst);
        crate::net::server::drain::on_signal(drain, &draining, &flags, first);
    }) {
        eprintln!("error: signal handler: {e}");
        return 2;
    }
    let udp: Vec<SocketAddr> = shards.iter().map(|h| h.addrs.udp).collect();
    // The web port's relays lead to every shard; each settles on the one its token names.
    http.set_udp(&udp);
    let public: Vec<SocketAddr> = shards.iter().flat_map(|h| h.addrs.public.clone()).collect();
    match udp.as_slice() {
        [one] => {
            println!("undercooked server: udp {one} (tokens name {public:?}), web http://{web}")
        }
        all => {
            println!("undercooked server: udp {all:?} (tokens name {public:?}), web http://{web}")
        }
    }
    println!("players: undercooked join {web} --create --name NAME --headless");
    if let Some(warning) = loopback_only_warning(cfg, &public) {
        eprintln!("{warning}");
    }
    println!("results: {}", cfg.data_dir.join("results.jsonl").display());
    if cfg.web.board.is_some() {
        println!(
            "results board: http://{web}/api/board (entries in {})",
            cfg.data_dir.join("board.sqlite").display()
        );
    }
    // Levels loaded, every port bound: now the host may say Ready.
    #[cfg(feature = "agones")]
    let link = match &cfg.agones {
        Some(pulses) => {
            let stop = std::sync::Arc::new(on_agones_shutdown);
            match crate::net::server::agones::start_link(
                pulses,
                cfg.max_rooms,
                &cfg.web,
                &metrics,
                stop,
            ) {
                Ok(link) => Some(link),
                Err(e) => {
                    eprintln!("error: agones: {e}");
                    return 2;
                }
            }
        }
        None => None,
    };
    if let Some(bound) = cfg.drain {
        use crate::net::server::drain::{ShardWatch, drain_then_stop, live_rounds};
        let watch = ShardWatch {
            // A shard that does not answer (ended, or its frame panicked) holds no round to wait on.
            live: &|| shards.iter().filter_map(|h| h.try_with_world(live_rounds)).sum(),
            stopped: &|| shards.iter().all(|h| h.shutdown.load(Ordering::SeqCst) || h.ended()),
            stop: &|| shards.iter().for_each(|h| h.shutdown.store(true, Ordering::SeqCst)),
        };
        drain_then_stop(watch, &cfg.web.draining, bound);
    }
    for h in shards {
        h.wait();
    }
    #[cfg(feature = "agones")]
    if let Some(link) = link {
        link.finish();
    }
    drop(http);
    0
}

/// A world job sent to a running server thread.
type WorldJob = Box<dyn FnOnce(&mut World) + Send>;

/// A server running on its own thread in this process (tests, embedding): its addresses, a
/// way to run code against its world between frames, and its stop switch.
pub struct ServerHandle {
    pub addrs: HostAddrs,
    pub shutdown: Arc<AtomicBool>,
    jobs: std::sync::mpsc::Sender<WorldJob>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl ServerHandle {
    /// Runs `f` on the server's world between two frames and returns its answer.
    pub fn with_world<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut World) -> R + Send + 'static,
    ) -> R {
        self.try_with_world(f).expect("server thread answered")
    }

    /// [`ServerHandle::with_world`], or `None` when no answer came: the thread has ended, or
    /// `f` panicked (and the shard was rebuilt).
    pub fn try_with_world<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut World) -> R + Send + 'static,
    ) -> Option<R> {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        let job: WorldJob = Box::new(move |w| {
            let _ = tx.send(f(w));
        });
        self.jobs.send(job).ok()?;
        rx.recv().ok()
    }

    /// Whether the thread has ended.
    pub fn ended(&self) -> bool {
        self.thread.as_ref().is_none_or(|t| t.is_finished())
    }

    /// Waits for the thread to end (after a signal set [`ServerHandle::shutdown`]).
    pub fn wait(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    /// The clean shutdown (as on SIGTERM); waits for the thread.
    pub fn stop(mut self) {
        self.shutdown.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Starts a server on its own thread (the app is built there: a Bevy app is not `Send`).
pub fn spawn_server(cfg: HostConfig) -> Result<ServerHandle, NetError> {
    let frames = Frames { grid: Instant::now(), period: LOOP_PERIOD };
    spawn_shard(cfg, None, None, frames, Metered::default())
}

/// What a shard thread reports once its first world is built: its addresses and stop switch.
type Ready = Result<(HostAddrs, Arc<AtomicBool>), NetError>;

/// A shard thread: builds the world and runs its frames; when a frame panics (a bug anywhere
/// in the world's systems, networking included), the shard's live rounds are aborted and
/// recorded, the world is dropped and built again on the same ports, and the process goes on.
/// Only a rebuild that fails ends the thread (logged).
fn supervise_shard(
    mut cfg: HostConfig,
    mut web: Option<(std::sync::mpsc::Receiver<crate::net::server::http::ApiCall>, SocketAddr)>,
    mut log: Option<crate::net::server::logs::LogFormat>,
    frames: Frames,
    metered: Metered,
    ready: std::sync::mpsc::SyncSender<Ready>,
    jobs: std::sync::mpsc::Receiver<WorldJob>,
) {
    let web_addr = web.as_ref().map(|(_, a)| *a);
    let mut ready = Some(ready);
    let mut shutdown: Option<Arc<AtomicBool>> = None;
    loop {
        let mut app = match build_shard(&cfg, web.take(), &metered) {
            Ok(app) => app,
            Err(e) => {
                match ready.take() {
                    Some(tx) => drop(tx.send(Err(e))),
                    None => {
                        error!(shard = metered.shard, error = %e, "shard not rebuilt after a panic: it stays down")
                    }
                }
                return;
            }
        };
        // The log subscriber is global: installed with the first world only.
        if let Some(format) = log.take() {
            app.add_plugins(crate::net::server::logs::log_plugin(format));
        }
        // A rebuilt world keeps the first one's stop switch and ports (tokens name the UDP
        // port; clients and the router know the web port).
        match &shutdown {
            Some(flag) => drop(app.insert_resource(Shutdown(flag.clone()))),
            None => shutdown = Some(app.world().resource::<Shutdown>().0.clone()),
        }
        let addrs = app.world().resource::<HostAddrs>().clone();
        cfg.port = addrs.udp.port();
        if web_addr.is_none() {
            cfg.web_port = addrs.web.port();
        }
        if let Some(tx) = ready.take() {
            let _ = tx.send(Ok((addrs, shutdown.clone().unwrap_or_default())));
        }
        app.finish();
        app.cleanup();
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_frames(&mut app, &jobs, frames)
        }));
        let Err(panic) = ran else { return };
        let what = crate::caught::panic_message(panic.as_ref());
        error!(shard = metered.shard, panic = %what, "server frame panicked: rounds aborted and recorded, world rebuilt");
        metered.metrics.count_shard_panic(metered.shard);
        // The world's memory is whole after an unwind; only its schedules are not (the one
        // that panicked was taken out to run). Record what can be recorded, keep the web
        // inbox (the router's channel) for the next world, then let the old world go.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            abort_all(app.world_mut(), "fault: server panic");
        }));
        if let Some(addr) = web_addr {
            web = app
                .world_mut()
                .remove_resource::<crate::net::server::http::ApiInbox>()
                .map(|inbox| (inbox.into_receiver(), addr));
        }
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || drop(app)));
    }
}

/// [`build_server_with`], retried for a moment when a port is still held by the world just
/// dropped (its web listener's thread lets go asynchronously).
fn build_shard(
    cfg: &HostConfig,
    web: Option<(std::sync::mpsc::Receiver<crate::net::server::http::ApiCall>, SocketAddr)>,
    metered: &Metered,
) -> Result<App, NetError> {
    let Some((inbox, addr)) = web else {
        let mut tries = 0;
        loop {
            match build_server_with(cfg, None, metered.clone()) {
                Err(NetError::Bind { .. }) if tries < 50 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(100));
                }
                other => return other,
            }
        }
    };
    build_server_with(cfg, Some((inbox, addr)), metered.clone())
}

/// Runs a world's frames until it asks to exit. Frames on a grid, not "sleep what is left of
/// the period": the phase a shard starts with is the phase it keeps instead of drifting by each
/// sleep's overshoot. The clock reads the grid point, not the wake-up, so each frame is exactly
/// one period and every fifth one ticks, however late the thread woke.
fn run_frames(app: &mut App, jobs: &std::sync::mpsc::Receiver<WorldJob>, frames: Frames) {
    let mut next = frames.grid;
    while next < Instant::now() {
        next += TICK;
    }
    loop {
        std::thread::sleep(next.saturating_duration_since(Instant::now()));
        while let Ok(job) = jobs.try_recv() {
            job(app.world_mut());
        }
        app.insert_resource(TimeUpdateStrategy::ManualInstant(next));
        app.update();
        if app.should_exit().is_some() {
            return;
        }
        next += frames.period;
        // A frame that overran skips the grid points it missed (the clock catches up with the
        // ticks they held) rather than racing through them.
        let now = Instant::now();
        while next + frames.period < now {
            next += frames.period;
        }
    }
}

/// When a server thread runs its frames: at `grid` + k × `period` (`period` divides [`TICK`]),
/// its ticks at `grid` + k × [`TICK`].
#[derive(Clone, Copy, Debug)]
struct Frames {
    grid: Instant,
    period: Duration,
}

/// [`spawn_server`] for one shard of a sharded host (`web`: its inbox and the router's
/// address), optionally installing the log subscriber, with its frames at `frames`.
fn spawn_shard(
    cfg: HostConfig,
    web: Option<(std::sync::mpsc::Receiver<crate::net::server::http::ApiCall>, SocketAddr)>,
    log: Option<crate::net::server::logs::LogFormat>,
    frames: Frames,
    metered: Metered,
) -> Result<ServerHandle, NetError> {
    let (ready_tx, ready_rx) = std::sync::mpsc::sync_channel(1);
    let (jobs, job_rx) = std::sync::mpsc::channel::<WorldJob>();
    let thread = std::thread::Builder::new()
        .name("undercooked-server".into())
        .spawn(move || supervise_shard(cfg, web, log, frames, metered, ready_tx, job_rx))
        .map_err(|e| NetError::Thread(e.to_string()))?;
    let (addrs, shutdown) = ready_rx.recv().map_err(|e| NetError::Thread(e.to_string()))??;
    Ok(ServerHandle { addrs, shutdown, jobs, thread: Some(thread) })
}
