//! The kitchen generator's drawing half: a kitchen drawn from a seed — layout, stations, dish
//! pool, hazards — and written as an ordinary level file. Its target and proof come from the
//! bots a floor above (`bot::generate`, the rounds of `level publish`).
//!
//! Integer-only and seeded by `sim::rng::SplitMix64`: the same seed and options give the same
//! bytes on every machine (docs/LEVELS.md, "Generated kitchens").

pub mod daily;
mod dishes;
mod hazards;
mod layout;
mod options;
mod stations;
mod writer;

pub use daily::{DAILY_HAZARDS, DAILY_SIZE, Date, DateError, daily_options};
pub use dishes::DishPool;
pub use layout::Frame;
pub use options::{
    GenerateError, GenerateOptions, HazardKind, MAX_ATTEMPTS, MIN_TARGET, Size, level_id,
};
pub use writer::Proved;

use crate::level::compile::parse_level;
use crate::sim::kitchen::Level;
use crate::sim::recipe_book::RecipeBook;
use crate::sim::rng::SplitMix64;

/// One draw of a kitchen, before the bots set its target.
pub struct Drawing {
    opts: GenerateOptions,
    frame: Frame,
    pool: DishPool,
    kitchen: stations::Kitchen,
    hazards: Vec<hazards::Planned>,
}

/// The target a draw is first written with, out of reach, so the bots play the whole clock.
pub const PROBE_TARGET: i32 = 99_999;

impl Drawing {
    /// Draw number `attempt` (0-based) for `opts`: each attempt is its own fork of the seed,
    /// so a redraw never depends on what the bots did with the one before.
    pub fn draw(
        opts: &GenerateOptions,
        book: &RecipeBook,
        attempt: u32,
    ) -> Result<Drawing, GenerateError> {
        let mut rng = SplitMix64::new(opts.seed).fork(u64::from(attempt) + 1);
        let frame = Frame::draw(opts.size, &mut rng);
        let pool = DishPool::choose(book, opts, &frame, &mut rng)?;
        let hazards = hazards::plan(&frame, &opts.hazards);
        let kitchen = stations::place(&frame, &pool, &hazards, &mut rng);
        Ok(Drawing { opts: opts.clone(), frame, pool, kitchen, hazards })
    }

    /// The file text with `target_score: target` and, once proved, the proof as a comment.
    pub fn text(&self, target: i32, proved: Option<&Proved>) -> String {
        let draft = writer::Draft {
            opts: &self.opts,
            frame: &self.frame,
            pool: &self.pool,
            kitchen: &self.kitchen,
            hazards: &self.hazards,
        };
        draft.text(target, proved)
    }

    /// The text compiled by the validator (a failure is a generator bug, named, not a panic).
    pub fn compile(&self, text: &str, book: &RecipeBook) -> Result<Level, GenerateError> {
        parse_level(text.as_bytes(), &format!("{}.ron", level_id(&self.opts)), book)
            .map_err(GenerateError::Invalid)
    }

    /// The recipe ids in the order pool.
    pub fn pool(&self) -> &[String] {
        &self.pool.ids
    }

    /// Grid width and height, walls included.
    pub fn grid_size(&self) -> (i32, i32) {
        (self.frame.grid_width(), self.frame.grid_height())
    }
}
