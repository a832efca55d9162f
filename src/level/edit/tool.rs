//! The editor's palette: the brushes that paint the grid, then the hazard tools that place
//! hazards on it.

use super::brush::Brush;
use super::hazards::HazardKind;

/// One tool of the palette.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Brush(Brush),
    Hazard(HazardKind),
}

impl Tool {
    /// Every tool in palette order: the brushes ([`Brush::palette`]), then every hazard kind.
    pub fn palette() -> Vec<Tool> {
        let mut all: Vec<Tool> = Brush::palette().into_iter().map(Tool::Brush).collect();
        all.extend(HazardKind::ALL.into_iter().map(Tool::Hazard));
        all
    }

    /// The name shown on the palette.
    pub fn label(self) -> String {
        match self {
            Tool::Brush(b) => b.label(),
            Tool::Hazard(k) => k.label().to_string(),
        }
    }
}
