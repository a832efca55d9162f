//! The names the server and the Fleet (deploy/k8s/fleet.yaml) share: its label, its List and
//! its Counter.

/// The label that carries the netcode protocol id, so a fleet's allocations can ask for servers
/// that speak a client's protocol. The sidecar writes it as `agones.dev/sdk-protocol` (a label
/// name has one `/`: the SDK's keys are bare names).
pub const PROTOCOL_LABEL: &str = "protocol";

/// The List of room codes (capacity: the host's room cap) and the Counter of seated players.
pub const ROOMS_LIST: &str = "rooms";
pub const PLAYERS_COUNTER: &str = "players";
