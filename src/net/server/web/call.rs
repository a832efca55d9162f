//! The one message the web port sends a server world: a parsed request and where to answer.
//! The world answers within a frame (`net::server::http::answer_api`), so room state has one owner.

use super::api::ApiBody;
use serde_json::Value;
use std::net::IpAddr;
use tokio::sync::oneshot;

/// Asked of the world by the router (not reachable over HTTP): `{"codes": [...]}`, every live
/// room code, which the router prunes its code table with.
pub const ROOM_CODES_PATH: &str = "/internal/rooms";
/// Asked of the world by the announcer (not reachable over HTTP): `{"rooms": [RoomEntry…]}`,
/// every live room as the directory is told of it (`net::server::listing`).
pub const ROOM_LIST_PATH: &str = "/internal/listing";
/// Asked of the world by the announcer, `/internal/recode/CODE` (not reachable over HTTP): the
/// room gets a fresh code, answered as `{"code": NEW}` (the directory holds CODE for another
/// server).
pub const RECODE_PATH: &str = "/internal/recode";
/// Asked of the world for `GET /metrics`: a 200 whose value is a `Value::String` of
/// Prometheus text.
pub const METRICS_PATH: &str = "/metrics";

/// One request handed to the world.
pub struct ApiCall {
    pub method: String,
    pub path: String,
    pub body: ApiBody,
    /// The peer that asked (None: the router itself).
    pub peer: Option<IpAddr>,
    /// The answer: status and JSON. Sending never blocks, so the world may answer from any
    /// system or command.
    pub reply: oneshot::Sender<(u16, Value)>,
}
