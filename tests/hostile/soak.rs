//! Every campaign level soaked for a bounded number of ticks with the soak's four seeded
//! cooks: every invariant and the event ledger hold on every tick. The 10⁶-tick runs are
//! `undercooked soak` (docs/PERFORMANCE.md, "Soak").

use std::path::Path;
use std::sync::Arc;
use undercooked::level::{load_campaign, load_recipes_file};
use undercooked::soak::soak_level;

const TICKS: u64 = 20_000;
const SEED: u64 = 7;

#[test]
fn every_campaign_level_keeps_its_invariants_for_20k_ticks() {
    let book = Arc::new(load_recipes_file(Path::new("assets/recipes.ron")).expect("recipes"));
    let levels = load_campaign(Path::new("levels"), &book).expect("campaign");
    assert!(!levels.is_empty());
    let mut served = 0;
    for level in levels {
        let level = Arc::new(level);
        match soak_level(&level, &book, SEED, TICKS, false) {
            Ok(s) => {
                println!(
                    "{}: {} rounds, {} served, max {} items",
                    level.id, s.rounds, s.served, s.max_items
                );
                served += s.served;
            }
            Err(failure) => panic!("soak failed: {failure}"),
        }
    }
    // The bots really play: a soak that never serves would not exercise the stock or score.
    assert!(served > 0, "no dish was served in any level");
}

/// Harbour has two sinks; both used to finish washing the last dirty plate in this round and
/// make a seventh plate from six (`soak` seed 1 met it in its 16th round, at tick 1439).
#[test]
fn two_sinks_washing_the_last_dirty_plate_make_no_plate() {
    let book = Arc::new(load_recipes_file(Path::new("assets/recipes.ron")).expect("recipes"));
    let level =
        undercooked::level::find_level(Path::new("levels"), "harbour", &book).expect("harbour");
    if let Err(failure) = soak_level(&Arc::new(level), &book, 16, 1_440, false) {
        panic!("soak failed: {failure}");
    }
}

/// Survival rounds on every campaign level: the invariants and the ledger, whose survival part
/// rebuilds the clock from its start, the `Clock` events and the ticks spent.
#[test]
fn every_campaign_level_keeps_its_invariants_in_survival_rounds() {
    let book = Arc::new(load_recipes_file(Path::new("assets/recipes.ron")).expect("recipes"));
    let levels = load_campaign(Path::new("levels"), &book).expect("campaign");
    let (mut rounds, mut served) = (0, 0);
    for level in levels {
        match soak_level(&Arc::new(level), &book, SEED, 6_000, true) {
            Ok(s) => (rounds, served) = (rounds + s.rounds, served + s.served),
            Err(failure) => panic!("survival soak failed: {failure}"),
        }
    }
    // The clock really moves both ways: dishes are served, and some rounds run out.
    assert!(served > 0, "no dish was served in any survival round");
    assert!(rounds > 15, "no survival round ended ({rounds} rounds on 15 levels)");
}

/// Versus kitchens (`levels_versus/`): the invariants and the ledger, whose versus part
/// (`soak::team_ledger`) rebuilds each team's score, serves and misses from the events; a
/// round is 3 600 ticks, so 8 000 ticks end two of them on each kitchen.
#[test]
fn every_versus_kitchen_keeps_its_invariants_and_its_team_ledger() {
    let book = Arc::new(load_recipes_file(Path::new("assets/recipes.ron")).expect("recipes"));
    let files = undercooked::level::files::level_files(Path::new("levels_versus")).expect("dir");
    assert!(files.len() >= 3);
    for file in files {
        let level = Arc::new(undercooked::level::load_level_file(&file, &book).expect("level"));
        assert!(level.teams.is_some(), "{} is a versus kitchen", level.id);
        match soak_level(&level, &book, SEED, 8_000, false) {
            Ok(s) => assert!(s.served > 0 && s.rounds >= 3, "{}: {s:?}", level.id),
            Err(failure) => panic!("versus soak failed: {failure}"),
        }
    }
}
