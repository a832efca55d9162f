//! `undercooked fuzz`: seeded mutations of real inputs fed to the network stack and the
//! loaders, to show that no input ends the process. Stable Rust, no fuzzing engine: each target
//! builds its inputs from real encoders (netcode and renet clients, HTTP requests, WebSocket
//! frames, shipped files) and [`mutate`] varies them, all from one seed, so a failure replays.
//!
//! A target refusing an input with a typed error is the expected outcome (its kind is counted);
//! a panic anywhere, on the calling thread or on a server's thread, is the finding.

pub mod capture;
pub mod http;
pub mod live;
pub mod loaders;
pub mod mutate;
pub mod netcode;
pub mod relay;
pub mod renet;
pub mod runner;
pub mod target;
