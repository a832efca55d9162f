//! A throw drawn: the flying item rides its arc (`items::place_items` lifts it by the sim's
//! `height`), and here its shadow stays on the surface under it, shrinking as the item climbs,
//! and a catch makes a small pop in the catcher's hands. Drawing only: the rules never see it.

use super::art::{Art, Shape};
use super::stations::StationParts;
use crate::client::kitchen::interp::UTILE;
use crate::client::settings::access::Accessibility;
use crate::client::theme::{CATCH_POP, FLIGHT_SHADOW};
use crate::project::RoomTick;
use crate::protocol::{CookView, InRoom, ItemPlace, ItemView, StationView};
use crate::sim::events::SimEvent;
use crate::sim::units::THROW_PEAK;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;

/// A flying item's shadow (its own entity: it must not follow the item up the arc).
#[derive(Component, Clone, Copy, Debug)]
pub struct FlightShadow {
    item: Entity,
}

/// Each frame: one shadow per flying item, on the floor or on the station top under it, a
/// little smaller the higher the item is; a shadow whose item came down goes.
pub(super) fn shadow_flights(
    mut commands: Commands,
    items: Query<(Entity, &ItemView, &InRoom)>,
    stations: Query<(&InRoom, &StationParts, &Transform), With<StationView>>,
    mut shadows: Query<(Entity, &FlightShadow, &mut Transform), Without<StationParts>>,
    mut art: ResMut<Art>,
    mut mats: ResMut<Assets<StandardMaterial>>,
) {
    let mut flying: HashMap<Entity, Vec4> = HashMap::default();
    for (e, item, room) in &items {
        let ItemPlace::Flying { pos, height, .. } = item.place else { continue };
        let (x, z) = (pos.0 as f32 / UTILE, pos.1 as f32 / UTILE);
        // The surface under it: a station's top where one stands on that cell, else the floor.
        let top = stations
            .iter()
            .filter(|(r, _, tf)| {
                r.0 == room.0
                    && tf.translation.x.floor() == x.floor()
                    && tf.translation.z.floor() == z.floor()
            })
            .map(|(_, parts, tf)| tf.translation.y + parts.top)
            .fold(0.0_f32, f32::max);
        let climb = (height.clamp(0, THROW_PEAK) as f32) / THROW_PEAK as f32;
        let size = 0.5 - 0.2 * climb;
        flying.insert(e, Vec3::new(x, top + 0.02, z).extend(size));
    }
    for (e, shadow, mut tf) in &mut shadows {
        match flying.remove(&shadow.item) {
            Some(at) => pose_shadow(&mut tf, at),
            None => commands.entity(e).despawn(),
        }
    }
    let mut fresh: Vec<_> = flying.into_iter().collect();
    fresh.sort_by_key(|(e, _)| *e);
    for (item, at) in fresh {
        let mut tf = Transform::default();
        pose_shadow(&mut tf, at);
        commands.spawn((
            FlightShadow { item },
            Mesh3d(art.mesh(Shape::Cylinder)),
            MeshMaterial3d(art.glass(&mut mats, FLIGHT_SHADOW)),
            tf,
        ));
    }
}

/// `at`: xyz the shadow's centre, w its diameter.
fn pose_shadow(tf: &mut Transform, at: Vec4) {
    tf.translation = at.truncate();
    tf.scale = Vec3::new(at.w, 0.01, at.w);
}

/// A catch's pop: a puff in the hands that swells and fades (or, with reduced motion, shows
/// steady for the same short while).
#[derive(Component, Clone, Copy, Debug)]
pub(super) struct CatchPop {
    age: f32,
}

/// How long a catch's pop shows (seconds).
const POP_SECS: f32 = 0.3;

/// Each tick's catches: a pop at the catcher's hands.
pub(super) fn pop_catches(
    mut commands: Commands,
    mut ticks: MessageReader<RoomTick>,
    cooks: Query<(&CookView, &InRoom, &Transform)>,
    mut art: ResMut<Art>,
    mut mats: ResMut<Assets<StandardMaterial>>,
) {
    for tick in ticks.read() {
        for event in &tick.events {
            let SimEvent::Caught { seat, .. } = event else { continue };
            let Some((_, _, tf)) =
                cooks.iter().find(|(c, room, _)| room.0 == tick.room && c.seat == *seat)
            else {
                continue;
            };
            let at = tf.translation + tf.rotation * Vec3::new(0.0, 0.85, 0.42);
            commands.spawn((
                CatchPop { age: 0.0 },
                Mesh3d(art.mesh(Shape::Sphere)),
                MeshMaterial3d(art.glass(&mut mats, CATCH_POP)),
                Transform::from_translation(at).with_scale(Vec3::splat(0.3)),
            ));
        }
    }
}

/// Each frame: pops swell from 0.3 to 0.7 (steady at 0.45 with reduced motion) and go.
pub(super) fn fade_pops(
    time: Res<Time<Real>>,
    access: Option<Res<Accessibility>>,
    mut commands: Commands,
    mut pops: Query<(Entity, &mut CatchPop, &mut Transform)>,
) {
    let steady = access.is_some_and(|a| a.reduced_motion);
    let dt = time.delta_secs().min(0.1);
    for (e, mut pop, mut tf) in &mut pops {
        pop.age += dt;
        if pop.age >= POP_SECS {
            commands.entity(e).despawn();
            continue;
        }
        let size = if steady { 0.45 } else { 0.3 + 0.4 * pop.age / POP_SECS };
        tf.scale = Vec3::splat(size);
    }
}
