//! The Tandem run in the window: one `TandemRoom`, stepped at the mode's 24 Hz on its own
//! accumulator, one order per seat per tick from a local player's stick and hold button
//! (`SeatOrder::from_stick`, integers only into the rules) or from the porter bot; each tick's
//! view goes to the [`TandemScreen`] the scene and HUD draw, and its facts to the same
//! [`TandemTick`] stream an online round's come in by (sounds and HUD beats).

use super::beats::TandemTick;
use super::screen::TandemScreen;
use super::setup::TandemSetup;
use crate::client::args::Partner;
use crate::client::args::{Autoplay, Options};
use crate::client::input::{Lineup, fill_lineup, frame_from_action};
use crate::client::settings::config::Bindings;
use crate::client::settings::device::{CookAction, Device};
use crate::client::state::AppState;
use crate::protocol::tandem::TandemEvents;
use crate::tandem::control::{Seat, SeatOrder};
use crate::tandem::porter::Porter;
use crate::tandem::recorder::TandemRecorder;
use crate::tandem::room::{TandemRoom, TurnTicks};
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

/// The mode's tick rate (seed 003: 24 ticks a second).
pub const TANDEM_HZ: u32 = 24;
/// What a replay bundle calls the window's runs (`local-<n>.tandem-bundle.ron`).
pub const LOCAL_ROOM: &str = "local";
/// Ticks one frame may catch up at most (a stalled window does not fast-forward the couch).
const MAX_CATCH_UP: u32 = 4;

/// Who drives a seat.
pub enum Driver {
    /// A local player's device (its leafwing entity).
    Player(Device),
    Porter(Box<Porter>),
}

/// The run being played.
#[derive(Resource)]
pub struct TandemRun {
    pub room: TandemRoom,
    pub drivers: [Driver; 2],
    /// Where the couch started, view mm (for the report and the screenshot test).
    pub start_mm: (i32, i32),
    /// The run's replay-bundle recording (`record.rs` writes it; taken then).
    pub recorder: Option<TandemRecorder>,
    /// Real time not yet stepped, seconds (presentation only: it decides when, never what).
    carry: f32,
}

/// A local player's input entity in a run: the seat its stick steers.
#[derive(Component, Clone, Copy, Debug)]
pub struct TandemHand {
    pub seat: usize,
}

pub struct TandemRunPlugin;

impl Plugin for TandemRunPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(OnEnter(AppState::Tandem), start_run);
        app.add_systems(OnExit(AppState::Tandem), end_run);
        app.add_systems(Update, step_run.run_if(in_state(AppState::Tandem)));
        app.add_systems(Last, report_run_on_exit);
    }
}

pub fn start_run(
    mut commands: Commands,
    setup: Res<TandemSetup>,
    options: Res<Options>,
    lineup: Res<Lineup>,
    bindings: Res<Bindings>,
    pads: Query<Entity, With<Gamepad>>,
    time: Res<Time<Real>>,
) {
    // A random course: how long the player took to get here, to the nanosecond (works in
    // the browser too). Only the choice of course; the run is a pure function of its seed.
    let entropy = time.elapsed().as_nanos() as u64;
    let room = TandemRoom::new(setup.seed(entropy), TurnTicks::Live);
    let players = match setup.partner {
        Partner::Couch => 2,
        Partner::Porter => 1,
    };
    let mut devices = lineup.clone();
    devices.0.truncate(players);
    fill_lineup(&mut devices, players as u8, &pads.iter().collect::<Vec<_>>());
    let bot = |seat| Driver::Porter(Box::new(Porter::new(seat, &room.course, room.turn_ticks)));
    let all_bots = options.0.autoplay == Some(Autoplay::Bot);
    let drivers: [Driver; 2] = std::array::from_fn(|s| match devices.0.get(s) {
        Some(d) if !all_bots => Driver::Player(*d),
        _ => bot(Seat::BOTH[s]),
    });
    for (seat, driver) in drivers.iter().enumerate() {
        if let Driver::Player(device) = driver {
            commands.spawn((
                bindings.map(*device),
                TandemHand { seat },
                DespawnOnExit(AppState::Tandem),
            ));
        }
    }
    let start_mm = room.view().centre_mm;
    info!("tandem: seed {} ({} route cells)", room.course.seed, room.course.route.len());
    let pad = |d: &Driver| match d {
        Driver::Player(Device::Gamepad(pad)) if *pad != Entity::PLACEHOLDER => Some(*pad),
        _ => None,
    };
    commands.insert_resource(TandemScreen {
        course: room.course.clone(),
        view: room.view(),
        pads: [pad(&drivers[0]), pad(&drivers[1])],
        mine: drivers.each_ref().map(|d| matches!(d, Driver::Player(_))),
        online: false,
    });
    let recorder = Some(TandemRecorder::start(&room, LOCAL_ROOM, 1, seats_of(&drivers)));
    commands.insert_resource(TandemRun { room, drivers, start_mm, recorder, carry: 0.0 });
}

/// Who drives each seat, as a replay bundle names it.
pub fn seats_of(drivers: &[Driver; 2]) -> Vec<(u8, String)> {
    let who = |d: &Driver| match d {
        Driver::Player(_) => "player",
        Driver::Porter(_) => "porter",
    };
    drivers.iter().enumerate().map(|(s, d)| (s as u8, who(d).to_string())).collect()
}

/// Leaving the run's screen drops the run (after `record::write_when_left`) and its screen.
pub fn end_run(mut commands: Commands) {
    commands.remove_resource::<TandemRun>();
    commands.remove_resource::<TandemScreen>();
}

/// A player's order from an action state: the stick in the view frame (y up) and the action
/// button as the hold (full yield).
pub fn order_from_action(state: &ActionState<CookAction>) -> SeatOrder {
    let ((x, y_down), act) = frame_from_action(state);
    SeatOrder::from_stick(x as i32, -(y_down as i32), act)
}

pub fn step_run(
    time: Res<Time<Real>>,
    run: Option<ResMut<TandemRun>>,
    screen: Option<ResMut<TandemScreen>>,
    hands: Query<(&TandemHand, &ActionState<CookAction>)>,
    mut ticks: MessageWriter<TandemTick>,
) {
    let (Some(mut run), Some(mut screen)) = (run, screen) else { return };
    let mut player_orders = [SeatOrder::HOLD; 2];
    for (hand, state) in &hands {
        player_orders[hand.seat] = order_from_action(state);
    }
    let dt = 1.0 / TANDEM_HZ as f32;
    run.carry = (run.carry + time.delta_secs()).min(dt * MAX_CATCH_UP as f32);
    while run.carry >= dt && run.room.outcome().is_none() {
        run.carry -= dt;
        let run = &mut *run;
        let orders: [SeatOrder; 2] = std::array::from_fn(|s| match &mut run.drivers[s] {
            Driver::Player(_) => player_orders[s],
            Driver::Porter(p) => p.order(&run.room),
        });
        // Stepped through the recorder (its bundle) when one is recording. A refusal only
        // says the run has ended, which the loop condition already checks.
        let stepped = match &mut run.recorder {
            Some(recorder) => recorder.step(&mut run.room, orders),
            None => run.room.step(orders).map(|_| ()),
        };
        if let Err(refusal) = stepped {
            info!("tandem: {refusal}");
            break;
        }
        ticks.write_batch(TandemEvents::of(run.room.tick - 1, &run.room.events).map(TandemTick));
    }
    if screen.view.tick != run.room.tick {
        TandemScreen::show(&mut screen, &run.room.view());
    }
}

/// When the app exits with a run up, one line of where it stands (scripts and the client
/// test read it: the couch moved, from the game's own state).
fn report_run_on_exit(mut exits: MessageReader<AppExit>, run: Option<Res<TandemRun>>) {
    if exits.read().next().is_none() {
        return;
    }
    let Some(run) = run else { return };
    let v = run.room.view();
    println!(
        "tandem: seed {} tick {} start_mm {},{} centre_mm {},{} progress {} damage {} score {}",
        run.room.course.seed,
        v.tick,
        run.start_mm.0,
        run.start_mm.1,
        v.centre_mm.0,
        v.centre_mm.1,
        v.progress_permille,
        v.damage,
        v.score.score
    );
}
