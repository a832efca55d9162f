//! The desktop's F3 overlay on `bevy_perf_ui` as its authors intend: one `PerfUiRoot` entity
//! carrying its entries, every one of them ours — a custom `PerfUiEntry` per line of
//! [`PERF_LINES`], reading [`PerfReadings`]. The crate's own `entries` feature is off: it
//! registers some twenty predefined entry kinds whether a root shows them or not.

use crate::client::perf::readings::{PERF_LINES, PerfOverlay, PerfReadings};
use bevy::ecs::system::SystemParam;
use bevy::ecs::system::lifetimeless::SRes;
use bevy::prelude::*;
use bevy_perf_ui::entry::PerfUiEntry;
use bevy_perf_ui::prelude::*;
use bevy_perf_ui::utils::next_sort_key;

/// `bevy_perf_ui` and our entries.
pub struct PerfPanelPlugin;

impl Plugin for PerfPanelPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<PerfUiPlugin>() {
            app.add_plugins(PerfUiPlugin);
        }
        app.add_perf_ui_simple_entry::<PerfLineEntry<0>>()
            .add_perf_ui_simple_entry::<PerfLineEntry<1>>()
            .add_perf_ui_simple_entry::<PerfLineEntry<2>>()
            .add_perf_ui_simple_entry::<PerfLineEntry<3>>()
            .add_perf_ui_simple_entry::<PerfLineEntry<4>>()
            .add_perf_ui_simple_entry::<PerfLineEntry<5>>()
            .add_perf_ui_simple_entry::<PerfLineEntry<6>>()
            .add_perf_ui_simple_entry::<PerfLineEntry<7>>()
            .add_perf_ui_simple_entry::<PerfLineEntry<8>>()
            .add_perf_ui_simple_entry::<PerfLineEntry<9>>();
    }
}

/// The entry showing line `N` of [`PERF_LINES`] (one component type per line, as the crate
/// keys its entries by type).
#[derive(Component, Debug, Clone)]
#[require(PerfUiRoot)]
pub struct PerfLineEntry<const N: usize> {
    /// Where the entry sits in the overlay (the order the entries were made in).
    pub sort_key: i32,
}

impl<const N: usize> Default for PerfLineEntry<N> {
    fn default() -> Self {
        PerfLineEntry { sort_key: next_sort_key() }
    }
}

impl<const N: usize> PerfUiEntry for PerfLineEntry<N> {
    type SystemParam = SRes<PerfReadings>;
    type Value = String;

    fn label(&self) -> &str {
        PERF_LINES[N].0
    }

    fn sort_key(&self) -> i32 {
        self.sort_key
    }

    fn update_value(
        &self,
        readings: &mut <Self::SystemParam as SystemParam>::Item<'_, '_>,
    ) -> Option<String> {
        (PERF_LINES[N].1)(readings)
    }

    fn format_value(&self, value: &String) -> String {
        value.clone()
    }
}

/// The root and its entries, in the order shown (each entry's sort key is taken as it is made).
pub fn spawn_overlay(mut commands: Commands) {
    let root = PerfUiRoot {
        position: PerfUiPosition::BottomRight,
        margin: 8.0,
        background_color: Color::srgba(0.0, 0.0, 0.0, 0.7),
        text_err: "-".into(),
        fontsize_label: 14.0,
        fontsize_value: 14.0,
        values_col_width: 190.0,
        z_index: GlobalZIndex(90),
        ..default()
    };
    commands.spawn((
        PerfOverlay,
        root,
        (
            PerfLineEntry::<0>::default(),
            PerfLineEntry::<1>::default(),
            PerfLineEntry::<2>::default(),
            PerfLineEntry::<3>::default(),
            PerfLineEntry::<4>::default(),
        ),
        (
            PerfLineEntry::<5>::default(),
            PerfLineEntry::<6>::default(),
            PerfLineEntry::<7>::default(),
            PerfLineEntry::<8>::default(),
            PerfLineEntry::<9>::default(),
        ),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_entry_shows_its_line_in_the_order_made() {
        let (a, b) = (PerfLineEntry::<3>::default(), PerfLineEntry::<5>::default());
        assert!(PerfUiEntry::sort_key(&a) < PerfUiEntry::sort_key(&b));
        assert_eq!(a.label(), "Sim tick");
        assert_eq!(b.label(), "Loss");
        assert_eq!(a.format_value(&"1234".to_string()), "1234");
    }
}
