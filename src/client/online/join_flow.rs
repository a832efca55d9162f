//! Joining from the game window's menu (native builds): what the Join screen's fields mean, the
//! seat asked for off the main thread, the window going online on the answer (the views come
//! from the server) and back to local play on M, and the plugin that makes a window able to.

use super::hosting::Hosting;
use super::lobby_panel::LobbyPanelPlugin;
use super::session::OnlineSystemsPlugin;
use crate::client::kitchen::interp::PredictedCooks;
use crate::client::local::RoundPhase;
use crate::client::state::{AppState, Online};
use crate::net::client::api::{parse_join_link, request_seat};
use crate::net::client::directory::find_room;
use crate::net::client::seats::ClientSession;
use crate::net::client::session::{ClientNetPlugin, JoinReply};
use crate::net::client::transport::{Transport, open_connection};
use crate::net::wire::error::NetError;
use bevy::prelude::*;
use bevy_replicon::client::Remote;
use bevy_replicon_renet::RenetClient;
use bevy_replicon_renet::netcode::NetcodeClientTransport;
use std::sync::Mutex;
use std::sync::mpsc::Receiver;

/// What the Join screen's fields mean: a join link in the address field carries its own room
/// code; otherwise the address and the code as typed. Refused with the reason in words.
pub fn join_target(address: &str, code: &str) -> Result<(String, String), String> {
    if let Some(target) = parse_join_link(address) {
        return Ok(target);
    }
    let address = address.trim();
    let code = code.trim().to_uppercase();
    if address.is_empty() {
        return Err("type the host's address (HOST:PORT) or paste a join link (with a \
                    directory in Settings, the room code alone is enough)"
            .into());
    }
    if !address.contains(':') {
        return Err(format!("`{address}` has no port: the host's screen shows HOST:PORT"));
    }
    if code.is_empty() {
        return Err("type the room code the host's screen shows".into());
    }
    Ok((address.to_string(), code))
}

/// Connects the window (built with [`WindowedOnlinePlugin`]) to the room of `reply`: local
/// hosting stands down ([`Online`]) and the views come from the server.
pub fn go_online(world: &mut World, reply: &JoinReply) -> Result<(), NetError> {
    open_connection(world, reply, &Transport::Udp)?;
    world.insert_resource(ClientSession::new(&reply.code, false));
    world.insert_resource(Online);
    world.insert_resource(RoundPhase::Live);
    Ok(())
}

/// Disconnects, forgets the server's entities, stops hosting, and gives the window back to
/// local play.
pub fn leave_online(world: &mut World) {
    if let Some(mut transport) = world.remove_resource::<NetcodeClientTransport>() {
        transport.disconnect();
    }
    world.remove_resource::<RenetClient>();
    let remote: Vec<Entity> = world.query_filtered::<Entity, With<Remote>>().iter(world).collect();
    for e in remote {
        if let Ok(entity) = world.get_entity_mut(e) {
            entity.despawn();
        }
    }
    world.remove_resource::<Online>();
    world.remove_resource::<PredictedCooks>();
    world.insert_resource(ClientSession::default());
    world.insert_resource(RoundPhase::Live);
    if let Some(hosting) = world.remove_resource::<Hosting>() {
        hosting.server.stop();
    }
}

/// A join in flight: the web port's answer arrives on another thread (a wrong address must not
/// freeze the window for the request's timeout).
#[derive(Resource)]
pub struct PendingJoin(pub Mutex<Receiver<Result<JoinReply, NetError>>>);

/// Ask `web` for `players` seats in room `code` on a thread; poll the answer with
/// [`PendingJoin`].
pub fn start_join(web: String, code: String, name: String, players: u8) -> PendingJoin {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(request_seat(&web, Some(&code), &name, None, players));
    });
    PendingJoin(Mutex::new(rx))
}

/// Asks `directory` which server holds room `code`, then that server for `players` seats, off
/// the main thread (the window's Join with a code alone).
pub fn start_join_by_code(
    directory: String,
    code: String,
    name: String,
    players: u8,
) -> PendingJoin {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let seat = find_room(&directory, &code).and_then(|found| {
            request_seat(&found.address, Some(&found.code), &name, None, players)
        });
        let _ = tx.send(seat);
    });
    PendingJoin(Mutex::new(rx))
}

/// The game window's networking: the client plugins (inert until a Host or Join connects),
/// the online systems, the lobby panel, and M to leave a room for the menu.
pub struct WindowedOnlinePlugin;

impl Plugin for WindowedOnlinePlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((ClientNetPlugin, OnlineSystemsPlugin));
        app.add_plugins(LobbyPanelPlugin);
        app.add_systems(
            Update,
            leave_on_m.run_if(resource_exists::<Online>.and_then(in_state(AppState::Playing))),
        );
        app.add_systems(Last, stop_hosting_on_exit);
    }
}

fn leave_on_m(world: &mut World) {
    if world.resource::<ButtonInput<KeyCode>>().just_pressed(KeyCode::KeyM) {
        leave_online(world);
        world.resource_mut::<NextState<AppState>>().set(AppState::Menu);
    }
}

/// Closing the window while hosting ends the hosted rounds cleanly (as SIGTERM would).
fn stop_hosting_on_exit(world: &mut World) {
    let exiting =
        world.resource::<Messages<AppExit>>().iter_current_update_messages().next().is_some();
    if exiting && world.contains_resource::<Hosting>() {
        leave_online(world);
    }
}
