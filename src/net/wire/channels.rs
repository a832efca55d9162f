//! The renet channels both ends of a connection use: replicon's, with its mutation acks sent
//! unreliably.

use bevy_replicon::prelude::RepliconChannels;
use bevy_replicon::shared::backend::channels::ClientChannel;
use bevy_replicon_renet::RenetChannelsExt;
use bevy_replicon_renet::renet::{ConnectionConfig, SendType};

/// The connection config for replicon's channels, the same on the server and every client
/// (a peer with a different one is refused at connect by netcode's `PROTOCOL_ID`).
///
/// Replicon sends its mutation acks on an ordered reliable channel. We send them unreliably:
/// the server folds an ack in whatever order it comes (`ClientTicks::ack_mutate_message` only
/// moves an entity's acknowledged tick forward), and an ack that is lost only means the next
/// mutate message carries that entity's changes again until a later ack covers them — the
/// replicated state never depends on one ack arriving. What it saves is the reliable packet's
/// message id (a varint that grows to 4 bytes after ~14 minutes at one ack a tick) and renet's
/// resend bookkeeping, 2–5 bytes a tick up per client (issue 16's ≤ 1 KB/s up; measured in
/// docs/PERFORMANCE.md, "Network conditions").
pub fn connection_config(channels: &RepliconChannels) -> ConnectionConfig {
    let mut client_channels_config = channels.client_configs();
    if let Some(acks) = client_channels_config.get_mut(ClientChannel::MutationAcks as usize) {
        acks.send_type = SendType::Unreliable;
    }
    ConnectionConfig {
        server_channels_config: channels.server_configs(),
        client_channels_config,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy_replicon::shared::backend::channels::ServerChannel;

    #[test]
    fn mutation_acks_go_unreliable_and_nothing_else_changes() {
        let channels = RepliconChannels::default();
        let config = connection_config(&channels);
        let acks = &config.client_channels_config[ClientChannel::MutationAcks as usize];
        assert!(matches!(acks.send_type, SendType::Unreliable));
        let updates = &config.server_channels_config[ServerChannel::Updates as usize];
        assert!(matches!(updates.send_type, SendType::ReliableOrdered { .. }));
        assert_eq!(config.server_channels_config.len(), channels.server_channels().len());
        assert_eq!(config.client_channels_config.len(), channels.client_channels().len());
    }
}
