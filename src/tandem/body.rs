//! The assembly: one rigid body of a couch and the two cogs gripping its handles. Seven
//! collision discs (five along the couch, the hull; one per cog), one pose. The mass and the
//! inertia are derived from the disc table at compile time.

use super::trig::rotate;

/// A collision disc in the body frame (µm; +x toward the fore handle), with its mass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Disc {
    pub x: i32,
    pub y: i32,
    pub radius: i32,
    pub grams: i64,
}

/// How many of the discs are the couch's hull (the first five); the last two are the cogs.
pub const HULL: usize = 5;
/// Hull discs: 0.90 m across (the couch's width), 0.325 m apart: the couch is 2.20 m long.
pub const HULL_RADIUS: i32 = 450_000;
pub const HULL_SPACING: i32 = 325_000;
pub const HULL_GRAMS: i64 = 12_000;
/// A cog: a 0.60 m disc at ±1.40 m, 30 kg, gripping the handle at the couch's end.
pub const COG_RADIUS: i32 = 300_000;
pub const COG_AT: i32 = 1_400_000;
pub const COG_GRAMS: i64 = 30_000;

/// The seven discs: hull aft to fore, then the fore cog (seat 0) and the aft cog (seat 1).
pub const DISCS: [Disc; 7] = [
    Disc { x: -2 * HULL_SPACING, y: 0, radius: HULL_RADIUS, grams: HULL_GRAMS },
    Disc { x: -HULL_SPACING, y: 0, radius: HULL_RADIUS, grams: HULL_GRAMS },
    Disc { x: 0, y: 0, radius: HULL_RADIUS, grams: HULL_GRAMS },
    Disc { x: HULL_SPACING, y: 0, radius: HULL_RADIUS, grams: HULL_GRAMS },
    Disc { x: 2 * HULL_SPACING, y: 0, radius: HULL_RADIUS, grams: HULL_GRAMS },
    Disc { x: COG_AT, y: 0, radius: COG_RADIUS, grams: COG_GRAMS },
    Disc { x: -COG_AT, y: 0, radius: COG_RADIUS, grams: COG_GRAMS },
];

/// The disc of seat `s`'s cog (its handle: where its force acts).
pub const fn cog_disc(seat: usize) -> usize {
    HULL + seat
}

/// Σ grams over the discs.
const fn total_grams() -> i64 {
    let mut sum = 0;
    let mut i = 0;
    while i < DISCS.len() {
        sum += DISCS[i].grams;
        i += 1;
    }
    sum
}

/// Σ m·(x² + y² + r²/2) over the discs (each a uniform disc about the centre), in g·m²
/// (= milli-kg·m²): the seed's InertiaMilliKgM2.
const fn inertia_milli_kg_m2() -> i64 {
    let mut sum: i128 = 0;
    let mut i = 0;
    while i < DISCS.len() {
        let d = DISCS[i];
        let (x, y, r) = (d.x as i128, d.y as i128, d.radius as i128);
        sum += d.grams as i128 * (2 * (x * x + y * y) + r * r);
        i += 1;
    }
    // µm² → m²: 10¹², and the halving of 2(x²+y²)+r².
    (sum / 2_000_000_000_000) as i64
}

pub const TOTAL_MASS_GRAMS: i64 = total_grams();
pub const INERTIA_MILLI_KG_M2: i64 = inertia_milli_kg_m2();
const _: () = assert!(TOTAL_MASS_GRAMS == 120_000, "the seed's TotalMassGrams");
const _: () = assert!(INERTIA_MILLI_KG_M2 == 139_050, "the seed's InertiaMilliKgM2");

/// Where disc `i`'s centre is, in world µm, for a body at `centre` turned by `angle` (Q20);
/// also its offset from the centre.
pub fn disc_world(i: usize, centre: (i32, i32), angle: i32) -> ((i32, i32), (i32, i32)) {
    let r = rotate((DISCS[i].x, DISCS[i].y), angle);
    ((centre.0 + r.0, centre.1 + r.1), r)
}
