//! Cooks: a capsule in the seat's colour with a chef's hat (banded in that colour), a face with
//! eyes and a smile that shows facing, hands held out for what they carry, and stun stars;
//! posed each frame where the interpolation puts them.

use super::art::{Art, Shape};
use crate::client::kitchen::interp::DrawnAt;
use crate::client::theme::{CHEEK, MOUTH, SKIN, STUN_STARS, seat_color};
use crate::protocol::CookView;
use crate::sim::kinds::Dir4;
use bevy::prelude::*;

/// A cook's moving parts.
#[derive(Component, Clone, Copy, Debug)]
pub(super) struct CookParts {
    body: Entity,
    stars: Entity,
}

/// A cook appeared: a capsule in the seat's colour, a chef's hat, a nose that shows facing,
/// and stun stars (hidden).
pub(super) fn dress_cook(
    add: On<Add, CookView>,
    cooks: Query<&CookView>,
    mut commands: Commands,
    mut art: ResMut<Art>,
    mut mats: ResMut<Assets<StandardMaterial>>,
) {
    let e = add.entity;
    let Ok(cook) = cooks.get(e) else { return };
    let m = &mut mats;
    let color = seat_color(cook.seat);
    let body = commands
        .spawn((Transform::default(), Visibility::default()))
        .with_children(|p| {
            p.spawn(art.piece(m, Shape::Capsule, color, Vec3::Y * 0.55, Vec3::ONE));
            p.spawn(art.piece(
                m,
                Shape::Cylinder,
                Color::WHITE,
                Vec3::Y * 1.12,
                Vec3::new(0.42, 0.22, 0.42),
            ));
            p.spawn(art.piece(
                m,
                Shape::Sphere,
                Color::WHITE,
                Vec3::Y * 1.25,
                Vec3::new(0.5, 0.2, 0.5),
            ));
            // The hat's band in the seat's colour: the colour is on the hat as well as the coat.
            p.spawn(art.piece(
                m,
                Shape::Cylinder,
                color,
                Vec3::Y * 1.03,
                Vec3::new(0.44, 0.05, 0.44),
            ));
            // The face: a round skin patch with eyes (whites and pupils), cheeks, a nose and
            // a smile, all on the side the cook faces.
            p.spawn(art.piece(
                m,
                Shape::Sphere,
                SKIN,
                Vec3::new(0.0, 0.86, 0.2),
                Vec3::new(0.44, 0.34, 0.2),
            ));
            for x in [-0.09, 0.09] {
                p.spawn(art.piece(
                    m,
                    Shape::Sphere,
                    Color::WHITE,
                    Vec3::new(x, 0.92, 0.29),
                    Vec3::new(0.1, 0.11, 0.04),
                ));
                p.spawn(art.piece(
                    m,
                    Shape::Sphere,
                    Color::BLACK,
                    Vec3::new(x, 0.915, 0.31),
                    Vec3::splat(0.05),
                ));
                p.spawn(art.piece(
                    m,
                    Shape::Sphere,
                    CHEEK,
                    Vec3::new(x * 1.6, 0.82, 0.27),
                    Vec3::new(0.07, 0.045, 0.03),
                ));
            }
            p.spawn(art.piece(
                m,
                Shape::Sphere,
                SKIN,
                Vec3::new(0.0, 0.86, 0.32),
                Vec3::splat(0.07),
            ));
            p.spawn(art.piece(
                m,
                Shape::Sphere,
                MOUTH,
                Vec3::new(0.0, 0.78, 0.3),
                Vec3::new(0.1, 0.03, 0.03),
            ));
            // Two hands held forward, where a carried item rides.
            for x in [-0.2, 0.2] {
                p.spawn(art.piece(
                    m,
                    Shape::Sphere,
                    SKIN,
                    Vec3::new(x, 0.7, 0.34),
                    Vec3::splat(0.13),
                ));
            }
        })
        .id();
    let stars = commands
        .spawn((
            art.piece(m, Shape::Torus, STUN_STARS, Vec3::Y * 1.45, Vec3::new(1.3, 1.0, 1.3)),
            Visibility::Hidden,
        ))
        .id();
    commands
        .entity(e)
        .insert((Transform::default(), Visibility::default(), CookParts { body, stars }))
        .add_children(&[body, stars]);
}

/// The yaw that turns a cook's +z (its nose) toward `facing`.
fn facing_yaw(facing: Dir4) -> f32 {
    use std::f32::consts::{FRAC_PI_2, PI};
    match facing {
        Dir4::Down => 0.0,
        Dir4::Right => FRAC_PI_2,
        Dir4::Left => -FRAC_PI_2,
        Dir4::Up => PI,
    }
}

/// Each frame: cooks where the interpolation put them, turned to their facing; a stunned cook
/// wobbles under spinning stars.
pub(super) fn pose_cooks(
    time: Res<Time<Real>>,
    mut cooks: Query<(&CookView, &DrawnAt, &CookParts, &mut Transform)>,
    mut parts: Query<(&mut Transform, &mut Visibility), Without<CookView>>,
) {
    let t = time.elapsed_secs();
    for (cook, drawn, p, mut tf) in &mut cooks {
        tf.translation = Vec3::new(drawn.0.x, 0.0, drawn.0.y);
        let target = Quat::from_rotation_y(facing_yaw(cook.facing));
        // Turn quickly but not instantly, so a flick reads as a turn.
        tf.rotation = tf.rotation.slerp(target, 0.35);
        let stunned = cook.stun > 0;
        if let Ok((mut btf, _)) = parts.get_mut(p.body) {
            btf.rotation = if stunned {
                Quat::from_rotation_z((t * 12.0).sin() * 0.25)
            } else {
                Quat::IDENTITY
            };
        }
        if let Ok((mut stf, mut vis)) = parts.get_mut(p.stars) {
            vis.set_if_neq(if stunned { Visibility::Inherited } else { Visibility::Hidden });
            stf.rotation = Quat::from_rotation_y(t * 6.0);
        }
    }
}
