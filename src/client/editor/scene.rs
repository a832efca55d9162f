//! The editor's kitchen: the grid and stations as the views a round projects (so the game's
//! own `client::kitchen` dresses them), the cook spawns as discs in their seat's colour, a red
//! slab over each cell with a problem and a gold frame round the cursor; the camera straight
//! down over it (`layout`), and the game's camera fit back when the editor closes.

use super::doc::EditorDoc;
use super::layout::GridLayout;
use crate::client::kitchen::{KitchenCamera, fit_camera};
use crate::client::state::AppState;
use crate::client::theme::seat_color;
use crate::level::edit::Brush;
use crate::level::edit::brush::brush_of_char;
use crate::protocol::{GridView, StationView};
use crate::sim::kinds::Tile;
use crate::sim::station::StationState;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

/// Everything the editor drew of the kitchen (gone on the next redraw and on leaving).
#[derive(Component)]
pub struct EditorView;

/// The cursor's frame.
#[derive(Component)]
pub(super) struct CursorFrame;

/// The revision of the kitchen last drawn (`None`: draw it).
#[derive(Resource, Default)]
pub(super) struct Drawn(Option<u64>);

/// The editor's own meshes and materials: a unit cube and disc, the marks' and cursor's colours.
#[derive(Resource)]
pub struct EditorArt {
    cube: Handle<Mesh>,
    disc: Handle<Mesh>,
    mark: Handle<StandardMaterial>,
    cursor: Handle<StandardMaterial>,
}

/// A problem's mark: translucent red, unlit so it reads the same on every tile.
pub const MARK: Color = Color::srgba(0.95, 0.1, 0.1, 0.55);
/// The cursor's frame.
pub const CURSOR: Color = Color::srgb(1.0, 0.8, 0.15);

impl FromWorld for EditorArt {
    fn from_world(world: &mut World) -> Self {
        let mut meshes = world.resource_mut::<Assets<Mesh>>();
        let (cube, disc) =
            (meshes.add(Cuboid::new(1.0, 1.0, 1.0)), meshes.add(Cylinder::new(0.5, 1.0)));
        let mut mats = world.resource_mut::<Assets<StandardMaterial>>();
        let flat = |color: Color, alpha_mode| StandardMaterial {
            base_color: color,
            unlit: true,
            alpha_mode,
            ..default()
        };
        EditorArt {
            cube,
            disc,
            mark: mats.add(flat(MARK, AlphaMode::Blend)),
            cursor: mats.add(flat(CURSOR, AlphaMode::Opaque)),
        }
    }
}

pub(super) fn mark_redraw(mut commands: Commands) {
    commands.insert_resource(Drawn(None));
}

/// The kitchen changed (or the editor opened): draw it again from the document.
pub(super) fn redraw_kitchen(
    ed: Res<EditorDoc>,
    mut drawn: ResMut<Drawn>,
    old: Query<Entity, With<EditorView>>,
    art: Res<EditorArt>,
    mut mats: ResMut<Assets<StandardMaterial>>,
    mut commands: Commands,
) {
    if drawn.0 == Some(ed.revision) {
        return;
    }
    drawn.0 = Some(ed.revision);
    for e in &old {
        commands.entity(e).despawn();
    }
    let file = ed.doc.file();
    let (width, height) = ed.doc.size();
    let scope = DespawnOnExit(AppState::Editor);
    let mut tiles = vec![Tile::Void; width * height];
    let mut index = 0u16;
    for (y, row) in file.grid.iter().enumerate() {
        for (x, c) in row.chars().enumerate().take(width) {
            let brush = brush_of_char(c, &file.legend);
            let tile = match brush {
                Some(Brush::Floor | Brush::Spawn(_)) => Tile::Floor,
                Some(Brush::Wall) => Tile::Wall,
                Some(Brush::Station(kind)) => Tile::Station(kind),
                Some(Brush::Hole) | None => Tile::Void,
            };
            if let Some(slot) = tiles.get_mut(y * width + x) {
                *slot = tile;
            }
            let cell = (x as i32, y as i32);
            let at = Vec3::new(x as f32 + 0.5, 0.0, y as f32 + 0.5);
            match brush {
                Some(Brush::Station(kind)) => {
                    let view = StationView {
                        index,
                        kind,
                        cell,
                        state: StationState::Idle,
                        progress: 0,
                        duration: 0,
                        worker: None,
                        heat: 0,
                    };
                    index = index.saturating_add(1);
                    commands.spawn((view, EditorView, scope.clone()));
                }
                Some(Brush::Spawn(n)) => {
                    let seat = mats.add(StandardMaterial {
                        base_color: seat_color(n - 1),
                        unlit: true,
                        ..default()
                    });
                    let disc = Transform::from_translation(at + Vec3::Y * 0.1)
                        .with_scale(Vec3::new(0.7, 0.1, 0.7));
                    commands.spawn((
                        Mesh3d(art.disc.clone()),
                        MeshMaterial3d(seat),
                        disc,
                        EditorView,
                        scope.clone(),
                    ));
                }
                _ => {}
            }
        }
    }
    let grid = GridView { width: width as i32, height: height as i32, tiles };
    commands.spawn((grid, EditorView, scope.clone()));
    for p in ed.doc.problems() {
        let Some((x, y)) = p.cell else { continue };
        let at = Vec3::new(x as f32 + 0.5, 1.6, y as f32 + 0.5);
        let slab = Transform::from_translation(at).with_scale(Vec3::new(0.92, 0.05, 0.92));
        commands.spawn((
            Mesh3d(art.cube.clone()),
            MeshMaterial3d(art.mark.clone()),
            slab,
            EditorView,
            scope.clone(),
        ));
    }
}

/// The gold frame round the cursor's cell, above everything.
pub(super) fn place_cursor(
    ed: Res<EditorDoc>,
    art: Res<EditorArt>,
    frames: Query<Entity, With<CursorFrame>>,
    mut at: Local<Option<(usize, usize)>>,
    mut commands: Commands,
) {
    if *at == Some(ed.cursor) && !frames.is_empty() {
        return;
    }
    *at = Some(ed.cursor);
    for e in &frames {
        commands.entity(e).despawn();
    }
    let (x, y) = ed.cursor;
    let c = Vec3::new(x as f32 + 0.5, 1.8, y as f32 + 0.5);
    let bars = [
        (Vec3::new(0.0, 0.0, -0.47), Vec3::new(1.0, 0.05, 0.07)),
        (Vec3::new(0.0, 0.0, 0.47), Vec3::new(1.0, 0.05, 0.07)),
        (Vec3::new(-0.47, 0.0, 0.0), Vec3::new(0.07, 0.05, 1.0)),
        (Vec3::new(0.47, 0.0, 0.0), Vec3::new(0.07, 0.05, 1.0)),
    ];
    for (offset, size) in bars {
        let t = Transform::from_translation(c + offset).with_scale(size);
        commands.spawn((
            Mesh3d(art.cube.clone()),
            MeshMaterial3d(art.cursor.clone()),
            t,
            CursorFrame,
            DespawnOnExit(AppState::Editor),
        ));
    }
}

/// Every frame in the editor: the camera straight down over the grid (`layout::GridLayout`).
pub(super) fn aim_camera(
    ed: Res<EditorDoc>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut camera: Query<(&mut Transform, &mut Projection), With<KitchenCamera>>,
) {
    let (Ok(window), Ok((mut transform, mut projection))) = (windows.single(), camera.single_mut())
    else {
        return;
    };
    let layout = GridLayout::fit(ed.doc.size(), Vec2::new(window.width(), window.height()));
    let (t, p) = layout.camera();
    *transform = t;
    *projection = p;
}

/// Leaving the editor: the game's tilted perspective camera again, fitted to the kitchen (a
/// Playtest's room has the same grid size, so the kitchen's own fit would not run again).
pub(super) fn restore_camera(
    ed: Option<Res<EditorDoc>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    ui_scale: Option<Res<UiScale>>,
    mut camera: Query<(&mut Transform, &mut Projection), With<KitchenCamera>>,
) {
    let (Ok(window), Ok((mut transform, mut projection))) = (windows.single(), camera.single_mut())
    else {
        return;
    };
    *projection = Projection::Perspective(PerspectiveProjection::default());
    let (w, h) = ed.map_or((9, 5), |e| e.doc.size());
    let scale = ui_scale.map_or(1.0, |s| s.0);
    *transform = fit_camera(w as f32, h as f32, window.width(), window.height(), scale);
}
