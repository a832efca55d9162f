//! The validator's vocabulary: stable error codes, one located problem, and file-level load errors.
//!
//! Codes are an enum (never free strings) so docs/LEVELS.md, the fixtures under
//! `tests/fixtures/levels/bad/` and the CLI output all name the same closed set.

use std::fmt;
use std::path::PathBuf;

/// Every problem the level/recipe validator can name. The `as_str` spelling is stable: tools,
/// tests and docs match on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ErrorCode {
    /// Not a RON document of the expected kind: empty, binary, non-UTF-8, truncated, or the
    /// wrong top-level type (a recipe book where a level was expected).
    NotALevel,
    /// RON that does not parse, or does not fit the schema (unknown/missing field, wrong type).
    RonSyntax,
    /// Grid rows of different lengths.
    GridRagged,
    /// Grid with no rows, an empty row, or larger than [`crate::level::limits::MAX_GRID_SIDE`].
    GridSize,
    /// A grid character neither the built-in legend nor the level's `legend` defines.
    UnknownTile,
    /// A `legend` entry that redefines a reserved character (the spawn digits `1`-`4`).
    BadLegend,
    /// No cook spawn (`1`..`4`) in the grid.
    NoSpawn,
    /// A spawn from which no station can be used (the cook is boxed in).
    SpawnBlocked,
    /// Spawn digits repeated or with a gap (must be exactly `1..=n`).
    SpawnNumbering,
    /// No serve window `W`.
    NoServe,
    /// An orders pool entry (or campaign entry) that the recipe book does not define.
    UnknownRecipe,
    /// An ingredient name that is not one of the game's ingredients.
    UnknownIngredient,
    /// The pool asks for a dish this kitchen lacks a shelf or station to make.
    RecipeUncookable,
    /// A prop limit of zero where the kitchen needs that prop (plates, or pots with a pot stove).
    StationLimitZero,
    /// A station no cook can reach from any spawn.
    UnreachableStation,
    /// A duration that is zero, negative, not a number, absurdly long, or an inverted range.
    BadDuration,
    /// A count out of range (orders.concurrent, an empty pool, a prop limit out of 0..=99).
    BadCount,
    /// A score out of range (target_score ≤ 0, a negative miss penalty, base_score ≤ 0).
    BadScore,
    /// An id that is empty or uses characters other than `a-z 0-9 _`.
    BadId,
    /// Two levels in one validated set (or two recipes, or two campaign entries) share an id.
    DuplicateId,
    /// A recipe that can never be served (no parts, or a Burnt part).
    BadRecipe,
    /// A hazard cell (or cart path cell) outside the grid.
    HazardCellOutside,
    /// A hazard on a cell it cannot use: a spill, ice or cart path off the floor (or a cart
    /// over a spawn), a shifting cell that is neither floor nor a counter.
    HazardCellBlocked,
    /// A cart path that is not a loop of orthogonal neighbours (or has fewer than 2 cells).
    HazardPathBroken,
    /// A hazard duration or speed that is zero, negative, not a number, absurd, or does not
    /// fit its cycle (a spill lasting longer than its repeat, a warning longer than the floor
    /// is present).
    HazardBadTiming,
    /// Two hazards claim the same cell in ways that cannot both hold (or two Fire entries).
    HazardConflict,
    /// A shifting floor covers a spawn, or leaves a spawn's cook unable to reach any station.
    ShiftStrandsSpawn,
    /// A Fire hazard in a kitchen with no extinguisher stand `E`.
    ExtinguisherMissing,
    /// A campaign index entry that names no level in the folder.
    UnknownLevel,
    /// An index in the format before publishing (plain level ids, no hashes or proofs).
    IndexOldFormat,
    /// A level file whose bytes do not hash to its index entry, or that no entry lists.
    LevelNotPublished,
    /// A versus `teams` block whose spawns are wrong: a digit not on the grid, a spawn on
    /// both teams (or twice on one) or on neither, a team with no spawn or more than two.
    TeamSpawns,
    /// A versus `teams` block whose windows are wrong: a cell that is no serving window, a
    /// window on both teams or on neither, a team with no window or none its cooks can reach.
    TeamWindows,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 33] = [
        ErrorCode::NotALevel,
        ErrorCode::RonSyntax,
        ErrorCode::GridRagged,
        ErrorCode::GridSize,
        ErrorCode::UnknownTile,
        ErrorCode::BadLegend,
        ErrorCode::NoSpawn,
        ErrorCode::SpawnBlocked,
        ErrorCode::SpawnNumbering,
        ErrorCode::NoServe,
        ErrorCode::UnknownRecipe,
        ErrorCode::UnknownIngredient,
        ErrorCode::RecipeUncookable,
        ErrorCode::StationLimitZero,
        ErrorCode::UnreachableStation,
        ErrorCode::BadDuration,
        ErrorCode::BadCount,
        ErrorCode::BadScore,
        ErrorCode::BadId,
        ErrorCode::DuplicateId,
        ErrorCode::BadRecipe,
        ErrorCode::HazardCellOutside,
        ErrorCode::HazardCellBlocked,
        ErrorCode::HazardPathBroken,
        ErrorCode::HazardBadTiming,
        ErrorCode::HazardConflict,
        ErrorCode::ShiftStrandsSpawn,
        ErrorCode::ExtinguisherMissing,
        ErrorCode::UnknownLevel,
        ErrorCode::IndexOldFormat,
        ErrorCode::LevelNotPublished,
        ErrorCode::TeamSpawns,
        ErrorCode::TeamWindows,
    ];

    /// The stable SCREAMING_SNAKE spelling printed by the CLI and documented in docs/LEVELS.md.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::NotALevel => "NOT_A_LEVEL",
            ErrorCode::RonSyntax => "RON_SYNTAX",
            ErrorCode::GridRagged => "GRID_RAGGED",
            ErrorCode::GridSize => "GRID_SIZE",
            ErrorCode::UnknownTile => "UNKNOWN_TILE",
            ErrorCode::BadLegend => "BAD_LEGEND",
            ErrorCode::NoSpawn => "NO_SPAWN",
            ErrorCode::SpawnBlocked => "SPAWN_BLOCKED",
            ErrorCode::SpawnNumbering => "SPAWN_NUMBERING",
            ErrorCode::NoServe => "NO_SERVE",
            ErrorCode::UnknownRecipe => "UNKNOWN_RECIPE",
            ErrorCode::UnknownIngredient => "UNKNOWN_INGREDIENT",
            ErrorCode::RecipeUncookable => "RECIPE_UNCOOKABLE",
            ErrorCode::StationLimitZero => "STATION_LIMIT_ZERO",
            ErrorCode::UnreachableStation => "UNREACHABLE_STATION",
            ErrorCode::BadDuration => "BAD_DURATION",
            ErrorCode::BadCount => "BAD_COUNT",
            ErrorCode::BadScore => "BAD_SCORE",
            ErrorCode::BadId => "BAD_ID",
            ErrorCode::DuplicateId => "DUPLICATE_ID",
            ErrorCode::BadRecipe => "BAD_RECIPE",
            ErrorCode::HazardCellOutside => "HAZARD_CELL_OUTSIDE",
            ErrorCode::HazardCellBlocked => "HAZARD_CELL_BLOCKED",
            ErrorCode::HazardPathBroken => "HAZARD_PATH_BROKEN",
            ErrorCode::HazardBadTiming => "HAZARD_BAD_TIMING",
            ErrorCode::HazardConflict => "HAZARD_CONFLICT",
            ErrorCode::ShiftStrandsSpawn => "SHIFT_STRANDS_SPAWN",
            ErrorCode::ExtinguisherMissing => "EXTINGUISHER_MISSING",
            ErrorCode::UnknownLevel => "UNKNOWN_LEVEL",
            ErrorCode::IndexOldFormat => "INDEX_OLD_FORMAT",
            ErrorCode::LevelNotPublished => "LEVEL_NOT_PUBLISHED",
            ErrorCode::TeamSpawns => "TEAM_SPAWNS",
            ErrorCode::TeamWindows => "TEAM_WINDOWS",
        }
    }

    pub fn from_str_code(s: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A 1-based line and column (columns count characters, not bytes), as editors show them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

/// One located problem in one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError {
    pub code: ErrorCode,
    pub file: String,
    pub line: Option<u32>,
    pub col: Option<u32>,
    pub message: String,
}

impl LevelError {
    pub fn new(code: ErrorCode, file: &str, pos: Option<Pos>, message: impl Into<String>) -> Self {
        LevelError {
            code,
            file: file.to_string(),
            line: pos.map(|p| p.line),
            col: pos.map(|p| p.col),
            message: message.into(),
        }
    }
}

impl fmt::Display for LevelError {
    /// `file:line:col: CODE: message`, dropping the parts that are unknown, so editors and
    /// terminals can jump to the spot.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(col) = self.col {
                write!(f, ":{col}")?;
            }
        }
        write!(f, ": {}: {}", self.code, self.message)
    }
}

impl std::error::Error for LevelError {}

/// Why loading a level, a recipe book or a campaign from disk failed.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read at all (missing, permissions, a directory).
    #[error("{}: cannot read: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The file was read and is invalid; every problem is listed.
    #[error("{}", join_errors(.0))]
    Invalid(Vec<LevelError>),
    /// No level in the folder has this id.
    #[error("no level with id or path `{0}`")]
    NotFound(String),
}

fn join_errors(errors: &[LevelError]) -> String {
    errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_includes_known_position_parts_only() {
        let with = LevelError::new(
            ErrorCode::UnknownTile,
            "levels/x.ron",
            Some(Pos { line: 12, col: 5 }),
            "bad",
        );
        assert_eq!(with.to_string(), "levels/x.ron:12:5: UNKNOWN_TILE: bad");
        let without = LevelError::new(ErrorCode::NoSpawn, "levels/x.ron", None, "none");
        assert_eq!(without.to_string(), "levels/x.ron: NO_SPAWN: none");
    }

    #[test]
    fn codes_round_trip_through_their_spelling() {
        for code in ErrorCode::ALL {
            assert_eq!(ErrorCode::from_str_code(code.as_str()), Some(code));
        }
    }
}
