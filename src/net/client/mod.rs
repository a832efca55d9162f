//! The client side of a hosted session, native and browser alike: the seat request (`api`), quick
//! match's rule (`quick_pick`; `quick` measures and asks natively), the
//! connection (`session`), the one session core every front end drives (`seats`: the welcome,
//! following the room, acks, ready; each server message handled there once) and its input
//! `outbox`, the uplink and prediction, its `emotes`, what a client sees of its round (`seen`), its Tandem
//! seat, and the transports (`ws`, `transport` natively, `browser` on wasm32). The headless
//! front end (`headless`, its `--inputs` in `headless_inputs`, `tandem_watch`), the native
//! transport opening and the HTTP seat request are native only: a browser has neither a
//! terminal, UDP sockets nor minreq; its transport is `browser`.

#[cfg(not(target_arch = "wasm32"))]
pub mod api;
#[cfg(target_arch = "wasm32")]
pub mod browser;
#[cfg(not(target_arch = "wasm32"))]
pub mod directory;
pub mod emotes;
#[cfg(not(target_arch = "wasm32"))]
pub mod headless;
#[cfg(not(target_arch = "wasm32"))]
pub mod headless_inputs;
pub mod outbox;
pub mod predict;
#[cfg(not(target_arch = "wasm32"))]
pub mod quick;
pub mod quick_pick;
pub mod seats;
pub mod seen;
pub mod session;
pub mod tandem_seat;
#[cfg(not(target_arch = "wasm32"))]
pub mod tandem_watch;
#[cfg(not(target_arch = "wasm32"))]
pub mod transport;
pub mod uplink;
pub mod watching;
pub mod ws;
