//! The Tandem course and couch drawn in the kitchen's style (`kitchen::art` primitives,
//! `theme` colours): the floor, the route's cells, walls and blocks, pillars, doorway sills,
//! the goal pad, the couch from its hull discs' pose and the two cooks at their handles in
//! their seat colours, under the camera that follows the couch (`camera.rs`). Built when a
//! [`TandemScreen`] appears (a local run, or an online room's round), rebuilt for a new course,
//! torn down when it goes; the kitchen's camera is off meanwhile.

use super::screen::TandemScreen;
use crate::client::kitchen::KitchenCamera;
use crate::client::kitchen::art::{Art, Shape};
use crate::client::theme::{
    FLOOR_DARK, FLOOR_LIGHT, SERVE, SERVE_HATCH, SKIN, STEEL, WALL, WOOD, WOOD_DARK, WOOD_TOP,
    seat_color,
};
use crate::tandem::course::{WORLD_H, WORLD_W};
use crate::tandem::geom::Rect;
use crate::tandem::view::disc_radii_mm;
use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::prelude::*;

/// Metres of a µm world length.
fn m(um: i32) -> f32 {
    um as f32 / 1_000_000.0
}

/// A view point (mm, origin at the world centre, y up) on the ground plane (x right, z down
/// the screen), metres.
fn ground(mm: (i32, i32)) -> Vec3 {
    Vec3::new(mm.0 as f32 / 1000.0, 0.0, -mm.1 as f32 / 1000.0)
}

/// A world rect (µm, y down) as a box standing on the floor, `h` metres tall, centred like
/// the view (the world centre at the origin).
fn rect_box(r: &Rect, h: f32, lift: f32) -> (Vec3, Vec3) {
    let (cx, cy) = (m(WORLD_W) / 2.0, m(WORLD_H) / 2.0);
    let centre = Vec3::new(m(r.x0 + r.x1) / 2.0 - cx, lift + h / 2.0, m(r.y0 + r.y1) / 2.0 - cy);
    (centre, Vec3::new(m(r.x1 - r.x0), h, m(r.y1 - r.y0)))
}

/// A hull disc of the couch (index into the view's `hull_mm`).
#[derive(Component)]
struct HullPiece(usize);
/// The couch's frame: the box under the cushions, along the heading.
#[derive(Component)]
struct CouchFrame;
/// A cook at a handle.
#[derive(Component)]
struct HandleCook(usize);
/// The run's camera (`camera.rs` moves it).
#[derive(Component)]
pub struct TandemCamera;
/// Every top-level entity of the scene (torn down together).
#[derive(Component)]
struct TandemPiece;

pub struct TandemScenePlugin;

impl Plugin for TandemScenePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, (sync_scene, pose_couch).chain());
    }
}

/// The course digest the scene was built for (none while no run is on screen).
#[derive(Default)]
struct Built(Option<u64>);

/// The scene follows the screen: built for its course, rebuilt for another, gone with it.
fn sync_scene(
    mut commands: Commands,
    screen: Option<Res<TandemScreen>>,
    mut built: Local<Built>,
    pieces: Query<Entity, With<TandemPiece>>,
    mut cams: Query<&mut Camera, With<KitchenCamera>>,
    art: Option<ResMut<Art>>,
    mats: Option<ResMut<Assets<StandardMaterial>>>,
) {
    let want = screen.as_ref().map(|s| s.course.digest);
    if built.0 == want {
        return;
    }
    for piece in &pieces {
        commands.entity(piece).despawn();
    }
    for mut c in &mut cams {
        c.is_active = want.is_none();
    }
    built.0 = None;
    if let (Some(screen), Some(mut art), Some(mut mats)) = (screen, art, mats) {
        spawn_scene(&mut commands, &screen.course, &mut art, &mut mats);
        built.0 = want;
    }
}

fn spawn_scene(
    commands: &mut Commands,
    course: &crate::tandem::course::Course,
    art: &mut Art,
    mats: &mut Assets<StandardMaterial>,
) {
    let scope = || TandemPiece;
    let mut put = |art: &mut Art, shape, color, (at, size): (Vec3, Vec3)| {
        commands.spawn((art.piece(mats, shape, color, at, size), scope()));
    };
    // The warehouse floor, then the route's cells a shade lighter (the way through).
    let world = Rect { x0: 0, y0: 0, x1: WORLD_W, y1: WORLD_H };
    put(art, Shape::Cube, FLOOR_DARK, rect_box(&world, 0.1, -0.1));
    for cell in &course.route {
        let r = crate::tandem::course::cell_rect(*cell);
        let inset =
            Rect { x0: r.x0 + 100_000, y0: r.y0 + 100_000, x1: r.x1 - 100_000, y1: r.y1 - 100_000 };
        put(art, Shape::Cube, FLOOR_LIGHT, rect_box(&inset, 0.02, 0.0));
    }
    put(art, Shape::Cube, SERVE, rect_box(&course.goal_pad, 0.04, 0.0));
    for block in &course.blocks {
        put(art, Shape::Cube, WALL, rect_box(block, 1.0, 0.0));
    }
    for pillar in &course.pillars {
        put(art, Shape::Cube, STEEL, rect_box(pillar, 1.6, 0.0));
    }
    // Doorway sills: a hatched strip across each gap, so the beats are visible on the floor.
    for d in &course.doorways {
        let half = d.width / 2;
        let across_x =
            matches!(d.step, crate::tandem::route::Step::North | crate::tandem::route::Step::South);
        let r = if across_x {
            Rect {
                x0: d.centre.x - half,
                y0: d.centre.y - 80_000,
                x1: d.centre.x + half,
                y1: d.centre.y + 80_000,
            }
        } else {
            Rect {
                x0: d.centre.x - 80_000,
                y0: d.centre.y - half,
                x1: d.centre.x + 80_000,
                y1: d.centre.y + half,
            }
        };
        put(art, Shape::Cube, SERVE_HATCH, rect_box(&r, 0.03, 0.0));
    }
    // The couch: its frame and a cushion on each hull disc; the cooks at the two handles.
    let radii = disc_radii_mm();
    let frame = art.piece(mats, Shape::Cube, WOOD_DARK, Vec3::ZERO, Vec3::ONE);
    commands.spawn((frame, CouchFrame, scope()));
    for (i, r) in radii.iter().take(5).enumerate() {
        let d = *r as f32 / 1000.0 * 2.0;
        let cushion = art.piece(
            mats,
            Shape::Cylinder,
            if i % 2 == 0 { WOOD_TOP } else { WOOD },
            Vec3::ZERO,
            Vec3::new(d, 0.3, d),
        );
        commands.spawn((cushion, HullPiece(i), scope()));
    }
    for seat in 0..2 {
        let body =
            art.piece(mats, Shape::Capsule, seat_color(seat as u8), Vec3::ZERO, Vec3::splat(1.0));
        commands.spawn((body, HandleCook(seat), scope())).with_children(|c| {
            c.spawn(art.piece(
                mats,
                Shape::Sphere,
                SKIN,
                Vec3::new(0.0, 0.75, 0.0),
                Vec3::splat(0.45),
            ));
        });
    }
    // Tipped toward the player like the kitchen's; `camera.rs` puts it over the couch.
    commands.spawn((
        Camera3d::default(),
        Camera { order: 1, ..default() },
        Tonemapping::SomewhatBoringDisplayTransform,
        TandemCamera,
        Transform::from_xyz(0.0, 40.0, 18.0).looking_at(Vec3::new(0.0, 0.0, 1.5), Vec3::Y),
        scope(),
    ));
}

/// Every frame: the couch and the cooks where the room's view puts them.
fn pose_couch(
    screen: Option<Res<TandemScreen>>,
    mut hull: Query<(&HullPiece, &mut Transform), (Without<CouchFrame>, Without<HandleCook>)>,
    mut frame: Query<&mut Transform, (With<CouchFrame>, Without<HandleCook>)>,
    mut cooks: Query<(&HandleCook, &mut Transform), Without<CouchFrame>>,
) {
    let Some(screen) = screen else { return };
    let v = &screen.view;
    let turn = Quat::from_rotation_y((v.heading_deg as f32).to_radians());
    for (piece, mut t) in &mut hull {
        if let Some(p) = v.hull_mm.get(piece.0) {
            t.translation = ground(*p) + Vec3::Y * 0.55;
        }
    }
    let span = v.hull_mm.iter().map(|p| {
        let d = ground(*p) - ground(v.centre_mm);
        d.length()
    });
    let half = span.fold(0.0f32, f32::max);
    let width = disc_radii_mm()[0] as f32 / 1000.0 * 2.0;
    for mut t in &mut frame {
        t.translation = ground(v.centre_mm) + Vec3::Y * 0.25;
        t.rotation = turn;
        t.scale = Vec3::new(half * 2.0 + width * 0.6, 0.5, width);
    }
    for (cook, mut t) in &mut cooks {
        t.translation = ground(v.seats[cook.0].cog_mm) + Vec3::Y * 0.55;
        t.rotation = turn;
    }
}
