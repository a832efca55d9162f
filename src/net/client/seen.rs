//! What a client sees of its round, as one system parameter: the room entity with its clock,
//! view and grid, the round's sources, and the cooks, fixtures and items that belong to it —
//! what the remote bot plans on and the prediction rebuilds from (`bot::remote::Views`).

use crate::bot::remote::Views;
use crate::protocol::{
    CookMotion, CookView, GridView, InRoom, ItemView, RoomClock, RoomView, RoundSource, StationView,
};
use crate::sim::events::SimEvent;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

/// What the client sees of its round: the room entity and the rows that belong to it.
#[derive(SystemParam)]
pub struct SeenRound<'w, 's> {
    pub rooms:
        Query<'w, 's, (Entity, &'static RoomClock, &'static RoomView, Option<&'static GridView>)>,
    pub sources: Query<'w, 's, &'static RoundSource>,
    pub cooks: Query<'w, 's, (&'static InRoom, &'static CookView, &'static CookMotion)>,
    pub stations: Query<'w, 's, (&'static InRoom, &'static StationView)>,
    pub items: Query<'w, 's, (&'static InRoom, &'static ItemView)>,
}

/// Calls `f` with the views of `room` as this client sees them now.
pub fn with_views<R>(
    seen: &SeenRound,
    room: Entity,
    clock: RoomClock,
    view: &RoomView,
    grid: &GridView,
    events: &[SimEvent],
    f: impl FnOnce(&Views) -> R,
) -> R {
    let cooks: Vec<(&CookView, &CookMotion)> =
        seen.cooks.iter().filter(|(r, _, _)| r.0 == room).map(|(_, c, m)| (c, m)).collect();
    let stations: Vec<&StationView> =
        seen.stations.iter().filter(|(r, _)| r.0 == room).map(|(_, s)| s).collect();
    let items: Vec<&ItemView> =
        seen.items.iter().filter(|(r, _)| r.0 == room).map(|(_, i)| i).collect();
    let views = Views {
        clock,
        room: view,
        grid,
        cooks: &cooks,
        stations: &stations,
        items: &items,
        events,
    };
    f(&views)
}
