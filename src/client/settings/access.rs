//! Accessibility options, chosen in Settings and saved with the key bindings (`config.ron`,
//! `accessibility: (...)`): the colour palette, the UI scale (75–200 %), reduced motion (no
//! camera shake, no flashing), high-contrast outlines on items and other players' emotes
//! hidden. The options live in
//! [`Accessibility`], a resource every drawing system can read; `access_sync` keeps Bevy's
//! `UiScale` and the palette in step with it and saves a change.

use crate::client::settings::palette::PaletteKind;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// The UI scale's range and step, in percent.
pub const UI_SCALE_MIN: u16 = 75;
pub const UI_SCALE_MAX: u16 = 200;
pub const UI_SCALE_STEP: u16 = 25;

/// The accessibility options. A file written before they existed reads as the defaults.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Accessibility {
    /// Colours of cooks, ingredients and order timers.
    pub palette: PaletteKind,
    /// Every UI element's size, in percent (75–200).
    pub ui_scale: u16,
    /// No camera shake and no flashing: warnings stay lit instead of blinking.
    pub reduced_motion: bool,
    /// A dark outline around every item, so it stands out from counters and floor.
    pub high_contrast: bool,
    /// Other players' emotes are not drawn or heard (this window's own players' still are).
    pub hide_emotes: bool,
}

impl Default for Accessibility {
    fn default() -> Self {
        Accessibility {
            palette: PaletteKind::Standard,
            ui_scale: 100,
            reduced_motion: false,
            high_contrast: false,
            hide_emotes: false,
        }
    }
}

/// One option of the Settings screen's accessibility row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessOption {
    Palette,
    UiScale,
    ReducedMotion,
    HighContrast,
    HideEmotes,
}

impl AccessOption {
    pub const ALL: [AccessOption; 5] = [
        AccessOption::Palette,
        AccessOption::UiScale,
        AccessOption::ReducedMotion,
        AccessOption::HighContrast,
        AccessOption::HideEmotes,
    ];
}

fn on_off(b: bool) -> &'static str {
    if b { "on" } else { "off" }
}

impl Accessibility {
    /// Why a (hand-edited) value cannot be used: the field's name and the reason.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        if !(UI_SCALE_MIN..=UI_SCALE_MAX).contains(&self.ui_scale) {
            return Err((
                "ui_scale",
                format!("{} % is outside {UI_SCALE_MIN}–{UI_SCALE_MAX} %", self.ui_scale),
            ));
        }
        Ok(())
    }

    /// Bevy's `UiScale` factor.
    pub fn ui_factor(&self) -> f32 {
        f32::from(self.ui_scale) / 100.0
    }

    /// An option's line on the Settings screen.
    pub fn label(&self, option: AccessOption) -> String {
        match option {
            AccessOption::Palette => format!("Colours: {}", self.palette.name()),
            AccessOption::UiScale => format!("UI scale  < {}% >", self.ui_scale),
            AccessOption::ReducedMotion => {
                format!("Reduced motion: {}", on_off(self.reduced_motion))
            }
            AccessOption::HighContrast => {
                format!("High contrast: {}", on_off(self.high_contrast))
            }
            AccessOption::HideEmotes => {
                format!("Others' emotes: {}", if self.hide_emotes { "hidden" } else { "shown" })
            }
        }
    }

    /// Step an option: `up` is Right or confirm, otherwise Left. The UI scale stops at its
    /// ends; the palette cycles; a switch flips either way.
    pub fn step(&mut self, option: AccessOption, up: bool) {
        match option {
            AccessOption::Palette => {
                let all = PaletteKind::ALL;
                let at = all.iter().position(|p| *p == self.palette).unwrap_or(0);
                let next = if up { at + 1 } else { at + all.len() - 1 };
                self.palette = all[next % all.len()];
            }
            AccessOption::UiScale => {
                self.ui_scale = if up {
                    (self.ui_scale + UI_SCALE_STEP).min(UI_SCALE_MAX)
                } else {
                    self.ui_scale.saturating_sub(UI_SCALE_STEP).max(UI_SCALE_MIN)
                };
            }
            AccessOption::ReducedMotion => self.reduced_motion = !self.reduced_motion,
            AccessOption::HighContrast => self.high_contrast = !self.high_contrast,
            AccessOption::HideEmotes => self.hide_emotes = !self.hide_emotes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ui_scale_steps_within_its_range() {
        let mut a = Accessibility { ui_scale: 175, ..default() };
        a.step(AccessOption::UiScale, true);
        a.step(AccessOption::UiScale, true);
        assert_eq!(a.ui_scale, UI_SCALE_MAX);
        for _ in 0..10 {
            a.step(AccessOption::UiScale, false);
        }
        assert_eq!(a.ui_scale, UI_SCALE_MIN);
        assert!(a.check().is_ok());
        assert_eq!(Accessibility { ui_scale: 250, ..default() }.check().unwrap_err().0, "ui_scale");
        assert_eq!(Accessibility { ui_scale: 50, ..default() }.check().unwrap_err().0, "ui_scale");
    }

    #[test]
    fn the_palette_cycles_and_switches_flip() {
        let mut a = Accessibility::default();
        a.step(AccessOption::Palette, true);
        assert_eq!(a.palette, PaletteKind::ColourBlindSafe);
        a.step(AccessOption::Palette, true);
        assert_eq!(a.palette, PaletteKind::Standard);
        a.step(AccessOption::Palette, false);
        assert_eq!(a.palette, PaletteKind::ColourBlindSafe);
        a.step(AccessOption::ReducedMotion, false);
        a.step(AccessOption::HighContrast, true);
        assert!(a.reduced_motion && a.high_contrast);
        assert_eq!(a.label(AccessOption::ReducedMotion), "Reduced motion: on");
    }
}
