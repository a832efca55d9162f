//! The headless client's `--inputs`: what a connection with no player sends each tick — a
//! wandering stick, neutral frames, nothing, or the planner bot playing the seat from the
//! replicated views. Each is planned for the very ticks the uplink is about to stamp and put
//! in the session's outbox (`net::client::outbox`), which the session sends like the window's.

use crate::bot::remote::RemoteBot;
use crate::net::client::outbox::Outbox;
use crate::net::client::seats::ClientSession;
use crate::net::client::seen::{SeenRound, with_views};
use crate::protocol::{GridView, PackedInput, RoomClock, RoomView, TickEvents};
use crate::sim::events::SimEvent;
use crate::sim::input::InputFrame;
use bevy::prelude::*;

/// What the client sends each tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum InputMode {
    /// A wandering stick and an occasional press.
    Random,
    /// Neutral frames (still sent, so the link is measured).
    Idle,
    /// Nothing sent (tests drive inputs by hand).
    Manual,
    /// The planner bot plays the seat from the replicated views (src/bot/remote.rs): a load
    /// that behaves like players.
    Bot,
}

/// The input source of one headless connection.
#[derive(Resource)]
pub struct HeadlessInputs {
    pub mode: InputMode,
    /// The `--inputs bot` planner of this connection.
    pub bot: Option<RemoteBot>,
    /// (view tick the events show at, the events), in arrival order: what the bot has not
    /// planned on yet.
    events: Vec<(u32, Vec<SimEvent>)>,
    random: RandomStick,
}

impl HeadlessInputs {
    /// `mode`'s source for `seat`; `seed` varies the random stick between connections.
    pub fn new(mode: InputMode, seat: u8, seed: u64) -> HeadlessInputs {
        // The bot learns how far ahead its frames are stamped from each frame's tick.
        let bot = (mode == InputMode::Bot).then(|| RemoteBot::new(seat, 2));
        HeadlessInputs { mode, bot, events: Vec::new(), random: RandomStick::new(seed) }
    }
}

/// `--inputs random`: a wandering stick and an occasional press, the same for the headless
/// client and the load generator's lean connections (`net::tools::lean_client`).
#[derive(Clone, Debug)]
pub struct RandomStick {
    rng: u64,
    stick: (i16, i16),
}

impl RandomStick {
    /// `seed` varies the stick between connections.
    pub fn new(seed: u64) -> RandomStick {
        RandomStick { rng: seed | 1, stick: (0, 0) }
    }

    fn next(&mut self) -> u64 {
        // xorshift64*: a load generator needs variety, not quality.
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// The random stick and button for `tick`: a new direction every ten ticks.
    pub fn frame(&mut self, tick: u32) -> PackedInput {
        if tick.is_multiple_of(10) {
            let r = self.next();
            let axis = |v: u64| ((v % 3) as i16 - 1) * 1000;
            self.stick = (axis(r), axis(r >> 8));
        }
        let action = self.next().is_multiple_of(8);
        PackedInput { mv: self.stick, action, face: None, dash: false }
    }
}

/// Plans slot 0's frames for the ticks its uplink is about to send, from this connection's
/// `--inputs`, into the outbox (the session sends them right after).
pub fn plan_inputs(
    seen: SeenRound,
    s: Res<ClientSession>,
    mut inputs: ResMut<HeadlessInputs>,
    mut ticks: MessageReader<TickEvents>,
    mut outbox: ResMut<Outbox>,
) {
    if inputs.bot.is_some() {
        let fresh: Vec<(u32, Vec<SimEvent>)> =
            ticks.read().map(|t| (t.tick, t.events.clone())).collect();
        inputs.events.extend(fresh);
    }
    let Some((room, clock, view, grid)) = seen.rooms.iter().next() else {
        inputs.events.clear();
        return;
    };
    if inputs.mode == InputMode::Manual || view.result.is_some() {
        return;
    }
    let Some(due) = s.uplink().and_then(|u| u.due_ticks(s.frame_now())) else { return };
    for tick in due {
        let controls = match inputs.mode {
            InputMode::Bot => {
                PackedInput::of(&bot_frame(&mut inputs, &seen, room, *clock, view, grid, tick))
            }
            InputMode::Random => inputs.random.frame(tick),
            InputMode::Idle | InputMode::Manual => PackedInput::default(),
        };
        outbox.plan(0, tick, controls);
    }
}

/// The bot's frame for `tick`, planned on the round as the client sees it now; a neutral frame
/// until the round's grid and sources have arrived.
fn bot_frame(
    inputs: &mut HeadlessInputs,
    seen: &SeenRound,
    room: Entity,
    clock: RoomClock,
    view: &RoomView,
    grid: Option<&GridView>,
    tick: u32,
) -> InputFrame {
    let now = clock.tick;
    let mut events = Vec::new();
    inputs.events.retain(|(at, ev)| {
        if *at <= now {
            events.extend(ev.iter().cloned());
            false
        } else {
            true
        }
    });
    let (Some(bot), Some(grid), Ok(source)) = (inputs.bot.as_mut(), grid, seen.sources.get(room))
    else {
        return InputFrame { tick, ..InputFrame::default() };
    };
    with_views(seen, room, clock, view, grid, &events, |views| {
        bot.frame(room.to_bits(), source, views, tick)
    })
}
