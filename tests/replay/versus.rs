//! The versus goldens (docs/SIMULATION.md §2.4c, §9.4): a round to the buzzer won by the side
//! that served more, both teams scoring, a steal across `shared_pass`'s middle counter, and a
//! draw; their payloads name what each shows. `author_versus_scripts` (ignored) re-authors
//! their scripts from errands, as `authoring` does for the kitchen goldens.

use super::{cli, root};
use std::sync::Arc;
use undercooked::bot::author::{Authoring, author};
use undercooked::bot::errand::{Errands, Step, Step::*};
use undercooked::level::files::load_level_file;
use undercooked::level::recipes::builtin_recipes;
use undercooked::sim::kinds::Dir4::{self, *};

/// Ticks of a whole versus round on `goldens/levels/versus_short.ron` (40 s) and the settle.
const ROUND_AND_SETTLE: u32 = 800 + 20 + 5;

/// The replay payload of a golden's script.
fn payload(name: &str) -> serde_json::Value {
    let (code, text) = cli(&["replay", "run", &format!("goldens/scripts/{name}.ron"), "--json"]);
    assert_eq!(code, 0, "{text}");
    serde_json::from_str(text.lines().last().expect("payload line")).expect("json")
}

fn score(p: &serde_json::Value, team: usize) -> i64 {
    p["versus"]["teams"][team]["score"].as_i64().expect("a team score")
}

#[test]
fn the_versus_goldens_show_a_win_both_scoring_a_steal_and_a_draw() {
    let round = payload("versus_round");
    assert_eq!(round["mode"], "versus", "{round}");
    assert_eq!(
        (round["result"].clone(), round["versus"]["winner"].clone()),
        ("team_a".into(), "a".into())
    );
    assert_eq!(round["versus"]["teams"][0]["served"], 2, "{round}");
    assert_eq!(round["versus"]["teams"][1]["served"], 1, "{round}");
    assert!(score(&round, 0) > score(&round, 1), "{round}");
    let both = payload("versus_both_score");
    assert!(score(&both, 0) > 0 && score(&both, 1) > 0, "{both}");
    assert_eq!(both["result"], serde_json::Value::Null, "no early win: {both}");
    let steal = payload("versus_steal");
    assert_eq!(steal["level_id"], "shared_pass");
    assert_eq!(steal["versus"]["teams"][0]["served"], 0, "A made it: {steal}");
    assert_eq!(steal["versus"]["teams"][1]["served"], 1, "B served it: {steal}");
    assert!(score(&steal, 1) > 0 && score(&steal, 0) == 0, "{steal}");
    assert_eq!(steal["players"][0]["dishes_served"], 0, "{steal}");
    let draw = payload("versus_draw");
    assert_eq!(draw["result"], "draw", "{draw}");
    assert!(score(&draw, 0) > 0 && score(&draw, 0) == score(&draw, 1), "{draw}");
}

/// Mirror x for team B on a kitchen `width` wide.
fn side(team_b: bool, width: i32) -> impl Fn(i32) -> i32 {
    move |x| if team_b { width - 1 - x } else { x }
}

/// One salad on a versus kitchen's left half (mirrored for team B): chop lettuce and tomato at
/// the top board, plate on the prep with a plate from the rack below it; `serve` ends at the
/// team's window, else the cook keeps the salad.
fn salad(team_b: bool, width: i32, serve: bool) -> Vec<Step> {
    let x = side(team_b, width);
    let out: Dir4 = if team_b { Right } else { Left };
    let chop = |shelf: i32| {
        vec![
            GoTo((x(shelf), 1)),
            Face(Up),
            Press,
            GoTo((x(6), 1)),
            Face(Up),
            Press,
            Hold(20),
            Press,
        ]
    };
    let mut steps = chop(2);
    steps.extend([GoTo((x(1), 3)), Face(out), Press]); // lettuce onto the prep
    steps.extend([Face(Down), Press]); // a plate from the rack
    steps.extend([Face(out), Press, Press]); // the plate takes the lettuce; plate down
    steps.extend(chop(4));
    steps.extend([GoTo((x(1), 3)), Face(out), Press, Press]); // tomato on; lift the salad
    if serve {
        steps.extend([GoTo((x(1), 2)), Face(out), Press]);
    }
    steps
}

fn write(
    name: &str,
    level: &str,
    seed: u64,
    errands: Vec<Vec<Step>>,
    ticks: Option<u32>,
    every: u32,
) {
    let book = builtin_recipes().expect("book");
    let lvl = load_level_file(&root().join(level), &book).expect("level");
    let mut script = author(
        Arc::new(lvl),
        Arc::new(book),
        Authoring {
            name: name.into(),
            level_ref: level.into(),
            seed,
            errands: errands.into_iter().map(Errands::new).collect(),
            tail: 30,
            max_ticks: ROUND_AND_SETTLE,
        },
    );
    // A round-long golden runs on to the buzzer after its errands, recorded every `every`.
    if let Some(t) = ticks {
        script.ticks = Some(t);
    }
    script.record_every = every;
    let header = "// Authored from errands by tests/replay/versus.rs (author_versus_scripts); edit by hand or re-author.\n";
    std::fs::write(
        root().join(format!("goldens/scripts/{name}.ron")),
        header.to_string() + &script.to_ron() + "\n",
    )
    .expect("write script");
}

#[test]
#[ignore = "re-authors the versus scripts; run by hand, then `replay record` them"]
fn author_versus_scripts() {
    let split = "levels_versus/split_salad.ron";
    let short = "goldens/levels/versus_short.ron";
    // A round to the buzzer: A serves two salads, B one; A wins.
    let a: Vec<Step> = [salad(false, 15, true), salad(false, 15, true)].concat();
    write("versus_round", short, 41, vec![a, salad(true, 15, true)], Some(ROUND_AND_SETTLE), 5);
    // Both teams score: the same salad each, B a second behind.
    let b = [vec![Wait(20)], salad(true, 15, true)].concat();
    write("versus_both_score", split, 42, vec![salad(false, 15, true), b], None, 1);
    // A steal: A parks its salad on the shared middle counter (7, 2); B, waiting across it,
    // lifts it and serves it at B's window.
    let park = [salad(false, 15, false), vec![GoTo((6, 2)), Face(Right), Press]].concat();
    let thief = vec![GoTo((8, 2)), Face(Left), Wait(380), Press, GoTo((13, 2)), Face(Right), Press];
    write("versus_steal", "levels_versus/shared_pass.ron", 43, vec![park, thief], None, 1);
    // A draw: mirrored errands on mirrored kitchens serve the same salad on the same tick.
    write(
        "versus_draw",
        short,
        44,
        vec![salad(false, 15, true), salad(true, 15, true)],
        Some(ROUND_AND_SETTLE),
        5,
    );
}
