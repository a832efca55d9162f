//! A hosted room's state, on its lobby entity ([`HostedRoom`]: seats, the host's choices,
//! the live round's bookkeeping) and what every part of hosting reads of it: the levels
//! offered, the room policy, the fault counts, the mark on a round entity, and the way every
//! round ends ([`to_results`]). The lifecycle that moves it is `rooms.rs`; Tandem's round is
//! `tandem_round.rs`; both build on this file, one way.

use crate::net::RoomKey;
use crate::net::server::bots::bot_name;
use crate::net::server::limiter::TokenBucket;
use crate::net::server::records::Source;
use crate::net::server::seats::{
    MAX_SEATS, RESERVATION, SEAT_HOLD, SEAT_TOKENS, SeatRefusal, SeatSlot, local_player_name,
};
use crate::net::wire::tokens::Secret;
use crate::protocol::tandem::{GameMode, LobbyRefusal};
use crate::protocol::{LobbyPhase, LobbyView, SeatView};
use crate::replay::bundle::ChainRecorder;
use crate::sim::assist::Assist;
use crate::sim::kitchen::Level;
use crate::sim::recipe_book::RecipeBook;
use crate::sim::versus::Team;
use bevy::prelude::*;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The results screen before the lobby returns: 5 s.
pub const RESULTS_TICKS: u32 = 100;

/// The levels a host offers, and the recipe book they were compiled against: the co-op
/// kitchens (`--levels`, with the daily kitchen) and, apart, the versus kitchens
/// (`--versus-levels`), each under the same trust rule. A room's `level` indexes the list of
/// its mode ([`HostLevels::of_mode`]).
#[derive(Resource, Clone)]
pub struct HostLevels {
    pub levels: Vec<Arc<Level>>,
    /// The published versus kitchens (each has teams), in their index's order.
    pub versus: Vec<Arc<Level>>,
    pub book: Arc<RecipeBook>,
}

impl HostLevels {
    /// The co-op kitchens' ids (what a create's `level` and the hot reload look up).
    pub fn ids(&self) -> Vec<String> {
        self.levels.iter().map(|l| l.id.clone()).collect()
    }

    /// The kitchens a room in `mode` chooses from: the versus ones for versus, else co-op.
    pub fn of_mode(&self, mode: GameMode) -> &[Arc<Level>] {
        if mode.plays_versus() { &self.versus } else { &self.levels }
    }

    /// Where the kitchen `id` is in `mode`'s list; `Err(LevelWrongMode)` when it is offered,
    /// but as the other kind, `Ok(None)` when it is not offered at all.
    pub fn find(&self, mode: GameMode, id: &str) -> Result<Option<usize>, LobbyRefusal> {
        if let Some(i) = self.of_mode(mode).iter().position(|l| l.id == id) {
            return Ok(Some(i));
        }
        let other = if mode.plays_versus() { &self.levels } else { &self.versus };
        if other.iter().any(|l| l.id == id) { Err(LobbyRefusal::LevelWrongMode) } else { Ok(None) }
    }
}

/// Room policy knobs (tests shorten the timeouts).
#[derive(Resource, Clone, Debug)]
pub struct RoomPolicy {
    pub max_rooms: usize,
    /// An empty room (no connected player, no pending reservation) is reclaimed after this.
    pub empty_timeout: Duration,
    /// A Tandem round still running after this much real time is stopped and recorded (the
    /// server loop's wall-clock stop; the rules end a run by 2400 ticks, 100 s, on their own).
    pub tandem_wall_limit: Duration,
}

/// The default [`RoomPolicy::tandem_wall_limit`]: the rules' 100 s and 20 s of slack.
pub const TANDEM_WALL_LIMIT: Duration = Duration::from_secs(120);

/// Rounds aborted for a fault, since the server started (metrics).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundFaults {
    /// A sim stage panicked on the room (caught per room in `sim::for_each_room`).
    pub panics: u64,
    /// The per-tick check found a broken invariant.
    pub invariants: u64,
}

/// The server-side state of one hosted room (on its lobby entity).
#[derive(Component, Debug)]
pub struct HostedRoom {
    pub code: String,
    pub key: RoomKey,
    pub seats: [Option<SeatSlot>; MAX_SEATS],
    pub level: usize,
    pub phase: LobbyPhase,
    pub countdown: u32,
    /// The live round's entity.
    pub round: Option<Entity>,
    /// Wall-clock start of the live round (for the results line).
    pub round_started: Option<std::time::SystemTime>,
    /// Room tick at which the verdict was first seen (the settle runs from there).
    pub verdict_tick: Option<u32>,
    pub empty_since: Option<Instant>,
    pub last_result: String,
    /// Seats the live round gave to bots (`--bots-fill`); empty outside a round. No player
    /// is seated on one while it lasts, so a bot's cook never takes a player's frames.
    pub bots: Vec<u8>,
    /// Rounds started in this room (the bundle file's number).
    pub rounds: u32,
    /// The live round's hash chain and field log at the bundle cadence.
    pub chain: ChainRecorder,
    /// The live round's level source, taken when it started: the file may be edited (hot
    /// reload) before the round ends, and its bundle must carry what was played.
    pub round_source: Option<Source>,
    /// The same for the recipe book the live round was built with.
    pub round_recipes: Option<Source>,
    /// The next round's assists, chosen by the host in the lobby (`LobbyCommand::Assist`).
    pub assist: Assist,
    /// What the next round plays, chosen by the host in the lobby (`LobbyCommand::Mode`).
    pub mode: GameMode,
    /// Listed in the directory for everyone (`POST /api/rooms {"public": true}`); a private
    /// room (the default) is reached only by its code.
    pub public: bool,
}

impl HostedRoom {
    /// The connections seated here, each once (a window with two players holds two seats on
    /// one connection): who a message for the room's clients goes to.
    pub fn clients(&self) -> Vec<Entity> {
        let mut clients: Vec<Entity> =
            self.seats.iter().flatten().filter_map(|s| s.client).collect();
        clients.sort();
        clients.dedup();
        clients
    }

    /// Seats `players` players of one connection (couch co-op online shares one secret): the
    /// seats whose secret matches (a reconnect, which takes back every seat the secret held),
    /// else the first `players` free seats, all or none. A reconnect never holds a seat longer
    /// than it was held already: an away seat's reservation ends with its [`SEAT_HOLD`], a
    /// never-used one keeps its first deadline, so asking again and again cannot keep a seat
    /// forever; each ask spends one of the secret's [`SEAT_TOKENS`] (kept on its first seat).
    /// The seats come back in slot order; the first player keeps `name`, the others get it
    /// numbered ("Ann 2").
    pub fn reserve(
        &mut self,
        name: &str,
        secret: Option<Secret>,
        players: u8,
        now: Instant,
    ) -> Result<(Vec<u8>, Secret), SeatRefusal> {
        if let Some(secret) = secret {
            let seats = self.seats_of(&secret);
            let Some(&first) = seats.first() else { return Err(SeatRefusal::UnknownSecret) };
            let lead = self.seats[first as usize].as_mut().ok_or(SeatRefusal::UnknownSecret)?;
            if !lead.tokens.take(SEAT_TOKENS, now) {
                return Err(SeatRefusal::TokenLimit);
            }
            let fresh = now + RESERVATION;
            for &seat in &seats {
                let Some(slot) = self.seats[seat as usize].as_mut() else { continue };
                let until = match (slot.client, slot.away_since, slot.reserved_until) {
                    // Connected: a takeover from another device, which drops the old connection.
                    (Some(_), _, _) => fresh,
                    (None, Some(away), _) => (away + SEAT_HOLD).min(fresh),
                    (None, None, Some(first)) => first.min(fresh),
                    (None, None, None) => fresh,
                };
                slot.reserved_until = Some(until);
            }
            return Ok((seats, secret));
        }
        let free: Vec<usize> = (0..MAX_SEATS)
            .filter(|&i| self.seats[i].is_none() && !self.bots.contains(&(i as u8)))
            .take(players.max(1) as usize)
            .collect();
        if free.len() < players.max(1) as usize {
            return Err(SeatRefusal::Full);
        }
        let secret = crate::net::wire::tokens::new_secret();
        for (k, &seat) in free.iter().enumerate() {
            let mut tokens = TokenBucket::full(SEAT_TOKENS, now);
            if k == 0 {
                tokens.take(SEAT_TOKENS, now);
            }
            self.seats[seat] = Some(SeatSlot {
                name: local_player_name(name, k),
                secret,
                ready: false,
                client: None,
                away_since: None,
                reserved_until: Some(now + RESERVATION),
                tokens,
            });
        }
        Ok((free.iter().map(|&i| i as u8).collect(), secret))
    }

    /// The seats holding this secret (one connection's, by slot): empty when none does.
    pub fn seats_of(&self, secret: &Secret) -> Vec<u8> {
        (0..MAX_SEATS)
            .filter(|&i| self.seats[i].as_ref().is_some_and(|s| &s.secret == secret))
            .map(|i| i as u8)
            .collect()
    }

    pub fn connected(&self) -> usize {
        self.seats.iter().flatten().filter(|s| s.client.is_some()).count()
    }

    /// The kitchen the next round plays (`None` for Tandem, or past the end of the list).
    pub fn kitchen<'a>(&self, levels: &'a HostLevels) -> Option<&'a Arc<Level>> {
        levels.of_mode(self.mode).get(self.level)
    }

    /// The team seat `seat` plays for in a versus room's kitchen (`None` in other modes).
    fn team_of(&self, levels: &HostLevels, seat: u8) -> Option<Team> {
        let teams = self.kitchen(levels)?.teams.as_ref()?;
        self.mode.plays_versus().then(|| teams.team_of_seat(seat))
    }

    pub fn view(&self, levels: &HostLevels) -> LobbyView {
        let kitchens = levels.of_mode(self.mode);
        LobbyView {
            code: self.code.clone(),
            phase: self.phase,
            level_id: self.kitchen(levels).map(|l| l.id.clone()).unwrap_or_default(),
            levels: kitchens.iter().map(|l| l.id.clone()).collect(),
            // Players and this round's bots in seat order; a bot is always ready and present,
            // and its name ("Bot …") says what it is.
            seats: (0..MAX_SEATS)
                .filter_map(|i| match &self.seats[i] {
                    Some(s) => Some(SeatView {
                        seat: i as u8,
                        name: s.name.clone(),
                        ready: s.ready,
                        connected: s.client.is_some(),
                        team: self.team_of(levels, i as u8),
                    }),
                    None if self.bots.contains(&(i as u8)) => Some(SeatView {
                        seat: i as u8,
                        name: bot_name(i as u8).to_string(),
                        ready: true,
                        connected: true,
                        team: self.team_of(levels, i as u8),
                    }),
                    None => None,
                })
                .collect(),
            countdown: self.countdown,
            last_result: self.last_result.clone(),
            assist: self.assist,
            mode: self.mode,
            versus_offered: !levels.versus.is_empty(),
        }
    }
}

/// Marks a round entity with its lobby.
#[derive(Component, Clone, Copy, Debug)]
pub struct RoundOf(pub Entity);

pub fn unix_ms(t: std::time::SystemTime) -> u128 {
    t.duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_millis()
}

/// The round entity gone and the room on its results screen, every ready flag down: how every
/// round ends (the kitchen's in `rooms::end_round`, Tandem's in `tandem_round::end_tandem_round`).
pub fn to_results(commands: &mut Commands, hosted: &mut HostedRoom) {
    if let Some(round) = hosted.round.take() {
        commands.entity(round).despawn();
    }
    hosted.round_started = None;
    hosted.verdict_tick = None;
    // The bots left with the round: their seats are free for players again.
    hosted.bots.clear();
    hosted.phase = LobbyPhase::Results;
    hosted.countdown = RESULTS_TICKS;
    for slot in hosted.seats.iter_mut().flatten() {
        slot.ready = false;
    }
}
