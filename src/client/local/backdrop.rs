//! The live kitchen behind the title and the menus: a room of four planner bots cooking a
//! campaign level, drawn like any round but silent and untagged (`state::BackdropRoom`). When
//! its round ends it moves on to the next level of its list with the next seed; it is gone the
//! moment a real round or a network screen opens, and back when the menu returns.
//! It is local play's embedded host doing what it does for a round, with no local seat.

use crate::bot::planner::BotTeam;
use crate::client::args::Options;
use crate::client::state::local_play;
use crate::client::state::{AppState, BackdropRoom};
use crate::level::{find_level, load_recipes_file};
use crate::protocol::InRoom;
use crate::schedule::TickSystems;
use crate::sim::ids::Seat;
use crate::sim::open::SeatSpec;
use crate::sim::room::Room;
use crate::sim::units::MAX_COOKS;
use bevy::prelude::*;
use std::sync::Arc;

/// The levels the backdrop cycles through: busy ones, each with something on the heat.
const BACKDROP_LEVELS: [&str; 3] = ["soup_kitchen", "burger_bar", "corner_diner"];

/// Seconds a finished backdrop round stays on screen before the next one opens.
const BETWEEN_ROUNDS_SECS: f32 = 3.0;

/// The backdrop's bots, on its room entity.
#[derive(Component)]
struct BackdropBots(BotTeam);

/// Which backdrop round is next (its level and seed) and how long the current one has been
/// decided.
#[derive(Resource, Default, Debug)]
struct BackdropCycle {
    next: usize,
    decided_for: f32,
}

/// The title's live kitchen.
pub struct BackdropPlugin;

impl Plugin for BackdropPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<BackdropCycle>();
        for state in [AppState::Title, AppState::Menu] {
            app.add_systems(OnEnter(state), open_backdrop.run_if(local_play));
        }
        for state in [
            AppState::Playing,
            AppState::Host,
            AppState::Join,
            AppState::PlayOnline,
            AppState::Tandem,
            AppState::Editor,
        ] {
            app.add_systems(OnEnter(state), close_backdrop);
        }
        app.add_systems(FixedUpdate, drive_backdrop_bots.in_set(TickSystems::Host));
        app.add_systems(Update, renew_backdrop.run_if(local_play));
    }
}

/// Open a backdrop room unless one is up (or `--level` or `--daily` goes straight to a round).
fn open_backdrop(world: &mut World) {
    let options = world.resource::<Options>().0.clone();
    if options.level.is_some()
        || options.daily
        || options.bundle.is_some()
        || world.query::<&BackdropRoom>().iter(world).next().is_some()
    {
        return;
    }
    let book = match load_recipes_file(&options.recipes) {
        Ok(book) => book,
        Err(e) => {
            warn!("no live kitchen behind the menu: {e}");
            return;
        }
    };
    // The next level of the list that loads (a trimmed campaign may lack some).
    let start = world.resource::<BackdropCycle>().next;
    let found = (0..BACKDROP_LEVELS.len()).find_map(|k| {
        let id = BACKDROP_LEVELS[(start + k) % BACKDROP_LEVELS.len()];
        find_level(&options.levels, id, &book).ok().map(|level| (k, level))
    });
    let Some((k, level)) = found else {
        warn!("no live kitchen behind the menu: none of {BACKDROP_LEVELS:?} loads");
        return;
    };
    let seats: Vec<SeatSpec> =
        (0..MAX_COOKS as u8).map(|s| SeatSpec::new(s, format!("Cook {}", s + 1))).collect();
    let all: Vec<Seat> = (0..MAX_COOKS as Seat).collect();
    let mut cycle = world.resource_mut::<BackdropCycle>();
    let round = start + k;
    cycle.next = round + 1;
    cycle.decided_for = 0.0;
    let room = Room::new(Arc::new(level), Arc::new(book), 1 + round as u64, &seats);
    let team = BotTeam::new(&room, &all);
    world.spawn((room, BackdropBots(team), BackdropRoom));
}

/// Despawn the backdrop room and every view of it.
fn close_backdrop(world: &mut World) {
    let rooms: Vec<Entity> =
        world.query_filtered::<Entity, With<BackdropRoom>>().iter(world).collect();
    for room in rooms {
        let views: Vec<Entity> = world
            .query::<(Entity, &InRoom)>()
            .iter(world)
            .filter(|(_, r)| r.0 == room)
            .map(|(e, _)| e)
            .collect();
        for e in views {
            world.despawn(e);
        }
        world.despawn(room);
    }
}

/// Each tick, before the sim resolves input: the backdrop's bots press, as a round's do.
fn drive_backdrop_bots(mut rooms: Query<(&mut Room, &mut BackdropBots)>) {
    for (mut room, mut bots) in &mut rooms {
        if room.result.is_none() {
            bots.0.drive(&mut room);
        }
    }
}

/// A decided backdrop round stays up a moment, then the next level opens.
fn renew_backdrop(world: &mut World) {
    let decided = world
        .query_filtered::<&Room, With<BackdropRoom>>()
        .iter(world)
        .next()
        .map(|room| room.result.is_some());
    if decided != Some(true) {
        return;
    }
    let dt = world.resource::<Time<Real>>().delta_secs();
    let mut cycle = world.resource_mut::<BackdropCycle>();
    cycle.decided_for += dt;
    if cycle.decided_for >= BETWEEN_ROUNDS_SECS {
        close_backdrop(world);
        open_backdrop(world);
    }
}
