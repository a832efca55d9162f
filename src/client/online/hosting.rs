//! Hosting from the game window (native builds): a hosted server on a thread of this process,
//! open to the LAN, with this window's players seated in a new room, and where friends reach
//! it. With a directory set (Settings, `play --directory`) the server announces itself there,
//! and the Host screen's Public choice lists the room for Play online and quick match.

use crate::client::args::PlayArgs;
use crate::client::input::Lineup;
use crate::net::client::api::{join_link, request_seat};
use crate::net::client::session::JoinReply;
use crate::net::server::announce::{ANNOUNCE_EVERY, AnnounceConfig};
use crate::net::server::rooms::{HostedRoom, RoomIndex};
use crate::net::server::worlds::{HostConfig, ServerHandle, spawn_server};
use crate::net::wire::error::NetError;
use crate::sim::units::MAX_COOKS;
use bevy::prelude::*;
use std::net::{IpAddr, SocketAddr, UdpSocket};
use std::path::{Path, PathBuf};

/// A LAN game this window hosts: the embedded server (a hosted server on its own thread in this
/// process, `net::server::worlds::spawn_server`) and where friends reach it.
#[derive(Resource)]
pub struct Hosting {
    pub server: ServerHandle,
    /// The web address friends join at (HOST:WEB_PORT, the LAN address when one is found).
    pub web: SocketAddr,
    pub code: String,
}

impl Hosting {
    /// The link a friend can paste into Join (the browser's room link too).
    pub fn link(&self) -> String {
        join_link(&self.web.to_string(), &self.code)
    }
}

/// This machine's address on the local network: the source address of a route to a public
/// address (a UDP `connect` sends nothing), or `None` offline.
pub fn lan_ip() -> Option<IpAddr> {
    let socket = UdpSocket::bind(("0.0.0.0", 0)).ok()?;
    socket.connect(("192.0.2.1", 9)).ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified() && !ip.is_loopback()).then_some(ip)
}

/// A directory URL naming this machine (`localhost`, a loopback address).
fn on_this_machine(directory: &str) -> bool {
    let rest = directory.split("://").last().unwrap_or(directory);
    let host = rest.split(['/', ':']).next().unwrap_or("");
    host == "localhost" || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// `preferred` when it is free, else a free port from the OS (0 when even that fails).
fn free_port(preferred: u16, udp: bool) -> u16 {
    let probe = |port: u16| -> Option<u16> {
        if udp {
            UdpSocket::bind(("0.0.0.0", port)).ok()?.local_addr().ok().map(|a| a.port())
        } else {
            std::net::TcpListener::bind(("0.0.0.0", port)).ok()?.local_addr().ok().map(|a| a.port())
        }
    };
    probe(preferred).or_else(|| probe(0)).unwrap_or(0)
}

/// Opens a hosted server to the LAN on this machine (UDP 7777 and web 7780 when free) and
/// creates a private room in it with this window's player seated: the server, the seat, and
/// the web address friends join at. Connect tokens name the LAN address first, then loopback.
/// With `directory`, the server heartbeats there (its LAN web address, its rooms).
pub fn host_lan(
    levels: &Path,
    level: Option<&str>,
    name: &str,
    players: u8,
    (data_dir, directory): (PathBuf, Option<String>),
) -> Result<(Hosting, JoinReply), NetError> {
    let udp = free_port(7777, true);
    let web_port = free_port(7780, false);
    let lan = lan_ip();
    let max_rooms = 4;
    let announce = directory.map(|directory| AnnounceConfig {
        // The directory takes an address only from its own sender: one on this machine hears
        // loopback, one on the LAN hears the LAN address.
        address: Some(SocketAddr::new(
            lan.filter(|_| !on_this_machine(&directory)).unwrap_or(IpAddr::from([127, 0, 0, 1])),
            web_port,
        )),
        directory,
        name: format!("{name}'s kitchen"),
        region: "home".into(),
        fleet: None,
        every: ANNOUNCE_EVERY,
        capacity: max_rooms,
    });
    let mut public: Vec<SocketAddr> = lan.map(|ip| SocketAddr::new(ip, udp)).into_iter().collect();
    public.push(SocketAddr::from(([127, 0, 0, 1], udp)));
    let server = spawn_server(HostConfig {
        bind: IpAddr::from([0, 0, 0, 0]),
        port: udp,
        web_port,
        levels: levels.to_path_buf(),
        // The shipped versus kitchens: the LAN host offers versus as a dedicated one does.
        versus_levels: std::path::PathBuf::from(crate::bot::prove::VERSUS_LEVELS_DIR),
        data_dir,
        max_rooms,
        public,
        empty_timeout: std::time::Duration::from_secs(120),
        bots_fill: None,
        shards: 1,
        web: crate::net::server::web::WebConfig { announce, ..Default::default() },
        // The in-game host stops with its window: nothing to drain for.
        drain: None,
        designer: false,
        // The day's generated kitchen is offered too: the LAN plays the daily kitchen together.
        daily: crate::net::server::daily::DailyDays::WallClock,
    })?;
    let web = SocketAddr::new(lan.unwrap_or(IpAddr::from([127, 0, 0, 1])), server.addrs.web.port());
    let local_web = SocketAddr::from(([127, 0, 0, 1], server.addrs.web.port()));
    match request_seat(&local_web.to_string(), None, name, level, players) {
        Ok(reply) => Ok((Hosting { server, web, code: reply.code.clone() }, reply)),
        Err(e) => {
            server.stop();
            Err(e)
        }
    }
}

/// The Host screen's Public / Private: lists the hosted room in the directory (public) or
/// leaves it reachable by its code alone, from the server's next heartbeat on. False when the
/// room or the server is gone.
pub fn set_room_public(hosting: &Hosting, public: bool) -> bool {
    let code = hosting.code.clone();
    hosting
        .server
        .try_with_world(move |w| {
            let room = w.resource::<RoomIndex>().by_code.get(&code).copied();
            let mut hosted = room.and_then(|e| w.get_mut::<HostedRoom>(e))?;
            hosted.public = public;
            Some(())
        })
        .flatten()
        .is_some()
}

/// How many seats this window asks a room for: every cook who joined on the title (the
/// lineup), at least `--players`, 1 to [`MAX_COOKS`].
pub fn local_players(args: &PlayArgs, lineup: &Lineup) -> u8 {
    (lineup.0.len() as u8).max(args.players).clamp(1, MAX_COOKS as u8)
}
