//! The colour palettes players choose between in Settings: the standard one (the colours in
//! `theme.rs`), and one safe for the common colour-vision deficiencies (protan, deutan and
//! tritan), built on the Okabe–Ito set, whose colours stay apart for all three. None of the
//! colours is the only cue: a cook also has its "P1".."P4" tag, an ingredient its own model, a
//! ticket's timer its bar's length.
//!
//! The palette in force is the [`Palette`] resource (for systems that want to notice a change)
//! and a process-wide switch that `theme::seat_color` / `ingredient_color` / `part_color` read,
//! so every drawing call site follows it without passing the resource around: the colour
//! functions stay plain functions, and the switch is presentation only (no rule reads it).

use crate::sim::kinds::Ingredient;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU8, Ordering};

/// Which palette: saved in `config.ron` (`accessibility.palette`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PaletteKind {
    /// The game's own colours (`theme.rs`).
    #[default]
    Standard,
    /// Okabe–Ito: distinguishable with protanopia, deuteranopia and tritanopia.
    ColourBlindSafe,
}

/// Okabe & Ito's eight colours (2008), in sRGB.
mod okabe_ito {
    use bevy::prelude::Color;
    pub const ORANGE: Color = Color::srgb(0.902, 0.624, 0.0);
    pub const SKY_BLUE: Color = Color::srgb(0.337, 0.706, 0.914);
    pub const BLUISH_GREEN: Color = Color::srgb(0.0, 0.620, 0.451);
    pub const YELLOW: Color = Color::srgb(0.941, 0.894, 0.259);
    pub const BLUE: Color = Color::srgb(0.0, 0.447, 0.698);
    pub const VERMILLION: Color = Color::srgb(0.835, 0.369, 0.0);
    pub const REDDISH_PURPLE: Color = Color::srgb(0.8, 0.475, 0.655);
}

/// Seats in the safe palette: as far apart in lightness as in hue (dark blue, mid orange,
/// light yellow, mid bluish green), so they stay apart when hue is lost.
const SAFE_SEATS: [Color; 4] =
    [okabe_ito::ORANGE, okabe_ito::BLUE, okabe_ito::YELLOW, okabe_ito::BLUISH_GREEN];

impl PaletteKind {
    pub const ALL: [PaletteKind; 2] = [PaletteKind::Standard, PaletteKind::ColourBlindSafe];

    /// Its name on the Settings screen.
    pub fn name(self) -> &'static str {
        match self {
            PaletteKind::Standard => "Standard",
            PaletteKind::ColourBlindSafe => "Colour-blind safe",
        }
    }

    /// A seat's colour in this palette; `None`: the standard one (`theme::SEAT_COLORS`).
    pub fn seat(self, seat: u8) -> Option<Color> {
        match self {
            PaletteKind::Standard => None,
            PaletteKind::ColourBlindSafe => Some(SAFE_SEATS[seat as usize % SAFE_SEATS.len()]),
        }
    }

    /// An ingredient's raw colour in this palette; `None`: the standard one.
    pub fn ingredient(self, i: Ingredient) -> Option<Color> {
        use okabe_ito::*;
        match self {
            PaletteKind::Standard => None,
            PaletteKind::ColourBlindSafe => Some(match i {
                Ingredient::Onion => REDDISH_PURPLE,
                Ingredient::Tomato => VERMILLION,
                Ingredient::Lettuce => BLUISH_GREEN,
                Ingredient::Mushroom => Color::srgb(0.6, 0.6, 0.6),
                Ingredient::Bun => ORANGE,
                Ingredient::Patty => Color::srgb(0.45, 0.22, 0.1),
                Ingredient::Fish => SKY_BLUE,
                Ingredient::Rice => Color::srgb(0.97, 0.97, 0.95),
            }),
        }
    }

    /// An order timer's colour with `left_pct` (0–100) of its time left — plenty, half, late —
    /// in this palette; `None`: the standard ones (`theme::DEADLINE_*`).
    pub fn timer(self, left_pct: u32) -> Option<Color> {
        match self {
            PaletteKind::Standard => None,
            PaletteKind::ColourBlindSafe => Some(match left_pct {
                50.. => okabe_ito::BLUE,
                25..=49 => okabe_ito::YELLOW,
                _ => okabe_ito::VERMILLION,
            }),
        }
    }
}

/// The palette in force (kept equal to `Accessibility::palette` by `access_sync`).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Palette(pub PaletteKind);

/// The process-wide switch the theme's colour functions read (0 standard, 1 colour-blind safe).
static ACTIVE: AtomicU8 = AtomicU8::new(0);

/// Make `kind` the palette the theme's colour functions use.
pub fn set_active(kind: PaletteKind) {
    let code = match kind {
        PaletteKind::Standard => 0,
        PaletteKind::ColourBlindSafe => 1,
    };
    ACTIVE.store(code, Ordering::Relaxed);
}

/// The palette the theme's colour functions use.
pub fn active() -> PaletteKind {
    match ACTIVE.load(Ordering::Relaxed) {
        1 => PaletteKind::ColourBlindSafe,
        _ => PaletteKind::Standard,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Relative luminance (WCAG) of an sRGB colour.
    fn luminance(c: Color) -> f32 {
        let l = c.to_linear();
        0.2126 * l.red + 0.7152 * l.green + 0.0722 * l.blue
    }

    #[test]
    fn the_safe_palette_has_a_colour_for_every_seat_and_ingredient_the_standard_defers() {
        let safe = PaletteKind::ColourBlindSafe;
        assert!((0..4).all(|s| safe.seat(s).is_some() && PaletteKind::Standard.seat(s).is_none()));
        let mut seen: Vec<[u8; 4]> = Ingredient::ALL
            .iter()
            .filter_map(|&i| safe.ingredient(i))
            .map(|c| {
                let c = c.to_srgba();
                [c.red, c.green, c.blue, c.alpha].map(|v| (v * 255.0).round() as u8)
            })
            .collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), Ingredient::ALL.len(), "one colour per ingredient");
    }

    #[test]
    fn safe_seats_differ_in_lightness_not_only_in_hue() {
        let mut l: Vec<f32> =
            (0..4).filter_map(|s| PaletteKind::ColourBlindSafe.seat(s)).map(luminance).collect();
        l.sort_by(f32::total_cmp);
        assert!(l.windows(2).all(|w| w[1] - w[0] > 0.03), "seat luminances {l:?}");
    }

    #[test]
    fn a_timer_runs_plenty_half_late() {
        let p = PaletteKind::ColourBlindSafe;
        assert_ne!(p.timer(80), p.timer(30));
        assert_ne!(p.timer(30), p.timer(10));
        assert_eq!(p.timer(100), p.timer(50));
        assert_eq!(PaletteKind::Standard.timer(10), None);
    }
}
