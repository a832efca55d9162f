//! A versus round in the real game window: one idle player on team A against a planner bot on
//! team B, played to the buzzer under Xvfb. What the HUD said is read back from the window's own
//! UI texts (`screenshot: score line` / `round end` lines): both teams' scores side by side, and
//! a round end naming team B the winner with a tally line for each team.

use super::{assert_real_frame, run_window, temp_dir, xvfb_or_skip};
use std::process::Command;

/// The bound on the window's run: a 20-second round in a debug build under software GL takes
/// about a minute and a half here; a hang must not hold the suite.
const WINDOW_LIMIT_SECS: &str = "420";

#[test]
fn a_versus_round_shows_both_scores_and_names_the_winner_under_xvfb() {
    let Some(xvfb) = xvfb_or_skip() else { return };
    let dir = temp_dir("versus-window");
    let png = dir.join("versus.png");
    let (w, h) = (640u32, 360u32);
    let (said, log) = run_window(
        Command::new("timeout")
            .arg(WINDOW_LIMIT_SECS)
            .arg(xvfb)
            .args(["-a", "-s", "-screen 0 1024x768x24"])
            .arg(env!("CARGO_BIN_EXE_undercooked"))
            .args(["play", "--level", "levels_versus/split_salad.ron"])
            // Seat 0 (team A) is a keyboard nobody presses; the bot in seat 1 cooks for team B.
            .args(["--players", "1", "--bots", "1", "--seed", "3", "--round-seconds", "20"])
            .args(["--at-round-end", "--screenshot"])
            .arg(&png)
            .args(["--size", &format!("{w}x{h}")]),
        &dir,
    );
    let line = |start: &str| {
        said.lines()
            .find_map(|l| l.strip_prefix(start))
            .unwrap_or_else(|| panic!("no `{start}` line:\n{said}\n{log}"))
            .to_string()
    };
    let score = line("screenshot: score line: ");
    let (a, b) = score.split_once("vs").unwrap_or_else(|| panic!("two sides: {score}"));
    let points = |side: &str, team: &str| -> u32 {
        let n = side.trim().strip_prefix(team).unwrap_or_else(|| panic!("{team}: {score}"));
        n.split_whitespace().next().and_then(|n| n.parse().ok()).expect("a score")
    };
    assert_eq!(points(a, "A "), 0, "nobody cooked for team A: {score}");
    assert!(points(b, "B ") > 0, "team B's bot served: {score}");
    let end = line("screenshot: round end: ");
    // A text's own lines come joined by " / " (the tally is one text, a line a team).
    let rows: Vec<&str> = end.split(" | ").flat_map(|r| r.split(" / ")).collect();
    assert_eq!(rows.get(1), Some(&"Team B wins!"), "the winner is the headline: {end}");
    assert!(rows.iter().any(|r| r.starts_with("Team A 0 (0 served")), "team A's tally: {end}");
    assert!(rows.iter().any(|r| r.starts_with(&format!("Team B {}", points(b, "B ")))), "{end}");
    assert_real_frame(&png, (w, h), &log);
    let _ = std::fs::remove_dir_all(&dir);
}
