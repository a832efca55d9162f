//! The projection: after every tick, each room's private sim state is written onto the public
//! view components of `protocol.rs` (the room entity plus one entity per cook, station and
//! item), changing only what changed. Runs wherever a simulation runs; clients read only views.

use crate::protocol::{
    CookMotion, CookView, GridView, HazardView, InRoom, ItemLook, ItemPlace, ItemView, OrderView,
    RoomClock, RoomView, ShiftGroupView, StationView,
};
use crate::schedule::TickSystems;
use crate::sim::events::SimEvent;
use crate::sim::item::{ItemKind, Place};
use crate::sim::room::Room;
use crate::sim::round::stars;
use crate::sim::station::StationState;
use crate::sim::stations::work_ticks;
use bevy::prelude::*;
use std::collections::BTreeMap;

/// The facts of one tick of one room, for whoever presents them (a local client, the server's
/// per-room broadcast).
#[derive(Message, Clone, Debug)]
pub struct RoomTick {
    pub room: Entity,
    pub tick: u32,
    pub events: Vec<SimEvent>,
}

/// Which view entity shows which row of a room (seat, station index, item id).
#[derive(Component, Default, Debug)]
pub struct ViewIndex {
    pub cooks: BTreeMap<u8, Entity>,
    pub stations: BTreeMap<u16, Entity>,
    pub items: BTreeMap<u32, Entity>,
}

/// Runs the projection after every simulated tick.
pub struct ProjectionPlugin;

impl Plugin for ProjectionPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<RoomTick>();
        app.add_systems(FixedPostUpdate, project_rooms.in_set(TickSystems::Project));
    }
}

/// The room's clock view.
pub fn room_clock(room: &Room) -> RoomClock {
    RoomClock { tick: room.tick, time_left: room.time_left }
}

/// The room-level view: score, rail, props (the clock is [`room_clock`]).
pub fn room_view(room: &Room) -> RoomView {
    let span = room.level.orders.deadline;
    RoomView {
        level_id: room.level.id.clone(),
        level_name: room.level.name.clone(),
        hint: room.level.hint.clone(),
        time_limit: room.level.time_limit,
        score: room.score,
        target: room.level.target_score,
        streak: room.streak,
        result: room.result,
        stars: stars(room),
        orders: room
            .orders
            .iter()
            .map(|o| {
                let recipe = room.book.recipes.get(o.recipe as usize);
                OrderView {
                    id: o.id,
                    recipe: recipe.map(|r| r.id.clone()).unwrap_or_default(),
                    name: recipe.map(|r| r.name.clone()).unwrap_or_default(),
                    parts: recipe.map(|r| r.parts.clone()).unwrap_or_default(),
                    value: o.value,
                    deadline: o.deadline,
                    ticks_total: span,
                    team: o.team,
                }
            })
            .collect(),
        plates_clean: room.plates_clean,
        plates_dirty: room.plates_dirty,
        pots_clean: room.pots_clean,
        served: room.counters.served,
        missed: room.counters.missed,
        assist: room.assist,
        survival: room.survival,
        versus: room.versus,
    }
}

/// Stage 6's view (rooms with hazards only).
pub fn hazard_view(room: &Room) -> HazardView {
    let spec = &room.level.hazards;
    let h = &room.hazards;
    HazardView {
        carts: h
            .carts
            .iter()
            .zip(&spec.carts)
            .map(|(c, s)| {
                let p = crate::sim::hazards::cart_pos(&s.path, *c);
                (p.x, p.y)
            })
            .collect(),
        cart_radius: crate::sim::hazards::CART_RADIUS,
        slicks: spec
            .patches
            .iter()
            .zip(&h.patches)
            .filter(|(_, on)| **on)
            .flat_map(|(p, _)| {
                let ice = p.traction == crate::sim::hazard_spec::Traction::Ice;
                p.cells.iter().map(move |&c| (c, ice))
            })
            .collect(),
        shifts: spec
            .shifts
            .iter()
            .zip(&h.shifts)
            .map(|(s, phase)| ShiftGroupView {
                cells: s.cells.clone(),
                phase: *phase,
                ticks_until_gone: s.ticks_until_gone(room.tick),
            })
            .collect(),
        burning: h.fires.burning_stations().map(|s| s as u16).collect(),
        sprays: h
            .spray
            .iter()
            .zip(&room.cooks)
            .filter(|(s, _)| s.ticks > 0)
            .map(|(s, c)| (c.seat, s.station, s.ticks))
            .collect(),
        extinguish_ticks: spec.fire.map_or(0, |f| f.extinguish),
    }
}

/// One fixture's view.
pub fn station_view(room: &Room, i: usize) -> StationView {
    let st = &room.stations[i];
    let duration = match st.state {
        StationState::Working => work_ticks(room, i),
        StationState::Dirty if st.worker.is_some() => crate::sim::stations::WASH_TICKS,
        _ => 0,
    };
    StationView {
        index: i as u16,
        kind: st.kind,
        cell: st.cell,
        state: st.state,
        progress: st.progress,
        duration,
        worker: st.worker,
        heat: room.items_on(i).map(|it| it.heat).max().unwrap_or(0),
    }
}

/// One item's view.
pub fn item_view(item: &crate::sim::item::Item) -> ItemView {
    ItemView {
        id: item.id.0,
        look: match &item.kind {
            ItemKind::Food(i, f) => ItemLook::Food(*i, *f),
            ItemKind::Plate { parts } => ItemLook::Plate(parts.clone()),
            ItemKind::Extinguisher => ItemLook::Extinguisher,
        },
        place: match item.place {
            Place::Hand(s) => ItemPlace::Hand(s),
            Place::Station(s) => ItemPlace::Station(s),
            Place::Floor(at) => ItemPlace::Floor((at.x, at.y)),
            Place::Air(f) => ItemPlace::Flying {
                pos: (f.pos.x, f.pos.y),
                height: f.height(),
                dir: f.dir,
                age: f.age,
                thrower: f.thrower,
            },
        },
        quality: item.quality,
        set_down: item.mark.map(|m| (m.placer, m.tick)),
    }
}

/// One cook's slow-changing view.
pub fn cook_view(c: &crate::sim::cook::Cook) -> CookView {
    CookView {
        seat: c.seat,
        name: c.name.clone(),
        facing: c.facing,
        state: c.state,
        stun: c.stun,
        held: c.held.map(|i| i.0),
        action_ticks: c.action_ticks,
        dash: c.dash,
        dash_cooldown: c.dash_cooldown,
        score: c.score,
        dishes_served: c.dishes_served,
    }
}

/// One cook's position and velocity.
pub fn cook_motion(c: &crate::sim::cook::Cook) -> CookMotion {
    CookMotion { pos: (c.pos.x, c.pos.y), vel: (c.vel.x, c.vel.y) }
}

/// Write `value` onto `entity`'s component only when it differs (change detection stays quiet,
/// so replication sends nothing for a still kitchen).
fn put<T: Component<Mutability = bevy::ecs::component::Mutable> + PartialEq>(
    commands: &mut Commands,
    current: Option<Mut<T>>,
    entity: Entity,
    value: T,
) {
    match current {
        Some(mut c) => {
            if *c != value {
                *c = value;
            }
        }
        None => {
            commands.entity(entity).insert(value);
        }
    }
}

/// Keep one view entity per key in `index`, spawning and despawning as rows come and go, and
/// return (key, entity) for the live rows.
fn sync_rows<K: Ord + Copy>(
    commands: &mut Commands,
    index: &mut BTreeMap<K, Entity>,
    room: Entity,
    live: &[K],
) -> Vec<(K, Entity)> {
    let stale: Vec<K> = index.keys().filter(|k| !live.contains(k)).copied().collect();
    for k in stale {
        if let Some(e) = index.remove(&k) {
            commands.entity(e).despawn();
        }
    }
    live.iter()
        .map(|k| (*k, *index.entry(*k).or_insert_with(|| commands.spawn(InRoom(room)).id())))
        .collect()
}

/// The projection system.
#[allow(clippy::type_complexity)]
pub fn project_rooms(
    mut commands: Commands,
    mut rooms: Query<(
        Entity,
        &Room,
        Option<&mut ViewIndex>,
        Option<&mut RoomView>,
        Option<&mut RoomClock>,
        Option<&GridView>,
        Option<&mut HazardView>,
    )>,
    mut cooks: Query<(Option<&mut CookView>, Option<&mut CookMotion>)>,
    mut stations: Query<&mut StationView>,
    mut items: Query<&mut ItemView>,
    mut ticks: MessageWriter<RoomTick>,
) {
    for (entity, room, index, view, clock, grid, hazards) in &mut rooms {
        let Some(mut index) = index else {
            commands.entity(entity).insert(ViewIndex::default());
            continue; // the index exists from the next tick on
        };
        put(&mut commands, view, entity, room_view(room));
        if room.hazards.active {
            put(&mut commands, hazards, entity, hazard_view(room));
        }
        put(&mut commands, clock, entity, room_clock(room));
        let level = &room.level;
        if grid.is_none_or(|g| {
            g.width != level.width || g.height != level.height || g.tiles != level.tiles
        }) {
            commands.entity(entity).insert(GridView {
                width: level.width,
                height: level.height,
                tiles: level.tiles.clone(),
            });
        }
        let seats: Vec<u8> = room.cooks.iter().map(|c| c.seat).collect();
        for (seat, e) in sync_rows(&mut commands, &mut index.cooks, entity, &seats) {
            if let Some(c) = room.cooks.iter().find(|c| c.seat == seat) {
                let (view, motion) = cooks.get_mut(e).map_or((None, None), |(v, m)| (v, m));
                put(&mut commands, view, e, cook_view(c));
                put(&mut commands, motion, e, cook_motion(c));
            }
        }
        let indices: Vec<u16> = (0..room.stations.len() as u16).collect();
        for (i, e) in sync_rows(&mut commands, &mut index.stations, entity, &indices) {
            put(&mut commands, stations.get_mut(e).ok(), e, station_view(room, i as usize));
        }
        let ids: Vec<u32> = room.items.iter().map(|i| i.id.0).collect();
        for (id, e) in sync_rows(&mut commands, &mut index.items, entity, &ids) {
            if let Some(item) = room.item(crate::sim::ids::ItemId(id)) {
                put(&mut commands, items.get_mut(e).ok(), e, item_view(item));
            }
        }
        if !room.events.is_empty() {
            ticks.write(RoomTick { room: entity, tick: room.tick, events: room.events.clone() });
        }
    }
}
