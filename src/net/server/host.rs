//! What a built server world knows about its host: the addresses it listens on, its netcode
//! key and its stop switch. Resources of their own, so the web API's world side and the
//! connection systems read them without depending on how the world was built.

use bevy::prelude::*;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The addresses the server actually listens on (after ephemeral ports were chosen).
#[derive(Resource, Clone, Debug)]
pub struct HostAddrs {
    pub udp: SocketAddr,
    pub web: SocketAddr,
    /// What connect tokens name.
    pub public: Vec<SocketAddr>,
}

/// The netcode private key (never leaves the server).
#[derive(Resource, Clone)]
pub struct ServerKey(pub [u8; 32]);

/// Set by a signal (or a test) to stop the server cleanly.
#[derive(Resource, Clone, Default)]
pub struct Shutdown(pub Arc<AtomicBool>);
