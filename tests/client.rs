//! Client tests: headless Apps for input maps, nudges and interpolation, local planner bots
//! and the designer overlay, and the real game under Xvfb taking a screenshot (skipped,
//! loudly, only where Xvfb is not installed).
#![cfg(feature = "client")]

use approx::assert_abs_diff_eq;
use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, Image, ImageSampler, ImageType, TextureFormatPixelInfo};
use bevy::input::InputPlugin;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use undercooked::client::hud::nudges::{Nudge, spawn_nudges};
use undercooked::client::input::{CookAction, Device, frame_from_action, input_map};
use undercooked::client::kitchen::interp::{DrawnAt, Trail, blend_cooks};
use undercooked::net::client::outbox::Outbox;
use undercooked::project::RoomTick;
use undercooked::sim::events::{DeniedReason, SimEvent};

#[path = "client/board.rs"]
mod board;
#[path = "client/designer.rs"]
mod designer;
#[path = "client/editor.rs"]
mod editor;
#[path = "client/emotes.rs"]
mod emotes;
#[path = "client/playback.rs"]
mod playback;
#[path = "client/versus.rs"]
mod versus;

/// An app with input devices and the cook action map, no window.
fn input_app(device: Device) -> (App, Entity) {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, InputPlugin, InputManagerPlugin::<CookAction>::default()));
    let player = app.world_mut().spawn(input_map(device)).id();
    app.update();
    (app, player)
}

fn frame_after(app: &mut App, player: Entity, keys: &[KeyCode]) -> ((i16, i16), bool) {
    for k in keys {
        k.press(app.world_mut());
    }
    app.update();
    let state = app.world().get::<ActionState<CookAction>>(player).expect("action state");
    frame_from_action(state)
}

#[test]
fn left_keyboard_half_makes_frames() {
    let (mut app, p) = input_app(Device::KeyboardLeft);
    assert_eq!(frame_after(&mut app, p, &[]), ((0, 0), false), "idle keys, idle frame");
    assert_eq!(frame_after(&mut app, p, &[KeyCode::KeyD, KeyCode::Space]), ((1000, 0), true));
    let (mut app, p) = input_app(Device::KeyboardLeft);
    // W is up on screen, which is −y in the grid (rows grow downward).
    assert_eq!(frame_after(&mut app, p, &[KeyCode::KeyW]), ((0, -1000), false));
    let (mut app, p) = input_app(Device::KeyboardLeft);
    assert_eq!(
        frame_after(&mut app, p, &[KeyCode::KeyS, KeyCode::KeyA, KeyCode::KeyE]),
        ((-1000, 1000), true)
    );
}

#[test]
fn right_keyboard_half_makes_frames_and_ignores_the_left() {
    let (mut app, p) = input_app(Device::KeyboardRight);
    assert_eq!(frame_after(&mut app, p, &[KeyCode::KeyD, KeyCode::Space]), ((0, 0), false));
    assert_eq!(frame_after(&mut app, p, &[KeyCode::ArrowLeft, KeyCode::Enter]), ((-1000, 0), true));
    let (mut app, p) = input_app(Device::KeyboardRight);
    assert_eq!(
        frame_after(&mut app, p, &[KeyCode::ArrowDown, KeyCode::ControlRight]),
        ((0, 1000), true)
    );
}

#[test]
fn outbox_numbers_frames_in_send_order() {
    let mut outbox = Outbox::default();
    outbox.send(1, (1000, 0), true, false);
    outbox.send(0, (0, -1000), false, true);
    let seqs: Vec<(u8, u32)> = outbox.frames.iter().map(|(s, f)| (*s, f.seq)).collect();
    assert_eq!(seqs, vec![(1, 0), (0, 1)]);
    assert_eq!(outbox.frames[0].1.mv, (1000, 0));
    assert!(outbox.frames[0].1.face.is_none());
    assert_eq!((outbox.frames[0].1.dash, outbox.frames[1].1.dash), (false, true));
}

/// The second button's defaults: Left Shift on keyboard 1, Right Shift on keyboard 2 (and not
/// the other half's), X / West on a gamepad; the stick and action are unchanged by it.
#[test]
fn the_second_button_is_bound_by_default_on_every_device() {
    use undercooked::client::input::dash_from_action;
    use undercooked::client::settings::config::{Bindings, Control, Press, Slot};
    let dash_after = |device: Device, keys: &[KeyCode]| {
        let (mut app, p) = input_app(device);
        for k in keys {
            k.press(app.world_mut());
        }
        app.update();
        let state = app.world().get::<ActionState<CookAction>>(p).expect("action state");
        (frame_from_action(state), dash_from_action(state))
    };
    assert_eq!(dash_after(Device::KeyboardLeft, &[]), (((0, 0), false), false));
    assert_eq!(dash_after(Device::KeyboardLeft, &[KeyCode::ShiftLeft]), (((0, 0), false), true));
    assert_eq!(dash_after(Device::KeyboardLeft, &[KeyCode::ShiftRight]), (((0, 0), false), false));
    assert_eq!(
        dash_after(Device::KeyboardRight, &[KeyCode::ShiftRight, KeyCode::ArrowUp]),
        (((0, -1000), false), true)
    );
    let b = Bindings::default();
    assert_eq!(b.get(Slot::Gamepad, Control::Dash), Some(Press::Button(GamepadButton::West)));
    assert_eq!(b.label(Slot::Keyboard1, Control::Dash), "Left Shift");
    // The second button is required: it can be moved, not cleared.
    let mut b = Bindings::default();
    assert!(b.rebind(Slot::Keyboard1, Control::Dash, None).is_err());
    b.rebind(Slot::Keyboard1, Control::Dash, Some(Press::Key(KeyCode::KeyZ))).unwrap();
    let (mut app, p) = input_app_with(b.map(Device::KeyboardLeft));
    KeyCode::KeyZ.press(app.world_mut());
    app.update();
    let state = app.world().get::<ActionState<CookAction>>(p).expect("action state");
    assert!(dash_from_action(state), "the rebound key dashes");
}

/// A config.ron written before the second button existed still loads: each slot gets its
/// default dash unless the player already put that key on another control, where it stays
/// unbound rather than refusing the whole file.
#[test]
fn a_config_from_before_the_second_button_loads_with_its_default() {
    use undercooked::client::settings::config::{
        Bindings, Control, Slot, bindings_text, parse_bindings,
    };
    let old = |b: &Bindings| {
        let text = bindings_text(b);
        let lines: Vec<&str> =
            text.lines().filter(|l| !l.trim_start().starts_with("dash:")).collect();
        assert!(lines.len() < text.lines().count(), "the dash lines were there to drop");
        lines.join("\n")
    };
    let loaded = parse_bindings(&old(&Bindings::default()), "old.ron").expect("an old file loads");
    assert_eq!(loaded, Bindings::default());
    let mut taken = Bindings::default();
    taken.keyboard_2.alt_act = Some(KeyCode::ShiftLeft);
    taken.keyboard_1.dash = None;
    let loaded = parse_bindings(&old(&taken), "old.ron").expect("still loads");
    assert_eq!(loaded.keyboard_2.alt_act, Some(KeyCode::ShiftLeft));
    assert_eq!(loaded.label(Slot::Keyboard1, Control::Dash), "-", "left for the player to bind");
    assert_eq!(loaded.keyboard_2.dash, Some(KeyCode::ShiftRight));
}

#[test]
fn a_denied_event_becomes_a_nudge_with_its_words() {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins);
    app.add_message::<RoomTick>();
    app.add_systems(Update, spawn_nudges);
    let room = app.world_mut().spawn_empty().id();
    for reason in [DeniedReason::StationBusy, DeniedReason::HandsFull] {
        app.world_mut().write_message(RoomTick {
            room,
            tick: 7,
            events: vec![
                SimEvent::Chopped { station: 1, item: undercooked::sim::ids::ItemId(3) },
                SimEvent::Denied { seat: 2, reason, why: None },
            ],
        });
        app.update();
        let mut q = app.world_mut().query::<(&Nudge, &Text)>();
        let nudges: Vec<(u8, String, String)> =
            q.iter(app.world()).map(|(n, t)| (n.seat, n.text.clone(), t.0.clone())).collect();
        // One nudge per seat: the newer refusal replaces the older one.
        assert_eq!(nudges, vec![(2, reason.nudge().to_string(), reason.nudge().to_string())]);
    }
    assert_eq!(DeniedReason::StationBusy.nudge(), "station busy");
}

#[test]
fn interpolation_blends_between_the_last_two_ticks() {
    let mut trail = Trail::new((1_000_000, 1_000_000), 10);
    trail.push((2_000_000, 3_000_000), 11);
    for (alpha, x, y) in
        [(0.0, 1.0, 1.0), (0.25, 1.25, 1.5), (0.5, 1.5, 2.0), (0.75, 1.75, 2.5), (1.0, 2.0, 3.0)]
    {
        let p = trail.at(alpha);
        assert_abs_diff_eq!(p.x, x, epsilon = 1e-5);
        assert_abs_diff_eq!(p.y, y, epsilon = 1e-5);
    }
    // A tick with no movement: the cook is drawn still, not replaying the last step.
    trail.push((2_000_000, 3_000_000), 12);
    assert_abs_diff_eq!(trail.at(0.25).x, 2.0, epsilon = 1e-6);
}

#[test]
fn interpolation_follows_the_fixed_clock_overstep() {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins);
    app.insert_resource(Time::<Fixed>::from_duration(Duration::from_millis(50)));
    app.add_systems(Update, blend_cooks);
    let mut trail = Trail::new((0, 0), 0);
    trail.push((4_000_000, -2_000_000), 1);
    let cook = app.world_mut().spawn((trail, DrawnAt::default())).id();
    for quarter in 1..=3u32 {
        let mut fixed = Time::<Fixed>::from_duration(Duration::from_millis(50));
        fixed.accumulate_overstep(Duration::from_micros(12_500 * quarter as u64));
        app.insert_resource(fixed);
        app.world_mut().run_schedule(Update);
        let drawn = app.world().get::<DrawnAt>(cook).expect("drawn").0;
        let a = quarter as f32 / 4.0;
        assert_abs_diff_eq!(drawn.x, 4.0 * a, epsilon = 1e-4);
        assert_abs_diff_eq!(drawn.y, -2.0 * a, epsilon = 1e-4);
    }
}

/// `xvfb-run`, or `None` after saying the window test is skipped and how to install it.
fn xvfb_or_skip() -> Option<PathBuf> {
    let found = xvfb_run();
    if found.is_none() {
        eprintln!(
            "SKIPPED: xvfb-run is not installed (apt-get install xvfb mesa-vulkan-drivers; .ci/run does)"
        );
    }
    found
}

fn xvfb_run() -> Option<PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| PathBuf::from(d).join("xvfb-run"))
        .find(|p| p.is_file())
}

/// The screenshot at `png` is a real frame: a PNG of the window's `size`, not one flat colour
/// (`log`: the game's output, shown when it is missing).
fn assert_real_frame(png: &Path, (w, h): (u32, u32), log: &str) {
    let bytes = std::fs::read(png)
        .unwrap_or_else(|e| panic!("no screenshot at {}: {e}\n{log}", png.display()));
    let img = Image::from_buffer(
        &bytes,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::Default,
        RenderAssetUsages::default(),
    )
    .expect("a PNG");
    assert_eq!((img.width(), img.height()), (w, h), "the screenshot is the window's size");
    let data = img.data.as_ref().expect("pixels");
    let px = img.texture_descriptor.format.pixel_size().expect("plain format");
    let first = &data[..px];
    let distinct = data.chunks(px).filter(|p| *p != first).count();
    assert!(distinct > (w * h / 10) as usize, "the screenshot is (nearly) one flat colour");
}

#[test]
fn the_game_renders_a_kitchen_under_xvfb() {
    let Some(xvfb) = xvfb_or_skip() else { return };
    let dir = std::env::temp_dir().join(format!("undercooked-client-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let png = dir.join("kitchen.png");
    let (w, h) = (640u32, 360u32);
    let out = Command::new(xvfb)
        .args(["-a", "-s", "-screen 0 1024x768x24"])
        .arg(env!("CARGO_BIN_EXE_undercooked"))
        .args(["play", "--level", "tutorial", "--players", "2", "--autoplay", "random"])
        .arg("--screenshot")
        .arg(&png)
        .args(["--after-ticks", "20", "--size", &format!("{w}x{h}")])
        // The F3 overlay too, so the real UI renderer draws it (and its refresh runs).
        .arg("--perf")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("UNDERCOOKED_SAVE", dir.join("save.json"))
        .output()
        .expect("run xvfb-run");
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the game exited with {:?}:\n{log}", out.status);
    assert_real_frame(&png, (w, h), &log);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A throw in flight, drawn: the golden `throw_caught` played in the real game (`--script`),
/// the sim held at tick 48 (the onion thrown at tick 44 is mid-arc), a screenshot taken there.
/// The game reports from its own state what the picture shows — one flying item drawn and one
/// shadow under it — and the PNG is a real frame of the window's size.
#[test]
fn a_throw_in_flight_is_drawn_with_its_shadow_under_xvfb() {
    let Some(xvfb) = xvfb_or_skip() else { return };
    let dir = temp_dir("throw-shot");
    let png = dir.join("throw.png");
    let (w, h) = (640u32, 360u32);
    let (said, log) = run_window(
        Command::new(xvfb)
            .args(["-a", "-s", "-screen 0 1024x768x24"])
            .arg(env!("CARGO_BIN_EXE_undercooked"))
            .args(["play", "--level", "goldens/levels/moves_yard.ron"])
            .args(["--script", "goldens/scripts/throw_caught.ron", "--hold-at-tick", "48"])
            .arg("--screenshot")
            .arg(&png)
            .args(["--after-ticks", "48", "--size", &format!("{w}x{h}")]),
        &dir,
    );
    assert!(
        said.contains("screenshot: tick 48, items in flight drawn 1, flight shadows 1"),
        "at the shot the game had no throw drawn in flight:\n{said}"
    );
    assert_real_frame(&png, (w, h), &log);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Moving Day in the real window: `play --mode tandem` with the porter at both handles
/// (`--autoplay bot`) runs the couch on its 24 Hz clock, takes a screenshot, and the game's
/// own exit line says the couch left its start (from the room's state, not pixels); the run's
/// replay bundle is written on quitting and `replay check` reproduces it.
#[test]
fn tandem_runs_and_moves_the_couch_under_xvfb() {
    let Some(xvfb) = xvfb_or_skip() else { return };
    let dir = std::env::temp_dir().join(format!("undercooked-tandem-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let png = dir.join("tandem.png");
    let out = Command::new(xvfb)
        .args(["-a", "-s", "-screen 0 1024x768x24"])
        .arg(env!("CARGO_BIN_EXE_undercooked"))
        .args(["play", "--mode", "tandem", "--partner", "porter", "--autoplay", "bot"])
        .args(["--seed", "3", "--after-ticks", "72", "--size", "1280x720"])
        .arg("--screenshot")
        .arg(&png)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("UNDERCOOKED_SAVE", dir.join("save.json"))
        .output()
        .expect("run xvfb-run");
    let log = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "the game exited with {:?}:\n{log}", out.status);
    assert!(png.is_file(), "no screenshot at {}\n{log}", png.display());
    let line = stdout
        .lines()
        .find(|l| l.starts_with("tandem: seed 3 "))
        .unwrap_or_else(|| panic!("no tandem report line in:\n{stdout}\n{log}"));
    let field = |name: &str| -> Vec<i64> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| *w == name).expect(name);
        words[at + 1].split(',').map(|n| n.parse().expect("a number")).collect()
    };
    assert!(field("tick")[0] >= 72, "ran at least the ticks asked for: {line}");
    let (start, now) = (field("start_mm"), field("centre_mm"));
    let moved = (now[0] - start[0]).abs() + (now[1] - start[1]).abs();
    assert!(moved > 300, "the couch moved more than 0.3 m in three seconds: {line}");
    // Quitting mid-run wrote the run's replay bundle beside a window-hosted game's (the save
    // file's folder, `host/bundles`), and it replays to its chain.
    let bundle = dir.join("host/bundles/local-1.tandem-bundle.ron");
    assert!(bundle.is_file(), "no bundle at {}\n{log}", bundle.display());
    let check = Command::new(env!("CARGO_BIN_EXE_undercooked"))
        .args(["replay", "check"])
        .arg(&bundle)
        .output()
        .expect("run replay check");
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "replay check of the window's bundle: {said}");
    assert!(said.contains("(quit), seed 3"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The camera frames the whole kitchen at 4:3, 16:9 and 21:9 on every campaign level: one game
/// process under Xvfb walks the cases (`play --check-framing`), resizing its own window, and
/// projects every tile corner through the real camera (`Camera::world_to_viewport`).
#[test]
fn the_camera_frames_every_campaign_kitchen_at_every_aspect_under_xvfb() {
    use undercooked::client::capture::framing::FRAMING_SIZES;
    use undercooked::level::{load_campaign, load_recipes_file};
    let Some(xvfb) = xvfb_or_skip() else { return };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let book = load_recipes_file(&root.join("assets/recipes.ron")).expect("recipe book");
    let campaign = load_campaign(&root.join("levels"), &book).expect("campaign");
    let dir = temp_dir("framing");
    let out = Command::new(xvfb)
        .args(["-a", "-s", "-screen 0 1920x1080x24"])
        .arg(env!("CARGO_BIN_EXE_undercooked"))
        .args(["play", "--check-framing", "--size", "640x360"])
        .current_dir(&root)
        .env("UNDERCOOKED_SAVE", dir.join("save.json"))
        .output()
        .expect("run xvfb-run");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let log = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("framing ")).collect();
    assert!(out.status.success(), "the check exited with {:?}:\n{stdout}\n{log}", out.status);
    assert_eq!(lines.len(), campaign.len() * FRAMING_SIZES.len(), "one line a case:\n{stdout}");
    for level in &campaign {
        for (w, h, _) in FRAMING_SIZES {
            let case = format!("framing {} {w}x{h} ", level.id);
            let line = lines.iter().find(|l| l.starts_with(&case)).expect("the case's line");
            assert!(line.contains(": inside: "), "{line}");
        }
    }
    assert!(stdout.contains(&format!("framing: {0}/{0} cases inside", lines.len())), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The online client's network half in a headless app (no window): it receives the room's
/// views from a real server on 127.0.0.1, marks itself ready, sends player 1's frames that the
/// server admits, turns `TickEvents` into `RoomTick`s — and never holds a `Room` or runs a sim
/// system.
#[test]
fn the_online_client_sees_the_room_sends_admitted_frames_and_runs_no_sim() {
    use bevy::state::app::StatesPlugin;
    use undercooked::client::online::connect;
    use undercooked::net::client::api::request_seat;
    use undercooked::net::client::seats::ClientSession;
    use undercooked::net::server::rooms::HostedRoom;
    use undercooked::net::server::worlds::{HostConfig, spawn_server};
    use undercooked::protocol::{CookView, GridView, LobbyPhase, LobbyView, RoomClock, RoomView};
    use undercooked::sim::room::Room;

    let dir = std::env::temp_dir().join(format!("uc-online-client-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let h = spawn_server(HostConfig { max_rooms: 4, ..HostConfig::loopback(dir) })
        .expect("server starts");
    let reply = request_seat(&h.addrs.web.to_string(), None, "Ann", None, 1).expect("a seat");

    #[derive(Resource, Default)]
    struct Ticks(u64);
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    connect(&mut app, &reply).expect("client starts");
    app.init_resource::<Ticks>();
    app.add_systems(Last, |mut r: MessageReader<RoomTick>, mut n: ResMut<Ticks>| {
        n.0 += r.read().count() as u64;
    });
    app.finish();
    app.cleanup();

    // Player 1 walks right and presses, every frame (what the input plugin puts in the outbox).
    let admitted = |h: &undercooked::net::server::worlds::ServerHandle| {
        let code = reply.code.clone();
        h.with_world(move |w| {
            let mut q = w.query::<&HostedRoom>();
            let round = q.iter(w).find(|r| r.code == code).and_then(|r| r.round);
            round
                .and_then(|r| w.get::<undercooked::sim::room::Room>(r))
                .map(|r| {
                    r.inputs.log().iter().filter(|(_, s, f)| *s == 0 && f.mv == (1000, 0)).count()
                })
                .unwrap_or(0)
        })
    };
    let end = std::time::Instant::now() + Duration::from_secs(60);
    let mut done = false;
    while std::time::Instant::now() < end && !done {
        app.world_mut().resource_mut::<Outbox>().send(0, (1000, 0), true, false);
        app.update();
        std::thread::sleep(Duration::from_millis(5));
        let w = app.world_mut();
        let views = w.query::<&RoomView>().iter(w).count() == 1
            && w.query::<&GridView>().iter(w).count() == 1
            && w.query::<&CookView>().iter(w).count() == 1
            && w.query::<&RoomClock>().iter(w).next().is_some_and(|c| c.tick >= 20);
        done = views && w.resource::<Ticks>().0 > 0 && admitted(&h) >= 5;
    }
    assert!(done, "views, RoomTicks and admitted frames within the patience");
    // The F3 overlay's network lines read the live connection.
    {
        use bevy_replicon_renet::RenetClient;
        use undercooked::client::perf::{NetReadings, net_readings};
        let client = app.world().get_resource::<RenetClient>();
        let link = app
            .world()
            .get_resource::<ClientSession>()
            .and_then(|s| Some((s.uplink()?, s.clock_now())));
        let NetReadings { rtt_ms, loss_pct, up, down, input } =
            net_readings(client, link).expect("connected: the overlay has network lines");
        assert!(up > 0.0 && down > 0.0, "frames go up and views come down: {up} / {down}");
        assert!((0.0..1000.0).contains(&rtt_ms) && (0.0..=100.0).contains(&loss_pct));
        let (delay, _late) = input.expect("acks arrived: the input line is shown");
        assert!(delay > 0.0, "frames are stamped ahead of the server's clock: {delay}");
    }
    let w = app.world_mut();
    let s = w.resource::<ClientSession>();
    assert_eq!(s.welcome.as_ref().map(|w| w.seats.clone()), Some(vec![0]));
    assert!(s.frames_sent >= 5 && s.events_received > 0);
    // The own cook is drawn from the prediction, near where the server has it (the stick
    // walks right, so the prediction is ahead by the input lead: well under a tile).
    let predictor = s.predictor().expect("the welcome started a prediction");
    assert!(predictor.stats.reconciles > 0, "authoritative ticks rebuilt it: {predictor:?}");
    let drawn = w
        .get_resource::<undercooked::client::kitchen::interp::PredictedCooks>()
        .and_then(|p| p.0.first().copied())
        .expect("the window draws its own cook from the prediction");
    assert_eq!(drawn.seat, 0);
    let (_, motion) = w
        .query::<(&CookView, &undercooked::protocol::CookMotion)>()
        .iter(w)
        .find(|(c, _)| c.seat == 0)
        .expect("seat 0's cook is replicated");
    let server = bevy::math::Vec2::new(motion.pos.0 as f32, motion.pos.1 as f32) / 1e6;
    assert!(drawn.at.distance(server) < 1.0, "drawn at {:?}, the server has {server:?}", drawn.at);
    let lobby = w.query::<&LobbyView>().iter(w).next().cloned().expect("the lobby is replicated");
    assert_eq!(lobby.phase, LobbyPhase::Round, "auto-ready started the round");
    assert!(lobby.seats.iter().all(|s| s.ready));
    assert!(
        undercooked::client::online::lobby_lines(&lobby, &[0], &[0])
            .starts_with(&format!("Room {}", reply.code))
    );
    // A window whose seat has no cook in the live round (it joined mid-round) is told so.
    let watching = undercooked::client::online::lobby_lines(&lobby, &[3], &[0]);
    assert!(watching.contains(undercooked::net::client::watching::WATCHING), "{watching}");

    // No simulation on the client: no Room, and no sim or projection system in any schedule.
    assert_eq!(w.query::<&Room>().iter(w).count(), 0, "the client holds no Room");
    // By set (every sim stage, and the projection's own system set) and, where Bevy keeps
    // system names, by name.
    let sim_systems = |app: &App| -> (usize, Vec<String>) {
        use bevy::ecs::schedule::{IntoSystemSet, SystemSet};
        use undercooked::sim::SimSystems as S;
        let stages = [
            S::ResolveInput,
            S::ActionGate,
            S::Movement,
            S::Stations,
            S::Freshness,
            S::Orders,
            S::Hazards,
            S::Round,
            S::Advance,
        ];
        let mut sets: Vec<_> = stages.iter().map(|s| s.intern()).collect();
        sets.push(IntoSystemSet::into_system_set(undercooked::project::project_rooms).intern());
        let mut all = 0;
        let mut sim = Vec::new();
        for (label, schedule) in app.world().resource::<Schedules>().iter() {
            for set in &sets {
                if schedule.graph().systems_in_set(*set).is_ok_and(|v| !v.is_empty()) {
                    sim.push(format!("{label:?}: {set:?}"));
                }
            }
            let Ok(systems) = schedule.systems() else { continue };
            for (_, system) in systems {
                all += 1;
                let name = system.name().to_string();
                if name.contains("::sim::") || name.contains("project_rooms") {
                    sim.push(name);
                }
            }
        }
        (all, sim)
    };
    let (all, sim) = sim_systems(&app);
    assert!(all > 20, "the schedules ran ({all} systems)");
    assert!(sim.is_empty(), "sim systems on the online client: {sim:?}");
    // The check itself sees sim systems where there are some (a stepped sim app).
    let mut control = undercooked::clock::headless_app();
    control.update();
    assert!(!sim_systems(&control).1.is_empty(), "the check finds a sim app's systems");
    h.stop();
}

/// The window in an online Tandem room with `--autoplay bot` (its network half in a headless
/// app): its seat is driven by the porter from the replicated view, so the server runs the
/// window's orders; the round fills the screen the scene draws, and the facts the server tells
/// of (a doorway passed) come through the same `TandemTick` stream a local run writes, onto
/// the HUD's beat line.
#[test]
fn the_window_drives_its_tandem_seat_with_the_porter_online_and_hears_the_beats() {
    use bevy::state::app::StatesPlugin;
    use undercooked::client::args::{Autoplay, Options, PlayArgs};
    use undercooked::client::online::connect;
    use undercooked::client::tandem::beats::{BeatLine, TandemBeatsPlugin, TandemTick};
    use undercooked::client::tandem::online::TandemOnlinePlugin;
    use undercooked::client::tandem::screen::TandemScreen;
    use undercooked::net::client::api::api_create_mode;
    use undercooked::net::server::rooms::HostedRoom;
    use undercooked::net::server::tandem_round::TandemRound;
    use undercooked::net::server::worlds::{HostConfig, spawn_server};
    use undercooked::protocol::tandem::GameMode;
    use undercooked::tandem::control::SeatOrder;
    use undercooked::tandem::events::TandemEvent;

    let dir = std::env::temp_dir().join(format!("uc-online-tandem-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let h = spawn_server(HostConfig { max_rooms: 4, ..HostConfig::loopback(dir) })
        .expect("server starts");
    let reply = api_create_mode(&h.addrs.web.to_string(), "Ann", GameMode::Tandem).expect("seat");
    #[derive(Resource, Default)]
    struct Heard(Vec<TandemEvent>);
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    app.insert_resource(Options(PlayArgs { autoplay: Some(Autoplay::Bot), ..Default::default() }));
    connect(&mut app, &reply).expect("client starts");
    app.add_plugins((TandemOnlinePlugin, TandemBeatsPlugin));
    app.init_resource::<Heard>();
    app.add_systems(Last, |mut r: MessageReader<TandemTick>, mut heard: ResMut<Heard>| {
        heard.0.extend(r.read().flat_map(|t| t.0.events.clone()));
    });
    app.finish();
    app.cleanup();
    // The fore seat's orders the server stepped that were not a still hold.
    let driven = |h: &undercooked::net::server::worlds::ServerHandle| {
        let code = reply.code.clone();
        h.with_world(move |w| {
            let mut q = w.query::<&HostedRoom>();
            let round = q.iter(w).find(|r| r.code == code).and_then(|r| r.round);
            round
                .and_then(|r| w.get::<TandemRound>(r))
                .map_or(0, |t| t.orders.iter().filter(|o| o[0] != SeatOrder::HOLD).count())
        })
    };
    let end = std::time::Instant::now() + Duration::from_secs(60);
    let mut done = false;
    while std::time::Instant::now() < end && !done {
        app.update();
        std::thread::sleep(Duration::from_millis(5));
        let w = app.world();
        let beat =
            w.resource::<Heard>().0.iter().any(|e| matches!(e, TandemEvent::DoorwayBeat { .. }));
        done = beat && w.get_resource::<TandemScreen>().is_some_and(|s| s.online && s.mine[0]);
    }
    let w = app.world();
    let line = w.resource::<BeatLine>();
    assert!(done, "a doorway passed and was heard: {:?}", w.resource::<Heard>().0);
    assert!(line.heard > 0 && !line.line.is_empty(), "the HUD's beat line: {line:?}");
    let orders = driven(&h);
    assert!(orders > 24, "the server ran {orders} orders of the window's porter");
    h.stop();
}

// ---- Local planner bots (`--autoplay bot`, `--bots N`, "Solo with a bot partner") ----

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn seat_plan_puts_bots_after_the_players() {
    use undercooked::client::local::seat_plan;
    assert_eq!(seat_plan(1, 0, false), (1, vec![]));
    assert_eq!(seat_plan(1, 1, false), (2, vec![1]), "solo with a bot partner");
    assert_eq!(seat_plan(2, 3, false), (4, vec![2, 3]), "four cooks at most");
    assert_eq!(seat_plan(2, 0, true), (2, vec![0, 1]), "--autoplay bot: every seat");
    assert_eq!(seat_plan(1, 1, true), (2, vec![0, 1]));
}

#[test]
fn local_bots_cook_and_serve_through_room_inputs() {
    use std::sync::Arc;
    use undercooked::client::local::{LocalBots, LocalGame, drive_local_bots, seat_plan};
    use undercooked::level::{find_level, load_recipes_file};
    use undercooked::sim::SimSystems;
    use undercooked::sim::open::SeatSpec;
    use undercooked::sim::room::Room;

    let book = load_recipes_file(&root().join("assets/recipes.ron")).expect("book");
    let level = find_level(&root().join("levels"), "tutorial", &book).expect("tutorial");
    let (level, book) = (Arc::new(level), Arc::new(book));
    // `--autoplay bot --players 2`: both seats are bots.
    let (cooks, bot_seats) = seat_plan(2, 0, true);
    let seats = SeatSpec::numbered(cooks as u8);
    let mut app = undercooked::clock::headless_app();
    app.add_systems(FixedUpdate, drive_local_bots.before(SimSystems::ResolveInput));
    let room = Room::new(level.clone(), book.clone(), 1, &seats);
    let room = app.world_mut().spawn(room).id();
    app.insert_resource(LocalGame { room, level: level.clone(), book, seats });
    app.insert_resource(LocalBots::new(bot_seats));
    let limit = level.time_limit.min(3_000);
    let start: Vec<_> = app.world().get::<Room>(room).expect("room").cooks.clone();
    let mut moved = false;
    let served = (0..limit).find(|_| {
        app.update();
        let r = app.world().get::<Room>(room).expect("room");
        moved |= r.cooks.iter().zip(&start).any(|(c, s)| c.pos != s.pos);
        r.counters.served > 0
    });
    assert!(moved, "the bots' frames moved their cooks");
    let at = served.unwrap_or_else(|| panic!("no dish served within {limit} ticks"));
    eprintln!("first dish served at tick {at}");
}

// ---- Designer mode: the error overlay ----

#[test]
fn the_designer_overlay_lists_a_rejected_edit_and_clears_on_fix() {
    use undercooked::client::local::designer::{DesignerOverlay, DesignerToolsPlugin};
    use undercooked::client::state::AppState;
    use undercooked::level::{LevelWatchConfig, LevelWatchPlugin};

    let dir = std::env::temp_dir().join(format!("uc-designer-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("tutorial.ron");
    std::fs::copy(root().join("levels/tutorial.ron"), &file).unwrap();
    let original = std::fs::read_to_string(&file).unwrap();

    let mut app = undercooked::clock::headless_app();
    app.init_state::<AppState>();
    app.add_plugins(InputPlugin);
    app.insert_resource(LevelWatchConfig {
        levels_dir: dir.clone(),
        recipes: Some(root().join("assets/recipes.ron")),
        poll_every: Duration::ZERO,
    });
    app.add_plugins(LevelWatchPlugin);
    app.add_plugins(DesignerToolsPlugin);
    let overlay = |app: &mut App| {
        let mut q = app.world_mut().query_filtered::<(&Text, &Node), With<DesignerOverlay>>();
        let (t, n) = q.single(app.world()).expect("one overlay");
        (t.0.clone(), n.display)
    };
    app.update();
    assert_eq!(overlay(&mut app), (String::new(), Display::None), "valid files, no overlay");

    // An unknown tile in the first floor row: its code, file and line:col are on screen.
    let broken = original.replacen("\"#.......#\"", "\"#..?....#\"", 1);
    assert_ne!(broken, original, "the fixture row is in the tutorial");
    let (line, col) = broken
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.find('?').map(|c| (i + 1, c + 1)))
        .expect("a ?");
    std::fs::write(&file, &broken).unwrap();
    let shown = (0..10).find_map(|_| {
        app.update();
        let (text, display) = overlay(&mut app);
        (!text.is_empty()).then_some((text, display))
    });
    let (text, display) = shown.expect("the overlay shows the error within 10 updates");
    assert_eq!(display, Display::Flex);
    assert!(text.contains("UNKNOWN_TILE"), "{text}");
    assert!(text.contains(&format!("tutorial.ron:{line}:{col}")), "{text}");

    // The fix clears it.
    std::fs::write(&file, &original).unwrap();
    let cleared = (0..10).any(|_| {
        app.update();
        overlay(&mut app).1 == Display::None
    });
    assert!(cleared, "the fix clears the overlay");
    assert_eq!(overlay(&mut app).0, "");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- Rebinding (Settings) and the config file ----

/// `host_lan` prefers UDP 7777 and web 7780 when free: two tests hosting at once could both see
/// them free and race to bind, so the tests that host take turns.
static ONE_HOST: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs a window command (`xvfb-run … undercooked …`) from the crate's root with its save file
/// in `dir`; returns what the game printed (stdout) and logged (stderr), and fails the test,
/// both shown, when the game exited non-zero.
fn run_window(cmd: &mut Command, dir: &Path) -> (String, String) {
    let out = cmd
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("UNDERCOOKED_SAVE", dir.join("save.json"))
        .output()
        .expect("run xvfb-run");
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "the game exited with {:?}:\n{said}\n{log}", out.status);
    (said, log)
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("uc-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The Settings screen's capture in a headless app: the next key pressed becomes the control's
/// binding (and is saved), a taken or reserved key is refused with the reason, and the maps
/// built from the new bindings make different input frames.
#[test]
fn rebinding_changes_the_frames_refuses_conflicts_and_saves() {
    use undercooked::client::settings::config::{
        Bindings, ConfigFile, Control, Slot, load_bindings,
    };
    use undercooked::client::settings::rebind::{Rebinding, capture_rebind};
    let dir = temp_dir("rebind");
    let file = dir.join("config.ron");
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, InputPlugin));
    app.insert_resource(Bindings::default())
        .insert_resource(ConfigFile(Some(file.clone())))
        .init_resource::<Rebinding>();
    app.add_systems(Update, capture_rebind);
    let press = |app: &mut App, key: KeyCode| {
        key.press(app.world_mut());
        app.update();
        key.release(app.world_mut());
        app.update();
    };
    let message =
        |app: &App| app.world().resource::<Rebinding>().message.clone().unwrap_or_default();

    // Keyboard 1's Up becomes I.
    app.world_mut().resource_mut::<Rebinding>().start(Slot::Keyboard1, Control::Up);
    app.update(); // the press that chose the control is not its key
    press(&mut app, KeyCode::KeyI);
    assert_eq!(app.world().resource::<Bindings>().keyboard_1.up, KeyCode::KeyI);
    assert!(app.world().resource::<Rebinding>().target.is_none(), "{}", message(&app));
    assert!(message(&app).contains("Keyboard 1 Up is now I"), "{}", message(&app));
    let (saved, error) = load_bindings(&file);
    assert_eq!(error, None);
    assert_eq!(saved.keyboard_1.up, KeyCode::KeyI, "the rebinding is in the config file");

    // A key of the other half, and a reserved key, are refused and the capture keeps waiting.
    app.world_mut().resource_mut::<Rebinding>().start(Slot::Keyboard1, Control::Down);
    app.update();
    press(&mut app, KeyCode::ArrowUp);
    assert!(message(&app).contains("Arrow Up is already Keyboard 2's Up"), "{}", message(&app));
    press(&mut app, KeyCode::KeyP);
    assert!(message(&app).contains("P is reserved: P pauses a round"), "{}", message(&app));
    assert_eq!(app.world().resource::<Bindings>().keyboard_1.down, KeyCode::KeyS);
    assert!(app.world().resource::<Rebinding>().target.is_some(), "still waiting");
    press(&mut app, KeyCode::Escape);
    assert!(app.world().resource::<Rebinding>().target.is_none(), "Esc cancels");
    assert_eq!(app.world().resource::<Bindings>().keyboard_1.down, KeyCode::KeyS);

    // The frames follow the new map: I walks up, W no longer does.
    let bindings = app.world().resource::<Bindings>().clone();
    let (mut app, p) = input_app_with(bindings.map(Device::KeyboardLeft));
    assert_eq!(frame_after(&mut app, p, &[KeyCode::KeyI]), ((0, -1000), false));
    let (mut app, p) = input_app_with(bindings.map(Device::KeyboardLeft));
    assert_eq!(frame_after(&mut app, p, &[KeyCode::KeyW]), ((0, 0), false));
    let (mut app, p) = input_app_with(Bindings::default().map(Device::KeyboardLeft));
    assert_eq!(frame_after(&mut app, p, &[KeyCode::KeyW]), ((0, -1000), false), "the control");
    let _ = std::fs::remove_dir_all(&dir);
}

fn input_app_with(map: InputMap<CookAction>) -> (App, Entity) {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, InputPlugin, InputManagerPlugin::<CookAction>::default()));
    let player = app.world_mut().spawn(map).id();
    app.update();
    (app, player)
}

#[test]
fn the_config_file_round_trips() {
    use undercooked::client::settings::config::{
        Bindings, Control, Press, Slot, load_bindings, store_bindings,
    };
    let dir = temp_dir("config-rt");
    let file = dir.join("config.ron");
    let mut b = Bindings::default();
    b.rebind(Slot::Keyboard2, Control::Act, Some(Press::Key(KeyCode::AltRight))).unwrap();
    b.rebind(Slot::Keyboard1, Control::AltAct, None).unwrap();
    b.rebind(Slot::Gamepad, Control::AltAct, Some(Press::Button(GamepadButton::LeftTrigger)))
        .unwrap();
    b.rebind(Slot::Keyboard1, Control::Dash, Some(Press::Key(KeyCode::KeyZ))).unwrap();
    assert_ne!(b, Bindings::default());
    store_bindings(&file, &b).expect("written");
    assert_eq!(load_bindings(&file), (b.clone(), None));
    // No file at all: the defaults, and nothing to complain about.
    assert_eq!(load_bindings(&dir.join("absent.ron")), (Bindings::default(), None));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Settings' directory is kept in config.ron beside the keys; a file from before it existed
/// loads with none, and `play --directory` wins over the saved one.
#[test]
fn the_directory_is_saved_in_the_config_and_the_command_line_wins() {
    use undercooked::client::args::{Options, PlayArgs};
    use undercooked::client::screens::play_online::directory_of;
    use undercooked::client::settings::config::{
        Bindings, bindings_text, load_bindings, store_bindings,
    };
    let dir = temp_dir("config-directory");
    let file = dir.join("config.ron");
    let saved =
        Bindings { directory: Some("http://dir.example:7790".into()), ..Bindings::default() };
    store_bindings(&file, &saved).expect("written");
    assert_eq!(load_bindings(&file), (saved.clone(), None));
    let old = bindings_text(&Bindings::default());
    assert!(!old.contains("directory"), "no directory, no line: {old}");
    std::fs::write(&file, old).expect("written");
    assert_eq!(load_bindings(&file).0.directory, None);
    let plain = Options(PlayArgs::default());
    assert_eq!(directory_of(&plain, &saved).as_deref(), Some("http://dir.example:7790"));
    assert_eq!(directory_of(&plain, &Bindings::default()), None);
    let given = PlayArgs { directory: Some(" http://other:1 ".into()), ..PlayArgs::default() };
    assert_eq!(directory_of(&Options(given), &saved).as_deref(), Some("http://other:1"));
    let blank = Bindings { directory: Some("  ".into()), ..Bindings::default() };
    assert_eq!(directory_of(&plain, &blank), None, "a blank directory is none");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_malformed_or_conflicting_config_is_refused_by_name_and_kept() {
    use undercooked::client::settings::config::{
        Bindings, bad_copy_path, bindings_text, load_bindings,
    };
    let dir = temp_dir("config-bad");
    let file = dir.join("config.ron");
    let broken = "Bindings(\n  keyboard_1: (up: KeyW, down: Oops,\n";
    std::fs::write(&file, broken).unwrap();
    let (b, error) = load_bindings(&file);
    assert_eq!(b, Bindings::default(), "the defaults are used");
    let error = error.expect("refused");
    assert_eq!(error.code(), "CONFIG_MALFORMED");
    assert!(
        error.to_string().starts_with(&format!("CONFIG_MALFORMED: {}:2:", file.display())),
        "{error}"
    );
    assert_eq!(std::fs::read_to_string(bad_copy_path(&file)).unwrap(), broken, "kept as .bad");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), broken, "the file itself is untouched");

    // Well-formed, but one key on both halves.
    let mut twice = Bindings::default();
    twice.keyboard_2.up = KeyCode::KeyW;
    std::fs::write(&file, bindings_text(&twice)).unwrap();
    let (b, error) = load_bindings(&file);
    assert_eq!(b, Bindings::default());
    let error = error.expect("refused");
    assert_eq!(error.code(), "CONFIG_CONFLICT");
    assert!(error.to_string().contains("W is bound twice"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Settings screen shows a refusal on one line that fits a 1280 px window (120 characters
/// of its 16 px font): a long one is cut and points at the log, which has it whole (the wrapped
/// message pushed the screen's title off the top at 1280×720).
#[test]
fn a_refused_configs_settings_line_is_one_line_that_points_at_the_log() {
    use undercooked::client::settings::config::{load_bindings, warning_line};
    let dir = temp_dir("config-line");
    let file = dir.join("config.ron");
    std::fs::write(&file, "Bindings(\n  keyboard_1: (up: KeyW, down: KeyS,,, oops\n").unwrap();
    let full = load_bindings(&file).1.expect("refused").to_string();
    let full =
        format!("{full}; using the default keys (your file is kept as {}.bad)", file.display());
    let line = warning_line(&full);
    assert!(!line.contains('\n') && line.chars().count() <= 120, "{line}");
    assert!(line.starts_with(&format!("CONFIG_MALFORMED: {}:2:", file.display())), "{line}");
    assert!(line.ends_with("... (the whole message is in the log)"), "{line}");
    assert_eq!(
        warning_line("CONFIG_CONFLICT: c.ron: W is bound twice"),
        "CONFIG_CONFLICT: c.ron: W is bound twice"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The accessibility options live in config.ron beside the keys: each one saved and loaded
/// back, a file from before they existed reads as the defaults, and a bad value is refused by
/// name (the defaults used, the file kept as .bad), as the bindings are.
#[test]
fn accessibility_options_round_trip_and_a_bad_value_is_refused_by_name() {
    use undercooked::client::settings::access::{AccessOption, Accessibility};
    use undercooked::client::settings::config::{
        Bindings, bad_copy_path, bindings_text, load_bindings, store_bindings,
    };
    use undercooked::client::settings::palette::PaletteKind;
    let dir = temp_dir("access-rt");
    let file = dir.join("config.ron");
    // Each option on its own, then all together.
    let mut all = Accessibility::default();
    for option in AccessOption::ALL {
        let mut one = Accessibility::default();
        one.step(option, true);
        all.step(option, true);
        assert_ne!(one, Accessibility::default(), "{option:?} changes something");
        let b = Bindings { accessibility: one, ..Bindings::default() };
        store_bindings(&file, &b).expect("written");
        assert_eq!(load_bindings(&file), (b, None), "{option:?} round-trips");
    }
    let b = Bindings { accessibility: all, ..Bindings::default() };
    store_bindings(&file, &b).expect("written");
    let (loaded, error) = load_bindings(&file);
    assert_eq!(error, None);
    assert_eq!(loaded.accessibility.palette, PaletteKind::ColourBlindSafe);
    assert_eq!(loaded.accessibility.ui_scale, 125);
    assert!(loaded.accessibility.reduced_motion && loaded.accessibility.high_contrast);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("accessibility:") && text.contains("ColourBlindSafe"), "{text}");

    // A file written before the options existed: the keys as saved, the default options.
    let mut keys = Bindings::default();
    keys.keyboard_1.act = KeyCode::KeyZ;
    let full = bindings_text(&keys);
    let cut = full.find("    accessibility:").expect("the options are written");
    std::fs::write(&file, format!("{})\n", &full[..cut])).unwrap();
    assert_eq!(load_bindings(&file), (keys, None));

    // Out of range: refused by name, the defaults used, the file kept.
    let bad = Bindings {
        accessibility: Accessibility { ui_scale: 250, ..Accessibility::default() },
        ..Bindings::default()
    };
    std::fs::write(&file, bindings_text(&bad)).unwrap();
    let (b, error) = load_bindings(&file);
    assert_eq!(b, Bindings::default(), "the defaults are used");
    let error = error.expect("refused");
    assert_eq!(error.code(), "CONFIG_BAD_VALUE");
    assert!(
        error.to_string().contains("accessibility.ui_scale: 250 % is outside 75–200 %"),
        "{error}"
    );
    assert_eq!(std::fs::read_to_string(bad_copy_path(&file)).unwrap(), bindings_text(&bad));
    // Not a palette at all: malformed, by name, with its place.
    let typo = bindings_text(&Bindings::default()).replace("palette: Standard", "palette: Sepia");
    assert!(typo.contains("Sepia"));
    std::fs::write(&file, &typo).unwrap();
    let (_, error) = load_bindings(&file);
    assert_eq!(error.expect("refused").code(), "CONFIG_MALFORMED");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- The Loading state ----

/// The Loading state (bevy_asset_loader) in a headless app: it loads the recipe book and every
/// level file through the asset server, counts them for the progress bar, and then opens the
/// title; the level select's campaign comes from those assets.
#[test]
fn the_loading_state_loads_the_content_then_opens_the_title() {
    use bevy::state::app::StatesPlugin;
    use undercooked::client::args::{Options, PlayArgs};
    use undercooked::client::screens::loading::{
        GameAssets, LoadProgress, campaign_from_assets, register_content_sources,
    };
    use undercooked::client::state::AppState;
    use undercooked::level::LevelAsset;

    let args = PlayArgs {
        levels: root().join("levels"),
        recipes: root().join("assets/recipes.ron"),
        ..Default::default()
    };
    let mut app = App::new();
    register_content_sources(&mut app, &args.levels, &args.recipes);
    app.add_plugins((MinimalPlugins, StatesPlugin, AssetPlugin::default()));
    app.insert_resource(Options(args.clone()));
    app.init_state::<AppState>();
    app.add_plugins(undercooked::client::screens::loading::LoadingPlugin);
    app.update();
    assert_eq!(*app.world().resource::<State<AppState>>().get(), AppState::Loading);
    let end = std::time::Instant::now() + Duration::from_secs(60);
    let mut counted = false;
    while std::time::Instant::now() < end
        && *app.world().resource::<State<AppState>>().get() == AppState::Loading
    {
        // The bar's numbers while the Loading screen is up (how far they got depends on the
        // machine's speed, so only that they were counted is asserted).
        let p = *app.world().resource::<LoadProgress>();
        counted |= p.total > 0 && p.done <= p.total;
        app.update();
        std::thread::sleep(Duration::from_millis(2));
    }
    assert_eq!(*app.world().resource::<State<AppState>>().get(), AppState::Title);
    let files = std::fs::read_dir(root().join("levels"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name() != "index.ron")
        .count();
    let progress = *app.world().resource::<LoadProgress>();
    assert_eq!(progress, LoadProgress { done: files + 1, total: files + 1 }, "book + levels");
    assert!(counted, "the bar counted handles while loading");
    let assets = app.world().resource::<GameAssets>().clone();
    let levels = app.world().resource::<Assets<LevelAsset>>();
    assert_eq!(assets.levels.len(), files);
    assert!(assets.levels.iter().all(|h| levels.get(h).is_some_and(|a| a.result.is_ok())));
    let campaign = campaign_from_assets(&assets, levels, &args.levels).expect("the campaign");
    assert_eq!(campaign.first().map(|l| l.id.as_str()), Some("tutorial"));
    // Every level file is a campaign level (tests/levels.rs lists the campaign in order).
    assert_eq!(campaign.len(), files, "levels/index.ron's campaign");
}

// ---- Host and Join from the menu ----

#[test]
fn join_links_and_typed_addresses_name_the_room() {
    use undercooked::client::online::join_target;
    use undercooked::net::client::api::{join_link, parse_join_link};
    let link = join_link("192.168.1.5:7780", "KQX4");
    assert_eq!(link, "http://192.168.1.5:7780/?room=KQX4");
    let pair = ("192.168.1.5:7780".to_string(), "KQX4".to_string());
    let target = Some(pair.clone());
    assert_eq!(parse_join_link(&link), target);
    assert_eq!(parse_join_link("  192.168.1.5:7780/?room=KQX4 "), target, "no scheme");
    assert_eq!(parse_join_link("https://192.168.1.5:7780?x=1&room=KQX4"), target);
    assert_eq!(parse_join_link("192.168.1.5:7780"), None, "an address is not a link");
    assert_eq!(parse_join_link("http://h:1/?room="), None);
    // The Join screen: a link needs no code; an address needs a port and a code.
    assert_eq!(join_target(&link, ""), Ok(pair.clone()));
    assert_eq!(join_target("192.168.1.5:7780", " kqx4 "), Ok(pair));
    assert!(join_target("192.168.1.5", "KQX4").unwrap_err().contains("no port"));
    assert!(join_target("192.168.1.5:7780", "").unwrap_err().contains("room code"));
    assert!(join_target("", "KQX4").unwrap_err().contains("address"));
}

/// The menu's Host in a headless app: a server opened on this machine with a room, the window
/// connected to it (the lobby arrives, with the address and code to show), a friend joining by
/// the join link, and leaving: disconnected, the server's entities gone, the server stopped.
#[test]
fn hosting_shows_the_room_a_friend_joins_by_link_and_leaving_stops_it() {
    use bevy::state::app::StatesPlugin;
    use undercooked::client::online::{
        Hosting, WindowedOnlinePlugin, go_online, host_lan, join_target, leave_online,
    };
    use undercooked::client::screens::host::host_lines;
    use undercooked::client::state::{AppState, Online};
    use undercooked::net::client::api::request_seat;
    use undercooked::net::client::headless::HeadlessClient;
    use undercooked::net::client::headless_inputs::InputMode;
    use undercooked::protocol::LobbyView;

    let _one = ONE_HOST.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = temp_dir("host");
    let (hosting, reply) =
        host_lan(&root().join("levels"), Some("tutorial"), "Host", 1, (dir.clone(), None))
            .expect("hosts");
    assert_eq!(reply.code, hosting.code);
    assert!(!hosting.web.ip().is_unspecified(), "an address friends can reach: {}", hosting.web);

    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin));
    app.init_state::<AppState>();
    app.insert_resource(undercooked::client::settings::config::Bindings::default());
    app.add_plugins(WindowedOnlinePlugin);
    app.finish();
    app.cleanup();
    app.insert_resource(hosting);
    go_online(app.world_mut(), &reply).expect("connects");
    assert!(app.world().contains_resource::<Online>());

    // A friend: the link from the Host screen, through the Join screen's parsing.
    let link = app.world().resource::<Hosting>().link();
    let (web, code) = join_target(&link, "").expect("the link names the room");
    assert_eq!(code, reply.code);
    let friend = request_seat(&web, Some(&code), "Bob", None, 1).expect("a seat by the link");
    let mut friend = HeadlessClient::connect(&friend, InputMode::Idle).expect("friend connects");

    let lobby = |app: &mut App| {
        let w = app.world_mut();
        w.query::<&LobbyView>().iter(w).next().cloned()
    };
    let end = std::time::Instant::now() + Duration::from_secs(30);
    let mut seen = None;
    while std::time::Instant::now() < end {
        app.update();
        friend.step();
        std::thread::sleep(Duration::from_millis(5));
        if let Some(l) =
            lobby(&mut app).filter(|l| l.seats.iter().filter(|s| s.connected).count() == 2)
        {
            seen = Some(l);
            break;
        }
    }
    let lobby_view = seen.expect("the host's window sees both cooks in its room's lobby");
    assert_eq!(lobby_view.code, reply.code);
    assert_eq!(lobby_view.level_id, "tutorial");
    let shown = host_lines(app.world().resource::<Hosting>(), Some(&lobby_view));
    assert!(shown.contains(&format!("Room code: {}", reply.code)), "{shown}");
    assert!(shown.contains(&format!("Address: {}", web)), "{shown}");
    assert!(shown.contains("Host") && shown.contains("Bob"), "{shown}");

    leave_online(app.world_mut());
    let w = app.world_mut();
    assert!(!w.contains_resource::<Online>() && !w.contains_resource::<Hosting>());
    assert!(!w.contains_resource::<bevy_replicon_renet::RenetClient>());
    assert_eq!(w.query::<&LobbyView>().iter(w).count(), 0, "the server's entities are gone");
    // The server stopped: its web port no longer answers.
    assert!(request_seat(&web, Some(&code), "Late", None, 1).is_err(), "the server stopped");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl+V on the Join screen reads the clipboard through an X11 selection request: here a
/// private Xvfb display with a test program owning CLIPBOARD (skipped, loudly, without Xvfb).
#[cfg(target_os = "linux")]
#[test]
fn paste_reads_the_clipboard_owners_text() {
    use undercooked::client::screens::paste::{clipboard_text, first_line};
    use x11rb::connection::Connection;
    use x11rb::protocol::Event;
    use x11rb::protocol::xproto::{
        ConnectionExt as _, CreateWindowAux, EventMask, PropMode, SelectionNotifyEvent, WindowClass,
    };
    use x11rb::wrapper::ConnectionExt as _;

    let Some(xvfb) = std::env::var_os("PATH")
        .and_then(|p| std::env::split_paths(&p).map(|d| d.join("Xvfb")).find(|p| p.is_file()))
    else {
        eprintln!("SKIPPED: Xvfb is not installed (apt-get install xvfb; .ci/run does)");
        return;
    };
    let display = format!(":{}", 300 + std::process::id() % 500);
    let mut server = Command::new(xvfb)
        .args([display.as_str(), "-screen", "0", "64x64x24", "-nolisten", "tcp"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start Xvfb");
    let connect = || {
        (0..200).find_map(|_| {
            x11rb::connect(Some(&display)).ok().or_else(|| {
                std::thread::sleep(Duration::from_millis(25));
                None
            })
        })
    };
    let (owner, screen) = connect().expect("the display comes up");
    // Nobody owns the clipboard yet: a refusal in words, not a hang.
    let empty = clipboard_text(Some(&display), Duration::from_millis(300));
    assert!(empty.is_err(), "{empty:?}");

    let link = "http://192.168.1.5:7780/?room=KQX4";
    let root = owner.setup().roots[screen].root;
    let win = owner.generate_id().unwrap();
    owner
        .create_window(
            0,
            win,
            root,
            0,
            0,
            1,
            1,
            0,
            WindowClass::INPUT_OUTPUT,
            0,
            &CreateWindowAux::new(),
        )
        .unwrap();
    let atom = |n: &[u8]| owner.intern_atom(false, n).unwrap().reply().unwrap().atom;
    let (clipboard, utf8) = (atom(b"CLIPBOARD"), atom(b"UTF8_STRING"));
    owner.set_selection_owner(win, clipboard, x11rb::CURRENT_TIME).unwrap();
    // A round trip, so the server has made `win` the owner before the paste asks: requests
    // from two connections are not ordered otherwise, and under load the ask won the race.
    let now_owner = owner.get_selection_owner(clipboard).unwrap().reply().unwrap().owner;
    assert_eq!(now_owner, win, "the test window owns the clipboard");
    // Answer every request until the paste is done (what a clipboard owner does): a request
    // left over from the empty check above can reach the owner first on a slow display, and
    // answering only the first one would leave the real paste unanswered.
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stop = done.clone();
    let serve = std::thread::spawn(move || {
        let mut answered = 0;
        let end = std::time::Instant::now() + Duration::from_secs(30);
        while std::time::Instant::now() < end && !stop.load(std::sync::atomic::Ordering::SeqCst) {
            let Some(Event::SelectionRequest(r)) = owner.poll_for_event().unwrap() else {
                std::thread::sleep(Duration::from_millis(5));
                continue;
            };
            let text = format!("\n  {link}  \nsecond line");
            owner
                .change_property8(PropMode::REPLACE, r.requestor, r.property, utf8, text.as_bytes())
                .unwrap();
            let notify = SelectionNotifyEvent {
                response_type: x11rb::protocol::xproto::SELECTION_NOTIFY_EVENT,
                sequence: 0,
                time: r.time,
                requestor: r.requestor,
                selection: r.selection,
                target: r.target,
                property: r.property,
            };
            owner.send_event(false, r.requestor, EventMask::NO_EVENT, notify).unwrap();
            owner.flush().unwrap();
            answered += 1;
        }
        answered > 0
    });
    let pasted = clipboard_text(Some(&display), Duration::from_secs(5));
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    assert!(serve.join().unwrap(), "the owner was asked");
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!(first_line(&pasted.expect("pasted")), link);
}

/// F3 shows the performance overlay — bevy_perf_ui's root with our entries — whose
/// values fill in from the diagnostics and the room clock, and F3 again hides it.
#[test]
fn f3_toggles_the_perf_overlay_with_live_numbers() {
    use bevy::diagnostic::DiagnosticsPlugin;
    use undercooked::client::perf::{self, PerfOverlay};
    use undercooked::protocol::RoomClock;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, InputPlugin, DiagnosticsPlugin));
    app.add_plugins(bevy::asset::AssetPlugin::default());
    app.init_asset::<Font>();
    app.add_plugins(perf::PerfPlugin);
    app.world_mut().spawn(RoomClock { tick: 77, time_left: 100 });
    let press = |app: &mut App| {
        KeyCode::F3.press(app.world_mut());
        app.update();
        KeyCode::F3.release(app.world_mut());
        app.update();
    };
    // Every text under the overlay's root, in spawn order: "label: " then the value.
    let overlay = |app: &mut App| -> Vec<String> {
        let w = app.world_mut();
        let roots: Vec<Entity> = w.query_filtered::<Entity, With<PerfOverlay>>().iter(w).collect();
        let mut texts = Vec::new();
        for root in roots {
            let mut stack = vec![root];
            while let Some(e) = stack.pop() {
                if let Some(t) = w.get::<Text>(e) {
                    texts.push(t.0.clone());
                }
                if let Some(children) = w.get::<Children>(e) {
                    stack.extend(children.iter().rev());
                }
            }
        }
        texts
    };
    app.update();
    assert!(overlay(&mut app).is_empty(), "hidden until F3");
    press(&mut app);
    for _ in 0..3 {
        app.update();
    }
    let shown = overlay(&mut app);
    let value_of = |texts: &[String], label: &str| {
        let at = texts.iter().position(|t| t == &format!("{label}: "));
        at.and_then(|i| texts.get(i + 1)).cloned()
    };
    assert_eq!(value_of(&shown, "Sim tick").as_deref(), Some("77"), "{shown:?}");
    assert_eq!(value_of(&shown, "Round trip").as_deref(), Some("-"), "offline: {shown:?}");
    for label in ["Loss", "Bandwidth", "Input delay", "Late frames", "Corrections"] {
        assert!(value_of(&shown, label).is_some(), "{label} in {shown:?}");
    }
    // The entity count fills in once the diagnostic has a value.
    let mut counted = false;
    for _ in 0..50 {
        let shown = overlay(&mut app);
        let entities = value_of(&shown, "Entities").expect("the entity count");
        if entities.trim().parse::<u32>().is_ok() {
            counted = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
        app.update();
    }
    assert!(counted, "{:?}", overlay(&mut app));
    press(&mut app);
    assert!(overlay(&mut app).is_empty(), "F3 again hides it");
}

/// Couch co-op online in the real window: `join --players 2` on a private Xvfb display seats
/// both local players of one window in two seats of a hosted room on one connection, and both
/// cooks' frames (the window's random autoplay, one stick per player) reach the server's
/// admitted log, which replays the round to the server's hash (skipped, loudly, without Xvfb).
#[test]
fn two_local_players_in_one_window_take_two_seats() {
    use undercooked::net::server::inputs::seat_frame_counts;
    use undercooked::net::server::rooms::{HostedRoom, replay_live};
    use undercooked::net::server::worlds::{HostConfig, spawn_server};
    use undercooked::sim::room::Room;

    let Some(xvfb) = std::env::var_os("PATH")
        .and_then(|p| std::env::split_paths(&p).map(|d| d.join("Xvfb")).find(|p| p.is_file()))
    else {
        eprintln!(
            "SKIPPED: Xvfb is not installed (apt-get install xvfb mesa-vulkan-drivers; .ci/run does)"
        );
        return;
    };
    let dir = temp_dir("couch-online");
    let display = format!(":{}", 800 + std::process::id() % 500);
    let mut x = Command::new(xvfb)
        .args([display.as_str(), "-screen", "0", "1024x768x24", "-nolisten", "tcp"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start Xvfb");
    let h = spawn_server(HostConfig { max_rooms: 4, ..HostConfig::loopback(dir.join("host")) })
        .expect("server starts");
    let log_path = dir.join("window.log");
    let mut window = Command::new(env!("CARGO_BIN_EXE_undercooked"))
        .args(["join", &h.addrs.web.to_string(), "--create", "--name", "Ann"])
        .args(["--players", "2", "--autoplay", "random"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("DISPLAY", &display)
        .env_remove("WAYLAND_DISPLAY")
        .env("UNDERCOOKED_SAVE", dir.join("save.json"))
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log_path).expect("log file"))
        .spawn()
        .expect("run the window");

    // Both seats held by one connection, a live round, and frames with a stick from both.
    type Seen = (Vec<Option<Entity>>, Vec<String>, Option<Room>);
    let state = |h: &undercooked::net::server::worlds::ServerHandle| -> Option<Seen> {
        h.with_world(|w| {
            let hosted = w.query::<&HostedRoom>().iter(w).next()?;
            let clients = hosted.seats.iter().flatten().map(|s| s.client).collect();
            let names = hosted.seats.iter().flatten().map(|s| s.name.clone()).collect();
            let room = hosted.round.and_then(|r| w.get::<Room>(r)).cloned();
            Some((clients, names, room))
        })
    };
    let moved = |room: &Room, seat: u8| {
        room.inputs.log().iter().filter(|(_, s, f)| *s == seat && f.mv != (0, 0)).count()
    };
    let end = std::time::Instant::now() + Duration::from_secs(180);
    let mut last: Option<Seen> = None;
    let mut exited = None;
    while std::time::Instant::now() < end {
        if let Ok(Some(status)) = window.try_wait() {
            exited = Some(status);
            break;
        }
        last = state(&h);
        let done = last
            .as_ref()
            .and_then(|l| l.2.as_ref())
            .is_some_and(|r| moved(r, 0) >= 10 && moved(r, 1) >= 10);
        if done {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let links = h.with_world(seat_frame_counts);
    let _ = window.kill();
    let _ = window.wait();
    let _ = x.kill();
    let _ = x.wait();
    let log = std::fs::read_to_string(&log_path).unwrap_or_default();
    let tail: String = log
        .lines()
        .rev()
        .take(40)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<Vec<_>>()
        .join("\n");
    let (clients, names, room) = match last {
        Some((c, n, Some(room))) if moved(&room, 0) >= 10 && moved(&room, 1) >= 10 => (c, n, room),
        other => panic!(
            "both local players' cooks did not move within 180 s (window exit: {exited:?}); the \
             server saw {:?}, moved {:?}; links {links:?}\n{tail}",
            other.as_ref().map(|o| (&o.0, &o.1)),
            other.as_ref().and_then(|o| o.2.as_ref()).map(|r| (r.tick, moved(r, 0), moved(r, 1))),
        ),
    };
    assert_eq!(clients.len(), 2, "two seats: {names:?}");
    assert!(clients[0].is_some() && clients[0] == clients[1], "one connection holds both");
    assert_eq!(names, ["Ann", "Ann 2"]);
    assert_eq!(links.iter().map(|(s, _)| *s).collect::<Vec<_>>(), [0, 1], "a link per seat");
    for (seat, counts) in &links {
        assert_eq!(counts.refused(), 0, "seat {seat}: {counts:?}");
    }
    // The admitted log replays the round bit for bit, both local players' frames included.
    let hash = replay_live(&room);
    assert_eq!(hash, room.hash, "the admitted log replays to the server's hash");
    h.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Online, one local player plays with every device (both keyboard halves, any gamepad); two
/// keep their own, as in local play. Decided from the lineup when the players spawn: the
/// server's welcome (how many seats) usually arrives after the kitchen opened.
#[test]
fn online_a_lone_player_takes_every_device_and_a_couch_keeps_its_own() {
    use bevy::state::app::StatesPlugin;
    use bevy_replicon_renet::RenetClient;
    use bevy_replicon_renet::renet::ConnectionConfig;
    use undercooked::client::input::{Lineup, LocalPlayer};
    use undercooked::client::online::OnlinePlugin;
    use undercooked::client::settings::config::Bindings;

    let bindings = Bindings::default();
    for (lineup, solo) in [
        (vec![Device::KeyboardLeft], true),
        (vec![Device::KeyboardLeft, Device::KeyboardRight], false),
    ] {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin, OnlinePlugin));
        app.insert_resource(bindings.clone());
        app.insert_resource(RenetClient::new(ConnectionConfig::default()));
        app.insert_resource(Lineup(lineup.clone()));
        let first = app
            .world_mut()
            .spawn((bindings.map(Device::KeyboardLeft), LocalPlayer { seat: 0 }))
            .id();
        app.world_mut().flush();
        let map = app.world().get::<InputMap<CookAction>>(first).expect("a map");
        assert_eq!(*map == bindings.solo_map(), solo, "lineup {lineup:?}");
        assert_eq!(*map == bindings.map(Device::KeyboardLeft), !solo, "lineup {lineup:?}");
    }
}

/// Tandem online in the window's client code: the host's window asks its room for Tandem; the
/// round the server runs is drawn from the replication (the screen the local run also fills:
/// the course generated from the seed, the newest view), and the seat's stick goes out as its
/// order every Tandem tick and reaches the server's run.
#[test]
fn the_online_client_draws_a_rooms_tandem_round_and_sends_its_seats_order() {
    use bevy::state::app::StatesPlugin;
    use undercooked::client::input::LocalPlayer;
    use undercooked::client::online::connect;
    use undercooked::client::tandem::online::{OrderClock, TandemOnlinePlugin};
    use undercooked::client::tandem::screen::TandemScreen;
    use undercooked::net::client::api::request_seat;
    use undercooked::net::server::rooms::HostedRoom;
    use undercooked::net::server::tandem_round::TandemRound;
    use undercooked::net::server::worlds::{HostConfig, spawn_server};
    use undercooked::protocol::LobbyCommand;
    use undercooked::protocol::LobbyView;
    use undercooked::protocol::tandem::{GameMode, TandemRoundInfo};
    use undercooked::tandem::control::SeatOrder;

    let dir = std::env::temp_dir().join(format!("uc-online-tandem-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let h = spawn_server(HostConfig { max_rooms: 4, ..HostConfig::loopback(dir) })
        .expect("server starts");
    let reply = request_seat(&h.addrs.web.to_string(), None, "Ann", None, 1).expect("a seat");
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    connect(&mut app, &reply).expect("client starts");
    app.add_plugins(TandemOnlinePlugin);
    app.init_resource::<undercooked::client::settings::config::Bindings>();
    // Player 1's stick full right (no input plugin runs here: the state stays as set).
    let mut state = ActionState::<CookAction>::default();
    state.set_axis_pair(&CookAction::Move, Vec2::X);
    app.world_mut().spawn((LocalPlayer { seat: 0 }, state));
    app.finish();
    app.cleanup();
    let right = SeatOrder::from_stick(1000, 0, false);
    let server_order = |h: &undercooked::net::server::worlds::ServerHandle| {
        let code = reply.code.clone();
        h.with_world(move |w| {
            let mut q = w.query::<&HostedRoom>();
            let round = q.iter(w).find(|r| r.code == code).and_then(|r| r.round)?;
            w.get::<TandemRound>(round).map(|t| t.wanted[0])
        })
    };
    let end = std::time::Instant::now() + Duration::from_secs(60);
    let mut done = false;
    while std::time::Instant::now() < end && !done {
        let w = app.world_mut();
        let mode = w.query::<&LobbyView>().iter(w).next().map(|l| l.mode);
        if mode == Some(GameMode::Cooking) {
            w.write_message(LobbyCommand::Mode(GameMode::Tandem));
        }
        app.update();
        std::thread::sleep(Duration::from_millis(5));
        let shown = app
            .world()
            .get_resource::<TandemScreen>()
            .is_some_and(|s| s.view.seats[0].order == right && s.view.tick > 24);
        done = shown && server_order(&h) == Some(right);
    }
    assert!(done, "the round is drawn with the seat's order in force, within the patience");
    let w = app.world_mut();
    let info = w.query::<&TandemRoundInfo>().iter(w).next().cloned().expect("replicated");
    let screen = w.resource::<TandemScreen>();
    assert!(
        screen.online && screen.mine == [true, false],
        "seat 0 is this window's, the porter aft"
    );
    assert_eq!(screen.course.digest, info.digest, "the course is generated here from the seed");
    // Orders start when the round is seen, so the count trails the view's tick a little.
    let (seq, tick) = (w.resource::<OrderClock>().seq, screen.view.tick);
    assert!(seq * 2 >= tick, "an order every Tandem tick: {seq} orders by tick {tick}");
    h.stop();
}

/// One session core, two front ends: a message handled once in `net::client::seats` serves the
/// headless client and the window alike. Ann plays headless; Bob's window session (the online
/// plugins on a real connection) joins after the round began: the core's one `watching`
/// handler marks Bob's window watching and counts the round, exactly the fields the headless
/// client reports in `--stats`, and the window's lobby panel words say so; Ann is not told.
#[test]
fn the_window_and_the_headless_client_share_the_sessions_watching_handler() {
    use bevy::state::app::StatesPlugin;
    use undercooked::client::online::{connect, lobby_lines};
    use undercooked::net::client::api::{api_create, api_join};
    use undercooked::net::client::headless::HeadlessClient;
    use undercooked::net::client::headless_inputs::InputMode;
    use undercooked::net::client::seats::ClientSession;
    use undercooked::net::client::watching::WATCHING;
    use undercooked::net::server::worlds::{HostConfig, spawn_server};
    use undercooked::protocol::{CookView, LobbyView};

    let dir = std::env::temp_dir().join(format!("uc-one-session-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let h = spawn_server(HostConfig { max_rooms: 4, ..HostConfig::loopback(dir) })
        .expect("server starts");
    let web = h.addrs.web.to_string();
    let a = api_create(&web, "Ann", None).expect("a seat");
    let mut ann = HeadlessClient::connect(&a, InputMode::Idle).expect("Ann connects");
    let end = std::time::Instant::now() + Duration::from_secs(60);
    while std::time::Instant::now() < end
        && !(ann.clock().is_some_and(|c| c.tick > 5) && ann.cooks().len() == 1)
    {
        ann.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(ann.cooks().len(), 1, "Ann's round is live");

    let b = api_join(&web, &a.code, "Bob", None).expect("a seat mid-round");
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    connect(&mut app, &b).expect("Bob's window connects");
    app.finish();
    app.cleanup();
    let end = std::time::Instant::now() + Duration::from_secs(60);
    let mut told = false;
    while std::time::Instant::now() < end && !told {
        ann.step();
        app.update();
        std::thread::sleep(Duration::from_millis(5));
        told = app.world().resource::<ClientSession>().rounds_watched == 1;
    }
    let w = app.world_mut();
    let s = w.resource::<ClientSession>();
    assert!(told && s.watching, "the window's session is told it watches: {s:?}");
    let seats = s.seats();
    let lobby = w.query::<&LobbyView>().iter(w).next().cloned().expect("the lobby is replicated");
    let in_round: Vec<u8> = w.query::<&CookView>().iter(w).map(|c| c.seat).collect();
    assert_eq!(in_round, vec![0], "Bob sees Ann's cook and has none of his own");
    let panel = lobby_lines(&lobby, &seats, &in_round);
    assert!(panel.contains(WATCHING), "the window's panel says so: {panel}");
    // The same handler in Ann's headless session: she plays, and is not told.
    assert!(!ann.session().watching && ann.session().rounds_watched == 0, "Ann plays");
    assert_eq!(ann.stats()["rounds_watched"], 0);
    h.stop();
}

/// A child process killed (SIGKILL) and reaped when dropped, with the address its first line
/// names after `marker`.
struct Banner {
    child: std::process::Child,
    addr: String,
}

impl Drop for Banner {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn banner(args: &[&str], marker: &str) -> Banner {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_undercooked"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the binary starts");
    let mut out = BufReader::new(child.stdout.take().expect("piped"));
    let mut first = String::new();
    out.read_line(&mut first).expect("a banner");
    let addr = first
        .split(marker)
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("banner {first:?} lacks {marker:?}"))
        .to_string();
    std::thread::spawn(move || out.lines().for_each(drop));
    Banner { child, addr }
}

fn http_json(url: &str, body: Option<&serde_json::Value>) -> (i32, serde_json::Value) {
    let req = match body {
        Some(b) => minreq::post(url)
            .with_header("Content-Type", "application/json")
            .with_body(b.to_string()),
        None => minreq::get(url),
    };
    match req.with_timeout(10).send() {
        Ok(r) => {
            (r.status_code, serde_json::from_str(r.as_str().unwrap_or("")).unwrap_or_default())
        }
        Err(_) => (0, serde_json::Value::Null),
    }
}

/// Play online under Xvfb, over real processes: a directory and two game servers announcing to
/// it, a public lobby with a free seat on each. The window lists both servers and both rooms
/// (its screenshot is taken with the list on screen), then `--autoplay` quick-matches: the
/// window's two local players sit in one of those rooms, together.
#[test]
fn play_online_lists_servers_and_quick_match_seats_both_local_players_under_xvfb() {
    let Some(xvfb) = xvfb_or_skip() else { return };
    let dir = temp_dir("play-online");
    let directory =
        banner(&["directory", "--bind", "127.0.0.1", "--web-port", "0"], "directory: http://");
    let url = format!("http://{}", directory.addr);
    let server = |name: &str| {
        let data = dir.join(name);
        let data = data.to_str().expect("a path");
        banner(
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
                data,
                "--announce",
                &url,
                "--name",
                name,
                "--region",
                "test",
                "--announce-secs",
                "1",
            ],
            "web http://",
        )
    };
    let (alpha, beta) = (server("Alpha"), server("Beta"));
    let mut codes = Vec::new();
    for s in [&alpha, &beta] {
        let body = serde_json::json!({"name": "Host", "public": true});
        let (status, v) = http_json(&format!("http://{}/api/rooms", s.addr), Some(&body));
        assert_eq!(status, 201, "{v}");
        codes.push((s.addr.clone(), v["code"].as_str().expect("a code").to_string()));
    }
    let end = std::time::Instant::now() + Duration::from_secs(40);
    loop {
        let (_, v) = http_json(&format!("{url}/api/servers"), None);
        let listed = v["servers"].as_array().map_or(0, |s| {
            s.iter().filter(|s| s["public_rooms"].as_array().is_some_and(|r| r.len() == 1)).count()
        });
        if listed == 2 {
            break;
        }
        assert!(std::time::Instant::now() < end, "both servers and rooms listed: {v}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let window = |png: &Path, autoplay: bool| {
        let mut c = Command::new(&xvfb);
        c.args(["-a", "-s", "-screen 0 1024x768x24"])
            .arg(env!("CARGO_BIN_EXE_undercooked"))
            .args(["play", "--screen", "play-online", "--directory", &url, "--players", "2"])
            .arg("--screenshot")
            .arg(png)
            .args(["--after-frames", "10", "--size", "1280x720"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("UNDERCOOKED_SAVE", dir.join("save.json"));
        if autoplay {
            c.args(["--autoplay", "random"]);
        }
        let out = c.output().expect("run xvfb-run");
        let log = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "the game exited with {:?}:\n{log}", out.status);
        log
    };
    let png = dir.join("play-online.png");
    let log = window(&png, false);
    assert!(log.contains("play online: 2 servers, 2 public rooms"), "{log}");
    assert_real_frame(&png, (1280, 720), &log);
    let png = dir.join("quick-match.png");
    let log = window(&png, true);
    let joined = log
        .split("quick match: joined room ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no quick match line:\n{log}"));
    // It sat in one of the listed rooms, both of the window's players in it. (Names, not a
    // count: the hosts' seats, never connected, are freed after 60 s on a slow machine.)
    let names = |web: &str, code: &str| -> Vec<String> {
        let (_, room) = http_json(&format!("http://{web}/api/rooms/{code}"), None);
        let seats = room["seats"].as_array().cloned().unwrap_or_default();
        seats.iter().filter_map(|s| s["name"].as_str().map(str::to_string)).collect()
    };
    let (web, code) = codes.iter().find(|(_, c)| c == joined).expect("a listed room");
    let seated = names(web, code);
    assert!(seated.contains(&"Cook".into()) && seated.contains(&"Cook 2".into()), "{seated:?}");
    for (web, code) in codes.iter().filter(|(_, c)| c != joined) {
        assert!(!names(web, code).contains(&"Cook".into()), "the other room is as it was");
    }
    // The room's lobby on screen (no round: its host's seat is away), saved as a picture.
    assert!(png.is_file(), "the screenshot in the room: {log}");
    drop((alpha, beta, directory));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Host screen's Public / Private: the window's LAN server announces to the directory it is
/// set to; its room starts private (resolved by code, not listed) and, made public, is listed
/// for Play online and quick match.
#[test]
fn a_hosted_room_made_public_is_listed_in_the_directory() {
    use undercooked::client::online::host_lan;
    use undercooked::client::online::hosting::set_room_public;
    let _one = ONE_HOST.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = temp_dir("host-public");
    let directory =
        banner(&["directory", "--bind", "127.0.0.1", "--web-port", "0"], "directory: http://");
    let url = format!("http://{}", directory.addr);
    let levels = root().join("levels");
    let (hosting, reply) =
        host_lan(&levels, Some("tutorial"), "Host", 1, (dir.clone(), Some(url.clone())))
            .expect("hosts");
    let listed = |public: bool| {
        let end = std::time::Instant::now() + Duration::from_secs(40);
        loop {
            let (_, v) = http_json(&format!("{url}/api/servers"), None);
            let server = v["servers"].as_array().and_then(|s| s.first().cloned());
            let shown = server.as_ref().and_then(|s| s["public_rooms"].as_array().cloned());
            let has = shown.is_some_and(|r| r.iter().any(|r| r["code"] == reply.code.as_str()));
            if server.is_some_and(|s| s["rooms"] == 1) && has == public {
                return;
            }
            assert!(std::time::Instant::now() < end, "listed public={public}: {v}");
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    listed(false);
    let (status, _) = http_json(&format!("{url}/api/rooms/{}", reply.code), None);
    assert_eq!(status, 200, "a private room resolves by its code");
    assert!(set_room_public(&hosting, true));
    listed(true);
    assert!(set_room_public(&hosting, false));
    listed(false);
    hosting.server.stop();
    drop(directory);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `play --daily --date 2026-12-06`: the window opens straight into that day's generated
/// kitchen (`gen_m_20261206`, the file `level generate --daily --date 2026-12-06` writes) and
/// a real frame of it is taken.
#[test]
fn the_daily_kitchen_opens_in_the_window_under_xvfb() {
    let Some(xvfb) = xvfb_or_skip() else { return };
    let dir = temp_dir("daily-shot");
    let png = dir.join("daily.png");
    let (w, h) = (640u32, 360u32);
    let out = Command::new(xvfb)
        .args(["-a", "-s", "-screen 0 1024x768x24"])
        .arg(env!("CARGO_BIN_EXE_undercooked"))
        .args(["play", "--daily", "--date", "2026-12-06", "--autoplay", "bot"])
        .arg("--screenshot")
        .arg(&png)
        .args(["--after-ticks", "40", "--size", &format!("{w}x{h}")])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("UNDERCOOKED_SAVE", dir.join("save.json"))
        .output()
        .expect("run xvfb-run");
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the game exited with {:?}:\n{log}", out.status);
    assert!(
        log.contains("gen_m_20261206"),
        "the round is the daily kitchen's (its id in the log):\n{log}"
    );
    assert_real_frame(&png, (w, h), &log);
    let _ = std::fs::remove_dir_all(&dir);
}
