//! Stations: a body by kind (counter, shelf, board, stove, sink, ...) with its moving parts —
//! progress bar, burn warning, dirt and flames — shown each frame from the station's view.

use super::art::{Art, Piece, Shape};
use super::food::food_pieces;
use crate::client::settings::access::Accessibility;
use crate::client::theme::{
    BAR_BACK, BAR_COOK, BAR_FILL, BAR_WASH, BURN_HALO, BURN_WARNING, BURNER, BURNER_RING,
    CHOP_BOARD, CRATE_SLAT, DIRT, FLAMES, FOAM, GOLD_BELL, KNIFE, KNIFE_HANDLE, KNOB, PAN,
    PAN_INSIDE, PREP, PREP_TOP, RACK_PLATE, SERVE, SERVE_FRAME, SERVE_HATCH, SHELF_WOOD,
    SINK_WATER, STAND_FOOT, STAND_RED, STEEL, STEEL_DARK, STOVE, STOVE_TOP, TRASH_BIN, TRASH_MOUTH,
    TRASH_RIM, WOOD, WOOD_DARK, WOOD_TOP, ingredient_color,
};
use crate::protocol::{HazardView, InRoom, StationView};
use crate::sim::kinds::{Form, StationKind, Vessel};
use crate::sim::station::StationState;
use bevy::prelude::*;

/// Height of an item resting on a station, and the station's moving parts.
#[derive(Component, Clone, Copy, Debug)]
pub struct StationParts {
    pub(super) top: f32,
    /// Where the burn warning floats.
    warn_y: f32,
    bar: Entity,
    fill: Entity,
    burn: Entity,
    /// The burn warning's flashing halo.
    halo: Entity,
    dirt: Entity,
    /// Flames (hidden unless the station is ablaze).
    fire: Entity,
}

/// What a station's body was drawn as. A view whose kind or cell no longer matches (a
/// designer's hot reload moved or swapped the fixture under the same index) is dressed again
/// by [`redress_stations`]; without it the screen would keep the old layout.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct DressedAs {
    pub kind: StationKind,
    pub cell: (i32, i32),
}

/// One flame cube of a fire, with its flicker phase.
#[derive(Component, Clone, Copy, Debug)]
pub(super) struct Flame(f32);

/// Heat (ticks before the food burns) under which the warning grows and flashes faster.
pub(super) const BURN_URGENT_TICKS: u32 = 40;

/// A progress bar's colour by what the work is: chopping green, washing blue, cooking orange.
fn bar_color(kind: StationKind) -> Color {
    match kind {
        StationKind::Sink => BAR_WASH,
        StationKind::Stove(_) => BAR_COOK,
        _ => BAR_FILL,
    }
}

/// Whether a body may stand on this kind (drawn low so a cook on it stays visible).
fn is_low(kind: StationKind) -> bool {
    kind.walkable()
}

/// A station appeared: dress it ([`dress`]).
pub(super) fn dress_station(
    add: On<Add, StationView>,
    stations: Query<&StationView>,
    mut commands: Commands,
    mut art: ResMut<Art>,
    mut mats: ResMut<Assets<StandardMaterial>>,
) {
    let e = add.entity;
    let Ok(st) = stations.get(e) else { return };
    dress(e, st, &mut commands, &mut art, &mut mats);
}

/// Each frame: a station whose view moved or changed kind loses its old body (every child)
/// and is dressed afresh where and as it now is.
pub(super) fn redress_stations(
    stations: Query<(Entity, &StationView, &DressedAs, Option<&Children>), Changed<StationView>>,
    mut commands: Commands,
    mut art: ResMut<Art>,
    mut mats: ResMut<Assets<StandardMaterial>>,
) {
    for (e, st, was, children) in &stations {
        if was.kind == st.kind && was.cell == st.cell {
            continue;
        }
        for child in children.into_iter().flatten() {
            commands.entity(*child).despawn();
        }
        dress(e, st, &mut commands, &mut art, &mut mats);
    }
}

/// A station's body by kind at its cell, plus a progress bar, burn warning and dirt (hidden).
fn dress(
    e: Entity,
    st: &StationView,
    commands: &mut Commands,
    art: &mut Art,
    mats: &mut Assets<StandardMaterial>,
) {
    let (cx, cy) = st.cell;
    let at = Vec3::new(cx as f32 + 0.5, 0.0, cy as f32 + 0.5);
    let h = if is_low(st.kind) { 0.35 } else { 0.9 };
    let m = mats;
    let top_y = match st.kind {
        StationKind::Stove(Vessel::Pot) => h + 0.4,
        StationKind::Trash => 0.65,
        _ => h + 0.05,
    };
    let mut pieces: Vec<Piece> =
        body_sketch(st.kind, h).into_iter().map(|(s, c, p, z)| art.piece(m, s, c, p, z)).collect();
    if let StationKind::Shelf(i) = st.kind {
        // The crate's ingredient, whole, on its lid: what it hands out, by shape.
        food_pieces(&mut pieces, art, m, i, Form::Raw, Vec3::Y * (h + 0.04), 1.1);
    }
    let bar_bg = art.piece(m, Shape::Cube, BAR_BACK, Vec3::ZERO, Vec3::new(0.84, 0.1, 0.14));
    let fill = commands
        .spawn(art.piece(
            m,
            Shape::Cube,
            bar_color(st.kind),
            Vec3::new(0.0, 0.0, 0.02),
            Vec3::new(0.8, 0.12, 0.14),
        ))
        .id();
    let bar = commands
        .spawn((Transform::from_xyz(0.0, h + 0.75, 0.0), Visibility::Hidden))
        .add_child(fill)
        .with_child(bar_bg)
        .id();
    // The burn warning: a red ball with a white "!" facing the camera, inside a yellow halo
    // that flashes (faster as the heat runs out).
    let halo = commands
        .spawn((
            Mesh3d(art.mesh(Shape::Sphere)),
            MeshMaterial3d(art.glass(m, BURN_HALO)),
            Transform::from_scale(Vec3::splat(0.68)),
        ))
        .id();
    let burn = commands
        .spawn((Transform::from_xyz(0.0, h + 1.15, 0.0), Visibility::Hidden))
        .add_child(halo)
        .with_children(|p| {
            p.spawn(art.piece(m, Shape::Sphere, BURN_WARNING, Vec3::ZERO, Vec3::splat(0.44)));
            // The "!" leans back with the camera's tilt so it reads square-on.
            let lean = Quat::from_rotation_x(-0.6);
            for (y, len) in [(0.05, 0.16), (-0.11, 0.055)] {
                let at = lean * Vec3::new(0.0, y, 0.225);
                let mut mark =
                    art.piece(m, Shape::Cube, Color::WHITE, at, Vec3::new(0.07, len, 0.02));
                mark.2.rotation = lean;
                p.spawn(mark);
            }
        })
        .id();
    let fire = commands
        .spawn((Transform::from_xyz(0.0, top_y, 0.0), Visibility::Hidden))
        .with_children(|p| {
            for (k, (dx, dz, s)) in
                [(0.0, 0.0, 0.42), (-0.2, 0.15, 0.28), (0.2, -0.12, 0.3), (0.12, 0.2, 0.22)]
                    .into_iter()
                    .enumerate()
            {
                p.spawn((
                    Flame(k as f32 * 1.7),
                    art.piece(
                        m,
                        Shape::Cube,
                        FLAMES[k % FLAMES.len()],
                        Vec3::new(dx, s / 2.0, dz),
                        Vec3::splat(s),
                    ),
                ));
            }
        })
        .id();
    let dirt = commands
        .spawn((Transform::from_xyz(0.0, h + 0.05, 0.0), Visibility::Hidden))
        .with_children(|p| {
            for (dx, dz, s) in [(-0.2, 0.1, 0.25), (0.18, -0.15, 0.2), (0.1, 0.22, 0.15)] {
                p.spawn(art.piece(
                    m,
                    Shape::Cylinder,
                    DIRT,
                    Vec3::new(dx, 0.0, dz),
                    Vec3::new(s, 0.03, s),
                ));
            }
        })
        .id();
    commands
        .entity(e)
        .insert((
            Transform::from_translation(at),
            Visibility::default(),
            StationParts { top: top_y, warn_y: h + 1.15, bar, fill, burn, halo, dirt, fire },
            DressedAs { kind: st.kind, cell: st.cell },
        ))
        .add_children(&[bar, burn, dirt, fire])
        .with_children(|p| {
            for piece in pieces {
                p.spawn(piece);
            }
        });
}

/// Each frame: progress bars on working stations, the blinking burn warning, dirt, and
/// flickering flames on a burning fixture (shrinking as a cook sprays it).
#[allow(clippy::type_complexity)]
pub(super) fn show_station_state(
    time: Res<Time<Real>>,
    access: Option<Res<Accessibility>>,
    stations: Query<(&StationView, &InRoom, &StationParts)>,
    hazards: Query<&HazardView>,
    mut parts: Query<(&mut Transform, &mut Visibility), (Without<StationView>, Without<Flame>)>,
) {
    let t = time.elapsed_secs();
    // Reduced motion (Settings): the warning stands still and its halo stays lit.
    let steady = access.is_some_and(|a| a.reduced_motion);
    for (st, room, p) in &stations {
        let hz = hazards.get(room.0).ok();
        let burning = hz.is_some_and(|h| h.burning.contains(&st.index));
        if let Ok((mut tf, mut vis)) = parts.get_mut(p.fire) {
            vis.set_if_neq(if burning { Visibility::Inherited } else { Visibility::Hidden });
            if burning {
                // Spraying beats the fire down: the flames shrink toward nothing.
                let sprayed = hz
                    .and_then(|h| {
                        let most = h
                            .sprays
                            .iter()
                            .filter(|(_, s, _)| *s == st.index)
                            .map(|(_, _, n)| *n)
                            .max()?;
                        Some(most as f32 / h.extinguish_ticks.max(1) as f32)
                    })
                    .unwrap_or(0.0);
                tf.scale = Vec3::splat((1.0 - sprayed).clamp(0.25, 1.0));
            }
        }
        let working =
            st.duration > 0 && matches!(st.state, StationState::Working | StationState::Dirty);
        if let Ok((_, mut vis)) = parts.get_mut(p.bar) {
            vis.set_if_neq(if working { Visibility::Inherited } else { Visibility::Hidden });
        }
        if working && let Ok((mut tf, _)) = parts.get_mut(p.fill) {
            let f = (st.progress as f32 / st.duration as f32).clamp(0.0, 1.0);
            tf.scale.x = 0.8 * f.max(0.02);
            tf.translation.x = -0.4 + 0.4 * f.max(0.02);
        }
        if let Ok((mut tf, mut vis)) = parts.get_mut(p.burn) {
            // Shown for as long as the dish can still be saved (heat is ticks left before
            // BURNT); it grows as the heat runs out and bobs so it catches the eye.
            let warn = st.heat > 0;
            vis.set_if_neq(if warn { Visibility::Inherited } else { Visibility::Hidden });
            let urgent = st.heat < BURN_URGENT_TICKS;
            tf.scale = Vec3::splat(if urgent { 1.25 } else { 1.0 });
            let bob = if steady { 0.0 } else { 0.05 * (t * 5.0).sin() };
            tf.translation.y = p.warn_y + bob;
        }
        if let Ok((_, mut vis)) = parts.get_mut(p.halo) {
            let rate = if st.heat < BURN_URGENT_TICKS { 6.0 } else { 2.5 };
            let on = st.heat > 0 && (steady || (t * rate).fract() < 0.5);
            vis.set_if_neq(if on { Visibility::Inherited } else { Visibility::Hidden });
        }
        if let Ok((_, mut vis)) = parts.get_mut(p.dirt) {
            let dirty = st.state == StationState::Dirty;
            vis.set_if_neq(if dirty { Visibility::Inherited } else { Visibility::Hidden });
        }
    }
}

/// Each frame: a fire's flame cubes flicker about their own size and turn.
pub(super) fn flicker_flames(real: Res<Time<Real>>, mut flames: Query<(&Flame, &mut Transform)>) {
    let t = real.elapsed_secs();
    for (flame, mut tf) in &mut flames {
        let k = (t * 11.0 + flame.0).sin() * 0.5 + 0.5;
        let base = tf.scale.x.max(0.05);
        tf.scale.y = base * (0.8 + 0.6 * k);
        tf.translation.y = tf.scale.y / 2.0;
        tf.rotation = Quat::from_rotation_y(t * 2.0 + flame.0);
    }
}

/// A primitive before it has a material: shape, colour, centre and size.
type Sketch = (Shape, Color, Vec3, Vec3);

/// The still parts of a station of `kind` whose work surface is at height `h`.
fn body_sketch(kind: StationKind, h: f32) -> Vec<Sketch> {
    let mut parts: Vec<Sketch> = Vec::new();
    let body = |color: Color| (Shape::Cube, color, Vec3::Y * h / 2.0, Vec3::new(0.96, h, 0.96));
    let top = |color: Color| (Shape::Cube, color, Vec3::Y * (h + 0.02), Vec3::new(0.9, 0.04, 0.9));
    match kind {
        StationKind::Counter => parts.extend([
            body(WOOD),
            top(WOOD_TOP),
            // A kick plate along the foot, so a row of counters reads as furniture.
            (Shape::Cube, WOOD_DARK, Vec3::new(0.0, 0.05, 0.44), Vec3::new(0.9, 0.1, 0.1)),
        ]),
        StationKind::Shelf(i) => {
            // An open crate: slatted sides, its lid in the ingredient's colour (the ingredient
            // itself sits on the lid, drawn by `dress_station`).
            parts.extend([body(SHELF_WOOD), top(ingredient_color(i))]);
            for k in 0..3 {
                let y = 0.15 + 0.27 * k as f32;
                parts.push((
                    Shape::Cube,
                    CRATE_SLAT,
                    Vec3::new(0.0, y, 0.0),
                    Vec3::new(0.98, 0.07, 0.98),
                ));
            }
        }
        StationKind::ChopBoard => parts.extend([
            body(WOOD),
            top(WOOD_TOP),
            (Shape::Cube, CHOP_BOARD, Vec3::Y * (h + 0.06), Vec3::new(0.7, 0.05, 0.55)),
            // A cleaver: a broad blade and a dark handle.
            (Shape::Cube, KNIFE, Vec3::new(0.22, h + 0.1, 0.2), Vec3::new(0.26, 0.03, 0.12)),
            (Shape::Cube, KNIFE_HANDLE, Vec3::new(0.42, h + 0.1, 0.2), Vec3::new(0.16, 0.04, 0.05)),
        ]),
        StationKind::Stove(v) => {
            parts.extend([
                body(STOVE),
                (Shape::Cube, STOVE_TOP, Vec3::Y * (h + 0.005), Vec3::new(0.92, 0.02, 0.92)),
                // The burner ring glowing under the vessel, and two knobs on the front.
                (Shape::Cylinder, BURNER, Vec3::Y * (h + 0.01), Vec3::new(0.6, 0.03, 0.6)),
                (Shape::Torus, BURNER_RING, Vec3::Y * (h + 0.025), Vec3::new(1.5, 0.4, 1.5)),
                (
                    Shape::Cylinder,
                    KNOB,
                    Vec3::new(-0.22, h - 0.12, 0.49),
                    Vec3::new(0.1, 0.04, 0.1),
                ),
                (Shape::Cylinder, KNOB, Vec3::new(0.22, h - 0.12, 0.49), Vec3::new(0.1, 0.04, 0.1)),
            ]);
            match v {
                Vessel::Pan => parts.extend([
                    (Shape::Cylinder, PAN, Vec3::Y * (h + 0.06), Vec3::new(0.7, 0.08, 0.7)),
                    (
                        Shape::Cylinder,
                        PAN_INSIDE,
                        Vec3::Y * (h + 0.101),
                        Vec3::new(0.6, 0.004, 0.6),
                    ),
                    (Shape::Cube, PAN, Vec3::new(0.5, h + 0.08, 0.0), Vec3::new(0.35, 0.04, 0.08)),
                ]),
                Vessel::Pot => parts.extend([
                    (Shape::Cylinder, STEEL, Vec3::Y * (h + 0.2), Vec3::new(0.72, 0.38, 0.72)),
                    // A rim and two handles: a pot, not a tin can.
                    (Shape::Torus, STEEL_DARK, Vec3::Y * (h + 0.39), Vec3::new(1.7, 0.5, 1.7)),
                    (
                        Shape::Cube,
                        STEEL_DARK,
                        Vec3::new(-0.42, h + 0.32, 0.0),
                        Vec3::new(0.12, 0.05, 0.18),
                    ),
                    (
                        Shape::Cube,
                        STEEL_DARK,
                        Vec3::new(0.42, h + 0.32, 0.0),
                        Vec3::new(0.12, 0.05, 0.18),
                    ),
                    // Its dark inside (what boils sits on top of it).
                    (
                        Shape::Cylinder,
                        PAN_INSIDE,
                        Vec3::Y * (h + 0.385),
                        Vec3::new(0.64, 0.01, 0.64),
                    ),
                ]),
            }
        }
        StationKind::Prep => parts.extend([body(PREP), top(PREP_TOP)]),
        StationKind::Serve => parts.extend([
            body(SERVE),
            (Shape::Cube, SERVE_HATCH, Vec3::Y * (h + 0.02), Vec3::new(0.8, 0.04, 0.3)),
            // The pass: two posts and a lintel framing the hatch, and the service bell.
            (
                Shape::Cube,
                SERVE_FRAME,
                Vec3::new(-0.44, h + 0.35, -0.3),
                Vec3::new(0.08, 0.7, 0.08),
            ),
            (Shape::Cube, SERVE_FRAME, Vec3::new(0.44, h + 0.35, -0.3), Vec3::new(0.08, 0.7, 0.08)),
            (Shape::Cube, SERVE_HATCH, Vec3::new(0.0, h + 0.72, -0.3), Vec3::new(0.96, 0.12, 0.1)),
            (Shape::Sphere, GOLD_BELL, Vec3::new(0.3, h + 0.07, 0.28), Vec3::new(0.14, 0.1, 0.14)),
        ]),
        StationKind::Sink => parts.extend([
            body(STEEL),
            (Shape::Cube, SINK_WATER, Vec3::Y * (h + 0.01), Vec3::new(0.7, 0.04, 0.7)),
            // A tap: a post at the back and its spout over the water.
            (
                Shape::Cylinder,
                STEEL_DARK,
                Vec3::new(0.0, h + 0.15, -0.4),
                Vec3::new(0.07, 0.3, 0.07),
            ),
            (Shape::Cube, STEEL_DARK, Vec3::new(0.0, h + 0.29, -0.3), Vec3::new(0.06, 0.05, 0.22)),
            (Shape::Sphere, FOAM, Vec3::new(-0.15, h + 0.04, 0.12), Vec3::new(0.18, 0.05, 0.14)),
            (Shape::Sphere, FOAM, Vec3::new(0.16, h + 0.04, -0.05), Vec3::new(0.12, 0.04, 0.12)),
        ]),
        StationKind::Trash => parts.extend([
            (Shape::Cylinder, TRASH_BIN, Vec3::Y * 0.3, Vec3::new(0.7, 0.6, 0.7)),
            (Shape::Cylinder, TRASH_MOUTH, Vec3::Y * 0.61, Vec3::new(0.55, 0.02, 0.55)),
            (Shape::Torus, TRASH_RIM, Vec3::Y * 0.61, Vec3::new(1.6, 0.5, 1.6)),
            // The bin's swing lid, tipped open at the back.
            (Shape::Cube, TRASH_BIN, Vec3::new(0.0, 0.78, -0.3), Vec3::new(0.6, 0.04, 0.35)),
        ]),
        StationKind::ExtinguisherStand => {
            // A red post on a grey foot, with a bracket the canister hangs on.
            parts.extend([
                (Shape::Cube, STAND_FOOT, Vec3::Y * 0.04, Vec3::new(0.6, 0.08, 0.6)),
                (Shape::Cylinder, STAND_RED, Vec3::Y * 0.6, Vec3::new(0.14, 1.2, 0.14)),
                (Shape::Cube, STAND_RED, Vec3::new(0.0, h + 0.02, 0.0), Vec3::new(0.5, 0.04, 0.3)),
                (Shape::Sphere, Color::WHITE, Vec3::Y * 1.22, Vec3::splat(0.16)),
            ]);
        }
        StationKind::PlateRack => {
            parts.extend([body(WOOD), top(WOOD_TOP)]);
            for k in 0..4 {
                parts.push((
                    Shape::Cylinder,
                    RACK_PLATE,
                    Vec3::Y * (h + 0.04 + 0.05 * k as f32),
                    Vec3::new(0.62, 0.04, 0.62),
                ));
            }
        }
    }
    parts
}
