//! Items: food by ingredient and form, plates with what is on them, the extinguisher; rebuilt
//! when an item's look changes and placed each frame on its station or in a cook's hands.

use super::art::{Art, Shape};
use super::food::food_pieces;
use super::stations::StationParts;
use crate::client::kitchen::interp::UTILE;
use crate::client::theme::{EXTINGUISHER, EXTINGUISHER_CAP, PLATE_WELL};
use crate::protocol::{CookView, InRoom, ItemLook, ItemPlace, ItemView, StationView};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;

/// The look an item's meshes were built for.
#[derive(Component, Clone, Debug)]
pub(super) struct ShownLook(ItemLook);

/// An item appeared: its meshes by look.
pub(super) fn dress_item(
    add: On<Add, ItemView>,
    items: Query<&ItemView>,
    mut commands: Commands,
    mut art: ResMut<Art>,
    mut mats: ResMut<Assets<StandardMaterial>>,
) {
    let e = add.entity;
    let Ok(item) = items.get(e) else { return };
    commands.entity(e).insert((Transform::default(), Visibility::Hidden));
    spawn_look(&mut commands, e, &item.look, &mut art, &mut mats);
}

fn spawn_look(
    commands: &mut Commands,
    e: Entity,
    look: &ItemLook,
    art: &mut Art,
    mats: &mut Assets<StandardMaterial>,
) {
    let mut pieces = Vec::new();
    match look {
        ItemLook::Food(i, f) => food_pieces(&mut pieces, art, mats, *i, *f, Vec3::ZERO, 1.0),
        ItemLook::Plate(parts) => {
            pieces.push(art.piece(
                mats,
                Shape::Cylinder,
                Color::WHITE,
                Vec3::Y * 0.03,
                Vec3::new(0.8, 0.06, 0.8),
            ));
            pieces.push(art.piece(
                mats,
                Shape::Cylinder,
                PLATE_WELL,
                Vec3::Y * 0.065,
                Vec3::new(0.55, 0.01, 0.55),
            ));
            let n = parts.len().max(1) as f32;
            for (k, (i, f)) in parts.iter().enumerate() {
                let a = k as f32 / n * std::f32::consts::TAU;
                let off = if parts.len() == 1 {
                    Vec3::ZERO
                } else {
                    Vec3::new(a.cos(), 0.0, a.sin()) * 0.18
                };
                food_pieces(&mut pieces, art, mats, *i, *f, off + Vec3::Y * 0.08, 0.6);
            }
        }
        ItemLook::Extinguisher => {
            // A red canister with a black cap and nozzle.
            pieces.extend([
                art.piece(
                    mats,
                    Shape::Cylinder,
                    EXTINGUISHER,
                    Vec3::Y * 0.22,
                    Vec3::new(0.26, 0.44, 0.26),
                ),
                art.piece(
                    mats,
                    Shape::Sphere,
                    EXTINGUISHER,
                    Vec3::Y * 0.44,
                    Vec3::new(0.26, 0.14, 0.26),
                ),
                art.piece(
                    mats,
                    Shape::Cylinder,
                    EXTINGUISHER_CAP,
                    Vec3::Y * 0.53,
                    Vec3::new(0.1, 0.08, 0.1),
                ),
                art.piece(
                    mats,
                    Shape::Cube,
                    EXTINGUISHER_CAP,
                    Vec3::new(0.0, 0.55, 0.1),
                    Vec3::new(0.05, 0.05, 0.2),
                ),
            ]);
        }
    }
    commands.entity(e).insert(ShownLook(look.clone())).with_children(|p| {
        for piece in pieces {
            p.spawn(piece);
        }
    });
}

/// An item changed look (chopped, cooked, a part plated): rebuild its meshes.
pub(super) fn restyle_items(
    mut commands: Commands,
    items: Query<(Entity, &ItemView, &ShownLook, Option<&Children>), Changed<ItemView>>,
    mut art: ResMut<Art>,
    mut mats: ResMut<Assets<StandardMaterial>>,
) {
    for (e, item, shown, children) in &items {
        if item.look == shown.0 {
            continue;
        }
        for c in children.into_iter().flatten() {
            commands.entity(*c).despawn();
        }
        spawn_look(&mut commands, e, &item.look, &mut art, &mut mats);
    }
}

/// Each frame: items on their station's top (stacked in id order), or above the hands of the
/// cook carrying them.
pub(super) fn place_items(
    stations: Query<(&StationView, &InRoom, &StationParts, &Transform), Without<ItemView>>,
    cooks: Query<(&CookView, &InRoom, &Transform), (Without<ItemView>, Without<StationView>)>,
    mut items: Query<(&ItemView, &InRoom, &mut Transform, &mut Visibility)>,
) {
    let station_top: HashMap<(Entity, u16), Vec3> = stations
        .iter()
        .map(|(st, room, p, tf)| ((room.0, st.index), tf.translation + Vec3::Y * p.top))
        .collect();
    let hands: HashMap<(Entity, u8), Transform> =
        cooks.iter().map(|(c, room, tf)| ((room.0, c.seat), *tf)).collect();
    let mut stacked: HashMap<(Entity, u16), u32> = HashMap::default();
    let mut order: Vec<_> = items.iter_mut().collect();
    order.sort_by_key(|(item, ..)| item.id);
    for (item, room, mut tf, mut vis) in order {
        let at = match item.place {
            ItemPlace::Station(s) => station_top.get(&(room.0, s)).map(|top| {
                let k = stacked.entry((room.0, s)).or_default();
                let p = *top + Vec3::new(0.0, 0.1 * *k as f32, 0.0);
                *k += 1;
                p
            }),
            ItemPlace::Hand(seat) => hands
                .get(&(room.0, seat))
                .map(|h| h.translation + h.rotation * Vec3::new(0.0, 0.85, 0.42)),
            // Where the sim puts it, on the floor (`throws` draws a flight's shadow).
            ItemPlace::Floor((x, y)) => Some(Vec3::new(x as f32 / UTILE, 0.05, y as f32 / UTILE)),
            ItemPlace::Flying { pos, height, .. } => Some(Vec3::new(
                pos.0 as f32 / UTILE,
                0.85 + height as f32 / UTILE,
                pos.1 as f32 / UTILE,
            )),
        };
        match at {
            Some(p) => {
                tf.translation = p;
                vis.set_if_neq(Visibility::Inherited);
            }
            None => {
                vis.set_if_neq(Visibility::Hidden);
            }
        }
    }
}
