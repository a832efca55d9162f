//! The deadline for replicon's protocol check: a netcode session that has not been authorised
//! [`AUTH_DEADLINE`] after it connected is disconnected, so a client holding a valid token but
//! never speaking the protocol (or speaking another build's) cannot keep a client slot.

use bevy::prelude::*;
use bevy_replicon::prelude::*;
use std::time::{Duration, Instant};

/// How long a connection may stay unauthorised. A real client sends its protocol hash in its
/// first packets; even over a lossy 300 ms link that is well under a second.
pub const AUTH_DEADLINE: Duration = Duration::from_secs(5);

/// When a connection entity appeared (the wall clock: a network deadline, not a sim rule).
#[derive(Component, Clone, Copy, Debug)]
pub struct ConnectedAt(pub Instant);

/// On a connection already told to go (it may take a frame to disappear).
#[derive(Component)]
struct PastDeadline;

/// Connections dropped for missing the deadline, since the server started.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct UnauthorisedDrops(pub u64);

/// Stamps new connections and drops the ones past [`AUTH_DEADLINE`] without authorisation.
pub struct AuthDeadlinePlugin;

impl Plugin for AuthDeadlinePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<UnauthorisedDrops>();
        app.add_systems(
            PreUpdate,
            (stamp_connections, drop_unauthorised).chain().after(ServerSystems::Receive),
        );
    }
}

fn stamp_connections(
    mut commands: Commands,
    new: Query<Entity, (With<ConnectedClient>, Without<ConnectedAt>)>,
) {
    let now = Instant::now();
    for client in &new {
        commands.entity(client).insert(ConnectedAt(now));
    }
}

fn drop_unauthorised(
    mut commands: Commands,
    waiting: Query<
        (Entity, &ConnectedAt),
        (With<ConnectedClient>, Without<AuthorizedClient>, Without<PastDeadline>),
    >,
    mut disconnect: MessageWriter<DisconnectRequest>,
    mut drops: ResMut<UnauthorisedDrops>,
) {
    let now = Instant::now();
    for (client, at) in &waiting {
        if now.duration_since(at.0) > AUTH_DEADLINE {
            warn!(client = %client, "connection dropped: no protocol check within the deadline");
            commands.entity(client).insert(PastDeadline);
            disconnect.write(DisconnectRequest { client });
            drops.0 += 1;
        }
    }
}
