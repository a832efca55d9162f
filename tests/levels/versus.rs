//! The versus kitchens (`levels_versus/`, docs/LEVELS.md "Versus kitchens"): at least three,
//! each validating with a teams block, each mirrored left to right — the grid, the spawns'
//! teams and the windows' teams — so neither side starts ahead; and none of them in the co-op
//! campaign.

use std::path::Path;

use undercooked::level::files::level_files;
use undercooked::level::load_level_file;
use undercooked::sim::versus::Team;

use super::{book, root, validate};

#[test]
fn the_versus_kitchens_validate_have_teams_and_are_mirrored() {
    let (code, out) = validate(&[Path::new("levels_versus")]);
    assert_eq!(code, 0, "{out}");
    let files = level_files(&root().join("levels_versus")).expect("levels_versus/");
    assert!(files.len() >= 3, "{files:?}");
    let campaign = std::fs::read_to_string(root().join("levels/index.ron")).expect("index");
    let book = book();
    for path in files {
        let level = load_level_file(&path, &book).expect("valid");
        assert!(
            !campaign.contains(&format!("\"{}\"", level.id)),
            "{} is no campaign level",
            level.id
        );
        let teams = level.teams.clone().expect("a versus kitchen has teams");
        let w = level.width;
        let mirror = |(x, y): (i32, i32)| (w - 1 - x, y);
        for y in 0..level.height {
            for x in 0..w {
                assert_eq!(
                    level.tile((x, y)),
                    level.tile(mirror((x, y))),
                    "{} at ({x}, {y})",
                    level.id
                );
            }
        }
        // Spawn k's mirror is a spawn of the other team.
        for (k, &cell) in level.spawns.iter().enumerate() {
            let twin =
                level.spawns.iter().position(|&c| c == mirror(cell)).expect("a mirrored spawn");
            assert_eq!(
                teams.spawn_team[twin],
                teams.spawn_team[k].rival(),
                "{} spawn {k}",
                level.id
            );
        }
        for &(station, team) in &teams.windows {
            let cell = level.stations[station as usize].cell;
            let twin = level.station_at(mirror(cell)).expect("a mirrored window");
            assert_eq!(teams.team_of_window(twin), Some(team.rival()), "{}", level.id);
        }
        let sides = teams.spawn_team.iter().filter(|&&t| t == Team::A).count();
        assert_eq!(sides * 2, teams.spawn_team.len(), "{}: as many spawns a side", level.id);
    }
}
