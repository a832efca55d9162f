//! The host: everything `undercooked --headless` runs and a client never does — the worlds and
//! their supervision (`worlds`), rooms and their lifecycle, seating and admission, the input gate,
//! the web port (`web/`) and its world side (`http`), the UDP transport, limits, metrics, logs,
//! tick timing and the bots that fill seats. Native only: one gate, in `net/mod.rs`.

#[cfg(all(feature = "agones", not(target_arch = "wasm32")))]
pub mod agones;
#[cfg(not(target_arch = "wasm32"))]
pub mod announce;
pub mod bots;
#[cfg(not(target_arch = "wasm32"))]
pub mod connections;
#[cfg(not(target_arch = "wasm32"))]
pub mod daily;
#[cfg(not(target_arch = "wasm32"))]
pub mod drain;
#[cfg(not(target_arch = "wasm32"))]
pub mod emotes;
#[cfg(not(target_arch = "wasm32"))]
pub mod gate;
#[cfg(not(target_arch = "wasm32"))]
pub mod host;
#[cfg(not(target_arch = "wasm32"))]
pub mod hosted;
#[cfg(not(target_arch = "wasm32"))]
pub mod http;
#[cfg(not(target_arch = "wasm32"))]
pub mod inputs;
#[cfg(not(target_arch = "wasm32"))]
pub mod limiter;
pub mod listing;
#[cfg(not(target_arch = "wasm32"))]
pub mod lobby;
#[cfg(not(target_arch = "wasm32"))]
pub mod logs;
#[cfg(not(target_arch = "wasm32"))]
pub mod metrics;
pub mod offered;
#[cfg(not(target_arch = "wasm32"))]
pub mod peer;
#[cfg(not(target_arch = "wasm32"))]
pub mod quick_seat;
#[cfg(not(target_arch = "wasm32"))]
pub mod records;
#[cfg(not(target_arch = "wasm32"))]
pub mod rooms;
#[cfg(not(target_arch = "wasm32"))]
pub mod seats;
#[cfg(not(target_arch = "wasm32"))]
pub mod tandem_round;
#[cfg(not(target_arch = "wasm32"))]
pub mod ticktime;
#[cfg(not(target_arch = "wasm32"))]
pub mod udp;
#[cfg(not(target_arch = "wasm32"))]
pub mod versus_levels;
#[cfg(not(target_arch = "wasm32"))]
pub mod web;
#[cfg(not(target_arch = "wasm32"))]
pub mod worlds;
