//! Particles: steam over a working stove, smoke over food about to burn, over burnt food and
//! over a fire, chips flying off a board being chopped, suds over a sink being washed. Small
//! puffs and bits in world space, emitted each frame from what the station views say and gone
//! after their short life. Drawing only: the rules never see them.

use super::art::{Art, Shape};
use super::stations::StationParts;
use crate::client::theme::{CHIP_FALLBACK, SMOKE_DARK, SMOKE_LIGHT, STEAM, SUDS, ingredient_color};
use crate::protocol::{HazardView, InRoom, ItemLook, ItemPlace, ItemView, StationView};
use crate::sim::kinds::{Form, Ingredient, StationKind};
use crate::sim::station::StationState;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;

/// Live particles at most: a busy four-stove kitchen stays well under it, and a fire that
/// spreads cannot flood the frame.
const MAX_PARTICLES: usize = 360;

/// What a particle is: how it moves and how it looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Puff {
    /// Rising, swelling white.
    Steam,
    /// Rising grey: food on the heat that will burn, or burnt food.
    SmokeLight,
    /// Rising, swelling near-black: a fire.
    SmokeDark,
    /// A bit of the food on the board (when known), thrown up and falling back.
    Chip(Option<Ingredient>),
    /// A soap bubble bobbing up off the sink.
    Suds,
}

/// One live particle.
#[derive(Component, Clone, Copy, Debug)]
pub(super) struct Particle {
    vel: Vec3,
    age: f32,
    life: f32,
    /// Its size at birth and at the top of its swell.
    size: (f32, f32),
    falls: bool,
}

/// Per station and puff, the fraction of a particle owed (rates are per second, frames are not).
#[derive(Default)]
pub(super) struct Emission {
    owed: HashMap<(Entity, Puff), f32>,
    /// A counter hashed into each particle's scatter (visual only; no OS randomness).
    n: u64,
}

/// A tiny hash of a counter to [-1, 1), for scatter.
fn jitter(n: u64) -> f32 {
    let mut x = n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 31;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 29;
    (x >> 40) as f32 / (1u64 << 23) as f32 - 1.0
}

/// What a station gives off this frame, with rates in particles per second.
fn puffs_of(st: &StationView, burning: bool, on_top: Option<&ItemLook>) -> Vec<(Puff, f32)> {
    let mut out = Vec::new();
    if burning {
        out.push((Puff::SmokeDark, 9.0));
        return out;
    }
    let working = st.state == StationState::Working && st.duration > 0;
    match st.kind {
        StationKind::Stove(_) if working => out.push((Puff::Steam, 7.0)),
        StationKind::ChopBoard if working => {
            let food = match on_top {
                Some(ItemLook::Food(i, _)) => Some(*i),
                _ => None,
            };
            out.push((Puff::Chip(food), 9.0));
        }
        StationKind::Sink if working => out.push((Puff::Suds, 5.0)),
        _ => {}
    }
    if st.heat > 0 {
        // Done and still on the heat: it starts to smoke, more as it nears burning.
        let rate = if st.heat < super::stations::BURN_URGENT_TICKS { 8.0 } else { 3.0 };
        out.push((Puff::SmokeLight, rate));
    }
    if matches!(on_top, Some(ItemLook::Food(_, Form::Burnt))) {
        out.push((Puff::SmokeLight, 2.5));
    }
    out
}

/// Each frame: stations emit what their state gives off.
#[allow(clippy::too_many_arguments)]
pub(super) fn emit_particles(
    time: Res<Time<Real>>,
    stations: Query<(Entity, &StationView, &InRoom, &StationParts, &Transform)>,
    items: Query<(&ItemView, &InRoom)>,
    hazards: Query<&HazardView>,
    live: Query<(), With<Particle>>,
    mut emission: Local<Emission>,
    mut commands: Commands,
    mut art: ResMut<Art>,
    mut mats: ResMut<Assets<StandardMaterial>>,
) {
    let dt = time.delta_secs().min(0.1);
    let mut room_left = MAX_PARTICLES.saturating_sub(live.iter().count());
    // What lies on each station (the lowest id: the item a cook would take).
    let mut on_top: HashMap<(Entity, u16), (u32, &ItemLook)> = HashMap::default();
    for (item, room) in &items {
        if let ItemPlace::Station(s) = item.place {
            let slot = on_top.entry((room.0, s)).or_insert((item.id, &item.look));
            if item.id < slot.0 {
                *slot = (item.id, &item.look);
            }
        }
    }
    let mut order: Vec<_> = stations.iter().collect();
    order.sort_by_key(|(_, st, room, ..)| (room.0, st.index));
    let mut still_owed = HashMap::default();
    for (e, st, room, parts, tf) in order {
        let burning = hazards.get(room.0).is_ok_and(|h| h.burning.contains(&st.index));
        let look = on_top.get(&(room.0, st.index)).map(|(_, l)| *l);
        for (puff, rate) in puffs_of(st, burning, look) {
            let owed = emission.owed.get(&(e, puff)).copied().unwrap_or(0.0) + rate * dt;
            let whole = owed.floor() as usize;
            still_owed.insert((e, puff), owed - whole as f32);
            for _ in 0..whole.min(room_left) {
                emission.n += 1;
                let base = tf.translation + Vec3::Y * (parts.top + 0.1);
                spawn_particle(&mut commands, &mut art, &mut mats, puff, base, emission.n);
                room_left -= 1;
            }
        }
    }
    // Stations that stopped giving off a puff forget what they owed.
    emission.owed = still_owed;
}

fn spawn_particle(
    commands: &mut Commands,
    art: &mut Art,
    mats: &mut Assets<StandardMaterial>,
    puff: Puff,
    base: Vec3,
    n: u64,
) {
    let (jx, jz, jy) = (jitter(n * 3), jitter(n * 3 + 1), jitter(n * 3 + 2));
    let spread = Vec3::new(jx, 0.0, jz);
    let (shape, color, at, vel, life, size, falls) = match puff {
        Puff::Steam => (
            Shape::Sphere,
            STEAM,
            base + spread * 0.2,
            Vec3::new(jx * 0.15, 0.9 + 0.2 * jy, jz * 0.15),
            1.1,
            (0.1, 0.32),
            false,
        ),
        Puff::SmokeLight => (
            Shape::Sphere,
            SMOKE_LIGHT,
            base + spread * 0.15,
            Vec3::new(jx * 0.1, 0.7 + 0.15 * jy, jz * 0.1),
            1.4,
            (0.1, 0.3),
            false,
        ),
        Puff::SmokeDark => (
            Shape::Sphere,
            SMOKE_DARK,
            base + Vec3::Y * 0.4 + spread * 0.25,
            Vec3::new(jx * 0.2, 1.1 + 0.3 * jy, jz * 0.2),
            1.6,
            (0.2, 0.55),
            false,
        ),
        Puff::Chip(food) => (
            Shape::Cube,
            food.map_or(CHIP_FALLBACK, ingredient_color),
            base + spread * 0.1,
            Vec3::new(jx * 1.2, 1.6 + 0.5 * jy, jz * 0.8),
            0.5,
            (0.07, 0.07),
            true,
        ),
        Puff::Suds => (
            Shape::Sphere,
            SUDS,
            base + spread * 0.25,
            Vec3::new(jx * 0.1, 0.45 + 0.1 * jy, jz * 0.1),
            0.9,
            (0.06, 0.12),
            false,
        ),
    };
    let material = if matches!(puff, Puff::Chip(_)) {
        art.piece(mats, shape, color, Vec3::ZERO, Vec3::ONE).1
    } else {
        MeshMaterial3d(art.glass(mats, color))
    };
    commands.spawn((
        Particle { vel, age: 0.0, life, size, falls },
        Mesh3d(art.mesh(shape)),
        material,
        Transform::from_translation(at).with_scale(Vec3::splat(size.0)),
    ));
}

/// Each frame: particles drift (chips fall), swell then shrink away, and go at the end of
/// their life.
pub(super) fn drift_particles(
    time: Res<Time<Real>>,
    mut commands: Commands,
    mut particles: Query<(Entity, &mut Particle, &mut Transform)>,
) {
    let dt = time.delta_secs().min(0.1);
    for (e, mut p, mut tf) in &mut particles {
        p.age += dt;
        if p.age >= p.life {
            commands.entity(e).despawn();
            continue;
        }
        if p.falls {
            p.vel.y -= 7.0 * dt;
            tf.rotate_y(8.0 * dt);
        }
        tf.translation += p.vel * dt;
        let k = p.age / p.life;
        // Swell over the first 70 % of a life, shrink to nothing over the rest.
        let size = if k < 0.7 {
            p.size.0 + (p.size.1 - p.size.0) * (k / 0.7)
        } else {
            p.size.1 * (1.0 - (k - 0.7) / 0.3)
        };
        tf.scale = Vec3::splat(size.max(0.001));
    }
}
