//! The wire: every replicated component and every message, registered in one fixed order.
//!
//! Clients never see `Room` (the sim's private state); they see these views, which the
//! projection (src/project.rs) writes from each room every tick wherever a simulation runs —
//! the headless server, or the embedded server of a local game. Everything here is plain data
//! in the sim's integer units, so the client interpolates and formats, and nothing drifts.

pub mod emote;
pub mod tandem;

use crate::sim::assist::Assist;
use crate::sim::cook::CookState;
use crate::sim::events::SimEvent;
use crate::sim::hazard_spec::ShiftPhase;
use crate::sim::input::InputFrame;
use crate::sim::kinds::{Dir4, Form, Ingredient, StationKind, Tile};
use crate::sim::station::StationState;
use crate::sim::survival::SurvivalClock;
use crate::sim::verdict::Verdict;
use crate::sim::versus::{Team, VersusTally};
use bevy::prelude::*;
use bevy_replicon::prelude::*;
use emote::{EmoteRefused, EmoteSaid, EmoteShown};
use serde::{Deserialize, Serialize};
use tandem::{GameMode, TandemEvents, TandemLive, TandemOrder, TandemRoundInfo};

/// Registers every replicated component and every message with replicon, in one fixed order:
/// replicon hashes the order into its protocol check, so a client built from other sources is
/// refused at connection. Add it after `RepliconPlugins` on the server and on every client.
pub struct ProtocolPlugin;

impl Plugin for ProtocolPlugin {
    fn build(&self, app: &mut App) {
        // Never reorder: append. The order is the protocol.
        app.replicate::<InRoom>()
            .replicate::<RoomView>()
            .replicate::<GridView>()
            .replicate::<CookView>()
            .replicate::<StationView>()
            .replicate::<ItemView>()
            .replicate::<LobbyView>()
            // Inputs are unreliable: every batch repeats the frames the server has not
            // acknowledged yet (docs/NETWORK.md, "Input over a real link"), so a lost packet
            // costs nothing and a resend never waits for renet's retransmit timer.
            .add_client_message::<InputBatch>(Channel::Unreliable)
            .add_client_message::<LobbyCommand>(Channel::Ordered)
            .add_server_message::<TickEvents>(Channel::Ordered)
            .add_server_message::<Welcome>(Channel::Ordered)
            // Stage 6's public state (only on rooms whose level has hazards).
            .replicate::<HazardView>()
            // The fast-changing fields, split out so a tick that only moves cooks and the
            // clock does not resend the slow views (replicon sends a changed component whole).
            .replicate::<RoomClock>()
            .replicate::<CookMotion>()
            // The round's level and recipe sources, sent once per round, so a remote bot
            // plans on the exact kitchen the server built (src/bot/remote.rs).
            .replicate::<RoundSource>()
            // The input gate's answer, every tick, to each seated client: unreliable, since
            // only the newest matters and a resend would arrive stale.
            .add_server_message::<InputAck>(Channel::Unreliable)
            // It names no entity, so it need not wait for the world state of its tick: a
            // queued ack arrives late, which is what an ack must not do.
            .make_message_independent::<InputAck>()
            // Tandem (docs/TANDEM.md, "Online"): the live round's course and view, and each
            // seat's order, newest wins (a lost one is replaced a Tandem tick later).
            .replicate::<TandemRoundInfo>()
            .replicate::<TandemLive>()
            .add_client_message::<TandemOrder>(Channel::Unreliable)
            // Tandem's per-tick facts (bumps, drops, doorway beats) for sound and the HUD, as
            // the kitchen's `TickEvents`: reliable and ordered, the room's clients only.
            .add_server_message::<TandemEvents>(Channel::Ordered)
            // Emotes (`protocol::emote`): said by a seat, shown to the room's other clients or
            // refused to the sender by name; they name no entity, so none waits for the world
            // state of its tick.
            .add_client_message::<EmoteSaid>(Channel::Ordered)
            .add_server_message::<EmoteShown>(Channel::Ordered)
            .make_message_independent::<EmoteShown>()
            .add_server_message::<EmoteRefused>(Channel::Ordered)
            .make_message_independent::<EmoteRefused>();
    }
}

/// The kitchen a view entity belongs to (the room entity, mapped by the replication layer:
/// `#[entities]` makes replicon translate the server's entity into the client's).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InRoom(#[entities] pub Entity);

/// One ticket on the rail, as the HUD shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderView {
    pub id: u32,
    /// The recipe's id in the book (e.g. "salad").
    pub recipe: String,
    /// Display name (e.g. "Salad").
    pub name: String,
    pub parts: Vec<(Ingredient, Form)>,
    pub value: i32,
    /// The room tick at which the order is missed (absolute, so the ticket does not change
    /// every tick; [`OrderView::ticks_left`] gives the countdown against [`RoomClock::tick`]).
    pub deadline: u32,
    /// The span every order is given (for the deadline bar).
    pub ticks_total: u32,
    /// Versus: the team whose rail it is on (`None` in a co-op round).
    pub team: Option<Team>,
}

impl OrderView {
    /// Ticks left before the order is missed, at room tick `tick` (the old `ticks_left` field:
    /// `order.ticks_left(clock.tick)`).
    pub fn ticks_left(&self, tick: u32) -> u32 {
        self.deadline.saturating_sub(tick)
    }
}

/// The room's public state that changes at event pace (score, rail, props): on the room
/// entity. The per-tick clock is [`RoomClock`], on the same entity.
#[derive(Component, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomView {
    pub level_id: String,
    pub level_name: String,
    pub hint: String,
    pub time_limit: u32,
    pub score: i32,
    pub target: i32,
    pub streak: u32,
    pub result: Option<Verdict>,
    pub stars: u8,
    pub orders: Vec<OrderView>,
    pub plates_clean: u32,
    pub plates_dirty: u32,
    pub pots_clean: u32,
    pub served: u32,
    pub missed: u32,
    /// The round's assists (off for most rounds): the HUD and the save mark an assisted round.
    pub assist: Assist,
    /// Survival's tallies, in a survival round only (`sim::survival`): the HUD's clock and the
    /// save's best survival (`survived` once the clock ran out).
    pub survival: Option<SurvivalClock>,
    /// Versus's two tallies (score, streak, served, missed per team), on a level with teams
    /// only (`sim::versus`); `score` and `streak` above stay 0 then.
    pub versus: Option<VersusTally>,
}

/// The room's clock: on the room entity, changes every tick (kept tiny for that reason).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomClock {
    /// The next tick the room simulates (the sim's `room.tick`).
    pub tick: u32,
    /// Ticks left on the round clock.
    pub time_left: u32,
}

/// The kitchen's grid: on the room entity, sent once per level.
#[derive(Component, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GridView {
    pub width: i32,
    pub height: i32,
    /// Row-major.
    pub tiles: Vec<Tile>,
}

/// One cook, on its own entity: what changes at event pace. Its position is [`CookMotion`],
/// on the same entity.
#[derive(Component, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CookView {
    pub seat: u8,
    pub name: String,
    pub facing: Dir4,
    pub state: CookState,
    pub stun: u32,
    /// The carried item's id, if any.
    pub held: Option<u32>,
    /// Ticks the action button has been held (for hold animations).
    pub action_ticks: u32,
    /// Ticks of dash burst left (0 = not dashing: the trail is drawn while it runs).
    pub dash: u32,
    /// Ticks until the next dash is allowed (0 = ready; the cooldown ring on the cook).
    pub dash_cooldown: u32,
    pub score: i32,
    pub dishes_served: u32,
}

/// Where a cook is and how it moves: on the cook's entity beside [`CookView`]. Split out
/// because it changes every tick a cook walks, and replicon resends a changed component whole.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CookMotion {
    /// µtiles.
    pub pos: (i32, i32),
    /// µtiles per tick.
    pub vel: (i32, i32),
}

/// One fixture, on its own entity.
#[derive(Component, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StationView {
    pub index: u16,
    pub kind: StationKind,
    pub cell: (i32, i32),
    pub state: StationState,
    pub progress: u32,
    /// Ticks the current work takes (0 when idle), for progress bars.
    pub duration: u32,
    pub worker: Option<u8>,
    /// Ticks of heat left on its dish before it burns (0 = no countdown): the burn warning.
    pub heat: u32,
}

/// Where an item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ItemPlace {
    Hand(u8),
    Station(u16),
    /// Lying on the floor at a point (µtiles), where a throw left it.
    Floor((i32, i32)),
    /// Thrown: the item's point on the floor plane this tick (µtiles), the arc's height above
    /// the hands (µtiles, 0 at the throw and the landing: the shadow stays on the floor), the
    /// direction it flies, the ticks it has flown (of `THROW_TICKS`) and who threw it.
    Flying {
        pos: (i32, i32),
        height: i32,
        dir: Dir4,
        age: u32,
        thrower: u8,
    },
}

/// What an item is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ItemLook {
    Food(Ingredient, Form),
    Plate(Vec<(Ingredient, Form)>),
    /// The fire extinguisher (a tool).
    Extinguisher,
}

/// One item, on its own entity.
#[derive(Component, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemView {
    pub id: u32,
    pub look: ItemLook,
    pub place: ItemPlace,
    /// ppm.
    pub quality: u32,
    /// Who set it down by hand, and on which tick (the sim's hand-off mark): absent for stock,
    /// pipeline output and food a fixture works. Changes only when the item moves.
    pub set_down: Option<(u8, u32)>,
}

/// Where a hosted room is in its lifecycle (docs/NETWORK.md, "Room lifecycle").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum LobbyPhase {
    /// Seats fill, players pick a level and mark themselves ready.
    #[default]
    Lobby,
    /// Everyone seated is ready; the round starts when `countdown` reaches 0.
    Countdown,
    /// A round is live (the room entity with `RoomView` exists).
    Round,
    /// The round is over; back to the lobby when `countdown` reaches 0.
    Results,
}

/// One seat of a hosted room, as every player in it sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    pub seat: u8,
    pub name: String,
    pub ready: bool,
    /// False while the player is away (the seat is kept for the reconnect window).
    pub connected: bool,
    /// A versus room's seat: the team it plays for in the chosen kitchen (its spawn's team,
    /// `TeamsSpec::team_of_seat`); `None` in every other mode.
    pub team: Option<Team>,
}

/// A hosted room's lobby: on its own entity, which lives as long as the room.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbyView {
    pub code: String,
    pub phase: LobbyPhase,
    /// The level the next round plays.
    pub level_id: String,
    /// The level ids a player may choose: the kitchens of the room's mode (a versus room's
    /// are the host's versus kitchens, every other mode's the co-op ones).
    pub levels: Vec<String>,
    pub seats: Vec<SeatView>,
    /// Ticks left in the countdown or the results screen (0 otherwise).
    pub countdown: u32,
    /// The last round's result payload (src/report.rs), as JSON text; empty before any round.
    pub last_result: String,
    /// The next round's assists (chosen by the host: the player in the room's first seat).
    pub assist: Assist,
    /// What the next round plays (chosen by the host): the kitchen, survival, Tandem or versus.
    pub mode: GameMode,
    /// Does the host offer versus kitchens (`--versus-levels`)? The host's key skips versus
    /// when it does not.
    pub versus_offered: bool,
}

/// Client → server: lobby actions of the sender's seat.
#[derive(Message, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LobbyCommand {
    Ready(bool),
    /// Choose the next round's level by id (ignored unless the room offers it; a kitchen of the
    /// other kind — co-op in a versus room, versus in any other — is refused by name).
    Level(String),
    /// Choose the next round's assists (only the host's: the connection holding seat 0).
    Assist(Assist),
    /// Choose what the next round plays (only the host's), refused by name otherwise.
    Mode(GameMode),
}

/// Server → client: sent once per connection, telling the client its seats and how to come
/// back. A window with several local players (couch co-op online) holds several seats on one
/// connection: its local player `slot` plays `seats[slot]`.
#[derive(Message, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Welcome {
    pub code: String,
    /// The connection's seats, by local slot (never empty).
    pub seats: Vec<u8>,
    /// Hex seat secret: `POST /api/rooms/CODE/join {"reconnect": …}` resumes these seats.
    pub reconnect: String,
}

impl Welcome {
    /// The seat of local slot 0 (the only one of a single-player client).
    pub fn seat(&self) -> u8 {
        self.seats.first().copied().unwrap_or(0)
    }
}

/// One shifting floor group, for drawing its cells and the warning flash.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShiftGroupView {
    pub cells: Vec<(i32, i32)>,
    pub phase: ShiftPhase,
    /// Ticks until the cells go (0 while gone): the flash's countdown.
    pub ticks_until_gone: u32,
}

/// Stage 6's public state: on the room entity, only for a kitchen with hazards. The grid's
/// current tiles (a shifted floor) are in `GridView`; burning fixtures are `Blocked` in their
/// `StationView`; the extinguisher is an `ItemLook::Extinguisher` item.
#[derive(Component, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HazardView {
    /// Cart centres, µtiles, by cart index.
    pub carts: Vec<(i32, i32)>,
    /// Half-width of a cart's square body, µtiles.
    pub cart_radius: i32,
    /// Cells under a slick now, `true` for ice.
    pub slicks: Vec<((i32, i32), bool)>,
    pub shifts: Vec<ShiftGroupView>,
    /// Station indices ablaze.
    pub burning: Vec<u16>,
    /// Cooks spraying: (seat, station, ticks so far).
    pub sprays: Vec<(u8, u16, u32)>,
    /// Ticks of spraying that put a fire out (0 without fire).
    pub extinguish_ticks: u32,
}

/// The source texts the live round was built from: on the room entity, replicated once per
/// round. The level and the recipe book are compiled by whoever needs the whole kitchen (a
/// remote bot's planning snapshot); the views alone carry no timetables or recipe indices.
#[derive(Component, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundSource {
    /// The level file's RON, as the round's `Room` was compiled from it.
    pub level: String,
    /// The recipe book's RON the level was compiled against.
    pub recipes: String,
}

/// Client → server: input frames for one of the sender's seats: its local player `slot`
/// (the seat is the connection's `Welcome.seats[slot]`, never a payload's claim).
///
/// The newest frame is `(seq, tick)`; the `held` frames before it are each one seq and one
/// tick earlier with the same controls (a held stick, the common case, costs one count);
/// `older` holds the unacknowledged frames before those, newest first, each one seq earlier
/// and `back` ticks earlier than the frame after it, its controls `None` when they are the
/// same as that frame's. Packed this way a held run costs 1 byte, another repeated frame 2 and
/// a changed one ~6, so repeating the unacknowledged ones in every packet stays inside the
/// upload budget.
#[derive(Message, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputBatch {
    /// The local player these frames are for (0 for a single-player client).
    pub slot: u8,
    /// The client's own number of the newest frame (consecutive per slot).
    pub seq: u32,
    /// The tick the newest frame is meant for.
    pub tick: u32,
    pub newest: PackedInput,
    /// Frames directly before the newest, one tick apart, with its controls.
    pub held: u8,
    pub older: Vec<(u8, Option<PackedInput>)>,
}

/// One frame's controls, without its numbering (see [`InputBatch`]).
///
/// On the wire the stick's two axes are varints and the buttons one byte ([`ButtonByte`]):
/// the action button and the explicit facing each cost a byte of their own otherwise, in
/// every frame a batch carries (issue 16's ≤ 1 KB/s up).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "PackedWire", into = "PackedWire")]
pub struct PackedInput {
    pub mv: (i16, i16),
    pub action: bool,
    pub face: Option<Dir4>,
    /// The second button (dash / throw).
    pub dash: bool,
}

/// [`PackedInput`] as it is written: the stick, then [`ButtonByte`].
#[derive(Clone, Copy, Serialize, Deserialize)]
struct PackedWire(i16, i16, u8);

/// The bits of a frame's button byte: bit 0 the action button, bit 1 the second button (dash /
/// throw), bits 2–4 the explicit facing (0 none, 1–4 `Dir4` in its canonical order). A byte with
/// bits 5–7 set is refused by name, as is a facing above 4.
pub struct ButtonByte;

impl ButtonByte {
    const ACTION: u8 = 0b1;
    const DASH: u8 = 0b10;
    const FACE_SHIFT: u8 = 2;
    const FACE_MASK: u8 = 0b111 << Self::FACE_SHIFT;
    const KNOWN: u8 = Self::ACTION | Self::DASH | Self::FACE_MASK;
}

/// Why a frame's button byte cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ButtonByteError {
    #[error("button byte {0:#010b} sets bits this protocol does not define")]
    UnknownBits(u8),
    #[error("button byte {0:#010b} names facing {1}, past the four directions")]
    BadFacing(u8, u8),
}

impl From<PackedInput> for PackedWire {
    fn from(p: PackedInput) -> PackedWire {
        let face = match p.face {
            None => 0,
            Some(Dir4::Up) => 1,
            Some(Dir4::Down) => 2,
            Some(Dir4::Left) => 3,
            Some(Dir4::Right) => 4,
        };
        let dash = if p.dash { ButtonByte::DASH } else { 0 };
        let buttons = u8::from(p.action) | dash | face << ButtonByte::FACE_SHIFT;
        PackedWire(p.mv.0, p.mv.1, buttons)
    }
}

impl TryFrom<PackedWire> for PackedInput {
    type Error = ButtonByteError;

    fn try_from(PackedWire(x, y, buttons): PackedWire) -> Result<PackedInput, ButtonByteError> {
        if buttons & !ButtonByte::KNOWN != 0 {
            return Err(ButtonByteError::UnknownBits(buttons));
        }
        let face = match (buttons & ButtonByte::FACE_MASK) >> ButtonByte::FACE_SHIFT {
            0 => None,
            1 => Some(Dir4::Up),
            2 => Some(Dir4::Down),
            3 => Some(Dir4::Left),
            4 => Some(Dir4::Right),
            n => return Err(ButtonByteError::BadFacing(buttons, n)),
        };
        Ok(PackedInput {
            mv: (x, y),
            action: buttons & ButtonByte::ACTION != 0,
            face,
            dash: buttons & ButtonByte::DASH != 0,
        })
    }
}

impl PackedInput {
    pub fn of(frame: &InputFrame) -> PackedInput {
        PackedInput { mv: frame.mv, action: frame.action, face: frame.face, dash: frame.dash }
    }
}

/// Why an [`InputBatch`] cannot be unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BatchError {
    #[error("more than {0} frames in one batch")]
    TooLong(usize),
    #[error("a frame's seq or tick runs below zero")]
    Underflow,
}

/// The most frames one [`InputBatch`] may carry (the newest and 15 repeats: 0.8 s of frames).
pub const MAX_BATCH: usize = 16;

impl InputBatch {
    /// A batch of consecutive frames, oldest first (the last is the newest). `None` when empty.
    pub fn pack(slot: u8, frames: &[InputFrame]) -> Option<InputBatch> {
        let (newest, rest) = frames.split_last()?;
        let (mut after, after_controls) = (newest.tick, PackedInput::of(newest));
        let mut before = rest.iter().rev().peekable();
        let mut held = 0u8;
        while held < u8::MAX
            && before
                .next_if(|f| f.tick + 1 == after && PackedInput::of(f) == after_controls)
                .is_some()
        {
            held += 1;
            after -= 1;
        }
        let mut after_controls = after_controls;
        let older = before
            .map(|f| {
                let back = after.saturating_sub(f.tick).min(u8::MAX as u32) as u8;
                let controls = PackedInput::of(f);
                let same = controls == after_controls;
                (after, after_controls) = (f.tick, controls);
                (back, (!same).then_some(controls))
            })
            .collect();
        Some(InputBatch {
            slot,
            seq: newest.seq,
            tick: newest.tick,
            newest: PackedInput::of(newest),
            held,
            older,
        })
    }

    /// The frames, oldest first, with their seqs and ticks restored; a batch longer than
    /// [`MAX_BATCH`] or numbered below zero is refused whole.
    pub fn unpack(&self) -> Result<Vec<InputFrame>, BatchError> {
        if self.held as usize + self.older.len() + 1 > MAX_BATCH {
            return Err(BatchError::TooLong(MAX_BATCH));
        }
        let frame = |seq, tick, p: &PackedInput| InputFrame {
            seq,
            tick,
            mv: p.mv,
            action: p.action,
            face: p.face,
            dash: p.dash,
        };
        let mut out = Vec::with_capacity(self.older.len() + 1);
        out.push(frame(self.seq, self.tick, &self.newest));
        let (mut seq, mut tick, mut controls) = (self.seq, self.tick, self.newest);
        for _ in 0..self.held {
            seq = seq.checked_sub(1).ok_or(BatchError::Underflow)?;
            tick = tick.checked_sub(1).ok_or(BatchError::Underflow)?;
            out.push(frame(seq, tick, &controls));
        }
        for (back, p) in &self.older {
            seq = seq.checked_sub(1).ok_or(BatchError::Underflow)?;
            tick = tick.checked_sub(*back as u32).ok_or(BatchError::Underflow)?;
            controls = p.unwrap_or(controls);
            out.push(frame(seq, tick, &controls));
        }
        out.reverse();
        Ok(out)
    }
}

/// Server → client, once per tick of a live round, to each seated client: what the input
/// gate did with the client's frames. The client's clock sync, its send timing, its resends
/// and its latency numbers all read this (docs/NETWORK.md, "Input over a real link").
#[derive(Message, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputAck {
    /// The local player slot this ack is about (one ack per seat of the connection).
    pub slot: u8,
    /// The room's next tick (the tick just simulated + 1), as `RoomClock.tick`.
    pub tick: u32,
    /// The newest client seq the server has received (None before the first).
    pub received: Option<u32>,
    /// Milliseconds between `received` arriving and this ack leaving (the client subtracts
    /// it from its round-trip sample).
    pub held_ms: u16,
    /// How early `received` arrived: milliseconds before the step of the tick it was stamped
    /// for; negative when it arrived after that step (it was then applied late).
    pub slack_ms: i16,
    /// The client seq of the frame applied to this seat's cook at the tick just simulated.
    pub applied: Option<u32>,
    /// Frames of this slot applied late, since it connected.
    pub late: u32,
}

/// Server → client: the facts of one tick of the client's room, for sound and effects.
#[derive(Message, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TickEvents {
    pub tick: u32,
    pub events: Vec<SimEvent>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_controls() -> Vec<PackedInput> {
        let faces = [None, Some(Dir4::Up), Some(Dir4::Down), Some(Dir4::Left), Some(Dir4::Right)];
        let mut out = Vec::new();
        for (action, dash) in [(false, false), (true, false), (false, true), (true, true)] {
            for face in faces {
                for mv in [(0, 0), (-1000, 1000), (i16::MIN, i16::MAX)] {
                    out.push(PackedInput { mv, action, face, dash });
                }
            }
        }
        out
    }

    #[test]
    fn controls_cross_the_wire_unchanged_in_three_bytes_when_still() {
        for p in every_controls() {
            let mut buf = [0u8; 16];
            let bytes = postcard::to_slice(&p, &mut buf).unwrap();
            assert_eq!(postcard::from_bytes::<PackedInput>(bytes).unwrap(), p);
            if p.mv == (0, 0) {
                assert_eq!(bytes.len(), 3, "{p:?}");
            }
        }
    }

    #[test]
    fn a_button_byte_with_undefined_bits_or_facing_is_refused_by_name() {
        let read = |buttons: u8| PackedInput::try_from(PackedWire(0, 0, buttons));
        assert!(read(0b10).unwrap().dash);
        assert_eq!(read(0b10_0000), Err(ButtonByteError::UnknownBits(0b10_0000)));
        assert_eq!(read(0b1000_0001), Err(ButtonByteError::UnknownBits(0b1000_0001)));
        assert_eq!(read(5 << 2), Err(ButtonByteError::BadFacing(5 << 2, 5)));
        assert_eq!(read(7 << 2 | 1), Err(ButtonByteError::BadFacing(7 << 2 | 1, 7)));
        assert!(postcard::from_bytes::<PackedInput>(&[0, 0, 0b100_0000]).is_err());
        assert_eq!(read(4 << 2 | 1).unwrap().face, Some(Dir4::Right));
    }
}
