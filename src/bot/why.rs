//! Why a kitchen cannot be won by a bot team, from its layout and where the team's cooks
//! stand: which fixture no cook reaches, which part no cook can make, which part cannot get
//! from the bank it is made on to a serve window (no counter both banks touch, no throw). `bot
//! prove` prints these beside a level it won on no seed, so a designer reads a cause, not
//! only "lost".

use super::nav::Distances;
use super::reach::reaches;
use super::throwing::spots;
use super::view::{is_heat, process_kind};
use crate::sim::kinds::{Form, Ingredient, StationKind};
use crate::sim::kitchen::Level;
use crate::sim::open::SeatSpec;
use crate::sim::recipe_book::{Part, RecipeBook};
use crate::sim::room::Room;
use crate::sim::units::Cell;
use std::fmt;
use std::sync::Arc;

/// One reason no bot team of this size can win the kitchen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unwinnable {
    /// No cook reaches a serve window (the windows' cells): nothing can be served.
    NoWindow { windows: Vec<Cell> },
    /// No cook reaches a shelf of the ingredient (the shelves' cells; none when the kitchen
    /// has no such shelf).
    NoShelf { recipe: String, ingredient: Ingredient, shelves: Vec<Cell> },
    /// The part's fixture (board, pan, pot) is out of reach: for a chop, of every cook who can
    /// fetch the ingredient; for the heat, of every cook.
    NoFixture { recipe: String, part: Part, kind: StationKind, at: Vec<Cell> },
    /// The part can be made, but only on a side with no serve window, and nothing connects it
    /// to one: no counter both sides reach, no throw onto one.
    NoWayAcross { recipe: String, part: Part },
}

fn cells(cells: &[Cell]) -> String {
    let list: Vec<String> = cells.iter().map(|(x, y)| format!("({x}, {y})")).collect();
    if list.is_empty() { "nowhere: the kitchen has none".into() } else { list.join(", ") }
}

fn part_name((g, form): Part) -> String {
    match form {
        Form::Raw => g.name().to_lowercase(),
        _ => format!("{} {}", form.name().to_lowercase(), g.name().to_lowercase()),
    }
}

impl fmt::Display for Unwinnable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unwinnable::NoWindow { windows } => {
                write!(f, "no cook can reach the serve window at {}", cells(windows))
            }
            Unwinnable::NoShelf { recipe, ingredient, shelves } => write!(
                f,
                "{recipe}: {} cannot be made: no cook can reach the {} shelf at {}",
                ingredient.name().to_lowercase(),
                ingredient.name().to_lowercase(),
                cells(shelves)
            ),
            Unwinnable::NoFixture { recipe, part, kind, at } => write!(
                f,
                "{recipe}: {} cannot be made: no cook who can get the {} can reach the {} at {}",
                part_name(*part),
                part.0.name().to_lowercase(),
                kind.label(),
                cells(at)
            ),
            Unwinnable::NoWayAcross { recipe, part } => write!(
                f,
                "{recipe}: {} is made only where no serve window is, and no counter both sides \
                 reach (nor a throw onto one) brings it across",
                part_name(*part)
            ),
        }
    }
}

/// The layout's reasons a team of `bots` cannot win `level` (empty: every part of every
/// recipe on its rail can be made and brought to a window; a loss then is the planner's or
/// the clock's, and `--trace` tells it).
pub fn reasons(level: Arc<Level>, book: Arc<RecipeBook>, bots: u8) -> Vec<Unwinnable> {
    let room = Room::new(level, book, 1, &SeatSpec::numbered(bots));
    let dist = Distances::new(&room.level);
    let cooks: Vec<Cell> = room.cooks.iter().map(|c| c.pos.cell()).collect();
    let of_kind = |kind: StationKind| -> Vec<usize> {
        (0..room.stations.len()).filter(|&s| room.stations[s].kind == kind).collect()
    };
    let at =
        |list: &[usize]| -> Vec<Cell> { list.iter().map(|&s| room.stations[s].cell).collect() };
    let windows = of_kind(StationKind::Serve);
    let servers: Vec<Cell> =
        cooks.iter().copied().filter(|&c| windows.iter().any(|&s| reaches(&dist, c, s))).collect();
    if servers.is_empty() {
        return vec![Unwinnable::NoWindow { windows: at(&windows) }];
    }
    let mut out = Vec::new();
    let mut seen: Vec<(String, Part)> = Vec::new();
    for id in &room.level.orders.pool {
        let Some(recipe) = room.book.recipes.iter().find(|r| &r.id == id) else { continue };
        for &part in &recipe.parts {
            if seen.contains(&(recipe.id.clone(), part)) {
                continue;
            }
            seen.push((recipe.id.clone(), part));
            let tag = recipe.id.clone();
            let shelves = of_kind(StationKind::Shelf(part.0));
            let fetchers: Vec<(usize, Cell)> = cooks
                .iter()
                .copied()
                .enumerate()
                .filter(|&(_, c)| shelves.iter().any(|&s| reaches(&dist, c, s)))
                .collect();
            if fetchers.is_empty() {
                out.push(Unwinnable::NoShelf {
                    recipe: tag,
                    ingredient: part.0,
                    shelves: at(&shelves),
                });
                continue;
            }
            // Does the cook on seat-index `i`, standing on `from`, get `food` onto `s`: walk to
            // it, or throw from a cell it walks to (the sim's own landing)?
            let delivers = |i: usize, from: Cell, food: Part, s: usize| {
                reaches(&dist, from, s)
                    || spots(&room, room.cooks[i].seat, food, s)
                        .into_iter()
                        .any(|(c, _)| dist_walks(&room, from, c))
            };
            let plating = |i: usize, from: Cell, food: Part| {
                servers.contains(&from)
                    || (0..room.stations.len()).any(|s| {
                        matches!(room.stations[s].kind, StationKind::Counter | StationKind::Prep)
                            && servers.iter().any(|&t| reaches(&dist, t, s))
                            && delivers(i, from, food, s)
                    })
            };
            let ok = match process_kind(part) {
                Some(kind) if is_heat(kind) => {
                    let stoves = of_kind(kind);
                    let served: Vec<usize> = stoves
                        .iter()
                        .copied()
                        .filter(|&s| servers.iter().any(|&t| reaches(&dist, t, s)))
                        .collect();
                    if served.is_empty() {
                        out.push(Unwinnable::NoFixture {
                            recipe: tag,
                            part,
                            kind,
                            at: at(&stoves),
                        });
                        continue;
                    }
                    let raw = (part.0, Form::Raw);
                    fetchers.iter().any(|&(i, c)| served.iter().any(|&s| delivers(i, c, raw, s)))
                }
                Some(kind) => {
                    let boards = of_kind(kind);
                    let makers: Vec<(usize, Cell)> = fetchers
                        .iter()
                        .copied()
                        .filter(|&(_, c)| boards.iter().any(|&s| reaches(&dist, c, s)))
                        .collect();
                    if makers.is_empty() {
                        out.push(Unwinnable::NoFixture {
                            recipe: tag,
                            part,
                            kind,
                            at: at(&boards),
                        });
                        continue;
                    }
                    makers.iter().any(|&(i, c)| plating(i, c, part))
                }
                None => fetchers.iter().any(|&(i, c)| plating(i, c, part)),
            };
            if !ok {
                out.push(Unwinnable::NoWayAcross { recipe: tag, part });
            }
        }
    }
    out
}

/// Can a cook on `from` walk to cell `to`?
fn dist_walks(room: &Room, from: Cell, to: Cell) -> bool {
    let w = room.level.width.max(1) as usize;
    let walk = super::nav::distances(&room.level, &[from], &|_| false);
    walk.get(to.1 as usize * w + to.0 as usize).is_some_and(|&d| d != super::nav::FAR)
}
