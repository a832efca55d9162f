//! The generator's one entry point: draw, write, compile, and set the targets from the bots.

use super::dishes::DishPool;
use super::hazards;
use super::layout::Frame;
use super::options::*;
use super::stations;
use super::targets;
use super::writer;
use crate::level::compile::parse_level;
use crate::sim::recipe_book::RecipeBook;
use crate::sim::rng::SplitMix64;

/// Draws a kitchen, proves it with bots and sets its target (docs/LEVELS.md, "Generated
/// kitchens"). `book` is the recipe book the file will be validated against.
pub fn generate(opts: &GenerateOptions, book: &RecipeBook) -> Result<Generated, GenerateError> {
    let root = SplitMix64::new(opts.seed);
    let mut best = 0;
    for attempt in 0..MAX_ATTEMPTS {
        let mut rng = root.fork(u64::from(attempt) + 1);
        let frame = Frame::draw(opts.size, &mut rng);
        let pool = DishPool::choose(book, opts, &frame, &mut rng)?;
        let hazards = hazards::plan(&frame, &opts.hazards);
        let kitchen = stations::place(&frame, &pool, &hazards, &mut rng);
        let draft = writer::Draft {
            opts,
            frame: &frame,
            pool: &pool,
            kitchen: &kitchen,
            hazards: &hazards,
        };
        let probe = compile(&draft.text(targets::PROBE_TARGET, None), book)?;
        let measured = targets::measure(probe, book);
        let Some(target) = targets::target_from(&measured) else {
            best = best.max(measured.floor());
            continue;
        };
        let text = draft.text(target, Some(&measured));
        compile(&text, book)?;
        return Ok(Generated {
            id: level_id(opts),
            text,
            pool: pool.ids.clone(),
            width: frame.grid_width(),
            height: frame.grid_height(),
            target,
            measured,
            attempt,
        });
    }
    Err(GenerateError::NotWinnable { attempts: MAX_ATTEMPTS, best_score: best })
}

fn compile(text: &str, book: &RecipeBook) -> Result<crate::sim::kitchen::Level, GenerateError> {
    parse_level(text.as_bytes(), "generated.ron", book).map_err(GenerateError::Invalid)
}
