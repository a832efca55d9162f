//! Issue 31's emotes in the client: the button and a direction pick one (and the cook stands
//! still meanwhile), the bindings' defaults and an older config file, the bubble over the cook
//! and the option that hides other players', and, under Xvfb, a headless player's emote drawn
//! in a real game window on the same room.

use super::{assert_real_frame, input_app, temp_dir, xvfb_or_skip};
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use leafwing_input_manager::prelude::*;
use std::process::{Command, Stdio};
use undercooked::client::hud::emotes::{EmoteBubble, EmoteBubblePlugin};
use undercooked::client::input::{CookAction, Device, emote_from_action, frame_from_action};
use undercooked::client::settings::access::Accessibility;
use undercooked::client::state::AppState;
use undercooked::net::client::emotes::{EmoteHeard, EmoteSource};
use undercooked::protocol::emote::Emote;

fn after(app: &mut App, player: Entity, press: &[KeyCode], release: &[KeyCode]) -> State2 {
    for k in press {
        k.press(app.world_mut());
    }
    for k in release {
        k.release(app.world_mut());
    }
    app.update();
    let state = app.world().get::<ActionState<CookAction>>(player).expect("action state");
    (emote_from_action(state), frame_from_action(state).0)
}

type State2 = (Option<Emote>, (i16, i16));

#[test]
fn the_emote_button_and_a_direction_pick_an_emote_and_the_cook_stands() {
    let (mut app, p) = input_app(Device::KeyboardLeft);
    assert_eq!(after(&mut app, p, &[KeyCode::KeyW], &[]), (None, (0, -1000)), "W walks");
    assert_eq!(after(&mut app, p, &[KeyCode::KeyQ], &[]), (Some(Emote::Here), (0, 0)));
    assert_eq!(
        after(&mut app, p, &[KeyCode::KeyD], &[KeyCode::KeyW]),
        (Some(Emote::Thanks), (0, 0))
    );
    assert_eq!(after(&mut app, p, &[KeyCode::KeyA], &[KeyCode::KeyD]), (Some(Emote::Help), (0, 0)));
    assert_eq!(
        after(&mut app, p, &[KeyCode::KeyS], &[KeyCode::KeyA]),
        (Some(Emote::Hurry), (0, 0))
    );
    assert_eq!(after(&mut app, p, &[], &[KeyCode::KeyS]), (None, (0, 0)), "Q alone: nothing");
    assert_eq!(after(&mut app, p, &[KeyCode::KeyS], &[KeyCode::KeyQ]), (None, (0, 1000)));
    // The second keyboard half's emote is Slash, and the first half's Q is not its.
    let (mut app, p) = input_app(Device::KeyboardRight);
    assert_eq!(after(&mut app, p, &[KeyCode::KeyQ, KeyCode::ArrowUp], &[]), (None, (0, -1000)));
    assert_eq!(after(&mut app, p, &[KeyCode::Slash], &[]), (Some(Emote::Here), (0, 0)));
}

/// Emote defaults on every device, cleared on purpose stays cleared, and a config.ron from
/// before the button existed gets the defaults (but not a key the player took elsewhere).
#[test]
fn the_emote_button_has_defaults_and_an_older_config_gets_them() {
    use undercooked::client::settings::config::{
        Bindings, Control, Press, Slot, bindings_text, parse_bindings,
    };
    let b = Bindings::default();
    assert_eq!(b.get(Slot::Keyboard1, Control::Emote), Some(Press::Key(KeyCode::KeyQ)));
    assert_eq!(b.get(Slot::Keyboard2, Control::Emote), Some(Press::Key(KeyCode::Slash)));
    assert_eq!(b.get(Slot::Gamepad, Control::Emote), Some(Press::Button(GamepadButton::North)));
    assert!(b.check().is_ok());
    let mut cleared = Bindings::default();
    cleared.rebind(Slot::Keyboard1, Control::Emote, None).expect("the emote may be cleared");
    assert!(cleared.rebind(Slot::Keyboard1, Control::Dash, None).is_err(), "the dash not");
    let text = bindings_text(&cleared);
    assert_eq!(parse_bindings(&text, "c.ron").unwrap(), cleared, "a cleared emote stays so");
    let older = |b: &Bindings| {
        let text = bindings_text(b);
        let kept: Vec<&str> =
            text.lines().filter(|l| !l.trim_start().starts_with("emote:")).collect();
        assert!(kept.len() + 3 == text.lines().count(), "one emote line per device");
        kept.join("\n")
    };
    assert_eq!(parse_bindings(&older(&Bindings::default()), "o.ron").unwrap(), Bindings::default());
    let mut taken = Bindings::default();
    taken.keyboard_1.emote = None;
    taken.rebind(Slot::Keyboard1, Control::Dash, Some(Press::Key(KeyCode::KeyQ))).unwrap();
    let loaded = parse_bindings(&older(&taken), "o.ron").expect("still loads");
    assert_eq!(loaded.keyboard_1.dash, Some(KeyCode::KeyQ));
    assert_eq!(loaded.label(Slot::Keyboard1, Control::Emote), "-", "Q was taken: left unbound");
    assert_eq!(loaded.keyboard_2.emote, Some(KeyCode::Slash));
}

fn bubble_app(hide: bool) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    app.insert_state(AppState::Playing);
    app.insert_resource(Accessibility { hide_emotes: hide, ..Accessibility::default() });
    app.add_plugins(EmoteBubblePlugin);
    app.update();
    app
}

fn bubbles(app: &mut App) -> Vec<(u8, Emote, String)> {
    let w = app.world_mut();
    let mut q = w.query::<(&EmoteBubble, &Text)>();
    let mut v: Vec<_> = q.iter(w).map(|(b, t)| (b.seat, b.emote, t.0.clone())).collect();
    v.sort();
    v
}

#[test]
fn an_emote_heard_is_a_bubble_a_newer_replaces_it_and_others_can_be_hidden() {
    let heard = |seat, emote, source| EmoteHeard { seat, emote, source };
    let mut app = bubble_app(false);
    app.world_mut().write_message(heard(1, Emote::Help, EmoteSource::OtherPlayer));
    app.world_mut().write_message(heard(0, Emote::Here, EmoteSource::ThisWindow));
    app.update();
    let shown = bubbles(&mut app);
    assert_eq!(shown, vec![(0, Emote::Here, "Here!".into()), (1, Emote::Help, "Help!".into())]);
    app.world_mut().write_message(heard(1, Emote::Thanks, EmoteSource::OtherPlayer));
    app.update();
    assert_eq!(bubbles(&mut app)[1], (1, Emote::Thanks, "Thanks!".into()), "one per cook");
    assert_eq!(bubbles(&mut app).len(), 2);
    // Hidden: another player's is not drawn; this window's own still is.
    let mut app = bubble_app(true);
    app.world_mut().write_message(heard(1, Emote::Help, EmoteSource::OtherPlayer));
    app.world_mut().write_message(heard(0, Emote::Hurry, EmoteSource::ThisWindow));
    app.update();
    assert_eq!(bubbles(&mut app), vec![(0, Emote::Hurry, "Hurry!".into())]);
}

/// Under Xvfb, over real processes: a server, a headless player making "Here!" every 1.5 s
/// (`join --headless --emote here`), and the game window joined to the same room. The window
/// draws the emote over the other player's cook, as another player's (its log says so; the
/// screenshot shows it).
#[test]
fn a_headless_players_emote_is_drawn_in_the_window_under_xvfb() {
    use std::io::{BufRead, BufReader, Read};
    let Some(xvfb) = xvfb_or_skip() else { return };
    let dir = temp_dir("emote-window");
    let data = dir.join("data");
    let server = super::banner(
        &[
            "--headless",
            "--port",
            "0",
            "--web-port",
            "0",
            "--bind",
            "127.0.0.1",
            "--levels",
            "levels",
            "--data-dir",
            data.to_str().expect("a path"),
        ],
        "web http://",
    );
    // The window makes the room (its first line names it) and waits in its lobby for Bob, so
    // both play the round: a player who joins a live round only watches it.
    let png = dir.join("emote.png");
    let mut window = Command::new(&xvfb)
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_undercooked"))
        .args(["join", &server.addr, "--create", "--name", "Ann"])
        .arg("--screenshot")
        .arg(&png)
        .args(["--after-ticks", "120"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("UNDERCOOKED_SAVE", dir.join("save.json"))
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(dir.join("window.log")).expect("a log file"))
        .spawn()
        .expect("run xvfb-run");
    let mut out = BufReader::new(window.stdout.take().expect("piped"));
    let mut first = String::new();
    out.read_line(&mut first).expect("the room line");
    let code = first.trim().strip_prefix("room: ").expect("room: CODE first").to_string();
    let mut bob = Command::new(env!("CARGO_BIN_EXE_undercooked"))
        .args(["join", &server.addr, "--room", &code, "--headless", "--name", "Bob"])
        .args(["--inputs", "idle", "--emote", "here", "--seconds", "120"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the headless player starts");
    let drain = std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = out.read_to_string(&mut rest);
        rest
    });
    // Bounded: a window that never takes its picture fails the test, not CI's clock.
    let end = std::time::Instant::now() + std::time::Duration::from_secs(300);
    let status = loop {
        if let Some(status) = window.try_wait().expect("the window's status") {
            break Some(status);
        }
        if std::time::Instant::now() > end {
            let _ = window.kill();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    let rest = drain.join().unwrap_or_default();
    let err = std::fs::read_to_string(dir.join("window.log")).unwrap_or_default();
    let log = format!("{first}{rest}{err}");
    let status = status.unwrap_or_else(|| panic!("no screenshot within 300 s:\n{log}"));
    assert!(status.success(), "the game exited with {status:?}:\n{log}");
    let drawn = log.lines().filter(|l| l.contains("emote shown") && l.contains("here")).count();
    assert!(drawn >= 2, "the window drew Bob's emotes ({drawn}):\n{log}");
    assert!(log.contains("OtherPlayer"), "as another player's:\n{log}");
    assert_real_frame(&png, (1280, 720), &log);
    let _ = bob.kill();
    let _ = bob.wait();
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
