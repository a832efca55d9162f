//! The kitchen's floor, walls and holes (water between floors): one mesh a tile, laid again whenever the grid
//! changes (the camera refits itself: `camera::frame_kitchen`).

use super::art::{Art, Shape};
use crate::client::theme::{FLOOR_DARK, FLOOR_LIGHT, WALL, WATER_DARK, WATER_LIGHT};
use crate::protocol::GridView;
use crate::sim::kinds::Tile;
use bevy::prelude::*;

/// Tile meshes of a grid (rebuilt when the grid changes).
#[derive(Component)]
pub(super) struct TileArt;

/// A grid arrived or changed (a shifting floor went or came back): lay its floor, walls and
/// voids again. A system on `Changed` rather than an `Insert` observer,
/// because a replicated update may mutate the component in place.
pub(super) fn build_grid(
    grids: Query<(Entity, &GridView, Option<&Children>), Changed<GridView>>,
    old: Query<(), With<TileArt>>,
    mut commands: Commands,
    mut art: ResMut<Art>,
    mut mats: ResMut<Assets<StandardMaterial>>,
) {
    for (room, grid, children) in &grids {
        lay_grid(room, grid, children, &old, &mut commands, &mut art, &mut mats);
    }
}

fn lay_grid(
    room: Entity,
    grid: &GridView,
    children: Option<&Children>,
    old: &Query<(), With<TileArt>>,
    commands: &mut Commands,
    art: &mut Art,
    mats: &mut Assets<StandardMaterial>,
) {
    for child in children.into_iter().flatten() {
        if old.contains(*child) {
            commands.entity(*child).despawn();
        }
    }
    commands.entity(room).insert((Transform::default(), Visibility::default()));
    let mut pieces = Vec::new();
    for y in 0..grid.height {
        for x in 0..grid.width {
            let Some(&tile) = grid.tiles.get((y * grid.width + x) as usize) else { continue };
            let c = Vec3::new(x as f32 + 0.5, 0.0, y as f32 + 0.5);
            // (colour, centre height, thickness) of the tile's one block.
            let checker = |light, dark| if (x + y) % 2 == 0 { light } else { dark };
            let block = match tile {
                Tile::Floor | Tile::Station(_) => (checker(FLOOR_LIGHT, FLOOR_DARK), -0.05, 0.1),
                Tile::Wall => (WALL, 0.6, 1.2),
                // A hole between floors is water, a little below the floor (its top under the
                // floor slab's, so the bank reads without a dark seam); a hole on the
                // kitchen's outside shows the dark background.
                Tile::Void if enclosed(grid, x, y) => {
                    (checker(WATER_LIGHT, WATER_DARK), -0.14, 0.12)
                }
                Tile::Void => continue,
            };
            let (color, height, thickness) = block;
            pieces.push(art.piece(
                mats,
                Shape::Cube,
                color,
                c + Vec3::Y * height,
                Vec3::new(1.0, thickness, 1.0),
            ));
        }
    }
    commands.entity(room).with_children(|p| {
        for piece in pieces {
            p.spawn((piece, TileArt));
        }
    });
}

/// Is this cell between non-void tiles along its row or its column (inside the kitchen, like a
/// river or a bridge's gap), rather than on the grid's outside?
fn enclosed(grid: &GridView, x: i32, y: i32) -> bool {
    let solid = |x: i32, y: i32| {
        grid.tiles.get((y * grid.width + x) as usize).is_some_and(|t| *t != Tile::Void)
    };
    let row = (0..x).any(|i| solid(i, y)) && (x + 1..grid.width).any(|i| solid(i, y));
    let column = (0..y).any(|j| solid(x, j)) && (y + 1..grid.height).any(|j| solid(x, j));
    row || column
}
