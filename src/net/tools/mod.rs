//! Tools put around a server, never part of one: the impairment proxy (`undercooked netem`),
//! the load generator and `bench net`. Native only: one gate, in `net/mod.rs`.

#[cfg(not(target_arch = "wasm32"))]
pub mod impair;
#[cfg(not(target_arch = "wasm32"))]
pub mod lean_client;
#[cfg(not(target_arch = "wasm32"))]
pub mod loadgen;
#[cfg(not(target_arch = "wasm32"))]
pub mod netbench;
