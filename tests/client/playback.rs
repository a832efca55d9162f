//! `play --bundle`: a recorded round played back in the real game window. The bundle is a real
//! one (a 200-tick round of random cooks through the server's recorder, `fuzz::loaders`); the
//! window plays it at 8× and says, from the room's own hash at the last tick, that it came out
//! as the bundle's final hash. An edited bundle is refused by name before any window opens.

use super::{assert_real_frame, run_window, temp_dir, xvfb_or_skip};
use std::process::Command;
use undercooked::fuzz::loaders::sample_bundle;
use undercooked::level::recipes::parse_recipes;
use undercooked::replay::bundle::Bundle;

/// The sample bundle, as text and parsed.
fn sample() -> (String, Bundle) {
    let root = env!("CARGO_MANIFEST_DIR");
    let source = std::fs::read_to_string(format!("{root}/assets/recipes.ron")).expect("recipes");
    let book = parse_recipes(source.as_bytes(), "recipes").expect("the shipped recipes");
    // `sample_bundle` reads `levels/tutorial.ron` relative to the working directory, which
    // cargo sets to the crate's root for a test.
    let text = String::from_utf8(sample_bundle(&source, &book).expect("a sample bundle"))
        .expect("RON text");
    let bundle = ron::from_str(&text).expect("the bundle parses");
    (text, bundle)
}

#[test]
fn an_edited_bundle_is_refused_by_name_before_a_window_opens() {
    let dir = temp_dir("bundle-edited");
    let (_, mut bundle) = sample();
    bundle.level_source.push_str("\n// edited\n");
    let file = dir.join("edited.ron");
    std::fs::write(&file, bundle.to_ron()).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_undercooked"))
        .args(["play", "--bundle"])
        .arg(&file)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("UNDERCOOKED_SAVE", dir.join("save.json"))
        .output()
        .expect("run the game");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("invalid bundle: the level source does not match its hash"), "{err}");
    let missing = Command::new(env!("CARGO_BIN_EXE_undercooked"))
        .args(["play", "--bundle"])
        .arg(dir.join("nowhere.ron"))
        .output()
        .expect("run the game");
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read bundle"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bundle_plays_back_in_the_window_to_its_own_final_hash_under_xvfb() {
    let Some(xvfb) = xvfb_or_skip() else { return };
    let dir = temp_dir("bundle-playback");
    let (text, bundle) = sample();
    let file = dir.join("ACDEF-1.ron");
    std::fs::write(&file, text).expect("write");
    let png = dir.join("playback.png");
    let (w, h) = (640u32, 360u32);
    let (said, log) = run_window(
        Command::new(xvfb)
            .args(["-a", "-s", "-screen 0 1024x768x24"])
            .arg(env!("CARGO_BIN_EXE_undercooked"))
            .args(["play", "--bundle"])
            .arg(&file)
            .args(["--speed", "8", "--screenshot"])
            .arg(&png)
            .args(["--after-ticks", &bundle.ticks.to_string(), "--size", &format!("{w}x{h}")]),
        &dir,
    );
    let want = format!(
        "bundle playback: tick {} final hash {} matches the bundle",
        bundle.ticks, bundle.final_hash
    );
    assert!(log.contains(&want), "no match line ({want}):\n{log}");
    assert!(said.contains(&format!("screenshot: tick {}", bundle.ticks)), "{said}");
    assert_real_frame(&png, (w, h), &log);
    let _ = std::fs::remove_dir_all(&dir);
}
