//! What `level generate` is asked for and answers: the size, hazards and dish options, the
//! generated kitchen, the named errors, and the id a seed's kitchen gets.

use std::fmt;

use crate::level::error::LevelError;

/// How big a kitchen to draw (interior floor, walls excluded).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
pub enum Size {
    /// 9–11 × 4–5 cells, one or two dishes.
    S,
    /// 11–13 × 5–6 cells, two dishes.
    #[default]
    M,
    /// 13–15 × 6–7 cells, up to three dishes.
    L,
}

impl Size {
    /// The letter used in the level id.
    pub fn letter(self) -> char {
        match self {
            Size::S => 's',
            Size::M => 'm',
            Size::L => 'l',
        }
    }
}

/// A hazard the generator can add (docs/LEVELS.md, "Hazards").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
pub enum HazardKind {
    Spill,
    Ice,
    Cart,
    Fire,
    Shift,
}

/// Everything that decides a generated kitchen: the same options, the same bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateOptions {
    pub seed: u64,
    pub size: Size,
    /// Recipe ids for the pool; empty: the seed picks dishes from the book.
    pub dishes: Vec<String>,
    /// Hazards to add (order and repeats do not matter).
    pub hazards: Vec<HazardKind>,
}

/// Why no kitchen came out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenerateError {
    /// `--dishes` named a recipe the book does not have.
    UnknownDish(String),
    /// The named dishes need more shelves and stations than the kitchen's walls hold.
    DishesDoNotFit { size: Size, needed: usize, room: usize },
    /// The book has no dish the kitchen can hold.
    NoDish,
    /// The drawn file failed the validator (a generator bug, reported by code, never a panic).
    Invalid(Vec<LevelError>),
    /// On every re-draw two bots lost a publish seed or scored too little for a target
    /// (`best_target`: the highest target the rule set on any draw).
    NotWinnable { attempts: u32, best_target: i32 },
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::UnknownDish(id) => {
                write!(f, "UNKNOWN_RECIPE: no dish {id:?} in the recipe book")
            }
            GenerateError::DishesDoNotFit { size, needed, room } => write!(
                f,
                "DISHES_DO_NOT_FIT: the dishes need {needed} fixtures on the cooking side; a size {size:?} kitchen holds {room}"
            ),
            GenerateError::NoDish => {
                write!(f, "NO_DISH: the recipe book has no dish a kitchen can hold")
            }
            GenerateError::Invalid(errors) => {
                write!(f, "GENERATED_INVALID: the drawn kitchen failed validation:")?;
                for e in errors {
                    write!(f, "\n  {e}")?;
                }
                Ok(())
            }
            GenerateError::NotWinnable { attempts, best_target } => {
                write!(
                    f,
                    "NOT_WINNABLE: no draw of {attempts} was won by two bots on every publish seed \
                     with a target of at least {MIN_TARGET} (best target {best_target})"
                )
            }
        }
    }
}

impl std::error::Error for GenerateError {}

/// Redraws tried before giving up: a draw two bots do not win on every publish seed is
/// replaced, not shipped.
pub const MAX_ATTEMPTS: u32 = 4;

/// The lowest target a generated kitchen is written with: below it the bots barely cooked
/// (a third of a two-bot median under 120), and the draw is replaced.
pub const MIN_TARGET: i32 = 40;

/// The level id: `gen_<size>_<seed>`.
pub fn level_id(opts: &GenerateOptions) -> String {
    format!("gen_{}_{}", opts.size.letter(), opts.seed)
}
