//! Dishes as multisets: what can go on a plate, what a plate can still become, what it matches.

use super::kinds::{Form, Ingredient};
use super::recipe_book::{Part, RecipeBook};

/// Is `small` a sub-multiset of `big`? Both must be sorted.
pub fn is_submultiset(small: &[Part], big: &[Part]) -> bool {
    let mut j = 0;
    for p in small {
        while j < big.len() && big[j] < *p {
            j += 1;
        }
        if j == big.len() || big[j] != *p {
            return false;
        }
        j += 1;
    }
    true
}

/// The plate's parts with `added` merged in, sorted.
pub fn with_parts(parts: &[Part], added: &[Part]) -> Vec<Part> {
    let mut v: Vec<Part> = parts.iter().chain(added).copied().collect();
    v.sort();
    v
}

/// Could a plate holding `parts` still become some recipe of the book?
pub fn can_become_dish(book: &RecipeBook, parts: &[Part]) -> bool {
    parts.iter().all(|(_, f)| *f != Form::Burnt)
        && book.recipes.iter().any(|r| is_submultiset(parts, &r.parts))
}

/// The book recipe whose multiset is exactly `parts`.
pub fn recipe_of(book: &RecipeBook, parts: &[Part]) -> Option<usize> {
    book.recipes.iter().position(|r| r.parts == parts)
}

/// A food item as a plate part.
pub fn part(ingredient: Ingredient, form: Form) -> Part {
    (ingredient, form)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Form::*;
    use Ingredient::*;

    #[test]
    fn submultisets_respect_counts() {
        let soup = [(Onion, Boiled), (Onion, Boiled), (Onion, Boiled)];
        assert!(is_submultiset(&[(Onion, Boiled), (Onion, Boiled)], &soup));
        assert!(!is_submultiset(&[(Onion, Boiled); 4], &soup));
        assert!(!is_submultiset(&[(Onion, Raw)], &soup));
        assert!(is_submultiset(&[], &soup));
        let salad = [(Tomato, Chopped), (Lettuce, Chopped)]; // sorted: Tomato < Lettuce
        assert!(is_submultiset(&[(Tomato, Chopped)], &salad));
        assert!(!is_submultiset(&[(Tomato, Chopped), (Tomato, Chopped)], &salad));
    }
}
