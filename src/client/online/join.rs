//! `undercooked join` without `--headless`: the game window on a hosted room, the presentation
//! plugins fed by the online client ([`crate::client::online`]) instead of a local host.

use crate::client::args::{Options, PlayArgs};
use crate::client::capture::shot::StartedAt;
use crate::client::online::lobby_panel::LobbyPanelPlugin;
use crate::client::online::session::connect;
use crate::client::presentation::PresentationPlugin;
use crate::client::state::AppState;
use crate::client::tandem::online::TandemOnlinePlugin;
use crate::client::window::window_plugins;
use crate::net::client::api::{create_room, request_seat};
use crate::protocol::tandem::GameMode;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use std::process::ExitCode;

/// `undercooked join HOST:WEB_PORT (--room CODE | --create) --name NAME [--players N]`: the
/// game window on a hosted room, its `args.players` local players each in a seat of their own
/// on one connection; a room made here is listed in the directory when `public` (`--quick`'s
/// new room). Returns the exit code (1 when no seat or connection could be had).
pub fn run(
    web: &str,
    room: Option<&str>,
    (name, public): (&str, bool),
    level: Option<&str>,
    args: PlayArgs,
) -> ExitCode {
    let started = Instant::now();
    let players = args.players.max(1);
    let asked = match room {
        None if public => create_room(web, name, level, players, true, GameMode::Cooking),
        _ => request_seat(web, room, name, level, players),
    };
    let reply = match asked {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if room.is_none() {
        println!("room: {}", reply.code);
    }
    let mut app = App::new();
    app.add_plugins(window_plugins(&args));
    app.insert_resource(StartedAt(started));
    app.insert_resource(Options(args));
    app.insert_state(AppState::Playing);
    app.add_plugins(PresentationPlugin);
    if let Err(e) = connect(&mut app, &reply) {
        eprintln!("error: connect: {e}");
        return ExitCode::from(1);
    }
    app.add_plugins((LobbyPanelPlugin, crate::client::online::lobby_assist::LobbyAssistPlugin));
    app.add_plugins((crate::client::online::lobby_mode::LobbyModePlugin, TandemOnlinePlugin));
    eprintln!("joined room {} as {name} (seats {:?})", reply.code, reply.seats);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
