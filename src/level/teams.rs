//! The `teams` block of a versus level: validated into named errors (TEAM_SPAWNS,
//! TEAM_WINDOWS) and compiled to `sim::versus::TeamsSpec`.
//!
//! Every spawn digit on the grid and every serving window belongs to exactly one team; each
//! team has one or two spawns (1–2 cooks) and at least one window its own cooks can reach. The
//! kitchen's shape (mirrored or not, a shared middle or none) is the designer's: the rules are
//! fair by construction only where the kitchen is.

use std::collections::BTreeMap;

use super::error::ErrorCode;
use super::grid::{Grid, Report, flood, usable_from};
use super::schema::{LevelFile, TeamFile};
use crate::sim::kinds::StationKind;
use crate::sim::versus::{Team, TeamsSpec};

/// At most two cooks a team (two spawns; a third seat would stack on a teammate's spawn).
pub const MAX_TEAM_SPAWNS: usize = 2;

/// Checks a level's `teams` block against its grid; the compiled spec when it is sound,
/// `None` for a co-op level (no block) or one with problems (each reported).
pub(super) fn check_teams(raw: &LevelFile, grid: &Grid, rep: &mut Report) -> Option<TeamsSpec> {
    let teams = raw.teams.as_ref()?;
    if grid.width == 0 || grid.spawns.is_empty() {
        return None; // the grid's own errors come first
    }
    let before = rep.errors.len();
    let sides = [(Team::A, &teams.a), (Team::B, &teams.b)];
    let spawn_team = check_spawns(&sides, grid, rep);
    let windows = check_windows(&sides, grid, rep);
    if rep.errors.len() > before {
        return None;
    }
    check_reach(&sides, grid, rep);
    (rep.errors.len() == before).then_some(TeamsSpec { spawn_team, windows })
}

/// Each grid spawn on exactly one team, 1–2 a team: the team of each spawn, in digit order.
fn check_spawns(sides: &[(Team, &TeamFile); 2], grid: &Grid, rep: &mut Report) -> Vec<Team> {
    let at = rep.map.field("teams");
    let on_grid: Vec<u32> = {
        let mut d: Vec<u32> = grid.spawns.iter().map(|s| s.0).collect();
        d.sort_unstable();
        d
    };
    let mut owner: BTreeMap<u32, Team> = BTreeMap::new();
    for &(team, file) in sides {
        let n = team.as_str();
        if file.spawns.is_empty() || file.spawns.len() > MAX_TEAM_SPAWNS {
            let msg = format!(
                "team {n} lists {} spawns; a team has 1 to {MAX_TEAM_SPAWNS} cooks",
                file.spawns.len()
            );
            rep.push(ErrorCode::TeamSpawns, at, msg);
        }
        for &digit in &file.spawns {
            let known = u32::try_from(digit).ok().filter(|d| on_grid.contains(d));
            let Some(d) = known else {
                let msg = format!("team {n} names spawn {digit}, which is not on the grid");
                rep.push(ErrorCode::TeamSpawns, at, msg);
                continue;
            };
            if let Some(first) = owner.insert(d, team) {
                let msg = format!(
                    "spawn {d} is on team {} and again on team {n}; a spawn belongs to one team",
                    first.as_str()
                );
                rep.push(ErrorCode::TeamSpawns, at, msg);
            }
        }
    }
    let mut spawn_team = Vec::with_capacity(on_grid.len());
    for d in on_grid {
        match owner.get(&d) {
            Some(&team) => spawn_team.push(team),
            None => {
                let msg = format!("spawn {d} is on no team; list it under `a` or `b`");
                rep.push(ErrorCode::TeamSpawns, at, msg);
            }
        }
    }
    spawn_team
}

/// Each serving window on exactly one team, at least one a team: (station index, team) in
/// station order.
fn check_windows(
    sides: &[(Team, &TeamFile); 2],
    grid: &Grid,
    rep: &mut Report,
) -> Vec<(u16, Team)> {
    let at = rep.map.field("teams");
    let mut owner: BTreeMap<usize, Team> = BTreeMap::new();
    for &(team, file) in sides {
        let n = team.as_str();
        if file.windows.is_empty() {
            let msg = format!("team {n} has no serving window; list a `W` cell under its windows");
            rep.push(ErrorCode::TeamWindows, at, msg);
        }
        for &(x, y) in &file.windows {
            let index = grid.stations.iter().position(|&(kind, cell, _)| {
                kind == StationKind::Serve && (cell.0 as i64, cell.1 as i64) == (x, y)
            });
            let Some(index) = index else {
                let msg = format!("team {n}'s window ({x}, {y}) is not a serving window `W`");
                rep.push(ErrorCode::TeamWindows, at, msg);
                continue;
            };
            if let Some(first) = owner.insert(index, team) {
                let msg = format!(
                    "window ({x}, {y}) is on team {} and again on team {n}; a window scores for one team",
                    first.as_str()
                );
                rep.push(ErrorCode::TeamWindows, at, msg);
            }
        }
    }
    for (index, &(kind, (x, y), _)) in grid.stations.iter().enumerate() {
        if kind == StationKind::Serve && !owner.contains_key(&index) {
            let msg = format!("the serving window at ({x}, {y}) is on no team");
            rep.push(ErrorCode::TeamWindows, at, msg);
        }
    }
    owner.into_iter().map(|(i, t)| (i as u16, t)).collect()
}

/// Each team's cooks can reach at least one of its own windows (on a sound grid).
fn check_reach(sides: &[(Team, &TeamFile); 2], grid: &Grid, rep: &mut Report) {
    if !grid.sound {
        return;
    }
    for &(team, file) in sides {
        let reached = file.spawns.iter().any(|&digit| {
            let Some(&(_, start, _)) = grid.spawns.iter().find(|s| s.0 as i64 == digit) else {
                return false;
            };
            let region = flood(grid, start);
            file.windows.iter().any(|&(x, y)| usable_from(grid, &region, (x as i32, y as i32)))
        });
        if !reached {
            let msg = format!("no cook of team {} can reach one of its windows", team.as_str());
            rep.push(ErrorCode::TeamWindows, rep.map.field("teams"), msg);
        }
    }
}
