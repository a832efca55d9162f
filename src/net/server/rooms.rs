//! Hosted rooms: lobby (seats, ready flags, level and mode choice) → countdown → round →
//! results → lobby, empty-room reclaim, invariant checks, the results log that nothing skips,
//! and one replay bundle per ended round (both written through `records.rs`).
//!
//! A hosted room is a lobby entity ([`HostedRoom`] + the replicated [`LobbyView`]); a live
//! round is a second entity holding the sim's `Room`, spawned at the countdown's end and
//! despawned (with its view entities) once its result is written; a Tandem round is a
//! `TandemRound` entity instead, stepped and ended by `tandem_round.rs`. Both carry the room's
//! [`RoomKey`], the visibility filter that shows a client only its own room.

use crate::level::LevelLibrary;
use crate::net::RoomKey;
use crate::net::server::bots::{
    BotsFill, BotsFillPolicy, RoundBots, bot_name, bot_teams, fill_seats,
};
pub use crate::net::server::hosted::{
    HostLevels, HostedRoom, RESULTS_TICKS, RoomPolicy, RoundFaults, RoundOf, TANDEM_WALL_LIMIT,
    to_results, unix_ms,
};
use crate::net::server::records::{BundleWriter, ResultsLog, Source};
use crate::net::server::seats::{MAX_SEATS, SEAT_HOLD, SeatSlot};
use crate::net::server::tandem_round::{TandemRound, end_tandem_round, start_tandem_round};
use crate::net::server::web::config::Draining;
use crate::protocol::tandem::GameMode;
use crate::protocol::{InRoom, LobbyPhase, LobbyView, RoundSource};
use crate::replay::admitted::{AdmittedFrame, run_admitted};
use crate::replay::bundle::{BUNDLE_EVERY, BUNDLE_VERSION, Bundle, ChainRecorder, pack_frames};
use crate::replay::hex::hex_bytes;
use crate::schedule::TickSystems;
use crate::sim::assist::Assist;
use crate::sim::kitchen::Level;
use crate::sim::open::SeatSpec;
use crate::sim::recipe_book::RecipeBook;
use crate::sim::room::Room;
use crate::sim::round::{SETTLE_TICKS, abort};
use bevy::prelude::*;
use bevy_replicon::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

/// The countdown once everyone seated is ready: 3 s.
pub const COUNTDOWN_TICKS: u32 = 60;
/// Code → lobby entity.
#[derive(Resource, Default)]
pub struct RoomIndex {
    pub by_code: HashMap<String, Entity>,
    /// A re-coded room's old code → its code now (`net::server::listing::recode`): tokens minted with
    /// the old code still find the room.
    pub aliases: HashMap<String, String>,
    next_key: u64,
}

impl RoomIndex {
    /// The lobby a code (or a re-coded room's old code) names.
    pub fn lobby(&self, code: &str) -> Option<Entity> {
        self.by_code
            .get(code)
            .or_else(|| self.aliases.get(code).and_then(|now| self.by_code.get(now)))
            .copied()
    }
}

/// Creates a hosted room with a fresh unique code; `None` at the room limit.
pub fn create_room(
    commands: &mut Commands,
    index: &mut RoomIndex,
    policy: &RoomPolicy,
    levels: &HostLevels,
) -> Option<(String, Entity)> {
    if index.by_code.len() >= policy.max_rooms {
        return None;
    }
    let code = loop {
        let c = crate::net::wire::tokens::new_code();
        if !index.by_code.contains_key(&c) {
            break c;
        }
    };
    index.next_key += 1;
    let key = RoomKey(index.next_key);
    let hosted = HostedRoom {
        code: code.clone(),
        key,
        seats: Default::default(),
        level: 0,
        phase: LobbyPhase::Lobby,
        countdown: 0,
        round: None,
        round_started: None,
        verdict_tick: None,
        empty_since: Some(Instant::now()),
        last_result: String::new(),
        bots: Vec::new(),
        rounds: 0,
        chain: ChainRecorder::default(),
        round_source: None,
        round_recipes: None,
        assist: Assist::OFF,
        mode: GameMode::Cooking,
        public: false,
    };
    let view = hosted.view(levels);
    let entity = commands.spawn((hosted, view, key, Replicated)).id();
    index.by_code.insert(code.clone(), entity);
    info!(room = %code, "room created");
    Some((code, entity))
}

/// Ends the live round of `hosted`: ABORTED unless decided, one fsynced results line, the
/// round and its views despawned, the room to its results screen.
pub fn end_round(
    commands: &mut Commands,
    hosted: &mut HostedRoom,
    room: &mut Room,
    reason: &str,
    log: &mut ResultsLog,
    views: &Query<(Entity, &InRoom)>,
    bundles: &BundleWriter,
) {
    // The last link before the verdict is forced (abort changes no hashed state, but the
    // field log would show it).
    hosted.chain.record(room);
    abort(room);
    let payload = crate::report::result_payload(room);
    let mut line = serde_json::json!({
        "room": hosted.code,
        "reason": reason,
        "started_at_ms": hosted.round_started.map(unix_ms),
        "ended_at_ms": unix_ms(std::time::SystemTime::now()),
        "final_hash": crate::replay::hex::hex(room.hash),
        "frames_admitted": room.inputs.log().len(),
        "payload": payload,
    });
    // A survival round's line says its mode, as a Tandem round's does; a versus round's also
    // names the winner (the payload has each team's tallies).
    if room.survival.is_some() {
        line["mode"] = serde_json::json!("survival");
    }
    if room.versus.is_some() {
        line["mode"] = serde_json::json!("versus");
        line["winner"] = payload["versus"]["winner"].clone();
    }
    match log.append(&line) {
        Ok(()) => info!(room = %hosted.code, reason, result = ?room.result, "round recorded"),
        Err(e) => error!(room = %hosted.code, error = %e, "results.jsonl write failed"),
    }
    hosted.last_result = payload.to_string();
    let started_with = hosted.round_source.take();
    let level = started_with.as_ref().or_else(|| bundles.levels.get(&room.level.id));
    let recipes = hosted.round_recipes.take().unwrap_or_else(|| bundles.recipes.clone());
    let chain = std::mem::take(&mut hosted.chain);
    let bundle = Bundle {
        bundle_version: BUNDLE_VERSION,
        room: hosted.code.clone(),
        round: hosted.rounds,
        reason: reason.to_string(),
        seed: room.seed,
        level_id: room.level.id.clone(),
        level_hash: level.map(|l| l.hash.clone()).unwrap_or_default(),
        level_source: level.map(|l| l.text.to_string()).unwrap_or_default(),
        recipes_hash: recipes.hash.clone(),
        recipes_source: recipes.text.to_string(),
        seats: room.cooks.iter().map(|c| (c.seat, c.name.clone())).collect(),
        ticks: room.tick,
        record_every: BUNDLE_EVERY,
        final_hash: crate::replay::hex::hex(room.hash),
        hashes: chain.hex_hashes(),
        fields: chain.fields,
        frames: pack_frames(room.inputs.log()),
        result: hosted.last_result.clone(),
        assist: room.assist,
        survival: room.survival.is_some(),
    };
    bundles.thread.write(Box::new(bundle));
    if let Some(round) = hosted.round {
        for (e, in_room) in views {
            if in_room.0 == round {
                commands.entity(e).despawn();
            }
        }
    }
    to_results(commands, hosted);
}

/// What is wrong with a room that the rules never allow, if anything: every law of
/// `sim::invariants` (items in exactly one place, the plate and pot stock, the tallies).
pub fn broken_invariant(room: &Room) -> Option<String> {
    crate::sim::invariants::check(room).map(|v| v.to_string())
}

/// Runs the lifecycle once per tick, after the projection.
pub struct RoomsPlugin;

impl Plugin for RoomsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<RoomIndex>().init_resource::<RoundFaults>();
        app.add_observer(tag_views);
        app.add_systems(FixedPostUpdate, run_lifecycle.in_set(TickSystems::Publish));
    }
}

/// Every view entity the projection spawns joins its round's room: the visibility key and the
/// replication marker go on together, so no view is ever shown to everyone.
fn tag_views(
    add: On<Add, InRoom>,
    mut commands: Commands,
    views: Query<&InRoom>,
    keys: Query<&RoomKey>,
) {
    let Ok(in_room) = views.get(add.entity) else { return };
    if let Ok(key) = keys.get(in_room.0) {
        commands.entity(add.entity).insert((*key, Replicated));
    }
}

/// The per-tick lifecycle of every hosted room.
fn run_lifecycle(
    mut commands: Commands,
    mut lobbies: Query<(Entity, &mut HostedRoom, &mut LobbyView)>,
    mut rounds: Query<&mut Room>,
    tandems: Query<&TandemRound>,
    views: Query<(Entity, &InRoom)>,
    levels: Res<HostLevels>,
    policy: Res<RoomPolicy>,
    mut index: ResMut<RoomIndex>,
    mut log: ResMut<ResultsLog>,
    fill: Option<Res<BotsFillPolicy>>,
    bundles: Res<BundleWriter>,
    library: Option<Res<LevelLibrary>>,
    mut faults: ResMut<RoundFaults>,
    draining: Option<Res<Draining>>,
) {
    let fill = fill.map(|f| f.0);
    let draining = draining.is_some_and(|d| d.is_on());
    let now = Instant::now();
    for (entity, mut hosted, mut view) in &mut lobbies {
        let hosted = &mut *hosted;
        // Seats: expired reservations and players away past the hold are let go (a live
        // round keeps its cooks; their seats free up at its end).
        for slot in hosted.seats.iter_mut() {
            let Some(s) = slot else { continue };
            if s.client.is_some() {
                continue;
            }
            let reserved = s.reserved_until.is_some_and(|t| t > now);
            let held = s.away_since.is_some_and(|t| now.duration_since(t) < SEAT_HOLD);
            if !reserved && !held && hosted.phase != LobbyPhase::Round {
                *slot = None;
            }
        }
        let pending =
            hosted.seats.iter().flatten().any(|s| s.reserved_until.is_some_and(|t| t > now));
        if hosted.connected() == 0 && !pending {
            let since = *hosted.empty_since.get_or_insert(now);
            if now.duration_since(since) >= policy.empty_timeout {
                if let Some(round) = hosted.round
                    && let Ok(mut room) = rounds.get_mut(round)
                {
                    end_round(
                        &mut commands,
                        hosted,
                        &mut room,
                        "empty",
                        &mut log,
                        &views,
                        &bundles,
                    );
                } else if let Some(round) = hosted.round
                    && let Ok(tandem) = tandems.get(round)
                {
                    end_tandem_round(&mut commands, hosted, tandem, "empty", &mut log, &bundles);
                }
                info!(room = %hosted.code, "empty room reclaimed");
                index.by_code.remove(&hosted.code);
                let code = hosted.code.clone();
                index.aliases.retain(|_, now| *now != code);
                commands.entity(entity).despawn();
                continue;
            }
        } else {
            hosted.empty_since = None;
        }
        match hosted.phase {
            LobbyPhase::Lobby | LobbyPhase::Countdown => {
                let seated: Vec<&SeatSlot> = hosted.seats.iter().flatten().collect();
                let all_ready =
                    !seated.is_empty() && seated.iter().all(|s| s.ready && s.client.is_some());
                // A draining server starts no new round: its lobbies wait for the exit.
                if !all_ready || draining {
                    hosted.phase = LobbyPhase::Lobby;
                    hosted.countdown = 0;
                } else if hosted.phase == LobbyPhase::Lobby {
                    hosted.phase = LobbyPhase::Countdown;
                    hosted.countdown = COUNTDOWN_TICKS;
                } else if hosted.countdown > 0 {
                    hosted.countdown -= 1;
                } else {
                    start_round(
                        &mut commands,
                        entity,
                        hosted,
                        &levels,
                        library.as_deref(),
                        fill,
                        &bundles,
                    );
                }
            }
            // A Tandem round steps and ends in `tandem_round.rs` (its own 24 Hz clock).
            LobbyPhase::Round => 'kitchen: {
                let Some(round) = hosted.round else { break 'kitchen };
                let Ok(mut room) = rounds.get_mut(round) else { break 'kitchen };
                if ChainRecorder::due(room.tick) {
                    hosted.chain.record(&room);
                }
                if let Some(fault) = room.fault.clone() {
                    // A stage panicked on this room (caught per room in src/sim/mod.rs).
                    error!(room = %hosted.code, tick = room.tick, %fault, "sim panicked: round aborted");
                    faults.panics += 1;
                    end_round(
                        &mut commands,
                        hosted,
                        &mut room,
                        &format!("fault: {fault}"),
                        &mut log,
                        &views,
                        &bundles,
                    );
                } else if let Some(reason) = broken_invariant(&room) {
                    error!(room = %hosted.code, tick = room.tick, %reason, "invariant broken: round aborted");
                    faults.invariants += 1;
                    end_round(
                        &mut commands,
                        hosted,
                        &mut room,
                        &format!("fault: {reason}"),
                        &mut log,
                        &views,
                        &bundles,
                    );
                } else if room.result.is_some() {
                    let at = *hosted.verdict_tick.get_or_insert(room.tick);
                    if room.tick >= at + SETTLE_TICKS {
                        end_round(
                            &mut commands,
                            hosted,
                            &mut room,
                            "finished",
                            &mut log,
                            &views,
                            &bundles,
                        );
                    }
                }
            }
            LobbyPhase::Results => {
                if hosted.countdown > 0 {
                    hosted.countdown -= 1;
                } else {
                    hosted.phase = LobbyPhase::Lobby;
                }
            }
        }
        let fresh = hosted.view(&levels);
        if *view != fresh {
            *view = fresh;
        }
    }
}

fn start_round(
    commands: &mut Commands,
    lobby: Entity,
    hosted: &mut HostedRoom,
    levels: &HostLevels,
    library: Option<&LevelLibrary>,
    fill: Option<BotsFill>,
    bundles: &BundleWriter,
) {
    if hosted.mode == GameMode::Tandem {
        start_tandem_round(commands, lobby, hosted);
        return;
    }
    let Some(offered) = hosted.kitchen(levels).cloned() else {
        hosted.phase = LobbyPhase::Lobby;
        return;
    };
    // The catalog says which levels are offered; the library holds each co-op one's last good
    // version (hot reload), with the book it was validated against. A versus kitchen is the
    // published file the host started with (the library watches `--levels` only).
    let library = library.filter(|_| !hosted.mode.plays_versus());
    let edited = library.and_then(|lib| Some((lib.get(&offered.id)?, lib.book.clone())));
    let (level, book) = match edited {
        Some((entry, book)) => {
            hosted.round_source = Some(Source::new(entry.source.to_string()));
            hosted.round_recipes = library.map(|lib| Source::new(lib.book_source.to_string()));
            (entry.level.clone(), book)
        }
        None => {
            hosted.round_source = None;
            hosted.round_recipes = None;
            (offered, levels.book.clone())
        }
    };
    // Bots take the empty seats (a held seat of a player who stepped away stays theirs).
    let occupied: [bool; MAX_SEATS] = std::array::from_fn(|i| hosted.seats[i].is_some());
    hosted.bots = fill.map_or_else(Vec::new, |f| fill_seats(&occupied, f.team(level.spawns.len())));
    let mut seats: Vec<SeatSpec> = hosted
        .seats
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.as_ref().map(|s| SeatSpec::new(i as u8, s.name.clone())))
        .chain(hosted.bots.iter().map(|&b| SeatSpec::new(b, bot_name(b))))
        .collect();
    seats.sort_by_key(|s| s.seat);
    // The seed comes from the OS: the sim is deterministic given it, and the seed is logged.
    let seed = u64::from_le_bytes(bevy_replicon_renet::netcode::generate_random_bytes());
    let survival = hosted.mode == GameMode::Survival;
    let mut room = Room::assisted(level, book, seed, &seats, hosted.assist).with_survival(survival);
    // The admitted log is the round's replay: the bundle's frames.
    room.inputs.record();
    hosted.rounds += 1;
    hosted.chain = ChainRecorder::default();
    hosted.chain.record(&room);
    let team = (!hosted.bots.is_empty()).then(|| RoundBots(bot_teams(&room, &hosted.bots)));
    // The sources the round was built from, for clients that plan on the whole kitchen (remote
    // bots): the hot-reloaded ones when the library built it, else the offered files'.
    let level_text = hosted.round_source.as_ref().or_else(|| bundles.levels.get(&room.level.id));
    let recipes_text = hosted.round_recipes.as_ref().unwrap_or(&bundles.recipes);
    let source = level_text
        .map(|l| RoundSource { level: l.text.to_string(), recipes: recipes_text.text.to_string() });
    let mut round = commands.spawn((room, hosted.key, Replicated, RoundOf(lobby)));
    if let Some(source) = source {
        round.insert(source);
    }
    if let Some(team) = team {
        round.insert(team);
    }
    let round = round.id();
    info!(room = %hosted.code, seed = %hex_bytes(&seed.to_le_bytes()), seats = seats.len(), bots = ?hosted.bots, "round started");
    hosted.round = Some(round);
    hosted.round_started = Some(std::time::SystemTime::now());
    hosted.verdict_tick = None;
    hosted.phase = LobbyPhase::Round;
    hosted.countdown = 0;
}

/// Aborts every live round and records it: the shutdown path (SIGINT/SIGTERM).
pub fn abort_all(world: &mut World, reason: &str) {
    let mut state: bevy::ecs::system::SystemState<(
        Commands,
        Query<&mut HostedRoom>,
        Query<&mut Room>,
        Query<&TandemRound>,
        Query<(Entity, &InRoom)>,
        ResMut<ResultsLog>,
        Res<BundleWriter>,
    )> = bevy::ecs::system::SystemState::new(world);
    let Ok((mut commands, mut lobbies, mut rounds, tandems, views, mut log, bundles)) =
        state.get_mut(world)
    else {
        return;
    };
    for mut hosted in &mut lobbies {
        if let Some(round) = hosted.round
            && let Ok(mut room) = rounds.get_mut(round)
        {
            end_round(&mut commands, &mut hosted, &mut room, reason, &mut log, &views, &bundles);
        } else if let Some(round) = hosted.round
            && let Ok(tandem) = tandems.get(round)
        {
            end_tandem_round(&mut commands, &mut hosted, tandem, reason, &mut log, &bundles);
        }
    }
    state.apply(world);
    // Nothing lost: the aborted rounds' bundles are on disk before the caller exits.
    world.resource::<BundleWriter>().flush();
}

/// Re-runs a round offline from its seed and the frames the server admitted
/// (`replay::admitted::run_admitted`: each queued before the tick it was admitted at, in
/// admission order) for `upto` ticks, and returns the hash: the
/// proof that the network round is the deterministic function of its admitted inputs. `level`
/// is the level as the round played it, `assist` already applied (a live room's `level`);
/// `survival` whether it played on the survival clock.
pub fn replay_admitted(
    level: Arc<Level>,
    book: Arc<RecipeBook>,
    seed: u64,
    seats: &[SeatSpec],
    assist: Assist,
    survival: bool,
    admitted: &[AdmittedFrame],
    upto: u32,
) -> u64 {
    let mut room = Room::open_applied(level, book, seed, seats, assist).with_survival(survival);
    run_admitted(&mut room, admitted, upto, |_| {});
    room.hash
}

/// [`replay_admitted`] for a live round: its own seats, seed and admitted log, up to its tick.
/// Equal to `room.hash` when the round is the function of its admitted frames.
pub fn replay_live(room: &Room) -> u64 {
    let seats: Vec<SeatSpec> =
        room.cooks.iter().map(|c| SeatSpec::new(c.seat, c.name.clone())).collect();
    replay_admitted(
        room.level.clone(),
        room.book.clone(),
        room.seed,
        &seats,
        room.assist,
        room.survival.is_some(),
        room.inputs.log(),
        room.tick,
    )
}
