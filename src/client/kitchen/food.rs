//! Food models: every ingredient its own shape, every form (raw, chopped, cooked, boiled,
//! burnt) its own cut, built from the art cache's primitives. Shared by items (what a cook
//! carries, what sits on a plate) and stations (the crate's ingredient on its lid).

use super::art::{Art, Piece, Shape};
use crate::client::theme::{
    BUN_BASE, BURNT_CRUST, FISH_FLESH, GRILL_MARK, LEAF_DARK, MUSHROOM_STEM, ONION_SKIN, PATTY_FAT,
    RICE_SACK, SACK_TIE, SESAME, SMOKE, SOUP_BOWL, TOMATO_FLESH, ingredient_color, part_color,
};
use crate::sim::kinds::{Form, Ingredient};
use bevy::prelude::*;

/// The meshes of one ingredient in one form, at `at`, scaled by `s`. Each ingredient has its
/// own whole shape (a tomato with its stalk, an onion with its sprout, a fish with a tail ...)
/// and each form its own cut: chopped is slices, rings, leaves or cubes by ingredient; cooked
/// is browned with grill marks; boiled is soup in a bowl with bits floating; burnt is a black
/// lump with a curl of smoke. Shape carries the state, so colour is never the only cue.
pub(super) fn food_pieces(
    out: &mut Vec<Piece>,
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
        Form::Raw => raw_pieces(&mut push, art, i, c),
        Form::Chopped => chopped_pieces(&mut push, art, i, c),
        Form::Cooked => {
            // A browned piece by ingredient, with dark grill marks across it.
            let (shape, size) = match i {
                Ingredient::Fish => (Shape::Sphere, Vec3::new(0.46, 0.12, 0.24)),
                Ingredient::Patty => (Shape::Cylinder, Vec3::new(0.4, 0.1, 0.4)),
                _ => (Shape::Cylinder, Vec3::new(0.36, 0.08, 0.36)),
            };
            push(art, shape, c, Vec3::Y * 0.06, size);
            for dz in [-0.08, 0.0, 0.08] {
                push(
                    art,
                    Shape::Cube,
                    GRILL_MARK,
                    Vec3::new(0.0, 0.115, dz),
                    Vec3::new(0.3, 0.012, 0.03),
                );
            }
        }
        Form::Boiled => {
            push(art, Shape::Cylinder, SOUP_BOWL, Vec3::Y * 0.08, Vec3::new(0.42, 0.16, 0.42));
            push(art, Shape::Cylinder, c, Vec3::Y * 0.165, Vec3::new(0.36, 0.01, 0.36));
            // Bits of the ingredient floating in it, in its raw colour.
            let bits = ingredient_color(i);
            for (dx, dz) in [(-0.07, -0.04), (0.08, 0.02), (-0.01, 0.08)] {
                push(art, Shape::Cube, bits, Vec3::new(dx, 0.175, dz), Vec3::new(0.06, 0.02, 0.06));
            }
        }
        Form::Burnt => {
            push(art, Shape::Sphere, c, Vec3::Y * 0.1, Vec3::new(0.36, 0.2, 0.36));
            push(art, Shape::Sphere, BURNT_CRUST, Vec3::new(0.08, 0.16, 0.05), Vec3::splat(0.12));
            push(art, Shape::Sphere, SMOKE, Vec3::Y * 0.35, Vec3::splat(0.16));
            push(art, Shape::Sphere, SMOKE, Vec3::new(0.06, 0.48, 0.02), Vec3::splat(0.11));
        }
    }
}

type Push<'a> = dyn FnMut(&mut Art, Shape, Color, Vec3, Vec3) + 'a;

/// A whole ingredient, straight off the shelf.
fn raw_pieces(push: &mut Push, art: &mut Art, i: Ingredient, c: Color) {
    match i {
        Ingredient::Lettuce => {
            push(art, Shape::Sphere, c, Vec3::Y * 0.17, Vec3::new(0.42, 0.32, 0.42));
            // Outer leaves curling off the head.
            push(
                art,
                Shape::Sphere,
                LEAF_DARK,
                Vec3::new(-0.14, 0.12, 0.0),
                Vec3::new(0.16, 0.24, 0.3),
            );
            push(
                art,
                Shape::Sphere,
                LEAF_DARK,
                Vec3::new(0.14, 0.12, 0.0),
                Vec3::new(0.16, 0.24, 0.3),
            );
        }
        Ingredient::Bun => {
            push(art, Shape::Cylinder, BUN_BASE, Vec3::Y * 0.04, Vec3::new(0.4, 0.08, 0.4));
            push(art, Shape::Sphere, c, Vec3::Y * 0.12, Vec3::new(0.42, 0.22, 0.42));
            for (dx, dz) in [(-0.06, 0.05), (0.07, -0.02), (0.0, -0.09)] {
                push(
                    art,
                    Shape::Sphere,
                    SESAME,
                    Vec3::new(dx, 0.225, dz),
                    Vec3::new(0.04, 0.02, 0.025),
                );
            }
        }
        Ingredient::Patty => {
            push(art, Shape::Cylinder, c, Vec3::Y * 0.05, Vec3::new(0.4, 0.1, 0.4));
            // Marbling: a raw patty is speckled.
            for (dx, dz) in [(-0.08, 0.06), (0.09, -0.04), (0.0, -0.1), (-0.05, -0.05)] {
                push(
                    art,
                    Shape::Sphere,
                    PATTY_FAT,
                    Vec3::new(dx, 0.1, dz),
                    Vec3::new(0.06, 0.015, 0.06),
                );
            }
        }
        Ingredient::Fish => {
            push(art, Shape::Sphere, c, Vec3::Y * 0.12, Vec3::new(0.46, 0.2, 0.22));
            // Tail fin and eye: unmistakably a fish.
            push(art, Shape::Cube, c, Vec3::new(-0.27, 0.12, 0.0), Vec3::new(0.1, 0.18, 0.03));
            push(art, Shape::Sphere, Color::BLACK, Vec3::new(0.15, 0.16, 0.09), Vec3::splat(0.04));
        }
        Ingredient::Rice => {
            push(art, Shape::Cube, RICE_SACK, Vec3::Y * 0.15, Vec3::new(0.3, 0.3, 0.3));
            push(art, Shape::Cylinder, SACK_TIE, Vec3::Y * 0.31, Vec3::new(0.14, 0.05, 0.14));
            push(art, Shape::Sphere, c, Vec3::Y * 0.36, Vec3::new(0.16, 0.07, 0.16));
        }
        Ingredient::Mushroom => {
            push(art, Shape::Cylinder, MUSHROOM_STEM, Vec3::Y * 0.08, Vec3::new(0.12, 0.16, 0.12));
            push(art, Shape::Sphere, c, Vec3::Y * 0.2, Vec3::new(0.34, 0.18, 0.34));
        }
        Ingredient::Onion => {
            push(art, Shape::Sphere, c, Vec3::Y * 0.16, Vec3::splat(0.32));
            // The papery sprout on top.
            push(art, Shape::Cylinder, ONION_SKIN, Vec3::Y * 0.34, Vec3::new(0.05, 0.1, 0.05));
        }
        Ingredient::Tomato => {
            push(art, Shape::Sphere, c, Vec3::Y * 0.15, Vec3::new(0.34, 0.28, 0.34));
            // The green stalk and calyx.
            push(art, Shape::Cylinder, LEAF_DARK, Vec3::Y * 0.29, Vec3::new(0.16, 0.02, 0.16));
            push(art, Shape::Cylinder, LEAF_DARK, Vec3::Y * 0.33, Vec3::new(0.035, 0.07, 0.035));
        }
    }
}

/// An ingredient after the board: each cuts its own way.
fn chopped_pieces(push: &mut Push, art: &mut Art, i: Ingredient, c: Color) {
    match i {
        Ingredient::Tomato => {
            // Three slices, red skin round a paler middle.
            for (k, dx) in [-0.11f32, 0.0, 0.11].into_iter().enumerate() {
                let y = 0.03 + 0.02 * k as f32;
                push(art, Shape::Cylinder, c, Vec3::new(dx, y, 0.0), Vec3::new(0.24, 0.04, 0.24));
                push(
                    art,
                    Shape::Cylinder,
                    TOMATO_FLESH,
                    Vec3::new(dx, y + 0.021, 0.0),
                    Vec3::new(0.17, 0.004, 0.17),
                );
            }
        }
        Ingredient::Onion => {
            for (dx, dz, r) in [(-0.08, -0.04, 1.0), (0.08, 0.0, 0.8), (0.0, 0.09, 0.65)] {
                push(
                    art,
                    Shape::Torus,
                    c,
                    Vec3::new(dx, 0.04, dz),
                    Vec3::new(0.7 * r, 0.5, 0.7 * r),
                );
            }
        }
        Ingredient::Lettuce => {
            // Torn leaves: flat, tilted ovals.
            for (dx, dz) in [(-0.09, -0.06), (0.09, -0.04), (-0.04, 0.09), (0.08, 0.08)] {
                push(art, Shape::Sphere, c, Vec3::new(dx, 0.05, dz), Vec3::new(0.2, 0.04, 0.14));
            }
            push(
                art,
                Shape::Sphere,
                LEAF_DARK,
                Vec3::new(0.0, 0.08, 0.0),
                Vec3::new(0.18, 0.04, 0.12),
            );
        }
        Ingredient::Mushroom => {
            // Half-moon slices: cap colour over a pale stem.
            for dx in [-0.1f32, 0.0, 0.1] {
                push(art, Shape::Sphere, c, Vec3::new(dx, 0.08, 0.0), Vec3::new(0.08, 0.14, 0.22));
                push(
                    art,
                    Shape::Cube,
                    MUSHROOM_STEM,
                    Vec3::new(dx, 0.03, 0.0),
                    Vec3::new(0.05, 0.06, 0.07),
                );
            }
        }
        Ingredient::Fish => {
            // Two fillets.
            for dz in [-0.07f32, 0.07] {
                push(art, Shape::Cube, c, Vec3::new(0.0, 0.04, dz), Vec3::new(0.36, 0.07, 0.11));
                push(
                    art,
                    Shape::Cube,
                    FISH_FLESH,
                    Vec3::new(0.0, 0.076, dz),
                    Vec3::new(0.32, 0.006, 0.08),
                );
            }
        }
        Ingredient::Bun | Ingredient::Patty | Ingredient::Rice => {
            for (dx, dz) in [(-0.09, -0.07), (0.09, -0.05), (-0.05, 0.09), (0.08, 0.08)] {
                push(art, Shape::Cube, c, Vec3::new(dx, 0.06, dz), Vec3::splat(0.12));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a model is made of, comparable: each piece's mesh, material and placement.
    fn signature(
        art: &mut Art,
        mats: &mut Assets<StandardMaterial>,
        i: Ingredient,
        f: Form,
    ) -> Vec<String> {
        let mut pieces = Vec::new();
        food_pieces(&mut pieces, art, mats, i, f, Vec3::ZERO, 1.0);
        pieces
            .iter()
            .map(|(mesh, mat, tf)| format!("{:?} {:?} {:?}", mesh.0.id(), mat.0.id(), tf))
            .collect()
    }

    fn art() -> (Art, Assets<StandardMaterial>) {
        let mut world = World::new();
        world.init_resource::<Assets<Mesh>>();
        (Art::from_world(&mut world), Assets::default())
    }

    #[test]
    fn every_ingredient_has_its_own_whole_model() {
        let (mut art, mut mats) = art();
        let mut seen: Vec<Vec<String>> =
            Ingredient::ALL.iter().map(|i| signature(&mut art, &mut mats, *i, Form::Raw)).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), Ingredient::ALL.len());
    }

    #[test]
    fn every_form_of_an_ingredient_looks_different() {
        let (mut art, mut mats) = art();
        for i in Ingredient::ALL {
            let mut seen: Vec<Vec<String>> =
                Form::ALL.iter().map(|f| signature(&mut art, &mut mats, i, *f)).collect();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), Form::ALL.len(), "{i:?} has two forms that look alike");
        }
    }
}
