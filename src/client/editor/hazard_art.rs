//! The placed hazards on the editor's grid, in the game's own colours (`client::kitchen::
//! hazards`): spill and ice decals on their cells, a cart's track as rails from cell to cell
//! with the cart on its first cell, a shifting floor as the warning's red frame round what the
//! cell turns into (water for a hole, wall); a white frame round the cells of the hazard being
//! painted, and each hazard's number (the panel's and the settings') on its first cell.

use super::doc::EditorDoc;
use super::layout::GridLayout;
use crate::client::kitchen::art::{Art, Piece, Shape};
use crate::client::state::AppState;
use crate::client::theme::{
    CART, CART_RIM, CART_WHEEL, ICE, OIL, SHIFT_FLASH, STEEL_DARK, WALL, WATER_DARK, font,
};
use crate::level::edit::hazards::cells_of;
use crate::level::schema::{CellFile, HazardFile, ShiftTo};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

/// Everything drawn of the hazards (gone on the next redraw and on leaving).
#[derive(Component)]
pub(super) struct HazardArt;

/// Above every tile top (so a hazard on the wrong tile still shows where it is), below the
/// problems' marks (1.6) and the cursor (1.8).
const LIFT: f32 = 1.3;
/// The painted hazard's frame, over its decals.
const PAINTED: Color = Color::srgba(1.0, 1.0, 1.0, 0.9);

fn centre((x, y): CellFile, lift: f32) -> Vec3 {
    Vec3::new(x as f32 + 0.5, lift, y as f32 + 0.5)
}

/// The hazards changed, the painted one did, the window did, or the editor opened: draw
/// them again from the document.
pub(super) fn draw_hazards(
    ed: Res<EditorDoc>,
    windows: Query<&Window, With<PrimaryWindow>>,
    old: Query<Entity, With<HazardArt>>,
    mut art: ResMut<Art>,
    mut mats: ResMut<Assets<StandardMaterial>>,
    mut drawn: Local<Option<(u64, Option<usize>, u32, u32)>>,
    mut commands: Commands,
) {
    let Ok(window) = windows.single() else { return };
    let now = Some((ed.revision, ed.painting, window.width().to_bits(), window.height().to_bits()));
    // Drawn art leaves with the editor (a Playtest): coming back draws it again.
    if *drawn == now && !old.is_empty() {
        return;
    }
    *drawn = now;
    for e in &old {
        commands.entity(e).despawn();
    }
    let layout = GridLayout::fit(ed.doc.size(), Vec2::new(window.width(), window.height()));
    let mut pieces = Vec::new();
    for (i, hazard) in ed.doc.file().hazards.iter().enumerate() {
        hazard_pieces(hazard, &mut art, &mut mats, &mut pieces);
        if ed.painting == Some(i) {
            for &cell in cells_of(hazard) {
                frame(cell, LIFT + 0.1, 0.05, art.glass(&mut mats, PAINTED), &art, &mut pieces);
            }
        }
        if let Some(&first) = cells_of(hazard).first() {
            number_tag(&mut commands, &layout, first, i + 1);
        }
    }
    for piece in pieces {
        commands.spawn((piece, HazardArt, DespawnOnExit(AppState::Editor)));
    }
}

/// One hazard's decals, rails or frames.
fn hazard_pieces(
    hazard: &HazardFile,
    art: &mut Art,
    mats: &mut Assets<StandardMaterial>,
    out: &mut Vec<Piece>,
) {
    let decal = |color: Color, art: &mut Art, mats: &mut Assets<StandardMaterial>| {
        (Mesh3d(art.mesh(Shape::Cylinder)), MeshMaterial3d(art.glass(mats, color)))
    };
    match hazard {
        HazardFile::Spill { cells, .. } | HazardFile::Ice { cells, .. } => {
            let color = if matches!(hazard, HazardFile::Ice { .. }) { ICE } else { OIL };
            for &cell in cells {
                let (mesh, mat) = decal(color, art, mats);
                let at = Transform::from_translation(centre(cell, LIFT))
                    .with_scale(Vec3::new(0.92, 0.02, 0.92));
                out.push((mesh, mat, at));
            }
        }
        HazardFile::Shift { cells, to, .. } => {
            let inner = match to {
                ShiftTo::Void => WATER_DARK,
                ShiftTo::Wall => WALL,
            };
            for &cell in cells {
                let under = art.glass(mats, inner.with_alpha(0.6));
                let at = Transform::from_translation(centre(cell, LIFT))
                    .with_scale(Vec3::new(0.62, 0.02, 0.62));
                out.push((Mesh3d(art.mesh(Shape::Cube)), MeshMaterial3d(under), at));
                frame(cell, LIFT + 0.02, 0.16, art.glass(mats, SHIFT_FLASH), art, out);
            }
        }
        HazardFile::Cart { path, .. } => track(path, art, mats, out),
        HazardFile::Fire { .. } => {}
    }
}

/// A cart's track: a sleeper on every cell, a rail along each side-by-side step (a step that
/// is not one is left open, where the validator's mark sits), the cart on the first cell.
fn track(
    path: &[CellFile],
    art: &mut Art,
    mats: &mut Assets<StandardMaterial>,
    out: &mut Vec<Piece>,
) {
    for &cell in path {
        let sleeper = Vec3::new(0.36, 0.02, 0.36);
        out.push(art.piece(mats, Shape::Cube, STEEL_DARK, centre(cell, LIFT), sleeper));
    }
    let steps = path.iter().zip(path.iter().cycle().skip(1)).take(if path.len() > 1 {
        path.len()
    } else {
        0
    });
    for (&a, &b) in steps {
        if (a.0 - b.0).abs() + (a.1 - b.1).abs() != 1 {
            continue;
        }
        let mid = (centre(a, LIFT + 0.03) + centre(b, LIFT + 0.03)) / 2.0;
        let size = if a.0 != b.0 { Vec3::new(1.0, 0.03, 0.1) } else { Vec3::new(0.1, 0.03, 1.0) };
        out.push(art.piece(mats, Shape::Cube, CART_RIM, mid, size));
    }
    if let Some(&first) = path.first() {
        let body = centre(first, LIFT + 0.1);
        out.push(art.piece(mats, Shape::Cube, CART, body, Vec3::new(0.56, 0.1, 0.56)));
        for (sx, sz) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
            let wheel = body + Vec3::new(sx * 0.27, -0.04, sz * 0.27);
            out.push(art.piece(mats, Shape::Sphere, CART_WHEEL, wheel, Vec3::splat(0.16)));
        }
    }
}

/// Four bars round a cell, `width` wide.
fn frame(
    cell: CellFile,
    lift: f32,
    width: f32,
    mat: Handle<StandardMaterial>,
    art: &Art,
    out: &mut Vec<Piece>,
) {
    let c = centre(cell, lift);
    let edge = 0.5 - width / 2.0;
    let bars = [
        (Vec3::new(0.0, 0.0, -edge), Vec3::new(1.0, 0.02, width)),
        (Vec3::new(0.0, 0.0, edge), Vec3::new(1.0, 0.02, width)),
        (Vec3::new(-edge, 0.0, 0.0), Vec3::new(width, 0.02, 1.0 - 2.0 * width)),
        (Vec3::new(edge, 0.0, 0.0), Vec3::new(width, 0.02, 1.0 - 2.0 * width)),
    ];
    for (offset, size) in bars {
        let at = Transform::from_translation(c + offset).with_scale(size);
        out.push((Mesh3d(art.mesh(Shape::Cube)), MeshMaterial3d(mat.clone()), at));
    }
}

/// The hazard's number in its first cell's lower right corner (a problem's sits upper left).
fn number_tag(commands: &mut Commands, layout: &GridLayout, (x, y): CellFile, n: usize) {
    let (Ok(x), Ok(y)) = (usize::try_from(x), usize::try_from(y)) else { return };
    if x >= layout.size.0 || y >= layout.size.1 {
        return;
    }
    let corner = layout.corner_of((x + 1, y + 1));
    commands.spawn((
        Node {
            position_type: PositionType::Absolute,
            right: px(layout.window.x - corner.x + 2.0),
            bottom: px(layout.window.y - corner.y + 2.0),
            padding: UiRect::horizontal(px(3.0)),
            ..default()
        },
        BackgroundColor(Color::srgba(0.08, 0.08, 0.1, 0.85)),
        Text::new(format!("H{n}")),
        font(12.0),
        TextColor(Color::WHITE),
        HazardArt,
        DespawnOnExit(AppState::Editor),
    ));
}
