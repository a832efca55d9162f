//! The kitchen's art cache: a handful of shared primitive meshes and a colour → material map,
//! so spawning a view allocates no assets.

use bevy::platform::collections::HashMap;
use bevy::prelude::*;

/// Shared meshes and a colour → material cache.
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

/// One primitive ready to spawn: its mesh, its material and where it sits.
pub type Piece = (Mesh3d, MeshMaterial3d<StandardMaterial>, Transform);

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
    pub(crate) fn mesh(&self, shape: Shape) -> Handle<Mesh> {
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
    pub(crate) fn glass(
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
    pub(crate) fn piece(
        &mut self,
        mats: &mut Assets<StandardMaterial>,
        shape: Shape,
        color: Color,
        at: Vec3,
        size: Vec3,
    ) -> Piece {
        (
            Mesh3d(self.mesh(shape)),
            MeshMaterial3d(self.mat(mats, color)),
            Transform::from_translation(at).with_scale(size),
        )
    }
}
