//! The host's daily kitchen: today's generated kitchen (`level::generate::daily`), offered
//! beside the published levels under its own id (`gen_m_YYYYMMDD`) and by the name `daily`
//! (`POST /api/rooms {"level": "daily"}`). The host trusts it without an index entry because it
//! drew it itself and proved it with `level publish`'s own rounds (`bot::generate`).
//!
//! The day is read from the wall clock here, at the host's edge, never in the rules; when the
//! UTC day turns, the next kitchen is drawn on a thread of its own and swapped in between
//! frames, so a live round's tick never waits for the bots' proof.

use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bevy::prelude::*;

use crate::bot::generate::{Generated, generate};
use crate::level::generate::{Date, daily_options};
use crate::net::server::hosted::HostLevels;
use crate::net::server::records::{BundleWriter, Source};
use crate::sim::kitchen::Level;
use crate::sim::recipe_book::RecipeBook;

/// The name a room may ask for instead of the day's level id.
pub const DAILY_LEVEL: &str = "daily";

/// How often the host looks at the wall clock for a new day.
const DAY_CHECK_EVERY: Duration = Duration::from_secs(30);

/// Which day's kitchen a host offers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DailyDays {
    /// No daily kitchen (tests and embedders that do not ask for one).
    #[default]
    Off,
    /// Today's, by the host's UTC wall clock, redrawn when the day turns.
    WallClock,
    /// This day's, always (tests).
    Fixed(Date),
}

impl DailyDays {
    /// The day to offer now, if any.
    pub fn today(self) -> Option<Date> {
        match self {
            DailyDays::Off => None,
            DailyDays::Fixed(date) => Some(date),
            DailyDays::WallClock => crate::bot::level_cli::today_utc(),
        }
    }
}

/// The kitchen offered as `daily` now.
#[derive(Resource, Clone, Debug)]
pub struct DailyKitchen {
    pub date: Date,
    pub level: Arc<Level>,
    pub text: String,
}

impl DailyKitchen {
    /// Draws and proves `date`'s kitchen against `book` (a tenth of a second in a release
    /// build, about a second in a debug one).
    pub fn draw(date: Date, book: &RecipeBook) -> Result<DailyKitchen, String> {
        let Generated { level, text, .. } = generate(&daily_options(date), book)
            .map_err(|e| format!("daily kitchen {date}: {e}"))?;
        Ok(DailyKitchen { date, level: Arc::new(level), text })
    }

    /// The level id a room's `level` names: `daily` is today's kitchen, any other name itself.
    pub fn resolve<'a>(daily: Option<&'a DailyKitchen>, name: &'a str) -> &'a str {
        match daily {
            Some(d) if name == DAILY_LEVEL => &d.level.id,
            _ => name,
        }
    }
}

/// Follows the day: [`watch_the_day`] starts the next day's draw, [`swap_in_the_day`] offers it.
pub struct DailyPlugin(pub DailyDays);

impl Plugin for DailyPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(NextDay { days: self.0, ..Default::default() })
            .add_systems(Update, (watch_the_day, swap_in_the_day).chain());
    }
}

/// The next day's kitchen being drawn on its own thread.
#[derive(Resource, Default)]
struct NextDay {
    days: DailyDays,
    checked: Option<Instant>,
    /// A day whose draw failed: not tried again (its error was logged).
    failed: Option<Date>,
    drawing: Option<(Date, Mutex<Receiver<Result<DailyKitchen, String>>>)>,
}

/// Every [`DAY_CHECK_EVERY`], the day by the host's clock: a day with no kitchen offered yet
/// starts its draw on a thread.
fn watch_the_day(
    daily: Option<Res<DailyKitchen>>,
    levels: Res<HostLevels>,
    mut next: ResMut<NextDay>,
) {
    if next.drawing.is_some() || next.checked.is_some_and(|t| t.elapsed() < DAY_CHECK_EVERY) {
        return;
    }
    next.checked = Some(Instant::now());
    let Some(today) = next.days.today() else { return };
    if Some(today) == daily.map(|d| d.date) || Some(today) == next.failed {
        return;
    }
    let (tx, rx) = channel();
    let book = levels.book.clone();
    let spawned = std::thread::Builder::new().name("daily-kitchen".into()).spawn(move || {
        let _ = tx.send(DailyKitchen::draw(today, &book));
    });
    match spawned {
        Ok(_) => next.drawing = Some((today, Mutex::new(rx))),
        Err(e) => error!("daily kitchen {today}: no thread to draw it on: {e}"),
    }
}

/// Puts the new day's kitchen where yesterday's was: in the offered list (rooms on it move to
/// the new one at their next round) and in the bundle writer's sources.
fn swap_in_the_day(
    mut commands: Commands,
    mut next: ResMut<NextDay>,
    daily: Option<Res<DailyKitchen>>,
    mut levels: ResMut<HostLevels>,
    mut bundles: ResMut<BundleWriter>,
) {
    let Some((date, rx)) = next.drawing.as_ref() else { return };
    let date = *date;
    let answer = match rx.lock().map(|rx| rx.try_recv()) {
        Ok(Err(TryRecvError::Empty)) => return,
        Ok(Ok(answer)) => answer,
        Ok(Err(TryRecvError::Disconnected)) | Err(_) => {
            Err(format!("daily kitchen {date}: its thread stopped"))
        }
    };
    next.drawing = None;
    match answer {
        Ok(new) => {
            let old = daily.map(|d| d.level.id.clone());
            offer(&mut levels, &mut bundles, &new, old.as_deref());
            info!("daily kitchen {}: `{}`", new.date, new.level.id);
            commands.insert_resource(new);
        }
        Err(e) => {
            error!("{e}");
            next.failed = Some(date);
        }
    }
}

/// Offers `daily` in place of the level `replacing` (or at the end of the list).
pub fn offer(
    levels: &mut HostLevels,
    bundles: &mut BundleWriter,
    daily: &DailyKitchen,
    replacing: Option<&str>,
) {
    let at = replacing.and_then(|id| levels.levels.iter().position(|l| l.id == id));
    match at {
        Some(i) => levels.levels[i] = daily.level.clone(),
        None => levels.levels.push(daily.level.clone()),
    }
    bundles.levels.insert(daily.level.id.clone(), Source::new(daily.text.clone()));
}
