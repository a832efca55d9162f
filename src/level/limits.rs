//! What a level or recipe file may say: the bounds of its numbers and the shape of an id.
//! Both compilers (`compile`, `recipes`) and the campaign check (`files`) hold files to these.

/// Largest grid side, in cells: bigger kitchens are unplayable and almost surely a mistake.
pub const MAX_GRID_SIDE: usize = 64;
/// Longest round, seconds (an hour).
pub const MAX_TIME_LIMIT_S: f64 = 3600.0;
/// Longest order interval or deadline, seconds (ten minutes).
pub const MAX_ORDER_SPAN_S: f64 = 600.0;
/// Most live orders on the rail.
pub const MAX_CONCURRENT: i64 = 16;
/// Most plates or pots a kitchen can own.
pub const MAX_PROPS: i64 = 99;
/// Largest target score, miss penalty or base score.
pub const MAX_SCORE: i64 = 1_000_000;

/// An id is a stable key in files, indexes and save data: lower-case ASCII, digits, `_`.
pub fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_lower_snake() {
        assert!(valid_id("burger_bar2"));
        for bad in ["", "Burger", "burger bar", "bürger", "a-b"] {
            assert!(!valid_id(bad), "{bad}");
        }
    }
}
