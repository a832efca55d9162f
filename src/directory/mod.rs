//! `undercooked directory`: the service that lists game servers and their public rooms and
//! resolves a room code to the server holding it (docs/NETWORK.md, "The directory";
//! docs/HOSTING.md). A service beside `net`, not part of a game server: it reuses the web
//! port's guards (`net::web`) and the room-code rules (`net::tokens`), and imports no client
//! code. Native only.
//!
//! Files, one idea each: [`wire`] (the bodies, shared with the announcing server), [`error`]
//! (named refusals), [`limits`] (per-address rates), [`check`] (what an announce must be), [`admit`] (who may write an entry,
//! and the probe before listing), [`probe`] (the health request to a claimed address),
//! [`store`] (the trait), [`memory`] and [`redis_store`] (its two homes), [`service`]
//! (routes), [`serve`] (the port), [`metrics`], [`cli`], [`bench`] (`bench directory`).

pub mod admit;
pub mod bench;
pub mod check;
pub mod cli;
pub mod error;
pub mod limits;
pub mod memory;
pub mod metrics;
pub mod probe;
pub mod redis_store;
pub mod serve;
pub mod service;
pub mod store;
