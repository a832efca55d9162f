//! The dish pool: which recipes the ticket rail draws, and the shelves and stations they need.

use super::layout::Frame;
use super::options::{GenerateError, GenerateOptions, Size};
use crate::sim::kinds::{Form, Ingredient};
use crate::sim::recipe_book::{Recipe, RecipeBook};
use crate::sim::rng::SplitMix64;

/// What the pool asks of the kitchen, in the order the cooking side lays it out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DishPool {
    /// Recipe ids, each once, sorted.
    pub ids: Vec<String>,
    /// One shelf per ingredient, in `Ingredient` order.
    pub shelves: Vec<Ingredient>,
    pub boards: u32,
    pub pans: u32,
    pub pots: u32,
    /// The most parts on one plate: longer dishes get longer deadlines.
    pub most_parts: u32,
}

impl DishPool {
    /// Fixtures the cooking side's walls must hold: shelves, boards and stoves.
    pub fn cook_fixtures(&self) -> usize {
        self.shelves.len() + (self.boards + self.pans + self.pots) as usize
    }

    /// The pool for the options: the named dishes, or dishes the seed picks that fit.
    pub fn choose(
        book: &RecipeBook,
        opts: &GenerateOptions,
        frame: &Frame,
        rng: &mut SplitMix64,
    ) -> Result<DishPool, GenerateError> {
        let room = cook_room(frame);
        if !opts.dishes.is_empty() {
            let mut picked: Vec<&Recipe> = Vec::new();
            for id in &opts.dishes {
                let index =
                    book.index_of(id).ok_or_else(|| GenerateError::UnknownDish(id.clone()))?;
                if !picked.iter().any(|r| r.id == *id) {
                    picked.push(&book.recipes[index]);
                }
            }
            let pool = needs(&picked, frame.size);
            if pool.cook_fixtures() > room {
                let needed = pool.cook_fixtures();
                return Err(GenerateError::DishesDoNotFit { size: frame.size, needed, room });
            }
            return Ok(pool);
        }
        let want = match frame.size {
            Size::S => 1 + rng.range_inclusive(0, 1) as usize,
            Size::M => 2,
            Size::L => 2 + rng.range_inclusive(0, 1) as usize,
        };
        // Shuffle the book's order (Fisher–Yates on indices), then take dishes while they fit.
        let mut order: Vec<usize> = (0..book.recipes.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.index(i + 1));
        }
        let mut picked: Vec<&Recipe> = Vec::new();
        for i in order {
            if picked.len() == want {
                break;
            }
            let mut trial = picked.clone();
            trial.push(&book.recipes[i]);
            if needs(&trial, frame.size).cook_fixtures() <= room {
                picked = trial;
            }
        }
        if picked.is_empty() {
            return Err(GenerateError::NoDish);
        }
        Ok(needs(&picked, frame.size))
    }
}

/// How many shelves, boards and stoves the cooking side's walls hold: its left wall and its
/// stretch of the top wall, plus its stretch of the bottom wall less the bin and a cell kept
/// for the extinguisher stand.
pub fn cook_room(frame: &Frame) -> usize {
    let side = frame.cook_columns().count();
    (frame.inner_h as usize) + side + side.saturating_sub(2)
}

/// The shelves and stations a set of dishes needs, with more boards and stoves in bigger
/// kitchens so more cooks can work at once.
fn needs(picked: &[&Recipe], size: Size) -> DishPool {
    let mut ids: Vec<String> = Vec::new();
    let mut shelves: Vec<Ingredient> = Vec::new();
    let (mut chopped, mut cooked, mut boiled, mut most_parts) = (0u32, 0u32, 0u32, 0u32);
    for r in picked {
        ids.push(r.id.clone());
        most_parts = most_parts.max(r.parts.len() as u32);
        for &(ingredient, form) in &r.parts {
            if !shelves.contains(&ingredient) {
                shelves.push(ingredient);
            }
            match form {
                Form::Chopped => chopped += 1,
                Form::Cooked => cooked += 1,
                Form::Boiled => boiled += 1,
                Form::Raw | Form::Burnt => {}
            }
        }
    }
    shelves.sort();
    let big = size != Size::S;
    let boards = match chopped {
        0 => 0,
        1 => 1,
        _ => 1 + u32::from(big),
    };
    let pans = if cooked == 0 { 0 } else { 1 + u32::from(size == Size::L) };
    let pots = if boiled == 0 { 0 } else { 1 + u32::from(big) };
    ids.sort();
    DishPool { ids, shelves, boards, pans, pots, most_parts }
}
