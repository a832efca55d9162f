//! `--announce URL`: the game server's heartbeat to a directory, a task on the web port's
//! runtime. Every `every` it sends the server's public web address, name, region, protocol,
//! capacity and each room (code, level, mode, phase, seats, public) from the worlds
//! ([`super::web::router::Router::listing`]). The first answer gives the entry's id and secret,
//! which every later heartbeat carries; a room whose code the directory holds for another
//! server (`code_taken`) is re-coded here and announced again at once. A directory that is
//! down or refuses is logged and tried again on the next beat: the rooms play on regardless.
//! A drain (`net::server::drain`) is announced at once (`draining: true`): the directory then
//! offers none of this server's rooms while its rounds finish. In an Agones fleet (`--agones`)
//! each announce also names the GameServer, once the SDK sidecar has told it.

pub use super::web::config::{ANNOUNCE_EVERY, AnnounceConfig, public_web};

use crate::net::client::directory::post_announce;
use crate::net::server::web::service::Shared;
use crate::net::wire::directory::{Announce, Announced, MAX_ANNOUNCED_ROOMS};
use crate::net::wire::tokens::PROTOCOL_ID;
use bevy::log::{info, warn};
use std::net::SocketAddr;
use std::sync::Arc;

/// Heartbeats until the runtime stops.
pub async fn run(cfg: AnnounceConfig, shared: Arc<Shared>, bound: SocketAddr) {
    let capacity = cfg.capacity.max(1);
    let address = public_web(&cfg, bound).to_string();
    let mut entry: Option<(String, String)> = None;
    let mut listed = false;
    loop {
        let mut rooms = shared.router.listing().await;
        rooms.truncate(MAX_ANNOUNCED_ROOMS.min(capacity));
        let draining = shared.cfg.draining.is_on();
        let body = Announce {
            id: entry.as_ref().map(|(id, _)| id.clone()),
            secret: entry.as_ref().map(|(_, s)| s.clone()),
            fleet: cfg.fleet.clone(),
            address: address.clone(),
            name: cfg.name.clone(),
            region: cfg.region.clone(),
            protocol: PROTOCOL_ID,
            capacity: capacity.min(u32::MAX as usize) as u32,
            rooms,
            draining,
            game_server: shared.cfg.game_server.get(),
        };
        let directory = cfg.directory.clone();
        let sent = tokio::task::spawn_blocking(move || post_announce(&directory, &body)).await;
        let mut again = false;
        match sent {
            Ok(Ok((200, v))) => match serde_json::from_value::<Announced>(v) {
                Ok(answer) => {
                    if let Some(secret) = answer.secret {
                        entry = Some((answer.id.clone(), secret));
                    }
                    if !listed {
                        info!(directory = %cfg.directory, id = %answer.id, %address, "listed in the directory");
                        listed = true;
                    }
                    for refused in answer.refused {
                        if let Some(new) = shared.router.recode(&refused.code).await {
                            warn!(old = %refused.code, new = %new, error = %refused.error, "room re-coded for the directory");
                            again = true;
                        }
                    }
                }
                Err(e) => {
                    warn!(directory = %cfg.directory, error = %e, "directory answer unreadable")
                }
            },
            Ok(Ok((status, v))) => {
                let error = v["error"].as_str().unwrap_or("unknown").to_string();
                warn!(directory = %cfg.directory, status, %error, detail = %v["detail"], "directory refused the announce");
                listed = false;
                // The entry is not ours any more (or never was): register afresh next beat.
                if error == "bad_secret" {
                    entry = None;
                }
            }
            Ok(Err(e)) => {
                warn!(directory = %cfg.directory, error = %e, "directory not reached");
                listed = false;
            }
            Err(e) => warn!(error = %e, "announce task"),
        }
        if !again {
            beat_or_drain(&shared, cfg.every, draining).await;
        }
    }
}

/// Waits for the next beat, or less: a drain that began since the last announce is told to
/// the directory at once, so it stops offering this server within a poll, not a beat.
async fn beat_or_drain(shared: &Shared, every: std::time::Duration, sent_draining: bool) {
    const POLL: std::time::Duration = std::time::Duration::from_millis(50);
    let end = tokio::time::Instant::now() + every;
    while tokio::time::Instant::now() < end {
        if shared.cfg.draining.is_on() != sent_draining {
            return;
        }
        tokio::time::sleep(POLL.min(end - tokio::time::Instant::now())).await;
    }
}
