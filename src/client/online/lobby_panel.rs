//! The lobby panel in the kitchen while connected (the windowed client and the browser
//! client): the room code, the phase, the seats and who is ready, where a LAN host's friends
//! join, and the invite link.

#[cfg(not(target_arch = "wasm32"))]
use super::hosting::Hosting;
use super::session::follow_lobby;
use crate::client::state::AppState;
#[cfg(not(target_arch = "wasm32"))]
use crate::client::state::Online;
use crate::net::client::seats::ClientSession;
use crate::net::client::watching::{WATCHING, round_seats, watching_round};
use crate::protocol::tandem::{GameMode, TandemRoundInfo};
use crate::protocol::{CookView, LobbyPhase, LobbyView};
use crate::sim::units::TICK_HZ;
use bevy::prelude::*;
use bevy_replicon_renet::RenetClient;

/// The lobby panel: room code, phase, seats and who is ready (bottom left).
#[derive(Component)]
struct LobbyText;

/// A link that opens this room, shown under the lobby panel (the browser client sets it).
#[derive(Resource, Clone, Debug)]
pub struct InviteLink(pub String);

/// The panel in the kitchen while connected (the windowed client and the browser client).
pub struct LobbyPanelPlugin;

impl Plugin for LobbyPanelPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            OnEnter(AppState::Playing),
            spawn_lobby_panel.run_if(resource_exists::<RenetClient>),
        );
        app.add_systems(Update, update_lobby_panel.after(follow_lobby));
    }
}

fn spawn_lobby_panel(mut commands: Commands) {
    commands.spawn((
        LobbyText,
        DespawnOnExit(AppState::Playing),
        Text::new("connecting..."),
        crate::client::hud::font(18.0),
        TextColor(Color::srgb(0.96, 0.95, 0.9)),
        BackgroundColor(Color::srgba(0.08, 0.09, 0.14, 0.88)),
        Node {
            position_type: PositionType::Absolute,
            bottom: px(8),
            left: px(8),
            padding: UiRect::all(px(8)),
            ..default()
        },
    ));
}

/// The panel's words for a lobby (`seats` are this window's; `in_round`, the seats playing the
/// live round: a window with none of them watches, and is told so).
pub fn lobby_lines(lobby: &LobbyView, seats: &[u8], in_round: &[u8]) -> String {
    let phase = match lobby.phase {
        _ if watching_round(lobby, seats, in_round) => format!("round on\n{WATCHING}"),
        LobbyPhase::Lobby => "lobby - waiting for everyone to be ready".to_string(),
        LobbyPhase::Countdown => format!("starting in {}", lobby.countdown.div_ceil(TICK_HZ)),
        LobbyPhase::Round => "round on".to_string(),
        LobbyPhase::Results => format!("results - lobby in {}", lobby.countdown.div_ceil(TICK_HZ)),
    };
    let level = match lobby.mode {
        GameMode::Cooking => format!("level {}", lobby.level_id),
        GameMode::Survival => format!("level {}, mode survival", lobby.level_id),
        GameMode::Tandem => format!("mode {} (seats P1 fore, P2 aft)", lobby.mode.label()),
        GameMode::Versus => {
            format!("level {}, mode versus (each seat on its spawn's team)", lobby.level_id)
        }
    };
    let mut text = format!("Room {} | {} | {level}", lobby.code, phase);
    if lobby.assist.is_on() {
        text.push_str(&format!(" | ASSIST: {}", lobby.assist.summary()));
    }
    if lobby.phase != LobbyPhase::Round && seats.contains(&0) {
        text.push_str(
            "
You host: F6 order timers, F7 round time (assist mode), F8 cooking / survival / tandem / versus",
        );
    }
    if lobby.phase != LobbyPhase::Round {
        for s in &lobby.seats {
            let you = if seats.contains(&s.seat) { " (you)" } else { "" };
            let state = match (s.connected, s.ready) {
                (false, _) => "away",
                (true, true) => "ready",
                (true, false) => "not ready",
            };
            let team = s.team.map(|t| format!(" [team {}]", t.as_str().to_uppercase()));
            let team = team.unwrap_or_default();
            text.push_str(&format!("\nP{} {}{you}{team}: {state}", s.seat + 1, s.name));
        }
    }
    text
}

fn update_lobby_panel(
    lobbies: Query<&LobbyView>,
    s: Res<ClientSession>,
    client: Option<Res<RenetClient>>,
    #[cfg(not(target_arch = "wasm32"))] from_menu: Option<Res<Online>>,
    #[cfg(not(target_arch = "wasm32"))] hosting: Option<Res<Hosting>>,
    invite: Option<Res<InviteLink>>,
    mut panel: Query<&mut Text, With<LobbyText>>,
    (cooks, tandem): (Query<&CookView>, Query<&TandemRoundInfo>),
) {
    let Ok(mut t) = panel.single_mut() else { return };
    #[cfg(not(target_arch = "wasm32"))]
    let leave = if from_menu.is_some() { "M for the menu" } else { "close the window" };
    #[cfg(target_arch = "wasm32")]
    let leave = "reload the page";
    let mut text = match (client.as_deref(), lobbies.iter().next()) {
        (Some(c), _) if c.is_disconnected() => {
            format!("disconnected from room {} ({leave})", s.code)
        }
        (_, Some(lobby)) => {
            let in_round = round_seats(cooks.iter().map(|c| c.seat), tandem.iter());
            lobby_lines(lobby, &s.seats(), &in_round)
        }
        _ => format!("connecting to room {}...", s.code),
    };
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(h) = hosting {
        text = format!("Hosting on your network: {} room {}\n{text}", h.web, h.code);
    }
    if let Some(link) = invite
        && lobbies.iter().next().is_none_or(|l| l.phase != LobbyPhase::Round)
    {
        text.push_str(&format!("\ninvite: {}", link.0));
    }
    if t.0 != text {
        t.0 = text;
    }
}
