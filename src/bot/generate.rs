//! `level generate`'s proving half: each draw (`level::generate::Drawing`) is played exactly
//! as `level publish` plays a kitchen ([`prove_for_publish`], its seeds and target rule), and
//! written with the target and proof the publish would give it, so publishing the file leaves
//! its bytes as they are. A draw two bots do not win on every seed is redrawn.

use std::sync::Arc;

use super::publish::{PUBLISH_SEEDS, Publication, prove_for_publish};
use crate::level::generate::{
    Drawing, GenerateError, GenerateOptions, MAX_ATTEMPTS, MIN_TARGET, PROBE_TARGET, Proved,
    level_id,
};
use crate::sim::kitchen::Level;
use crate::sim::recipe_book::RecipeBook;

/// A generated kitchen: the file text, the level it compiles to, and its proof.
#[derive(Clone, Debug)]
pub struct Generated {
    pub id: String,
    pub text: String,
    pub level: Level,
    pub pool: Vec<String>,
    pub width: i32,
    pub height: i32,
    pub target: i32,
    pub publication: Publication,
    /// Which draw (0-based) two bots won on every seed.
    pub attempt: u32,
}

/// Draws, proves and writes a kitchen (docs/LEVELS.md, "Generated kitchens"). `book` is the
/// recipe book the file is validated and played against.
pub fn generate(opts: &GenerateOptions, book: &RecipeBook) -> Result<Generated, GenerateError> {
    let shared = Arc::new(book.clone());
    let mut best = 0;
    for attempt in 0..MAX_ATTEMPTS {
        let drawing = Drawing::draw(opts, book, attempt)?;
        let probe = drawing.compile(&drawing.text(PROBE_TARGET, None), book)?;
        let publication = prove_for_publish(&probe, &shared, PUBLISH_SEEDS);
        best = best.max(publication.target);
        if publication.target < MIN_TARGET || !publication.lost(2).is_empty() {
            continue;
        }
        let proved =
            Proved { full_clock: publication.full_clock.clone(), proof: publication.proof() };
        let text = drawing.text(publication.target, Some(&proved));
        let level = drawing.compile(&text, book)?;
        let (width, height) = drawing.grid_size();
        return Ok(Generated {
            id: level_id(opts),
            text,
            level,
            pool: drawing.pool().to_vec(),
            width,
            height,
            target: publication.target,
            publication,
            attempt,
        });
    }
    Err(GenerateError::NotWinnable { attempts: MAX_ATTEMPTS, best_target: best })
}
