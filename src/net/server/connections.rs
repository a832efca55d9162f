//! The server's side of each connection: seating it from its token's user data, its lobby
//! commands and emotes, its seat held when it leaves and its room's tick events sent to it; with the send
//! pacing and the clean shutdown on a signal, as one plugin.

use crate::net::server::emotes::{EmotePaces, EmoteTally, admit_emotes};
use crate::net::server::host::Shutdown;
use crate::net::server::inputs::{InputGatePlugin, InputLinks, admit_inputs};
use crate::net::server::lobby::{LobbyRefusals, lobby_commands};
use crate::net::server::peer::{Peer, Refused};
use crate::net::server::rooms::{HostedRoom, RoundOf, abort_all};
use crate::net::server::seats::local_player_name;
use crate::net::server::tandem_round::admit_orders;
use crate::net::wire::tokens::Admission;
use crate::project::RoomTick;
use crate::protocol::{TickEvents, Welcome};
use crate::replay::hex::hex_bytes;
use crate::schedule::TickSystems;
use bevy::prelude::*;
use bevy_replicon::prelude::*;
use bevy_replicon::shared::backend::connected_client::NetworkId;
use bevy_replicon_renet::RenetSend;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The networking systems of the server.
pub struct ServerNetPlugin;

impl Plugin for ServerNetPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            PreUpdate,
            (
                seat_clients,
                lobby_commands,
                admit_inputs,
                admit_orders,
                admit_emotes,
                release_clients,
            )
                .chain()
                .after(ServerSystems::Receive),
        );
        app.add_plugins(InputGatePlugin);
        app.init_resource::<LobbyRefusals>();
        app.init_resource::<EmoteTally>().init_resource::<EmotePaces>();
        app.add_systems(FixedPostUpdate, forward_tick_events.in_set(TickSystems::Publish));
        app.add_systems(Update, shutdown_on_signal);
        // Packets go out on frames that ran a tick only. Replication is produced once per
        // tick anyway, but renet also sends an ack packet to every client on every frame it
        // runs (100 Hz here). Flushing at the tick rate costs no latency: nothing a client
        // waits for is produced between ticks.
        app.init_resource::<SendPace>();
        app.add_systems(FixedPostUpdate, |mut pace: ResMut<SendPace>| pace.0 = true);
        app.configure_sets(PostUpdate, RenetSend.run_if(|pace: Res<SendPace>| pace.0));
        app.add_systems(PostUpdate, (|mut pace: ResMut<SendPace>| pace.0 = false).after(RenetSend));
    }
}

/// True from a simulated tick until the packets of that frame are sent.
#[derive(Resource, Default)]
struct SendPace(bool);

/// Seats every newly authorised connection from its token's user data, or refuses it.
fn seat_clients(
    mut commands: Commands,
    transport: Res<crate::net::server::udp::HostTransport>,
    new: Query<(Entity, &NetworkId), (With<AuthorizedClient>, Without<Peer>, Without<Refused>)>,
    mut lobbies: Query<&mut HostedRoom>,
    index: Res<crate::net::server::rooms::RoomIndex>,
    mut welcome: MessageWriter<ToClients<Welcome>>,
    mut disconnect: MessageWriter<DisconnectRequest>,
) {
    for (client, id) in &new {
        let admission = transport.user_data(id.get()).and_then(|d| Admission::decode(&d));
        let seated = admission.as_ref().and_then(|a| {
            let lobby = index.lobby(&a.code)?;
            let mut hosted = lobbies.get_mut(lobby).ok()?;
            let seats = hosted.seats_of(&a.secret);
            let mut dropped = Vec::new();
            for (k, &seat) in seats.iter().enumerate() {
                let slot = hosted.seats[seat as usize].as_mut()?;
                if let Some(old) = slot.client.replace(client)
                    && !dropped.contains(&old)
                {
                    // The same seats from a new connection (a reconnect that beat the timeout).
                    disconnect.write(DisconnectRequest { client: old });
                    dropped.push(old);
                }
                slot.away_since = None;
                slot.reserved_until = None;
                slot.name = local_player_name(&a.name, k);
            }
            (!seats.is_empty()).then(|| (lobby, seats, hosted.key, a.code.clone(), a.secret))
        });
        match seated {
            Some((lobby, seats, key, code, secret)) => {
                info!(client = %client, room = %code, seats = ?seats, "player seated");
                commands.entity(client).insert((
                    Peer { lobby, seats: seats.clone(), code: code.clone() },
                    InputLinks::for_seats(seats.len()),
                    key,
                ));
                welcome.write(ToClients {
                    targets: SendTargets::Single(ClientId::Client(client)),
                    message: Welcome { code, seats, reconnect: hex_bytes(&secret) },
                });
            }
            None => {
                warn!(client = %client, admission = ?admission, "connection refused: no seat for its token");
                commands.entity(client).insert(Refused);
                disconnect.write(DisconnectRequest { client });
            }
        }
    }
}

/// A disconnected player's seat is held (the cook stands still) for the reconnect window.
fn release_clients(mut gone: RemovedComponents<Peer>, mut lobbies: Query<&mut HostedRoom>) {
    for client in gone.read() {
        for mut hosted in &mut lobbies {
            let code = hosted.code.clone();
            for (seat, slot) in hosted.seats.iter_mut().enumerate() {
                if let Some(s) = slot
                    && s.client == Some(client)
                {
                    s.client = None;
                    s.ready = false;
                    s.away_since = Some(Instant::now());
                    info!(client = %client, room = %code, seat, "player left; seat held");
                }
            }
        }
    }
}

/// Each tick's sim events go to the clients of that room only, each connection once (two
/// players at one window used to get every tick twice, and heard every cue twice).
fn forward_tick_events(
    mut ticks: MessageReader<RoomTick>,
    rounds: Query<&RoundOf>,
    lobbies: Query<&HostedRoom>,
    mut out: MessageWriter<ToClients<TickEvents>>,
) {
    for t in ticks.read() {
        let Some(hosted) = rounds.get(t.room).ok().and_then(|r| lobbies.get(r.0).ok()) else {
            continue;
        };
        for client in hosted.clients() {
            out.write(ToClients {
                targets: SendTargets::Single(ClientId::Client(client)),
                // RoomTick carries the tick after the advance; the events belong to the one
                // before (docs/SIMULATION.md: events are logged with tick = room.tick − 1).
                message: TickEvents { tick: t.tick.saturating_sub(1), events: t.events.clone() },
            });
        }
    }
}

/// On SIGINT/SIGTERM: every live round ends ABORTED and is recorded, then the app exits 0.
fn shutdown_on_signal(world: &mut World) {
    if !world.resource::<Shutdown>().0.load(Ordering::SeqCst) {
        return;
    }
    info!("shutdown requested: aborting live rounds");
    abort_all(world, "shutdown");
    // The run's tick-time percentiles (docs/PERFORMANCE.md's capacity numbers).
    if let Some(t) = world.get_resource::<crate::net::server::ticktime::TickTimes>() {
        // Not `println!`: a closed stdout must not turn a clean shutdown into a panic.
        use std::io::Write;
        let _ = writeln!(
            std::io::stdout(),
            "tick times: {}",
            crate::net::server::ticktime::summary(&t.all)
        );
    }
    world.write_message(AppExit::Success);
}
