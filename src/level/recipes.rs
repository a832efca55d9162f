//! Recipe book file → validated `sim::recipe_book::RecipeBook`, and the shipped book built
//! into the binary.

use std::collections::BTreeSet;

use super::error::{ErrorCode, LevelError};
use super::limits::{MAX_SCORE, valid_id};
use super::schema::RecipeBookFile;
use super::source_map::SourceMap;
use super::text::{decode_text, parse_ron};
use crate::sim::kinds::{Form, Ingredient};
use crate::sim::recipe_book::{Recipe, RecipeBook};

/// The shipped `assets/recipes.ron`, compiled in so tools and tests always have a book even
/// when run away from the repository (the CLI still prefers the file on disk).
pub const BUILTIN_RECIPES_RON: &str = include_str!("../../assets/recipes.ron");

/// The shipped recipe book, validated.
pub fn builtin_recipes() -> Result<RecipeBook, Vec<LevelError>> {
    parse_recipes(BUILTIN_RECIPES_RON.as_bytes(), "assets/recipes.ron")
}

/// Parses and validates a recipe book: ids unique and well formed, scores positive, every part
/// a known ingredient in a servable form.
pub fn parse_recipes(src: &[u8], file: &str) -> Result<RecipeBook, Vec<LevelError>> {
    let text = decode_text(src, file)?;
    let raw: RecipeBookFile = parse_ron(text, file, "RecipeBook")?;
    let map = SourceMap::new(text);
    let mut errors = Vec::new();
    let mut push = |code, pos, msg: String| errors.push(LevelError::new(code, file, pos, msg));
    if raw.recipes.is_empty() {
        push(ErrorCode::BadCount, map.field("recipes"), "the book has no recipes".into());
    }
    let mut seen = BTreeSet::new();
    let mut recipes = Vec::new();
    for (i, r) in raw.recipes.iter().enumerate() {
        let id_pos = map.field_nth("id", i);
        if !valid_id(&r.id) {
            let msg = format!(
                "recipe id `{}` must be non-empty lower-case a-z, 0-9 and _",
                r.id.escape_debug()
            );
            push(ErrorCode::BadId, id_pos, msg);
        }
        if !seen.insert(r.id.as_str()) {
            push(ErrorCode::DuplicateId, id_pos, format!("recipe id `{}` is defined twice", r.id));
        }
        if !(1..=MAX_SCORE).contains(&r.base_score) {
            let msg =
                format!("`{}`: base_score is {}; it must be 1..={MAX_SCORE}", r.id, r.base_score);
            push(ErrorCode::BadScore, map.field_nth("base_score", i), msg);
        }
        let parts_pos = map.field_nth("parts", i);
        if r.parts.is_empty() {
            push(ErrorCode::BadRecipe, parts_pos, format!("`{}` has no parts", r.id));
        }
        let mut parts = Vec::new();
        for (name, form) in &r.parts {
            match Ingredient::from_name(name) {
                Some(ingredient) => parts.push((ingredient, *form)),
                None => {
                    let known = Ingredient::ALL.map(Ingredient::name).join(", ");
                    let msg = format!("`{}`: `{name}` is not an ingredient; known: {known}", r.id);
                    push(ErrorCode::UnknownIngredient, parts_pos, msg);
                }
            }
            if *form == Form::Burnt {
                let msg = format!("`{}`: a Burnt part can never be served", r.id);
                push(ErrorCode::BadRecipe, parts_pos, msg);
            }
        }
        parts.sort();
        recipes.push(Recipe {
            id: r.id.clone(),
            name: r.name.clone(),
            base_score: i32::try_from(r.base_score).unwrap_or(i32::MAX),
            parts,
        });
    }
    if errors.is_empty() { Ok(RecipeBook { recipes }) } else { Err(errors) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_book_is_valid_and_has_the_required_dishes() {
        let book = builtin_recipes().expect("shipped book is valid");
        for id in ["salad", "onion_soup", "burger", "tomato_soup"] {
            assert!(book.index_of(id).is_some(), "{id} missing");
        }
        let salad = &book.recipes[book.index_of("salad").unwrap()];
        assert_eq!(
            salad.parts,
            vec![(Ingredient::Tomato, Form::Chopped), (Ingredient::Lettuce, Form::Chopped)]
        );
    }

    fn codes(src: &str) -> Vec<(ErrorCode, Option<u32>)> {
        parse_recipes(src.as_bytes(), "r.ron")
            .expect_err("invalid")
            .into_iter()
            .map(|e| (e.code, e.line))
            .collect()
    }

    #[test]
    fn every_book_problem_is_reported_with_its_line() {
        let src = r#"RecipeBook(recipes: [
    (id: "a", name: "A", base_score: 1, parts: [("Onion", Raw)]),
    (id: "a", name: "A2", base_score: 0, parts: [("Bacon", Raw), ("Onion", Burnt)]),
    (id: "B", name: "B", base_score: 5, parts: []),
])"#;
        assert_eq!(
            codes(src),
            vec![
                (ErrorCode::DuplicateId, Some(3)),
                (ErrorCode::BadScore, Some(3)),
                (ErrorCode::UnknownIngredient, Some(3)),
                (ErrorCode::BadRecipe, Some(3)),
                (ErrorCode::BadId, Some(4)),
                (ErrorCode::BadRecipe, Some(4)),
            ]
        );
    }
}
