//! Versus's rules (`sim::versus`, docs/SIMULATION.md §2.4c) on a sketched two-window kitchen,
//! driven through `step_room`: one seeded stream on two rails, a window scoring for its own
//! team, misses and trash on the right team, no early win, the buzzer's verdict, the hash that
//! only a versus round has; and the validator's named refusals of a malformed teams block.

use super::kitchen::{give, idle, plate, recipe_parts, room_with, tap};
use super::place;
use crate::level::error::ErrorCode;
use crate::level::parse_level;
use crate::level::recipes::builtin_recipes;
use crate::report::result_payload;
use crate::sim::events::SimEvent;
use crate::sim::hash::{NamedFields, walk};
use crate::sim::kinds::Dir4;
use crate::sim::room::Room;
use crate::sim::units::cell_centre;
use crate::sim::verdict::Verdict;
use crate::sim::versus::{Team, TeamsSpec};

/// `#W1.2W#`: window 0 (station 0) is A's, window 1 (station 1) B's; seat 0 (A) faces its
/// window, seat 1 (B) faces its own. Salad tickets every 20 ticks, 1200-tick deadlines.
fn versus_room(time_limit: u32, teams: bool) -> Room {
    let mut r = room_with(&["#######", "#W1.2W#", "#######"], 2, |l| {
        l.orders.pool = vec!["salad".into()];
        l.orders.concurrent = 2;
        l.orders.interval_min = 20;
        l.orders.interval_max = 20;
        l.orders.deadline = 1200;
        l.orders.miss_penalty = 5;
        l.time_limit = time_limit;
        l.target_score = 1;
        if teams {
            l.teams = Some(TeamsSpec {
                spawn_team: vec![Team::A, Team::B],
                windows: vec![(0, Team::A), (1, Team::B)],
            });
        }
    });
    place(&mut r, 0, cell_centre(2), cell_centre(1), Dir4::Left);
    place(&mut r, 1, cell_centre(4), cell_centre(1), Dir4::Right);
    r
}

fn team_scores(r: &Room) -> Vec<(Team, i32, i32)> {
    r.events
        .iter()
        .filter_map(|e| match e {
            SimEvent::TeamScore { team, delta, score } => Some((*team, *delta, *score)),
            _ => None,
        })
        .collect()
}

/// Serve a salad with `seat`'s cook at the window it faces (its plate taken from the rack's
/// stock, so the plates stay conserved).
fn serve_salad(r: &mut Room, seat: u8) {
    r.plates_clean -= 1;
    let dish = plate(&recipe_parts(r, "salad"));
    give(r, seat, dish);
    tap(r, seat);
}

#[test]
fn one_seeded_stream_feeds_both_rails_the_same_tickets_at_the_same_ticks() {
    let mut coop = versus_room(100_000, false);
    let mut versus = versus_room(100_000, true);
    assert!(coop.versus.is_none() && versus.versus.is_some());
    idle(&mut coop, 80);
    idle(&mut versus, 80);
    // The co-op rail: two tickets (its cap) by tick 50; the versus rails: two each, in pairs.
    assert_eq!(coop.orders.len(), 2);
    let rail = |t| versus.orders.iter().filter(move |o| o.team == Some(t));
    let a: Vec<_> = rail(Team::A).map(|o| (o.recipe, o.deadline)).collect();
    let b: Vec<_> = rail(Team::B).map(|o| (o.recipe, o.deadline)).collect();
    let c: Vec<_> = coop.orders.iter().map(|o| (o.recipe, o.deadline)).collect();
    assert_eq!((a.clone(), b), (c.clone(), c), "same recipes, same deadlines, same ticks");
    let ids: Vec<_> = versus.orders.iter().map(|o| (o.id, o.team)).collect();
    assert_eq!(
        ids,
        vec![(1, Some(Team::A)), (2, Some(Team::B)), (3, Some(Team::A)), (4, Some(Team::B))]
    );
    // The same draws: the stream's rng stands where the co-op rail's does.
    assert_eq!(versus.rng.state, coop.rng.state);
    assert_eq!(a.len(), 2);
}

#[test]
fn a_window_scores_for_its_own_team_and_the_streaks_are_the_teams() {
    let mut r = versus_room(100_000, true);
    idle(&mut r, 31);
    serve_salad(&mut r, 0);
    let scored = team_scores(&r);
    assert_eq!(scored.len(), 1);
    let (team, delta, score) = scored[0];
    assert_eq!((team, delta, score), (Team::A, 33, 33), "20 × 1.1 streak × 1.5 time");
    assert!(!r.events.iter().any(|e| matches!(e, SimEvent::Score { .. })), "no co-op score");
    assert_eq!(r.score, 0);
    let v = r.versus.expect("versus");
    assert_eq!((v.team(Team::A).streak, v.team(Team::A).served), (1, 1));
    assert_eq!(v.team(Team::B), &Default::default());
    // A's ticket left A's rail; B's copy of it is still on B's.
    assert_eq!(r.orders.iter().filter(|o| o.team == Some(Team::A)).count(), 0);
    assert_eq!(r.orders.iter().filter(|o| o.team == Some(Team::B)).count(), 1);
    // B serves too: its first serve, so its own streak of 1.
    idle(&mut r, 1);
    serve_salad(&mut r, 1);
    assert_eq!(team_scores(&r), vec![(Team::B, 33, 33)]);
    assert_eq!(r.versus.expect("versus").scores(), [33, 33]);
}

#[test]
fn a_dish_served_at_the_rivals_window_scores_for_the_rival() {
    let mut r = versus_room(100_000, true);
    // Seat 0 (team A) stands at B's window: the steal's other half, a window's own team scores.
    place(&mut r, 1, cell_centre(3), cell_centre(1), Dir4::Right);
    place(&mut r, 0, cell_centre(4), cell_centre(1), Dir4::Right);
    idle(&mut r, 31);
    serve_salad(&mut r, 0);
    assert_eq!(team_scores(&r), vec![(Team::B, 33, 33)]);
    let served = r.events.iter().find(|e| matches!(e, SimEvent::Served { .. }));
    assert!(matches!(served, Some(SimEvent::Served { seat: 0, order_id: 2, .. })), "B's ticket");
    assert_eq!(r.cooks[0].score, 33, "the carrier's own tally still counts the dish");
}

#[test]
fn a_miss_costs_only_its_rails_team_and_the_trash_its_cooks() {
    let mut r = versus_room(100_000, true);
    idle(&mut r, 31);
    serve_salad(&mut r, 0);
    serve_salad(&mut r, 1);
    // Tickets 1 (A) and 2 (B) were served; 3 (A) and 4 (B) come at tick 50, due at 1250.
    let wait = 51 - r.tick;
    idle(&mut r, wait);
    assert_eq!(r.orders.len(), 2);
    r.orders.retain(|o| o.team == Some(Team::A));
    r.pool.clear(); // no more tickets, so only A's rail can miss
    while r.orders.iter().any(|o| o.team == Some(Team::A)) {
        idle(&mut r, 1);
    }
    assert_eq!(team_scores(&r), vec![(Team::A, -5, 28)]);
    let v = r.versus.expect("versus");
    assert_eq!((v.team(Team::A).missed, v.team(Team::A).streak), (1, 0));
    assert_eq!((v.team(Team::B).missed, v.team(Team::B).streak, v.team(Team::B).score), (0, 1, 33));
    // A trash by B's cook (what the long press and a throw into the bin call) costs B.
    r.events.clear();
    crate::sim::scoring::add_seat_score(&mut r, 1, crate::sim::units::TRASH_SCORE_DELTA);
    assert_eq!(team_scores(&r), vec![(Team::B, -2, 31)]);
}

#[test]
fn no_early_win_the_buzzer_names_the_higher_score() {
    let mut r = versus_room(200, true);
    idle(&mut r, 31);
    serve_salad(&mut r, 1);
    assert!(r.versus.expect("versus").team(Team::B).score >= r.level.target_score);
    assert_eq!(r.result, None, "versus has no target: no early win");
    let mut ends = Vec::new();
    while r.tick < 230 {
        idle(&mut r, 1);
        ends.extend(
            r.events
                .iter()
                .filter(|e| matches!(e, SimEvent::VersusEnd { .. } | SimEvent::RoundEnd { .. }))
                .cloned(),
        );
    }
    assert_eq!(ends, vec![SimEvent::VersusEnd { result: Verdict::TeamB, scores: [0, 33] }]);
    assert_eq!(r.result, Some(Verdict::TeamB));
    let payload = result_payload(&r);
    assert_eq!(payload["mode"], "versus");
    assert_eq!(payload["result"], "team_b");
    assert_eq!(payload["versus"]["winner"], "b");
    assert_eq!(payload["versus"]["teams"][1]["score"], 33);
    assert_eq!(payload["versus"]["teams"][0]["seats"], serde_json::json!([0]));
    assert_eq!(payload["stars"], 0);
}

#[test]
fn equal_scores_at_the_buzzer_are_a_draw() {
    let mut r = versus_room(200, true);
    idle(&mut r, 31);
    serve_salad(&mut r, 0);
    serve_salad(&mut r, 1);
    idle(&mut r, 200);
    assert_eq!(r.result, Some(Verdict::Draw));
    assert_eq!(result_payload(&r)["versus"]["winner"], "draw");
}

#[test]
fn only_a_versus_round_walks_the_teams_and_the_rails_teams() {
    let names = |r: &Room| {
        let mut f = NamedFields::default();
        walk(r, &mut f);
        f.0.into_iter().map(|(n, _)| n).collect::<Vec<_>>()
    };
    let mut coop = versus_room(100_000, false);
    let mut versus = versus_room(100_000, true);
    idle(&mut coop, 40);
    idle(&mut versus, 40);
    let (c, v) = (names(&coop), names(&versus));
    assert!(!c.iter().any(|n| n.starts_with("versus.") || n.ends_with(".team")), "{c:?}");
    assert_eq!(v.iter().filter(|n| n.starts_with("versus.")).count(), 10);
    assert_eq!(v.iter().filter(|n| n.ends_with(".team")).count(), 2);
    assert_ne!(coop.hash, versus.hash);
    // Survival is no versus option: the room keeps its own rules.
    let kept = versus_room(100_000, true).with_survival(true);
    assert!(kept.survival.is_none() && kept.versus.is_some());
}

/// A shipped versus kitchen with its teams block replaced.
fn with_teams(block: &str) -> Vec<ErrorCode> {
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels_versus/split_salad.ron"),
    )
    .expect("the shipped kitchen");
    let start = src.find("    teams:").expect("a teams block");
    let text = format!("{}{block}\n)\n", &src[..start]);
    let book = builtin_recipes().expect("book");
    match parse_level(text.as_bytes(), "t.ron", &book) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.into_iter().map(|e| e.code).collect(),
    }
}

#[test]
fn the_validator_names_a_malformed_teams_block() {
    let ok = "    teams: (a: (spawns: [1, 3], windows: [(0, 2)]), b: (spawns: [2, 4], windows: [(14, 2)])),";
    assert_eq!(with_teams(ok), vec![]);
    let spawns = [
        "    teams: (a: (spawns: [1, 3], windows: [(0, 2)]), b: (spawns: [2], windows: [(14, 2)])),",
        "    teams: (a: (spawns: [1, 3, 2], windows: [(0, 2)]), b: (spawns: [4], windows: [(14, 2)])),",
        "    teams: (a: (spawns: [1, 3], windows: [(0, 2)]), b: (spawns: [2, 3, 4], windows: [(14, 2)])),",
        "    teams: (a: (spawns: [1, 9], windows: [(0, 2)]), b: (spawns: [2, 4], windows: [(14, 2)])),",
        "    teams: (a: (spawns: [], windows: [(0, 2)]), b: (spawns: [1, 2], windows: [(14, 2)])),",
    ];
    for block in spawns {
        let codes = with_teams(block);
        assert!(
            !codes.is_empty() && codes.iter().all(|&c| c == ErrorCode::TeamSpawns),
            "{block}: {codes:?}"
        );
    }
    let windows = [
        "    teams: (a: (spawns: [1, 3], windows: [(0, 2)]), b: (spawns: [2, 4], windows: [])),",
        "    teams: (a: (spawns: [1, 3], windows: [(1, 2)]), b: (spawns: [2, 4], windows: [(14, 2)])),",
        "    teams: (a: (spawns: [1, 3], windows: [(0, 2), (14, 2)]), b: (spawns: [2, 4], windows: [(14, 2)])),",
        "    teams: (a: (spawns: [1, 3], windows: [(14, 2)]), b: (spawns: [2, 4], windows: [(0, 2)])),",
    ];
    for block in windows {
        let codes = with_teams(block);
        assert!(
            !codes.is_empty() && codes.iter().all(|&c| c == ErrorCode::TeamWindows),
            "{block}: {codes:?}"
        );
    }
    let unknown = "    teams: (a: (spawns: [1, 3], windows: [(0, 2)], cooks: 2), b: (spawns: [2, 4], windows: [(14, 2)])),";
    assert_eq!(with_teams(unknown), vec![ErrorCode::RonSyntax]);
}

#[test]
fn the_invariants_hold_a_versus_round_to_its_teams() {
    use crate::sim::invariants::{Violation, check};
    let mut r = versus_room(200, true);
    idle(&mut r, 31);
    serve_salad(&mut r, 0);
    idle(&mut r, 200);
    assert_eq!(r.result, Some(Verdict::TeamA));
    assert_eq!(check(&r), None);
    let mut served_off = r.clone();
    if let Some(v) = served_off.versus.as_mut() {
        v.team_mut(Team::B).served += 1;
    }
    assert!(matches!(check(&served_off), Some(Violation::Versus { .. })));
    let mut coop_verdict = r.clone();
    coop_verdict.result = Some(Verdict::Won);
    assert!(matches!(check(&coop_verdict), Some(Violation::Versus { .. })));
}
