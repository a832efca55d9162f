//! The validated recipe book: the dishes orders draw from, as multisets of prepared parts.

use super::kinds::{Form, Ingredient};

/// One prepared ingredient as it lies on a plate or in a recipe.
pub type Part = (Ingredient, Form);

/// A dish: a multiset of prepared ingredients on a plate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipe {
    pub id: String,
    pub name: String,
    pub base_score: i32,
    /// Sorted, so two equal multisets compare equal.
    pub parts: Vec<Part>,
}

/// The validated recipe book.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecipeBook {
    pub recipes: Vec<Recipe>,
}

impl RecipeBook {
    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.recipes.iter().position(|r| r.id == id)
    }
}
