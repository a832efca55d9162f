//! The dash drawn on the cook: a streak behind it while the burst runs (`CookView::dash > 0`),
//! with fading afterimages unless reduced motion is on, and a ring at its feet that shrinks
//! away while the dash cools down (`dash_cooldown > 0`). Drawing only: the rules never see it.

use super::art::{Art, Shape};
use crate::client::settings::access::Accessibility;
use crate::client::theme::{DASH_COOLDOWN, DASH_TRAIL};
use crate::protocol::CookView;
use crate::sim::units::{DASH_COOLDOWN_TICKS, DASH_TICKS};
use bevy::prelude::*;

/// A cook's dash marks: the streak behind it and the cooldown ring (children of the cook, so
/// they turn with its facing).
#[derive(Component, Clone, Copy, Debug)]
pub(super) struct DashMarks {
    streak: Entity,
    ring: Entity,
}

/// An afterimage left behind a dashing cook, fading over its short life.
#[derive(Component, Clone, Copy, Debug)]
pub(super) struct Afterimage {
    age: f32,
}

/// How long an afterimage lasts (seconds).
const AFTERIMAGE_SECS: f32 = 0.22;

/// Each frame: give new cooks their (hidden) marks; show the streak while a dash runs and the
/// ring, sized by the cooldown left, while it cools; drop afterimages behind a dasher.
#[allow(clippy::type_complexity)]
pub(super) fn mark_dashes(
    mut commands: Commands,
    access: Option<Res<Accessibility>>,
    cooks: Query<(Entity, &CookView, &Transform, Option<&DashMarks>)>,
    mut marks: Query<(&mut Transform, &mut Visibility), (Without<CookView>, Without<Afterimage>)>,
    mut art: ResMut<Art>,
    mut mats: ResMut<Assets<StandardMaterial>>,
) {
    let steady = access.is_some_and(|a| a.reduced_motion);
    let mut order: Vec<_> = cooks.iter().collect();
    order.sort_by_key(|(_, c, ..)| c.seat);
    for (e, cook, tf, dash_marks) in order {
        let Some(m) = dash_marks else {
            let streak = commands
                .spawn((
                    Mesh3d(art.mesh(Shape::Capsule)),
                    MeshMaterial3d(art.glass(&mut mats, DASH_TRAIL)),
                    Transform::default(),
                    Visibility::Hidden,
                ))
                .id();
            let ring = commands
                .spawn((
                    Mesh3d(art.mesh(Shape::Torus)),
                    MeshMaterial3d(art.glass(&mut mats, DASH_COOLDOWN)),
                    Transform::default(),
                    Visibility::Hidden,
                ))
                .id();
            commands.entity(e).insert(DashMarks { streak, ring }).add_children(&[streak, ring]);
            continue;
        };
        if let Ok((mut stf, mut vis)) = marks.get_mut(m.streak) {
            let on = cook.dash > 0;
            vis.set_if_neq(if on { Visibility::Inherited } else { Visibility::Hidden });
            // Lying along the facing, behind the cook, longest at the burst's start.
            let left = cook.dash.min(DASH_TICKS) as f32 / DASH_TICKS as f32;
            let length = 0.5 + 0.6 * left;
            stf.translation = Vec3::new(0.0, 0.5, -0.35 - length * 0.5);
            stf.rotation = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
            stf.scale = Vec3::new(0.55, length, 0.35);
        }
        if let Ok((mut rtf, mut vis)) = marks.get_mut(m.ring) {
            let on = cook.dash_cooldown > 0;
            vis.set_if_neq(if on { Visibility::Inherited } else { Visibility::Hidden });
            let left =
                cook.dash_cooldown.min(DASH_COOLDOWN_TICKS) as f32 / DASH_COOLDOWN_TICKS as f32;
            let radius = 1.6 + 1.6 * left;
            rtf.translation = Vec3::Y * 0.04;
            rtf.scale = Vec3::new(radius, 0.3, radius);
        }
        if cook.dash > 0 && !steady {
            commands.spawn((
                Afterimage { age: 0.0 },
                Mesh3d(art.mesh(Shape::Capsule)),
                MeshMaterial3d(art.glass(&mut mats, DASH_TRAIL)),
                Transform::from_translation(tf.translation + Vec3::Y * 0.55)
                    .with_rotation(tf.rotation)
                    .with_scale(Vec3::splat(0.8)),
            ));
        }
    }
}

/// Each frame: afterimages shrink away and go.
pub(super) fn fade_afterimages(
    time: Res<Time<Real>>,
    mut commands: Commands,
    mut images: Query<(Entity, &mut Afterimage, &mut Transform)>,
) {
    let dt = time.delta_secs().min(0.1);
    for (e, mut image, mut tf) in &mut images {
        image.age += dt;
        if image.age >= AFTERIMAGE_SECS {
            commands.entity(e).despawn();
            continue;
        }
        tf.scale = Vec3::splat(0.8 * (1.0 - image.age / AFTERIMAGE_SECS));
    }
}
