//! The client side of a hosted session, native and browser alike: the seat request (`api`), the
//! session every client shares (`session`), the uplink and prediction, what a client sees of its
//! round (`seen`), its Tandem seat, and the transports (`ws`, and `browser` on wasm32). The
//! headless front end (`headless`, `tandem_watch`) and the HTTP seat request are native only:
//! a browser has neither a terminal nor minreq; its transport is `browser`.

#[cfg(not(target_arch = "wasm32"))]
pub mod api;
#[cfg(target_arch = "wasm32")]
pub mod browser;
#[cfg(not(target_arch = "wasm32"))]
pub mod directory;
#[cfg(not(target_arch = "wasm32"))]
pub mod headless;
pub mod predict;
pub mod seen;
pub mod session;
pub mod tandem_seat;
#[cfg(not(target_arch = "wasm32"))]
pub mod tandem_watch;
pub mod uplink;
pub mod watching;
pub mod ws;
