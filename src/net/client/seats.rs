//! One client session, whichever front end drives it: the seats a connection holds and every
//! server message a client answers, each handled once, here — the `Welcome` (which seats this
//! connection's slots play), the room's clock and the gate's `InputAck`s (each slot's uplink
//! and prediction follow them), `TickEvents` (counted), and the lobby (the seats marked ready
//! whenever it shows them not). Each slot's uplink sends the frames the input sources put in
//! the [`Outbox`]. The game window (`client::online`), the headless client
//! (`net::client::headless`) and the load generator built on it add [`ClientSessionPlugin`]
//! and feed the outbox in [`SessionSystems::Feed`]; a new server message gets its handler here.

use crate::net::client::outbox::Outbox;
use crate::net::client::predict::{Predictor, reconcile_seen};
use crate::net::client::seen::SeenRound;
use crate::net::client::session::SendPace;
use crate::net::client::uplink::Uplink;
use crate::net::client::watching::{round_seats, watching_round};
use crate::protocol::tandem::TandemRoundInfo;
use crate::protocol::{
    CookView, InputAck, InputBatch, LobbyCommand, LobbyPhase, LobbyView, PackedInput, TickEvents,
    Welcome,
};
use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy_replicon_renet::RenetClient;
use std::collections::BTreeMap;
use std::time::Duration;

/// A ready request is repeated no sooner than this while the lobby shows a seat not ready (a
/// lost or slow answer is retried, not flooded).
const READY_RETRY: Duration = Duration::from_millis(500);

/// The session of one connection: its seats, each slot's link, and what it has counted.
#[derive(Resource, Debug, Default)]
pub struct ClientSession {
    /// The room code the web port answered.
    pub code: String,
    /// From the server's `Welcome` (the seats the server gives this connection's slots).
    pub welcome: Option<Welcome>,
    /// One per local slot (from the welcome): its link and its predicted cook.
    pub players: Vec<SeatLink>,
    /// A test drives this connection by hand: no frames sent, no ready, nothing predicted.
    pub by_hand: bool,
    /// The latest room tick seen (the next tick the server simulates).
    pub tick: Option<u32>,
    pub ticks_received: u64,
    pub events_received: u64,
    /// Frames sent, every slot's together.
    pub frames_sent: u64,
    /// This connection watches the live round: seated after it began, it has no cook or
    /// handle in it (`net::client::watching`); each front end tells its player so.
    pub watching: bool,
    /// Rounds this connection watched, having joined after they began.
    pub rounds_watched: u32,
    /// The client entity of the round the uplinks stamp for.
    round: Option<Entity>,
    last_ready: Option<Instant>,
    /// The start of the uplinks' clock.
    epoch: Option<Instant>,
    /// This update's time on that clock: the follow, the planners and the send all see one.
    now: Duration,
    /// When the first frame of a live round went out (corrections per second are per second
    /// of play).
    playing_since: Option<Duration>,
}

/// One local slot's seat: its frames' link, its cook's prediction, and the controls the
/// outbox gave it.
#[derive(Debug)]
pub struct SeatLink {
    pub seat: u8,
    /// The input link: clock sync, stamping, repeats, and what the F3 overlay shows of it.
    pub uplink: Uplink,
    /// This seat's cook, predicted (none for a connection driven by hand).
    pub predictor: Option<Predictor>,
    /// The newest "as of now" controls, once an input source gave any.
    held: Option<Held>,
    /// Controls planned for given ticks, taken by the next send.
    planned: BTreeMap<u32, PackedInput>,
}

/// A slot's controls as of now, and the presses since its last sent frame.
#[derive(Clone, Copy, Debug, Default)]
struct Held {
    mv: (i16, i16),
    action: bool,
    /// The button went down since the last sent frame (a tap between two sends is kept).
    tapped: bool,
    /// The second button (dash / throw): its level, and a tap since the last sent frame.
    dash: bool,
    dash_tapped: bool,
}

impl Held {
    fn controls(&self) -> PackedInput {
        let (action, dash) = (self.action || self.tapped, self.dash || self.dash_tapped);
        PackedInput { mv: self.mv, action, face: None, dash }
    }
}

impl SeatLink {
    fn new(slot: u8, seat: u8, predict: bool) -> SeatLink {
        SeatLink {
            seat,
            uplink: Uplink::for_slot(slot),
            predictor: predict.then(|| Predictor::new(seat)),
            held: None,
            planned: BTreeMap::new(),
        }
    }

    /// The controls as of now, from an outbox frame.
    fn hold(&mut self, mv: (i16, i16), action: bool, dash: bool) {
        let h = self.held.get_or_insert_with(Held::default);
        (h.mv, h.action, h.dash) = (mv, action, dash);
        h.tapped |= action;
        h.dash_tapped |= dash;
    }

    /// Sends what is due (at once when the held controls changed since the last frame sent:
    /// a press goes out, and is predicted, the moment it happens); planned ticks send their
    /// plan, the others the held controls (neutral when none).
    fn send(&mut self, now: Duration) -> Option<InputBatch> {
        let held = self.held.map(|h| h.controls());
        let changed =
            held.is_some_and(|c| self.uplink.last_sent_controls().is_some_and(|l| l != c));
        let planned = &mut self.planned;
        let controls = |tick| planned.remove(&tick).unwrap_or(held.unwrap_or_default());
        let batch = if changed {
            self.uplink.send_now(now, controls)
        } else {
            self.uplink.send_due(now, controls)
        };
        // A plan is for the send right after it: whatever it did not take is stale.
        self.planned.clear();
        if batch.is_some()
            && let Some(h) = self.held.as_mut()
        {
            h.tapped = false;
            h.dash_tapped = false;
        }
        batch
    }
}

impl ClientSession {
    /// A session for room `code`; `by_hand`: a test drives it (no frames, no ready).
    pub fn new(code: &str, by_hand: bool) -> ClientSession {
        ClientSession { code: code.to_string(), by_hand, ..ClientSession::default() }
    }

    /// The uplinks' clock: time since the session first followed its room (zero before).
    pub fn clock_now(&self) -> Duration {
        self.epoch.map_or(Duration::ZERO, |e| e.elapsed())
    }

    /// This update's time on the uplinks' clock (as the room was followed).
    pub fn frame_now(&self) -> Duration {
        self.now
    }

    /// Slot 0's link (what the F3 overlay and `--stats` show: every slot shares the
    /// connection).
    pub fn uplink(&self) -> Option<&Uplink> {
        self.players.first().map(|p| &p.uplink)
    }

    /// Slot 0's prediction.
    pub fn predictor(&self) -> Option<&Predictor> {
        self.players.first().and_then(|p| p.predictor.as_ref())
    }

    /// How long the session has been sending frames in a live round (zero before).
    pub fn played(&self) -> Duration {
        self.playing_since.map_or(Duration::ZERO, |t| self.clock_now().saturating_sub(t))
    }

    /// The seats held, by slot.
    pub fn seats(&self) -> Vec<u8> {
        self.welcome.as_ref().map_or_else(Vec::new, |w| w.seats.clone())
    }
}

/// The order of a session's work in `Update`: the server's messages are followed, the input
/// sources fill the outbox (front ends put theirs in `Feed`), the frames go out, the seats
/// are marked ready.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SessionSystems {
    Follow,
    Feed,
    Send,
    Ready,
}

/// The session's handlers, running while a connection exists (the window connects and
/// disconnects at the menu's word; a headless client is connected from the start).
pub struct ClientSessionPlugin;

impl Plugin for ClientSessionPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Outbox>().init_resource::<ClientSession>();
        app.configure_sets(
            Update,
            (
                SessionSystems::Follow,
                SessionSystems::Feed,
                SessionSystems::Send,
                SessionSystems::Ready,
            )
                .chain()
                .run_if(resource_exists::<RenetClient>),
        );
        app.add_systems(
            Update,
            (
                (note_welcome, follow_room, follow_watching).chain().in_set(SessionSystems::Follow),
                send_frames.in_set(SessionSystems::Send),
                auto_ready.in_set(SessionSystems::Ready),
            ),
        );
    }
}

/// The server's `Welcome`: the seats of this connection's slots, each with a fresh link and
/// prediction (a reconnect's new welcome starts fresh ones).
fn note_welcome(mut welcome: MessageReader<Welcome>, mut s: ResMut<ClientSession>) {
    let Some(w) = welcome.read().last().cloned() else { return };
    let predict = !s.by_hand;
    s.players = w
        .seats
        .iter()
        .enumerate()
        .map(|(slot, seat)| SeatLink::new(slot as u8, *seat, predict))
        .collect();
    s.welcome = Some(w);
}

/// Follows the room: its clock and the gate's acks into every slot's link (each new
/// authoritative tick rebuilds the predictions), a new round restarting the links, and the
/// per-tick events counted.
fn follow_room(
    seen: SeenRound,
    mut events: MessageReader<TickEvents>,
    mut acks: MessageReader<InputAck>,
    mut s: ResMut<ClientSession>,
) {
    s.epoch.get_or_insert_with(Instant::now);
    let now = s.clock_now();
    s.now = now;
    s.events_received += events.read().count() as u64;
    let acks: Vec<InputAck> = acks.read().copied().collect();
    let Some((room, clock, _, _)) = seen.rooms.iter().next() else {
        s.tick = None;
        return;
    };
    if s.round != Some(room) {
        s.round = Some(room);
        for p in &mut s.players {
            p.uplink.reset_round();
        }
    }
    if let Some(old) = s.tick
        && clock.tick > old
    {
        s.ticks_received += (clock.tick - old) as u64;
    }
    s.tick = Some(clock.tick);
    for p in &mut s.players {
        if p.uplink.follow(now, &acks, clock.tick)
            && let Some(predictor) = p.predictor.as_mut()
        {
            reconcile_seen(predictor, &p.uplink, &seen);
        }
    }
}

/// Whether this connection watches the live round (the lobby in its round, whose players are
/// none of this connection's seats), each such round counted once.
fn follow_watching(
    lobbies: Query<&LobbyView>,
    cooks: Query<&CookView>,
    tandem: Query<&TandemRoundInfo>,
    mut s: ResMut<ClientSession>,
) {
    let Some(lobby) = lobbies.iter().next() else { return };
    let in_round = round_seats(cooks.iter().map(|c| c.seat), tandem.iter());
    let watching = watching_round(lobby, &s.seats(), &in_round);
    if lobby.phase != LobbyPhase::Round {
        s.watching = false;
    } else if watching && !s.watching {
        s.watching = true;
        s.rounds_watched += 1;
    }
}

/// The outbox's frames go out through their slot's uplink (local player `n` plays slot `n`,
/// the connection's `Welcome.seats[n]`): each stamped for the tick at which it will reach the
/// server, every unacknowledged one repeated (`net::client::uplink`), and each predicted on
/// its slot's cook at once (`net::client::predict`). Slots beyond the seats held send nothing;
/// nor does anyone once the round has its result.
fn send_frames(
    mut outbox: ResMut<Outbox>,
    seen: SeenRound,
    mut s: ResMut<ClientSession>,
    mut pace: ResMut<SendPace>,
    mut out: MessageWriter<InputBatch>,
) {
    let frames = std::mem::take(&mut outbox.frames);
    let planned = std::mem::take(&mut outbox.planned);
    if s.by_hand {
        return;
    }
    for (slot, frame) in frames {
        if let Some(p) = s.players.get_mut(slot as usize) {
            p.hold(frame.mv, frame.action, frame.dash);
        }
    }
    for (slot, tick, controls) in planned {
        if let Some(p) = s.players.get_mut(slot as usize) {
            p.planned.insert(tick, controls);
        }
    }
    let Some((_, _, view, _)) = seen.rooms.iter().next() else { return };
    if view.result.is_some() {
        return;
    }
    let now = s.now;
    let mut sent = 0;
    let mut any = false;
    for p in &mut s.players {
        if let Some(batch) = p.send(now) {
            if let Some(predictor) = p.predictor.as_mut() {
                predictor.catch_up(&p.uplink);
            }
            out.write(batch);
            pace.due = true;
            any = true;
        }
        sent += p.uplink.stats.frames_sent;
    }
    s.frames_sent = sent;
    if any && s.predictor().is_some() {
        s.playing_since.get_or_insert(now);
    }
}

/// Marks the seats ready whenever the lobby shows one of them not (so rounds follow rounds).
fn auto_ready(
    lobbies: Query<&LobbyView>,
    mut s: ResMut<ClientSession>,
    mut out: MessageWriter<LobbyCommand>,
) {
    let seats = s.seats();
    let Some(lobby) = lobbies.iter().next() else { return };
    if !s.by_hand && !seats.is_empty() && ready_due(lobby, &seats, s.last_ready) {
        s.last_ready = Some(Instant::now());
        out.write(LobbyCommand::Ready(true));
    }
}

/// Should a connection (re)send `Ready(true)` for its `seats`: the lobby shows one of them not
/// ready, and the last request (if any) is older than [`READY_RETRY`].
fn ready_due(lobby: &LobbyView, seats: &[u8], last_ready: Option<Instant>) -> bool {
    let mine = lobby.seats.iter().filter(|v| seats.contains(&v.seat));
    lobby.phase == LobbyPhase::Lobby
        && mine.into_iter().any(|v| !v.ready)
        && last_ready.is_none_or(|t| t.elapsed() > READY_RETRY)
}
