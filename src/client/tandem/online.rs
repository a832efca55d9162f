//! Tandem in an online room (the window and the browser alike): while the server replicates a
//! Tandem round, its course (generated here from the round's seed, the digest checked) and its
//! newest view fill the [`TandemScreen`] the scene and HUD draw, the facts of each tick the
//! server tells of go once into the [`TandemTick`] stream the local run writes (sounds, HUD
//! beats), and each of this window's carrying seats sends its order every Tandem tick from the
//! same binding code as the local run (`run::order_from_action`), at once when it changes; under
//! `--autoplay` the seat is driven as a headless `join --inputs` seat is
//! (`net::client::tandem_seat::TandemSeat`: `bot` the porter, from the replicated view).

use super::beats::TandemTick;
use super::run::{TANDEM_HZ, TandemRun, order_from_action};
use super::screen::TandemScreen;
use crate::client::args::{Autoplay, Options};
use crate::client::input::{Lineup, LocalPlayer};
use crate::client::settings::device::{CookAction, Device};
use crate::net::client::seats::ClientSession;
use crate::net::client::session::SendPace;
use crate::net::client::tandem_seat::{SeatDriver, TandemSeat};
use crate::protocol::tandem::{Carrier, TandemEvents, TandemLive, TandemOrder, TandemRoundInfo};
use crate::schedule::FrameSystems;
use crate::tandem::control::SeatOrder;
use crate::tandem::course::{Course, generate};
use bevy::prelude::*;
use bevy_replicon_renet::RenetClient;
use leafwing_input_manager::prelude::ActionState;
use std::sync::Arc;

/// Follows a room's Tandem round and sends this window's orders.
pub struct TandemOnlinePlugin;

impl Plugin for TandemOnlinePlugin {
    fn build(&self, app: &mut App) {
        // The stream the round's facts go into (read by `beats.rs` where a window presents).
        app.init_resource::<OrderClock>().add_message::<TandemTick>();
        app.add_systems(
            Update,
            (follow_round, hear_round, send_orders, send_autoplay_orders)
                .chain()
                .in_set(FrameSystems::Hear)
                .run_if(resource_exists::<RenetClient>),
        );
    }
}

/// When this window's orders last went out, and their numbering.
#[derive(Resource, Debug, Default)]
pub struct OrderClock {
    /// Seconds since the last send.
    since: f32,
    /// The last seq sent (rising for the whole connection: the server keeps the newest).
    pub seq: u32,
    /// By local slot: the order last sent.
    last: Vec<SeatOrder>,
}

/// The course of the round on screen (kept while the seed is the same).
#[derive(Default)]
struct CourseCache(Option<Arc<Course>>);

/// The replicated round onto the screen (or the screen cleared when the round is gone), unless
/// a local run owns it.
fn follow_round(
    mut commands: Commands,
    rounds: Query<(&TandemRoundInfo, &TandemLive)>,
    screen: Option<ResMut<TandemScreen>>,
    local: Option<Res<TandemRun>>,
    session: Res<ClientSession>,
    lineup: Option<Res<Lineup>>,
    mut cache: Local<CourseCache>,
) {
    if local.is_some() {
        return;
    }
    let Some((info, live)) = rounds.iter().next() else {
        if screen.is_some() {
            commands.remove_resource::<TandemScreen>();
        }
        return;
    };
    let course = match &cache.0 {
        Some(c) if c.seed == info.seed => c.clone(),
        _ => {
            let course = Arc::new(generate(info.seed));
            if course.digest != info.digest {
                // Another build's rules: drawing our course would show a different run.
                error!(seed = info.seed, "tandem: this build's course differs from the server's");
                return;
            }
            cache.0 = Some(course.clone());
            course
        }
    };
    match screen {
        Some(mut screen) if screen.course.seed == course.seed => {
            TandemScreen::show(&mut screen, &live.0);
        }
        _ => {
            let seats = session.seats();
            // Local slot k plays seats[k]; a seat carries unless the porter has it.
            let carrying = |s: usize| {
                seats
                    .iter()
                    .position(|&seat| seat as usize == s)
                    .filter(|_| matches!(info.carriers[s], Carrier::Player(_)))
            };
            let pad = |s: usize| {
                let device = lineup.as_ref()?.0.get(carrying(s)?)?;
                match device {
                    Device::Gamepad(pad) if *pad != Entity::PLACEHOLDER => Some(*pad),
                    _ => None,
                }
            };
            commands.insert_resource(TandemScreen {
                course,
                view: live.0.clone(),
                pads: [pad(0), pad(1)],
                mine: [carrying(0).is_some(), carrying(1).is_some()],
                online: true,
            });
        }
    }
}

/// The server's facts of each tick into the window's [`TandemTick`] stream, each tick once: a
/// tick not above the last one played this round is dropped (a repeat never sounds twice).
fn hear_round(
    mut told: MessageReader<TandemEvents>,
    rounds: Query<&TandemRoundInfo>,
    mut ticks: MessageWriter<TandemTick>,
    mut last: Local<(Option<u64>, Option<u32>)>,
) {
    let seed = rounds.iter().next().map(|i| i.seed);
    if seed.is_some() && seed != last.0 {
        *last = (seed, None);
    }
    for message in told.read() {
        if last.1.is_some_and(|t| message.tick <= t) {
            continue;
        }
        last.1 = Some(message.tick);
        ticks.write(TandemTick(message.clone()));
    }
}

/// `--autoplay bot|random` online: each of this window's seats that carries is driven as a
/// headless `join --inputs bot|random` seat (the porter planning from the replicated view, or
/// a wandering stick), answering every new view once.
fn send_autoplay_orders(
    rounds: Query<(&TandemRoundInfo, &TandemLive)>,
    options: Option<Res<Options>>,
    session: Res<ClientSession>,
    mut clock: ResMut<OrderClock>,
    mut seats: Local<Vec<TandemSeat>>,
    mut pace: ResMut<SendPace>,
    mut out: MessageWriter<TandemOrder>,
) {
    let driver = match options.and_then(|o| o.0.autoplay) {
        Some(Autoplay::Bot) => SeatDriver::Porter,
        Some(Autoplay::Random) => SeatDriver::Random,
        None => return,
    };
    let Some((info, live)) = rounds.iter().next() else { return };
    let held = session.seats();
    if seats.len() != held.len() {
        *seats = held.iter().map(|&seat| TandemSeat::new(driver, Some(seat))).collect();
    }
    for (slot, seat) in seats.iter_mut().enumerate() {
        seat.follow(info);
        let Some(order) = seat.answer(info, live) else { continue };
        clock.seq += 1;
        out.write(TandemOrder { slot: slot as u8, seq: clock.seq, order });
        pace.due = true;
    }
}

/// Each local player whose seat carries sends its order every Tandem tick, and at once when it
/// changes (the server keeps the newest). A watching seat sends nothing (the server would
/// refuse it as `no_round`).
fn send_orders(
    time: Res<Time<Real>>,
    rounds: Query<&TandemRoundInfo>,
    devices: Query<(&LocalPlayer, &ActionState<CookAction>)>,
    session: Res<ClientSession>,
    mut clock: ResMut<OrderClock>,
    mut pace: ResMut<SendPace>,
    mut out: MessageWriter<TandemOrder>,
) {
    let Some(info) = rounds.iter().next() else {
        clock.since = 0.0;
        return;
    };
    let seats = session.seats();
    clock.since += time.delta_secs();
    let due = clock.since >= 1.0 / TANDEM_HZ as f32;
    for (player, state) in &devices {
        let slot = player.seat as usize;
        let carries = seats.get(slot).and_then(|&seat| info.carriers.get(seat as usize));
        if !matches!(carries, Some(Carrier::Player(_))) {
            continue;
        }
        let order = order_from_action(state);
        if clock.last.len() <= slot {
            clock.last.resize(slot + 1, SeatOrder::HOLD);
        }
        if !due && clock.last[slot] == order {
            continue;
        }
        clock.last[slot] = order;
        clock.seq += 1;
        out.write(TandemOrder { slot: slot as u8, seq: clock.seq, order });
        pace.due = true;
    }
    if due {
        clock.since = 0.0;
    }
}
