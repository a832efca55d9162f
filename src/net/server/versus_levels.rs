//! The versus kitchens a host offers (`--versus-levels DIR`, default `levels_versus`): the
//! folder's published kitchens by the same rule as `--levels` (`level::load_published`: only a
//! file that hashes to its `index.ron` entry, unless `--designer`), each refused by name when it
//! is not one: LEVEL_NOT_PUBLISHED, invalid, no `teams` block, or an id a co-op kitchen of the
//! host already has (a bundle names its level by id). A missing folder offers none and says so:
//! the host still serves its co-op kitchens, and versus is refused by name.

use std::collections::BTreeMap;
use std::path::Path;

use crate::level::{Trust, load_published};
use crate::sim::kitchen::Level;
use crate::sim::recipe_book::RecipeBook;

/// What a host takes from its versus folder.
#[derive(Debug, Default)]
pub struct VersusOffer {
    /// In the index's order; every one has teams.
    pub levels: Vec<Level>,
    /// Each offered kitchen's file text, by id (the round's bundle carries it).
    pub sources: BTreeMap<String, String>,
    /// `level refused: …` lines, each naming the file and why.
    pub refused: Vec<String>,
    /// Plain notes (no folder, no index).
    pub said: Vec<String>,
}

/// The published versus kitchens of `dir`; `co_op` are the ids the host's co-op list holds.
pub fn load_versus(dir: &Path, book: &RecipeBook, trust: Trust, co_op: &[String]) -> VersusOffer {
    let mut out = VersusOffer::default();
    if !dir.is_dir() {
        out.said.push(format!(
            "versus: {} is no folder: no versus kitchens offered (--versus-levels)",
            dir.display()
        ));
        return out;
    }
    let offered = match load_published(dir, book, trust) {
        Ok(offered) => offered,
        Err(e) => {
            out.refused.push(format!("versus levels refused: {}: {e}", dir.display()));
            return out;
        }
    };
    out.refused.extend(offered.refused.iter().map(|e| format!("level refused: {e}")));
    if offered.index.is_none() {
        out.said.push(format!(
            "versus: {} has no index.ron: serving its valid versus kitchens in file-name order, \
             none published (docs/LEVELS.md, \"What runs\")",
            dir.display()
        ));
    }
    for level in offered.levels {
        let why = if level.teams.is_none() {
            Some("has no teams: a versus room plays only versus kitchens (serve it with --levels)")
        } else if co_op.contains(&level.id) {
            Some("has the id of one of the host's co-op kitchens: rename one of them")
        } else {
            None
        };
        if let Some(why) = why {
            let id = &level.id;
            out.refused.push(format!("level refused: {}: `{id}` {why}", dir.display()));
            continue;
        }
        if let Some(text) = offered.sources.get(&level.id) {
            out.sources.insert(level.id.clone(), text.clone());
        }
        out.levels.push(level);
    }
    out.said.push(format!(
        "versus: offering {} kitchen(s) from {}",
        out.levels.len(),
        dir.display()
    ));
    out
}
