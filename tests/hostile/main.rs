//! What a hostile peer sends, against a real server over real sockets on 127.0.0.1: one test
//! binary, one module per front (issue 20). Waits are bounded loops on observed state, never
//! wall-clock assertions.

mod files;
mod fuzz;
#[path = "../support/loopback.rs"]
mod loopback;
mod packets;
mod soak;
mod web;
