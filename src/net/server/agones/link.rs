//! The link to the Agones SDK sidecar: one thread with its own small runtime, started once the
//! levels are loaded and every port is bound (so its first word, `Ready`, is true), finished
//! after the drain (its last word, `Shutdown`). Every [`STEP`] it does what is still owed —
//! Ready, the GameServer's name, the protocol label, the List's and Counter's capacities — and
//! then what is owed every step: a health ping when every world ticked since the last step,
//! and the `rooms` List and `players` Counter brought up to the worlds' rooms. A call that fails
//! is logged (once per run of failures), counted (`agones_sdk_errors`) and owed again next step;
//! nothing here reaches a world, so no SDK trouble can end a round.

use super::load::{ListStep, list_steps};
use super::names::{PLAYERS_COUNTER, PROTOCOL_LABEL, ROOMS_LIST};
use super::pulse::Pulses;
use crate::net::server::metrics::HostMetrics;
use crate::net::server::web::config::GameServerName;
use crate::net::wire::error::NetError;
use agones::Sdk;
use bevy::log::{info, warn};
use std::collections::BTreeSet;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::{mpsc, watch};

/// How often the link looks at the worlds. Agones' default health check wants a ping every
/// 5 s (failing after 3 missed): a step of half a second pings well inside it.
pub const STEP: Duration = Duration::from_millis(500);
/// A call the sidecar does not answer in this long failed (a hung sidecar must not hold the link).
const CALL_TIMEOUT: Duration = Duration::from_secs(2);
/// Tries at the last word before the process exits anyway.
const SHUTDOWN_TRIES: u32 = 10;

/// What the link needs of the host.
pub struct LinkConfig {
    pub pulses: Pulses,
    /// The `rooms` List's capacity: the host's room cap.
    pub room_cap: usize,
    /// The `players` Counter's capacity: every seat of every room.
    pub seat_cap: usize,
    pub protocol: u64,
    /// Filled with the GameServer's name once the sidecar tells it (announces carry it).
    pub game_server: GameServerName,
    pub metrics: HostMetrics,
    /// What an Agones shutdown (the GameServer's state turning `Shutdown`) does: what the first
    /// SIGTERM does, the drain.
    pub on_shutdown: Arc<dyn Fn() + Send + Sync>,
    /// The sidecar's port on this host; None: `AGONES_SDK_GRPC_PORT` (what Agones sets).
    pub sidecar_port: Option<u16>,
    /// Counts the link's steps, for whoever watches it work (tests).
    pub steps: Arc<std::sync::atomic::AtomicU64>,
}

/// The running link.
pub struct Link {
    finish: watch::Sender<bool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Link {
    pub fn start(cfg: LinkConfig) -> Result<Link, NetError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(NetError::io("agones runtime"))?;
        let (finish, finishing) = watch::channel(false);
        let thread = std::thread::Builder::new()
            .name("undercooked-agones".into())
            .spawn(move || runtime.block_on(run(cfg, finishing)))
            .map_err(|e| NetError::Thread(e.to_string()))?;
        Ok(Link { finish, thread: Some(thread) })
    }

    /// The host has drained and stopped: says `Shutdown` (a few tries) and waits for the link.
    pub fn finish(mut self) {
        let _ = self.finish.send(true);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// What the sidecar has been told (None / false: still owed).
#[derive(Default)]
struct Told {
    ready: bool,
    named: bool,
    labelled: bool,
    capacities: bool,
    /// The `rooms` List as last known; None: read it again before changing it.
    rooms: Option<BTreeSet<String>>,
    players: Option<u64>,
}

/// Calls into the SDK with a timeout, logging the first failure of each kind of call (and its
/// recovery) and counting every one.
struct Calls {
    metrics: HostMetrics,
    failing: BTreeSet<&'static str>,
}

impl Calls {
    async fn call<T>(
        &mut self,
        what: &'static str,
        f: impl Future<Output = agones::errors::Result<T>>,
    ) -> Option<T> {
        let error = match tokio::time::timeout(CALL_TIMEOUT, f).await {
            Ok(Ok(v)) => {
                if self.failing.remove(what) {
                    info!(call = what, "agones: sdk call answered again");
                }
                return Some(v);
            }
            Ok(Err(e)) => sdk_error(&e),
            Err(_) => format!("no answer in {CALL_TIMEOUT:?}"),
        };
        self.fail(what, &error);
        None
    }

    fn fail(&mut self, what: &'static str, error: &str) {
        self.metrics.count_sdk_error(what);
        if self.failing.insert(what) {
            warn!(call = what, %error, "agones: sdk call failed: tried again every step");
        }
    }
}

/// The SDK's error with its detail (its own Display says only "rpc failure").
fn sdk_error(e: &agones::errors::Error) -> String {
    match e {
        agones::errors::Error::Rpc(status) => format!("{:?}: {}", status.code(), status.message()),
        other => format!("{other}: {other:?}"),
    }
}

async fn run(cfg: LinkConfig, mut finishing: watch::Receiver<bool>) {
    let mut calls = Calls { metrics: cfg.metrics.clone(), failing: BTreeSet::new() };
    let port = cfg.sidecar_port;
    let Some(mut sdk) = connect(&mut calls, port, &mut finishing).await else { return };
    info!("agones: sidecar reached");
    let mut told = Told::default();
    let mut ticks = cfg.pulses.ticks();
    let mut health: Option<mpsc::Sender<()>> = None;
    let shutdown_seen = Arc::new(AtomicBool::new(false));
    let mut watching: Option<tokio::task::JoinHandle<()>> = None;
    loop {
        owed(&cfg, &mut sdk, &mut calls, &mut told).await;
        // A world whose tick count stood still since the last step is wedged: no ping, so
        // Agones marks the GameServer Unhealthy and replaces the process.
        let now = cfg.pulses.ticks();
        if now.iter().zip(&ticks).all(|(n, t)| n > t) {
            ping(&sdk, &mut health, &mut calls, &cfg.metrics);
        }
        ticks = now;
        sync_load(&cfg, &mut sdk, &mut calls, &mut told).await;
        cfg.steps.fetch_add(1, Ordering::SeqCst);
        if !shutdown_seen.load(Ordering::SeqCst)
            && watching.as_ref().is_none_or(|w| w.is_finished())
        {
            let seen = (shutdown_seen.clone(), cfg.on_shutdown.clone());
            watching = Some(tokio::spawn(watch_state(sdk.clone(), seen, cfg.metrics.clone())));
        }
        let finished = tokio::select! {
            _ = tokio::time::sleep(STEP) => false,
            changed = finishing.changed() => changed.is_err() || *finishing.borrow(),
        };
        if finished {
            break;
        }
    }
    if let Some(w) = watching {
        w.abort();
    }
    for _ in 0..SHUTDOWN_TRIES {
        if calls.call("shutdown", sdk.shutdown()).await.is_some() {
            info!("agones: Shutdown told");
            return;
        }
        tokio::time::sleep(STEP).await;
    }
    warn!("agones: Shutdown not told (the sidecar never answered): exiting all the same");
}

/// Connects to the sidecar (`AGONES_SDK_GRPC_HOST`/`_PORT`, as Agones sets them), trying until
/// it answers; None when the host finished first.
async fn connect(
    calls: &mut Calls,
    port: Option<u16>,
    finishing: &mut watch::Receiver<bool>,
) -> Option<Sdk> {
    loop {
        let attempt = tokio::select! {
            sdk = calls.call_connect(port) => sdk,
            _ = finishing.changed() => return None,
        };
        if let Some(sdk) = attempt {
            return Some(sdk);
        }
        tokio::select! {
            _ = tokio::time::sleep(STEP) => {}
            _ = finishing.changed() => return None,
        }
    }
}

impl Calls {
    /// The SDK's own connect waits up to 30 s for the sidecar: no timeout of ours around it.
    async fn call_connect(&mut self, port: Option<u16>) -> Option<Sdk> {
        match Sdk::new_with_host(None, port, None).await {
            Ok(sdk) => {
                self.failing.remove("connect");
                Some(sdk)
            }
            Err(e) => {
                self.fail("connect", &sdk_error(&e));
                None
            }
        }
    }
}

/// The one-time words still owed: Ready, the name, the label, the capacities.
async fn owed(cfg: &LinkConfig, sdk: &mut Sdk, calls: &mut Calls, told: &mut Told) {
    if !told.labelled {
        let protocol = cfg.protocol.to_string();
        told.labelled =
            calls.call("set_label", sdk.set_label(PROTOCOL_LABEL, protocol)).await.is_some();
    }
    if !told.capacities {
        let mut beta = sdk.beta().clone();
        let rooms = i64::try_from(cfg.room_cap).unwrap_or(i64::MAX);
        let seats = i64::try_from(cfg.seat_cap).unwrap_or(i64::MAX);
        told.capacities = calls
            .call("set_list_capacity", beta.set_list_capacity(ROOMS_LIST, rooms))
            .await
            .is_some()
            && calls
                .call("set_counter_capacity", beta.set_counter_capacity(PLAYERS_COUNTER, seats))
                .await
                .is_some();
    }
    if !told.ready {
        told.ready = calls.call("ready", sdk.ready()).await.is_some();
        if told.ready {
            info!("agones: Ready");
        }
    }
    if !told.named
        && let Some(gs) = calls.call("get_gameserver", sdk.get_gameserver()).await
    {
        told.named = true;
        if let Some(name) = gs.object_meta.map(|m| m.name).filter(|n| !n.is_empty()) {
            info!(game_server = %name, "agones: this host's GameServer");
            cfg.game_server.set(name);
        }
    }
}

/// One health ping on the health stream, opening it again when it broke (a sidecar that
/// refused or went away ends the stream: the SDK's sender then reports it closed).
fn ping(sdk: &Sdk, health: &mut Option<mpsc::Sender<()>>, calls: &mut Calls, m: &HostMetrics) {
    let sent = health.as_ref().map(|h| h.try_send(()));
    match sent {
        Some(Ok(())) => {
            calls.failing.remove("health");
            m.count_health_ping();
        }
        // The stream is behind by a few pings: it is alive, this one is not needed.
        Some(Err(mpsc::error::TrySendError::Full(()))) => {}
        Some(Err(mpsc::error::TrySendError::Closed(()))) | None => {
            if sent.is_some() {
                calls.fail("health", "the health stream ended");
            }
            let h = sdk.health_check();
            if h.try_send(()).is_ok() {
                m.count_health_ping();
            }
            *health = Some(h);
        }
    }
}

/// Brings the `rooms` List and `players` Counter up to what the worlds hold now.
async fn sync_load(cfg: &LinkConfig, sdk: &mut Sdk, calls: &mut Calls, told: &mut Told) {
    let want = cfg.pulses.load();
    let mut beta = sdk.beta().clone();
    if told.rooms.is_none() {
        let held = calls.call("get_list", beta.get_list_values(ROOMS_LIST)).await;
        told.rooms = held.map(|v| v.into_iter().collect());
    }
    if let Some(held) = told.rooms.as_mut() {
        for step in list_steps(held, &want.codes) {
            let done = match &step {
                ListStep::Add(code) => {
                    calls.call("append_list_value", beta.append_list_value(ROOMS_LIST, code)).await
                }
                ListStep::Remove(code) => {
                    calls.call("delete_list_value", beta.delete_list_value(ROOMS_LIST, code)).await
                }
            };
            match (done, step) {
                (Some(()), ListStep::Add(code)) => {
                    held.insert(code);
                }
                (Some(()), ListStep::Remove(code)) => {
                    held.remove(&code);
                }
                // What the List holds is in doubt: read it again next step.
                (None, _) => {
                    told.rooms = None;
                    break;
                }
            }
        }
    }
    if told.players != Some(want.players) {
        let n = i64::try_from(want.players).unwrap_or(i64::MAX);
        if calls
            .call("set_counter_count", beta.set_counter_count(PLAYERS_COUNTER, n))
            .await
            .is_some()
        {
            told.players = Some(want.players);
        }
    }
}

/// Watches the GameServer: when Agones turns it `Shutdown` (the fleet scaled it away, or it
/// was deleted), the host drains as on SIGTERM. A stream that breaks ends the task; the link
/// starts another next step.
async fn watch_state(
    mut sdk: Sdk,
    seen: (Arc<AtomicBool>, Arc<dyn Fn() + Send + Sync>),
    m: HostMetrics,
) {
    let mut stream = match sdk.watch_gameserver().await {
        Ok(s) => s,
        Err(_) => {
            m.count_sdk_error("watch_gameserver");
            return;
        }
    };
    loop {
        match stream.message().await {
            Ok(Some(gs)) => {
                if gs.status.is_some_and(|s| s.state == "Shutdown") {
                    info!("agones: the GameServer is shutting down: draining");
                    seen.0.store(true, Ordering::SeqCst);
                    (seen.1)();
                    return;
                }
            }
            Ok(None) => return,
            Err(_) => {
                m.count_sdk_error("watch_gameserver");
                return;
            }
        }
    }
}
