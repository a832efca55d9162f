//! High-contrast outlines on items (Settings, accessibility): every mesh of an item gets an
//! inverted hull — the same mesh a little larger, black and unlit, drawn from its back faces
//! only — so each item reads as a dark-edged shape against counters and floor whatever its
//! colour. Works on any item model without knowing its parts.

use crate::client::settings::access::Accessibility;
use crate::protocol::ItemView;
use bevy::prelude::*;
use bevy::render::render_resource::Face;

/// How much larger the hull is than the piece it outlines.
const HULL_SCALE: f32 = 1.18;

/// The hull of one item piece (a child of the piece, so it goes when the piece goes).
#[derive(Component)]
pub(super) struct OutlineShell;

/// A piece that has its hull.
#[derive(Component)]
pub(super) struct Outlined;

/// The hulls' one material.
#[derive(Resource)]
pub(super) struct OutlineMaterial(Handle<StandardMaterial>);

impl FromWorld for OutlineMaterial {
    fn from_world(world: &mut World) -> Self {
        let mut mats = world.resource_mut::<Assets<StandardMaterial>>();
        OutlineMaterial(mats.add(StandardMaterial {
            base_color: Color::BLACK,
            unlit: true,
            cull_mode: Some(Face::Front),
            ..default()
        }))
    }
}

/// With the option on: a hull for every item piece that lacks one (new items, rebuilt looks).
/// Turned off: every hull goes.
#[allow(clippy::type_complexity)]
pub(super) fn outline_items(
    access: Option<Res<Accessibility>>,
    material: Res<OutlineMaterial>,
    pieces: Query<(Entity, &Mesh3d, &ChildOf), (Without<Outlined>, Without<OutlineShell>)>,
    items: Query<(), With<ItemView>>,
    shells: Query<(Entity, &ChildOf), With<OutlineShell>>,
    mut commands: Commands,
) {
    if !access.is_some_and(|a| a.high_contrast) {
        for (shell, piece) in &shells {
            commands.entity(shell).despawn();
            commands.entity(piece.parent()).remove::<Outlined>();
        }
        return;
    }
    for (piece, mesh, parent) in &pieces {
        if !items.contains(parent.parent()) {
            continue;
        }
        commands.entity(piece).insert(Outlined).with_child((
            OutlineShell,
            Mesh3d(mesh.0.clone()),
            MeshMaterial3d(material.0.clone()),
            Transform::from_scale(Vec3::splat(HULL_SCALE)),
        ));
    }
}
