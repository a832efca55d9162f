//! The kitchen in 3D: a tilted camera over the grid, primitive meshes for tiles, stations,
//! items and cooks, spawned by observers as view components appear and posed every frame.
//!
//! World space: x = grid column, z = grid row (rows grow toward the camera), y = up; one tile
//! is one world unit, so a µtile position divided by 1 000 000 is a world position.

use super::PresentSystems;
use super::interp::DrawnAt;
use crate::level::model::ShiftPhase;
use crate::protocol::{
    CookView, GridView, HazardView, InRoom, ItemLook, ItemPlace, ItemView, RoomClock, StationView,
};
use crate::sim::kinds::{Dir4, Form, Ingredient, StationKind, Tile, Vessel};
use crate::sim::room::StationState;
use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;

/// Shared meshes and a colour → material cache, so spawning a view allocates no assets.
#[derive(Resource)]
pub struct Art {
    cube: Handle<Mesh>,
    sphere: Handle<Mesh>,
    cylinder: Handle<Mesh>,
    capsule: Handle<Mesh>,
    torus: Handle<Mesh>,
    mats: HashMap<[u8; 4], Handle<StandardMaterial>>,
}

impl FromWorld for Art {
    fn from_world(world: &mut World) -> Self {
        let mut meshes = world.resource_mut::<Assets<Mesh>>();
        Art {
            cube: meshes.add(Cuboid::new(1.0, 1.0, 1.0)),
            sphere: meshes.add(Sphere::new(0.5).mesh().uv(16, 10)),
            cylinder: meshes.add(Cylinder::new(0.5, 1.0)),
            capsule: meshes.add(Capsule3d::new(0.3, 0.5)),
            torus: meshes.add(Torus::new(0.12, 0.22)),
            mats: HashMap::default(),
        }
    }
}

/// The mesh shapes of [`Art`].
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    Cube,
    Sphere,
    Cylinder,
    Capsule,
    Torus,
}

impl Art {
    fn mesh(&self, shape: Shape) -> Handle<Mesh> {
        match shape {
            Shape::Cube => self.cube.clone(),
            Shape::Sphere => self.sphere.clone(),
            Shape::Cylinder => self.cylinder.clone(),
            Shape::Capsule => self.capsule.clone(),
            Shape::Torus => self.torus.clone(),
        }
    }

    fn mat(
        &mut self,
        mats: &mut Assets<StandardMaterial>,
        color: Color,
    ) -> Handle<StandardMaterial> {
        let key = color.to_srgba().to_u8_array();
        self.mats
            .entry(key)
            .or_insert_with(|| {
                mats.add(StandardMaterial {
                    base_color: color,
                    perceptual_roughness: 0.8,
                    ..default()
                })
            })
            .clone()
    }

    /// A see-through, unlit-ish material (decals: spills, ice, the shift flash), cached by
    /// colour like the opaque ones (the alpha is part of the key).
    fn glass(
        &mut self,
        mats: &mut Assets<StandardMaterial>,
        color: Color,
    ) -> Handle<StandardMaterial> {
        let mut key = color.to_srgba().to_u8_array();
        // Keep translucent keys apart from an opaque colour with the same bytes.
        key[3] = key[3].min(254);
        self.mats
            .entry(key)
            .or_insert_with(|| {
                mats.add(StandardMaterial {
                    base_color: color,
                    alpha_mode: AlphaMode::Blend,
                    perceptual_roughness: 0.3,
                    ..default()
                })
            })
            .clone()
    }

    /// One primitive: shape, colour, centre and size (its scale).
    fn piece(
        &mut self,
        mats: &mut Assets<StandardMaterial>,
        shape: Shape,
        color: Color,
        at: Vec3,
        size: Vec3,
    ) -> (Mesh3d, MeshMaterial3d<StandardMaterial>, Transform) {
        (
            Mesh3d(self.mesh(shape)),
            MeshMaterial3d(self.mat(mats, color)),
            Transform::from_translation(at).with_scale(size),
        )
    }
}

/// The background: what a void tile shows.
pub const VOID: Color = Color::srgb(0.05, 0.06, 0.1);
/// Seat colours: red, blue, green, yellow.
pub const SEAT_COLORS: [Color; 4] = [
    Color::srgb(0.9, 0.25, 0.2),
    Color::srgb(0.2, 0.45, 0.95),
    Color::srgb(0.25, 0.8, 0.3),
    Color::srgb(0.95, 0.8, 0.15),
];

pub fn seat_color(seat: u8) -> Color {
    SEAT_COLORS[seat as usize % SEAT_COLORS.len()]
}

/// An ingredient's colour.
pub fn ingredient_color(i: Ingredient) -> Color {
    match i {
        Ingredient::Onion => Color::srgb(0.78, 0.6, 0.75),
        Ingredient::Tomato => Color::srgb(0.9, 0.15, 0.1),
        Ingredient::Lettuce => Color::srgb(0.35, 0.8, 0.25),
        Ingredient::Mushroom => Color::srgb(0.72, 0.6, 0.48),
        Ingredient::Bun => Color::srgb(0.92, 0.7, 0.35),
        Ingredient::Patty => Color::srgb(0.88, 0.45, 0.45),
        Ingredient::Fish => Color::srgb(0.6, 0.75, 0.88),
        Ingredient::Rice => Color::srgb(0.97, 0.97, 0.92),
    }
}

/// An ingredient's colour in a form: cooking browns it, boiling makes it soup, burning blackens.
pub fn part_color(i: Ingredient, f: Form) -> Color {
    let c = ingredient_color(i).to_srgba();
    match f {
        Form::Raw | Form::Chopped => c.into(),
        Form::Cooked => Color::srgb(c.red * 0.62, c.green * 0.45, c.blue * 0.3),
        Form::Boiled => Color::srgb(c.red * 0.85 + 0.1, c.green * 0.7 + 0.1, c.blue * 0.35),
        Form::Burnt => Color::srgb(0.08, 0.07, 0.07),
    }
}

/// The camera over the kitchen.
#[derive(Component)]
pub struct KitchenCamera;

/// Tile meshes of a grid (rebuilt when the grid changes).
#[derive(Component)]
struct TileArt;

/// Height of an item resting on a station, and the station's moving parts.
#[derive(Component, Clone, Copy, Debug)]
pub struct StationParts {
    pub top: f32,
    bar: Entity,
    fill: Entity,
    burn: Entity,
    dirt: Entity,
    /// Flames (hidden unless the station is ablaze).
    fire: Entity,
}

/// A cook's moving parts.
#[derive(Component, Clone, Copy, Debug)]
struct CookParts {
    body: Entity,
    stars: Entity,
}

/// The look an item's meshes were built for.
#[derive(Component, Clone, Debug)]
struct ShownLook(ItemLook);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Art>();
    app.insert_resource(ClearColor(VOID));
    app.insert_resource(GlobalAmbientLight { color: Color::WHITE, brightness: 500.0, ..default() });
    app.add_systems(Startup, spawn_camera);
    app.add_observer(dress_station).add_observer(dress_cook).add_observer(dress_item);
    app.add_systems(
        Update,
        (
            build_grid,
            restyle_items,
            pose_cooks,
            place_items,
            show_station_state,
            sync_hazards,
            pose_carts,
            flash_shifts,
        )
            .chain()
            .after(super::interp::blend_cooks)
            .in_set(PresentSystems),
    );
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Camera3d::default(),
        // Bevy's default curve (TonyMcMapface) reads a lookup table the client does not ship
        // (Cargo.toml: no `tonemapping_luts`, ~1 MB of the browser download); this one is
        // computed in the shader and looks close to it.
        Tonemapping::SomewhatBoringDisplayTransform,
        KitchenCamera,
        Transform::from_xyz(4.5, 9.0, 9.0).looking_at(Vec3::new(4.5, 0.0, 2.5), Vec3::Y),
    ));
    commands.spawn((
        DirectionalLight { illuminance: 9_000.0, shadow_maps_enabled: false, ..default() },
        Transform::from_xyz(2.0, 10.0, 6.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

/// Fit the camera to a `w`×`h` grid: tilted ~55°, far enough back to show every column.
pub fn camera_for_grid(w: f32, h: f32) -> Transform {
    let centre = Vec3::new(w / 2.0, 0.0, h / 2.0);
    let dist = ((w / 2.0 + 1.0) / 0.75).max((h / 2.0 + 1.2) / 0.45).max(6.0);
    let tilt = 55f32.to_radians();
    // Aim a little above the middle row: the order rail covers the top of the window.
    let target = centre + Vec3::new(0.0, 0.0, -0.35);
    Transform::from_translation(target + Vec3::new(0.0, dist * tilt.sin(), dist * tilt.cos()))
        .looking_at(target, Vec3::Y)
}

/// A grid arrived or changed (a shifting floor went or came back): lay its floor, walls and
/// voids again; re-aim the camera. A system on `Changed` rather than an `Insert` observer,
/// because a replicated update may mutate the component in place.
fn build_grid(
    grids: Query<(Entity, &GridView, Option<&Children>), Changed<GridView>>,
    old: Query<(), With<TileArt>>,
    mut camera: Query<&mut Transform, With<KitchenCamera>>,
    mut commands: Commands,
    mut art: ResMut<Art>,
    mut mats: ResMut<Assets<StandardMaterial>>,
) {
    for (room, grid, children) in &grids {
        lay_grid(room, grid, children, &old, &mut camera, &mut commands, &mut art, &mut mats);
    }
}

#[allow(clippy::too_many_arguments)]
fn lay_grid(
    room: Entity,
    grid: &GridView,
    children: Option<&Children>,
    old: &Query<(), With<TileArt>>,
    camera: &mut Query<&mut Transform, With<KitchenCamera>>,
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
    let floor_a = Color::srgb(0.86, 0.82, 0.72);
    let floor_b = Color::srgb(0.8, 0.76, 0.66);
    let wall = Color::srgb(0.32, 0.36, 0.46);
    let mut pieces = Vec::new();
    for y in 0..grid.height {
        for x in 0..grid.width {
            let Some(&tile) = grid.tiles.get((y * grid.width + x) as usize) else { continue };
            let c = Vec3::new(x as f32 + 0.5, 0.0, y as f32 + 0.5);
            match tile {
                Tile::Floor | Tile::Station(_) => {
                    let color = if (x + y) % 2 == 0 { floor_a } else { floor_b };
                    pieces.push(art.piece(
                        mats,
                        Shape::Cube,
                        color,
                        c - Vec3::Y * 0.05,
                        Vec3::new(1.0, 0.1, 1.0),
                    ));
                }
                Tile::Wall => pieces.push(art.piece(
                    mats,
                    Shape::Cube,
                    wall,
                    c + Vec3::Y * 0.6,
                    Vec3::new(1.0, 1.2, 1.0),
                )),
                // A hole: nothing drawn, the dark background shows through.
                Tile::Void => {}
            }
        }
    }
    commands.entity(room).with_children(|p| {
        for piece in pieces {
            p.spawn((piece, TileArt));
        }
    });
    if let Ok(mut cam) = camera.single_mut() {
        *cam = camera_for_grid(grid.width as f32, grid.height as f32);
    }
}

/// Whether a body may stand on this kind (drawn low so a cook on it stays visible).
fn is_low(kind: StationKind) -> bool {
    kind.walkable()
}

/// A station appeared: its body by kind, plus a progress bar, burn warning and dirt (hidden).
fn dress_station(
    add: On<Add, StationView>,
    stations: Query<&StationView>,
    mut commands: Commands,
    mut art: ResMut<Art>,
    mut mats: ResMut<Assets<StandardMaterial>>,
) {
    let e = add.entity;
    let Ok(st) = stations.get(e) else { return };
    let (cx, cy) = st.cell;
    let at = Vec3::new(cx as f32 + 0.5, 0.0, cy as f32 + 0.5);
    let h = if is_low(st.kind) { 0.35 } else { 0.9 };
    let wood = Color::srgb(0.55, 0.4, 0.28);
    let top_wood = Color::srgb(0.74, 0.57, 0.4);
    let steel = Color::srgb(0.55, 0.58, 0.62);
    let m = &mut mats;
    let mut parts: Vec<(Shape, Color, Vec3, Vec3)> = Vec::new();
    let body = |color: Color| (Shape::Cube, color, Vec3::Y * h / 2.0, Vec3::new(0.96, h, 0.96));
    let top = |color: Color| (Shape::Cube, color, Vec3::Y * (h + 0.02), Vec3::new(0.9, 0.04, 0.9));
    match st.kind {
        StationKind::Counter => parts.extend([body(wood), top(top_wood)]),
        StationKind::Shelf(i) => {
            parts.extend([body(Color::srgb(0.42, 0.3, 0.2)), top(ingredient_color(i))]);
            // A crate of the ingredient: three whole ones on top.
            for k in 0..3 {
                let off = Vec3::new(-0.25 + 0.25 * k as f32, h + 0.16, 0.0);
                parts.push((Shape::Sphere, ingredient_color(i), off, Vec3::splat(0.26)));
            }
        }
        StationKind::ChopBoard => parts.extend([
            body(wood),
            top(top_wood),
            (
                Shape::Cube,
                Color::srgb(0.93, 0.88, 0.72),
                Vec3::Y * (h + 0.06),
                Vec3::new(0.7, 0.05, 0.55),
            ),
            (
                Shape::Cube,
                Color::srgb(0.8, 0.82, 0.86),
                Vec3::new(0.3, h + 0.1, 0.2),
                Vec3::new(0.35, 0.03, 0.07),
            ),
        ]),
        StationKind::Stove(v) => {
            parts.extend([
                body(Color::srgb(0.25, 0.25, 0.28)),
                (
                    Shape::Cylinder,
                    Color::srgb(0.95, 0.35, 0.1),
                    Vec3::Y * (h + 0.01),
                    Vec3::new(0.6, 0.03, 0.6),
                ),
            ]);
            match v {
                Vessel::Pan => parts.extend([
                    (
                        Shape::Cylinder,
                        Color::srgb(0.12, 0.12, 0.14),
                        Vec3::Y * (h + 0.06),
                        Vec3::new(0.7, 0.08, 0.7),
                    ),
                    (
                        Shape::Cube,
                        Color::srgb(0.12, 0.12, 0.14),
                        Vec3::new(0.5, h + 0.08, 0.0),
                        Vec3::new(0.35, 0.04, 0.08),
                    ),
                ]),
                Vessel::Pot => parts.push((
                    Shape::Cylinder,
                    steel,
                    Vec3::Y * (h + 0.2),
                    Vec3::new(0.72, 0.38, 0.72),
                )),
            }
        }
        StationKind::Prep => {
            parts.extend([body(Color::srgb(0.6, 0.66, 0.74)), top(Color::srgb(0.85, 0.92, 0.98))])
        }
        StationKind::Serve => parts.extend([
            body(Color::srgb(0.15, 0.55, 0.25)),
            (
                Shape::Cube,
                Color::srgb(1.0, 0.85, 0.2),
                Vec3::Y * (h + 0.02),
                Vec3::new(0.8, 0.04, 0.3),
            ),
        ]),
        StationKind::Sink => parts.extend([
            body(steel),
            (
                Shape::Cube,
                Color::srgb(0.3, 0.6, 0.95),
                Vec3::Y * (h + 0.01),
                Vec3::new(0.7, 0.04, 0.7),
            ),
        ]),
        StationKind::Trash => parts.extend([
            (
                Shape::Cylinder,
                Color::srgb(0.15, 0.3, 0.18),
                Vec3::Y * 0.3,
                Vec3::new(0.7, 0.6, 0.7),
            ),
            (
                Shape::Cylinder,
                Color::srgb(0.05, 0.08, 0.05),
                Vec3::Y * 0.61,
                Vec3::new(0.55, 0.02, 0.55),
            ),
        ]),
        StationKind::ExtinguisherStand => {
            // A red post on a grey foot, with a bracket the canister hangs on.
            let red = Color::srgb(0.85, 0.1, 0.08);
            parts.extend([
                (
                    Shape::Cube,
                    Color::srgb(0.35, 0.35, 0.38),
                    Vec3::Y * 0.04,
                    Vec3::new(0.6, 0.08, 0.6),
                ),
                (Shape::Cylinder, red, Vec3::Y * 0.6, Vec3::new(0.14, 1.2, 0.14)),
                (Shape::Cube, red, Vec3::new(0.0, h + 0.02, 0.0), Vec3::new(0.5, 0.04, 0.3)),
                (Shape::Sphere, Color::WHITE, Vec3::Y * 1.22, Vec3::splat(0.16)),
            ]);
        }
        StationKind::PlateRack => {
            parts.extend([body(wood), top(top_wood)]);
            for k in 0..4 {
                parts.push((
                    Shape::Cylinder,
                    Color::srgb(0.97, 0.97, 1.0),
                    Vec3::Y * (h + 0.04 + 0.05 * k as f32),
                    Vec3::new(0.62, 0.04, 0.62),
                ));
            }
        }
    }
    let top_y = match st.kind {
        StationKind::Stove(Vessel::Pot) => h + 0.4,
        StationKind::Trash => 0.65,
        _ => h + 0.05,
    };
    let pieces: Vec<_> = parts.into_iter().map(|(s, c, p, z)| art.piece(m, s, c, p, z)).collect();
    let bar_bg = art.piece(
        m,
        Shape::Cube,
        Color::srgb(0.1, 0.1, 0.1),
        Vec3::ZERO,
        Vec3::new(0.84, 0.1, 0.14),
    );
    let fill = commands
        .spawn(art.piece(
            m,
            Shape::Cube,
            Color::srgb(0.3, 0.95, 0.35),
            Vec3::new(0.0, 0.0, 0.02),
            Vec3::new(0.8, 0.12, 0.14),
        ))
        .id();
    let bar = commands
        .spawn((Transform::from_xyz(0.0, h + 0.75, 0.0), Visibility::Hidden))
        .add_child(fill)
        .with_child(bar_bg)
        .id();
    let burn = commands
        .spawn((
            art.piece(
                m,
                Shape::Sphere,
                Color::srgb(1.0, 0.15, 0.05),
                Vec3::new(0.0, h + 1.0, 0.0),
                Vec3::splat(0.3),
            ),
            Visibility::Hidden,
        ))
        .id();
    let flame_colors =
        [Color::srgb(1.0, 0.45, 0.05), Color::srgb(1.0, 0.75, 0.1), Color::srgb(0.95, 0.2, 0.05)];
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
                        flame_colors[k % flame_colors.len()],
                        Vec3::new(dx, s / 2.0, dz),
                        Vec3::splat(s),
                    ),
                ));
            }
        })
        .id();
    let dirt_color = Color::srgb(0.35, 0.25, 0.1);
    let dirt = commands
        .spawn((Transform::from_xyz(0.0, h + 0.05, 0.0), Visibility::Hidden))
        .with_children(|p| {
            for (dx, dz, s) in [(-0.2, 0.1, 0.25), (0.18, -0.15, 0.2), (0.1, 0.22, 0.15)] {
                p.spawn(art.piece(
                    m,
                    Shape::Cylinder,
                    dirt_color,
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
            StationParts { top: top_y, bar, fill, burn, dirt, fire },
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
fn show_station_state(
    time: Res<Time<Real>>,
    stations: Query<(&StationView, &InRoom, &StationParts)>,
    hazards: Query<&HazardView>,
    mut parts: Query<(&mut Transform, &mut Visibility), (Without<StationView>, Without<Flame>)>,
) {
    let t = time.elapsed_secs();
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
            // Blinks faster as the heat runs out (heat is ticks left before BURNT).
            let rate = if st.heat < 40 { 8.0 } else { 3.0 };
            let on = st.heat > 0 && (t * rate).fract() < 0.6;
            vis.set_if_neq(if on { Visibility::Inherited } else { Visibility::Hidden });
            tf.scale = Vec3::splat(if st.heat < 40 { 0.38 } else { 0.28 });
        }
        if let Ok((_, mut vis)) = parts.get_mut(p.dirt) {
            let dirty = st.state == StationState::Dirty;
            vis.set_if_neq(if dirty { Visibility::Inherited } else { Visibility::Hidden });
        }
    }
}

/// A cook appeared: a capsule in the seat's colour, a chef's hat, a nose that shows facing,
/// and stun stars (hidden).
fn dress_cook(
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
            p.spawn(art.piece(
                m,
                Shape::Sphere,
                Color::srgb(1.0, 0.8, 0.65),
                Vec3::new(0.0, 0.8, 0.3),
                Vec3::splat(0.18),
            ));
            p.spawn(art.piece(
                m,
                Shape::Sphere,
                Color::BLACK,
                Vec3::new(-0.1, 0.92, 0.27),
                Vec3::splat(0.06),
            ));
            p.spawn(art.piece(
                m,
                Shape::Sphere,
                Color::BLACK,
                Vec3::new(0.1, 0.92, 0.27),
                Vec3::splat(0.06),
            ));
        })
        .id();
    let stars = commands
        .spawn((
            art.piece(
                m,
                Shape::Torus,
                Color::srgb(1.0, 0.9, 0.1),
                Vec3::Y * 1.45,
                Vec3::new(1.3, 1.0, 1.3),
            ),
            Visibility::Hidden,
        ))
        .id();
    commands
        .entity(e)
        .insert((Transform::default(), Visibility::default(), CookParts { body, stars }))
        .add_children(&[body, stars]);
}

/// The yaw that turns a cook's +z (its nose) toward `facing`.
pub fn facing_yaw(facing: Dir4) -> f32 {
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
fn pose_cooks(
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

/// An item appeared: its meshes by look.
fn dress_item(
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
                Color::srgb(0.85, 0.88, 0.95),
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
            let red = Color::srgb(0.9, 0.08, 0.06);
            let black = Color::srgb(0.08, 0.08, 0.08);
            pieces.extend([
                art.piece(mats, Shape::Cylinder, red, Vec3::Y * 0.22, Vec3::new(0.26, 0.44, 0.26)),
                art.piece(mats, Shape::Sphere, red, Vec3::Y * 0.44, Vec3::new(0.26, 0.14, 0.26)),
                art.piece(mats, Shape::Cylinder, black, Vec3::Y * 0.53, Vec3::new(0.1, 0.08, 0.1)),
                art.piece(
                    mats,
                    Shape::Cube,
                    black,
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

/// The meshes of one ingredient in one form, at `at`, scaled by `s`: raw is whole, chopped is
/// cubes, cooked is a browned flat piece, boiled is soup in a bowl, burnt is a black lump.
fn food_pieces(
    out: &mut Vec<(Mesh3d, MeshMaterial3d<StandardMaterial>, Transform)>,
    art: &mut Art,
    mats: &mut Assets<StandardMaterial>,
    i: Ingredient,
    f: Form,
    at: Vec3,
    s: f32,
) {
    let c = part_color(i, f);
    let mut push = |art: &mut Art, shape, color, p: Vec3, size: Vec3| {
        out.push(art.piece(mats, shape, color, at + p * s, size * s));
    };
    match f {
        Form::Raw => match i {
            Ingredient::Lettuce => {
                push(art, Shape::Sphere, c, Vec3::Y * 0.17, Vec3::new(0.42, 0.32, 0.42))
            }
            Ingredient::Bun => {
                push(art, Shape::Sphere, c, Vec3::Y * 0.12, Vec3::new(0.42, 0.24, 0.42))
            }
            Ingredient::Patty => {
                push(art, Shape::Cylinder, c, Vec3::Y * 0.05, Vec3::new(0.4, 0.1, 0.4))
            }
            Ingredient::Fish => {
                push(art, Shape::Sphere, c, Vec3::Y * 0.12, Vec3::new(0.5, 0.2, 0.24))
            }
            Ingredient::Rice => push(
                art,
                Shape::Cube,
                Color::srgb(0.85, 0.8, 0.65),
                Vec3::Y * 0.15,
                Vec3::new(0.3, 0.3, 0.3),
            ),
            Ingredient::Mushroom => {
                push(
                    art,
                    Shape::Cylinder,
                    Color::srgb(0.92, 0.9, 0.85),
                    Vec3::Y * 0.08,
                    Vec3::new(0.12, 0.16, 0.12),
                );
                push(art, Shape::Sphere, c, Vec3::Y * 0.2, Vec3::new(0.34, 0.18, 0.34));
            }
            Ingredient::Onion | Ingredient::Tomato => {
                push(art, Shape::Sphere, c, Vec3::Y * 0.16, Vec3::splat(0.32))
            }
        },
        Form::Chopped => {
            for (dx, dz) in [(-0.09, -0.07), (0.09, -0.05), (-0.05, 0.09), (0.08, 0.08)] {
                push(art, Shape::Cube, c, Vec3::new(dx, 0.06, dz), Vec3::splat(0.12));
            }
        }
        Form::Cooked => push(art, Shape::Cylinder, c, Vec3::Y * 0.05, Vec3::new(0.38, 0.1, 0.38)),
        Form::Boiled => {
            push(
                art,
                Shape::Cylinder,
                Color::srgb(0.95, 0.95, 0.95),
                Vec3::Y * 0.08,
                Vec3::new(0.42, 0.16, 0.42),
            );
            push(art, Shape::Cylinder, c, Vec3::Y * 0.165, Vec3::new(0.36, 0.01, 0.36));
        }
        Form::Burnt => {
            push(art, Shape::Sphere, c, Vec3::Y * 0.1, Vec3::new(0.36, 0.2, 0.36));
            push(art, Shape::Sphere, Color::srgb(0.3, 0.3, 0.3), Vec3::Y * 0.35, Vec3::splat(0.16));
        }
    }
}

/// An item changed look (chopped, cooked, a part plated): rebuild its meshes.
fn restyle_items(
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
fn place_items(
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

/// One flame cube of a fire, with its flicker phase.
#[derive(Component, Clone, Copy, Debug)]
struct Flame(f32);

/// A cart's body, drawn between its last two tick positions (µtiles) like a cook.
#[derive(Component, Clone, Copy, Debug)]
struct CartArt {
    index: usize,
    prev: (i32, i32),
    curr: (i32, i32),
    tick: u32,
}

/// The decals of a room's slick cells (spills and ice), rebuilt when the set changes.
#[derive(Component)]
struct SlickArt;

/// The flash overlay of one shifting floor group.
#[derive(Component, Clone, Copy, Debug)]
struct ShiftArt(usize);

/// What the hazard art was last built from, on the room entity.
#[derive(Component, Default, Debug)]
struct ShownHazards {
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
fn sync_hazards(
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
    let size = 2.0 * hz.cart_radius as f32 / super::interp::UTILE;
    let mut spawned = Vec::new();
    if carts {
        for (index, &pos) in hz.carts.iter().enumerate().skip(shown.carts) {
            let steel = Color::srgb(0.6, 0.62, 0.68);
            let body = art.piece(
                mats,
                Shape::Cube,
                Color::srgb(0.75, 0.35, 0.12),
                Vec3::Y * 0.45,
                Vec3::new(size, 0.5, size),
            );
            let rim = art.piece(
                mats,
                Shape::Cube,
                steel,
                Vec3::Y * 0.72,
                Vec3::new(size * 1.05, 0.06, size * 1.05),
            );
            let wheels: Vec<_> = [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)]
                .into_iter()
                .map(|(sx, sz)| {
                    art.piece(
                        mats,
                        Shape::Sphere,
                        Color::srgb(0.1, 0.1, 0.12),
                        Vec3::new(sx * size * 0.38, 0.1, sz * size * 0.38),
                        Vec3::splat(0.2),
                    )
                })
                .collect();
            let at = Vec3::new(pos.0 as f32, 0.0, pos.1 as f32) / super::interp::UTILE;
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
        let oil = art.glass(mats, Color::srgba(0.55, 0.45, 0.1, 0.55));
        let ice = art.glass(mats, Color::srgba(0.7, 0.9, 1.0, 0.6));
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
        let flash = art.glass(mats, Color::srgba(1.0, 0.2, 0.1, 0.6));
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

/// Each frame: carts between their last two tick positions; flames flicker.
fn pose_carts(
    time: Res<Time<Fixed>>,
    real: Res<Time<Real>>,
    mut carts: Query<(&CartArt, &mut Transform), Without<Flame>>,
    mut flames: Query<(&Flame, &mut Transform), Without<CartArt>>,
) {
    let alpha = time.overstep_fraction();
    for (cart, mut tf) in &mut carts {
        let p = super::interp::lerp_utiles(cart.prev, cart.curr, alpha);
        tf.translation = Vec3::new(p.x, 0.0, p.y);
    }
    let t = real.elapsed_secs();
    for (flame, mut tf) in &mut flames {
        let k = (t * 11.0 + flame.0).sin() * 0.5 + 0.5;
        let base = tf.scale.x.max(0.05);
        tf.scale.y = base * (0.8 + 0.6 * k);
        tf.translation.y = tf.scale.y / 2.0;
        tf.rotation = Quat::from_rotation_y(t * 2.0 + flame.0);
    }
}

/// Each frame: a shifting group's cells flash during its warning, faster as it runs out.
fn flash_shifts(
    real: Res<Time<Real>>,
    rooms: Query<&HazardView>,
    mut groups: Query<(&ShiftArt, &ChildOf, &mut Visibility)>,
) {
    let t = real.elapsed_secs();
    for (group, parent, mut vis) in &mut groups {
        let on =
            rooms.get(parent.parent()).ok().and_then(|h| h.shifts.get(group.0)).is_some_and(|g| {
                let rate = if g.ticks_until_gone < 20 { 8.0 } else { 3.0 };
                g.phase == ShiftPhase::Warning && (t * rate).fract() < 0.55
            });
        vis.set_if_neq(if on { Visibility::Inherited } else { Visibility::Hidden });
    }
}
