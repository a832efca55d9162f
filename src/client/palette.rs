//! The colour palettes players choose between in Settings: the standard one, and one safe for
//! the common colour-vision deficiencies (protan, deutan and tritan), built on the Okabe–Ito
//! set, whose colours stay apart for all three. Cooks, ingredients and order timers take their
//! colours from the chosen palette ([`Palette`], a resource every drawing system can read);
//! none of them is told by colour alone — a cook also has its "P1".."P4" tag, an ingredient its
//! own model, a ticket's timer its bar's length.

use super::theme::{BURNT, SEAT_COLORS, ingredient_color};
use crate::sim::kinds::{Form, Ingredient};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// Which palette: saved in `config.ron` (`accessibility.palette`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PaletteKind {
    /// The game's own colours (`theme.rs`).
    #[default]
    Standard,
    /// Okabe–Ito: distinguishable with protanopia, deuteranopia and tritanopia.
    ColourBlindSafe,
}

impl PaletteKind {
    pub const ALL: [PaletteKind; 2] = [PaletteKind::Standard, PaletteKind::ColourBlindSafe];

    /// Its name on the Settings screen.
    pub fn name(self) -> &'static str {
        match self {
            PaletteKind::Standard => "Standard",
            PaletteKind::ColourBlindSafe => "Colour-blind safe",
        }
    }
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

/// The palette in use, read by whatever draws cooks, items and tickets. Kept equal to
/// `Accessibility::palette` by the accessibility plugin.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Palette(pub PaletteKind);

impl Palette {
    /// A seat's colour (repeats past four seats).
    pub fn seat(&self, seat: u8) -> Color {
        let table = match self.0 {
            PaletteKind::Standard => &SEAT_COLORS,
            PaletteKind::ColourBlindSafe => &SAFE_SEATS,
        };
        table[seat as usize % table.len()]
    }

    /// An ingredient's raw colour.
    pub fn ingredient(&self, i: Ingredient) -> Color {
        use okabe_ito::*;
        match self.0 {
            PaletteKind::Standard => ingredient_color(i),
            PaletteKind::ColourBlindSafe => match i {
                Ingredient::Onion => REDDISH_PURPLE,
                Ingredient::Tomato => VERMILLION,
                Ingredient::Lettuce => BLUISH_GREEN,
                Ingredient::Mushroom => Color::srgb(0.6, 0.6, 0.6),
                Ingredient::Bun => ORANGE,
                Ingredient::Patty => Color::srgb(0.45, 0.22, 0.1),
                Ingredient::Fish => SKY_BLUE,
                Ingredient::Rice => Color::srgb(0.97, 0.97, 0.95),
            },
        }
    }

    /// An ingredient's colour in a form: cooking darkens it, boiling lightens it toward broth,
    /// burning blackens it — changes of lightness, which survive any colour deficiency.
    pub fn part(&self, i: Ingredient, f: Form) -> Color {
        let c = self.ingredient(i).to_srgba();
        match f {
            Form::Raw | Form::Chopped => c.into(),
            Form::Cooked => Color::srgb(c.red * 0.62, c.green * 0.5, c.blue * 0.4),
            Form::Boiled => {
                Color::srgb(c.red * 0.7 + 0.25, c.green * 0.7 + 0.22, c.blue * 0.5 + 0.15)
            }
            Form::Burnt => BURNT,
        }
    }

    /// An order timer's colour with `left_pct` (0–100) of its time left: plenty, half, late.
    pub fn timer(&self, left_pct: u32) -> Color {
        let (plenty, half, late) = match self.0 {
            PaletteKind::Standard => (
                Color::srgb(0.3, 0.85, 0.35),
                Color::srgb(0.95, 0.8, 0.15),
                Color::srgb(0.95, 0.2, 0.15),
            ),
            PaletteKind::ColourBlindSafe => {
                (okabe_ito::BLUE, okabe_ito::YELLOW, okabe_ito::VERMILLION)
            }
        };
        match left_pct {
            50.. => plenty,
            25..=49 => half,
            _ => late,
        }
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
    fn the_safe_palette_changes_every_seat_and_ingredient() {
        let (std, safe) = (Palette(PaletteKind::Standard), Palette(PaletteKind::ColourBlindSafe));
        assert_eq!(std.seat(1), SEAT_COLORS[1]);
        assert!((0..4).all(|s| std.seat(s) != safe.seat(s)));
        assert!(Ingredient::ALL.iter().all(|&i| std.ingredient(i) != safe.ingredient(i)));
    }

    #[test]
    fn safe_seats_differ_in_lightness_not_only_in_hue() {
        let safe = Palette(PaletteKind::ColourBlindSafe);
        let mut l: Vec<f32> = (0..4).map(|s| luminance(safe.seat(s))).collect();
        l.sort_by(f32::total_cmp);
        assert!(l.windows(2).all(|w| w[1] - w[0] > 0.03), "seat luminances {l:?}");
    }

    #[test]
    fn a_timer_runs_plenty_half_late() {
        for p in [Palette(PaletteKind::Standard), Palette(PaletteKind::ColourBlindSafe)] {
            assert_ne!(p.timer(80), p.timer(30));
            assert_ne!(p.timer(30), p.timer(10));
            assert_eq!(p.timer(100), p.timer(50));
        }
    }
}
