//! Hazards: carts rolling between their tick positions, spill and ice decals, and the warning
//! flash of a floor about to shift; built as a room's hazards change, posed each frame.

use super::art::{Art, Shape};
use crate::client::kitchen::interp::{UTILE, lerp_utiles};
use crate::client::settings::access::Accessibility;
use crate::client::theme::{CART, CART_RIM, CART_WHEEL, ICE, OIL, SHIFT_FLASH};
use crate::protocol::{HazardView, RoomClock};
use crate::sim::hazard_spec::ShiftPhase;
use bevy::prelude::*;

/// A cart's body, drawn between its last two tick positions (µtiles) like a cook.
#[derive(Component, Clone, Copy, Debug)]
pub(super) struct CartArt {
    index: usize,
    prev: (i32, i32),
    curr: (i32, i32),
    tick: u32,
}

/// The decals of a room's slick cells (spills and ice), rebuilt when the set changes.
#[derive(Component)]
pub(super) struct SlickArt;

/// The flash overlay of one shifting floor group.
#[derive(Component, Clone, Copy, Debug)]
pub(super) struct ShiftArt(usize);

/// What the hazard art was last built from, on the room entity.
#[derive(Component, Default, Debug)]
pub(super) struct ShownHazards {
    carts: usize,
    slicks: Vec<((i32, i32), bool)>,
    shifts: Vec<Vec<(i32, i32)>>,
}

fn cell_centre((x, y): (i32, i32), lift: f32) -> Vec3 {
    Vec3::new(x as f32 + 0.5, lift, y as f32 + 0.5)
}

/// A room's hazards changed: spawn cart bodies, slick decals and shift overlays as they appear
/// (positions and flashes are posed every frame by [`pose_carts`] and [`flash_shifts`]).
#[allow(clippy::type_complexity)]
pub(super) fn sync_hazards(
    mut commands: Commands,
    mut rooms: Query<
        (Entity, &HazardView, Option<&mut ShownHazards>, Option<&RoomClock>, Option<&Children>),
        Changed<HazardView>,
    >,
    mut carts: Query<&mut CartArt>,
    slick_art: Query<(), With<SlickArt>>,
    shift_art: Query<(), With<ShiftArt>>,
    mut art: ResMut<Art>,
    mut mats: ResMut<Assets<StandardMaterial>>,
) {
    let m = &mut *mats;
    for (room, hz, shown, clock, children) in &mut rooms {
        let Some(mut shown) = shown else {
            // First sight of this room's hazards: build everything.
            let mut fresh = ShownHazards::default();
            build_hazards(&mut commands, room, hz, &mut fresh, None, &mut art, m);
            commands.entity(room).insert(fresh);
            continue;
        };
        let tick = clock.map_or(0, |c| c.tick);
        // Carts: record the new tick's centres.
        for child in children.into_iter().flatten() {
            if let Ok(mut cart) = carts.get_mut(*child)
                && let Some(&pos) = hz.carts.get(cart.index)
            {
                if tick != cart.tick {
                    cart.prev = cart.curr;
                    cart.tick = tick;
                }
                cart.curr = pos;
            }
        }
        let rebuild_slicks = shown.slicks != hz.slicks;
        let shift_cells: Vec<Vec<(i32, i32)>> = hz.shifts.iter().map(|g| g.cells.clone()).collect();
        let rebuild_shifts = shown.shifts != shift_cells;
        if rebuild_slicks || rebuild_shifts {
            for child in children.into_iter().flatten() {
                if (rebuild_slicks && slick_art.contains(*child))
                    || (rebuild_shifts && shift_art.contains(*child))
                {
                    commands.entity(*child).despawn();
                }
            }
        }
        let what = (shown.carts < hz.carts.len(), rebuild_slicks, rebuild_shifts);
        build_hazards(&mut commands, room, hz, &mut shown, Some(what), &mut art, m);
    }
}

/// Spawn the hazard art `what` asks for (carts beyond those shown, slicks, shifts; all when
/// `None`) under `room`, and record what was built in `shown`.
fn build_hazards(
    commands: &mut Commands,
    room: Entity,
    hz: &HazardView,
    shown: &mut ShownHazards,
    what: Option<(bool, bool, bool)>,
    art: &mut Art,
    mats: &mut Assets<StandardMaterial>,
) {
    let (carts, slicks, shifts) = what.unwrap_or((true, true, true));
    let size = 2.0 * hz.cart_radius as f32 / UTILE;
    let mut spawned = Vec::new();
    if carts {
        for (index, &pos) in hz.carts.iter().enumerate().skip(shown.carts) {
            let body =
                art.piece(mats, Shape::Cube, CART, Vec3::Y * 0.45, Vec3::new(size, 0.5, size));
            let rim = art.piece(
                mats,
                Shape::Cube,
                CART_RIM,
                Vec3::Y * 0.72,
                Vec3::new(size * 1.05, 0.06, size * 1.05),
            );
            let wheels: Vec<_> = [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)]
                .into_iter()
                .map(|(sx, sz)| {
                    art.piece(
                        mats,
                        Shape::Sphere,
                        CART_WHEEL,
                        Vec3::new(sx * size * 0.38, 0.1, sz * size * 0.38),
                        Vec3::splat(0.2),
                    )
                })
                .collect();
            let at = Vec3::new(pos.0 as f32, 0.0, pos.1 as f32) / UTILE;
            let e = commands
                .spawn((
                    CartArt { index, prev: pos, curr: pos, tick: 0 },
                    Transform::from_translation(at),
                    Visibility::default(),
                ))
                .with_children(|p| {
                    p.spawn(body);
                    p.spawn(rim);
                    for w in wheels {
                        p.spawn(w);
                    }
                })
                .id();
            spawned.push(e);
        }
        shown.carts = shown.carts.max(hz.carts.len());
    }
    if slicks {
        let oil = art.glass(mats, OIL);
        let ice = art.glass(mats, ICE);
        let mesh = art.mesh(Shape::Cylinder);
        let e = commands
            .spawn((SlickArt, Transform::default(), Visibility::default()))
            .with_children(|p| {
                for &(cell, is_ice) in &hz.slicks {
                    p.spawn((
                        Mesh3d(mesh.clone()),
                        MeshMaterial3d(if is_ice { ice.clone() } else { oil.clone() }),
                        Transform::from_translation(cell_centre(cell, 0.012))
                            .with_scale(Vec3::new(0.92, 0.02, 0.92)),
                    ));
                }
            })
            .id();
        spawned.push(e);
        shown.slicks = hz.slicks.clone();
    }
    if shifts {
        let flash = art.glass(mats, SHIFT_FLASH);
        let mesh = art.mesh(Shape::Cube);
        for (g, group) in hz.shifts.iter().enumerate() {
            let e = commands
                .spawn((ShiftArt(g), Transform::default(), Visibility::Hidden))
                .with_children(|p| {
                    for &cell in &group.cells {
                        p.spawn((
                            Mesh3d(mesh.clone()),
                            MeshMaterial3d(flash.clone()),
                            Transform::from_translation(cell_centre(cell, 0.02))
                                .with_scale(Vec3::new(0.96, 0.03, 0.96)),
                        ));
                    }
                })
                .id();
            spawned.push(e);
        }
        shown.shifts = hz.shifts.iter().map(|g| g.cells.clone()).collect();
    }
    if !spawned.is_empty() {
        commands.entity(room).add_children(&spawned);
    }
}

/// Each frame: carts between their last two tick positions.
pub(super) fn pose_carts(time: Res<Time<Fixed>>, mut carts: Query<(&CartArt, &mut Transform)>) {
    let alpha = time.overstep_fraction();
    for (cart, mut tf) in &mut carts {
        let p = lerp_utiles(cart.prev, cart.curr, alpha);
        tf.translation = Vec3::new(p.x, 0.0, p.y);
    }
}

/// Each frame: a shifting group's cells flash during its warning, faster as it runs out — or,
/// with reduced motion (Settings), stay lit for the whole warning instead of blinking.
pub(super) fn flash_shifts(
    real: Res<Time<Real>>,
    access: Option<Res<Accessibility>>,
    rooms: Query<&HazardView>,
    mut groups: Query<(&ShiftArt, &ChildOf, &mut Visibility)>,
) {
    let t = real.elapsed_secs();
    let steady = access.is_some_and(|a| a.reduced_motion);
    for (group, parent, mut vis) in &mut groups {
        let on =
            rooms.get(parent.parent()).ok().and_then(|h| h.shifts.get(group.0)).is_some_and(|g| {
                let rate = if g.ticks_until_gone < 20 { 8.0 } else { 3.0 };
                g.phase == ShiftPhase::Warning && (steady || (t * rate).fract() < 0.55)
            });
        vis.set_if_neq(if on { Visibility::Inherited } else { Visibility::Hidden });
    }
}
