//! The daily kitchens a board ranks. A daily kitchen is in no index: its host drew it from the
//! date (`level::generate::daily_options`) and proved it. The board draws the same days again
//! (the same seed and options give the same file on every machine) and ranks a bundle's level
//! when its id and hash are one of those days' kitchens: today and the two days before (by the
//! host's UTC wall clock, read here at the host's edge, never in the rules), so a round played
//! just before midnight can still be submitted after it. Each day is drawn once, on the
//! verification worker that first needs it, and kept.

use crate::bot::generate::generate;
use crate::level::generate::{Date, daily_options};
use crate::replay::bundle::content_hash;
use crate::sim::recipe_book::RecipeBook;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Days back from today whose kitchens are still ranked.
pub const DAYS_BACK: i64 = 2;

/// Which days' kitchens are ranked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DailyWindow {
    /// None (a board for published levels only).
    Off,
    /// Today by the UTC wall clock and the [`DAYS_BACK`] days before.
    WallClock,
    /// This day only (tests).
    Fixed(Date),
}

impl DailyWindow {
    /// The days ranked now, newest first.
    pub fn days(self) -> Vec<Date> {
        match self {
            DailyWindow::Off => Vec::new(),
            DailyWindow::Fixed(d) => vec![d],
            DailyWindow::WallClock => {
                let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
                let Some(today) = now.ok().and_then(|d| i64::try_from(d.as_secs() / 86_400).ok())
                else {
                    return Vec::new();
                };
                (0..=DAYS_BACK).filter_map(|k| Date::from_unix_days(today - k)).collect()
            }
        }
    }
}

/// One day's kitchen as drawn: its id and content hash (None: the draw failed).
type Drawn = Option<(String, String)>;

/// The daily kitchens, drawn when first asked for.
pub struct DailyCheck {
    window: DailyWindow,
    book: Arc<RecipeBook>,
    drawn: Mutex<BTreeMap<Date, Drawn>>,
}

impl DailyCheck {
    pub fn new(window: DailyWindow, book: Arc<RecipeBook>) -> Self {
        DailyCheck { window, book, drawn: Mutex::new(BTreeMap::new()) }
    }

    /// The hash of the ranked daily kitchen with this id, if one is (drawing days not drawn yet:
    /// a tenth of a second each in a release build, on the caller's thread).
    pub fn hash_of(&self, id: &str) -> Option<String> {
        for day in self.window.days() {
            let found = self.day(day);
            if let Some((drawn_id, hash)) = found
                && drawn_id == id
            {
                return Some(hash);
            }
        }
        None
    }

    /// The ranked daily kitchens, newest first: (id, hash) of each day drawn (drawing days not
    /// drawn yet, as [`DailyCheck::hash_of`]).
    pub fn kitchens(&self) -> Vec<(String, String)> {
        self.window.days().into_iter().filter_map(|d| self.day(d)).collect()
    }

    fn day(&self, day: Date) -> Drawn {
        let mut drawn = self.drawn.lock().unwrap_or_else(|p| p.into_inner());
        // Days that left the window are forgotten.
        let keep = self.window.days();
        drawn.retain(|d, _| keep.contains(d));
        drawn
            .entry(day)
            .or_insert_with(|| {
                generate(&daily_options(day), &self.book)
                    .ok()
                    .map(|g| (g.id, content_hash(&g.text)))
            })
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_days_kitchen_is_ranked_by_its_drawn_hash_and_other_ids_are_not() {
        let book = Arc::new(crate::level::recipes::builtin_recipes().unwrap());
        let day = Date::new(2026, 12, 6).unwrap();
        let drawn = generate(&daily_options(day), &book).unwrap();
        let check = DailyCheck::new(DailyWindow::Fixed(day), book.clone());
        assert_eq!(check.hash_of(&drawn.id), Some(content_hash(&drawn.text)));
        assert_eq!(check.hash_of("tutorial"), None);
        assert_eq!(DailyCheck::new(DailyWindow::Off, book).hash_of(&drawn.id), None);
        assert_eq!(DailyWindow::WallClock.days().len(), DAYS_BACK as usize + 1);
    }
}
