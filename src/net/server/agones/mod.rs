//! `--agones` (cargo feature `agones`): the host as an Agones game server, through the official
//! Rust SDK and the sidecar Agones runs beside it in the pod. Each world beats a [`Pulses`] slot
//! from its tick loop and publishes its rooms there ([`pulse`]); one [`link::Link`] thread
//! says `Ready` once the host is up, pings `Health` only while every world ticks, keeps the
//! `rooms` List and `players` Counter equal to what the worlds hold ([`load`]), labels the
//! protocol, drains on an Agones shutdown and says `Shutdown` after the drain. A failed SDK call
//! is logged, counted in `/metrics` and tried again; it never touches a round (docs/HOSTING.md,
//! "An Agones fleet").

pub mod address;
pub mod link;
pub mod load;
pub mod names;
pub mod pulse;

pub use link::{Link, LinkConfig};
pub use names::{PLAYERS_COUNTER, PROTOCOL_LABEL, ROOMS_LIST};
pub use pulse::{PulsePlugin, Pulses};

/// How long `--agones` drains when `--drain-seconds` is not given: the longest campaign round
/// (long_pass, 300 s), so a round that began just before the shutdown still ends on its own.
pub const DEFAULT_DRAIN: std::time::Duration = std::time::Duration::from_secs(300);

/// Starts the link of a host built with `pulses` (its worlds beat them): the rooms List's
/// capacity is `max_rooms`, the players Counter's every seat of those rooms, and an Agones
/// shutdown runs `on_shutdown` (what the first SIGTERM runs).
pub fn start_link(
    pulses: &Pulses,
    max_rooms: usize,
    web: &crate::net::server::web::WebConfig,
    metrics: &crate::net::server::metrics::HostMetrics,
    on_shutdown: std::sync::Arc<dyn Fn() + Send + Sync>,
) -> Result<Link, crate::net::wire::error::NetError> {
    Link::start(LinkConfig {
        pulses: pulses.clone(),
        room_cap: max_rooms,
        seat_cap: max_rooms * crate::net::server::seats::MAX_SEATS,
        protocol: crate::net::wire::tokens::PROTOCOL_ID,
        game_server: web.game_server.clone(),
        metrics: metrics.clone(),
        on_shutdown,
        sidecar_port: None,
        steps: Default::default(),
    })
}
